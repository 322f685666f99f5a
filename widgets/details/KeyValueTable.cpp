// SPDX-License-Identifier: MIT
#include "widgets/details/KeyValueTable.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>

#include <map>

namespace radt {

KeyValueTable::KeyValueTable(const QStringList& headers, QWidget* parent) : QTableWidget(parent) {
    setColumnCount(headers.size());
    setHorizontalHeaderLabels(headers);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setWordWrap(false);
    setAlternatingRowColors(true);
    setSortingEnabled(false);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
}

void KeyValueTable::setRows(const std::vector<QStringList>& rows) {
    clearContents();
    setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r)
        for (int c = 0; c < columnCount() && c < rows[r].size(); ++c) {
            auto* item = new QTableWidgetItem(rows[r][c]);
            item->setToolTip(rows[r][c].size() > 60 ? rows[r][c] : QString());
            setItem(r, c, item);
        }
    for (int c = 0; c + 1 < columnCount(); ++c) {
        resizeColumnToContents(c);
        setColumnWidth(c, std::min(columnWidth(c), 320));
    }
}

QString KeyValueTable::selectedText() const {
    std::map<int, std::map<int, QString>> cells;
    for (const QModelIndex& index : selectionModel()->selectedIndexes())
        cells[index.row()][index.column()] = index.data().toString();
    QStringList lines;
    for (const auto& [row, columns] : cells) {
        QStringList texts;
        for (const auto& [column, text] : columns)
            texts << text;
        lines << texts.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

void KeyValueTable::copySelection() const {
    const QString text = selectedText();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

QStringList KeyValueTable::columnTexts(int column) const {
    QStringList texts;
    for (int r = 0; r < rowCount(); ++r)
        texts << (item(r, column) ? item(r, column)->text() : QString());
    return texts;
}

void KeyValueTable::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableWidget::keyPressEvent(event);
}

void KeyValueTable::contextMenuEvent(QContextMenuEvent* event) {
    const QModelIndex at = indexAt(viewport()->mapFromGlobal(event->globalPos()));
    QMenu menu(this);
    menu.addAction(tr("Copy"), this, &KeyValueTable::copySelection, QKeySequence::Copy)
        ->setEnabled(selectionModel()->hasSelection());
    const int last = columnCount() - 1;
    if (at.isValid())
        menu.addAction(tr("Copy Value"), this, [this, row = at.row(), last] {
            if (const QTableWidgetItem* cell = item(row, last))
                QApplication::clipboard()->setText(cell->text());
        });
    menu.addAction(tr("Select All"), this, &QTableWidget::selectAll, QKeySequence::SelectAll);
    menu.exec(event->globalPos());
}

} // namespace radt
