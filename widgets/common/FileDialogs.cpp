// SPDX-License-Identifier: MIT
#include "widgets/common/FileDialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace radt {

namespace {
QString settingsKey(const QString& purpose) {
    return QStringLiteral("folders/") + purpose;
}
} // namespace

QString rememberedFolder(const QString& purpose) {
    const QString folder = QSettings().value(settingsKey(purpose)).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QString();
}

void rememberFolder(const QString& purpose, const QString& path) {
    if (!path.isEmpty())
        QSettings().setValue(settingsKey(purpose), QFileInfo(path).absolutePath());
}

QString openFileName(QWidget* parent, const QString& purpose, const QString& caption, const QString& filter) {
    QString path = QFileDialog::getOpenFileName(parent, caption, rememberedFolder(purpose), filter);
    rememberFolder(purpose, path);
    return path;
}

QString saveFileName(QWidget* parent, const QString& purpose, const QString& caption,
                     const QString& suggestedName, const QString& filter, QString* selectedFilter) {
    const QString folder = rememberedFolder(purpose);
    const QString start = folder.isEmpty() ? suggestedName : QDir(folder).filePath(suggestedName);
    QString path = QFileDialog::getSaveFileName(parent, caption, start, filter, selectedFilter);
    rememberFolder(purpose, path);
    return path;
}

} // namespace radt
