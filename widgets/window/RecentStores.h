// SPDX-License-Identifier: MIT
#pragma once
// The File > Recent Stores list, kept in QSettings ("radt", "radt-explorer").

#include <QStringList>

namespace radt {

class RecentStores {
public:
    explicit RecentStores(int maxEntries = 8);

    /// Newest first.
    QStringList entries() const;
    /// Puts uri (normalised) first, dropping a former copy and the entries past the maximum.
    void add(const QString& uri);
    void remove(const QString& uri);
    void clear();

    /// The form a URI is remembered in: SQLite paths made absolute, any password dropped (passwords
    /// are never written to disk; PGPASSWORD or ~/.pgpass supply them).
    static QString normalize(const QString& uri);

private:
    void save(const QStringList& entries) const;

    int m_maxEntries;
};

} // namespace radt
