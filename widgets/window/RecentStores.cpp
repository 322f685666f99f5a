// SPDX-License-Identifier: MIT
#include "widgets/window/RecentStores.h"

#include "core/store/Store.h"
#include "core/store/StoreUri.h"

#include <QFileInfo>
#include <QSettings>

namespace radt {

namespace {

const char* const kKey = "recentStores";

QSettings settings() {
    return QSettings(QStringLiteral("radt"), QStringLiteral("radt-explorer"));
}

} // namespace

RecentStores::RecentStores(int maxEntries) : m_maxEntries(maxEntries) {}

QStringList RecentStores::entries() const {
    QStringList list = settings().value(QLatin1String(kKey)).toStringList();
    list.removeAll(QString());
    return list.mid(0, m_maxEntries);
}

void RecentStores::save(const QStringList& entries) const {
    QSettings s = settings();
    s.setValue(QLatin1String(kKey), QVariant(entries.mid(0, m_maxEntries)));
}

void RecentStores::add(const QString& uri) {
    const QString entry = normalize(uri);
    if (entry.isEmpty())
        return;
    QStringList list = entries();
    list.removeAll(entry);
    list.prepend(entry);
    save(list);
}

void RecentStores::remove(const QString& uri) {
    QStringList list = entries();
    list.removeAll(uri);
    list.removeAll(normalize(uri));
    save(list);
}

void RecentStores::clear() {
    save({});
}

QString RecentStores::normalize(const QString& uri) {
    StoreUri parsed;
    try {
        parsed = parseStoreUri(uri.toStdString());
    } catch (const StoreError&) {
        return uri.trimmed();
    }
    if (parsed.kind == StoreUri::Kind::Sqlite) {
        // A relative path means nothing once the explorer starts from another directory.
        const QString path = QFileInfo(QString::fromStdString(parsed.path)).absoluteFilePath();
        return QStringLiteral("sqlite:///") + path;
    }
    QString text = QString::fromStdString(parsed.text);
    if (parsed.password.empty())
        return text;
    const int authority = text.indexOf(QLatin1String("://")) + 3;
    int end = text.indexOf(QLatin1Char('/'), authority);
    if (end < 0)
        end = text.size();
    const int at = text.lastIndexOf(QLatin1Char('@'), end - 1);
    const int colon = text.indexOf(QLatin1Char(':'), authority);
    if (at > authority && colon > 0 && colon < at)
        text.remove(colon, at - colon);
    return text;
}

} // namespace radt
