// SPDX-License-Identifier: MIT
#include "widgets/runs/BasketModel.h"

#include "widgets/common/Formatting.h"
#include "widgets/runs/RunTreeModel.h"

#include <algorithm>
#include <set>

namespace radt {

namespace {
/// How many runs deleted out of the basket it remembers to put back when they are restored.
constexpr size_t kRememberedDeletedRuns = 10000;
} // namespace

// Index layout: a group row has internalId 0, a run row has its group's position + 1.
BasketModel::BasketModel(QObject* parent) : QAbstractItemModel(parent) {}

void BasketModel::setExperimentNames(std::map<int64_t, QString> names) {
    m_experimentNames = std::move(names);
    if (!m_groups.empty())
        emit dataChanged(index(0, 0), index(static_cast<int>(m_groups.size()) - 1, 0), {Qt::DisplayRole});
}

QString BasketModel::groupLabel(const Group& group) const {
    const auto it = m_experimentNames.find(group.experimentId);
    const QString experiment =
        it != m_experimentNames.end() ? it->second : QString::number(group.experimentId);
    return experiment + QStringLiteral(" / ") + RunTreeModel::workloadLabel(group.workload);
}

void BasketModel::sortGroup(Group& group) {
    std::stable_sort(group.runs.begin(), group.runs.end(), [&](const Run& a, const Run& b) {
        return naturalLess(toQString(a.letter()), toQString(b.letter()));
    });
}

int BasketModel::addRuns(const std::vector<Run>& runs) {
    std::vector<const Run*> fresh;
    std::set<std::string> seen;
    for (const Run& r : runs) {
        if (!contains(toQString(r.uuid)) && seen.insert(r.uuid).second)
            fresh.push_back(&r);
    }
    if (fresh.empty())
        return 0;
    beginResetModel();
    for (const Run* r : fresh) {
        const QString workload = toQString(r->workload());
        auto group = std::find_if(m_groups.begin(), m_groups.end(), [&](const Group& g) {
            return g.experimentId == r->experimentId && g.workload == workload;
        });
        if (group == m_groups.end()) {
            m_groups.push_back({r->experimentId, workload, {}});
            group = m_groups.end() - 1;
        }
        group->runs.push_back(*r);
    }
    for (Group& g : m_groups)
        sortGroup(g);
    endResetModel();
    emit basketChanged();
    return static_cast<int>(fresh.size());
}

void BasketModel::removeIndexes(const QModelIndexList& indexes) {
    std::set<std::string> runsToDrop;
    std::set<size_t> groupsToDrop;
    for (const QModelIndex& index : indexes) {
        if (!index.isValid() || index.model() != this)
            continue;
        if (index.internalId() == 0)
            groupsToDrop.insert(static_cast<size_t>(index.row()));
        else
            runsToDrop.insert(m_groups[index.internalId() - 1].runs[index.row()].uuid);
    }
    if (runsToDrop.empty() && groupsToDrop.empty())
        return;
    beginResetModel();
    for (size_t g = 0; g < m_groups.size(); ++g) {
        auto& runs = m_groups[g].runs;
        if (groupsToDrop.count(g))
            runs.clear();
        runs.erase(
            std::remove_if(runs.begin(), runs.end(), [&](const Run& r) { return runsToDrop.count(r.uuid); }),
            runs.end());
    }
    m_groups.erase(
        std::remove_if(m_groups.begin(), m_groups.end(), [](const Group& g) { return g.runs.empty(); }),
        m_groups.end());
    endResetModel();
    emit basketChanged();
}

void BasketModel::clear() {
    m_leftWhenDeleted.clear();
    if (m_groups.empty())
        return;
    beginResetModel();
    m_groups.clear();
    endResetModel();
    emit basketChanged();
}

void BasketModel::refresh(const std::vector<Run>& current) {
    std::map<std::string, const Run*> byUuid;
    for (const Run& r : current)
        byUuid[r.uuid] = &r;
    // Runs that left when deleted and are active again: back where they were (their group).
    std::vector<Run> back;
    for (auto it = m_leftWhenDeleted.begin(); it != m_leftWhenDeleted.end();) {
        const auto now = byUuid.find(it->first);
        if (now == byUuid.end()) {
            ++it;
            continue;
        }
        back.push_back(*now->second);
        it = m_leftWhenDeleted.erase(it);
    }
    if (m_groups.empty() && back.empty())
        return;
    beginResetModel();
    for (Group& g : m_groups) {
        std::vector<Run> kept;
        for (const Run& r : g.runs) {
            const auto it = byUuid.find(r.uuid);
            if (it != byUuid.end())
                kept.push_back(*it->second);
            else if (m_leftWhenDeleted.size() < kRememberedDeletedRuns)
                m_leftWhenDeleted.emplace(r.uuid, r);
        }
        g.runs = std::move(kept);
    }
    for (const Run& r : back) {
        const QString workload = toQString(r.workload());
        auto group = std::find_if(m_groups.begin(), m_groups.end(), [&](const Group& g) {
            return g.experimentId == r.experimentId && g.workload == workload;
        });
        if (group == m_groups.end())
            group = m_groups.insert(m_groups.end(), Group{r.experimentId, workload, {}});
        group->runs.push_back(r);
        sortGroup(*group);
    }
    m_groups.erase(
        std::remove_if(m_groups.begin(), m_groups.end(), [](const Group& g) { return g.runs.empty(); }),
        m_groups.end());
    endResetModel();
    // Statuses and end times may have changed even when the set did not: charts replot either way.
    emit basketChanged();
}

std::vector<Run> BasketModel::runs() const {
    std::vector<Run> out;
    for (const Group& g : m_groups)
        out.insert(out.end(), g.runs.begin(), g.runs.end());
    return out;
}

QStringList BasketModel::runUuids() const {
    QStringList out;
    for (const Group& g : m_groups) {
        for (const Run& r : g.runs)
            out.append(toQString(r.uuid));
    }
    return out;
}

bool BasketModel::contains(const QString& uuid) const {
    const std::string key = uuid.toStdString();
    for (const Group& g : m_groups) {
        for (const Run& r : g.runs) {
            if (r.uuid == key)
                return true;
        }
    }
    return false;
}

int BasketModel::runCount() const {
    int n = 0;
    for (const Group& g : m_groups)
        n += static_cast<int>(g.runs.size());
    return n;
}

QModelIndex BasketModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= NUM_COLUMNS)
        return QModelIndex();
    if (!parent.isValid())
        return row < static_cast<int>(m_groups.size()) ? createIndex(row, column, quintptr(0))
                                                       : QModelIndex();
    if (parent.internalId() != 0 || parent.column() != 0)
        return QModelIndex();
    const Group& g = m_groups[parent.row()];
    if (row >= static_cast<int>(g.runs.size()))
        return QModelIndex();
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex BasketModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0)
        return QModelIndex();
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int BasketModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return static_cast<int>(m_groups.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return static_cast<int>(m_groups[parent.row()].runs.size());
}

int BasketModel::columnCount(const QModelIndex&) const {
    return NUM_COLUMNS;
}

QVariant BasketModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return QVariant();
    if (index.internalId() == 0) {
        const Group& g = m_groups[index.row()];
        if (role == NodeKindRole)
            return WorkloadNode;
        if (role == Qt::DisplayRole && index.column() == NameColumn)
            return groupLabel(g);
        return QVariant();
    }
    const Run& r = m_groups[index.internalId() - 1].runs[index.row()];
    switch (role) {
    case NodeKindRole:
        return RunNode;
    case RunUuidRole:
        return toQString(r.uuid);
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return r.name.empty() ? toQString(r.uuid.substr(0, 8)) : toQString(r.name);
        case LetterColumn:
            return toQString(r.letter());
        case StatusColumn:
            return QString::fromLatin1(toString(r.status));
        }
        return QVariant();
    case Qt::ForegroundRole:
    case Qt::DecorationRole:
        if (index.column() == StatusColumn && statusColor(r.status).isValid())
            return statusColor(r.status);
        return QVariant();
    case Qt::ToolTipRole:
        return tr("Run %1").arg(toQString(r.uuid));
    }
    return QVariant();
}

QVariant BasketModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QVariant();
    switch (section) {
    case NameColumn:
        return tr("Run");
    case LetterColumn:
        return tr("Letter");
    case StatusColumn:
        return tr("Status");
    }
    return QVariant();
}

} // namespace radt
