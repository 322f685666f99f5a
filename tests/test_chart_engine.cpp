// SPDX-License-Identifier: MIT
// The chart engine without a widget (widgets/chart/engine/ChartEngine.h): what a chart of runs
// draws in a frame, which line is under a pixel, what a crosshair reads, how the wheel zooms and
// how live points grow a line, driven the way ChartPanel drives it, with no QWidget made.

#include "core/base/MetricUnits.h"
#include "widgets/chart/engine/ChartDescription.h"
#include "widgets/chart/engine/ChartEngine.h"
#include "widgets/chart/engine/ChartOptionsJson.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include <QCoreApplication>
#include <QDateTime>

#include <cmath>

using namespace radt;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

/// A finished run of `seconds` samples, one a second, value(i) at sample i.
ChartRunData makeRun(const std::string& uuid, const std::string& workload, const std::string& batch,
                     int64_t seconds, const std::function<double(int64_t)>& value) {
    ChartRunData d;
    d.run.uuid = uuid;
    d.run.experimentId = 1;
    d.run.startTime = kStart;
    d.run.endTime = kStart + seconds * 1000;
    d.run.status = RunStatus::Finished;
    d.run.params = {{"workload", workload}, {"letter", "0"}, {"batch-size", batch}};
    for (int64_t i = 0; i < seconds; ++i) {
        d.series.t.push_back(kStart + i * 1000);
        d.series.step.push_back(0);
        d.series.v.push_back(value(i));
    }
    return d;
}

/// Two runs of two workloads: a flat line at 10 and a ramp 0..99 over 100 s.
ChartEngine twoLines() {
    ChartEngine engine;
    std::vector<ChartRunData> runs;
    runs.push_back(makeRun("flat0001", "1", "64", 100, [](int64_t) { return 10.0; }));
    runs.push_back(makeRun("ramp0002", "2", "128", 100, [](int64_t i) { return double(i); }));
    engine.setData(std::move(runs), QStringLiteral("SMI - Power Draw"));
    return engine;
}

/// Where a frame of 100 columns over 0..99 s and y 0..100 puts values: a 1000 x 500 plot at 50,50.
PlotMapping mappingOf(const ChartEngine& engine) {
    PlotMapping m;
    m.plot = QRectF(50, 50, 1000, 500);
    m.xMin = engine.toAxis(0);
    m.xMax = engine.toAxis(99'000);
    m.yMin = 0;
    m.yMax = 100;
    return m;
}

} // namespace

TEST(ChartEngine, AFrameHoldsAtMostTwoPointsAPixelColumnAndTheVisibleLinesRange) {
    ChartEngine engine = twoLines();
    ASSERT_EQ(seriesNames(engine), (QStringList{"batch-size=64", "batch-size=128"}));
    EXPECT_EQ(engine.xAxisTitle(), "time since start (s)");
    std::vector<PlotLine> frame;
    const auto [from, to] = engine.shownRange();
    EXPECT_EQ(from, 0);
    EXPECT_EQ(to, 99'000);
    const auto [yMin, yMax] = engine.fetchLines(from, to, 20, frame);
    ASSERT_EQ(frame.size(), 2u);
    EXPECT_LE(frame[1].points.size(), 40) << "100 samples over 20 columns: two a column at most";
    EXPECT_GE(frame[1].points.size(), 20);
    // Axis units: seconds since the start; the first and last column's points within that column.
    EXPECT_GE(frame[1].points.front().x(), 0.0);
    EXPECT_LE(frame[1].points.front().x(), 5.0);
    EXPECT_GE(frame[1].points.back().x(), 94.0);
    EXPECT_LE(frame[1].points.back().x(), 99.0);
    EXPECT_DOUBLE_EQ(yMin, 0.0);
    EXPECT_DOUBLE_EQ(yMax, 99.0);

    // A hidden line keeps its place in the frame but no longer sets the scale.
    ChartOptions hidden = engine.options();
    hidden.hiddenSeries.insert("batch-size=128");
    EXPECT_FALSE(engine.setOptions(hidden)) << "hiding a line restyles it; the lines stay what they are";
    const auto [lo, hi] = engine.fetchLines(from, to, 20, frame);
    EXPECT_DOUBLE_EQ(lo, 10.0);
    EXPECT_DOUBLE_EQ(hi, 10.0);
    EXPECT_FALSE(engine.seriesVisible(1));
    ChartOptions smoothed = engine.options();
    smoothed.smoothing = 50;
    EXPECT_TRUE(engine.setOptions(smoothed)) << "smoothing makes other lines";
    for (const auto& change : std::vector<std::function<void(ChartOptions&)>>{
             [](ChartOptions& o) { o.grouping = ChartOptions::Grouping::Configuration; },
             [](ChartOptions& o) { o.groupParams = {"seed"}; },
             [](ChartOptions& o) { o.band = ChartOptions::Band::Sd; }}) {
        ChartOptions changed = engine.options();
        change(changed);
        EXPECT_TRUE(engine.setOptions(changed)) << "grouping, its params and the band make other lines";
    }
}

TEST(ChartEngine, TheLineUnderAPixelIsFoundFromThePyramidsAndHiddenLinesAreNotHit) {
    ChartEngine engine = twoLines();
    std::vector<PlotLine> frame;
    engine.fetchLines(0, 99'000, 1000, frame);
    const PlotMapping m = mappingOf(engine);
    // At 50 s the ramp is at 50 (y = 550 - 250 = 300 px), the flat line at 10 (y = 500 px).
    const double x = m.toItem(QPointF(50.0, 0)).x();
    EXPECT_EQ(engine.lineAt(QPointF(x, 300), m, frame), 1);
    EXPECT_EQ(engine.lineAt(QPointF(x, 502), m, frame), 0) << "2 px off a line still hits it";
    EXPECT_EQ(engine.lineAt(QPointF(x, 400), m, frame), -1) << "between the lines: none";
    EXPECT_EQ(engine.lineAt(QPointF(20, 300), m, frame), -1) << "outside the plot: none";
    frame[1].visible = false;
    EXPECT_EQ(engine.lineAt(QPointF(x, 300), m, frame), -1) << "a hidden line cannot be pointed at";
}

TEST(ChartEngine, TheCrosshairReadsEveryVisibleLineAndSaysWhereItIs) {
    ChartEngine engine = twoLines();
    QString title;
    const auto readings = crosshairReadings(engine, 42.0, 15, &title);
    ASSERT_EQ(readings.size(), 2u);
    EXPECT_EQ(readings[0].row, "batch-size=64: 10 W") << "with the metric's unit, as its axis says it";
    EXPECT_EQ(readings[1].row, "batch-size=128: 42 W");
    EXPECT_TRUE(title.isEmpty()) << "two lines fit: no summary title";
    EXPECT_EQ(crosshairPlace(engine, 42.0), "42.0 s after the start");
    EXPECT_FALSE(shownValueAt(engine, engine.lines()[1], 120'000).has_value())
        << "after its last point a line says nothing";
}

TEST(ChartEngine, TheWheelZoomsAroundThePointUnderTheMouseAndOutToEverything) {
    ChartEngine engine = twoLines();
    const auto in = engine.wheelZoom(50.0, 1);
    ASSERT_TRUE(in.has_value() && in->has_value());
    // 80 % of the range either side of 50 s, which stays put: 50 - 0.8 * 50 and 50 + 0.8 * 49.
    EXPECT_EQ((*in)->first, 10'000);
    EXPECT_EQ((*in)->second, 89'200);
    engine.setZoom(**in);
    const auto out = engine.wheelZoom(50.0, -3);
    ASSERT_TRUE(out.has_value());
    EXPECT_FALSE(out->has_value()) << "zoomed out past everything: no zoom any more";
}

TEST(ChartEngine, LivePointsGrowARunsLineInPlaceAndAMergedLineIsMadeAgain) {
    ChartEngine engine;
    ChartRunData live = makeRun("live0001", "1", "64", 10, [](int64_t i) { return double(i); });
    live.run.status = RunStatus::Running;
    engine.setData({live}, QStringLiteral("SMI - Power Draw"));
    EXPECT_TRUE(hasRunningRuns(engine));
    ASSERT_EQ(engine.livePollQueries().size(), 1u);
    std::vector<MetricPoint> points;
    for (int64_t i = 10; i < 15; ++i)
        points.push_back({"SMI - Power Draw", double(i), kStart + i * 1000, 0});
    points.push_back({"another key", 1.0, kStart + 20'000, 0});
    EXPECT_EQ(engine.appendLive("live0001", points), ChartChange::Grown);
    EXPECT_EQ(engine.lines().front().pyramid.lastTime(), 14'000);
    EXPECT_EQ(engine.runs().front().liveTail, 5u) << "provisional until the store confirms them";
    EXPECT_EQ(engine.appendLive("someone-else", points), ChartChange::None);

    ChartOptions logY = engine.options();
    logY.logY = true;
    engine.setOptions(logY);
    engine.rebuildLines();
    EXPECT_EQ(engine.appendLive("live0001", {{"SMI - Power Draw", 15.0, kStart + 15'000, 0}}),
              ChartChange::Rebuilt)
        << "a log axis drops points: its line is made again";
}

TEST(ChartEngine, ABoardFilesRunsAreNeverFollowedAndClearForgetsEverything) {
    ChartEngine engine;
    ChartRunData live = makeRun("live0001", "1", "64", 10, [](int64_t i) { return double(i); });
    live.run.status = RunStatus::Running;
    ChartOptions options;
    options.smoothing = 250;
    engine.showDetached({live}, QStringLiteral("loss"), options, LineRange{1000, 5000});
    EXPECT_FALSE(hasRunningRuns(engine)) << "a board file's runs are a snapshot";
    EXPECT_TRUE(engine.livePollQueries().empty());
    EXPECT_EQ(engine.options().smoothing, 99) << "radT's slider stops at 99";
    EXPECT_EQ(engine.zoom(), (LineRange{1000, 5000}));
    engine.clear();
    EXPECT_TRUE(engine.lines().empty());
    EXPECT_FALSE(engine.zoom().has_value());
    EXPECT_TRUE(whyNothingIsDrawn(engine).isEmpty()) << "no metric chosen: nothing to explain";
}

// An x-axis mode is a row: each mode has its names and its unit, title and crosshair
// phrase, and the engine says what the row says.
TEST(ChartEngine, EachXAxisModeIsARowWithItsUnitTitleAndCrosshairPhrase) {
    using X = ChartOptions::XAxis;
    for (X mode : {X::SinceStart, X::Step, X::WallClock, X::Epoch}) {
        EXPECT_EQ(xAxisMode(mode).value, mode);
        EXPECT_TRUE(std::any_of(xAxisNames().begin(), xAxisNames().end(),
                                [mode](const OptionName<X>& n) { return n.value == mode; }));
    }
    EXPECT_EQ(xAxisModes().size(), xAxisNames().size());
    ChartEngine engine = twoLines();
    EXPECT_EQ(engine.xAxisTitle(), "time since start (s)");
    EXPECT_EQ(engine.lineUnitsPerAxisUnit(), 1000.0);
    ChartOptions steps = engine.options();
    steps.xAxis = X::Step;
    engine.setOptions(steps);
    EXPECT_EQ(engine.xAxisTitle(), "step");
    EXPECT_EQ(engine.lineUnitsPerAxisUnit(), 1.0);
    EXPECT_EQ(crosshairPlace(engine, 42.0), "step 42");
    ChartOptions epochs = engine.options();
    epochs.xAxis = X::Epoch;
    engine.setOptions(epochs);
    EXPECT_EQ(engine.xAxisTitle(), "epoch (these runs log no stepped software metric)");
    EXPECT_EQ(crosshairPlace(engine, 2.5), "epoch 2.50");
    EXPECT_EQ(xAxisMode(X::SinceStart).title(3600000.0, QString()), "time since start (h)");
    EXPECT_EQ(xAxisMode(X::WallClock).place(0, 0).left(4),
              QDateTime::fromMSecsSinceEpoch(0).toString("yyyy"));
}

// The README's grouped chart drew CPU utilisation from -100 to 150 % and a power band of +-2000 W:
// near the runs' ends two runs still had data, Student's t(1) is 12.7, and the axis followed the
// band. Now the band is drawn where at least 3 runs have data, never beyond what the metric can be
// (utilisation 0-100 %), and the axis fits the means and the runs' own values.
TEST(ChartEngine, AGroupedChartsAxisFitsTheRunsValuesAndItsBandStaysWithinTheMetricsRange) {
    std::vector<ChartRunData> runs;
    // Three seeds of one configuration at 90, 95 and 99 % for 10 s; two go on to 20 s at 10 and 99 %.
    runs.push_back(makeRun("seed0001", "1", "64", 20, [](int64_t i) { return i < 10 ? 90.0 : 10.0; }));
    runs.push_back(makeRun("seed0002", "2", "64", 20, [](int64_t) { return 99.0; }));
    runs.push_back(makeRun("seed0003", "3", "64", 10, [](int64_t) { return 95.0; }));
    for (size_t i = 0; i < runs.size(); ++i) {
        runs[i].run.params["seed"] = std::to_string(i + 1);
        runs[i].run.startTime = kStart + int64_t(i) * 100'000; // one after another
        for (int64_t& t : runs[i].series.t)
            t += int64_t(i) * 100'000;
        runs[i].run.endTime = runs[i].series.t.back();
    }
    ChartEngine engine;
    ChartOptions options;
    options.grouping = ChartOptions::Grouping::Configuration;
    options.band = ChartOptions::Band::Ci95;
    engine.setOptions(options);
    engine.setData(std::move(runs), QStringLiteral("DCGMI - GPU Utilization"));
    EXPECT_EQ(engine.yAxisTitle(), "DCGMI - GPU Utilization (%)");
    ASSERT_EQ(engine.lines().size(), 1u);
    const ChartLine& line = engine.lines()[0];
    ASSERT_TRUE(line.bandLow && line.bandHigh);
    EXPECT_TRUE(line.bandNarrowed) << "two runs at the tail: no CI there";
    EXPECT_TRUE(line.bandClipped) << "the CI of 90, 95, 99 reaches 105.9 %";
    std::vector<int64_t> t;
    std::vector<double> low, high, mean;
    line.bandHigh->query(0, 20'000, 1000, t, high);
    line.bandLow->query(0, 20'000, 1000, t, low);
    line.pyramid.query(0, 20'000, 1000, t, mean);
    ASSERT_EQ(high.size(), t.size());
    for (size_t k = 0; k < t.size(); ++k) {
        EXPECT_LE(high[k], 100.0) << "utilisation never above 100 %, x " << t[k];
        EXPECT_GE(low[k], 0.0) << "never below 0, x " << t[k];
        if (t[k] >= 10'000) {
            EXPECT_DOUBLE_EQ(low[k], mean[k]) << "N = 2: the mean alone, x " << t[k];
            EXPECT_DOUBLE_EQ(high[k], mean[k]);
        }
    }
    EXPECT_DOUBLE_EQ(high.front(), 100.0) << "cut at 100, not drawn to 105.9";
    std::vector<PlotLine> frame;
    const auto [from, to] = engine.shownRange();
    const auto [yMin, yMax] = engine.fetchLines(from, to, 200, frame);
    EXPECT_GE(yMin, 10.0) << "the least of the runs' own values";
    EXPECT_LE(yMax, 99.0) << "the greatest of them, not the band";
    EXPECT_TRUE(seriesTooltip(engine, 0).contains("at least 3 runs"))
        << seriesTooltip(engine, 0).toStdString();
    EXPECT_TRUE(seriesTooltip(engine, 0).contains("cut at 0 and 100"))
        << seriesTooltip(engine, 0).toStdString();

    // A script's own metric gets no guessed unit or range: its band is the plain CI.
    engine.setData(engine.runs(), QStringLiteral("loss"));
    EXPECT_EQ(engine.yAxisTitle(), "loss");
    EXPECT_FALSE(engine.lines()[0].bandClipped);
}

TEST(MetricUnits, EveryKnownToolsKeysSayTheirUnitAndAScriptsOwnNone) {
    const std::vector<std::pair<std::string, std::string>> titles = {
        {"SMI - Power Draw", "SMI - Power Draw (W)"},
        {"SMI - GPU Util", "SMI - GPU Util (0–1)"},
        {"SMI - Mem Used", "SMI - Mem Used (MiB)"},
        {"DCGMI - Power Usage", "DCGMI - Power Usage (W)"},
        {"DCGMI - Power Usage GPU 1", "DCGMI - Power Usage GPU 1 (W)"},
        {"DCGMI - Total Energy Consumption", "DCGMI - Total Energy Consumption (mJ)"},
        {"DCGMI - GPU Utilization", "DCGMI - GPU Utilization (%)"},
        {"DCGMI - SM Active", "DCGMI - SM Active (0–1)"},
        {"DCGMI - PCIE TX Bytes", "DCGMI - PCIE TX Bytes (B/s)"},
        {"DMON - SM Util", "DMON - SM Util (%)"},
        {"DMON - PCIe RX MB/s", "DMON - PCIe RX MB/s (MB/s)"},
        {"DMON - GPU Temp C", "DMON - GPU Temp C (°C)"},
        {"TOP - CPU Utilization", "TOP - CPU Utilization (%)"},
        {"TOP - Memory Usage GB", "TOP - Memory Usage GB (GB)"},
        {"PROC - CPU Utilization", "PROC - CPU Utilization (%)"},
        {"PROC - RSS MB", "PROC - RSS MB (MB)"},
        {"NET - eth0 RX MB/s", "NET - eth0 RX MB/s (MB/s)"},
        {"nvme0n1 - MB read/s", "nvme0n1 - MB read/s (MB/s)"},
        {"PS - CPU 3", "PS - CPU 3 (%)"},
        {"SMI - Performance State", "SMI - Performance State"},
        {"loss", "loss"},
        {"val C", "val C"},
    };
    for (const auto& [key, title] : titles)
        EXPECT_EQ(keyWithUnit(key), title) << key;
    EXPECT_EQ(unitOfKey("DCGMI - GPU Utilization")->high, 100);
    EXPECT_TRUE(std::isinf(unitOfKey("PROC - CPU Utilization")->high))
        << "a process on 8 cores reaches 800 %";
    EXPECT_EQ(unitOfKey("SMI - Power Draw")->low, 0);
    EXPECT_FALSE(unitOfKey("accuracy"));
}
