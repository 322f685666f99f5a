// The chart panel on a real store, offscreen, checking what is drawn: radT's series rules,
// smoothing by radT's formula, legend hiding, log y, monochrome, step axis, and zoom at full
// resolution with peaks kept (DESIGN §8, §9).

#include "ChartPanel.h"
#include "SeriesMath.h"
#include "Store.h"
#include "TempDir.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace radt;
using namespace QtCharts;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

/// A store with workload 1 = runs a and b (100 points of "loss" each, 1 s apart) and workload 2 =
/// run a with 1M points of "power" holding a single spike.
class ChartPanelTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_dir = new test::TempDir;
        auto store = openStore("sqlite:///" + s_dir->file("chart.db"), OpenMode::CreateIfMissing);
        auto addRun = [&](const char* workload, const char* letter) {
            const std::string uuid = store->createRun({0, "r", kStart, "u", "s", RunStatus::Finished}).uuid;
            store->logParams(uuid, {{"workload", workload}, {"letter", letter}});
            return uuid;
        };
        const std::string a = addRun("1", "a"), b = addRun("1", "b"), big = addRun("2", "a");
        std::vector<MetricPoint> pa, pb;
        for (int i = 0; i < 100; ++i) {
            pa.push_back({"loss", i % 2 ? 10.0 : 0.0, kStart + i * 1000, i});
            pb.push_back({"loss", 5.0 + i, kStart + i * 1000 + 500, i});
        }
        store->logMetrics(a, pa);
        store->logMetrics(b, pb);
        std::vector<MetricPoint> batch;
        for (int i = 0; i < 1'000'000; ++i) {
            batch.push_back({"power", i == 654321 ? 999.0 : 100.0 + (i % 10), kStart + int64_t(i) * 10, i});
            if (batch.size() == 100000) {
                store->logMetrics(big, batch);
                batch.clear();
            }
        }
        s_runs = store->runs();
    }
    static void TearDownTestSuite() { delete s_dir; }

    std::vector<radt::Run> runsOfWorkload(const std::string& w) {
        std::vector<radt::Run> out;
        for (const radt::Run& r : s_runs)
            if (r.workload() == w)
                out.push_back(r);
        std::sort(out.begin(), out.end(), [](auto& x, auto& y) { return x.letter() < y.letter(); });
        return out;
    }
    void plot(const std::string& workload, const std::string& key) {
        auto store = openStore("sqlite:///" + s_dir->file("chart.db"), OpenMode::OpenExisting);
        m_chart.resize(900, 500);
        m_chart.plot(*store, runsOfWorkload(workload), key);
    }

    static test::TempDir* s_dir;
    static std::vector<radt::Run> s_runs;
    ChartPanel m_chart;
};

test::TempDir* ChartPanelTest::s_dir = nullptr;
std::vector<radt::Run> ChartPanelTest::s_runs;

} // namespace

TEST_F(ChartPanelTest, WorkloadRunsMergeIntoOneSeriesUnlessShownOneByOne) {
    plot("1", "loss");
    ASSERT_EQ(m_chart.seriesNames(), QStringList{"1"});
    EXPECT_EQ(m_chart.pointCount(0), 200) << "both runs' points, in time order";
    const QVector<QPointF> merged = m_chart.seriesPoints(0);
    EXPECT_TRUE(std::is_sorted(merged.begin(), merged.end(), [](auto& p, auto& q) { return p.x() < q.x(); }));
    m_chart.setShowRuns(m_chart.workloadKeys().front(), true);
    EXPECT_EQ(m_chart.seriesNames(), (QStringList{"1 a", "1 b"}));
    m_chart.setShowRuns(m_chart.workloadKeys().front(), false);
    EXPECT_EQ(m_chart.seriesNames(), QStringList{"1"});
}

TEST_F(ChartPanelTest, SmoothingIsRadtsEmaOnFullResolution) {
    plot("1", "loss");
    m_chart.setShowRuns(m_chart.workloadKeys().front(), true);
    m_chart.setSmoothing(60);
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
    m_chart.setSmoothing(0);
    EXPECT_EQ(m_chart.seriesPoints(0)[1].y(), 10.0) << "0 % is the raw data";
}

TEST_F(ChartPanelTest, LegendClicksHideAndShowASeries) {
    plot("1", "loss");
    m_chart.setShowRuns(m_chart.workloadKeys().front(), true);
    QLegendMarker* marker = m_chart.chart()->legend()->markers().at(0);
    ASSERT_EQ(marker->series()->name(), "1 a");
    emit marker->clicked();
    EXPECT_FALSE(m_chart.seriesVisible(0));
    EXPECT_TRUE(m_chart.seriesVisible(1));
    EXPECT_TRUE(m_chart.options().hiddenSeries.count("1 a"));
    ASSERT_EQ(m_chart.chart()->legend()->markers().size(), 2) << "the marker stays to bring it back";
    EXPECT_LT(m_chart.chart()->legend()->markers().at(0)->labelBrush().color().alphaF(), 0.5) << "dimmed";
    EXPECT_EQ(static_cast<QLineSeries*>(m_chart.chart()->series().at(0))->pen().color().alpha(), 0) << "not drawn";
    emit m_chart.chart()->legend()->markers().at(0)->clicked();
    EXPECT_TRUE(m_chart.seriesVisible(0));
}

TEST_F(ChartPanelTest, LogAxisMonochromeLineWidthAndSteps) {
    plot("1", "loss");
    m_chart.setShowRuns(m_chart.workloadKeys().front(), true);
    m_chart.setLogY(true);
    const auto vertical = m_chart.chart()->axes(Qt::Vertical);
    ASSERT_EQ(vertical.size(), 1);
    EXPECT_NE(qobject_cast<QLogValueAxis*>(vertical.front()), nullptr);
    EXPECT_EQ(m_chart.pointCount(0), 50) << "run a's zeros have no place on a log axis";
    m_chart.setLogY(false);
    EXPECT_EQ(m_chart.pointCount(0), 100);

    m_chart.setMonochrome(true);
    m_chart.setLineWidth(3);
    auto* s0 = static_cast<QLineSeries*>(m_chart.chart()->series().at(0));
    auto* s1 = static_cast<QLineSeries*>(m_chart.chart()->series().at(1));
    EXPECT_EQ(s0->pen().color(), QColor(Qt::black));
    EXPECT_EQ(s1->pen().color(), QColor(Qt::black));
    EXPECT_NE(s0->pen().style(), s1->pen().style()) << "told apart by dash patterns";
    EXPECT_EQ(s0->pen().widthF(), 3.0);
    m_chart.setMonochrome(false);
    EXPECT_NE(s0->pen().color(), s1->pen().color());

    m_chart.setXAxis(ChartOptions::XAxis::Step);
    const QVector<QPointF> bySteps = m_chart.seriesPoints(1);
    EXPECT_EQ(bySteps[7].x(), 7.0);
    m_chart.setXAxis(ChartOptions::XAxis::SinceStart);
    EXPECT_EQ(m_chart.seriesPoints(1)[7].x(), 7.5) << "seconds since the run's start";
}

TEST_F(ChartPanelTest, ASpikeInAMillionPointsSurvivesAndZoomShowsFullResolution) {
    plot("2", "power");
    ASSERT_EQ(m_chart.seriesCount(), 1);
    const QVector<QPointF> overview = m_chart.seriesPoints(0);
    EXPECT_LE(overview.size(), 2 * 1200) << "at most 2 points per pixel column";
    EXPECT_GT(overview.size(), 200);
    const double top = std::max_element(overview.begin(), overview.end(), [](auto& p, auto& q) {
                           return p.y() < q.y();
                       })->y();
    EXPECT_EQ(top, 999.0) << "the single spike is drawn";
    // Zoom to 1 s around the spike (at 6543.21 s): 101 raw points, all of them.
    m_chart.zoomX(6542.71, 6543.71);
    EXPECT_TRUE(m_chart.isZoomed());
    const QVector<QPointF> close = m_chart.seriesPoints(0);
    EXPECT_EQ(close.size(), 101);
    EXPECT_TRUE(std::any_of(close.begin(), close.end(), [](auto& p) { return p.y() == 999.0; }));
    m_chart.resetZoom();
    EXPECT_FALSE(m_chart.isZoomed());
    EXPECT_EQ(m_chart.seriesPoints(0).size(), overview.size());
    const QImage image = m_chart.renderToImage(QSize(800, 400));
    EXPECT_EQ(image.size(), QSize(800, 400));
}
