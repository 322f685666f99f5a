#include "RunFilterProxy.h"

#include "RunTreeModel.h"

namespace radt {

RunFilterProxy::RunFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setRecursiveFilteringEnabled(true);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortRole(RunTreeModel::SortRole);
}

void RunFilterProxy::setFilterText(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateFilter();
}

bool RunFilterProxy::rowMatches(int sourceRow, const QModelIndex& sourceParent) const {
    static const int columns[] = {RunTreeModel::NameColumn, RunTreeModel::StatusColumn,
                                  RunTreeModel::LetterColumn, RunTreeModel::ParamsColumn};
    // Groups match on their name only: a workload showing FAILED must not pull in its finished runs.
    const bool isRun =
        sourceModel()->index(sourceRow, 0, sourceParent).data(RunTreeModel::NodeKindRole).toInt() ==
        RunTreeModel::RunNode;
    for (int column : columns) {
        if (!isRun && column != RunTreeModel::NameColumn)
            continue;
        const QModelIndex cell = sourceModel()->index(sourceRow, column, sourceParent);
        if (cell.data(Qt::DisplayRole).toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (m_text.isEmpty())
        return true;
    if (rowMatches(sourceRow, sourceParent))
        return true;
    // Typing a workload or experiment name should show everything inside it; recursive
    // filtering alone only keeps the ancestors of matching rows.
    for (QModelIndex up = sourceParent; up.isValid(); up = up.parent()) {
        if (rowMatches(up.row(), up.parent()))
            return true;
    }
    return false;
}

} // namespace radt
