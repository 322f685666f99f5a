// A run's care in the explorer (issue 40 §3), on SQLite and on PostgreSQL: the tree's selection
// renamed, noted, tagged, deleted with the Delete key and restored from Show Deleted Runs, each
// written as MLflow's client writes it (read back through another connection), each undone by
// Ctrl+Z; a deleted run leaves the basket; a store opened read-only disables it all and says why.

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
#include <QItemSelectionModel>
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

TEST_P(RunCurationGui, AStoreOpenedReadOnlyOffersNoneOfItAndSaysWhy) {
    MainWindow readOnly(nullptr, true);
    QString error;
    ASSERT_TRUE(readOnly.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
    auto* care = readOnly.findChild<RunCuration*>();
    ASSERT_TRUE(care);
    for (QAction* action : care->runActions()) {
        EXPECT_FALSE(action->isEnabled()) << action->text().toStdString();
        EXPECT_TRUE(action->toolTip().contains("read-only")) << action->toolTip().toStdString();
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, RunCurationGui, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

} // namespace
