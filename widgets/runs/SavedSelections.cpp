// SPDX-License-Identifier: MIT
#include "widgets/runs/SavedSelections.h"

#include "widgets/common/Formatting.h"

#include <QSettings>

#include <algorithm>
#include <stdexcept>

namespace radt {

namespace {

// URIs and names hold '/', ':', '@' and spaces, which QSettings reads as group separators or
// escapes per format; and INI and registry keys are case-insensitive on Windows. Lowercase hex of
// the UTF-8 text survives every backend and keeps "Run A" and "run a" apart.
QString encode(const QString& text) {
    return QString::fromLatin1(text.toUtf8().toHex());
}

const QLatin1String kRoot("selections");
const QLatin1String kNameKey("name");
const QLatin1String kRunsKey("runs");

} // namespace

SavedSelections::SavedSelections(QSettings& settings) : m_settings(settings) {}

QString SavedSelections::storeGroup(const QString& storeUri) const {
    return kRoot + QLatin1Char('/') + encode(storeUri);
}

QString SavedSelections::selectionGroup(const QString& storeUri, const QString& name) const {
    return storeGroup(storeUri) + QLatin1Char('/') + encode(name.trimmed());
}

QStringList SavedSelections::names(const QString& storeUri) const {
    QStringList out;
    m_settings.beginGroup(storeGroup(storeUri));
    for (const QString& child : m_settings.childGroups()) {
        // The readable name is stored beside the runs: hex keys are not meant to be decoded.
        const QString name = m_settings.value(child + QLatin1Char('/') + kNameKey).toString();
        if (!name.isEmpty())
            out.append(name);
    }
    m_settings.endGroup();
    std::sort(out.begin(), out.end(), naturalLess);
    return out;
}

QStringList SavedSelections::runs(const QString& storeUri, const QString& name) const {
    if (name.trimmed().isEmpty())
        return {};
    return m_settings.value(selectionGroup(storeUri, name) + QLatin1Char('/') + kRunsKey).toStringList();
}

bool SavedSelections::contains(const QString& storeUri, const QString& name) const {
    return !name.trimmed().isEmpty() &&
           m_settings.contains(selectionGroup(storeUri, name) + QLatin1Char('/') + kRunsKey);
}

void SavedSelections::save(const QString& storeUri, const QString& name, const QStringList& uuids) {
    if (storeUri.trimmed().isEmpty())
        throw std::invalid_argument("a saved selection needs a store URI");
    if (name.trimmed().isEmpty())
        throw std::invalid_argument("a saved selection needs a name");
    QStringList runs = uuids;
    runs.removeAll(QString());
    runs.removeDuplicates();
    if (runs.isEmpty())
        throw std::invalid_argument("a saved selection needs at least one run");
    m_settings.beginGroup(selectionGroup(storeUri, name));
    m_settings.setValue(kNameKey, name.trimmed());
    m_settings.setValue(kRunsKey, runs);
    m_settings.endGroup();
    m_settings.sync(); // another window (or a crash) must not lose it
    if (m_settings.status() == QSettings::AccessError)
        throw std::runtime_error("cannot write " + m_settings.fileName().toStdString());
}

void SavedSelections::remove(const QString& storeUri, const QString& name) {
    if (name.trimmed().isEmpty())
        return;
    m_settings.remove(selectionGroup(storeUri, name));
    m_settings.sync();
}

} // namespace radt
