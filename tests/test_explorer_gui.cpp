// SPDX-License-Identifier: MIT
// MainWindow end to end on a temporary store: the tree, the basket and the charts that follow them
// (rendering, min/max decimation, the board, linked zoom), on SQLite and PostgreSQL.

#include "GuiTestSupport.h"
#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/RunReconciler.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/SummaryModel.h"
#include "widgets/chart/SummaryPanel.h"
#include "widgets/runs/BasketModel.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunFilterProxy.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/LiveRuns.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/RecentStores.h"
#include "widgets/window/StoreSession.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QMenu>
#include <QSet>
#include <QSignalSpy>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <sys/wait.h>
#include <unistd.h>

using namespace radt;

namespace {

// radT's legend name of a run shown on its own: "<experiment>-<workload> <letter> (<5 of its id>)".
QString shownName(const QString& workloadKey, const QString& letter, const QString& uuid) {
    return workloadKey + " " + letter + " (" + uuid.left(5) + ")";
}

QModelIndex findChild(const QAbstractItemModel& model, const QModelIndex& parent, const QString& name) {
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        if (index.data().toString() == name)
            return index;
    }
    return QModelIndex();
}

class ExplorerGuiTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new test::TempDir;
        s_sample = new test::SampleStore(test::buildSampleStore(s_dir->file("store.db"), true));
    }
    static void TearDownTestSuite() {
        delete s_sample;
        delete s_dir;
    }
    void SetUp() override {
        test::modelTestWarnings().clear();
        m_window = std::make_unique<MainWindow>();
        m_basketTester = std::make_unique<QAbstractItemModelTester>(
            test::partOf<BasketModel>(*m_window), QAbstractItemModelTester::FailureReportingMode::Warning);
        QString error;
        ASSERT_TRUE(m_window->openStore(QString::fromStdString(s_sample->uri), &error))
            << error.toStdString();
    }
    void TearDown() override { EXPECT_EQ(test::modelTestWarnings(), QStringList()); }

    QString uuid(const char* label) const { return QString::fromStdString(s_sample->runs.at(label)); }
    QModelIndex workloadIndex(const char* experiment, const char* workload) const {
        const RunTreeModel& model = *test::partOf<RunTreePane>(*m_window)->model();
        return findChild(model, findChild(model, QModelIndex(), experiment),
                         QStringLiteral("workload %1").arg(workload));
    }

    static test::TempDir* s_dir;
    static test::SampleStore* s_sample;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<QAbstractItemModelTester> m_basketTester;
};

test::TempDir* ExplorerGuiTest::s_dir = nullptr;
test::SampleStore* ExplorerGuiTest::s_sample = nullptr;

// Pixels that are neither white nor near-white, and the number of distinct colours.
std::pair<int, int> inkAndColours(const QImage& image) {
    int ink = 0;
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            colours.insert(p);
            if (qRed(p) < 235 || qGreen(p) < 235 || qBlue(p) < 235)
                ++ink;
        }
    }
    return {ink, colours.size()};
}

} // namespace

TEST_F(ExplorerGuiTest, OpensTheStore) {
    EXPECT_TRUE(m_window->hasStore());
    EXPECT_EQ(m_window->windowTitle(), QStringLiteral("radt-explorer \u2014 ") + m_window->storeDisplayUri());
    EXPECT_TRUE(m_window->storeDisplayUri().endsWith("store.db"));
    EXPECT_EQ(test::partOf<RunTreePane>(*m_window)->model()->runCount(), 6);
    EXPECT_TRUE(m_window->basketRunUuids().isEmpty());
    EXPECT_EQ(m_window->chartPanel()->engine().seriesCount(), 0);
}

TEST_F(ExplorerGuiTest, WorkloadToBasketToChart) {
    EXPECT_EQ(m_window->addTreeIndexToBasket(workloadIndex("alpha", "1")), 2);
    m_window->waitForLoads();
    EXPECT_EQ(m_window->basketRunUuids(), (QStringList{uuid("alpha/1/a"), uuid("alpha/1/b")}));
    // No duplicates, whichever way a run comes in again.
    EXPECT_EQ(m_window->addRunsToBasket({uuid("alpha/1/b"), uuid("alpha/1/a")}), 0);
    m_window->waitForLoads();
    EXPECT_EQ(test::partOf<BasketModel>(*m_window)->rowCount(), 1);

    const QStringList keys = test::partOf<MetricPicker>(*m_window)->keys();
    EXPECT_EQ(keys, (QStringList{"GPU - Power", "PROC - CPU Utilization", "TOP - CPU Utilization", "loss"}));
    // Adding a workload picks the preferred metric by itself.
    EXPECT_EQ(test::partOf<MetricPicker>(*m_window)->currentKey(), "PROC - CPU Utilization");

    ASSERT_TRUE(m_window->plotMetric("PROC - CPU Utilization"));
    m_window->waitForLoads();
    ChartPanel* chart = m_window->chartPanel();
    // As in radT's front end, the runs of a workload are one series named by the workload...
    EXPECT_EQ(seriesNames(chart->engine()), QStringList{"workload 1"});
    ASSERT_EQ(workloadKeys(chart->engine()).size(), 1);
    // ... until its runs are shown one by one.
    chart->changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(chart->engine()).front());
        else
            o.shownRuns.erase(workloadKeys(chart->engine()).front());
    });
    ASSERT_EQ(chart->engine().seriesCount(), 2);
    EXPECT_EQ(seriesNames(chart->engine()), (QStringList{"batch-size=256", "batch-size=512"}))
        << "named by what tells them apart: the flags of their script's arguments";
    chart->changeOptions(
        [&](ChartOptions& o) { o.naming = ChartOptions::Naming::RadtIds; }); // radT's names stay an option
    EXPECT_EQ(seriesNames(chart->engine()), (QStringList{shownName("1-1", "a", uuid("alpha/1/a")),
                                                         shownName("1-1", "b", uuid("alpha/1/b"))}));
    chart->changeOptions([&](ChartOptions& o) { o.naming = ChartOptions::Naming::Readable; });
    EXPECT_EQ(chart->seriesPoints(0).size(), 299); // the NaN sample is skipped
    EXPECT_EQ(chart->seriesPoints(1).size(), 300);

    const QImage image = renderToImage(*chart, QSize(800, 500));
    ASSERT_EQ(image.size(), QSize(800, 500));
    const auto [ink, colours] = inkAndColours(image);
    EXPECT_GT(ink, 800 * 500 / 50) << "the chart looks blank";
    EXPECT_GT(colours, 20);
    if (qEnvironmentVariableIsSet("RADT_GUI_TEST_PNG"))
        image.save(qEnvironmentVariable("RADT_GUI_TEST_PNG"));

    // A metric only one run has gives one line.
    ASSERT_TRUE(m_window->plotMetric("loss"));
    m_window->waitForLoads();
    EXPECT_EQ(seriesNames(chart->engine()), QStringList{"(1 b) train"});
    EXPECT_FALSE(m_window->plotMetric("no such metric"));
    m_window->waitForLoads();
}

TEST_F(ExplorerGuiTest, BigSeriesAreDecimatedKeepingPeaks) {
    m_window->addRunsToBasket({uuid("alpha/1/b")});
    m_window->waitForLoads();
    // The read happens on the loader's thread: the chart names the metric at once, says it is
    // loading, and the progress signal counts the runs read.
    QSignalSpy progress(test::partOf<StoreSession>(*m_window)->loader(), &ChartLoader::progress);
    ASSERT_TRUE(m_window->plotMetric("GPU - Power"));
    EXPECT_TRUE(m_window->chartPanel()->engine().isLoading());
    EXPECT_EQ(m_window->chartPanel()->chart()->title(), "Loading GPU - Power…");
    EXPECT_EQ(test::partOf<StoreSession>(*m_window)->loader()->pending(), 2) << "the chart and the summary";
    ASSERT_TRUE(m_window->waitForLoads());
    EXPECT_FALSE(m_window->chartPanel()->engine().isLoading());
    ASSERT_GE(progress.count(), 1);
    EXPECT_EQ(progress.last().at(1).toInt(), 1);
    EXPECT_EQ(progress.last().at(2).toInt(), 1);
    ChartPanel* chart = m_window->chartPanel();
    ASSERT_EQ(chart->engine().seriesCount(), 1);
    EXPECT_LT(chart->seriesPoints(0).size(), 20000);
    EXPECT_GT(chart->seriesPoints(0).size(), 100);
    const QImage image = renderToImage(*chart, QSize(640, 400));
    EXPECT_GT(inkAndColours(image).first, 640 * 400 / 50);
}

TEST_F(ExplorerGuiTest, ExperimentsAndRunsGoToTheBasketGroupedByWorkload) {
    const RunTreeModel& model = *test::partOf<RunTreePane>(*m_window)->model();
    EXPECT_EQ(m_window->addTreeIndexToBasket(findChild(model, QModelIndex(), "beta")), 3);
    m_window->waitForLoads();
    EXPECT_EQ(test::partOf<BasketModel>(*m_window)->rowCount(), 2); // workload 7 and the unsorted bucket
    EXPECT_EQ(m_window->addTreeIndexToBasket(model.indexOfRun(uuid("alpha/2/a"))), 1);
    m_window->waitForLoads();
    EXPECT_EQ(test::partOf<BasketModel>(*m_window)->rowCount(), 3);
    EXPECT_EQ(test::partOf<BasketModel>(*m_window)->runCount(), 4);

    // Removing a group removes its runs.
    test::partOf<BasketModel>(*m_window)->removeIndexes({test::partOf<BasketModel>(*m_window)->index(0, 0)});
    EXPECT_EQ(test::partOf<BasketModel>(*m_window)->runCount(), 2);
    m_window->clearBasket();
    m_window->waitForLoads();
    EXPECT_TRUE(m_window->basketRunUuids().isEmpty());
    EXPECT_TRUE(test::partOf<MetricPicker>(*m_window)->keys().isEmpty());
    EXPECT_EQ(m_window->chartPanel()->engine().seriesCount(), 0);
}

// Double-clicking an experiment or a workload adds its runs; the arrow and the
// keyboard expand and collapse, a double-click does not.
TEST_F(ExplorerGuiTest, DoubleClickingAnExperimentOrWorkloadAddsItsRunsAndLeavesItsExpansionAlone) {
    m_window->resize(1024, 700);
    m_window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(m_window.get()));
    QTreeView* tree = test::partOf<RunTreePane>(*m_window)->view();
    // As a mouse does it: a press and release, then the second press arrives as a double-click
    // (QAbstractItemView acts on one only over the row its press was on).
    auto doubleClick = [tree](const QModelIndex& index) {
        QApplication::processEvents(); // rows laid out
        const QPoint at = tree->visualRect(index).center();
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at);
    };
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(tree->model());
    ASSERT_TRUE(proxy);
    const QModelIndex beta = proxy->mapFromSource(
        findChild(*test::partOf<RunTreePane>(*m_window)->model(), QModelIndex(), "beta"));
    ASSERT_TRUE(beta.isValid());
    tree->scrollTo(beta);
    const bool expanded = tree->isExpanded(beta);
    doubleClick(beta);
    m_window->waitForLoads();
    EXPECT_EQ(test::partOf<BasketModel>(*m_window)->runCount(), 3) << "every run of experiment beta";
    EXPECT_EQ(tree->isExpanded(beta), expanded);
    m_window->clearBasket();
    const QModelIndex workload = proxy->mapFromSource(workloadIndex("alpha", "2"));
    ASSERT_TRUE(workload.isValid());
    tree->expand(workload.parent());
    tree->scrollTo(workload);
    QApplication::processEvents(); // the expanded rows are laid out
    ASSERT_FALSE(tree->visualRect(workload).isEmpty());
    doubleClick(workload);
    m_window->waitForLoads();
    EXPECT_EQ(
        m_window->basketRunUuids().size(),
        test::partOf<RunTreePane>(*m_window)->model()->runUuidsUnder(workloadIndex("alpha", "2")).size());
    EXPECT_GT(m_window->basketRunUuids().size(), 0);
}

TEST_F(ExplorerGuiTest, LatestWorkloadAndReload) {
    ASSERT_TRUE(m_window->addLatestWorkloadToBasket());
    m_window->waitForLoads();
    EXPECT_EQ(m_window->basketRunUuids(), (QStringList{uuid("beta/7/a"), uuid("beta/7/b")}));
    ASSERT_TRUE(m_window->plotPreferredMetric());
    m_window->waitForLoads();
    EXPECT_EQ(seriesNames(m_window->chartPanel()->engine()), QStringList{"workload 7"});
    m_window->reload();
    EXPECT_EQ(m_window->basketRunUuids().size(), 2);
    EXPECT_EQ(m_window->chartPanel()->engine().seriesCount(), 1);
}

TEST_F(ExplorerGuiTest, ABadStoreKeepsThePreviousOneOpen) {
    m_window->addLatestWorkloadToBasket();
    m_window->waitForLoads();
    const QString title = m_window->windowTitle();
    QString error;
    EXPECT_FALSE(m_window->openStore("postgresql://alice:s3cret@db.example:99999/runs", &error));
    EXPECT_TRUE(error.contains("port")) << error.toStdString();
    EXPECT_FALSE(error.contains("s3cret")) << "a password leaked into: " << error.toStdString();

    error.clear();
    EXPECT_FALSE(
        m_window->openStore(QString::fromStdString("sqlite:///" + s_dir->file("missing/none.db")), &error));
    EXPECT_FALSE(error.isEmpty());

    EXPECT_EQ(m_window->windowTitle(), title);
    EXPECT_EQ(test::partOf<RunTreePane>(*m_window)->model()->runCount(), 6);
    EXPECT_EQ(m_window->basketRunUuids().size(), 2);
}

TEST_F(ExplorerGuiTest, FilterProxyUnderTheWindow) {
    QAbstractItemModelTester tester(test::partOf<RunTreePane>(*m_window)->proxy(),
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    test::partOf<RunTreePane>(*m_window)->proxy()->setFilterText("vgg");
    ASSERT_EQ(test::partOf<RunTreePane>(*m_window)->proxy()->rowCount(), 1);
    m_window->reload();
    EXPECT_EQ(test::partOf<RunTreePane>(*m_window)->proxy()->rowCount(), 1);
    test::partOf<RunTreePane>(*m_window)->proxy()->setFilterText("");
}

TEST_F(ExplorerGuiTest, RenderingAShownChartLeavesItsLayoutAlone) {
    m_window->addLatestWorkloadToBasket();
    m_window->waitForLoads();
    m_window->show();
    QApplication::processEvents();
    ChartPanel* chart = m_window->chartPanel();
    const QSize before = chart->chartView()->size();
    const QImage image = renderToImage(*chart, QSize(1024, 640));
    EXPECT_EQ(image.size(), QSize(1024, 640));
    EXPECT_GT(inkAndColours(image).first, 1024 * 640 / 50);
    EXPECT_EQ(chart->chartView()->size(), before);
    EXPECT_EQ(chart->chart()->size().toSize(), before);
    m_window->hide();
}

TEST(ExplorerReconcile, OpeningAStoreClosesRunsWhoseCollectorIsGone) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("crashed.db");
    std::string orphan, alive;
    int64_t lastSample = 0;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        NewRun spec;
        spec.name = "crashed";
        const radt::Run crashed = store->createRun(spec);
        orphan = crashed.uuid;
        lastSample = crashed.startTime + 1500;
        spec.name = "recording";
        alive = store->createRun(spec).uuid;
        // A collector pid that is certainly gone: a child we started and reaped.
        const pid_t gone = fork();
        if (gone == 0)
            _exit(0);
        waitpid(gone, nullptr, 0);
        auto tags = collectorTags(); // this host; our own pid and start time: alive
        store->setTags(alive, tags);
        for (auto& [key, value] : tags)
            if (key == kCollectorPidTag)
                value = std::to_string(gone);
        store->setTags(orphan, tags);
        store->logMetrics(orphan, {{"loss", 1.0, lastSample, 1}});
    }
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    auto store = openStore(uri, OpenMode::OpenExisting);
    EXPECT_EQ(store->run(orphan)->status, RunStatus::Failed);
    EXPECT_EQ(store->run(orphan)->endTime, std::optional<int64_t>(lastSample)) << "its last sample";
    EXPECT_EQ(store->run(alive)->status, RunStatus::Running) << "a live collector's run is left alone";
}

TEST(ExplorerOnPostgres, TreeBasketAndChartWorkOnAServerStore) {
    auto backend = test::makeBackend("postgresql");
    if (!backend->available())
        GTEST_SKIP() << backend->unavailableReason();
    test::TempDir dir;
    const test::SampleStore sample = test::copySampleStoreTo(backend->freshUri(), dir.file("sample.db"));
    const std::string uri = sample.uri;
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 6);
    EXPECT_EQ(window.addRunsToBasket({QString::fromStdString(sample.runs.at("alpha/1/a")),
                                      QString::fromStdString(sample.runs.at("alpha/1/b"))}),
              2);
    window.waitForLoads();
    ASSERT_TRUE(window.plotMetric(QStringLiteral("PROC - CPU Utilization")));
    window.waitForLoads();
    window.chartPanel()->changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(window.chartPanel()->engine()).front());
        else
            o.shownRuns.erase(workloadKeys(window.chartPanel()->engine()).front());
    });
    ASSERT_EQ(window.chartPanel()->engine().seriesCount(), 2);
    EXPECT_EQ(seriesNames(window.chartPanel()->engine()), (QStringList{"batch-size=256", "batch-size=512"}));
    EXPECT_EQ(window.chartPanel()->seriesPoints(0).size(), 299)
        << "read from the server; the NaN sample skipped";
    EXPECT_EQ(window.chartPanel()->seriesPoints(1).size(), 300);
}

TEST_F(ExplorerGuiTest, ChartControlsAndTheSummaryFollowTheChart) {
    m_window->addTreeIndexToBasket(workloadIndex("alpha", "1"));
    m_window->waitForLoads();
    ASSERT_TRUE(m_window->plotMetric("PROC - CPU Utilization"));
    m_window->waitForLoads();
    // The summary table lists every run with the metric, whatever the chart merges.
    EXPECT_EQ(test::partOf<SummaryPanel>(*m_window)->model()->rowCount(), 2);
    ChartCard* card = test::partOf<BoardPanel>(*m_window)->current();
    card->smoothingSlider()->setValue(50);
    EXPECT_EQ(m_window->chartPanel()->engine().options().smoothing, 50);
    EXPECT_EQ(card->smoothingSpinBox()->value(), 50) << "the spin box shows the slider's value";
    card->smoothingSpinBox()->setValue(37); // a precise value, typed
    EXPECT_EQ(card->smoothingSlider()->value(), 37);
    EXPECT_EQ(m_window->chartPanel()->engine().options().smoothing, 37);
    card->smoothingSlider()->setValue(50);
    // The runs menu lists the workload; checking it shows the runs one by one.
    QMenu* menu = card->runsButton()->menu();
    emit menu->aboutToShow();
    // The workload; a section; grouping per workload, none, per configuration, by params; a
    // section; bands of 95 % CI, sd, min-max; a section; automatic, merged, mean and band; a
    // section; dense lines as mean and range or raw; a separator; radT's names.
    ASSERT_EQ(menu->actions().size(), 19);
    EXPECT_TRUE(menu->actions()[2]->isChecked()) << "grouped per workload by default (radT's rule)";
    EXPECT_EQ(menu->actions()[4]->text(), "Per configuration (params less seed)");
    EXPECT_TRUE(menu->actions()[9]->isChecked()) << "a min-max band by default: the seeds' own spread";
    EXPECT_EQ(menu->actions()[7]->text().left(3), "95 ") << "the CI one click away";
    EXPECT_TRUE(menu->actions()[15]->isChecked()) << "dense lines as mean and range by default";
    EXPECT_EQ(menu->actions().front()->text(), "Workload 1: individual runs");
    EXPECT_TRUE(menu->actions()[11]->isChecked()) << "automatic by default";
    EXPECT_FALSE(m_window->chartPanel()->engine().hasBand(0))
        << "runs that ran together are merged, as radT does";
    menu->actions()[13]->trigger();
    EXPECT_TRUE(m_window->chartPanel()->engine().hasBand(0)) << "merged runs drawn as mean and band";
    emit menu->aboutToShow();
    EXPECT_TRUE(menu->actions()[13]->isChecked());
    menu->actions().front()->setChecked(true);
    EXPECT_EQ(seriesNames(m_window->chartPanel()->engine()),
              (QStringList{"batch-size=256", "batch-size=512"}));
    EXPECT_EQ(m_window->chartPanel()->engine().options().smoothing, 50) << "other options stay";
    card->xAxisBox()->setCurrentIndex(2);
    EXPECT_EQ(m_window->chartPanel()->engine().xAxisTitle(), "wall clock");
}

// The metric search and a chart's smoothing and grouping belong to the store they were set on:
// another store opens with its own (the defaults, never seen before), and the first store gets its
// view back when it is opened again.
TEST_F(ExplorerGuiTest, ViewSettingsAreKeptPerStore) {
    MetricPicker* metrics = test::partOf<MetricPicker>(*m_window);
    ChartCard* card = test::partOf<BoardPanel>(*m_window)->current();
    metrics->setFilterText("CPU");
    card->smoothingSlider()->setValue(40);
    m_window->chartPanel()->changeOptions([](ChartOptions& o) { o.grouping = ChartOptions::Grouping::None; });

    test::TempDir other;
    const test::SampleStore second = test::buildSampleStore(other.file("other.db"), false);
    QString error;
    ASSERT_TRUE(m_window->openStore(QString::fromStdString(second.uri), &error)) << error.toStdString();
    EXPECT_EQ(metrics->filterText(), "") << "the other store's metric list is not filtered by this one's";
    EXPECT_EQ(m_window->chartPanel()->engine().options().smoothing, 0);
    EXPECT_EQ(m_window->chartPanel()->engine().options().grouping, ChartOptions().grouping);
    metrics->setFilterText("GPU");

    ASSERT_TRUE(m_window->openStore(QString::fromStdString(s_sample->uri), &error)) << error.toStdString();
    EXPECT_EQ(metrics->filterText(), "CPU");
    EXPECT_EQ(m_window->chartPanel()->engine().options().smoothing, 40);
    EXPECT_EQ(card->smoothingSpinBox()->value(), 40) << "the controls show it too";
    EXPECT_EQ(m_window->chartPanel()->engine().options().grouping, ChartOptions::Grouping::None);
    ASSERT_TRUE(m_window->openStore(QString::fromStdString(second.uri), &error)) << error.toStdString();
    EXPECT_EQ(metrics->filterText(), "GPU");
}

TEST_F(ExplorerGuiTest, TheBoardHoldsSeveralChartsThatFollowTheBasket) {
    m_window->addTreeIndexToBasket(workloadIndex("alpha", "1"));
    m_window->waitForLoads();
    ASSERT_TRUE(m_window->plotMetric("PROC - CPU Utilization"));
    m_window->waitForLoads();
    BoardPanel* board = test::partOf<BoardPanel>(*m_window);
    ChartCard* first = board->current();
    ChartCard* second = board->addChart();
    EXPECT_EQ(board->chartCount(), 2);
    EXPECT_EQ(board->current(), second);
    EXPECT_EQ(second->chart()->engine().seriesCount(), 0) << "a new chart waits for its metric";
    ASSERT_TRUE(m_window->plotMetric("TOP - CPU Utilization"));
    m_window->waitForLoads();
    EXPECT_EQ(second->chart()->engine().metricKey(), "TOP - CPU Utilization");
    EXPECT_EQ(first->chart()->engine().metricKey(), "PROC - CPU Utilization")
        << "the first chart keeps its metric";
    // The summary lists both metrics; a basket change redraws both charts.
    EXPECT_EQ(test::partOf<SummaryPanel>(*m_window)->model()->rowCount(), 3); // PROC for a and b, TOP for a
    m_window->addRunsToBasket({uuid("alpha/2/a")});
    m_window->waitForLoads();
    first->chart()->changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(first->chart()->engine()).front());
        else
            o.shownRuns.erase(workloadKeys(first->chart()->engine()).front());
    });
    EXPECT_EQ(seriesNames(first->chart()->engine()),
              (QStringList{"batch-size=256", "batch-size=512", "workload 2"}));
    // Clicking back into the first chart selects its metric in the list.
    board->setCurrent(first);
    EXPECT_EQ(test::partOf<MetricPicker>(*m_window)->currentKey(), "PROC - CPU Utilization");
    emit second->removeRequested();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_EQ(board->chartCount(), 1);
    EXPECT_EQ(board->current(), first);
    emit first->removeRequested(); // the last chart is cleared, not removed
    EXPECT_EQ(board->chartCount(), 1);
    EXPECT_EQ(first->chart()->engine().seriesCount(), 0);
}

TEST_F(ExplorerGuiTest, LinkedChartsZoomTogether) {
    m_window->addTreeIndexToBasket(workloadIndex("alpha", "1"));
    m_window->waitForLoads();
    ASSERT_TRUE(m_window->plotMetric("PROC - CPU Utilization"));
    m_window->waitForLoads();
    BoardPanel* board = test::partOf<BoardPanel>(*m_window);
    ChartCard* first = board->current();
    ChartCard* second = board->addChart();
    ASSERT_TRUE(m_window->plotMetric("TOP - CPU Utilization"));
    m_window->waitForLoads();
    first->chart()->zoomX(10, 20);
    EXPECT_FALSE(second->chart()->engine().zoom().has_value()) << "not linked yet";
    board->linkZoomBox()->setChecked(true);
    EXPECT_EQ(second->chart()->engine().zoom(), first->chart()->engine().zoom())
        << "linking starts from the current chart";
    second->chart()->zoomX(30, 60);
    EXPECT_EQ(first->chart()->engine().zoom(), (std::make_pair(int64_t(30000), int64_t(60000))));
    EXPECT_EQ(first->chart()->visibleXRange(), (std::make_pair(30.0, 60.0)));
    first->chart()->resetZoom();
    EXPECT_FALSE(second->chart()->engine().zoom().has_value());
    // Charts on another kind of x axis are left alone: seconds are not steps.
    second->chart()->changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::Step; });
    first->chart()->zoomX(5, 8);
    EXPECT_FALSE(second->chart()->engine().zoom().has_value());
}
