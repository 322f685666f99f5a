// SPDX-License-Identifier: MIT
#include "widgets/window/RunCuration.h"

#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/common/Formatting.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/StoreSession.h"
#include "widgets/window/WindowParts.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QTreeView>
#include <QUndoStack>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

namespace radt {

/// What a change writes, and what writes the store back as it was.
struct RunCuration::Change {
    QString text; ///< "Rename run", for Undo's label
    std::function<void(Store&)> apply, revert;
};

/// A change on the undo stack: it was written when pushed (the first redo does nothing); undoing
/// and redoing write again, on the loader's thread.
class CurationCommand : public QUndoCommand {
public:
    CurationCommand(RunCuration& curation, std::shared_ptr<RunCuration::Change> change)
        : QUndoCommand(change->text), m_curation(curation), m_change(std::move(change)) {}
    void undo() override { writeAgain(m_change->revert); }
    void redo() override {
        if (m_first) {
            m_first = false;
            return;
        }
        writeAgain(m_change->apply);
    }

private:
    void writeAgain(const std::function<void(Store&)>& work) {
        QPointer<QMainWindow> window(&m_curation.m_window);
        m_curation.write(work, [window, text = text()](const QString& error) {
            if (!error.isEmpty() && window)
                QMessageBox::warning(window, QObject::tr("Undo"),
                                     QObject::tr("%1 could not be undone or redone: %2").arg(text, error));
        });
    }
    RunCuration& m_curation;
    std::shared_ptr<RunCuration::Change> m_change;
    bool m_first = true;
};

namespace {

/// Tags a person set (not MLflow's own, not radt's facts about the host): what Tags… edits.
bool isUserTag(const std::string& key) {
    return key.rfind("mlflow.", 0) != 0 && key.rfind("radt.", 0) != 0;
}

/// Compare-and-set: a change, its undo and its redo write only over what this window saw. When
/// another client changed the same run since (a colleague renamed it, tagged it), the write is
/// refused naming that change, and the colleague's value stays.
std::optional<std::string> currentTag(const Run& run, const std::string& key) {
    const auto it = run.tags.find(key);
    return it == run.tags.end() ? std::nullopt : std::optional<std::string>(it->second);
}

Run runAsSeen(Store& store, const std::string& uuid) {
    std::optional<Run> run = store.run(uuid);
    if (!run)
        throw StoreError("run " + uuid.substr(0, 8) + " is gone (deleted by another client meanwhile)");
    return *run;
}

void expectName(Store& store, const std::string& uuid, const std::string& expected) {
    const Run run = runAsSeen(store, uuid);
    if (run.name != expected)
        throw StoreError("run " + uuid.substr(0, 8) + " was renamed to '" + run.name +
                         "' by another client meanwhile (this window expected '" + expected +
                         "'); that name is kept");
}

void expectTags(Store& store, const std::string& uuid,
                const std::map<std::string, std::optional<std::string>>& expected) {
    const Run run = runAsSeen(store, uuid);
    for (const auto& [key, value] : expected) {
        const std::optional<std::string> now = currentTag(run, key);
        if (now != value)
            throw StoreError("run " + uuid.substr(0, 8) + "'s " +
                             (key == kRunNoteTag ? "note" : "tag '" + key + "'") + " was " +
                             (now ? "changed to '" + *now + "'" : "removed") +
                             " by another client meanwhile; it is kept");
    }
}

const Experiment* experimentOf(const RunTreeModel& model, qlonglong id) {
    for (const Experiment& e : model.experiments())
        if (e.id == id)
            return &e;
    return nullptr;
}

QString tagLines(const Run& run) {
    QStringList lines;
    for (const auto& [key, value] : run.tags)
        if (isUserTag(key))
            lines << toQString(key) + QLatin1Char('=') + toQString(value);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

RunCuration::RunCuration(QMainWindow& window, WindowParts& parts)
    : QObject(&window), m_window(window), m_ui(parts), m_undo(new QUndoStack(this)) {
    makeActions();
    m_ui.tree->addCurationActions(runActions());
    m_ui.tree->addCurationActions(experimentActions());
    connect(m_ui.tree->view()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RunCuration::updateEnabled);
    connect(m_ui.session, &StoreSession::storeOpened, this, [this] {
        m_undo->clear(); // a change of another store is not undone here
        updateEnabled();
    });
    connect(m_ui.session, &StoreSession::treeReady, this, &RunCuration::updateEnabled);
    updateEnabled();
}

void RunCuration::makeActions() {
    m_rename = new QAction(tr("&Rename Run…"), this);
    m_rename->setShortcut(QKeySequence(Qt::Key_F2));
    m_rename->setStatusTip(tr("The run's name, as MLflow shows it (runs.name and its mlflow.runName tag)"));
    connect(m_rename, &QAction::triggered, this, &RunCuration::renameSelected);
    m_note = new QAction(tr("Edit &Note…"), this);
    m_note->setStatusTip(tr("The run's note: MLflow's description (mlflow.note.content)"));
    connect(m_note, &QAction::triggered, this, &RunCuration::noteSelected);
    m_tags = new QAction(tr("Edit &Tags…"), this);
    m_tags->setStatusTip(tr("Add, change or remove the selected runs' tags (KEY=VALUE, one a line)"));
    connect(m_tags, &QAction::triggered, this, &RunCuration::tagSelected);
    m_delete = new QAction(tr("&Delete Runs"), this);
    m_delete->setShortcut(QKeySequence::Delete);
    m_delete->setStatusTip(
        tr("MLflow's soft delete: the runs leave every view; Show Deleted Runs and Restore "
           "bring them back, Ctrl+Z too"));
    connect(m_delete, &QAction::triggered, this, &RunCuration::deleteSelected);
    m_restore = new QAction(tr("Re&store Runs"), this);
    connect(m_restore, &QAction::triggered, this,
            [this] { setDeleted(m_ui.tree->selectedDeletedRunUuids(), false); });
    m_renameExperiment = new QAction(tr("Rename E&xperiment…"), this);
    connect(m_renameExperiment, &QAction::triggered, this, &RunCuration::renameSelectedExperiment);
    m_deleteExperiment = new QAction(tr("Delete Ex&periments"), this);
    connect(m_deleteExperiment, &QAction::triggered, this, &RunCuration::deleteSelectedExperiments);
    m_restoreExperiment = new QAction(tr("Restore Experi&ments"), this);
    connect(m_restoreExperiment, &QAction::triggered, this,
            [this] { setExperimentsDeleted(m_ui.tree->selectedExperimentIds(true), false); });
    m_showDeleted = new QAction(tr("Show &Deleted Runs"), this);
    m_showDeleted->setCheckable(true);
    m_showDeleted->setStatusTip(tr("Deleted runs and experiments in the tree, struck out, to be restored"));
    connect(m_showDeleted, &QAction::toggled, this, [this](bool show) {
        m_ui.session->setShowDeleted(show);
        m_ui.session->rereadTree(false);
    });
    connect(m_undo, &QUndoStack::indexChanged, this, &RunCuration::updateEnabled);
    m_undoAction = m_undo->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_redoAction = m_undo->createRedoAction(this, tr("&Redo"));
    m_redoAction->setShortcut(QKeySequence::Redo);
}

QList<QAction*> RunCuration::runActions() const {
    return {m_rename, m_note, m_tags, m_delete, m_restore};
}

QList<QAction*> RunCuration::experimentActions() const {
    return {m_renameExperiment, m_deleteExperiment, m_restoreExperiment};
}

void RunCuration::updateEnabled() {
    const QString readOnly = m_ui.session->whyReadOnly();
    const bool writable = m_ui.session->isOpen() && readOnly.isEmpty();
    const QString why = !m_ui.session->isOpen() ? tr(" (no store is open)")
                        : writable              ? QString()
                                                : tr(" (off: %1)").arg(readOnly);
    const int active = int(m_ui.tree->selectedRunUuids().size());
    const int deleted = int(m_ui.tree->selectedDeletedRunUuids().size());
    const auto enable = [&](QAction* action, bool on, const QString& tip) {
        action->setEnabled(writable && on);
        action->setToolTip(tip + why);
        action->setStatusTip(tip + why); // what the menu says when hovered
    };
    enable(m_rename, active == 1, tr("Rename the selected run"));
    enable(m_note, active == 1, tr("Edit the selected run's note"));
    enable(m_tags, active >= 1, tr("Edit the selected runs' tags"));
    enable(m_delete, active >= 1, tr("Delete the selected runs"));
    enable(m_restore, deleted >= 1, tr("Restore the selected deleted runs"));
    const int experiments = int(m_ui.tree->selectedExperimentIds(false).size());
    enable(m_renameExperiment, experiments == 1, tr("Rename the selected experiment"));
    enable(m_deleteExperiment, experiments >= 1,
           tr("Delete the selected experiments and their runs (MLflow's soft delete)"));
    enable(m_restoreExperiment, !m_ui.tree->selectedExperimentIds(true).isEmpty(),
           tr("Restore the selected deleted experiments and their runs"));
    m_undoAction->setEnabled(writable && m_undo->canUndo());
    m_redoAction->setEnabled(writable && m_undo->canRedo());
}

void RunCuration::write(const std::function<void(Store&)>& work,
                        const std::function<void(const QString& error)>& done) {
    if (!m_ui.session->isOpen()) { // no tree to reread after it: say so rather than wait forever
        m_lastError = tr("no store is open");
        done(m_lastError);
        return;
    }
    const std::string uri = m_ui.session->uri().toStdString();
    ++m_writing;
    QPointer<RunCuration> self(this);
    m_ui.session->loader()->workThenLand(
        [uri, work] {
            // A connection of its own: the loader's reads are read-only, and a write must not wait
            // behind a chart's read on the same connection.
            auto store = openStore(uri, OpenMode::OpenExisting);
            work(*store);
        },
        [self, done](const QString& error) {
            if (!self)
                return;
            self->m_lastError = error;
            self->m_ui.session->rereadTree(false, [self, done, error] {
                if (!self)
                    return;
                --self->m_writing;
                done(error);
                emit self->changed();
            });
        });
}

void RunCuration::commit(const std::shared_ptr<Change>& change) {
    QPointer<RunCuration> self(this);
    write(change->apply, [self, change](const QString& error) {
        if (!self)
            return;
        if (!error.isEmpty()) {
            QMessageBox::warning(&self->m_window, change->text,
                                 tr("Nothing was changed: %1").arg(error)); // the store said why
            return;
        }
        self->m_undo->push(new CurationCommand(*self, change));
        self->m_window.statusBar()->showMessage(tr("%1: done (Ctrl+Z undoes it)").arg(change->text), 5000);
        self->updateEnabled();
    });
}

void RunCuration::rename(const QString& runUuid, const QString& name) {
    const Run* run = m_ui.tree->model()->runByUuid(runUuid);
    if (!run)
        return;
    const std::string uuid = run->uuid, before = run->name, after = name.toStdString();
    commit(std::make_shared<Change>(Change{tr("Rename run"),
                                           [uuid, before, after](Store& s) {
                                               expectName(s, uuid, before);
                                               s.curation().renameRun(uuid, after);
                                           },
                                           [uuid, before, after](Store& s) {
                                               expectName(s, uuid, after);
                                               s.curation().renameRun(uuid, before);
                                           }}));
}

void RunCuration::setNote(const QString& runUuid, const QString& note) {
    const Run* run = m_ui.tree->model()->runByUuid(runUuid);
    if (!run)
        return;
    const std::string uuid = run->uuid, after = note.toStdString();
    const auto it = run->tags.find(kRunNoteTag);
    const std::optional<std::string> before =
        it == run->tags.end() ? std::nullopt : std::optional<std::string>(it->second);
    const auto put = [uuid](Store& s, const std::optional<std::string>& was,
                            const std::optional<std::string>& note) {
        expectTags(s, uuid, {{kRunNoteTag, was}});
        if (note)
            s.setTags(uuid, {{kRunNoteTag, *note}});
        else
            s.curation().deleteTags(uuid, {kRunNoteTag});
    };
    commit(std::make_shared<Change>(Change{tr("Edit note"),
                                           [put, before, after](Store& s) { put(s, before, after); },
                                           [put, before, after](Store& s) { put(s, after, before); }}));
}

void RunCuration::changeTags(const QStringList& runUuids, const std::map<std::string, std::string>& set,
                             const QStringList& removed) {
    // Each run's tags before, for the keys touched: what undoing writes back.
    using Tags = std::map<std::string, std::optional<std::string>>;
    std::map<std::string, Tags> before;
    for (const QString& uuid : runUuids) {
        const Run* run = m_ui.tree->model()->runByUuid(uuid);
        if (!run)
            continue;
        Tags& old = before[run->uuid];
        auto note = [&](const std::string& key) {
            const auto it = run->tags.find(key);
            old[key] = it == run->tags.end() ? std::nullopt : std::optional<std::string>(it->second);
        };
        for (const auto& entry : set)
            note(entry.first);
        for (const QString& key : removed)
            note(key.toStdString());
    }
    std::map<std::string, Tags> after;
    for (const auto& [uuid, old] : before) {
        for (const auto& [key, value] : set)
            after[uuid][key] = value;
        for (const QString& key : removed)
            if (old.at(key.toStdString())) // only what the run has: MLflow refuses the rest
                after[uuid][key.toStdString()] = std::nullopt;
    }
    const auto put = [](Store& s, const std::map<std::string, Tags>& was,
                        const std::map<std::string, Tags>& runs) {
        for (const auto& [uuid, tags] : runs) { // every run checked before any is written
            Tags expected;
            for (const auto& entry : tags)
                expected[entry.first] = was.at(uuid).at(entry.first);
            expectTags(s, uuid, expected);
        }
        for (const auto& [uuid, tags] : runs) {
            std::vector<std::pair<std::string, std::string>> setting;
            std::vector<std::string> removing;
            for (const auto& [key, value] : tags)
                if (value)
                    setting.emplace_back(key, *value);
                else
                    removing.push_back(key);
            if (!setting.empty())
                s.setTags(uuid, setting);
            if (!removing.empty())
                s.curation().deleteTags(uuid, removing);
        }
    };
    // Undo writes back only what this change touched (a key it removed, or one it set).
    std::map<std::string, Tags> undo;
    for (const auto& [uuid, tags] : after)
        for (const auto& entry : tags)
            undo[uuid][entry.first] = before[uuid][entry.first];
    commit(std::make_shared<Change>(Change{tr("Edit tags"),
                                           [put, undo, after](Store& s) { put(s, undo, after); },
                                           [put, undo, after](Store& s) { put(s, after, undo); }}));
}

void RunCuration::setDeleted(const QStringList& runUuids, bool deleted) {
    std::vector<std::string> uuids;
    for (const QString& uuid : runUuids)
        uuids.push_back(uuid.toStdString());
    if (uuids.empty())
        return;
    // One transaction for all of them; a run another client already deleted (or restored) is left
    // as it is, and undo gives back only the runs this change did change.
    auto changed = std::make_shared<std::vector<std::string>>();
    commit(std::make_shared<Change>(Change{
        deleted ? tr("Delete %n run(s)", nullptr, int(uuids.size()))
                : tr("Restore %n run(s)", nullptr, int(uuids.size())),
        [uuids, deleted, changed](Store& s) { *changed = s.curation().setRunsDeleted(uuids, deleted); },
        [deleted, changed](Store& s) { s.curation().setRunsDeleted(*changed, !deleted); }}));
}

void RunCuration::renameExperiment(qlonglong experimentId, const QString& name) {
    const Experiment* experiment = experimentOf(*m_ui.tree->model(), experimentId);
    if (!experiment)
        return;
    const int64_t id = experimentId;
    const std::string before = experiment->name, after = name.toStdString();
    commit(std::make_shared<Change>(
        Change{tr("Rename experiment"), [id, after](Store& s) { s.curation().renameExperiment(id, after); },
               [id, before](Store& s) { s.curation().renameExperiment(id, before); }}));
}

void RunCuration::setExperimentsDeleted(const QList<qlonglong>& experimentIds, bool deleted) {
    if (experimentIds.isEmpty())
        return;
    const std::vector<int64_t> ids(experimentIds.begin(), experimentIds.end());
    // MLflow's restore brings back every run of an experiment, those deleted on their own before
    // the experiment too: undoing a delete deletes those again, as they were found when it was made.
    auto deletedBefore = std::make_shared<std::vector<std::string>>();
    // All of them in one transaction; undo reverts only those this change made (one another client
    // changed first is left as it is, as the runs' delete does).
    auto changed = std::make_shared<std::vector<int64_t>>();
    std::function<void(Store&)> apply = [ids, deleted, changed](Store& s) {
        *changed = s.curation().setExperimentsDeleted(ids, deleted);
    };
    std::function<void(Store&)> revert = [deleted, changed](Store& s) {
        s.curation().setExperimentsDeleted(*changed, !deleted);
    };
    if (deleted) {
        apply = [ids, deletedBefore, changed](Store& s) {
            deletedBefore->clear();
            for (const Run& r : s.curation().deletedRuns())
                if (std::find(ids.begin(), ids.end(), r.experimentId) != ids.end())
                    deletedBefore->push_back(r.uuid);
            *changed = s.curation().setExperimentsDeleted(ids, true);
        };
        revert = [deletedBefore, changed](Store& s) {
            s.curation().setExperimentsDeleted(*changed, false);
            s.curation().setRunsDeleted(*deletedBefore, true);
        };
    }
    const int n = int(ids.size());
    commit(std::make_shared<Change>(Change{deleted ? tr("Delete %n experiment(s)", nullptr, n)
                                                   : tr("Restore %n experiment(s)", nullptr, n),
                                           apply, revert}));
}

void RunCuration::renameSelectedExperiment() {
    const QList<qlonglong> ids = m_ui.tree->selectedExperimentIds(false);
    const Experiment* experiment = ids.size() == 1 ? experimentOf(*m_ui.tree->model(), ids.front()) : nullptr;
    if (!experiment)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(&m_window, tr("Rename Experiment"),
                                               tr("Name of experiment %1:").arg(experiment->id),
                                               QLineEdit::Normal, toQString(experiment->name), &ok);
    if (ok && name != toQString(experiment->name))
        renameExperiment(ids.front(), name);
}

void RunCuration::deleteSelectedExperiments() {
    const QList<qlonglong> ids = m_ui.tree->selectedExperimentIds(false);
    if (ids.isEmpty())
        return;
    int runs = 0, running = 0;
    QStringList names;
    for (const Run& r : m_ui.tree->model()->runs())
        if (!r.deleted && ids.contains(r.experimentId)) {
            ++runs;
            running += r.status == RunStatus::Running;
        }
    for (qlonglong id : ids)
        if (const Experiment* e = experimentOf(*m_ui.tree->model(), id))
            names << toQString(e->name);
    // A whole experiment goes at once: say what goes with it, as MLflow's UI asks too.
    QString question =
        tr("Delete %1 and its %2? Show Deleted Runs and Restore Experiments, or Ctrl+Z, "
           "bring them back.")
            .arg(names.join(QLatin1String(", ")), runs == 1 ? tr("1 run") : tr("%1 runs").arg(runs));
    if (running > 0)
        question += QLatin1Char(' ') +
                    (running == 1 ? tr("1 of the runs is still running")
                                  : tr("%1 of the runs are still running").arg(running)) +
                    tr(": its collector goes on writing, hidden until it is restored.");
    if (QMessageBox::question(&m_window, tr("Delete Experiments"), question) != QMessageBox::Yes)
        return;
    setExperimentsDeleted(ids, true);
}

void RunCuration::renameSelected() {
    const QStringList uuids = m_ui.tree->selectedRunUuids();
    const Run* run = uuids.size() == 1 ? m_ui.tree->model()->runByUuid(uuids.front()) : nullptr;
    if (!run)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(&m_window, tr("Rename Run"),
                                               tr("Name of run %1:").arg(toQString(run->uuid.substr(0, 8))),
                                               QLineEdit::Normal, toQString(run->name), &ok);
    if (ok && name != toQString(run->name))
        rename(uuids.front(), name);
}

void RunCuration::noteSelected() {
    const QStringList uuids = m_ui.tree->selectedRunUuids();
    const Run* run = uuids.size() == 1 ? m_ui.tree->model()->runByUuid(uuids.front()) : nullptr;
    if (!run)
        return;
    const auto it = run->tags.find(kRunNoteTag);
    bool ok = false;
    const QString note = QInputDialog::getMultiLineText(
        &m_window, tr("Edit Note"),
        tr("Note of %1 (MLflow shows it as the run's description):").arg(toQString(run->name)),
        it == run->tags.end() ? QString() : toQString(it->second), &ok);
    if (ok)
        setNote(uuids.front(), note);
}

void RunCuration::tagSelected() {
    const QStringList uuids = m_ui.tree->selectedRunUuids();
    if (uuids.isEmpty())
        return;
    // One run: its tags to edit. Several: tags to add to each (a line "-KEY" removes KEY).
    const Run* one = uuids.size() == 1 ? m_ui.tree->model()->runByUuid(uuids.front()) : nullptr;
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        &m_window, tr("Edit Tags"),
        one ? tr("Tags of %1, KEY=VALUE one a line (a line removed removes its tag):")
                  .arg(toQString(one->name))
            : tr("Tags for %1 runs, KEY=VALUE one a line; -KEY removes KEY:").arg(uuids.size()),
        one ? tagLines(*one) : QString(), &ok);
    if (!ok)
        return;
    std::map<std::string, std::string> set;
    QStringList removed;
    for (const QString& raw : text.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty())
            continue;
        if (line.startsWith(QLatin1Char('-')) && !line.contains(QLatin1Char('='))) {
            removed << line.mid(1).trimmed();
            continue;
        }
        const int eq = int(line.indexOf(QLatin1Char('=')));
        if (eq <= 0) {
            QMessageBox::warning(&m_window, tr("Edit Tags"),
                                 tr("'%1' is not KEY=VALUE: nothing was changed").arg(line));
            return;
        }
        set[line.left(eq).trimmed().toStdString()] = line.mid(eq + 1).trimmed().toStdString();
    }
    if (one)
        for (const auto& [key, value] : one->tags)
            if (isUserTag(key) && !set.count(key))
                removed << toQString(key); // a line taken out of the list
    if (!set.empty() || !removed.isEmpty())
        changeTags(uuids, set, removed);
}

void RunCuration::deleteSelected() {
    const QStringList uuids = m_ui.tree->selectedRunUuids();
    if (uuids.isEmpty())
        return;
    int running = 0;
    for (const QString& uuid : uuids)
        if (const Run* run = m_ui.tree->model()->runByUuid(uuid))
            running += run->status == RunStatus::Running;
    // A running run is still being written: deleting it hides what its collector goes on writing.
    if (running > 0 &&
        QMessageBox::question(&m_window, tr("Delete Runs"),
                              tr("%n of these runs is still running: delete it anyway? Its collector "
                                 "goes on writing to it, hidden until it is restored.",
                                 nullptr, running)) != QMessageBox::Yes)
        return;
    setDeleted(uuids, true);
}

bool RunCuration::waitIdle(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (m_writing > 0 && timer.elapsed() < timeoutMs)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    return m_writing == 0;
}

} // namespace radt
