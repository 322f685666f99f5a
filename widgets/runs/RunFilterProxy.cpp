// SPDX-License-Identifier: MIT
#include "widgets/runs/RunFilterProxy.h"

#include "widgets/runs/RunTreeModel.h"

#include <QRegularExpression>

namespace radt {

RunFilterProxy::RunFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setRecursiveFilteringEnabled(true);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortRole(RunTreeModel::SortRole);
}

void RunFilterProxy::setFilterText(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed == m_text && !m_searchUuids)
        return;
    m_text = trimmed;
    m_searchUuids.reset();
    invalidateFilter();
}

void RunFilterProxy::setSearchMatches(const QString& expression, const QSet<QString>& runUuids) {
    m_text = expression.trimmed();
    m_searchUuids = runUuids;
    invalidateFilter();
}

bool RunFilterProxy::isSearchExpression(const QString& text) {
    static const QRegularExpression start(
        QStringLiteral("^\\s*(params?|parameters?|metrics?|tags?|attributes?|attr|run)\\s*\\."),
        QRegularExpression::CaseInsensitiveOption);
    return start.match(text).hasMatch();
}

namespace {

bool contains(const std::string& text, const QString& part) {
    return QString::fromStdString(text).contains(part, Qt::CaseInsensitive);
}

} // namespace

bool RunFilterProxy::runTagsMatch(int sourceRow, const QModelIndex& sourceParent) const {
    const auto* tree = qobject_cast<const RunTreeModel*>(sourceModel());
    const Run* run = tree ? tree->run(tree->index(sourceRow, 0, sourceParent)) : nullptr;
    if (!run)
        return false; // experiments and workloads have no tags: they stay as a match's ancestors
    if (m_text.startsWith(QLatin1String("note:"), Qt::CaseInsensitive)) {
        const auto note = run->tags.find(kRunNoteTag);
        return note != run->tags.end() && contains(note->second, m_text.mid(5).trimmed());
    }
    const QString wanted = m_text.mid(4).trimmed();
    const int eq = wanted.indexOf('=');
    const QString key = eq < 0 ? wanted : wanted.left(eq), value = eq < 0 ? QString() : wanted.mid(eq + 1);
    for (const auto& [k, v] : run->tags)
        if (contains(k, key) && (eq < 0 || contains(v, value)))
            return true;
    return false;
}

bool RunFilterProxy::rowMatches(int sourceRow, const QModelIndex& sourceParent) const {
    if (m_searchUuids) // a search: its runs, and their groups as their ancestors
        return m_searchUuids->contains(
            sourceModel()->index(sourceRow, 0, sourceParent).data(RunTreeModel::RunUuidRole).toString());
    if (m_text.startsWith(QLatin1String("tag:"), Qt::CaseInsensitive) ||
        m_text.startsWith(QLatin1String("note:"), Qt::CaseInsensitive))
        return runTagsMatch(sourceRow, sourceParent);
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
    if (m_searchUuids)
        return false; // a run under a found run is not found with it
    // Typing a workload or experiment name should show everything inside it; recursive
    // filtering alone only keeps the ancestors of matching rows.
    for (QModelIndex up = sourceParent; up.isValid(); up = up.parent()) {
        if (rowMatches(up.row(), up.parent()))
            return true;
    }
    return false;
}

} // namespace radt
