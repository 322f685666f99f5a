// SPDX-License-Identifier: MIT
#pragma once
// File dialogs that start where the user last went for the same purpose (stores, boards, exports,
// scripts), remembered in the settings across sessions, as desktop applications do.

#include <QString>

class QWidget;

namespace radt {

/// The folder last used for `purpose` ("" when none yet: the dialog's default).
QString rememberedFolder(const QString& purpose);
/// Notes the folder of `path` for `purpose`.
void rememberFolder(const QString& purpose, const QString& path);

/// QFileDialog::getOpenFileName starting in the purpose's folder; remembers the choice.
QString openFileName(QWidget* parent, const QString& purpose, const QString& caption, const QString& filter);
/// QFileDialog::getSaveFileName suggesting `suggestedName` in the purpose's folder; remembers it.
/// `selectedFilter`, when given, receives the filter chosen (several may share an extension).
QString saveFileName(QWidget* parent, const QString& purpose, const QString& caption,
                     const QString& suggestedName, const QString& filter, QString* selectedFilter = nullptr);

} // namespace radt
