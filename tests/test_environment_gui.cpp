// SPDX-License-Identifier: MIT
// Compare Runs' Environment tab on two runs recorded in a real SQLite store whose
// pip.txt differ in two versions and one package: Basket > Compare Runs shows exactly those three
// rows, "Show all" everything (driver, GPU, the packages alike), Copy gives TSV; and the Insights
// view's Configurations tab flags a configuration whose repeats mix environments.

#include "EnvironmentTestSupport.h"
#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/report/EnvironmentReport.h"
#include "widgets/common/FileReadPool.h"
#include "widgets/insights/CompareDialog.h"
#include "widgets/insights/ConfigurationTables.h"
#include "widgets/insights/EnvironmentPane.h"
#include "widgets/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <future>
#include <set>

using namespace radt;
using radt::test::TempDir;

namespace {

std::set<std::string> itemsShown(const QTableWidget* table) {
    std::set<std::string> items;
    for (int r = 0; r < table->rowCount(); ++r)
        items.insert(table->item(r, 0)->text().toStdString());
    return items;
}

int rowOf(const QTableWidget* table, const QString& item) {
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text() == item)
            return r;
    return -1;
}

} // namespace

TEST(EnvironmentGui, CompareRunsListsExactlyTheDifferingPackagesAndShowAllTheRest) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    radt::Run a, b;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        a = test::recordEnvironmentRun(*store, "8", 1, test::kPipA);
        b = test::recordEnvironmentRun(*store, "8", 2, test::kPipB);
    }
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri)));
    window.show();
    window.addRunsToBasket({QString::fromStdString(a.uuid), QString::fromStdString(b.uuid)});
    QAction* compareAction = test::menuAction(window, "Compare Runs");
    ASSERT_TRUE(compareAction);
    EXPECT_EQ(compareAction->shortcut(), QKeySequence("Ctrl+Shift+C"));
    compareAction->trigger();
    CompareDialog* compare = window.findChild<CompareDialog*>();
    ASSERT_TRUE(compare);
    EnvironmentPane* pane = compare->environment();
    compare->tabs()->setCurrentWidget(pane);
    QTableWidget* table = pane->table();
    // Read off the GUI thread: the rows come when the three files of both runs are read.
    QTRY_VERIFY_WITH_TIMEOUT(table->rowCount() > 0, 10000);
    EXPECT_EQ(table->columnCount(), 3) << "the item, then a column per run";
    // Runs named alike are told apart by their ids, on hovering a column's head.
    EXPECT_TRUE(table->horizontalHeaderItem(1)->toolTip().endsWith(QString::fromStdString(a.uuid)));
    EXPECT_TRUE(table->horizontalHeaderItem(2)->toolTip().endsWith(QString::fromStdString(b.uuid)));
    EXPECT_EQ(itemsShown(table), test::kDifferingPackages);
    const int tqdm = rowOf(table, "pip: tqdm");
    ASSERT_GE(tqdm, 0);
    EXPECT_EQ(table->item(tqdm, 1)->text(), "4.66.1");
    EXPECT_EQ(table->item(tqdm, 2)->text(), "(absent)");
    EXPECT_TRUE(table->item(tqdm, 1)->font().bold());
    EXPECT_TRUE(pane->statusText().contains("3 items differ")) << pane->statusText().toStdString();

    pane->showAllBox()->setChecked(true);
    const std::set<std::string> all = itemsShown(table);
    for (const char* alike : {"pip: requests", "pip: radt", "driver", "CUDA", "GPU", "host", "CPU", "cores",
                              "radt version", "environment files"})
        EXPECT_EQ(all.count(alike), 1u) << alike;
    const int driver = rowOf(table, "driver");
    EXPECT_EQ(table->item(driver, 1)->text(), "580.159.04");
    EXPECT_FALSE(table->item(driver, 1)->font().bold()) << "alike in both runs";
    EXPECT_EQ(table->item(rowOf(table, "GPU"), 2)->text(), "NVIDIA H200");

    pane->showAllBox()->setChecked(false);
    QApplication::clipboard()->clear();
    QPushButton* copy = nullptr;
    for (QPushButton* button : pane->findChildren<QPushButton*>())
        if (button->text() == "Copy")
            copy = button;
    ASSERT_TRUE(copy);
    QTest::mouseClick(copy, Qt::LeftButton);
    const QStringList lines = QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 4) << QApplication::clipboard()->text().toStdString();
    EXPECT_TRUE(lines[0].startsWith("Item\t"));
    EXPECT_TRUE(lines.contains("pip: torch\t2.1.0\t2.2.0")) << lines.join('|').toStdString();
}

TEST(EnvironmentGui, ConfigurationsTabFlagsMixedEnvironments) {
    const nlohmann::json report = {
        {"configurations",
         {{{"label", "size=8"},
           {"params", {{"size", "8"}}},
           {"runs", {"a", "b"}},
           {"stats", nlohmann::json::object()},
           {"environment",
            {{"differs", {{{"item", "pip: torch"}, {"values", {{"a", "2.1.0"}, {"b", "2.2.0"}}}}}}}}},
          {{"label", "size=16"},
           {"params", {{"size", "16"}}},
           {"runs", {"c", "d"}},
           {"stats", nlohmann::json::object()},
           {"environment", {{"differs", nlohmann::json::array()}}}}}},
        {"pareto", nlohmann::json::array()}};
    AnswerTableModel model;
    fillConfigurationsModel(&model, report);
    int column = -1;
    for (int c = 0; c < model.columnCount(); ++c)
        if (model.headerData(c, Qt::Horizontal).toString() == "Environment")
            column = c;
    ASSERT_GE(column, 0);
    EXPECT_TRUE(model.index(0, column).data().toString().startsWith(QStringLiteral("⚠ mixed")));
    EXPECT_TRUE(model.index(0, column).data(Qt::ToolTipRole).toString().contains("pip: torch"));
    EXPECT_TRUE(model.index(1, column).data().toString().isEmpty());
}

// Each opening of the Environment tab with a capture that never answers parked a thread of Qt's
// global pool for good, and the tab said "Reading…" forever. Here the read pool's only thread is
// held by a read that does not return: the tab says so after a while, and shows the environments
// once the read gets its thread.
TEST(EnvironmentGui, AReadThatDoesNotReturnIsSaidAndTheTabFillsWhenItGetsItsTurn) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    const radt::Run a = test::recordEnvironmentRun(*store, "8", 1, test::kPipA);
    const radt::Run b = test::recordEnvironmentRun(*store, "8", 2, test::kPipB);
    const int threads = fileReadPool()->maxThreadCount();
    fileReadPool()->setMaxThreadCount(1);
    std::promise<void> release;
    fileReadPool()->start([held = release.get_future().share()] { held.wait(); });
    EnvironmentPane pane;
    pane.setSlowReadNotice(200);
    pane.setRuns({a, b}, {"a", "b"}, artifactContextOfStore(uri));
    QTRY_VERIFY_WITH_TIMEOUT(pane.statusText().contains("Still reading"), 10000);
    EXPECT_TRUE(pane.statusText().contains("after 0.2 s")) << pane.statusText().toStdString();
    EXPECT_EQ(pane.table()->rowCount(), 0);
    release.set_value();
    QTRY_VERIFY_WITH_TIMEOUT(pane.table()->rowCount() > 0, 10000);
    EXPECT_TRUE(pane.statusText().contains("3 items differ")) << pane.statusText().toStdString();
    fileReadPool()->waitForDone();
    fileReadPool()->setMaxThreadCount(threads);
}
