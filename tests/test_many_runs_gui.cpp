// SPDX-License-Identifier: MIT
// A chart of many runs: finished runs are read as their stored envelopes (a few
// thousand points each, not every row), a run without one gets it on the way, and a zoom reads the
// visible range again with every point, through the real loader thread, on SQLite and PostgreSQL.

#include "StoreTestBackends.h"
#include "SweepTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/board/BoardFile.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/Store.h"
#include "widgets/board/BoardIo.h"
#include "widgets/chart/ChartCrosshair.h"
#include "widgets/chart/ChartLegend.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/chart/ChartPanel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

using namespace radt;

namespace {

constexpr int64_t kStart = 1700000000000;
constexpr int kPoints = 20000;
constexpr int kSpikeAt = 12345;
const std::string kKey = "SMI - Power Draw W";

/// `count` finished runs of kPoints one-second samples, each with one spike of 999 W; the first
/// `withEnvelopes` get their envelopes written as radt does when a run finishes.
std::vector<radt::Run> buildRuns(Store& store, int count, int withEnvelopes) {
    std::vector<radt::Run> runs;
    for (int r = 0; r < count; ++r) {
        radt::Run run =
            store.createRun({0, "run " + std::to_string(r), kStart, "u", "s", RunStatus::Running});
        std::vector<MetricPoint> points;
        for (int i = 0; i < kPoints; ++i)
            points.push_back({kKey, i == kSpikeAt ? 999.0 : 200 + 100 * std::sin(i / 50.0 + r),
                              kStart + 1000 * int64_t(i), 0});
        store.logMetrics(run.uuid, points);
        store.setRunStatus(run.uuid, RunStatus::Finished, kStart + 1000 * int64_t(kPoints));
        if (r < withEnvelopes) {
            EXPECT_EQ(writeRunEnvelopes(store, run.uuid), 2u);
        }
        runs.push_back(*store.run(run.uuid));
    }
    return runs;
}

bool processUntil(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

class ManyRunsChart : public test::BackendTest {};

} // namespace

TEST_P(ManyRunsChart, ReadsEnvelopesMakesAMissingOneAndAZoomReadsEveryPointOfItsRange) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::vector<radt::Run> runs = buildRuns(*store, 12, 11); // the last one has no envelope yet
    const bool server = store->prefersEnvelopes();

    ChartLoader loader;
    loader.setStoreUri(m_uri, true);
    ChartPanel chart;
    chart.resize(900, 500);
    chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::WallClock; });
    const int level = envelopeLevelFor(chart.plotColumns());
    loader.requestChart(&chart, runs, QString::fromStdString(kKey));
    ASSERT_TRUE(loader.waitIdle(30000));
    ASSERT_EQ(chart.engine().runs().size(), 12u);
    for (const ChartRunData& r : chart.engine().runs()) {
        EXPECT_TRUE(r.reduced) << r.run.name;
        EXPECT_LE(r.series.size(), size_t(4 * level)) << r.run.name << ": not every row";
        EXPECT_EQ(*std::max_element(r.series.v.begin(), r.series.v.end()), 999.0) << "the spike survives";
        if (r.run.name != "run 11" || !server) {
            EXPECT_EQ(r.storedPoints, kPoints) << r.run.name;
        }
    }
    // SQLite read the last run whole and kept its envelope for the next chart; a server reduced
    // it where it is (`radt store compact` or the run's end store it there).
    EXPECT_EQ(store->envelopes().storedEnvelopes({runs.back().uuid}, kKey, level).size(), server ? 0u : 1u);

    // Zoom to 200 s around the spike: every sample of the range (and half as much either side)
    // comes back, for every run.
    const int64_t from = kStart + 1000 * int64_t(kSpikeAt - 100),
                  to = kStart + 1000 * int64_t(kSpikeAt + 100);
    chart.applyLinkedZoom(ChartOptions::XAxis::WallClock, std::make_pair(from, to));
    auto sampleCountIn = [&](const ChartRunData& r) {
        return std::count_if(r.series.t.begin(), r.series.t.end(),
                             [&](int64_t t) { return t >= from && t <= to; });
    };
    ASSERT_TRUE(processUntil(
        [&] {
            return std::all_of(chart.engine().runs().begin(), chart.engine().runs().end(),
                               [&](const ChartRunData& r) { return sampleCountIn(r) == 201; });
        },
        20000))
        << "the zoomed range was not read again: run 0 holds " << sampleCountIn(chart.engine().runs().front())
        << " points of its 201";
    for (const ChartRunData& r : chart.engine().runs()) {
        const Series range = store->seriesRange(r.run.uuid, kKey, from, to);
        const Series held = fullSeries(r);
        const std::set<int64_t> times(held.t.begin(), held.t.end());
        for (int64_t t : range.t)
            ASSERT_TRUE(times.count(t)) << r.run.name << " lacks the sample at " << t;
        EXPECT_TRUE(std::is_sorted(held.t.begin(), held.t.end())) << r.run.name;
        EXPECT_EQ(held.t.front(), kStart) << "outside the range the envelope stays";
    }
}

// Another MLflow client changes a finished run after its envelope was kept (values rewritten by
// SQL, which leaves latest_metrics as it was): the next chart draws the run as it is now, never
// the kept envelope, and looks different.
TEST_P(ManyRunsChart, AFinishedRunChangedByAnotherClientIsDrawnAsItIsNow) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::vector<radt::Run> runs = buildRuns(*store, 8, 8);
    ChartLoader loader;
    loader.setStoreUri(m_uri, true);
    ChartPanel chart;
    chart.resize(900, 500);
    chart.changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::WallClock; });
    loader.requestChart(&chart, runs, QString::fromStdString(kKey));
    ASSERT_TRUE(loader.waitIdle(30000));
    ASSERT_EQ(chart.engine().runs().size(), 8u);
    ASSERT_TRUE(chart.engine().runs().front().reduced) << "eight finished runs are read as their envelopes";
    const QImage before = chart.grab().toImage();

    // The spike of run 0 cut to 150 W by SQL, and its second half tripled.
    test::sqlByAnotherClient(
        m_uri, "UPDATE metrics SET value = 150 WHERE run_uuid = '" + runs.front().uuid +
                   "' AND value = 999; UPDATE metrics SET value = value * 3 WHERE run_uuid = '" +
                   runs.front().uuid + "' AND timestamp > " +
                   std::to_string(kStart + 1000 * int64_t(kPoints / 2)));
    loader.requestChart(&chart, runs, QString::fromStdString(kKey));
    ASSERT_TRUE(loader.waitIdle(30000));
    ASSERT_EQ(chart.engine().runs().size(), 8u);
    const ChartRunData& changed = chart.engine().runs().front();
    ASSERT_EQ(changed.run.uuid, runs.front().uuid);
    const double top = *std::max_element(changed.series.v.begin(), changed.series.v.end());
    EXPECT_GT(top, 700.0) << "the tripled half is drawn";
    EXPECT_LT(top, 999.0) << "the spike that is no longer in the store is not drawn";
    EXPECT_EQ(
        *std::max_element(chart.engine().runs()[1].series.v.begin(), chart.engine().runs()[1].series.v.end()),
        999.0)
        << "the other runs are as they were";
    EXPECT_NE(chart.grab().toImage(), before) << "the window shows the change";
}

TEST_P(ManyRunsChart, AFewRunsAreReadWholeAndARunningRunIsNeverReduced) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    std::vector<radt::Run> runs = buildRuns(*store, 3, 3);
    ChartLoader loader;
    loader.setStoreUri(m_uri, true);
    ChartPanel chart;
    chart.resize(900, 500);
    loader.requestChart(&chart, runs, QString::fromStdString(kKey));
    ASSERT_TRUE(loader.waitIdle(30000));
    ASSERT_EQ(chart.engine().runs().size(), 3u);
    if (!store->prefersEnvelopes()) {
        for (const ChartRunData& r : chart.engine().runs()) {
            EXPECT_FALSE(r.reduced) << "three runs are read whole: zooming needs no second read";
            EXPECT_EQ(r.series.size(), size_t(kPoints));
        }
    }

    // Many runs, one of them still recording: it is followed live, so it is read as it is.
    std::vector<radt::Run> many = buildRuns(*store, 8, 8);
    radt::Run running = store->createRun({0, "running", kStart, "u", "s", RunStatus::Running});
    store->logMetrics(running.uuid, {{kKey, 1.0, kStart, 0}, {kKey, 2.0, kStart + 1000, 0}});
    many.push_back(*store->run(running.uuid));
    loader.requestChart(&chart, many, QString::fromStdString(kKey));
    ASSERT_TRUE(loader.waitIdle(30000));
    ASSERT_EQ(chart.engine().runs().size(), 9u);
    EXPECT_EQ(chart.engine().runs().back().series.size(), 2u) << "every point of the running run";
    if (!store->prefersEnvelopes()) { // a server reduces whatever it sends; SQLite's is the run itself
        EXPECT_FALSE(chart.engine().runs().back().reduced);
    }
    EXPECT_TRUE(chart.engine().runs().front().reduced);
}

// Hundreds of overlaid lines are drawn as their joined extremes, one pixel wide: a translucent
// range band per line took seconds a frame and shows nothing one could read among 500. The
// legend that cannot fit says so at once rather than laying out every name in vain.
TEST(ManyLines, AreDrawnAsTheirExtremesAndTheLegendSaysWhereTheNamesAre) {
    auto lines = [](int count) {
        std::vector<ChartRunData> runs;
        for (int r = 0; r < count; ++r) {
            ChartRunData d;
            d.run.uuid = "run" + std::to_string(r);
            d.run.name = "run " + std::to_string(r);
            d.run.startTime = kStart;
            d.run.status = RunStatus::Finished;
            d.run.params = {{"workload", std::to_string(r + 1)}, {"letter", "0"}};
            for (int i = 0; i < 8000; ++i) {
                d.series.t.push_back(kStart + 1000 * int64_t(i));
                d.series.step.push_back(0);
                d.series.v.push_back(100 + (i * 7919 + r) % 50);
            }
            runs.push_back(std::move(d));
        }
        return runs;
    };
    ChartPanel chart;
    chart.resize(900, 500);
    chart.setData(lines(8), QString::fromStdString(kKey));
    ASSERT_EQ(chart.engine().seriesCount(), 8);
    EXPECT_TRUE(chart.engine().drawnAsRange(0)) << "8 dense lines: each its mean and range";

    chart.setData(lines(100), QString::fromStdString(kKey));
    ASSERT_EQ(chart.engine().seriesCount(), 100);
    for (size_t i = 0; i < 100; ++i)
        ASSERT_FALSE(chart.engine().drawnAsRange(i)) << i;
    EXPECT_EQ(chart.legend().note(), "100 lines: hover for names");

    // The crosshair reads the 10 highest and 5 lowest lines (what a plot this tall holds), and
    // says how many it left out.
    chart.resize(900, 900);
    chart.show();
    QCoreApplication::processEvents();
    const QStringList rows = chart.showCrosshairAt(100).split('\n');
    ASSERT_EQ(rows.size(), 1 + 1 + 10 + 1 + 5) << rows.join('\n').toStdString();
    EXPECT_EQ(rows[1], "100 lines: the 10 highest and 5 lowest");
    EXPECT_EQ(rows[12], "… 85 lines between");
    auto valueOf = [](const QString& row) { return row.section(": ", -1).toDouble(); };
    for (int i = 3; i < 12; ++i)
        EXPECT_GE(valueOf(rows[i - 1]), valueOf(rows[i])) << "highest first";
    EXPECT_GE(valueOf(rows[11]), valueOf(rows[13]));

    chart.resize(900, 300); // a laptop's board of several charts: fewer rows, never off the plot
    QCoreApplication::processEvents();
    const int fewer = int(chart.showCrosshairAt(100).split('\n').size());
    EXPECT_LT(fewer, 18);
    EXPECT_GE(fewer, 1 + 1 + 4 + 1 + 2) << "at least 4 highest and 2 lowest";
    EXPECT_LE(chart.crosshair().boxRect().height(), 300) << "the box fits the chart";
}

// On both stores: twelve runs of a sweep (3 batch sizes x 4 seeds) read through the
// loader from SQLite and from PostgreSQL group into three mean lines per configuration, named and
// ordered as radt report names them, each over its four runs with a band.
TEST_P(ManyRunsChart, ASweepGroupsIntoAMeanLinePerConfigurationOnEitherStore) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    test::addSweepRuns(*store);
    const std::vector<radt::Run> runs = store->runs();
    ASSERT_EQ(runs.size(), 12u);
    ChartLoader loader;
    loader.setStoreUri(m_uri);
    ChartPanel chart;
    chart.resize(900, 500);
    chart.changeOptions([](ChartOptions& o) { o.grouping = ChartOptions::Grouping::Configuration; });
    loader.requestChart(&chart, runs, QStringLiteral("DCGMI - Power Usage"));
    ASSERT_TRUE(loader.waitIdle(30000));
    QStringList names;
    for (const ChartLine& line : chart.engine().lines()) {
        names << line.name;
        EXPECT_EQ(line.runs.size(), 4u) << line.name.toStdString();
        EXPECT_TRUE(line.bandLow.has_value()) << "a mean of four runs has its band";
    }
    EXPECT_EQ(names, (QStringList{"batch-size=64 (N=4)", "batch-size=128 (N=4)", "batch-size=256 (N=4)"}));
    // Known series: each run draws a flat 100 W + its batch size for 100 s + 20 s per batch step +
    // its seed. The mean is that draw with no spread, over the 4 runs while all run, then over
    // those still running (seed 3 and 4 of batch 64 after 102 s), never over one.
    const ChartLine& first = chart.engine().lines().front();
    const std::vector<BandRow> rows = bandRows(chart.engine().runs(), first.runs, chart.engine().options());
    ASSERT_FALSE(rows.empty());
    for (const BandRow& row : rows) {
        EXPECT_DOUBLE_EQ(row.mean, 164.0) << "batch size 64 draws 164 W at x " << row.x;
        EXPECT_DOUBLE_EQ(row.low, 164.0);
        EXPECT_DOUBLE_EQ(row.high, 164.0);
        EXPECT_EQ(row.n, row.x <= 101000 ? 4u : row.x <= 102000 ? 3u : 2u) << "at x " << row.x;
    }
    EXPECT_EQ(rows.back().x, 103000) << "the mean ends where a second run ends";

    // A board round trip (saved, read, drawn detached) draws the same lines with the same means.
    test::TempDir dir;
    Board board;
    board.charts.push_back(boardFromChart(chart, 1, {}));
    saveBoardFile(dir.file("grouped.json"), board);
    std::vector<BoardProblem> problems;
    const Board back = loadBoardFile(dir.file("grouped.json"), problems);
    ASSERT_TRUE(problems.empty());
    BoardChartView view = viewFromBoard(back.charts.at(0), 0, "grouped.json", problems);
    ChartPanel reopened;
    reopened.resize(900, 500);
    reopened.showDetached(std::move(view.runs), view.metric, view.options, view.zoom);
    QStringList again;
    for (const ChartLine& line : reopened.engine().lines())
        again << line.name;
    EXPECT_EQ(again, names);
    const std::vector<BandRow> rowsBack = bandRows(
        reopened.engine().runs(), reopened.engine().lines().front().runs, reopened.engine().options());
    ASSERT_EQ(rowsBack.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(rowsBack[i].x, rows[i].x);
        EXPECT_DOUBLE_EQ(rowsBack[i].mean, rows[i].mean);
        EXPECT_EQ(rowsBack[i].n, rows[i].n);
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, ManyRunsChart, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });
