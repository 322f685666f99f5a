// SPDX-License-Identifier: MIT
#pragma once
// Named basket selections (lists of run uuids) kept per store in QSettings, so a comparison can
// be put back in the basket later.

#include <QStringList>

class QSettings;

namespace radt {

class SavedSelections {
public:
    /// Reads and writes under "selections/" in `settings`, which must outlive this object.
    explicit SavedSelections(QSettings& settings);

    /// The names saved for a store, sorted for display.
    QStringList names(const QString& storeUri) const;
    /// The uuids saved under a name, in the order saved; empty when there is no such selection.
    QStringList runs(const QString& storeUri, const QString& name) const;
    bool contains(const QString& storeUri, const QString& name) const;
    /// Saves (or replaces) a selection. Throws std::invalid_argument for an empty store URI, an
    /// empty name or no uuids; std::runtime_error when the settings cannot be written.
    void save(const QString& storeUri, const QString& name, const QStringList& uuids);
    /// Forgets a selection; nothing happens when it does not exist.
    void remove(const QString& storeUri, const QString& name);

private:
    QString storeGroup(const QString& storeUri) const;
    QString selectionGroup(const QString& storeUri, const QString& name) const;

    QSettings& m_settings;
};

} // namespace radt
