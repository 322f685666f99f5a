// SPDX-License-Identifier: MIT
#pragma once
// The basket: the runs chosen for comparison, grouped by workload, without duplicates.

#include "core/base/Model.h"

#include <QAbstractItemModel>
#include <QStringList>

#include <map>
#include <vector>

namespace radt {

class BasketModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Columns { NameColumn, LetterColumn, StatusColumn, NUM_COLUMNS };
    enum Roles {
        RunUuidRole = Qt::UserRole, ///< QString, runs only
        NodeKindRole,               ///< int NodeKind
    };
    enum NodeKind { WorkloadNode, RunNode };

    explicit BasketModel(QObject* parent = nullptr);

    /// Names shown in the group labels ("<experiment> / <workload>").
    void setExperimentNames(std::map<int64_t, QString> names);
    /// Adds the runs not in the basket yet; returns how many were added.
    int addRuns(const std::vector<Run>& runs);
    /// Removes the runs (and whole workload groups) the indexes point at.
    void removeIndexes(const QModelIndexList& indexes);
    void clear();
    /// Replaces the basket's copies by fresh ones; runs absent from `current` (deleted, here or by
    /// another client) leave the basket, and come back when a later `current` has them again
    /// (restored, or the delete undone): a restore puts a run back where the delete took it from.
    /// A run the user removed, or a cleared basket, is not brought back.
    void refresh(const std::vector<Run>& current);

    /// The runs in display order.
    std::vector<Run> runs() const;
    QStringList runUuids() const;
    bool contains(const QString& uuid) const;
    int runCount() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    /// Emitted once after every change of the set of runs.
    void basketChanged();

private:
    struct Group {
        int64_t experimentId = 0;
        QString workload;
        std::vector<Run> runs;
    };

    QString groupLabel(const Group& group) const;
    void sortGroup(Group& group);

    std::vector<Group> m_groups;
    /// The runs refresh() took out because the store no longer had them active, by uuid.
    std::map<std::string, Run> m_leftWhenDeleted;
    std::map<int64_t, QString> m_experimentNames;
};

} // namespace radt
