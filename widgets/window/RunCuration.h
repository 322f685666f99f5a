// SPDX-License-Identifier: MIT
#pragma once
// A run's care in the explorer: rename, note, tag, delete and restore the runs
// selected in the tree, and rename, delete and restore its experiments (with their runs, as MLflow
// does), writing the rows MLflow's own client writes (the Store's curation calls,
// as `radt run` does) through a connection of its own on the loader's thread, then rereading the
// tree. Ctrl+Z undoes the last change (and Ctrl+Shift+Z does it again). Deleted runs leave the
// tree, the basket and its charts; Show Deleted Runs brings them back, struck out, to be restored.
// A store opened read-only disables every action and says why; a write the store refuses (a
// PostgreSQL role without UPDATE) is said in a dialog and changes nothing.

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <string>

class QAction;
class QMainWindow;
class QUndoStack;

namespace radt {

class Store;
struct WindowParts;

class RunCuration : public QObject {
    Q_OBJECT
public:
    RunCuration(QMainWindow& window, WindowParts& parts);

    /// What the tree's context menu and the Run menu offer, in that order.
    QList<QAction*> runActions() const;
    QList<QAction*> experimentActions() const;
    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }
    QAction* showDeletedAction() const { return m_showDeleted; }
    QUndoStack* undoStack() const { return m_undo; }

    // What the actions do, for the selection or for given runs (tests, scripts).
    void rename(const QString& runUuid, const QString& name);
    void setNote(const QString& runUuid, const QString& note);
    /// Sets `set` and removes `removed` tags of each run.
    void changeTags(const QStringList& runUuids, const std::map<std::string, std::string>& set,
                    const QStringList& removed);
    void setDeleted(const QStringList& runUuids, bool deleted);
    void renameExperiment(qlonglong experimentId, const QString& name);
    /// Deletes or restores experiments with all their runs. Undoing a delete restores them and
    /// deletes again the runs that were deleted before it.
    void setExperimentsDeleted(const QList<qlonglong>& experimentIds, bool deleted);

    /// Tests: processes events until no change is being written or undone; false on timeout.
    bool waitIdle(int timeoutMs);
    /// The last write's error ("" when it landed).
    QString lastError() const { return m_lastError; }

    struct Change; // what a change writes and what undoes it (for CurationCommand)

signals:
    /// A change (or its undoing) was written and the tree reread.
    void changed();

private:
    friend class CurationCommand;
    void makeActions();
    void updateEnabled();
    /// Writes `apply` on the loader's thread; on success pushes `change` for Ctrl+Z.
    void commit(const std::shared_ptr<Change>& change);
    /// Runs `work` against a connection of its own on the loader's thread, then rereads the tree
    /// and calls `done` with the error ("" when it landed).
    void write(const std::function<void(Store&)>& work,
               const std::function<void(const QString& error)>& done);
    void renameSelected();
    void noteSelected();
    void tagSelected();
    void deleteSelected();
    void renameSelectedExperiment();
    void deleteSelectedExperiments();

    QMainWindow& m_window;
    WindowParts& m_ui;
    QUndoStack* m_undo = nullptr;
    QAction* m_rename = nullptr;
    QAction* m_note = nullptr;
    QAction* m_tags = nullptr;
    QAction* m_delete = nullptr;
    QAction* m_restore = nullptr;
    QAction* m_showDeleted = nullptr;
    QAction* m_renameExperiment = nullptr;
    QAction* m_deleteExperiment = nullptr;
    QAction* m_restoreExperiment = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    int m_writing = 0; ///< writes under way
    QString m_lastError;
};

} // namespace radt
