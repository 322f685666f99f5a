// From a chart's runs to its lines, as a person reads them: names that tell the lines apart, and a
// workload whose runs ran one after another drawn as a mean with a band, never a zigzag.

#include "widgets/board/BoardIo.h"
#include "widgets/chart/engine/ChartLines.h"

#include <gtest/gtest.h>

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
    const std::vector<ChartLine> lines = buildChartLines(runs, ChartOptions{});
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
