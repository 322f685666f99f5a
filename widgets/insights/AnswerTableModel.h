// SPDX-License-Identifier: MIT
#pragma once
// The Insights view's answer tables (Configurations, Comparisons, Collocation) as an item model: a
// table of read-only cells made once from the report, each its text, tooltip, the number it sorts
// by and its look; the view asks the model, which keeps no QStandardItem per cell.

#include <QAbstractTableModel>
#include <QColor>
#include <QString>
#include <QVariant>

#include <vector>

namespace radt {

/// One cell of an answer table.
struct AnswerCell {
    QString text;
    QString toolTip;
    QVariant sortValue; ///< what its column sorts by (AnswerTableModel::SortRole): a number, or its text
    Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter;
    bool bold = false;
    QColor foreground; ///< invalid: the view's own
};

/// A column's head and what its tooltip explains.
struct AnswerHeader {
    QString title;
    QString toolTip;
};

class AnswerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using Row = std::vector<AnswerCell>;
    /// What a column sorts by: the cell's number, or its text (as the runs' table's columns sort).
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit AnswerTableModel(QObject* parent = nullptr);

    /// The whole table at once (a model reset): its heads, then its rows.
    void setTable(std::vector<AnswerHeader> headers, std::vector<Row> rows);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<AnswerHeader> m_headers;
    std::vector<Row> m_rows;
};

/// Appends a cell to a row (rows are written as `row << a << b`).
inline AnswerTableModel::Row& operator<<(AnswerTableModel::Row& row, AnswerCell cell) {
    row.push_back(std::move(cell));
    return row;
}

} // namespace radt
