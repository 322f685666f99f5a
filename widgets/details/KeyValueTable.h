// SPDX-License-Identifier: MIT
#pragma once
// A read-only table of rows of text (a field and its value, a param, a tag, a metric) that copies
// as a person expects: Ctrl+C or the context menu's Copy puts the selected cells on the clipboard
// as tab-separated lines (a spreadsheet pastes them as cells); Copy Value copies the value alone.

#include <QStringList>
#include <QTableWidget>

#include <vector>

namespace radt {

class KeyValueTable : public QTableWidget {
    Q_OBJECT
public:
    KeyValueTable(const QStringList& headers, QWidget* parent = nullptr);

    /// Replaces the rows; each row has as many cells as there are headers.
    void setRows(const std::vector<QStringList>& rows);
    /// The selected cells as tab-separated lines, in row and column order.
    QString selectedText() const;
    void copySelection() const;
    /// The texts of a column, top to bottom (tests read what is shown).
    QStringList columnTexts(int column) const;

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
};

} // namespace radt
