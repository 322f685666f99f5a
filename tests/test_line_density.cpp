// SPDX-License-Identifier: MIT
// Hundreds of overlaid lines drawn as their density (a 500-run chart zoomed and
// panned at the frame goal). What a user relies on: each pixel is shaded by how many lines pass
// through it, counted once per line however many of its points fall there; the shades are the
// key's; the line under the mouse is drawn over the density in its own colour; a chart of up to
// 64 lines still draws each line in its colour; the overview strip draws the same density.

#include "widgets/chart/ChartCrosshair.h"
#include "widgets/chart/ChartLegend.h"
#include "widgets/chart/ChartNavigator.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/ChartPlotItem.h"
#include "widgets/chart/engine/LineDensity.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

using namespace radt;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

// The count at pixel (x, y) of a raster, read back through its shades (count c of `total` is
// LineDensity::colour(c, total)); -1 when the pixel's colour is none of them.
int countAt(const QImage& image, int x, int y, int total) {
    const QColor seen = image.pixelColor(x, y);
    if (seen.alpha() == 0)
        return 0;
    for (int c = 1; c <= total; ++c)
        if (LineDensity::colour(c, total, false) == seen)
            return c;
    return -1;
}

TEST(LineDensity, CountsEachLineOncePerPixelAndWhereLinesCross) {
    LineDensity density;
    density.reset(10, 10);
    // A falling diagonal and a rising one cross at (4.7, 5.2); a flat line at row 2 doubles back
    // within column 3 (four points there): it still counts once.
    const QPointF falling[] = {{0, 0.5}, {10, 10.4}};
    const QPointF rising[] = {{0, 9.5}, {10, 0.4}};
    const QPointF flat[] = {{0, 2.5}, {3.1, 2.5}, {3.5, 2.6}, {3.9, 2.5}, {9.9, 2.5}};
    density.addLine(falling, 2);
    density.addLine(rising, 2);
    density.addLine(flat, 5);
    EXPECT_EQ(density.linesAdded(), 3);
    QImage image;
    density.paintInto(image, 3, false);
    ASSERT_EQ(image.size(), QSize(10, 10));
    EXPECT_EQ(countAt(image, 4, 5, 3), 2) << "the crossing";
    EXPECT_EQ(countAt(image, 4, 4, 3), 2) << "the crossing";
    EXPECT_EQ(countAt(image, 3, 2, 3), 1) << "the flat line's doubling back, counted once";
    EXPECT_EQ(countAt(image, 7, 2, 3), 2) << "the rising diagonal over the flat line";
    EXPECT_EQ(countAt(image, 8, 5, 3), 0) << "no line there";
    EXPECT_EQ(density.densest(), 2);
    // Each line is unbroken: every column of the falling diagonal has its pixel.
    for (int x = 0; x < 10; ++x)
        EXPECT_GE(countAt(image, x, std::min(9, int(0.5 + x * 0.99)), 3), 1) << "column " << x;
}

TEST(LineDensity, ASteepSegmentFillsItsColumnAndWhatLiesOutsideIsClipped) {
    LineDensity density;
    density.reset(4, 20);
    const QPointF spike[] = {{0.5, 18}, {1.2, 18}, {1.3, 1}, {1.4, 18}, {3.5, 18}};
    const QPointF outside[] = {{-50, -30}, {-10, -30}, {2.5, -5}, {90, -5}}; // above, left, right
    density.addLine(spike, 5);
    density.addLine(outside, 4);
    QImage image;
    density.paintInto(image, 2, false);
    for (int y = 1; y <= 18; ++y)
        EXPECT_EQ(countAt(image, 1, y, 2), 1) << "the spike's column, row " << y;
    EXPECT_EQ(countAt(image, 0, 5, 2), 0) << "beside the spike";
    for (int x = 0; x < 4; ++x)
        EXPECT_EQ(countAt(image, x, 0, 2), 0) << "a line above the plot draws nothing in it, column " << x;

    LineDensity gaps;
    gaps.reset(4, 20);
    const QPointF gap[] = {
        {0.2, 10}, {0.8, 10}, {1.5, std::nan("")}, {2.5, 10}, {3.5, 1e12}}; // a NaN, a value far off
    gaps.addLine(gap, 5);
    gaps.paintInto(image, 1, false);
    EXPECT_EQ(countAt(image, 0, 10, 1), 1) << "before the NaN";
    for (int y = 0; y < 20; ++y)
        EXPECT_EQ(countAt(image, 1, y, 1), 0) << "the NaN is a gap, row " << y;
    for (int y = 10; y < 20; ++y)
        EXPECT_EQ(countAt(image, 2, y, 1), 1) << "a value far below runs down to the plot's edge, row " << y;
    EXPECT_EQ(countAt(image, 3, 19, 1), 0) << "and is below it in the next column";
}

// A segment from far left of the plot into its first column (a zoom frame's old points, mapped
// onto the new axes) marks there only the part of it inside that column.
TEST(LineDensity, ASegmentEnteringThePlotMarksOnlyItsPartInside) {
    LineDensity density;
    density.reset(4, 20);
    const QPointF entering[] = {{-10, 0}, {0.5, 19}};
    const QPointF leaving[] = {{3.5, 19}, {14, 0}};
    density.addLine(entering, 2);
    density.addLine(leaving, 2);
    QImage image;
    density.paintInto(image, 2, false);
    for (int y = 0; y < 17; ++y) {
        EXPECT_EQ(countAt(image, 0, y, 2), 0) << "row " << y;
        EXPECT_EQ(countAt(image, 3, y, 2), 0) << "row " << y;
    }
    EXPECT_EQ(countAt(image, 0, 18, 2), 1);
    EXPECT_EQ(countAt(image, 3, 18, 2), 1);
}

// Rasters drawn on several threads add up to the one a single thread draws.
TEST(LineDensity, RastersAddUp) {
    const QPointF a[] = {{0, 1}, {9, 1}}, b[] = {{0, 1}, {9, 8}};
    LineDensity one, other, both;
    for (LineDensity* d : {&one, &other, &both})
        d->reset(10, 10);
    one.addLine(a, 2);
    other.addLine(b, 2);
    both.addLine(a, 2);
    both.addLine(b, 2);
    one.add(other);
    EXPECT_EQ(one.linesAdded(), 2);
    QImage added, single;
    one.paintInto(added, 2, false);
    both.paintInto(single, 2, false);
    EXPECT_EQ(added, single);
    EXPECT_EQ(countAt(added, 0, 1, 2), 2);
}

TEST(LineDensity, ShadesDarkenWithTheCountOnALogScaleAndMonochromeIsGrey) {
    const QColor one = LineDensity::colour(1, 500, false), all = LineDensity::colour(500, 500, false);
    EXPECT_EQ(LineDensity::colour(0, 500, false).alpha(), 0);
    EXPECT_GT(one.lightness(), 150) << "one line: light, still visible on white";
    EXPECT_LT(one.lightness(), 240);
    EXPECT_LT(all.lightness(), 60) << "every line: dark";
    int previous = 256;
    for (int c : {1, 2, 5, 22, 100, 500}) {
        const int lightness = LineDensity::colour(c, 500, false).lightness();
        EXPECT_LT(lightness, previous) << c << " lines";
        previous = lightness;
    }
    // sqrt(500) = 22 lines is half way along the scale, so a few lines crossing show.
    EXPECT_NEAR(LineDensity::colour(22, 500, false).lightness(), (one.lightness() + all.lightness()) / 2, 25);
    const QColor grey = LineDensity::colour(7, 500, true);
    EXPECT_EQ(grey.red(), grey.green());
    EXPECT_EQ(grey.green(), grey.blue());
}

// `count` runs of `seconds`: all at 50 for the first half, then run r at 10 + r (a line each).
std::vector<ChartRunData> fanningRuns(int count, int seconds = 600) {
    std::vector<ChartRunData> runs;
    for (int r = 0; r < count; ++r) {
        ChartRunData d;
        d.run.uuid = "run" + std::to_string(r);
        d.run.name = "run " + std::to_string(r);
        d.run.startTime = kStart;
        d.run.endTime = kStart + seconds * 1000;
        d.run.status = RunStatus::Finished;
        d.run.params = {{"workload", std::to_string(r + 1)}, {"letter", "0"}};
        for (int s = 0; s <= seconds; ++s)
            appendPoint(d, kStart + s * 1000, s, s < seconds / 2 ? 50.0 : 10.0 + r);
        runs.push_back(std::move(d));
    }
    return runs;
}

class DensityChart : public ::testing::Test {
protected:
    void SetUp() override {
        m_chart.resize(900, 520);
        m_chart.show();
        QApplication::processEvents();
    }
    QImage grab() {
        QApplication::processEvents();
        return m_chart.chartView()->grab().toImage();
    }
    // The view pixel an axis point lies in.
    QPoint pixelOf(double x, double y) {
        const QPointF item = m_chart.plotItem()->toItem(QPointF(x, y));
        const QPointF at = m_chart.chartView()->viewportTransform().map(m_chart.plotItem()->mapToScene(item));
        return QPoint(int(std::floor(at.x())), int(std::floor(at.y())));
    }
    ChartPanel m_chart;
};

// 100 runs of 1,201 points: the lines are read and rasterised in shares on two threads or more
// (where the machine has them), added up.
TEST_F(DensityChart, APixelIsShadedByHowManyLinesPassAndTheKeySaysSo) {
    m_chart.setData(fanningRuns(100, 1200), "power");
    ASSERT_EQ(m_chart.engine().seriesCount(), 100);
    QApplication::processEvents();
    ASSERT_TRUE(m_chart.plotItem()->drawsDensity());
    const QImage image = grab();
    ASSERT_EQ(m_chart.plotItem()->densest(), 100) << "the first half: all 100 lines on one row";
    EXPECT_EQ(m_chart.legend().densityKey(), "1 … 100 lines through a pixel");
    const QPoint together = pixelOf(5, 50); // minutes on the x axis (a 20 min run)
    EXPECT_EQ(image.pixelColor(together), LineDensity::colour(100, 100, false)) << "100 lines through it";
    // The second half: one line every 4 px, each alone.
    int alone = 0;
    for (int r = 0; r < 100; r += 10) {
        const QPoint at = pixelOf(15, 10.0 + r);
        alone += image.pixelColor(at) == LineDensity::colour(1, 100, false);
    }
    EXPECT_GE(alone, 9) << "one line each";
    EXPECT_LE(countAt(image, pixelOf(5, 80).x(), pixelOf(5, 80).y(), 100), 0)
        << "no shade above the 100 lines of the first half";
    EXPECT_EQ(m_chart.legend().note(), "100 lines: hover for names");
    // Ten lines hidden (a saved board's choice): the shades are drawn again for the 90 left.
    for (int r = 0; r < 10; ++r)
        m_chart.changeOptions([&](ChartOptions& o) {
            if (true)
                o.hiddenSeries.insert(seriesNames(m_chart.engine()).at(r));
            else
                o.hiddenSeries.erase(seriesNames(m_chart.engine()).at(r));
        });
    EXPECT_EQ(grab().pixelColor(together), LineDensity::colour(90, 90, false)) << "90 lines through it";
    EXPECT_EQ(m_chart.plotItem()->densest(), 90);
    EXPECT_EQ(m_chart.legend().densityKey(), "1 … 90 lines through a pixel") << "the key says the same count";
    // The key's shades are the plot's.
    QImage key(200, 40, QImage::Format_ARGB32_Premultiplied);
    key.fill(Qt::white);
    QPainter painter(&key);
    DensityKeyItem item;
    item.setKey(100, false, QApplication::font(), true);
    item.paint(&painter, nullptr, nullptr);
    painter.end();
    EXPECT_EQ(item.total(), 100);
    bool lightest = false, darkest = false;
    for (int x = 0; x < key.width(); ++x)
        for (int y = 0; y < key.height(); ++y) {
            lightest |= key.pixelColor(x, y) == LineDensity::colour(1, 100, false);
            darkest |= key.pixelColor(x, y) == LineDensity::colour(100, 100, false);
        }
    EXPECT_TRUE(lightest && darkest) << "the key runs from one line's shade to all of them";
}

TEST_F(DensityChart, TheLineUnderTheMouseIsDrawnOverTheDensityInItsColour) {
    m_chart.setData(fanningRuns(100), "power");
    QApplication::processEvents();
    const QColor colour = std::as_const(*m_chart.plotItem()).lines()[37].pen.color();
    auto pixelsOfColour = [&] {
        const QImage image = grab();
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += image.pixelColor(x, y) == colour;
        return n;
    };
    const int before = pixelsOfColour();
    m_chart.plotItem()->setEmphasised(37);
    const int over = pixelsOfColour();
    EXPECT_GT(over, before + 300) << "the run's line across the plot in its colour";
    m_chart.plotItem()->setEmphasised(-1);
    EXPECT_EQ(pixelsOfColour(), before);
}

// The mouse over a line in the second half (each run alone there) draws that run's line over the
// density; leaving the chart takes it away.
TEST_F(DensityChart, TheMouseOverALineEmphasisesIt) {
    m_chart.setData(fanningRuns(100), "power");
    QApplication::processEvents();
    grab();
    QWidget* viewport = m_chart.chartView()->viewport();
    const QPoint at = viewport->mapFrom(m_chart.chartView(), pixelOf(450, 47));
    QMouseEvent move(QEvent::MouseMove, at, Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &move);
    EXPECT_EQ(m_chart.plotItem()->emphasised(), 37) << "the run at 47";
    // The wheel zooms in around the mouse: the line under it is looked up again (not left as it
    // was before the lines moved).
    m_chart.plotItem()->setEmphasised(5);
    QWheelEvent wheel(QPointF(at), viewport->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(viewport, &wheel);
    ASSERT_TRUE(m_chart.engine().zoom().has_value()) << "zoomed";
    EXPECT_EQ(m_chart.plotItem()->emphasised(), 37) << "the run at 47, looked up after the zoom";
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(viewport, &leave);
    EXPECT_EQ(m_chart.plotItem()->emphasised(), -1);
}

// Points arriving live are in the next frame's density; a repaint with nothing new (the
// crosshair moving) draws the raster kept.
TEST_F(DensityChart, LivePointsAreInTheNextFrame) {
    auto runs = fanningRuns(100);
    for (ChartRunData& r : runs)
        r.run.status = RunStatus::Running;
    m_chart.setData(std::move(runs), "power");
    QApplication::processEvents();
    grab();
    // Run 0 goes on for a minute at 115, above every other line.
    std::vector<MetricPoint> points;
    for (int s = 601; s <= 660; ++s)
        points.push_back({"power", 115.0, kStart + s * 1000, s});
    ASSERT_TRUE(m_chart.appendLive("run0", points));
    const QImage image = grab();
    EXPECT_EQ(image.pixelColor(pixelOf(630, 115)), LineDensity::colour(1, 100, false)) << "the new minute";
    EXPECT_EQ(m_chart.plotItem()->densest(), 100);
}

// A log y axis places the density's rows where it places a line's points.
TEST_F(DensityChart, ALogAxisPlacesTheShadesWhereItsTicksSay) {
    m_chart.setData(fanningRuns(80), "power");
    m_chart.changeOptions([&](ChartOptions& o) { o.logY = true; });
    const QImage image = grab();
    ASSERT_TRUE(m_chart.plotItem()->drawsDensity());
    EXPECT_EQ(image.pixelColor(pixelOf(150, 50)), LineDensity::colour(80, 80, false));
    EXPECT_EQ(image.pixelColor(pixelOf(450, 89)), LineDensity::colour(1, 80, false)) << "run 79, alone";
}

TEST_F(DensityChart, UpTo64LinesAreEachDrawnInTheirColour) {
    m_chart.setData(fanningRuns(64), "power");
    QApplication::processEvents();
    EXPECT_FALSE(m_chart.plotItem()->drawsDensity());
    const QImage image = grab();
    const QColor colour = std::as_const(*m_chart.plotItem()).lines()[63].pen.color();
    EXPECT_TRUE(m_chart.legend().densityKey().isEmpty());
    const QPoint at = pixelOf(450, 73);
    bool found = false;
    for (int dy = -2; dy <= 2; ++dy) { // antialiased over two rows: its hue, paler
        const QColor seen = image.pixelColor(at + QPoint(0, dy));
        found |= seen.hsvSaturation() > 40 && std::abs(seen.hsvHue() - colour.hsvHue()) < 12;
    }
    EXPECT_TRUE(found) << "line 63 in its own colour";
    EXPECT_EQ(m_chart.plotItem()->densest(), 0) << "no density drawn";
    EXPECT_TRUE(m_chart.chart()->legend()->isVisible() || !m_chart.legend().note().isEmpty());
}

TEST(DensityNavigator, TheOverviewDrawsTheSameDensity) {
    ChartNavigator navigator;
    navigator.resize(600, 34);
    std::vector<ChartNavigator::Line> lines;
    for (int r = 0; r < 80; ++r) {
        ChartNavigator::Line line;
        line.colour = Qt::red;
        line.points = {QPointF(0, 1), QPointF(1000, 1)}; // all 80 on one row
        lines.push_back(line);
    }
    lines.back().points = {QPointF(0, 0), QPointF(1000, 0)}; // one apart, at the bottom
    navigator.setLines(lines, 0, 1000);
    const QImage image = navigator.grab().toImage();
    int all = 0, red = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            all += image.pixelColor(x, y) == LineDensity::colour(79, 80, false);
            red += image.pixelColor(x, y) == QColor(Qt::red);
        }
    EXPECT_GT(all, 500) << "79 lines on one row, shaded as 79";
    EXPECT_EQ(red, 0) << "no line in its own colour";
    navigator.setLines(lines, 0, 1000, true); // a monochrome chart's overview: greys
    const QImage grey = navigator.grab().toImage();
    int greys = 0;
    for (int y = 0; y < grey.height(); ++y)
        for (int x = 0; x < grey.width(); ++x)
            greys += grey.pixelColor(x, y) == LineDensity::colour(79, 80, true);
    EXPECT_GT(greys, 500);
}

} // namespace
