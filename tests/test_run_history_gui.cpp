// SPDX-License-Identifier: MIT
// A run judged against its configuration's history in the explorer: the tree
// marks a run radt judged outside its history, the run page's History tab judges it on the
// judgement's thread (durations of real runs in a real SQLite store), and "Overlay on Its History"
// puts the run and its history in the basket and draws the run apart from their mean and band.
#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/details/RunDetailsPanel.h"
#include "widgets/details/RunHistoryPane.h"
#include "widgets/runs/BasketModel.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/MainWindow.h"

#include <QDockWidget>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>

#include <gtest/gtest.h>

using namespace radt;
using radt::test::TempDir;

namespace {

constexpr int64_t kStart = 1'750'000'000'000;

/// Five finished repeats of one configuration (seeds 1 to 5) of 100, 102, 98, 101 and 99 s, then a
/// run of 150 s that radt judged outside its history when it finished (its tag); returns its uuid.
std::string storeWithASlowRun(const std::string& uri, std::vector<std::string>& history) {
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    const int64_t experiment = store->getOrCreateExperiment("judged");
    const double seconds[] = {100, 102, 98, 101, 99, 150};
    std::string slow;
    for (int i = 0; i < 6; ++i) {
        const int64_t start = kStart + int64_t(i) * 1'000'000;
        const Run run = store->createRun({experiment, "train.py", start, "u", "train.py"});
        store->logParams(run.uuid, {{"batch_size", "64"}, {"seed", std::to_string(i + 1)}});
        store->setRunStatus(run.uuid, RunStatus::Finished, start + int64_t(seconds[i] * 1000));
        (i < 5 ? history.push_back(run.uuid) : void(slow = run.uuid));
    }
    store->setTags(slow,
                   {{kRunJudgementTag, "outside: slower than its 5 earlier runs: 1.50x, outside the 95 % "
                                       "prediction interval"}});
    return slow;
}

} // namespace

TEST(RunHistoryGui, TheTreeMarksTheRunAndItsPageJudgesAndOverlaysItOnItsHistory) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    std::vector<std::string> history;
    const std::string slow = storeWithASlowRun(uri, history);
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri)));
    window.show();
    auto* tree = test::partOf<RunTreePane>(window);
    auto* panel = test::partOf<RunDetailsPanel>(window);
    ASSERT_TRUE(tree && panel);

    // The tree marks the run radt judged outside, and says why in its tooltip; not the others.
    tree->reveal(QString::fromStdString(slow));
    const QModelIndex slowRow = static_cast<QSortFilterProxyModel*>(tree->view()->model())
                                    ->mapFromSource(tree->model()->indexOfRun(QString::fromStdString(slow)));
    const QModelIndex status = slowRow.sibling(slowRow.row(), RunTreeModel::StatusColumn);
    EXPECT_EQ(status.data().toString(), QStringLiteral("FINISHED ⚠"));
    EXPECT_TRUE(
        slowRow.data(Qt::ToolTipRole)
            .toString()
            .contains(QStringLiteral("Judged when it finished: outside: slower than its 5 earlier runs")));
    const QModelIndex normal = tree->model()->indexOfRun(QString::fromStdString(history[0]));
    EXPECT_EQ(normal.sibling(normal.row(), RunTreeModel::StatusColumn).data().toString(),
              QStringLiteral("FINISHED"));

    // Enter on it shows its page; its History tab judges it now against the store's runs.
    tree->view()->setCurrentIndex(slowRow);
    QTest::keyClick(tree->view(), Qt::Key_Return);
    ASSERT_EQ(panel->runUuid().toStdString(), slow);
    EXPECT_TRUE(panel->field("Judged").startsWith(QStringLiteral("outside: slower")));
    panel->tabs()->setCurrentIndex(RunDetailsPanel::HistoryTab);
    RunHistoryPane* pane = panel->history();
    ASSERT_TRUE(QTest::qWaitFor([&] { return pane->runUuid().toStdString() == slow; }, 20000))
        << pane->sentence().toStdString();
    // mean 100 s, sd 1.58 s, t(0.975, 4) = 2.776, sqrt(1 + 1/5): 100 ± 4.809 s; 150 s is 1.50x, outside.
    EXPECT_TRUE(pane->sentence().contains(QStringLiteral("slower than its 5 earlier runs: 1.50x")))
        << pane->sentence().toStdString();
    QTableWidget* table = pane->table();
    ASSERT_GE(table->rowCount(), 1);
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("duration"));
    EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("150 s"));
    EXPECT_EQ(table->item(0, 2)->text(), QStringLiteral("100 s"));
    EXPECT_EQ(table->item(0, 3)->text(), QStringLiteral("95.19 to 104.8 s"));
    EXPECT_EQ(table->item(0, 5)->text(), QStringLiteral("⚠ slower"));

    // Overlay: the basket becomes the six runs; the chart draws the run apart from their mean.
    auto* overlay = pane->findChild<QPushButton*>();
    ASSERT_TRUE(overlay && overlay->isEnabled());
    QTest::mouseClick(overlay, Qt::LeftButton);
    EXPECT_EQ(test::partOf<BasketModel>(window)->runCount(), 6);
    ChartCard* card = test::partOf<BoardPanel>(window)->current();
    ASSERT_NE(card, nullptr);
    const ChartOptions& options = card->chart()->engine().options();
    EXPECT_EQ(options.grouping, ChartOptions::Grouping::Configuration);
    EXPECT_EQ(options.apartRuns, std::set<QString>{QString::fromStdString(slow)});

    // A normal repeat's page says it is normal.
    tree->view()->setCurrentIndex(
        static_cast<QSortFilterProxyModel*>(tree->view()->model())
            ->mapFromSource(tree->model()->indexOfRun(QString::fromStdString(history[4]))));
    QTest::keyClick(tree->view(), Qt::Key_Return);
    ASSERT_TRUE(QTest::qWaitFor([&] { return pane->runUuid().toStdString() == history[4]; }, 20000));
    EXPECT_TRUE(pane->sentence().contains(QStringLiteral("normal for its configuration")))
        << pane->sentence().toStdString();
}
