// SPDX-License-Identifier: MIT
// From a chart's runs to its lines, as a person reads them: names that tell the lines apart, and a
// workload whose runs ran one after another drawn as a mean with a band, never a zigzag.

#include "widgets/board/BoardIo.h"
#include "widgets/chart/SummaryPanel.h"
#include "widgets/chart/engine/ChartEngine.h"
#include "widgets/chart/engine/ChartLines.h"
#include "widgets/chart/engine/ChartOptionsJson.h"

#include <gtest/gtest.h>

#include <cmath>

#include <QStringList>

using namespace radt;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

ChartRunData makeRun(const std::string& uuid, int64_t experimentId, const std::string& experimentName,
                     std::map<std::string, std::string> params, int64_t start, int64_t seconds,
                     double value = 1.0, const std::string& name = "") {
    ChartRunData d;
    d.run.uuid = uuid;
    d.run.name = name;
    d.run.experimentId = experimentId;
    d.run.startTime = start;
    d.run.endTime = start + seconds * 1000;
    d.run.status = RunStatus::Finished;
    d.run.params = std::move(params);
    d.experimentName = experimentName;
    for (int64_t i = 0; i < seconds; ++i) {
        d.series.t.push_back(start + i * 1000);
        d.series.step.push_back(0);
        d.series.v.push_back(value);
    }
    return d;
}

QStringList namesOf(const std::vector<ChartRunData>& runs, const ChartOptions& options = {}) {
    QStringList names;
    for (const ChartLineGroup& g : groupChartRuns(runs, options))
        names << g.name;
    return names;
}

} // namespace

TEST(ChartLineNames, LinesAreNamedByTheParamsThatDifferBetweenThem) {
    const std::vector<ChartRunData> runs = {
        makeRun("aaaaa1", 1, "resnet",
                {{"workload", "1"}, {"letter", "0"}, {"batch-size", "128"}, {"lr", "0.1"}}, kStart, 10),
        makeRun("bbbbb2", 1, "resnet",
                {{"workload", "2"}, {"letter", "0"}, {"batch-size", "256"}, {"lr", "0.1"}}, kStart + 20'000,
                10),
    };
    EXPECT_EQ(namesOf(runs), (QStringList{"batch-size=128", "batch-size=256"}))
        << "lr is the same for both: it tells nothing apart";
    ChartOptions radt;
    radt.naming = ChartOptions::Naming::RadtIds;
    EXPECT_EQ(namesOf(runs, radt), (QStringList{"1-1", "1-2"})) << "radT's ids stay an option";
}

TEST(ChartLineNames, RunsFromSeveralExperimentsNameTheExperiment) {
    const std::vector<ChartRunData> runs = {
        makeRun("aaaaa1", 1, "alone", {{"workload", "0"}, {"letter", "0"}}, kStart, 10),
        makeRun("bbbbb2", 2, "collocated", {{"workload", "0"}, {"letter", "0"}}, kStart, 10),
    };
    EXPECT_EQ(namesOf(runs), (QStringList{"alone: workload 0", "collocated: workload 0"}))
        << "not \"1-0\" and \"2-0\", and never one name twice";
}

TEST(ChartLineNames, RunsShownAloneUseTheirNameAndStayApartWhenNamedAlike) {
    std::vector<ChartRunData> runs = {
        makeRun("aaaaa1", 1, "e", {{"model", "x.py"}}, kStart, 10, 1.0, "x.py"),
        makeRun("bbbbb2", 1, "e", {{"model", "x.py"}}, kStart, 10, 1.0, "x.py"),
        makeRun("ccccc3", 1, "e", {{"model", "y.py"}}, kStart, 10, 1.0, "y.py"),
    };
    const QStringList names = namesOf(runs);
    ASSERT_EQ(names.size(), 3);
    EXPECT_EQ(names[2], "model=y.py");
    EXPECT_NE(names[0], names[1]) << "two runs of x.py must be told apart";
    EXPECT_TRUE(names[0].startsWith("model=x.py (")) << names[0].toStdString();
    EXPECT_TRUE(names[0].contains("aaaaa")) << "radT's id of the run tells them apart";
}

TEST(ChartLineAggregate, AWorkloadWhoseRunsRanOneAfterAnotherIsDrawnAsAMeanWithABand) {
    // Workload 1: two runs one after another (a repeat): 10 and 30 -> mean 20, band 10..30.
    // Workload 2: two runs collocated (at the same time): radT's literal merge.
    const std::vector<ChartRunData> runs = {
        makeRun("a1", 1, "e", {{"workload", "1"}, {"letter", "0"}}, kStart, 20, 10.0),
        makeRun("a2", 1, "e", {{"workload", "1"}, {"letter", "1"}}, kStart + 60'000, 20, 30.0),
        makeRun("b1", 1, "e", {{"workload", "2"}, {"letter", "0_A"}}, kStart, 20, 5.0),
        makeRun("b2", 1, "e", {{"workload", "2"}, {"letter", "0_B"}}, kStart + 500, 20, 7.0),
    };
    EXPECT_FALSE(ranTogether(runs, {0, 1}));
    EXPECT_TRUE(ranTogether(runs, {2, 3}));
    ChartOptions minMax;
    minMax.band = ChartOptions::Band::MinMax;
    const std::vector<ChartLine> lines = buildChartLines(runs, minMax);
    ASSERT_EQ(lines.size(), 2u);
    ASSERT_TRUE(lines[0].bandLow && lines[0].bandHigh) << "runs one after another: mean and band";
    std::vector<int64_t> t;
    std::vector<double> v, low, high;
    lines[0].pyramid.query(0, 20'000, 1000, t, v);
    ASSERT_FALSE(v.empty());
    for (double y : v)
        EXPECT_DOUBLE_EQ(y, 20.0) << "the mean, not a zigzag between 10 and 30";
    lines[0].bandLow->query(0, 20'000, 1000, t, low);
    lines[0].bandHigh->query(0, 20'000, 1000, t, high);
    EXPECT_DOUBLE_EQ(*std::min_element(low.begin(), low.end()), 10.0);
    EXPECT_DOUBLE_EQ(*std::max_element(high.begin(), high.end()), 30.0);
    EXPECT_FALSE(lines[1].bandLow) << "collocated runs merge as radT merges them";
    EXPECT_EQ(lines[1].pyramid.size(), 40u);

    ChartOptions merge;
    merge.aggregate = ChartOptions::Aggregate::Merge;
    EXPECT_FALSE(buildChartLines(runs, merge)[0].bandLow) << "radT's merge on request";
}

TEST(ChartLineNames, ARadtBoardKeepsRadtsNamesAndMerge) {
    BoardChart chart;
    chart.metric = "loss";
    for (const char* letter : {"0", "1"}) {
        BoardRun run;
        run.uuid = std::string("run") + letter;
        run.experimentId = 1;
        run.workload = "1-1";
        run.letter = letter;
        run.startTime = kStart + (letter[0] - '0') * 60'000; // one after another
        run.duration = 10'000;
        run.points.t = {*run.startTime, *run.startTime + 1000};
        run.points.step = {0, 1};
        run.points.v = {1, 2};
        chart.runs.push_back(run);
    }
    chart.hiddenSeries = {"1-1"};
    std::vector<BoardProblem> problems;
    const BoardChartView view = viewFromBoard(chart, 0, "board.json", problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(view.options.naming, ChartOptions::Naming::RadtIds);
    EXPECT_EQ(view.options.aggregate, ChartOptions::Aggregate::Merge);
    EXPECT_EQ(namesOf(view.runs, view.options), QStringList{"1-1"}) << "its hidden series still match";
}

TEST(ChartLineNames, TheFewestTellingParamsNameTheLinesUserParamsFirst) {
    // The H200 experiment's layout (tests/fixtures/runs/h200_matmul_experiment.csv): sizes with their
    // iteration counts, seeds, and collocated pairs whose two runs have different seeds.
    std::vector<ChartRunData> runs;
    auto add = [&](const std::string& workload, const std::string& letter, const std::string& size,
                   const std::string& seed, const std::string& collocation) {
        runs.push_back(makeRun("run" + workload + letter, 1, "h200-matmul",
                               {{"workload", workload},
                                {"letter", letter},
                                {"model", "gpu_matmul.py"},
                                {"collocation", collocation},
                                {"size", size},
                                {"iters", size == "8192" ? "60" : "480"},
                                {"seed", seed}},
                               kStart, 10));
    };
    add("1", "0", "8192", "1", "-");
    add("2", "0", "8192", "2", "-");
    add("4", "0", "4096", "1", "-");
    add("7", "0_A", "8192", "1", "mps");
    add("7", "0_B", "8192", "2", "mps");
    const QStringList names = namesOf(runs);
    ASSERT_EQ(names.size(), 4) << "workload 7's two runs are one line";
    EXPECT_EQ(names[0], "seed=1 iters=60")
        << "the seed tells most apart; size adds nothing once iters is said";
    EXPECT_EQ(names[1], "seed=2 iters=60");
    EXPECT_EQ(names[2], "seed=1 iters=480");
    EXPECT_EQ(names[3], "iters=60") << "its seeds differ; the user's params already tell it apart";
    runs.pop_back();
    runs.pop_back();
    add("8", "0", "8192", "1", "mps");
    EXPECT_EQ(namesOf(runs).back(), "iters=60 seed=1 collocation=mps")
        << "radT's collocation where the user's params do not tell the line apart";
    for (const QString& name : names)
        EXPECT_FALSE(name.contains("collocation=-")) << "an unset value is never said";
}

namespace {

/// The sweep: batch sizes 64, 128, 256 x seeds 1-4, in the order 256, 64, 128. Run (b, s)
/// reads base(b) + s for 20 s (base 10, 20, 30); batch size 64's seed 4 runs 30 s, so for its last
/// 10 s it alone has data.
std::vector<ChartRunData> sweepRuns() {
    std::vector<ChartRunData> runs;
    int64_t start = kStart;
    int n = 0;
    for (const int batch : {256, 64, 128})
        for (int seed = 1; seed <= 4; ++seed) {
            const double base = batch == 64 ? 10 : batch == 128 ? 20 : 30;
            const int64_t seconds = batch == 64 && seed == 4 ? 30 : 20;
            ++n; // before the call: its arguments read n in no set order
            runs.push_back(makeRun("run" + std::to_string(n), 1, "sweep",
                                   {{"workload", std::to_string(n)},
                                    {"letter", "0"},
                                    {"model", "train.py"},
                                    {"batch-size", std::to_string(batch)},
                                    {"seed", std::to_string(seed)}},
                                   start, seconds, base + seed));
            start += 100'000; // one after another
        }
    return runs;
}

/// A line's values (mean, or a band edge) at x = 0, 5, 10 s since start.
std::vector<double> at(const SeriesPyramid& p, const std::vector<int64_t>& xs) {
    std::vector<int64_t> t;
    std::vector<double> v, out;
    p.query(0, 40'000, 40'000, t, v); // every point: one per bin of 1 s
    for (const int64_t x : xs)
        for (size_t i = 0; i < t.size(); ++i)
            if (t[i] == x)
                out.push_back(v[i]);
    return out;
}

} // namespace

TEST(ChartLineGroups, TwelveSeedsOfThreeConfigurationsAreThreeMeansWithTheirBandAndN) {
    const std::vector<ChartRunData> runs = sweepRuns();
    ChartOptions o;
    EXPECT_EQ(o.band, ChartOptions::Band::MinMax) << "the seeds' own spread by default";
    o.grouping = ChartOptions::Grouping::Configuration;
    o.band = ChartOptions::Band::Ci95;
    const std::vector<ChartLine> lines = buildChartLines(runs, o);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].name, "batch-size=64 (N=4)") << "the params' order, numbers as numbers";
    EXPECT_EQ(lines[1].name, "batch-size=128 (N=4)");
    EXPECT_EQ(lines[2].name, "batch-size=256 (N=4)");
    // Seeds 1-4 around base: mean base + 2.5, sd of {1, 2, 3, 4} = 1.2909944, and the 95 % CI's
    // half-width t(0.975, 3) sd / sqrt(4) = 3.1824463 * 1.2909944 / 2 = 2.0542740.
    const double sd = 1.2909944487358056, half = 3.182446305284263 * sd / 2;
    const std::vector<int64_t> xs = {0, 5000, 10'000, 19'000};
    for (size_t l = 0; l < 3; ++l) {
        const double mean = 10.0 * double(l + 1) + 2.5;
        ASSERT_TRUE(lines[l].bandLow && lines[l].bandHigh) << l;
        const auto means = at(lines[l].pyramid, xs), lows = at(*lines[l].bandLow, xs),
                   highs = at(*lines[l].bandHigh, xs);
        ASSERT_EQ(means.size(), xs.size()) << l;
        for (size_t i = 0; i < xs.size(); ++i) {
            EXPECT_NEAR(means[i], mean, 1e-12) << lines[l].name.toStdString() << " x " << xs[i];
            EXPECT_NEAR(lows[i], mean - half, 1e-9);
            EXPECT_NEAR(highs[i], mean + half, 1e-9);
        }
    }
    // Where one run alone has data (64's seed 4 after 20 s) there is no mean: it would read as
    // the group's.
    EXPECT_EQ(lines[0].pyramid.lastTime(), 19000);
    const std::vector<BandRow> rows = bandRows(runs, lines[0].runs, o);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.front().n, 4u);
    EXPECT_EQ(rows.back().x, 19'000);

    o.band = ChartOptions::Band::Sd;
    const std::vector<ChartLine> sdLines = buildChartLines(runs, o);
    EXPECT_NEAR(at(*sdLines[1].bandLow, {5000}).at(0), 22.5 - sd, 1e-9);
    EXPECT_NEAR(at(*sdLines[1].bandHigh, {5000}).at(0), 22.5 + sd, 1e-9);
    o.band = ChartOptions::Band::MinMax;
    const std::vector<ChartLine> rangeLines = buildChartLines(runs, o);
    EXPECT_DOUBLE_EQ(at(*rangeLines[2].bandLow, {5000}).at(0), 31.0);
    EXPECT_DOUBLE_EQ(at(*rangeLines[2].bandHigh, {5000}).at(0), 34.0);
    // Log y keeps what it can draw; smoothing a constant changes nothing.
    o.logY = true;
    o.smoothing = 60;
    EXPECT_NEAR(at(buildChartLines(runs, o)[0].pyramid, {5000}).at(0), 12.5, 1e-9);
}

// The run page's "Overlay on Its History": a finished run set apart is drawn on its own over its
// configuration's mean and band, and its values are in neither.
TEST(ChartLineGroups, ARunSetApartIsDrawnOverItsConfigurationsMeanAndNotInIt) {
    std::vector<ChartRunData> runs = sweepRuns();
    for (double& v : runs[4].series.v)
        v = 1000; // batch size 64, seed 1: the run judged, far off its history
    ChartOptions o;
    o.grouping = ChartOptions::Grouping::Configuration;
    o.apartRuns = {QString::fromStdString(runs[4].run.uuid)};
    const std::vector<ChartLine> lines = buildChartLines(runs, o);
    ASSERT_EQ(lines.size(), 4u); // three configurations and the run
    EXPECT_EQ(lines[0].name, "batch-size=64 (N=3)");
    EXPECT_TRUE(lines[1].name.startsWith("batch-size=64: ") && lines[1].name.endsWith("(this run, not in N)"))
        << lines[1].name.toStdString();
    EXPECT_NEAR(at(lines[0].pyramid, {5000}).at(0), (12.0 + 13.0 + 14.0) / 3, 1e-12) << "seeds 2 to 4 only";
    EXPECT_DOUBLE_EQ(at(lines[1].pyramid, {5000}).at(0), 1000.0);
    // Its history alone in the chart: the run's line needs no configuration's name, and says
    // first that it is the run (a narrow legend elides the middle).
    std::vector<ChartRunData> history(runs.begin() + 4, runs.begin() + 8);
    const std::vector<ChartLine> alone = buildChartLines(history, o);
    ASSERT_EQ(alone.size(), 2u);
    EXPECT_TRUE(alone[1].name.startsWith("this run: ") && alone[1].name.endsWith(" (not in N)"))
        << alone[1].name.toStdString();
}

// A FAILED and a RUNNING run were averaged into their configuration's mean and N ("N=4, mean
// 80.5" where the finished repeats give 11) while `radt report` left them out: one rule now
// (countsAsRepeat), and each unfinished run is a line of its own that says why it is not in N.
TEST(ChartLineGroups, OnlyFinishedRunsAreInAMeanAndTheOthersAreLinesOfTheirOwnThatSaySo) {
    std::vector<ChartRunData> runs = sweepRuns();
    runs[4].run.status = RunStatus::Failed;  // batch size 64, seed 1 (value 11)
    runs[5].run.status = RunStatus::Running; // seed 2 (value 12)
    runs[5].run.endTime.reset();
    for (double& v : runs[4].series.v)
        v = 1000; // a failed run's values far off: they must not move the mean
    ChartOptions o;
    o.grouping = ChartOptions::Grouping::Configuration;
    const std::vector<ChartLine> lines = buildChartLines(runs, o);
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0].name, "batch-size=64 (N=2)");
    EXPECT_TRUE(lines[1].name.startsWith("batch-size=64: ") && lines[1].name.endsWith("(failed, not in N)"))
        << lines[1].name.toStdString();
    EXPECT_TRUE(lines[2].name.endsWith("(running, not in N)")) << lines[2].name.toStdString();
    EXPECT_FALSE(lines[1].bandLow) << "a run on its own: no band";
    EXPECT_EQ(lines[3].name, "batch-size=128 (N=4)");
    EXPECT_NEAR(at(lines[0].pyramid, {5000}).at(0), 13.5, 1e-12) << "seeds 3 and 4 only";
    EXPECT_DOUBLE_EQ(at(lines[1].pyramid, {5000}).at(0), 1000.0);
    // Grouping by picked params follows the same rule.
    o.grouping = ChartOptions::Grouping::Params;
    o.groupParams = {"batch-size"};
    EXPECT_EQ(namesOf(runs, o).front(), "batch-size=64 (N=2)");
    // All of a configuration's runs unfinished: no mean line at all, only theirs.
    for (size_t i = 6; i < 8; ++i)
        runs[i].run.status = RunStatus::Killed;
    runs[4].run.status = RunStatus::Killed;
    runs[5].run.status = RunStatus::Killed;
    const QStringList names = namesOf(runs, o);
    EXPECT_EQ(names.size(), 4 + 2) << names.join(" | ").toStdString();
    EXPECT_FALSE(names.contains("batch-size=64 (N=0)"));
}

// Values near 1e200 squared overflowed the sd, so the band was [-inf, inf] and washed out every
// line of the chart; a band that is finite is drawn, one wider than a double is left out and said.
TEST(ChartLineGroups, HugeValuesKeepAFiniteBandAndOneTooWideIsLeftOutAndSaid) {
    std::vector<ChartRunData> runs;
    for (int i = 0; i < 3; ++i)
        runs.push_back(
            makeRun("big" + std::to_string(i), 1, "e", {{"size", "big"}}, kStart, 10, (i + 1) * 1e200));
    for (int i = 0; i < 3; ++i)
        runs.push_back(
            makeRun("max" + std::to_string(i), 1, "e", {{"size", "max"}}, kStart, 10, i == 2 ? 0 : 1e308));
    ChartOptions o;
    o.grouping = ChartOptions::Grouping::Configuration;
    o.band = ChartOptions::Band::Ci95;
    const std::vector<ChartLine> lines = buildChartLines(runs, o);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].name, "size=big (N=3)");
    ASSERT_TRUE(lines[0].bandLow);
    // Mean 2e200, sd 1e200, half-width t(0.975, 2) * 1e200 / sqrt(3).
    const double half = 4.302652729911275 * 1e200 / std::sqrt(3.0);
    EXPECT_NEAR(at(lines[0].pyramid, {5000}).at(0) / 2e200, 1.0, 1e-12);
    EXPECT_NEAR(at(*lines[0].bandHigh, {5000}).at(0) / (2e200 + half), 1.0, 1e-9);
    EXPECT_EQ(lines[1].name, "size=max (N=3) (band too wide to draw)");
    EXPECT_FALSE(lines[1].bandLow);
    EXPECT_TRUE(lines[1].isMeanLine());
    EXPECT_NEAR(at(lines[1].pyramid, {5000}).at(0) / (1e308 / 3 * 2), 1.0, 1e-12) << "its mean is drawn";
}

TEST(ChartLineGroups, LinesGroupByThePickedParamsOrNotAtAll) {
    const std::vector<ChartRunData> runs = sweepRuns();
    ChartOptions o;
    o.grouping = ChartOptions::Grouping::Params;
    o.groupParams = {"seed"};
    EXPECT_EQ(namesOf(runs, o),
              (QStringList{"seed=1 (N=3)", "seed=2 (N=3)", "seed=3 (N=3)", "seed=4 (N=3)"}));
    o.groupParams = {"seed", "batch-size"};
    EXPECT_EQ(namesOf(runs, o).size(), 12) << "every run differs in the two";
    EXPECT_EQ(namesOf(runs, o).front(), "seed=1 batch-size=64 (N=1)") << "the param with more values first";
    o.grouping = ChartOptions::Grouping::None;
    EXPECT_EQ(buildChartLines(runs, o).size(), 12u);
    for (const ChartLine& line : buildChartLines(runs, o))
        EXPECT_FALSE(line.bandLow);
    // Params read from the script's argument string group as logged ones do.
    std::vector<ChartRunData> fromArgs;
    for (int i = 0; i < 4; ++i)
        fromArgs.push_back(makeRun(
            "r" + std::to_string(i), 1, "e",
            {{"params", "--batch-size " + std::to_string(i < 2 ? 512 : 32) + " --seed " + std::to_string(i)}},
            kStart + i * 100'000, 5, double(i)));
    o.grouping = ChartOptions::Grouping::Configuration;
    EXPECT_EQ(namesOf(fromArgs, o), (QStringList{"batch-size=32 (N=2)", "batch-size=512 (N=2)"}));
}

TEST(ChartLineGroups, AGroupingIsKeptInBoardsAndSessions) {
    ChartOptions o;
    o.grouping = ChartOptions::Grouping::Params;
    o.groupParams = {"batch-size", "lr"};
    o.band = ChartOptions::Band::Sd;
    ChartOptions back;
    std::vector<std::string> problems;
    chartOptionsFromJson(
        chartOptionsToJson(o, true), back,
        [&](const std::string& key, const std::string& what) { problems.push_back(key + ": " + what); });
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(back.grouping, ChartOptions::Grouping::Params);
    EXPECT_EQ(back.groupParams, o.groupParams);
    EXPECT_EQ(back.band, ChartOptions::Band::Sd);
    // A board written before bands had a choice keeps its min-to-max band.
    ChartOptions old;
    chartOptionsFromJson({{"aggregate", "meanband"}}, old, [](const std::string&, const std::string&) {});
    EXPECT_EQ(old.band, ChartOptions::Band::MinMax);
    // Broken values are refused, naming the key.
    ChartOptions broken;
    chartOptionsFromJson({{"grouping", "by-magic"}, {"groupParams", {"seed", 3}}, {"band", 7}}, broken,
                         [&](const std::string& key, const std::string&) { problems.push_back(key); });
    EXPECT_EQ(problems, (std::vector<std::string>{"grouping", "band", "groupParams"}));
    EXPECT_EQ(broken.grouping, ChartOptions::Grouping::Workload);
}

TEST(ChartLineGroups, TheSummaryGetsARowPerGroupOfItsMeanLine) {
    ChartEngine engine;
    engine.setData(sweepRuns(), QStringLiteral("power"));
    EXPECT_TRUE(SummaryPanel::groupRows(engine).empty()) << "workloads of one run each: no mean";
    ChartOptions o = engine.options();
    o.grouping = ChartOptions::Grouping::Configuration;
    engine.setOptions(o);
    engine.rebuildLines();
    const std::vector<SummaryRow> rows = SummaryPanel::groupRows(engine);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].line, "batch-size=64 (N=4)");
    EXPECT_EQ(rows[0].label, "mean of 4");
    EXPECT_EQ(rows[0].metric, "power");
    EXPECT_TRUE(rows[0].runUuid.empty()) << "a group, not a run";
    // The mean line of seeds 1-4 around 10: 12.5 over the 20 s where more than one run has data.
    EXPECT_DOUBLE_EQ(rows[0].stats.mean, 12.5);
    EXPECT_DOUBLE_EQ(rows[2].stats.max, 32.5);
    EXPECT_EQ(rows[0].stats.samples, 20u);
}

// The two jobs of an MPS pair ran at the same time on one GPU: per configuration they were drawn in
// one mean with the runs that had a GPU alone ("iters=60 (N=9)" over 3 solo runs and 3 pairs). The
// chart keys configurations as `radt report` does, by how many runs shared the GPU.
TEST(ChartLineGroups, CollocatedJobsAreNotRepeatsOfARunAlone) {
    std::vector<ChartRunData> runs;
    int64_t start = kStart;
    for (const char* workload : {"1", "2"}) { // alone, one after another
        runs.push_back(makeRun(std::string("solo") + workload, 1, "e",
                               {{"workload", workload}, {"letter", "0"}, {"devices", "0"}, {"iters", "60"}},
                               start, 10, 100));
        start += 100'000;
    }
    for (const char* letter : {"0_A", "0_B"}) // a pair on GPU 0 at once
        runs.push_back(makeRun(std::string("pair") + letter, 1, "e",
                               {{"workload", "3"}, {"letter", letter}, {"devices", "0"}, {"iters", "60"}},
                               start, 10, 300));
    ChartOptions o;
    o.grouping = ChartOptions::Grouping::Configuration;
    // The pair's N counts its workload, as the report's and the Insights view's N do.
    EXPECT_EQ(namesOf(runs, o), (QStringList{"runs_per_gpu=1 (N=2)", "runs_per_gpu=2 (N=1)"}));
    // A workload's two runs on GPUs of their own are two repeats of a run alone, each counted.
    start += 100'000;
    for (const char* letter : {"0_A", "0_B"})
        runs.push_back(makeRun(std::string("apart") + letter, 1, "e",
                               {{"workload", "4"},
                                {"letter", letter},
                                {"devices", letter[2] == 'A' ? "0" : "1"},
                                {"iters", "60"}},
                               start, 10, 100));
    EXPECT_EQ(namesOf(runs, o), (QStringList{"runs_per_gpu=1 (N=4)", "runs_per_gpu=2 (N=1)"}));
}
