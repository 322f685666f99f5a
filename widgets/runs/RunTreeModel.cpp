// SPDX-License-Identifier: MIT
#include "widgets/runs/RunTreeModel.h"

#include <QFont>
#include <QMimeData>

#include "core/store/Store.h"
#include "widgets/common/Formatting.h"

#include <algorithm>
#include <map>

namespace radt {

struct RunTreeModel::Node {
    NodeKind kind = ExperimentNode;
    Node* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;
    QString name;
    int64_t experimentId = 0;
    QString workload;
    int runIndex = -1; ///< into m_runs, run nodes only
    // Group aggregates, so data() stays O(1).
    int runCount = 0;     ///< active runs: what the status, start and duration are made of
    int deletedCount = 0; ///< deleted runs shown (Show Deleted Runs), counted apart
    int64_t start = 0;
    int64_t durationMs = 0;
    RunStatus status = RunStatus::Finished;
    bool deleted = false; ///< an experiment shown to be restored (Show Deleted Runs)

    /// A run's leaf, under its experiment and workload.
    static std::unique_ptr<Node> runLeaf(int64_t experimentId, const QString& workload, int runIndex) {
        auto leaf = std::make_unique<Node>();
        leaf->kind = RunNode;
        leaf->experimentId = experimentId;
        leaf->workload = workload;
        leaf->runIndex = runIndex;
        return leaf;
    }

    Node* addChild(std::unique_ptr<Node> child) {
        child->parent = this;
        child->row = static_cast<int>(children.size());
        children.push_back(std::move(child));
        return children.back().get();
    }
};

namespace {

// Which status a group shows: the one that needs attention first.
int statusUrgency(RunStatus s) {
    switch (s) {
    case RunStatus::Running:
        return 4;
    case RunStatus::Failed:
        return 3;
    case RunStatus::Killed:
        return 2;
    case RunStatus::Scheduled:
        return 1;
    case RunStatus::Finished:
        break;
    }
    return 0;
}

// Not QCollator: its numeric mode needs ICU and a locale, and without them 1108 sorted before 111.
// The unsorted bucket ("") sorts last.
std::vector<QString> sortedWorkloadNames(const std::map<QString, std::vector<int>>& workloads) {
    std::vector<QString> names;
    names.reserve(workloads.size());
    for (const auto& entry : workloads)
        names.push_back(entry.first);
    std::sort(names.begin(), names.end(), [&](const QString& a, const QString& b) {
        if (a.isEmpty() != b.isEmpty())
            return b.isEmpty();
        return naturalLess(a, b);
    });
    return names;
}

} // namespace

RunTreeModel::RunTreeModel(QObject* parent) : QAbstractItemModel(parent), m_root(std::make_unique<Node>()) {}

RunTreeModel::~RunTreeModel() = default;

QString RunTreeModel::workloadLabel(const QString& workload) {
    return workload.isEmpty() ? tr("(unsorted)") : tr("workload %1").arg(workload);
}

void RunTreeModel::reload(Store& store) {
    auto experiments = store.experiments();
    auto runs = store.runs();
    setContents(std::move(experiments), std::move(runs), nowMs());
}

void RunTreeModel::setContents(std::vector<Experiment> experiments, std::vector<Run> runs, int64_t now) {
    beginResetModel();
    m_experiments = std::move(experiments);
    m_nowMs = now;
    m_root = std::make_unique<Node>();

    std::map<int64_t, Node*> experimentNodes;
    for (const Experiment& e : m_experiments) {
        auto node = std::make_unique<Node>();
        node->kind = ExperimentNode;
        node->name = toQString(e.name);
        node->experimentId = e.id;
        node->deleted = e.lifecycleStage == "deleted";
        experimentNodes[e.id] = m_root->addChild(std::move(node));
    }
    // Runs of deleted experiments stay hidden, as in MLflow's UI.
    runs.erase(std::remove_if(runs.begin(), runs.end(),
                              [&](const Run& r) { return experimentNodes.count(r.experimentId) == 0; }),
               runs.end());
    m_runs = std::move(runs);

    const std::vector<int> parents = nestedParents();
    std::map<int, Node*> runNodes; // run index -> its node, for placing children
    // experiment id -> workload -> run indexes
    std::map<int64_t, std::map<QString, std::vector<int>>> groups;
    for (int i = 0; i < static_cast<int>(m_runs.size()); ++i)
        groups[m_runs[i].experimentId][toQString(m_runs[i].workload())].push_back(i);
    for (auto& [experimentId, workloads] : groups)
        for (const QString& workload : sortedWorkloadNames(workloads))
            addWorkloadGroup(*experimentNodes[experimentId], workload, workloads[workload], parents,
                             runNodes);
    nestChildRuns(parents, runNodes, experimentNodes);
    endResetModel();
}

std::vector<int> RunTreeModel::nestedParents() const {
    // MLflow's nested runs (a child's mlflow.parentRunId tag names its parent) sit under their
    // parent run. radT's collocated runs point at their workload's first run the same way; they
    // stay side by side in their workload, where they belong.
    std::map<std::string, int> indexOfUuid;
    for (int i = 0; i < static_cast<int>(m_runs.size()); ++i)
        indexOfUuid[m_runs[i].uuid] = i;
    auto nestedUnder = [&](int runIndex) {
        const Run& r = m_runs[runIndex];
        const auto tag = r.tags.find("mlflow.parentRunId");
        if (tag == r.tags.end())
            return -1;
        const auto parent = indexOfUuid.find(tag->second);
        if (parent == indexOfUuid.end() || parent->second == runIndex)
            return -1;
        const Run& p = m_runs[parent->second];
        if (p.experimentId != r.experimentId || (!r.workload().empty() && p.workload() == r.workload()))
            return -1;
        return parent->second;
    };
    std::vector<int> parents;
    parents.reserve(m_runs.size());
    for (int i = 0; i < static_cast<int>(m_runs.size()); ++i)
        parents.push_back(nestedUnder(i));
    return parents;
}

void RunTreeModel::addWorkloadGroup(Node& experimentNode, const QString& workload, std::vector<int>& members,
                                    const std::vector<int>& parents, std::map<int, Node*>& runNodes) {
    // A group whose every run sits under its parent run would be an empty row ("(unsorted)"
    // for MLflow's nested children without a workload param).
    if (std::all_of(members.begin(), members.end(), [&](int i) { return parents[i] >= 0; }))
        return;
    std::sort(members.begin(), members.end(), [&](int a, int b) {
        const QString la = toQString(m_runs[a].letter());
        const QString lb = toQString(m_runs[b].letter());
        if (la != lb)
            return naturalLess(la, lb);
        return m_runs[a].startTime < m_runs[b].startTime;
    });
    const int64_t experimentId = experimentNode.experimentId;
    auto group = std::make_unique<Node>();
    group->kind = WorkloadNode;
    group->name = workloadLabel(workload);
    group->experimentId = experimentId;
    group->workload = workload;
    Node* groupNode = experimentNode.addChild(std::move(group));
    int64_t first = 0;
    int64_t last = 0;
    for (int runIndex : members) {
        const Run& r = m_runs[runIndex];
        if (parents[runIndex] >= 0)
            continue; // placed under its parent run by nestChildRuns()
        runNodes[runIndex] = groupNode->addChild(Node::runLeaf(experimentId, workload, runIndex));
        if (r.deleted) { // shown to be restored; the workload's status is its active runs'
            ++groupNode->deletedCount;
            continue;
        }
        const int64_t end = r.startTime + r.durationMs(m_nowMs);
        first = groupNode->runCount == 0 ? r.startTime : std::min(first, r.startTime);
        last = groupNode->runCount == 0 ? end : std::max(last, end);
        if (statusUrgency(r.status) > statusUrgency(groupNode->status))
            groupNode->status = r.status;
        ++groupNode->runCount;
    }
    groupNode->start = first;
    groupNode->durationMs = last - first;
    experimentNode.runCount += groupNode->runCount;
    if (groupNode->runCount > 0) // a group of deleted runs only has no start of its own
        experimentNode.start = experimentNode.start == 0 ? first : std::min(experimentNode.start, first);
}

void RunTreeModel::nestChildRuns(const std::vector<int>& parents, std::map<int, Node*>& runNodes,
                                 const std::map<int64_t, Node*>& experimentNodes) {
    // Children under their parents, parents first (a chain nests level by level); a child whose
    // parent is itself nested deeper than the chain allows, or a cycle, stays where it was not put:
    // such runs go under their workload instead, so no run is ever lost from the tree.
    std::vector<int> pending;
    for (int i = 0; i < static_cast<int>(m_runs.size()); ++i)
        if (parents[i] >= 0)
            pending.push_back(i);
    std::sort(pending.begin(), pending.end(),
              [&](int a, int b) { return m_runs[a].startTime < m_runs[b].startTime; });
    for (bool placed = true; placed && !pending.empty();) {
        placed = false;
        for (auto it = pending.begin(); it != pending.end();) {
            const auto parent = runNodes.find(parents[*it]);
            if (parent == runNodes.end()) {
                ++it;
                continue;
            }
            const Run& r = m_runs[*it];
            runNodes[*it] =
                parent->second->addChild(Node::runLeaf(r.experimentId, toQString(r.workload()), *it));
            ++experimentNodes.at(r.experimentId)->runCount;
            it = pending.erase(it);
            placed = true;
        }
    }
    for (int orphan : pending) { // a cycle of parents: shown flat in the experiment
        const Run& r = m_runs[orphan];
        Node* experimentNode = experimentNodes.at(r.experimentId);
        experimentNode->addChild(Node::runLeaf(r.experimentId, toQString(r.workload()), orphan));
        ++experimentNode->runCount;
    }
}

RunTreeModel::Node* RunTreeModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : m_root.get();
}

const Run* RunTreeModel::run(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this)
        return nullptr;
    const Node* node = nodeOf(index);
    return node->kind == RunNode ? &m_runs[node->runIndex] : nullptr;
}

const Run* RunTreeModel::runByUuid(const QString& uuid) const {
    const std::string key = uuid.toStdString();
    for (const Run& r : m_runs) {
        if (r.uuid == key)
            return &r;
    }
    return nullptr;
}

void RunTreeModel::collectRuns(const Node& node, QStringList& out, bool deleted) const {
    if (node.kind == RunNode && m_runs[node.runIndex].deleted == deleted) // and its nested runs
        out.append(toQString(m_runs[node.runIndex].uuid));
    for (const auto& child : node.children)
        collectRuns(*child, out, deleted);
}

Qt::ItemFlags RunTreeModel::flags(const QModelIndex& index) const {
    const Qt::ItemFlags base = QAbstractItemModel::flags(index);
    return index.isValid() ? base | Qt::ItemIsDragEnabled : base;
}

QStringList RunTreeModel::mimeTypes() const {
    return {QString::fromLatin1(kRunUuidsMimeType)};
}

QMimeData* RunTreeModel::mimeData(const QModelIndexList& indexes) const {
    QStringList uuids;
    for (const QModelIndex& index : indexes) // every column of a row is listed: take each row once
        if (index.isValid() && index.column() == 0)
            for (const QString& uuid : runUuidsUnder(index))
                if (!uuids.contains(uuid))
                    uuids << uuid;
    if (uuids.isEmpty())
        return nullptr;
    auto* data = new QMimeData;
    data->setData(QString::fromLatin1(kRunUuidsMimeType), uuids.join(QLatin1Char('\n')).toUtf8());
    return data;
}

QStringList RunTreeModel::runUuidsIn(const QMimeData* data) {
    if (!data || !data->hasFormat(QString::fromLatin1(kRunUuidsMimeType)))
        return {};
    return QString::fromUtf8(data->data(QString::fromLatin1(kRunUuidsMimeType)))
        .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QStringList RunTreeModel::runUuidsUnder(const QModelIndex& index) const {
    QStringList out;
    if (index.isValid() && index.model() == this)
        collectRuns(*nodeOf(index), out, false);
    return out;
}

QStringList RunTreeModel::deletedRunUuidsUnder(const QModelIndex& index) const {
    QStringList out;
    if (index.isValid() && index.model() == this)
        collectRuns(*nodeOf(index), out, true);
    return out;
}

QModelIndex RunTreeModel::indexOfRun(const QString& uuid) const {
    const std::string key = uuid.toStdString();
    // Depth first: runs sit under workloads, and nested runs under their parent runs.
    std::vector<const Node*> stack{m_root.get()};
    while (!stack.empty()) {
        const Node* node = stack.back();
        stack.pop_back();
        if (node->kind == RunNode && m_runs[node->runIndex].uuid == key)
            return createIndex(node->row, 0, const_cast<Node*>(node));
        for (const auto& child : node->children)
            stack.push_back(child.get());
    }
    return QModelIndex();
}

QStringList RunTreeModel::latestWorkloadRunUuids() const {
    if (m_runs.empty())
        return {};
    const auto latest = std::max_element(
        m_runs.begin(), m_runs.end(), [](const Run& a, const Run& b) { return a.startTime < b.startTime; });
    const QModelIndex leaf = indexOfRun(toQString(latest->uuid));
    // The unsorted bucket is not a workload: its runs did not run together.
    if (latest->workload().empty())
        return {toQString(latest->uuid)};
    return runUuidsUnder(parent(leaf));
}

QModelIndex RunTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= NUM_COLUMNS || (parent.isValid() && parent.column() != 0))
        return QModelIndex();
    const Node* node = nodeOf(parent);
    if (row >= static_cast<int>(node->children.size()))
        return QModelIndex();
    return createIndex(row, column, node->children[row].get());
}

QModelIndex RunTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return QModelIndex();
    const Node* up = nodeOf(child)->parent;
    if (!up || up == m_root.get())
        return QModelIndex();
    return createIndex(up->row, 0, const_cast<Node*>(up));
}

int RunTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return static_cast<int>(nodeOf(parent)->children.size());
}

int RunTreeModel::columnCount(const QModelIndex&) const {
    return NUM_COLUMNS;
}

QVariant RunTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return QVariant();
    const Node& node = *nodeOf(index);
    switch (role) {
    case NodeKindRole:
        return node.kind;
    case ExperimentIdRole:
        return static_cast<qlonglong>(node.experimentId);
    case WorkloadRole:
        return node.kind == ExperimentNode ? QVariant() : QVariant(node.workload);
    case RunUuidRole:
        return node.kind == RunNode ? QVariant(toQString(m_runs[node.runIndex].uuid)) : QVariant();
    case DeletedRole:
        return node.kind == RunNode ? m_runs[node.runIndex].deleted : node.deleted;
    default:
        break;
    }
    if (node.kind == RunNode)
        return runData(m_runs[node.runIndex], index.column(), role);
    return groupData(node, index.column(), role);
}

bool outsideItsHistory(const Run& run) {
    const auto judged = run.tags.find(kRunJudgementTag);
    return judged != run.tags.end() && judged->second.rfind("outside:", 0) == 0;
}

QVariant RunTreeModel::runData(const Run& r, int column, int role) const {
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool raw = role == SortRole;
        switch (column) {
        case NameColumn:
            return r.name.empty() ? toQString(r.uuid.substr(0, 8)) : toQString(r.name);
        case StatusColumn:
            if (r.deleted) // shown to be restored (Show Deleted Runs)
                return raw ? QVariant(-1) : QVariant(tr("deleted"));
            return raw ? QVariant(statusUrgency(r.status))
                       : QVariant(QString::fromLatin1(toString(r.status)) +
                                  (outsideItsHistory(r) ? QStringLiteral(" ⚠") : QString()));
        case LetterColumn:
            return toQString(r.letter());
        case DurationColumn:
            return raw ? QVariant(static_cast<qlonglong>(r.durationMs(m_nowMs)))
                       : QVariant(toQString(formatDuration(r.durationMs(m_nowMs))));
        case StartColumn:
            return raw ? QVariant(static_cast<qlonglong>(r.startTime))
                       : QVariant(formatTimestamp(r.startTime));
        case ParamsColumn:
            return toQString(r.param("params"));
        }
    }
    if (r.deleted && role == Qt::ForegroundRole)
        return QColor(Qt::gray);
    if (r.deleted && role == Qt::FontRole) {
        QFont font;
        font.setStrikeOut(true);
        return font;
    }
    if (column == StatusColumn && role == Qt::DecorationRole && outsideItsHistory(r))
        return QColor(0xe6, 0x7e, 0x00); // amber: finished, but not as its configuration's runs did
    if (column == StatusColumn && (role == Qt::ForegroundRole || role == Qt::DecorationRole)) {
        const QColor color = statusColor(r.status);
        return color.isValid() ? QVariant(color) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        QString tip = tr("Run %1\nModel: %2").arg(toQString(r.uuid), toQString(r.model()));
        if (!r.param("params").empty())
            tip += tr("\nArguments: %1").arg(toQString(r.param("params")));
        // The user's tags (not MLflow's own, nor radt's host facts) and the note, cut to a tooltip.
        QStringList tags;
        for (const auto& [key, value] : r.tags)
            if (key.rfind("mlflow.", 0) != 0 && key.rfind("radt.", 0) != 0)
                tags << toQString(key + (value.empty() ? "" : "=" + value));
        if (!tags.isEmpty())
            tip += tr("\nTags: %1").arg(tags.join(QLatin1String(", ")));
        if (const auto judged = r.tags.find(kRunJudgementTag); judged != r.tags.end())
            tip += tr("\nJudged when it finished: %1").arg(toQString(judged->second));
        if (const auto note = r.tags.find(kRunNoteTag); note != r.tags.end() && !note->second.empty()) {
            QString text = toQString(note->second);
            if (text.size() > 300)
                text = text.left(300) + QChar(0x2026);
            tip += tr("\nNote: %1").arg(text);
        }
        return tip;
    }
    return QVariant();
}

QVariant RunTreeModel::groupData(const Node& node, int column, int role) const {
    const bool hasRuns = node.runCount > 0;
    if (node.deleted) { // an experiment shown to be restored (Show Deleted Runs)
        if (column == StatusColumn && (role == Qt::DisplayRole || role == SortRole))
            return role == SortRole ? QVariant(-1) : QVariant(tr("deleted"));
        if (role == Qt::ForegroundRole)
            return QColor(Qt::gray);
        if (role == Qt::FontRole) {
            QFont font;
            font.setStrikeOut(true);
            return font;
        }
        if (role == Qt::ToolTipRole)
            return tr("Experiment %1, deleted with its runs: Restore Experiments brings them back")
                .arg(node.experimentId);
    }
    if (!hasRuns && node.kind == WorkloadNode && node.deletedCount > 0) { // every run of it deleted
        if (column == StatusColumn && (role == Qt::DisplayRole || role == SortRole))
            return role == SortRole ? QVariant(-1) : QVariant(tr("deleted"));
        if (column == StatusColumn && role == Qt::ForegroundRole)
            return QColor(Qt::gray);
    }
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool raw = role == SortRole;
        switch (column) {
        case NameColumn:
            return node.name;
        case StatusColumn:
            if (!hasRuns || node.kind != WorkloadNode)
                return QVariant();
            return raw ? QVariant(statusUrgency(node.status))
                       : QVariant(QString::fromLatin1(toString(node.status)));
        case DurationColumn:
            if (!hasRuns || node.kind != WorkloadNode)
                return QVariant();
            return raw ? QVariant(static_cast<qlonglong>(node.durationMs))
                       : QVariant(toQString(formatDuration(node.durationMs)));
        case StartColumn:
            if (!hasRuns)
                return QVariant();
            return raw ? QVariant(static_cast<qlonglong>(node.start)) : QVariant(formatTimestamp(node.start));
        default:
            return QVariant();
        }
    }
    if (column == StatusColumn && node.kind == WorkloadNode && hasRuns &&
        (role == Qt::ForegroundRole || role == Qt::DecorationRole)) {
        const QColor color = statusColor(node.status);
        return color.isValid() ? QVariant(color) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        if (node.kind == ExperimentNode)
            return tr("Experiment %1: %n run(s)", nullptr, node.runCount).arg(node.experimentId);
        const QString runs = tr("Workload %1: %n run(s)", nullptr, node.runCount).arg(node.name);
        return node.deletedCount == 0
                   ? runs
                   : runs + tr(", and %n deleted (not in its status)", nullptr, node.deletedCount);
    }
    return QVariant();
}

QVariant RunTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QVariant();
    switch (section) {
    case NameColumn:
        return tr("Name");
    case StatusColumn:
        return tr("Status");
    case LetterColumn:
        return tr("Letter");
    case DurationColumn:
        return tr("Duration");
    case StartColumn:
        return tr("Start");
    case ParamsColumn:
        return tr("Params");
    }
    return QVariant();
}

} // namespace radt
