// SPDX-License-Identifier: MIT
// A run's care in the explorer, on SQLite and on PostgreSQL: the tree's selection
// renamed, noted, tagged, deleted with the Delete key and restored from Show Deleted Runs, each
// written as MLflow's client writes it (read back through another connection), each undone by
// Ctrl+Z; a deleted run leaves the basket; an experiment renamed, deleted with its runs and restored
// as MLflow's client does; a store opened read-only disables it all and says why.

#include "GuiTestSupport.h"
#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/runs/BasketModel.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/RunCuration.h"

#include <QAbstractProxyModel>
#include <QAction>
#include <QApplication>
#include <QFont>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <gtest/gtest.h>

using namespace radt;

namespace {

class RunCurationGui : public test::BackendTest {
protected:
    void SetUp() override {
        test::BackendTest::SetUp();
        if (IsSkipped())
            return;
        sample = GetParam() == "sqlite" ? test::buildSampleStore(dir.file("store.db"), false)
                                        : test::copySampleStoreTo(m_uri, dir.file("sample.db"));
        QString error;
        ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
        window.resize(1024, 700);
        window.show();
        curation = window.findChild<RunCuration*>();
        ASSERT_TRUE(curation);
        tree = test::partOf<RunTreePane>(window);
    }
    /// The run as another client reads it now: nullopt once deleted.
    std::optional<radt::Run> stored(const std::string& uuid) {
        return openStore(sample.uri, OpenMode::OpenExisting)->run(uuid);
    }
    void select(const std::string& uuid) {
        tree->reveal(QString::fromStdString(uuid));
        const QModelIndex source = tree->model()->indexOfRun(QString::fromStdString(uuid));
        const QModelIndex shown =
            tree->view()->model() == tree->model()
                ? source
                : static_cast<QAbstractProxyModel*>(tree->view()->model())->mapFromSource(source);
        tree->view()->setCurrentIndex(shown);
        tree->view()->selectionModel()->select(shown, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    }
    bool settled() { return curation->waitIdle(20000) && window.waitForLoads(); }
    /// Selects the tree's row of an experiment; false when the tree has none.
    bool selectExperiment(int64_t id) {
        QAbstractItemModel* shown = tree->view()->model();
        for (int row = 0; row < shown->rowCount(); ++row) {
            const QModelIndex index = shown->index(row, 0);
            if (index.data(RunTreeModel::ExperimentIdRole).toLongLong() != id)
                continue;
            tree->view()->setCurrentIndex(index);
            tree->view()->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
            return true;
        }
        return false;
    }
    std::optional<Experiment> storedExperiment(int64_t id) {
        return openStore(sample.uri, OpenMode::OpenExisting)->experimentById(id);
    }

    test::TempDir dir;
    test::SampleStore sample;
    MainWindow window;
    RunCuration* curation = nullptr;
    RunTreePane* tree = nullptr;
};

TEST_P(RunCurationGui, RenameNoteTagDeleteAndRestoreAsMlflowWritesThemEachUndone) {
    const std::string a = sample.runs.at("alpha/1/a");
    const std::string oldName = stored(a)->name;
    // Rename: runs.name and the mlflow.runName tag; the tree shows it; Ctrl+Z gives the old name.
    curation->rename(QString::fromStdString(a), "seed 3 (wrong flag)");
    ASSERT_TRUE(settled());
    ASSERT_TRUE(curation->lastError().isEmpty()) << curation->lastError().toStdString();
    EXPECT_EQ(stored(a)->name, "seed 3 (wrong flag)");
    EXPECT_EQ(stored(a)->tags.at("mlflow.runName"), "seed 3 (wrong flag)");
    EXPECT_EQ(tree->model()->runByUuid(QString::fromStdString(a))->name, "seed 3 (wrong flag)");
    EXPECT_EQ(curation->undoAction()->text(), "&Undo Rename run");
    curation->undoStack()->undo();
    ASSERT_TRUE(settled());
    EXPECT_EQ(stored(a)->name, oldName);
    curation->undoStack()->redo();
    ASSERT_TRUE(settled());
    EXPECT_EQ(stored(a)->name, "seed 3 (wrong flag)");

    // Note and tags: mlflow.note.content (MLflow's description) and the user's tags; undoing the
    // tag removes it again.
    curation->setNote(QString::fromStdString(a), "diverged at epoch 12");
    ASSERT_TRUE(settled());
    EXPECT_EQ(stored(a)->tags.at(kRunNoteTag), "diverged at epoch 12");
    curation->changeTags({QString::fromStdString(a)}, {{"paper", "fig3"}}, {});
    ASSERT_TRUE(settled());
    EXPECT_EQ(stored(a)->tags.at("paper"), "fig3");
    curation->undoStack()->undo();
    ASSERT_TRUE(settled());
    EXPECT_EQ(stored(a)->tags.count("paper"), 0u);
    EXPECT_EQ(stored(a)->tags.at(kRunNoteTag), "diverged at epoch 12") << "only the last change undone";

    // Delete with the Delete key on the tree's selection: the run leaves the store's runs, the
    // tree and the basket.
    window.addRunsToBasket({QString::fromStdString(a), QString::fromStdString(sample.runs.at("alpha/1/b"))});
    ASSERT_TRUE(window.waitForLoads());
    select(a);
    ASSERT_TRUE(curation->runActions()[3]->isEnabled()) << "Delete, with a run selected";
    tree->view()->setFocus();
    QTest::keyClick(tree->view(), Qt::Key_Delete);
    ASSERT_TRUE(settled());
    EXPECT_FALSE(stored(a).has_value());
    EXPECT_EQ(tree->model()->runByUuid(QString::fromStdString(a)), nullptr);
    EXPECT_EQ(window.basketRunUuids(), QStringList{QString::fromStdString(sample.runs.at("alpha/1/b"))});
    // Show Deleted Runs brings it back, struck out, to be restored; Restore does.
    curation->showDeletedAction()->setChecked(true);
    ASSERT_TRUE(settled());
    const radt::Run* shown = tree->model()->runByUuid(QString::fromStdString(a));
    ASSERT_TRUE(shown);
    EXPECT_TRUE(shown->deleted);
    EXPECT_EQ(tree->model()
                  ->data(tree->model()
                             ->indexOfRun(QString::fromStdString(a))
                             .siblingAtColumn(RunTreeModel::StatusColumn))
                  .toString(),
              "deleted");
    select(a);
    QAction* restore = curation->runActions()[4];
    ASSERT_TRUE(restore->isEnabled());
    EXPECT_FALSE(curation->runActions()[3]->isEnabled()) << "a deleted run is not deleted again";
    restore->trigger();
    ASSERT_TRUE(settled());
    ASSERT_TRUE(stored(a).has_value());
    EXPECT_EQ(stored(a)->name, "seed 3 (wrong flag)");
    // Undo the restore: deleted again.
    curation->undoStack()->undo();
    ASSERT_TRUE(settled());
    EXPECT_FALSE(stored(a).has_value());
}

// After a change the reader's place stays: the same run selected (the Run menu still acts on it),
// a deleted run offering only Restore, restore putting it back in the basket it left, a workload's
// status made of its active runs, and a filter that matches nothing saying so.
TEST_P(RunCurationGui, CurationKeepsTheReadersPlace) {
    const std::string a = sample.runs.at("alpha/1/a"), b = sample.runs.at("alpha/1/b");
    const QString qa = QString::fromStdString(a), qb = QString::fromStdString(b);
    QPushButton* add = tree->findChild<QPushButton*>("addToBasket");
    ASSERT_TRUE(add);
    select(a);
    curation->rename(qa, "kept selected");
    ASSERT_TRUE(settled());
    EXPECT_EQ(tree->selectedRunUuids(), QStringList{qa}) << "the reread tree keeps the selection";
    EXPECT_EQ(tree->runUuidAt(tree->view()->currentIndex()), qa) << "and the current row";
    EXPECT_TRUE(curation->runActions()[0]->isEnabled()) << "Rename Run, without clicking the run again";
    EXPECT_TRUE(add->isEnabled());

    // Delete a run of the basket: it leaves it; restored, it comes back, beside its partner.
    window.addRunsToBasket({qa, qb});
    ASSERT_TRUE(window.waitForLoads());
    curation->setDeleted({qa}, true);
    ASSERT_TRUE(settled());
    EXPECT_EQ(window.basketRunUuids(), QStringList{qb});
    curation->showDeletedAction()->setChecked(true);
    ASSERT_TRUE(settled());
    select(a);
    EXPECT_TRUE(tree->selectedRunUuids().isEmpty()) << "a deleted run is not chosen";
    EXPECT_FALSE(add->isEnabled()) << "a deleted run offers no Add to basket, only Restore";
    EXPECT_TRUE(curation->runActions()[4]->isEnabled());
    // Workload 1 now has a failed run and a deleted one: its status is the failed run's.
    const QModelIndex workload1 = tree->model()->indexOfRun(qa).parent();
    const auto statusOf = [&](const QModelIndex& index) {
        return tree->model()->data(index.siblingAtColumn(RunTreeModel::StatusColumn)).toString();
    };
    EXPECT_EQ(statusOf(workload1), "FAILED") << "the deleted FINISHED run is not in its status";
    EXPECT_TRUE(tree->model()
                    ->data(workload1, Qt::ToolTipRole)
                    .toString()
                    .endsWith("and 1 deleted (not in its status)"))
        << tree->model()->data(workload1, Qt::ToolTipRole).toString().toStdString();
    curation->runActions()[4]->trigger(); // Restore
    ASSERT_TRUE(settled());
    ASSERT_TRUE(stored(a).has_value());
    QStringList basket = window.basketRunUuids();
    basket.sort();
    QStringList both{qa, qb};
    both.sort();
    EXPECT_EQ(basket, both) << "restore puts the run back in the basket it left";
    EXPECT_EQ(tree->selectedRunUuids(), QStringList{qa}) << "still the reader's row";
    EXPECT_TRUE(add->isEnabled());

    // A workload whose only run is deleted says so, not FINISHED.
    const std::string only = sample.runs.at("alpha/2/a");
    curation->setDeleted({QString::fromStdString(only)}, true);
    ASSERT_TRUE(settled());
    EXPECT_EQ(statusOf(tree->model()->indexOfRun(QString::fromStdString(only)).parent()), "deleted");

    // A filter that matches nothing says so, naming what it searched.
    auto* filter = tree->findChild<QLineEdit*>("runFilter");
    auto* noMatch = tree->findChild<QLabel*>("runFilterNoMatch");
    ASSERT_TRUE(filter && noMatch);
    EXPECT_FALSE(noMatch->isVisible());
    filter->setText("no-such-run-anywhere");
    ASSERT_TRUE(QTest::qWaitFor([&] { return noMatch->isVisible(); }, 5000));
    EXPECT_TRUE(noMatch->text().startsWith(QStringLiteral("No run matches “no-such-run-anywhere”")))
        << noMatch->text().toStdString();
    filter->setText("vgg");
    ASSERT_TRUE(QTest::qWaitFor([&] { return !noMatch->isVisible(); }, 5000));
}

// Ctrl+Z after a colleague renamed the same run wrote the old name back over theirs, with no word.
// Undo and redo now write only over what this window left (compare-and-set): the colleague's
// change stays, and the dialog names it.
TEST_P(RunCurationGui, UndoNeverOverwritesAColleaguesChangeAndNamesIt) {
    const std::string a = sample.runs.at("alpha/1/a");
    curation->rename(QString::fromStdString(a), "mine");
    ASSERT_TRUE(settled());
    ASSERT_EQ(stored(a)->name, "mine");
    test::sqlByAnotherClient(sample.uri, "UPDATE runs SET name = 'theirs' WHERE run_uuid = '" + a +
                                             "'; UPDATE tags SET value = 'theirs' WHERE run_uuid = '" + a +
                                             "' AND key = 'mlflow.runName'");
    QString said;
    test::answerNextMessageBox(QMessageBox::Ok, &said);
    curation->undoStack()->undo();
    ASSERT_TRUE(settled());
    EXPECT_EQ(stored(a)->name, "theirs");
    EXPECT_TRUE(said.contains("was renamed to 'theirs' by another client meanwhile")) << said.toStdString();

    curation->changeTags({QString::fromStdString(a)}, {{"paper", "fig3"}}, {});
    ASSERT_TRUE(settled());
    ASSERT_EQ(stored(a)->tags.at("paper"), "fig3");
    test::sqlByAnotherClient(sample.uri,
                             "UPDATE tags SET value = 'fig4' WHERE run_uuid = '" + a + "' AND key = 'paper'");
    test::answerNextMessageBox(QMessageBox::Ok, &said);
    curation->undoStack()->undo();
    ASSERT_TRUE(settled());
    EXPECT_EQ(stored(a)->tags.at("paper"), "fig4") << "the colleague's value stays";
    EXPECT_TRUE(said.contains("tag 'paper' was changed to 'fig4' by another client")) << said.toStdString();
}

TEST_P(RunCurationGui, AnExperimentIsRenamedDeletedWithItsRunsAndRestoredEachUndone) {
    int64_t alpha = -1;
    for (const Experiment& e : tree->model()->experiments())
        if (e.name == "alpha")
            alpha = e.id;
    ASSERT_GE(alpha, 0);
    const std::string a1 = sample.runs.at("alpha/1/a"), b1 = sample.runs.at("alpha/1/b"),
                      a2 = sample.runs.at("alpha/2/a");
    ASSERT_TRUE(selectExperiment(alpha));
    QAction* renameAction = curation->experimentActions()[0];
    QAction* deleteAction = curation->experimentActions()[1];
    QAction* restoreAction = curation->experimentActions()[2];
    EXPECT_TRUE(renameAction->isEnabled());
    EXPECT_TRUE(deleteAction->isEnabled());
    EXPECT_FALSE(restoreAction->isEnabled()) << "nothing deleted is selected";
    EXPECT_FALSE(curation->runActions()[0]->isEnabled()) << "Rename Run wants one run";

    // Rename: experiments.name, in the tree; Ctrl+Z gives the old name back.
    curation->renameExperiment(alpha, "alpha (batch sweep)");
    ASSERT_TRUE(settled());
    ASSERT_TRUE(curation->lastError().isEmpty()) << curation->lastError().toStdString();
    EXPECT_EQ(storedExperiment(alpha)->name, "alpha (batch sweep)");
    ASSERT_TRUE(selectExperiment(alpha));
    EXPECT_EQ(tree->view()->currentIndex().data().toString(), "alpha (batch sweep)");
    curation->undoStack()->undo();
    ASSERT_TRUE(settled());
    EXPECT_EQ(storedExperiment(alpha)->name, "alpha");

    // One run deleted on its own, then the experiment from its row, the dialog answered Yes:
    // MLflow's delete_experiment takes every run with it, and the basket loses them.
    curation->setDeleted({QString::fromStdString(b1)}, true);
    ASSERT_TRUE(settled());
    window.addRunsToBasket({QString::fromStdString(a1), QString::fromStdString(sample.runs.at("beta/7/a"))});
    ASSERT_TRUE(window.waitForLoads());
    ASSERT_TRUE(selectExperiment(alpha));
    QString asked;
    test::answerNextMessageBox(QMessageBox::Yes, &asked);
    deleteAction->trigger();
    ASSERT_TRUE(settled());
    EXPECT_TRUE(asked.contains("Delete alpha and its 2 runs?")) << asked.toStdString();
    EXPECT_EQ(storedExperiment(alpha)->lifecycleStage, "deleted");
    EXPECT_FALSE(stored(a1) || stored(a2) || stored(b1));
    EXPECT_FALSE(selectExperiment(alpha)) << "a deleted experiment leaves the tree";
    EXPECT_EQ(window.basketRunUuids(), QStringList{QString::fromStdString(sample.runs.at("beta/7/a"))});

    // Show Deleted Runs: the experiment struck out with its runs; Restore brings back all three,
    // the run deleted before it too, as MLflow's restore_experiment does.
    curation->showDeletedAction()->setChecked(true);
    ASSERT_TRUE(settled());
    ASSERT_TRUE(selectExperiment(alpha));
    const QModelIndex row = tree->view()->currentIndex();
    EXPECT_EQ(row.siblingAtColumn(RunTreeModel::StatusColumn).data().toString(), "deleted");
    EXPECT_TRUE(row.data(Qt::FontRole).value<QFont>().strikeOut());
    EXPECT_TRUE(restoreAction->isEnabled());
    EXPECT_FALSE(deleteAction->isEnabled());
    EXPECT_FALSE(renameAction->isEnabled()) << "MLflow renames only active experiments";
    restoreAction->trigger();
    ASSERT_TRUE(settled());
    EXPECT_EQ(storedExperiment(alpha)->lifecycleStage, "active");
    EXPECT_TRUE(stored(a1) && stored(a2) && stored(b1));

    // Undo the restore (deleted again), then the delete: restored, with the run deleted before
    // it deleted again, as it was.
    curation->undoStack()->undo();
    ASSERT_TRUE(settled());
    EXPECT_FALSE(stored(a1) || stored(a2) || stored(b1));
    curation->undoStack()->undo();
    ASSERT_TRUE(settled());
    EXPECT_EQ(storedExperiment(alpha)->lifecycleStage, "active");
    EXPECT_TRUE(stored(a1) && stored(a2));
    EXPECT_FALSE(stored(b1)) << "deleted on its own before the experiment was";
}

TEST_P(RunCurationGui, ARunningRunIsRenamedAndTaggedAndDeletingItAsksFirst) {
    const std::string live = sample.runs.at("beta/7/b");
    ASSERT_EQ(stored(live)->status, RunStatus::Running);
    curation->rename(QString::fromStdString(live), "vgg16 (still training)");
    ASSERT_TRUE(settled());
    curation->changeTags({QString::fromStdString(live)}, {{"watch", "loss"}}, {});
    ASSERT_TRUE(settled());
    ASSERT_TRUE(curation->lastError().isEmpty()) << curation->lastError().toStdString();
    EXPECT_EQ(stored(live)->name, "vgg16 (still training)");
    EXPECT_EQ(stored(live)->tags.at("watch"), "loss");
    EXPECT_EQ(stored(live)->status, RunStatus::Running) << "its collector's run goes on";

    // Del asks first: No keeps it, Yes deletes it.
    select(live);
    tree->view()->setFocus();
    QString asked;
    test::answerNextMessageBox(QMessageBox::No, &asked);
    QTest::keyClick(tree->view(), Qt::Key_Delete);
    ASSERT_TRUE(settled());
    EXPECT_TRUE(asked.contains("still running")) << asked.toStdString();
    EXPECT_TRUE(stored(live).has_value());
    test::answerNextMessageBox(QMessageBox::Yes);
    QApplication::setActiveWindow(&window); // the box that closed was the active one
    tree->view()->setFocus();
    QTest::keyClick(tree->view(), Qt::Key_Delete);
    ASSERT_TRUE(settled());
    EXPECT_FALSE(stored(live).has_value());
}

TEST_P(RunCurationGui, AStoreOpenedReadOnlyOffersNoneOfItAndSaysWhy) {
    MainWindow readOnly(nullptr, true);
    QString error;
    ASSERT_TRUE(readOnly.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
    auto* care = readOnly.findChild<RunCuration*>();
    ASSERT_TRUE(care);
    for (QAction* action : care->runActions() + care->experimentActions()) {
        EXPECT_FALSE(action->isEnabled()) << action->text().toStdString();
        EXPECT_TRUE(action->toolTip().contains("read-only")) << action->toolTip().toStdString();
    }
}

// A lab's dashboard account: a PostgreSQL role with SELECT only opens the store read-only, and
// the window offers no change and says why, before anything is tried.
TEST_P(RunCurationGui, ARoleThatMayOnlyReadOffersNoneOfItAndSaysWhy) {
    if (GetParam() != "postgresql")
        GTEST_SKIP() << "roles are PostgreSQL's";
    const std::string db = sample.uri.substr(std::string("postgresql:///").size());
    const std::string reader = "radt_curation_reader_" + db.substr(db.size() - 6);
    ASSERT_EQ(test::shell("psql -q -v ON_ERROR_STOP=1 -d " + db + " -c \"CREATE ROLE " + reader +
                          " LOGIN PASSWORD 'r3ader'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO " +
                          reader + "\" >/dev/null"),
              0);
    struct DropRole {
        std::string db, role;
        ~DropRole() {
            test::shell("psql -q -d " + db + " -c \"DROP OWNED BY " + role + "; DROP ROLE " + role +
                        "\" >/dev/null 2>&1");
        }
    } dropRole{db, reader};
    const auto env = [](const char* name, const char* fallback) {
        const char* v = std::getenv(name);
        return std::string(v ? v : fallback);
    };
    const std::string uri = "postgresql://" + reader + ":r3ader@" + env("PGHOST", "localhost") + ":" +
                            env("PGPORT", "5432") + "/" + db;
    MainWindow dashboard;
    QString error;
    ASSERT_TRUE(dashboard.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    auto* care = dashboard.findChild<RunCuration*>();
    ASSERT_TRUE(care);
    for (QAction* action : care->runActions() + care->experimentActions()) {
        EXPECT_FALSE(action->isEnabled()) << action->text().toStdString();
        EXPECT_TRUE(action->toolTip().contains("may only read")) << action->toolTip().toStdString();
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, RunCurationGui, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

} // namespace
