// SPDX-License-Identifier: MIT
#pragma once
// The experiment -> workload -> run tree (resources/DESIGN.md §3) as a Qt item model.

#include "core/base/Model.h"

#include <QAbstractItemModel>

#include <QStringList>
#include <algorithm>

#include <map>
#include <memory>
#include <vector>

namespace radt {

class Store;

/// Whether radt judged `run` outside its configuration's history when it finished (its
/// kRunJudgementTag): the tree and the runs table mark it.
bool outsideItsHistory(const Run& run);

class RunTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Columns {
        NameColumn,
        StatusColumn,
        LetterColumn,
        DurationColumn,
        StartColumn,
        ParamsColumn,
        NUM_COLUMNS
    };
    enum Roles {
        RunUuidRole = Qt::UserRole, ///< QString, runs only
        NodeKindRole,               ///< int NodeKind
        ExperimentIdRole,           ///< qlonglong, every node
        WorkloadRole,               ///< QString workload param ("" for the unsorted bucket)
        SortRole,                   ///< raw value of the column (ms, status number, text)
        DeletedRole,                ///< bool: a deleted experiment or run, shown to be restored
    };
    enum NodeKind { ExperimentNode, WorkloadNode, RunNode };

    explicit RunTreeModel(QObject* parent = nullptr);
    ~RunTreeModel() override;

    /// Replaces the whole tree. nowMs gives the duration of runs still running.
    void setContents(std::vector<Experiment> experiments, std::vector<Run> runs, int64_t nowMs);
    /// Reads experiments and runs from the store. Throws StoreError (the model is unchanged then).
    void reload(Store& store);

    int experimentCount() const { return static_cast<int>(m_experiments.size()); }
    /// The active runs shown (deleted ones, shown to be restored, are not counted).
    int runCount() const {
        return static_cast<int>(
            std::count_if(m_runs.begin(), m_runs.end(), [](const Run& r) { return !r.deleted; }));
    }
    const std::vector<Run>& runs() const { return m_runs; }
    const std::vector<Experiment>& experiments() const { return m_experiments; }
    /// The run an index stands for, nullptr for experiment and workload nodes.
    const Run* run(const QModelIndex& index) const;
    const Run* runByUuid(const QString& uuid) const;
    /// Uuids of every run at or below index.
    QStringList runUuidsUnder(const QModelIndex& index) const;
    /// The deleted runs under a node (shown by Show Deleted Runs): what Restore brings back.
    QStringList deletedRunUuidsUnder(const QModelIndex& index) const;

    /// Rows drag into the basket: the runs under them, as kRunUuidsMimeType (one uuid per line).
    static constexpr const char* kRunUuidsMimeType = "application/x-radt-run-uuids";
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    /// The run uuids a drag carries (empty when it carries none).
    static QStringList runUuidsIn(const QMimeData* data);
    QModelIndex indexOfRun(const QString& uuid) const;
    /// The most recent run (by start time) and the other runs of its workload; empty without runs.
    QStringList latestWorkloadRunUuids() const;
    /// Label of a workload as the basket and the tree show it ("(unsorted)" for "").
    static QString workloadLabel(const QString& workload);

    QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node;

    Node* nodeOf(const QModelIndex& index) const;
    QVariant runData(const Run& run, int column, int role) const;
    QVariant groupData(const Node& node, int column, int role) const;
    void collectRuns(const Node& node, QStringList& out, bool deleted) const;
    /// Each run's parent run (index into m_runs) when it sits under it as MLflow nests runs, else -1.
    std::vector<int> nestedParents() const;
    /// A workload's row under its experiment with its runs that are not nested under another run.
    void addWorkloadGroup(Node& experimentNode, const QString& workload, std::vector<int>& members,
                          const std::vector<int>& parents, std::map<int, Node*>& runNodes);
    /// The nested runs under their parent runs (or flat in their experiment when that fails).
    void nestChildRuns(const std::vector<int>& parents, std::map<int, Node*>& runNodes,
                       const std::map<int64_t, Node*>& experimentNodes);

    std::vector<Experiment> m_experiments;
    std::vector<Run> m_runs;
    int64_t m_nowMs = 0;
    std::unique_ptr<Node> m_root;
};

} // namespace radt
