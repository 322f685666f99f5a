// SPDX-License-Identifier: MIT
#pragma once
// What makes a wide table readable in a narrow window: its first column (the run's or the
// configuration's name) kept in view while it scrolls sideways, a column chooser on its header
// (the choices kept per table), and the width it needs to show every column it shows.

#include <QString>
#include <QStringList>

#include <functional>

class QFontMetrics;
class QTableView;

namespace radt {

/// Keeps column 0 of `view` in view while the view scrolls sideways: a second view over the first
/// column that shares the model, the selection, the sort and the vertical scroll (Qt's "Frozen
/// Column" example). Call once, after the view's model is set. Returns the overlay (object name
/// "<view's>Frozen").
QTableView* freezeFirstColumn(QTableView* view);

/// A context menu on `view`'s header that shows or hides each column but the first, the choices
/// kept in QSettings under "columns/<table>" by header text. Until a user chooses, the
/// columns named in `hiddenByDefault` are hidden, and so is any column whose every cell is blank
/// or "–" (nothing to read). Applied again whenever the model's headers change (a refill).
void installColumnChooser(QTableView* view, const QString& table, const QStringList& hiddenByDefault);
/// The same for a table whose settings key and hidden columns change with what it shows (the runs
/// table: a key per store, the params of each search): both asked again at each refill.
void installColumnChooser(QTableView* view, const std::function<QString()>& table,
                          const std::function<QStringList()>& hiddenByDefault);

/// The width `view` needs to show every column it shows, its frame and vertical scroll bar included.
int widthToShowAllColumns(const QTableView* view);

/// How many leading characters every one of `names` shares (0 for fewer than two names).
int sharedPrefixLength(const QStringList& names);

/// `names` shortened to `width` pixels each, the part that tells them apart kept: a name too long
/// loses the middle of the prefix it shares with the others ("batch-…=64", never "batch-siz…"),
/// and only then its own middle.
QStringList elideInCommonPrefix(const QStringList& names, const QFontMetrics& metrics, int width);

} // namespace radt
