// SPDX-License-Identifier: MIT
// The chart's own plot item (frames at 60 fps): the lines are drawn by ChartPlotItem over
// the QtCharts axes, not by QLineSeries. What a user relies on: points land exactly where the axes
// and grid say (linear, log, wall clock, zoomed), every line and band is painted in its colour and
// a hidden one is not, the run-details tooltip appears when the mouse is on a line, and a zoom
// step is painted once.

#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/ChartPlotItem.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QTest>
#include <QToolTip>

#include <gtest/gtest.h>

#include <cmath>

using namespace radt;
using namespace QtCharts;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

// A run of workload `workload` starting `offsetS` seconds after kStart: `seconds` of one value a
// second, `base` plus a slow wave.
ChartRunData run(const std::string& name, const std::string& workload, const std::string& letter,
                 int64_t offsetS, int64_t seconds, double base) {
    ChartRunData d;
    d.run.uuid = name + "-uuid";
    d.run.name = name;
    d.run.experimentId = 0;
    d.run.startTime = kStart + offsetS * 1000;
    d.run.endTime = d.run.startTime + seconds * 1000;
    d.run.status = RunStatus::Finished;
    d.run.params = {{"workload", workload}, {"letter", letter}};
    for (int64_t s = 0; s <= seconds; ++s)
        appendPoint(d, d.run.startTime + s * 1000, s, base + 10 * std::sin(double(s) / 50));
    return d;
}

// Pixels of the view (as painted on screen) within `tolerance` of `colour` on every channel.
int pixelsOf(ChartPanel& chart, const QColor& colour, int tolerance = 0) {
    QApplication::processEvents();
    const QImage image = chart.chartView()->grab().toImage();
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - colour.red()) <= tolerance &&
                 std::abs(c.green() - colour.green()) <= tolerance &&
                 std::abs(c.blue() - colour.blue()) <= tolerance;
        }
    return n;
}

QColor lineColour(ChartPanel& chart, int line) {
    return qobject_cast<QLineSeries*>(chart.chart()->series().at(line))->pen().color();
}

class ChartPlotItemTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_chart.resize(900, 520);
        m_chart.show();
        QApplication::processEvents();
    }
    void show(std::vector<ChartRunData> runs) {
        m_chart.setData(std::move(runs), "power");
        QApplication::processEvents();
    }
    // Every drawn point of line `line` is where QtCharts' own axes put that value.
    void expectPointsOnTheAxes(int line, const char* what) {
        const QVector<QPointF> points = m_chart.seriesPoints(line);
        ASSERT_FALSE(points.isEmpty()) << what;
        QAbstractSeries* series = m_chart.chart()->series().at(line);
        for (int i = 0; i < points.size(); i += std::max(1, points.size() / 50)) {
            const QPointF ours = m_chart.plotItem()->toItem(points[i]);
            const QPointF theirs = m_chart.chart()->mapToPosition(points[i], series);
            ASSERT_NEAR(ours.x(), theirs.x(), 0.01) << what << " point " << i;
            ASSERT_NEAR(ours.y(), theirs.y(), 0.01) << what << " point " << i;
        }
        EXPECT_EQ(m_chart.plotItem()->mapping().plot, m_chart.chart()->plotArea()) << what;
    }
    ChartPanel m_chart;
};

} // namespace

TEST_F(ChartPlotItemTest, PointsLandWhereTheAxesAndGridSay) {
    std::vector<ChartRunData> runs;
    runs.push_back(run("a", "1", "a", 0, 3000, 120));
    runs.push_back(run("b", "2", "a", 0, 2000, 60));
    show(std::move(runs));
    expectPointsOnTheAxes(0, "whole range");
    m_chart.zoomX(5, 20); // minutes
    QApplication::processEvents();
    expectPointsOnTheAxes(1, "zoomed");
    m_chart.changeOptions([&](ChartOptions& o) { o.logY = true; });
    QApplication::processEvents();
    expectPointsOnTheAxes(0, "log y");
    m_chart.changeOptions([&](ChartOptions& o) { o.logY = false; });
    m_chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::WallClock; });
    QApplication::processEvents();
    expectPointsOnTheAxes(1, "wall clock");
    m_chart.resize(600, 400); // a new plot area: the lines follow it
    QApplication::processEvents();
    expectPointsOnTheAxes(0, "resized");
}

TEST_F(ChartPlotItemTest, EveryLineIsPaintedInItsColourAndAHiddenOneIsNot) {
    std::vector<ChartRunData> runs;
    runs.push_back(run("a", "1", "a", 0, 3000, 120));
    runs.push_back(run("b", "2", "a", 0, 3000, 60));
    show(std::move(runs));
    const QColor first = lineColour(m_chart, 0), second = lineColour(m_chart, 1);
    ASSERT_NE(first, second);
    EXPECT_GT(pixelsOf(m_chart, first), 500) << "3000 points over ~800 px: a solid trace";
    EXPECT_GT(pixelsOf(m_chart, second), 500);
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.hiddenSeries.insert(seriesNames(m_chart.engine()).at(0));
        else
            o.hiddenSeries.erase(seriesNames(m_chart.engine()).at(0));
    });
    // The legend keeps a dimmed marker in another shade; no pixel has the line's own colour.
    EXPECT_EQ(pixelsOf(m_chart, first), 0);
    EXPECT_GT(pixelsOf(m_chart, second), 500);
    m_chart.changeOptions([&](ChartOptions& o) {
        if (false)
            o.hiddenSeries.insert(seriesNames(m_chart.engine()).at(0));
        else
            o.hiddenSeries.erase(seriesNames(m_chart.engine()).at(0));
    });
    EXPECT_GT(pixelsOf(m_chart, first), 500);
}

TEST_F(ChartPlotItemTest, ABandIsFilledUnderItsMeanLine) {
    // Two runs of one workload, one after the other: the mean with a min-max band (Auto).
    std::vector<ChartRunData> runs;
    runs.push_back(run("a", "1", "a", 0, 600, 100));
    runs.push_back(run("b", "1", "b", 1000, 600, 140));
    show(std::move(runs));
    ASSERT_EQ(m_chart.engine().seriesCount(), 1);
    ASSERT_TRUE(m_chart.engine().hasBand(0));
    // The fill is the line's colour at 22 % over white.
    const QColor line = lineColour(m_chart, 0);
    const QColor fill(int(std::lround(line.red() * 0.22 + 255 * 0.78)),
                      int(std::lround(line.green() * 0.22 + 255 * 0.78)),
                      int(std::lround(line.blue() * 0.22 + 255 * 0.78)));
    const int filled = pixelsOf(m_chart, fill, 2);
    EXPECT_GT(filled, 20000) << "the band is 40 units tall over the whole width";
    m_chart.changeOptions([&](ChartOptions& o) {
        if (true)
            o.hiddenSeries.insert(seriesNames(m_chart.engine()).at(0));
        else
            o.hiddenSeries.erase(seriesNames(m_chart.engine()).at(0));
    });
    EXPECT_LT(pixelsOf(m_chart, fill, 2), filled / 100) << "hiding the line hides its band";
}

TEST_F(ChartPlotItemTest, TheMouseOnALineShowsItsRunsAndNowhereElse) {
    std::vector<ChartRunData> runs;
    runs.push_back(run("low-run", "1", "a", 0, 300, 20));
    runs.push_back(run("high-run", "2", "a", 0, 300, 200));
    show(std::move(runs));
    QChartView* view = m_chart.chartView();
    // Where the high line is drawn at its 100th point, in viewport pixels.
    const QPointF onLine = m_chart.plotItem()->toItem(m_chart.seriesPoints(1).at(100));
    const QPoint at = view->mapFromScene(m_chart.chart()->mapToScene(onLine));
    EXPECT_EQ(m_chart.lineAt(at), 1);
    EXPECT_EQ(m_chart.lineAt(at + QPoint(0, 3)), 1) << "a few pixels off still hits a 1 px line";
    EXPECT_EQ(m_chart.lineAt(at + QPoint(0, 40)), -1) << "between the lines";
    const QPointF onLow = m_chart.plotItem()->toItem(m_chart.seriesPoints(0).at(100));
    EXPECT_EQ(m_chart.lineAt(view->mapFromScene(m_chart.chart()->mapToScene(onLow))), 0);

    QTest::mouseMove(view->viewport(), at + QPoint(0, 40));
    QTest::mouseMove(view->viewport(), at);
    QApplication::processEvents();
    ASSERT_TRUE(QToolTip::isVisible()) << "the run-details tooltip";
    EXPECT_TRUE(QToolTip::text().contains("high-run"));
    EXPECT_FALSE(QToolTip::text().contains("low-run"));
    QTest::mouseMove(view->viewport(), at + QPoint(0, 40));
    // Qt hides a tooltip 300 ms after it is told to.
    EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000)) << "gone off the line";
}

TEST_F(ChartPlotItemTest, AZoomStepIsPaintedOnce) {
    // QtCharts laid its axes out in a posted event after the frame was painted: every zoom step
    // was painted twice. The panel lays them out before the paint.
    std::vector<ChartRunData> runs;
    runs.push_back(run("a", "1", "a", 0, 3000, 120));
    show(std::move(runs));
    struct PaintCounter : QObject {
        int paints = 0;
        bool eventFilter(QObject*, QEvent* event) override {
            paints += event->type() == QEvent::Paint;
            return false;
        }
    } counter;
    m_chart.chartView()->viewport()->installEventFilter(&counter);
    for (const auto& [from, to] : {std::pair{1.0, 2.0}, std::pair{3.0, 40.0}, std::pair{0.5, 0.6}}) {
        counter.paints = 0;
        m_chart.zoomX(from, to);
        for (int i = 0; i < 20; ++i)
            QApplication::processEvents();
        EXPECT_EQ(counter.paints, 1) << from << ".." << to;
    }
}
