// SPDX-License-Identifier: MIT
// The chart panel on a real store, offscreen, checking what is drawn: radT's series rules,
// smoothing by radT's formula, legend hiding, log y, monochrome, step axis, and zoom at full
// resolution with peaks kept (resources/DESIGN.md §8, §9); beyond radT: wall-clock axis, workload mean with a
// min–max band, crosshair, tooltip, navigator.

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/base/SeriesMath.h"
#include "core/store/Store.h"
#include "widgets/chart/ChartCrosshair.h"
#include "widgets/chart/ChartLegend.h"
#include "widgets/chart/ChartNavigator.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/ChartPlotItem.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <unistd.h>

using namespace radt;
using namespace QtCharts;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

/// A store with workload 1 = runs a and b (100 points of "loss" each, 1 s apart) and workload 2 =
/// run a with 1M points of "power" holding a single spike. Writing it takes seconds and every test
/// runs in its own process: it is built once per build tree and read by all (a new name whenever
/// what it holds changes).
class ChartPanelTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_path = RADT_BINARY_DIR "/tests/chart_panel_data_v1.db";
        // ctest runs this suite's tests as parallel processes: one builds the store, the others
        // wait for it. Two building at once renamed one store over the other while a third had
        // it open, its WAL index now the other file's (CI saw an empty store and a crash).
        const int lock = ::open((s_path + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
        ASSERT_GE(lock, 0) << s_path << ".lock";
        ::flock(lock, LOCK_EX);
        if (!std::filesystem::exists(s_path))
            buildStore(s_path);
        ::flock(lock, LOCK_UN);
        ::close(lock);
        s_runs = openStore("sqlite:///" + s_path, OpenMode::OpenExisting)->runs();
    }
    static void buildStore(const std::string& path) {
        // Written beside it, then renamed: a test starting meanwhile never reads half a store.
        const std::string partial = path + ".partial." + std::to_string(::getpid());
        {
            auto store = openStore("sqlite:///" + partial, OpenMode::CreateIfMissing);
            auto addRun = [&](const char* workload, const char* letter) {
                const std::string uuid =
                    store->createRun({0, "r", kStart, "u", "s", RunStatus::Finished}).uuid;
                store->logParams(uuid, {{"workload", workload}, {"letter", letter}});
                return uuid;
            };
            const std::string a = addRun("1", "a"), b = addRun("1", "b"), big = addRun("2", "a");
            store->logParams(a, {{"model", "resnet18"}, {"batch-size", "256"}});
            store->setTags(a, {{"mlflow.source.name", "train.py"}});
            std::vector<MetricPoint> pa, pb;
            for (int i = 0; i < 100; ++i) {
                pa.push_back({"loss", i % 2 ? 10.0 : 0.0, kStart + i * 1000, i});
                pb.push_back({"loss", 5.0 + i, kStart + i * 1000 + 500, i});
            }
            store->logMetrics(a, pa);
            store->logMetrics(b, pb);
            std::vector<MetricPoint> batch;
            for (int i = 0; i < 1'000'000; ++i) {
                batch.push_back(
                    {"power", i == 654321 ? 999.0 : 100.0 + (i % 10), kStart + int64_t(i) * 10, i});
                if (batch.size() == 100000) {
                    store->logMetrics(big, batch);
                    batch.clear();
                }
            }
        }
        // Another test process may have finished first: the rename replaces its identical file.
        std::filesystem::rename(partial, path);
        std::filesystem::remove(partial + "-wal");
        std::filesystem::remove(partial + "-shm");
    }

    std::vector<radt::Run> runsOfWorkload(const std::string& w) {
        std::vector<radt::Run> out;
        for (const radt::Run& r : s_runs)
            if (r.workload() == w)
                out.push_back(r);
        std::sort(out.begin(), out.end(), [](auto& x, auto& y) { return x.letter() < y.letter(); });
        return out;
    }
    /// radT's legend name of a run of workload 1 shown on its own: "0-1 a (<5 of its id>)".
    QString shown(const std::string& letter) {
        for (const radt::Run& r : runsOfWorkload("1"))
            if (r.letter() == letter)
                return QString::fromStdString("0-1 " + letter + " (" + r.uuid.substr(0, 5) + ")");
        return QString();
    }
    void plot(const std::string& workload, const std::string& key) {
        auto store = openStore("sqlite:///" + s_path, OpenMode::OpenExisting);
        m_chart.resize(900, 500);
        // These tests pin radT's series rules: its names and its literal merge of a workload.
        ChartOptions radt = m_chart.engine().options();
        radt.naming = ChartOptions::Naming::RadtIds;
        radt.aggregate = ChartOptions::Aggregate::Merge;
        m_chart.changeOptions([&radt](ChartOptions& o) { o = radt; });
        test::plotFromStore(m_chart, *store, runsOfWorkload(workload), key);
    }

    static std::string s_path;
    static std::vector<radt::Run> s_runs;
    ChartPanel m_chart;
};

std::string ChartPanelTest::s_path;
std::vector<radt::Run> ChartPanelTest::s_runs;

} // namespace

TEST_F(ChartPanelTest, WorkloadRunsMergeIntoOneSeriesUnlessShownOneByOne) {
    plot("1", "loss");
    ASSERT_EQ(seriesNames(m_chart.engine()), QStringList{"0-1"});
    EXPECT_EQ(m_chart.seriesPoints(0).size(), 200) << "both runs' points, in time order";
    const QVector<QPointF> merged = m_chart.seriesPoints(0);
    EXPECT_TRUE(std::is_sorted(merged.begin(), merged.end(), [](auto& p, auto& q) { return p.x() < q.x(); }));
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    EXPECT_EQ(seriesNames(m_chart.engine()), (QStringList{shown("a"), shown("b")}));
    m_chart.changeOptions([&](ChartOptions& o) {
        if (false)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    EXPECT_EQ(seriesNames(m_chart.engine()), QStringList{"0-1"});
}

TEST(ChartSeriesNames, FollowRadtsFrontEnd) {
    radt::Run run;
    run.uuid = "abcdef0123456789abcdef0123456789";
    run.experimentId = 3;
    EXPECT_EQ(seriesLabelOf(run), "3 (abcde)") << "no workload: radT's \"3-null\"";
    run.params = {{"workload", "7"}};
    EXPECT_EQ(workloadKeyOf(run), "3-7");
    EXPECT_EQ(seriesLabelOf(run), "3-7 (abcde)");
    run.params["letter"] = "0_A";
    EXPECT_EQ(seriesLabelOf(run), "3-7 0_A");
    run.params["letter"] = "A";
    EXPECT_EQ(seriesLabelOf(run), "3-7 A (abcde)") << "a one-character letter is not unique";
}

TEST_F(ChartPanelTest, SmoothingIsRadtsEmaOnFullResolution) {
    plot("1", "loss");
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    m_chart.changeOptions([&](ChartOptions& o) { o.smoothing = 60; });
    const QVector<QPointF> drawn = m_chart.seriesPoints(0); // run a: 0, 10, 0, 10, ...
    ASSERT_EQ(drawn.size(), 100);
    double s = 0; // s_0 = x_0, then s_i = w s_{i-1} + (1 - w) x_i with w = 0.6
    for (int i = 0; i < 100; ++i) {
        const double x = i % 2 ? 10.0 : 0.0;
        s = i == 0 ? x : 0.6 * s + 0.4 * x;
        ASSERT_NEAR(drawn[i].y(), s, 1e-9) << i;
    }
    EXPECT_NEAR(drawn[1].y(), 4.0, 1e-12);
    EXPECT_NEAR(drawn[2].y(), 2.4, 1e-12);
    m_chart.changeOptions([&](ChartOptions& o) { o.smoothing = 0; });
    EXPECT_EQ(m_chart.seriesPoints(0)[1].y(), 10.0) << "0 % is the raw data";
}

TEST_F(ChartPanelTest, LegendClicksHideAndShowASeries) {
    plot("1", "loss");
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    QLegendMarker* marker = m_chart.chart()->legend()->markers().at(0);
    ASSERT_EQ(marker->series()->name(), shown("a"));
    emit marker->clicked();
    EXPECT_FALSE(m_chart.engine().seriesVisible(0));
    EXPECT_TRUE(m_chart.engine().seriesVisible(1));
    EXPECT_TRUE(m_chart.engine().options().hiddenSeries.count(shown("a")));
    ASSERT_EQ(m_chart.chart()->legend()->markers().size(), 2) << "the marker stays to bring it back";
    EXPECT_LT(m_chart.chart()->legend()->markers().at(0)->labelBrush().color().alphaF(), 0.5) << "dimmed";
    EXPECT_EQ(static_cast<QLineSeries*>(m_chart.chart()->series().at(0))->pen().color().alpha(), 0)
        << "not drawn";
    emit m_chart.chart()->legend()->markers().at(0)->clicked();
    EXPECT_TRUE(m_chart.engine().seriesVisible(0));
}

TEST_F(ChartPanelTest, LogAxisMonochromeLineWidthAndSteps) {
    plot("1", "loss");
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    m_chart.changeOptions([&](ChartOptions& o) { o.logY = true; });
    const auto vertical = m_chart.chart()->axes(Qt::Vertical);
    ASSERT_EQ(vertical.size(), 1);
    EXPECT_NE(qobject_cast<QLogValueAxis*>(vertical.front()), nullptr);
    EXPECT_EQ(m_chart.seriesPoints(0).size(), 50) << "run a's zeros have no place on a log axis";
    m_chart.changeOptions([&](ChartOptions& o) { o.logY = false; });
    EXPECT_EQ(m_chart.seriesPoints(0).size(), 100);

    m_chart.changeOptions([&](ChartOptions& o) { o.monochrome = true; });
    m_chart.changeOptions([&](ChartOptions& o) { o.lineWidth = std::clamp(double(3), 0.5, 8.0); });
    auto* s0 = static_cast<QLineSeries*>(m_chart.chart()->series().at(0));
    auto* s1 = static_cast<QLineSeries*>(m_chart.chart()->series().at(1));
    EXPECT_EQ(s0->pen().color(), QColor(Qt::black));
    EXPECT_EQ(s1->pen().color(), QColor(Qt::black));
    EXPECT_NE(s0->pen().style(), s1->pen().style()) << "told apart by dash patterns";
    EXPECT_EQ(s0->pen().widthF(), 3.0);
    m_chart.changeOptions([&](ChartOptions& o) { o.monochrome = false; });
    EXPECT_NE(s0->pen().color(), s1->pen().color());

    m_chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::Step; });
    const QVector<QPointF> bySteps = m_chart.seriesPoints(1);
    EXPECT_EQ(bySteps[7].x(), 7.0);
    m_chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::SinceStart; });
    EXPECT_EQ(m_chart.seriesPoints(1)[7].x(), 7.5) << "seconds since the run's start";
}

TEST_F(ChartPanelTest, ASpikeInAMillionPointsSurvivesAndZoomShowsFullResolution) {
    plot("2", "power");
    ASSERT_EQ(m_chart.engine().seriesCount(), 1);
    auto highest = [](const QVector<QPointF>& points) {
        return std::max_element(points.begin(), points.end(), [](auto& p, auto& q) { return p.y() < q.y(); })
            ->y();
    };
    // A million points on a plot a few hundred pixels wide: the mean per column, the range behind.
    ASSERT_TRUE(m_chart.engine().drawnAsRange(0));
    const QVector<QPointF> mean = m_chart.seriesPoints(0);
    EXPECT_LE(mean.size(), 1200) << "one point per pixel column";
    EXPECT_LT(highest(mean), 999.0) << "a lone spike moves its column's mean only a little";
    EXPECT_EQ(highest(std::as_const(*m_chart.plotItem()).lines()[0].bandHigh), 999.0)
        << "the single spike is drawn, in the range";
    m_chart.changeOptions([&](ChartOptions& o) { o.dense = ChartOptions::Dense::Raw; });
    EXPECT_FALSE(m_chart.engine().drawnAsRange(0));
    const QVector<QPointF> overview = m_chart.seriesPoints(0);
    EXPECT_LE(overview.size(), 2 * 1200) << "at most 2 points per pixel column";
    EXPECT_GT(overview.size(), 200);
    EXPECT_EQ(highest(overview), 999.0) << "the single spike is drawn";
    // 10,000 s of data: the axis counts minutes (0, 20, 40 ... instead of 0, 1200, 2400 s).
    EXPECT_EQ(m_chart.engine().xAxisTitle(), "time since start (min)");
    // Zoom to 1 s around the spike (at 6543.21 s): 101 raw points, all of them.
    m_chart.zoomX(6542.71 / 60, 6543.71 / 60);
    EXPECT_TRUE(m_chart.engine().zoom().has_value());
    const QVector<QPointF> close = m_chart.seriesPoints(0);
    EXPECT_EQ(close.size(), 101);
    EXPECT_TRUE(std::any_of(close.begin(), close.end(), [](auto& p) { return p.y() == 999.0; }));
    m_chart.resetZoom();
    EXPECT_FALSE(m_chart.engine().zoom().has_value());
    EXPECT_EQ(m_chart.seriesPoints(0).size(), overview.size());
    const QImage image = renderToImage(m_chart, QSize(800, 400));
    EXPECT_EQ(image.size(), QSize(800, 400));
}

TEST_F(ChartPanelTest, AWorkloadAsMeanWithAMinMaxBand) {
    plot("1", "loss");
    m_chart.changeOptions([&](ChartOptions& o) {
        o.aggregate = ChartOptions::Aggregate::MeanBand;
        o.band = ChartOptions::Band::MinMax;
    });
    ASSERT_EQ(seriesNames(m_chart.engine()), QStringList{"0-1"})
        << "still one series per workload, one legend entry";
    ASSERT_TRUE(m_chart.engine().hasBand(0));
    EXPECT_EQ(m_chart.chart()->legend()->markers().size(), 1) << "the band has no legend entry of its own";
    // Run a: 0, 10, 0, ... at i s; run b: 5 + i at i + 0.5 s. Binned by the 1 s sampling interval.
    const QVector<QPointF> mean = m_chart.seriesPoints(0);
    const PlotLine& drawn = std::as_const(*m_chart.plotItem()).lines()[0]; // what the frame drew
    const QVector<QPointF> upper = drawn.bandHigh, lower = drawn.bandLow;
    ASSERT_EQ(mean.size(), 100);
    ASSERT_EQ(upper.size(), 100);
    ASSERT_EQ(lower.size(), 100);
    for (int i = 0; i < 100; ++i) {
        const double a = i % 2 ? 10.0 : 0.0, b = 5.0 + i;
        ASSERT_EQ(mean[i].x(), double(i));
        ASSERT_DOUBLE_EQ(mean[i].y(), (a + b) / 2) << i;
        ASSERT_EQ(upper[i].y(), std::max(a, b)) << i;
        ASSERT_EQ(lower[i].y(), std::min(a, b)) << i;
    }
    // Smoothing applies to each run before they are combined.
    m_chart.changeOptions([&](ChartOptions& o) { o.smoothing = 50; });
    EXPECT_DOUBLE_EQ(m_chart.seriesPoints(0)[1].y(), ((0.5 * 0 + 0.5 * 10) + (0.5 * 5 + 0.5 * 6)) / 2);
    // Runs shown one by one have no band; hiding the line hides its band.
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    EXPECT_FALSE(m_chart.engine().hasBand(0));
    m_chart.changeOptions([&](ChartOptions& o) {
        if (false)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.hiddenSeries.insert("0-1");
        else
            o.hiddenSeries.erase("0-1");
    });
    EXPECT_FALSE(m_chart.plotItem()->lines().at(0).visible) << "nor its band";
    m_chart.changeOptions([&](ChartOptions& o) { o.aggregate = ChartOptions::Aggregate::Merge; });
    EXPECT_FALSE(m_chart.engine().hasBand(0));
    EXPECT_EQ(m_chart.seriesPoints(0).size(), 200);
}

TEST_F(ChartPanelTest, AZoomedAxisTicksOnRoundNumbers) {
    // Regression: zoomed tick labels read 3.004, 4.66867, 239.51.
    plot("1", "loss");
    m_chart.zoomX(3.0037, 11.2);
    auto* axis = qobject_cast<QValueAxis*>(m_chart.chart()->axes(Qt::Horizontal).front());
    ASSERT_NE(axis, nullptr);
    EXPECT_NEAR(axis->min(), 3.0037, 0.001) << "the zoom is what the user chose (to the ms)";
    EXPECT_EQ(axis->tickType(), QValueAxis::TicksDynamic);
    EXPECT_DOUBLE_EQ(axis->tickAnchor(), 0);
    EXPECT_DOUBLE_EQ(axis->tickInterval(), 1);
    EXPECT_EQ(axis->labelFormat(), "%.0f");
    m_chart.zoomX(3.0037, 3.0337);
    EXPECT_DOUBLE_EQ(axis->tickInterval(), 0.005);
    EXPECT_EQ(axis->labelFormat(), "%.3f");
    m_chart.resetZoom();
    EXPECT_DOUBLE_EQ(std::fmod(axis->tickInterval(), 1.0), 0.0) << "whole seconds over 0..100 s";
    EXPECT_EQ(axis->labelFormat(), "%.0f");
}

TEST_F(ChartPanelTest, WallClockAxisShowsTheTimeOfDay) {
    plot("1", "loss");
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    m_chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::WallClock; });
    const auto horizontal = m_chart.chart()->axes(Qt::Horizontal);
    ASSERT_EQ(horizontal.size(), 1);
    auto* axis = qobject_cast<QDateTimeAxis*>(horizontal.front());
    ASSERT_NE(axis, nullptr);
    EXPECT_EQ(m_chart.engine().xAxisTitle(), "wall clock");
    EXPECT_EQ(m_chart.seriesPoints(1)[7].x(), double(kStart + 7500)) << "ms since the epoch";
    EXPECT_EQ(axis->min().toMSecsSinceEpoch(), kStart);
    EXPECT_EQ(axis->max().toMSecsSinceEpoch(), kStart + 99'500);
    // Zooming works on the time axis too, and a switch of axis drops the zoom.
    m_chart.zoomX(double(kStart + 10'000), double(kStart + 20'000));
    EXPECT_EQ(m_chart.seriesPoints(0).size(), 11);
    m_chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::SinceStart; });
    EXPECT_FALSE(m_chart.engine().zoom().has_value());
    EXPECT_EQ(m_chart.seriesPoints(0).size(), 100);
}

TEST_F(ChartPanelTest, CrosshairReadsEveryVisibleLineAtTheCursor) {
    plot("1", "loss");
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert(workloadKeys(m_chart.engine()).front());
        else
            o.shownRuns.erase(workloadKeys(m_chart.engine()).front());
    });
    // At 10.2 s: run a's nearest point is 10 s (value 0), run b's is 10.5 s (value 15).
    const QString text = m_chart.showCrosshairAt(10.2);
    EXPECT_EQ(text, "10.2 s after the start\n" + shown("a") + ": 0\n" + shown("b") + ": 15");
    EXPECT_EQ(m_chart.crosshair().text(), text);
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.hiddenSeries.insert(shown("a"));
        else
            o.hiddenSeries.erase(shown("a"));
    });
    EXPECT_EQ(m_chart.showCrosshairAt(10.2), "10.2 s after the start\n" + shown("b") + ": 15")
        << "hidden lines are not read";
    m_chart.crosshair().hide();
    EXPECT_EQ(m_chart.crosshair().text(), "");
    // The mouse drives it: a move over the plot area shows it, leaving the view hides it.
    m_chart.show();
    QApplication::processEvents();
    const QRectF plotArea = m_chart.chart()->plotArea();
    const QPoint inView = m_chart.chartView()->mapFromScene(m_chart.chart()->mapToScene(plotArea.center()));
    QMouseEvent move(QEvent::MouseMove, inView, Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(m_chart.chartView()->viewport(), &move);
    EXPECT_TRUE(m_chart.crosshair().text().contains(shown("b") + ": "))
        << m_chart.crosshair().text().toStdString();
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(m_chart.chartView()->viewport(), &leave);
    EXPECT_EQ(m_chart.crosshair().text(), "");
}

TEST_F(ChartPanelTest, TooltipDescribesTheRunsOfALine) {
    plot("1", "loss");
    const QString tip = seriesTooltip(m_chart.engine(), 0);
    for (const radt::Run& r : runsOfWorkload("1"))
        EXPECT_TRUE(tip.contains(QString::fromStdString(r.uuid))) << "every run of the merged line";
    EXPECT_TRUE(tip.contains("model: resnet18"));
    EXPECT_TRUE(tip.contains("source: train.py"));
    EXPECT_TRUE(tip.contains("params: batch-size=256"));
    EXPECT_TRUE(tip.contains("radT id: " + shown("a"))) << "radT's ids stay readable in the tooltip";
    EXPECT_TRUE(tip.contains("radT id: " + shown("b")));
    EXPECT_TRUE(tip.contains("status: FINISHED"));
    EXPECT_EQ(seriesTooltip(m_chart.engine(), 5), "");
}

TEST_F(ChartPanelTest, TheNavigatorShowsEverythingAndZoomsByDragging) {
    plot("2", "power");
    m_chart.show();
    QApplication::processEvents();
    ChartNavigator* nav = m_chart.navigator();
    ASSERT_TRUE(nav->isVisible());
    EXPECT_EQ(nav->fullFrom(), 0);
    EXPECT_EQ(nav->fullTo(), 9'999'990);
    QSignalSpy zoomed(&m_chart, &ChartPanel::userZoomChanged);
    // Drag across the middle fifth of the overview: the chart zooms to that range.
    const int y = nav->height() / 2;
    const int x0 = int(nav->pixelOf(4'000'000)), x1 = int(nav->pixelOf(6'000'000));
    QTest::mousePress(nav, Qt::LeftButton, Qt::NoModifier, QPoint(x0, y));
    QTest::mouseMove(nav, QPoint(x1, y));
    QTest::mouseRelease(nav, Qt::LeftButton, Qt::NoModifier, QPoint(x1, y));
    ASSERT_TRUE(m_chart.engine().zoom().has_value());
    EXPECT_EQ(zoomed.count(), 1);
    EXPECT_NEAR(double(m_chart.engine().zoom()->first), 4e6, 2e4);
    EXPECT_NEAR(double(m_chart.engine().zoom()->second), 6e6, 2e4);
    EXPECT_EQ(nav->window(), m_chart.engine().zoom()) << "the overview marks the window";
    const auto [from, to] = m_chart.visibleXRange(); // in minutes
    EXPECT_NEAR(from, 4000.0 / 60, 0.4);
    EXPECT_NEAR(to, 6000.0 / 60, 0.4);
    // A click moves the window (same width) to where the user clicked.
    const int64_t width = m_chart.engine().zoom()->second - m_chart.engine().zoom()->first;
    QTest::mouseClick(nav, Qt::LeftButton, Qt::NoModifier, QPoint(int(nav->pixelOf(2'000'000)), y));
    EXPECT_EQ(m_chart.engine().zoom()->second - m_chart.engine().zoom()->first, width);
    EXPECT_NEAR(double(m_chart.engine().zoom()->first + width / 2), 2e6, 2e4);
    QTest::mouseDClick(nav, Qt::LeftButton, Qt::NoModifier, QPoint(x0, y));
    EXPECT_FALSE(m_chart.engine().zoom().has_value());
    const QImage image = m_chart.grab().toImage();
    EXPECT_FALSE(image.isNull());
}

// A hardware metric on an epoch axis, the epochs read from the run's `loss` log.
TEST(ChartEpochAxis, HardwareSamplesArePlacedByTheEpochInProgress) {
    test::TempDir dir;
    auto store = openStore("sqlite:///" + dir.file("epochs.db"), OpenMode::CreateIfMissing);
    const std::string uuid = store->createRun({0, "r", kStart, "u", "s", RunStatus::Finished}).uuid;
    std::vector<MetricPoint> points = {{"loss", 0.9, kStart + 10'000, 1},
                                       {"loss", 0.5, kStart + 30'000, 2},
                                       {"loss", 0.3, kStart + 60'000, 3},
                                       {"lr", 0.1, kStart, 0}};
    for (int s = 0; s <= 70; s += 5) // a sample every 5 s, the last two after the last epoch
        points.push_back({"SMI - Power Draw W", 100.0 + s, kStart + s * 1000, 0});
    store->logMetrics(uuid, points);

    ChartPanel chart;
    chart.resize(900, 500);
    test::plotFromStore(chart, *store, store->runs(), "SMI - Power Draw W");
    EXPECT_EQ(chart.seriesPoints(0).size(), 15);
    chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::Epoch; });
    EXPECT_EQ(chart.engine().xAxisTitle(), "epoch (from loss)");
    const QVector<QPointF> p = chart.seriesPoints(0);
    ASSERT_EQ(p.size(), 13) << "the samples after the last logged epoch are left out";
    // Epoch 1 lasts 10 s, epoch 2 20 s, epoch 3 30 s: x is the share of each done.
    EXPECT_DOUBLE_EQ(p[0].x(), 0.0);
    EXPECT_DOUBLE_EQ(p[1].x(), 0.5);
    EXPECT_DOUBLE_EQ(p[2].x(), 1.0);
    EXPECT_DOUBLE_EQ(p[4].x(), 1.5);
    EXPECT_DOUBLE_EQ(p[9].x(), 2.5);
    EXPECT_DOUBLE_EQ(p[12].x(), 3.0);
    EXPECT_DOUBLE_EQ(p[12].y(), 160.0);
    // A software metric is not put on its own epoch axis: nothing to place it by.
    test::plotFromStore(chart, *store, store->runs(), "lr");
    EXPECT_EQ(chart.engine().xAxisTitle(), "epoch (these runs log no stepped software metric)");
    EXPECT_TRUE(chart.seriesPoints(0).isEmpty());
}

// Regression: a metric MLflow logged once drew nothing; it is drawn as a dot.
TEST(ChartSinglePoint, AOnePointSeriesIsDrawnAsADot) {
    test::TempDir dir;
    auto store = openStore("sqlite:///" + dir.file("one.db"), OpenMode::CreateIfMissing);
    const std::string uuid = store->createRun({0, "r", kStart, "u", "s", RunStatus::Finished}).uuid;
    store->logMetrics(uuid, {{"final_accuracy", 0.93, kStart + 5000, 0}});
    ChartPanel chart;
    chart.resize(600, 400);
    test::plotFromStore(chart, *store, store->runs(), "final_accuracy");
    ASSERT_EQ(chart.seriesPoints(0).size(), 1);
    auto* line = qobject_cast<QLineSeries*>(chart.chart()->series().at(0));
    ASSERT_NE(line, nullptr);
    const QImage image = chart.grab().toImage();
    int ink = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            ink += QColor(image.pixel(x, y)) == line->color();
    EXPECT_GT(ink, 4) << "the dot is painted in the line's colour";
}

// Regression: colours changed when individual runs were toggled (they followed line positions).
TEST(ChartColours, StayWithTheirRunsAndWorkloadsWhenAWorkloadIsShownRunByRun) {
    test::TempDir dir;
    auto store = openStore("sqlite:///" + dir.file("colours.db"), OpenMode::CreateIfMissing);
    for (const auto& [workload, letter] : {std::pair{"1", "a"}, std::pair{"1", "b"}, std::pair{"2", "a"}}) {
        const std::string uuid = store->createRun({0, "r", kStart, "u", "s", RunStatus::Finished}).uuid;
        store->logParams(uuid, {{"workload", workload}, {"letter", letter}});
        store->logMetrics(uuid, {{"m", 1.0, kStart, 0}, {"m", 2.0, kStart + 1000, 1}});
    }
    ChartPanel chart;
    chart.resize(900, 500);
    test::plotFromStore(chart, *store, store->runs(), "m");
    auto colourOf = [&](const QString& name) {
        for (QAbstractSeries* s : chart.chart()->series())
            if (s->name() == name)
                return qobject_cast<QLineSeries*>(s)->pen().color();
        return QColor();
    };
    QStringList names = seriesNames(chart.engine());
    names.sort();
    ASSERT_EQ(names, (QStringList{"workload 1", "workload 2"}));
    const QColor second = colourOf("workload 2");
    chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.shownRuns.insert("0-1");
        else
            o.shownRuns.erase("0-1");
    });
    ASSERT_EQ(seriesNames(chart.engine()).size(), 3);
    EXPECT_EQ(colourOf("workload 2"), second) << "workload 2 keeps its colour when workload 1 splits";
    QSet<QRgb> colours;
    for (QAbstractSeries* s : chart.chart()->series())
        colours.insert(qobject_cast<QLineSeries*>(s)->pen().color().rgb());
    EXPECT_EQ(colours.size(), 3) << "every line its own colour";
    chart.changeOptions([&](ChartOptions& o) {
        if (false)
            o.shownRuns.insert("0-1");
        else
            o.shownRuns.erase("0-1");
    });
    EXPECT_EQ(colourOf("workload 2"), second);
}

namespace {
// A run of `seconds` of one value per `every` seconds, outside any workload (a line of its own).
ChartRunData runOver(const std::string& uuid, int64_t seconds, int64_t every, double low, double high) {
    ChartRunData d;
    d.run.uuid = uuid;
    d.run.name = uuid;
    d.run.startTime = kStart;
    d.run.endTime = kStart + seconds * 1000;
    d.run.status = RunStatus::Finished;
    for (int64_t s = 0; s <= seconds; s += every) {
        appendPoint(d, kStart + s * 1000, s, low + (high - low) * double(s) / double(seconds));
    }
    return d;
}
} // namespace

TEST(ChartAxes, TimeIsCountedInMinutesOrHoursAndALogAxisSpansTheDataDecades) {
    ChartPanel chart;
    chart.resize(900, 500);
    std::vector<ChartRunData> runs;
    runs.push_back(runOver("two-hours", 7200, 60, 40, 100));
    chart.setData(std::move(runs), "gpu");
    EXPECT_EQ(chart.engine().xAxisTitle(), "time since start (min)")
        << "0, 20, 40 min rather than 0, 1200, 2400 s";
    EXPECT_GE(chart.visibleXRange().second, 120) << "two hours: 120 min, widened to a round end";
    EXPECT_LE(chart.visibleXRange().second, 150);
    chart.changeOptions([&](ChartOptions& o) { o.logY = true; });
    auto* log = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Vertical).front());
    ASSERT_NE(log, nullptr);
    EXPECT_DOUBLE_EQ(log->min(), 10) << "data 40..100 sits in one decade";
    EXPECT_DOUBLE_EQ(log->max(), 100) << "not 10..1000";

    std::vector<ChartRunData> longRuns;
    longRuns.push_back(runOver("five-hours", 5 * 3600, 60, 1, 2));
    chart.setData(std::move(longRuns), "gpu");
    EXPECT_EQ(chart.engine().xAxisTitle(), "time since start (h)");
    // The wall clock reads the time of day to the second over hours, the date beyond two days.
    chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::WallClock; });
    auto* clock = qobject_cast<QDateTimeAxis*>(chart.chart()->axes(Qt::Horizontal).front());
    ASSERT_NE(clock, nullptr);
    EXPECT_EQ(clock->format(), "HH:mm:ss");
    std::vector<ChartRunData> weekRuns;
    weekRuns.push_back(runOver("a-week", 7 * 86400, 3600, 1, 2));
    chart.setData(std::move(weekRuns), "gpu");
    EXPECT_EQ(clock->format(), "MM-dd HH:mm");
    chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::SinceStart; });
    std::vector<ChartRunData> shortRuns;
    shortRuns.push_back(runOver("a-minute", 60, 1, 1, 2));
    chart.setData(std::move(shortRuns), "gpu");
    EXPECT_EQ(chart.engine().xAxisTitle(), "time since start (s)");
}

TEST(ChartCrosshair, ItsBoxSitsWhereTheLinesAreNot) {
    ChartPanel chart;
    chart.resize(900, 500);
    std::vector<ChartRunData> runs;
    runs.push_back(runOver("ramp", 100, 1, 0, 100)); // low on the left, high on the right
    chart.setData(std::move(runs), "gpu");
    chart.show(); // laid out as on screen
    QApplication::processEvents();
    const QRectF plot = chart.chart()->plotArea();
    ASSERT_GT(plot.height(), 200);
    chart.showCrosshairAt(10);
    EXPECT_LT(chart.crosshair().boxRect().center().y(), plot.center().y())
        << "the line is low: the box on top";
    chart.showCrosshairAt(90);
    EXPECT_GT(chart.crosshair().boxRect().center().y(), plot.center().y())
        << "the line is high: the box below";
    EXPECT_LE(chart.crosshair().boxRect().bottom(), plot.bottom());
}

TEST(ChartCrosshair, SaysNothingPastARunsEndAndFollowsAZoom) {
    ChartPanel chart;
    chart.resize(900, 500);
    std::vector<ChartRunData> runs;
    runs.push_back(runOver("long", 100, 1, 0, 100));
    runs.push_back(runOver("short", 50, 1, 0, 50));
    chart.setData(std::move(runs), "gpu");
    ASSERT_EQ(seriesNames(chart.engine()), (QStringList{"long", "short"}));
    EXPECT_EQ(chart.showCrosshairAt(30), "30.0 s after the start\nlong: 30\nshort: 30");
    EXPECT_EQ(chart.showCrosshairAt(80), "1 m 20 s after the start\nlong: 80")
        << "the short run has ended at 50 s: no value is made up for it";
    chart.zoomX(70, 90);
    EXPECT_EQ(chart.crosshair().text(), "1 m 20 s after the start\nlong: 80") << "still in the zoomed range";
    chart.zoomX(0, 60);
    EXPECT_EQ(chart.crosshair().text(), "") << "not left at a spot the zoom no longer shows";
}

// An epoch axis over runs that log no epochs says so (and what to do), not
// "No data"; a software metric on it says that it is logged by step.
TEST(ChartPanelEpochAxis, RunsWithoutEpochsSaySoInsteadOfNoData) {
    ChartRunData run;
    run.run.uuid = "cccccccccccccccccccccccccccccccc";
    run.run.startTime = 1'700'000'000'000;
    run.run.status = RunStatus::Finished;
    run.run.params = {{"workload", "1"}, {"letter", "0"}};
    for (int i = 0; i < 10; ++i) {
        run.series.t.push_back(run.run.startTime + i * 1000);
        run.series.v.push_back(100 + i);
    }
    ChartOptions epoch;
    epoch.xAxis = ChartOptions::XAxis::Epoch;
    ChartPanel panel;
    panel.resize(800, 400);
    panel.showDetached({run}, "SMI - Power Draw", epoch, std::nullopt);
    EXPECT_EQ(
        panel.chart()->title(),
        "These runs log no epochs (no stepped software metric such as loss): choose the time or step axis");
    panel.showDetached({run}, "loss", epoch, std::nullopt);
    EXPECT_TRUE(panel.chart()->title().startsWith("\"loss\" is logged by step"))
        << panel.chart()->title().toStdString();
    // On the time axis the same run draws its line and the title is empty.
    panel.showDetached({run}, "SMI - Power Draw", ChartOptions{}, std::nullopt);
    EXPECT_EQ(panel.chart()->title(), "");
    EXPECT_EQ(panel.engine().seriesCount(), 1);
    panel.showDetached({}, "SMI - Power Draw", epoch, std::nullopt);
    EXPECT_EQ(panel.chart()->title(), "No data for \"SMI - Power Draw\" in the basket's runs");
}

// The wheel over a chart zooms x around the mouse; zoomed back out to everything
// it is no zoom; with Ctrl the wheel is left to the board, which scrolls.
TEST(ChartWheel, TheWheelZoomsXAroundTheMouseAndCtrlLeavesItToTheBoard) {
    ChartPanel chart;
    chart.resize(900, 500);
    std::vector<ChartRunData> runs;
    runs.push_back(runOver("long", 100, 1, 0, 100));
    chart.setData(std::move(runs), "gpu");
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    QWidget* viewport = chart.chartView()->viewport();
    const QRectF plot = chart.chart()->plotArea();
    // The mouse a quarter of the way across the plot, where x is about 25 s.
    const QPointF inScene =
        chart.chart()->mapToScene(QPointF(plot.left() + plot.width() / 4, plot.center().y()));
    const QPoint at = chart.chartView()->mapFromScene(inScene);
    const double xAtMouse = chart.chart()->mapToValue(chart.chart()->mapFromScene(inScene)).x();
    auto wheel = [&](int delta, Qt::KeyboardModifiers modifiers) {
        QWheelEvent event(at, viewport->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(viewport, &event);
        return event.isAccepted();
    };
    const auto [from0, to0] = chart.visibleXRange();
    wheel(120, Qt::NoModifier);
    ASSERT_TRUE(chart.engine().zoom().has_value());
    const auto [from1, to1] = chart.visibleXRange();
    EXPECT_NEAR(to1 - from1, (to0 - from0) * 0.8, (to0 - from0) * 0.02) << "one notch: 80 % of the range";
    EXPECT_NEAR((xAtMouse - from1) / (to1 - from1), (xAtMouse - from0) / (to0 - from0), 0.02)
        << "the point under the mouse stays under it";
    for (int i = 0; i < 5; ++i)
        wheel(-120, Qt::NoModifier);
    EXPECT_FALSE(chart.engine().zoom().has_value()) << "out to everything: the zoom is gone";
    EXPECT_FALSE(wheel(120, Qt::ControlModifier)) << "Ctrl+wheel goes on to the board";
    EXPECT_FALSE(chart.engine().zoom().has_value());
}

TEST(ChartLegend, WrapsUnderThePlotAndGivesWayInANarrowChart) {
    // Regression: nine lines in one row were all cut to "iters…".
    ChartPanel chart;
    chart.resize(700, 460);
    std::vector<ChartRunData> runs;
    for (int i = 1; i <= 9; ++i)
        runs.push_back(runOver("seed=" + std::to_string(i) + " iters=480 size=4096", 100, 1, 0, 10.0 * i));
    chart.setData(std::move(runs), "gpu");
    chart.show();
    QApplication::processEvents();
    QLegend* legend = chart.chart()->legend();
    const QRectF plot = chart.chart()->plotArea();
    ASSERT_TRUE(legend->isVisible());
    EXPECT_TRUE(chart.legend().note().isEmpty());
    const QFontMetricsF metrics(legend->font());
    EXPECT_GE(legend->geometry().height(), 2 * metrics.height()) << "the names take two rows or more";
    EXPECT_GE(legend->geometry().top(), plot.bottom()) << "under the plot, not over it";
    EXPECT_GE(plot.height(), 150) << "the plot keeps most of the chart";
    auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).front());
    ASSERT_NE(x, nullptr);
    const double wideTicks = (x->max() - x->min()) / x->tickInterval();

    chart.resize(230, 300); // a third of a 1024 px board
    QApplication::processEvents();
    EXPECT_FALSE(legend->isVisible()) << "nine names do not fit in 40 % of a small chart";
    EXPECT_EQ(chart.legend().note(), "9 lines: hover for names");
    EXPECT_GE(chart.chart()->plotArea().height(), 120);
    QElapsedTimer waited; // the resize re-queries once the user stops dragging (~40 ms)
    waited.start();
    while ((x->max() - x->min()) / x->tickInterval() > 3.01 && waited.elapsed() < 5000)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    EXPECT_LE((x->max() - x->min()) / x->tickInterval(), 3.01) << "fewer x ticks, never labels cut to …";
    EXPECT_GT(wideTicks, 3.01);

    chart.resize(700, 460);
    QApplication::processEvents();
    EXPECT_TRUE(legend->isVisible()) << "and back when there is room";
}
