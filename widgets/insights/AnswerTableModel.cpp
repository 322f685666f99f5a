// SPDX-License-Identifier: MIT
#include "widgets/insights/AnswerTableModel.h"

#include <QFont>

namespace radt {

AnswerTableModel::AnswerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void AnswerTableModel::setTable(std::vector<AnswerHeader> headers, std::vector<Row> rows) {
    beginResetModel();
    m_headers = std::move(headers);
    m_rows = std::move(rows);
    endResetModel();
}

int AnswerTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AnswerTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_headers.size());
}

QVariant AnswerTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row& row = m_rows[size_t(index.row())];
    if (index.column() >= int(row.size())) // a short row: the rest of it is blank
        return {};
    const AnswerCell& cell = row[size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return cell.text;
    case Qt::ToolTipRole:
        return cell.toolTip.isEmpty() ? QVariant() : QVariant(cell.toolTip);
    case SortRole:
        return cell.sortValue.isValid() ? cell.sortValue : QVariant(cell.text);
    case Qt::TextAlignmentRole:
        return int(cell.alignment);
    case Qt::FontRole:
        if (cell.bold) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        return cell.foreground.isValid() ? QVariant(cell.foreground) : QVariant();
    default:
        return {};
    }
}

QVariant AnswerTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= int(m_headers.size()))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return m_headers[size_t(section)].title;
    if (role == Qt::ToolTipRole && !m_headers[size_t(section)].toolTip.isEmpty())
        return m_headers[size_t(section)].toolTip;
    return {};
}

} // namespace radt
