// SPDX-License-Identifier: MIT
#pragma once
// The experiment -> workload -> run tree with its filter: what the store holds, for choosing runs.
// Choosing (double-click, the Add button, the context menu) is said with runsChosen; the window
// puts those runs in the basket. A reread keeps the nodes the user expanded, and a filter shows
// every match expanded, then gives back the tree as it was.

#include "core/store/Store.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QLabel;
class QTimer;
class QLineEdit;
class QPushButton;
class QModelIndex;
class QTreeView;

namespace radt {

class RunFilterProxy;
class RunTreeModel;
class StoreReadThread;

class RunTreePane : public QWidget {
    Q_OBJECT
public:
    explicit RunTreePane(QWidget* parent = nullptr);

    RunTreeModel* model() const { return m_model; }
    RunFilterProxy* proxy() const { return m_proxy; }
    QTreeView* view() const { return m_tree; }

    /// A newly opened store's runs: experiments expanded, nothing else.
    void showStore(const std::vector<Experiment>& experiments, const std::vector<Run>& runs);
    /// A reread of the same store (after a change here, another client's, a live run's): the nodes
    /// the user expanded stay expanded, and the rows selected stay selected where they still are.
    void showReread(const std::vector<Experiment>& experiments, const std::vector<Run>& runs);
    /// The runs under a node (a run, a workload, an experiment) of the model or its proxy.
    QStringList runUuidsUnder(const QModelIndex& index) const;
    /// The runs under the selected rows (deleted ones, shown to be restored, are not chosen).
    QStringList selectedRunUuids() const;
    /// The deleted runs under the selected rows (Show Deleted Runs).
    QStringList selectedDeletedRunUuids() const;
    /// The ids of the selected experiment rows: the active ones, or with `deleted` the deleted
    /// ones shown to be restored.
    QList<qlonglong> selectedExperimentIds(bool deleted) const;
    /// Actions the context menu offers after its own (rename, tag, delete...): they act on the
    /// selection, and the tree view holds them so their keys (F2, Del) work where it has focus.
    /// Each call's actions are a group of the menu, apart from the last call's.
    void addCurationActions(const QList<QAction*>& actions);
    /// Expands and scrolls to a run.
    void reveal(const QString& runUuid);
    void expandAll();
    /// Puts the keyboard in the filter, its text selected (Run > Find Runs).
    void focusFilter();
    /// The store a search in the filter asks (MLflow's syntax is answered by the store, in SQL).
    void setStoreUri(const QString& uri);

    /// The run a tree index (of the model or its proxy) stands for; "" for experiments and workloads.
    QString runUuidAt(const QModelIndex& index) const;

signals:
    /// Enter on a run, or Details in its context menu: show that run's details.
    void detailsRequested(const QString& runUuid);
    /// The current row moved to a run (the details dock follows it).
    void currentRunChanged(const QString& runUuid);
    /// The user chose these runs (the nodes under a double-click, the Add button, the menu);
    /// `what` names the node double-clicked, "" otherwise.
    void runsChosen(const QStringList& runUuids, const QString& what);
    /// A search typed in the filter was answered (`runs` found) or refused (-1).
    void searched(int runs);

protected:
    /// Enter on a run in the tree asks for its details.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The filter's text as a search in MLflow's syntax: parsed here, answered by the store on
    /// the search's thread, its runs kept by the proxy.
    void search();
    /// The filter's text changed: a text filter at once, a search once typing pauses.
    void filterChanged(const QString& text);
    void fitColumns();
    /// Add to basket only where the selection holds an active run; "No run matches" under a filter
    /// that leaves nothing.
    void updateChoosing();
    /// The current row's key ("" without one), then each selected row's (nodeKey: "r:<uuid>" for
    /// a run).
    QStringList selectedNodes() const;
    void restoreSelectedNodes(const QStringList& keys);
    QStringList expandedNodes() const;
    void restoreExpandedNodes(const QStringList& keys);
    void showContextMenu(const QPoint& pos);

    RunTreeModel* m_model;
    RunFilterProxy* m_proxy;
    QLineEdit* m_filter;
    QTreeView* m_tree;
    QLabel* m_noMatch;
    QPushButton* m_add;
    std::optional<QStringList> m_expandedBeforeFilter; ///< while a filter is typed
    QString m_uri;
    QTimer* m_searchPause;                           ///< a search is asked once typing pauses
    QString m_searchProblem;                         ///< where the search typed went wrong, or ""
    std::shared_ptr<StoreReadThread> m_searchReader; ///< made at the first search
    quint64 m_searchGeneration = 0;
    QList<QAction*> m_curation; ///< addCurationActions'
};

} // namespace radt
