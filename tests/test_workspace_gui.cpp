// SPDX-License-Identifier: MIT
// The explorer's workspace on a shown 1024x700 window: the board is a grid of 1-3
// columns where every chart is reachable and a new one is scrolled into view, the console opens
// tabbed with the summary instead of squeezing the charts, a narrow chart's options overflow into
// a menu while Reset and close stay visible, and the arrangement is kept across sessions.

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartExport.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/SummaryPanel.h"
#include "widgets/insights/CompareDialog.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/BoardDocument.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/WorkspaceLayout.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDropEvent>
#include <QHeaderView>
#include <QImageReader>
#include <QLineSeries>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

#include <gtest/gtest.h>

using namespace radt;
using namespace QtCharts;

namespace {

struct Workspace {
    test::TempDir dir;
    test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), true);
    MainWindow window;
    explicit Workspace(QSize size = QSize(1024, 700)) {
        QString error;
        EXPECT_TRUE(window.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
        window.resize(size);
        window.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.addRunsToBasket({QString::fromStdString(sample.runs.at("alpha/1/a")),
                                QString::fromStdString(sample.runs.at("alpha/1/b"))});
        window.waitForLoads();
    }
    BoardPanel* board() { return test::partOf<BoardPanel>(window); }
    /// The card's rectangle in the board's scroll viewport.
    QRect inViewport(ChartCard* card) {
        QWidget* viewport = board()->scrollArea()->viewport();
        return QRect(card->mapTo(viewport, QPoint(0, 0)), card->size());
    }
    void settle() {
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents();
    }
};

} // namespace

TEST(Workspace, TheBoardIsAGridWhereANewChartIsScrolledIntoView) {
    Workspace w;
    BoardPanel* board = w.board();
    board->setColumns(2);
    for (int i = 0; i < 4; ++i)
        board->addChart();
    w.settle();
    ASSERT_EQ(board->chartCount(), 5);
    ChartCard* first = board->chartAt(0);
    ChartCard* second = board->chartAt(1);
    ChartCard* third = board->chartAt(2);
    EXPECT_EQ(first->geometry().top(), second->geometry().top()) << "two charts side by side";
    EXPECT_LT(first->geometry().right(), second->geometry().left());
    EXPECT_GT(third->geometry().top(), first->geometry().bottom()) << "the third starts a new row";
    for (int i = 0; i < board->chartCount(); ++i)
        EXPECT_GE(board->chartAt(i)->height(), BoardPanel::kMinimumChartHeight) << "chart " << i;
    ChartCard* last = board->chartAt(4);
    const QRect viewport = board->scrollArea()->viewport()->rect();
    EXPECT_TRUE(viewport.intersects(w.inViewport(last))) << "the new chart is in view";
    EXPECT_GT(board->scrollArea()->verticalScrollBar()->value(), 0) << "the board scrolled to it";
    EXPECT_FALSE(viewport.intersects(w.inViewport(first))) << "five charts do not fit: the board scrolls";

    board->setColumns(3); // also from View > Board Columns and the board's own box
    w.settle();
    EXPECT_EQ(board->columnsBox()->currentText(), "3 columns");
    EXPECT_EQ(board->chartAt(2)->geometry().top(), first->geometry().top());
    EXPECT_LE(board->chartAt(2)->geometry().right(), board->scrollArea()->viewport()->width())
        << "three columns fit the 1024 px window's board without a horizontal scroll";
    test::menuAction(w.window, "1 Column")->trigger();
    EXPECT_EQ(board->columns(), 1);
}

TEST(Workspace, TheConsoleOpensTabbedWithTheSummaryAndTheChartsKeepTheirHeight) {
    Workspace w;
    w.settle();
    ChartCard* card = w.board()->chartAt(0);
    const int boardHeight = w.board()->height();
    const int chartHeight = card->height();
    ASSERT_FALSE(test::dockOf(w.window, "console")->isVisible());
    test::dockOf(w.window, "console")->show();
    test::dockOf(w.window, "console")->raise();
    w.settle();
    EXPECT_TRUE(test::dockOf(w.window, "console")->isVisible());
    EXPECT_EQ(w.window.tabifiedDockWidgets(test::dockOf(w.window, "console")),
              QList<QDockWidget*>{test::dockOf(w.window, "summary")});
    EXPECT_GE(w.board()->height(), boardHeight - 40) << "the console took no height, only a tab bar's";
    EXPECT_GE(card->height(), chartHeight - 40) << "a row of charts fills the board: it gives up a tab bar's "
                                                   "height, no more";
}

TEST(Workspace, ANarrowChartsOptionsOverflowIntoAMenuAndResetAndCloseStayVisible) {
    Workspace w;
    BoardPanel* board = w.board();
    board->addChart();
    board->addChart();
    board->setColumns(3);
    w.settle();
    ChartCard* card = board->chartAt(2);
    auto* extension = card->optionsBar()->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
    ASSERT_NE(extension, nullptr);
    EXPECT_TRUE(extension->isVisible()) << "the options that do not fit are behind the » button";
    for (QWidget* button :
         {static_cast<QWidget*>(card->resetZoomButton()), static_cast<QWidget*>(card->removeButton())}) {
        EXPECT_TRUE(button->isVisible());
        EXPECT_TRUE(card->rect().contains(QRect(button->mapTo(card, QPoint(0, 0)), button->size())))
            << "inside the card, not cut off";
    }
    board->setColumns(1);
    w.window.resize(1280, 800);
    w.settle();
    EXPECT_FALSE(extension->isVisible())
        << "a full-width chart shows every option: " << card->optionsBar()->width() << " px for "
        << card->optionsBar()->sizeHint().width();
}

TEST(Workspace, TheArrangementIsKeptForTheNextSession) {
    test::TempDir settingsDir;
    QSettings settings(QString::fromStdString(settingsDir.file("layout.ini")), QSettings::IniFormat);
    {
        Workspace w;
        w.board()->setColumns(2);
        test::dockOf(w.window, "summary")->hide();
        w.window.workspace().save(settings);
    }
    Workspace next;
    EXPECT_TRUE(next.window.workspace().restore(settings));
    next.settle();
    EXPECT_EQ(next.board()->columns(), 2);
    EXPECT_FALSE(test::dockOf(next.window, "summary")->isVisible());
    test::menuAction(next.window, "Reset Layout")->trigger();
    next.settle();
    EXPECT_TRUE(test::dockOf(next.window, "summary")->isVisible());
    EXPECT_EQ(next.board()->columns(), 1);
}

TEST(Workspace, CompareRunsPutsParamsTagsAndLatestMetricsSideBySideWithDifferencesMarked) {
    Workspace w;
    CompareDialog* compare = w.window.showCompare();
    w.window.waitForLoads(); // the latest values are read off the GUI thread
    QTableWidget* table = compare->table();
    ASSERT_EQ(table->columnCount(), 3) << "the key, then one column per basket run";
    EXPECT_TRUE(table->horizontalHeaderItem(1)->text().startsWith("(1 a) train\nalpha"));
    auto rowOf = [&](const QString& key) {
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 0)->text() == key)
                return r;
        return -1;
    };
    const int letter = rowOf("param: letter");
    ASSERT_GE(letter, 0);
    EXPECT_EQ(table->item(letter, 1)->text(), "a");
    EXPECT_EQ(table->item(letter, 2)->text(), "b");
    EXPECT_TRUE(table->item(letter, 1)->font().bold()) << "a value that differs is marked";
    const int model = rowOf("param: model");
    ASSERT_GE(model, 0);
    EXPECT_FALSE(table->item(model, 1)->font().bold()) << "the same script in both";
    const int loss = rowOf("latest: loss");
    ASSERT_GE(loss, 0) << "latest metrics beside the params, labelled as latest";
    EXPECT_EQ(table->item(loss, 1)->text(), "—") << "run a logs no loss";
    EXPECT_EQ(table->item(loss, 2)->text(), "0.006667") << "2/300 to 4 significant digits";
    // The duration first, and the charted metric's mean and p95 from the summary.
    const int duration = rowOf("run: duration");
    ASSERT_EQ(duration, 0);
    EXPECT_FALSE(table->item(duration, 1)->text().isEmpty());
    const QString charted = w.window.chartPanel()->engine().metricKey();
    ASSERT_FALSE(charted.isEmpty());
    const int mean = rowOf("summary: " + charted + " mean");
    ASSERT_GE(mean, 0) << "the summary's statistics of the charted metric";
    EXPECT_GE(rowOf("summary: " + charted + " p95"), 0);
    EXPECT_NE(table->item(mean, 1)->text(), "—");

    compare->onlyDifferencesBox()->setChecked(true);
    EXPECT_EQ(rowOf("param: model"), -1) << "rows alike in every run are hidden";
    EXPECT_GE(rowOf("param: letter"), 0);
}

TEST(CompareRows, AbsentCountsAsADifferenceAndMlflowTagsComeLast) {
    radt::Run a, b;
    a.uuid = "a";
    b.uuid = "b";
    a.params = {{"lr", "0.1"}, {"batch", "32"}};
    b.params = {{"lr", "0.1"}};
    a.tags = {{"mlflow.user", "me"}, {"team", "x"}};
    b.tags = {{"mlflow.user", "me"}, {"team", "x"}};
    a.startTime = b.startTime = 1'700'000'000'000;
    a.endTime = a.startTime + 6'164'230;
    b.endTime = b.startTime + 10'000;
    CompareExtras extras;
    extras.gpuEnergyJ = {{"a", 4040.3}};
    std::vector<CompareRow> rows = compareRows({a, b}, {{"a", {{"loss", {3.58e11, 1, 1}}}}}, extras);
    ASSERT_EQ(rows.size(), 7u);
    EXPECT_EQ(rows[0].key, "duration");
    EXPECT_EQ(rows[0].values, (QStringList{"1 h 42 m 44 s", "10.0 s"}));
    EXPECT_EQ(rows[1].key, "GPU energy (its share)");
    EXPECT_EQ(rows[1].values, (QStringList{"4.04 kJ", ""}));
    rows.erase(rows.begin(), rows.begin() + 2);
    EXPECT_EQ(rows[0].key, "batch");
    EXPECT_TRUE(rows[0].differs) << "a param one run lacks differs";
    EXPECT_EQ(rows[0].values, (QStringList{"32", ""}));
    EXPECT_EQ(rows[1].key, "lr");
    EXPECT_FALSE(rows[1].differs);
    EXPECT_EQ(rows[2].key, "team") << "the user's tags before MLflow's own";
    EXPECT_EQ(rows[3].key, "mlflow.user");
    EXPECT_EQ(rows[4].section, CompareRow::Section::Metric);
    EXPECT_EQ(rows[4].values, (QStringList{"358,000,000,000", ""})) << "a counter's total, never 3.58e+11";
}

TEST(Workspace, RunsDraggedFromTheTreeDropIntoTheBasket) {
    Workspace w;
    w.window.clearBasket();
    w.window.waitForLoads();
    QTreeView* tree = test::partOf<RunTreePane>(w.window)->view();
    QAbstractItemModel* model = tree->model();
    // The experiment "beta" node: its three runs travel with the drag.
    QModelIndex beta;
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 0).data().toString() == "beta")
            beta = model->index(r, 0);
    ASSERT_TRUE(beta.isValid());
    EXPECT_TRUE(model->flags(beta) & Qt::ItemIsDragEnabled);
    EXPECT_TRUE(tree->dragEnabled());
    std::unique_ptr<QMimeData> data(model->mimeData({beta, beta.sibling(beta.row(), 1)}));
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(RunTreeModel::runUuidsIn(data.get()).size(), 3) << "each row once, every run under it";

    QWidget* basket = w.window.findChild<BasketPanel*>()->view()->viewport();
    const QPoint at = basket->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(basket, &enter);
    EXPECT_TRUE(enter.isAccepted()) << "the basket takes runs";
    QDropEvent drop(at, Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(basket, &drop);
    w.window.waitForLoads();
    EXPECT_EQ(w.window.basketRunUuids().size(), 3);

    QMimeData text;
    text.setText("not runs");
    QDragEnterEvent other(at, Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(basket, &other);
    EXPECT_FALSE(other.isAccepted()) << "anything else is refused";
}

TEST(Workspace, AnExportActsOnTheChartInViewAndJpgIsOffered) {
    Workspace w;
    BoardPanel* board = w.board();
    ASSERT_TRUE(w.window.plotMetric("PROC - CPU Utilization"));
    w.window.waitForLoads();
    for (int i = 0; i < 3; ++i)
        board->addChart();
    ASSERT_TRUE(w.window.plotMetric("TOP - CPU Utilization"));
    w.window.waitForLoads();
    w.settle();
    board->setCurrent(board->chartAt(0)); // current, but scrolled out of view by the new charts
    w.settle();
    ASSERT_EQ(board->visibleCharts(), std::vector<ChartCard*>{board->chartAt(3)});
    EXPECT_EQ(w.window.document().chartToExport(), board->chartAt(3)->chart())
        << "the chart the user sees, not the current one out of view";
    board->scrollTo(board->chartAt(0));
    w.settle();
    EXPECT_EQ(w.window.document().chartToExport(), board->chartAt(0)->chart())
        << "the current chart once in view";

    ASSERT_NE(test::menuAction(w.window, "Chart as JPG"), nullptr);
    const QString path = QString::fromStdString(w.dir.file("chart.jpg"));
    exportChartJpg(*board->chartAt(3)->chart(), path, QSize(640, 400), 1.0);
    QImageReader reader(path);
    EXPECT_EQ(reader.format(), "jpeg");
    EXPECT_EQ(reader.size(), QSize(640, 400));
}

// Found driving the window in Xvfb: after Add chart, clicking the metric the previous chart shows
// (still highlighted in the list) plotted nothing in the new chart.
TEST(Workspace, ANewChartPlotsTheMetricClickedEvenWhenTheLastChartShowsIt) {
    Workspace w;
    ASSERT_TRUE(w.window.plotMetric("loss"));
    w.window.waitForLoads();
    ChartCard* added = w.board()->addChart();
    w.settle();
    ASSERT_EQ(w.window.chartPanel(), added->chart()) << "the new chart is current";
    EXPECT_TRUE(test::partOf<MetricPicker>(w.window)->currentKey().isEmpty())
        << "and no metric is chosen for it";
    EXPECT_TRUE(test::partOf<MetricPicker>(w.window)->tree()->selectedItems().isEmpty());
    QTreeWidget* list = test::partOf<MetricPicker>(w.window)->tree();
    const QList<QTreeWidgetItem*> loss = list->findItems("loss", Qt::MatchExactly | Qt::MatchRecursive);
    ASSERT_EQ(loss.size(), 1);
    list->scrollToItem(loss.front());
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(loss.front()).center());
    w.window.waitForLoads();
    EXPECT_EQ(added->chart()->engine().metricKey(), "loss");
    EXPECT_GT(added->chart()->engine().seriesCount(), 0);
    EXPECT_EQ(w.board()->chartAt(0)->chart()->engine().metricKey(), "loss") << "the first chart keeps it too";
}

TEST(Workspace, ARunIsOneColourInEveryChartAndClearAllStartsTheColoursAgain) {
    Workspace w;
    // Lines by their names: told apart by batch size where both runs are drawn (a 256, b 512),
    // by the run's name where one is.
    auto colourOf = [](ChartPanel* chart, const QString& name) {
        for (QAbstractSeries* s : chart->chart()->series())
            if (s->name().startsWith(name))
                return qobject_cast<QLineSeries*>(s)->pen().color();
        return QColor();
    };
    ChartPanel* cpu = w.window.chartPanel();
    ASSERT_EQ(cpu->engine().metricKey(), "PROC - CPU Utilization");
    cpu->changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(cpu->engine()).front());
        else
            o.shownRuns.erase(workloadKeys(cpu->engine()).front());
    });
    ASSERT_EQ(cpu->engine().seriesCount(), 2);
    w.board()->addChart();
    ASSERT_TRUE(w.window.plotMetric("loss")); // only run b logs loss
    ASSERT_TRUE(w.window.waitForLoads());
    ChartPanel* loss = w.window.chartPanel();
    ASSERT_NE(loss, cpu);
    loss->changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(loss->engine()).front());
        else
            o.shownRuns.erase(workloadKeys(loss->engine()).front());
    });
    ASSERT_EQ(loss->engine().seriesCount(), 1);
    const QColor b = colourOf(cpu, "batch-size=512");
    ASSERT_TRUE(b.isValid()) << seriesNames(cpu->engine()).join(", ").toStdString();
    EXPECT_NE(colourOf(cpu, "batch-size=256"), b);
    EXPECT_EQ(colourOf(loss, "(1 b)"), b) << "run b is one colour in both charts, though loss meets it first";

    w.window.clearBasket();
    w.window.addRunsToBasket({QString::fromStdString(w.sample.runs.at("beta/7/a"))});
    ASSERT_TRUE(w.window.waitForLoads());
    ASSERT_EQ(loss->engine().seriesCount(), 1);
    ASSERT_FALSE(loss->chart()->series().isEmpty());
    EXPECT_EQ(qobject_cast<QLineSeries*>(loss->chart()->series().front())->pen().color(), QColor(0x4e79a7))
        << "a new comparison starts with the palette's first colour";
}

// One chart can have the whole window (View > Maximise Chart, Ctrl+Shift+M) and
// give it back: the docks, the basket and metric list and the other charts hide and come back.
TEST(Workspace, AChartMaximisedFillsTheWindowAndGivesItBack) {
    Workspace w;
    BoardPanel* board = w.board();
    ChartCard* second = board->addChart();
    ChartCard* first = board->chartAt(0);
    board->setCurrent(first);
    w.settle();
    const int before = first->height();
    QAction* maximise = test::menuAction(w.window, "Maximise Chart");
    ASSERT_TRUE(maximise);
    EXPECT_EQ(maximise->shortcut(), QKeySequence("Ctrl+Shift+M"));
    maximise->trigger();
    w.settle();
    EXPECT_TRUE(w.window.workspace().chartMaximised());
    EXPECT_FALSE(test::dockOf(w.window, "experiments")->isVisible());
    EXPECT_FALSE(test::dockOf(w.window, "summary")->isVisible());
    EXPECT_FALSE(second->isVisible());
    EXPECT_GT(first->height(), before * 3 / 2) << before << " px before";
    EXPECT_GT(first->height(), w.window.height() * 7 / 10) << "most of the window's height";
    maximise->trigger();
    w.settle();
    EXPECT_FALSE(w.window.workspace().chartMaximised());
    EXPECT_TRUE(test::dockOf(w.window, "experiments")->isVisible());
    EXPECT_TRUE(test::dockOf(w.window, "summary")->isVisible());
    EXPECT_TRUE(second->isVisible());
    EXPECT_EQ(first->height(), before);
}

// At 1024x700 a row of charts fits the board whole (before, a card's 340 px
// minimum made the board scroll and no chart was ever wholly visible); several rows keep that
// minimum and scroll. A double-click on a chart maximises it, another brings everything back.
TEST(Workspace, OneRowOfChartsFitsTheBoardAndADoubleClickMaximises) {
    Workspace w;
    w.window.workspace().fitPanesToWidth();
    w.settle();
    ChartCard* card = w.board()->chartAt(0);
    const QWidget* viewport = w.board()->scrollArea()->viewport();
    EXPECT_LE(card->height(), viewport->height()) << "wholly visible";
    EXPECT_GE(card->height(), viewport->height() - 12) << "and the board's whole height";
    const double plotShare = card->chart()->chart()->plotArea().height() / double(viewport->height());
    EXPECT_GE(plotShare, 0.56) << "the plot, not its furniture, has the board: "
                               << card->chart()->chart()->plotArea().height() << " of " << viewport->height();
    ChartCard* below = w.board()->addChart(); // one column: a second row
    w.settle();
    EXPECT_GE(below->height(), BoardPanel::kMinimumChartHeight) << "two rows stay readable and scroll";

    QTest::mouseDClick(card->chart()->chartView()->viewport(), Qt::LeftButton, Qt::NoModifier,
                       QPoint(200, 100));
    w.settle();
    EXPECT_TRUE(w.window.workspace().chartMaximised());
    EXPECT_EQ(w.board()->current(), card) << "the chart double-clicked, not the current one";
    EXPECT_FALSE(below->isVisible());
    QTest::mouseDClick(card->chart()->chartView()->viewport(), Qt::LeftButton, Qt::NoModifier,
                       QPoint(200, 100));
    w.settle();
    EXPECT_FALSE(w.window.workspace().chartMaximised());
    EXPECT_TRUE(below->isVisible());
}

// The summary under the board shows three rows of its table (a 500-run basket's summary showed
// one: 30 px rows under a header, a scroll bar and the copy button) where the window is tall
// enough, two on a laptop's 700 px, and the chart keeps its minimum height.
TEST(Workspace, TheSummaryShowsThreeRowsAndTheChartsTheirHeight) {
    for (const auto& [size, rows] :
         {std::make_pair(QSize(1024, 700), 2), std::make_pair(QSize(1280, 800), 3)}) {
        Workspace w(size);
        w.settle();
        QTableView* table = test::partOf<SummaryPanel>(w.window)->view();
        ASSERT_GE(table->model()->rowCount(), 2);
        const int row = table->verticalHeader()->defaultSectionSize();
        EXPECT_LE(row, table->fontMetrics().height() + 8) << "rows as tall as their text";
        const int scrollBar =
            table->horizontalScrollBar()->isVisible() ? 0 : table->horizontalScrollBar()->sizeHint().height();
        EXPECT_GE(table->viewport()->height() - scrollBar, rows * row)
            << size.width() << "x" << size.height();
        EXPECT_LE(table->viewport()->height(), 6 * row) << "no more: the board is what is read";
        EXPECT_GE(w.board()->chartAt(0)->height(), BoardPanel::kMinimumChartHeight);
    }
}
