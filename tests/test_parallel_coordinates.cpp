// SPDX-License-Identifier: MIT
// The parallel coordinates' engine without a widget (widgets/compare/ParallelEngine.h
// §3): a real SQLite store of a batch-size sweep (3 batch sizes x 4 seeds) read as the view reads
// it (readComparison: the Insights figures and metric stats), its axes, each run's values, the
// numeric order of categories, log axes, hit testing and brushing, with no QWidget made.

#include "SweepTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "widgets/compare/ColourScale.h"
#include "widgets/compare/ColumnScale.h"
#include "widgets/compare/CompareExport.h"
#include "widgets/compare/CompareReader.h"
#include "widgets/compare/CompareTable.h"
#include "widgets/compare/ParallelEngine.h"
#include "widgets/compare/ScatterEngine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace radt;

namespace {

struct Sweep {
    test::TempDir dir;
    std::vector<test::SweepRun> runs;
    CompareResult result;
    ParallelEngine engine;

    Sweep() {
        auto store = openStore("sqlite:///" + dir.file("sweep.db"), OpenMode::CreateIfMissing);
        runs = test::addSweepRuns(*store);
        CompareRequest request;
        for (const test::SweepRun& r : runs)
            request.uuids.push_back(r.uuid);
        result = readComparison(*store, request);
        engine.setTable(buildCompareTable(result.runs, result.report, result.stats));
        engine.setPlotRect(QRectF(100, 50, 700, 400));
    }
    /// The sweep run that is row `row` of the table.
    const test::SweepRun& sweepRun(size_t row) const {
        const std::string uuid = engine.table().runs.at(row).uuid.toStdString();
        return *std::find_if(runs.begin(), runs.end(),
                             [&](const test::SweepRun& r) { return r.uuid == uuid; });
    }
    std::set<std::string> uuidsWhere(const std::function<bool(const test::SweepRun&)>& pick) const {
        std::set<std::string> out;
        for (const test::SweepRun& r : runs)
            if (pick(r))
                out.insert(r.uuid);
        return out;
    }
    std::set<std::string> selected() const {
        std::set<std::string> out;
        for (const QString& u : engine.selectedUuids())
            out.insert(u.toStdString());
        return out;
    }
    const CompareColumn& column(const QString& id) const {
        const int c = engine.table().column(id);
        EXPECT_GE(c, 0) << id.toStdString();
        return engine.table().columns.at(size_t(std::max(c, 0)));
    }
};

} // namespace

TEST(ParallelCoordinates, AxesAreTheDifferingParamsAndTheChosenFigures) {
    Sweep s;
    ASSERT_EQ(s.engine.runCount(), 12u);
    // workload, letter and params differ too, but are radT's bookkeeping; model is the same in all.
    EXPECT_EQ(differingParams(s.result.runs), (std::vector<std::string>{"batch-size", "seed"}));
    QStringList params;
    for (const CompareColumn& c : s.engine.table().columns)
        if (c.isCategorical())
            params << c.id;
    EXPECT_EQ(params, (QStringList{"param:batch-size", "param:seed"}));
    // The accuracy was read first: it names accuracy, and its four stats are columns.
    EXPECT_EQ(s.result.preferredMetric, QStringLiteral("accuracy"));
    s.engine.setAxes({"param:batch-size", "param:seed", "figure:duration_s", "figure:gpu_energy_j",
                      metricColumnId("accuracy", MetricStat::Last), "no:such column"});
    EXPECT_EQ(s.engine.axisIds(), (QStringList{"param:batch-size", "param:seed", "figure:duration_s",
                                               "figure:gpu_energy_j", "metric:last:accuracy"}));
    EXPECT_EQ(s.engine.axisColumn(2).header(), QStringLiteral("Duration (s)"));
    EXPECT_EQ(s.engine.axisColumn(3).header(), QStringLiteral("GPU energy (J)"));
    EXPECT_EQ(s.engine.axisColumn(4).header(), QStringLiteral("accuracy (last)"));
    // Evenly spread over the plot, first and last on its edges.
    EXPECT_DOUBLE_EQ(s.engine.axisX(0), 100);
    EXPECT_DOUBLE_EQ(s.engine.axisX(4), 800);
    EXPECT_DOUBLE_EQ(s.engine.axisX(2), 450);
}

TEST(ParallelCoordinates, EachRunsValuesAreItsOwn) {
    Sweep s;
    const CompareColumn& batch = s.column("param:batch-size");
    const CompareColumn& seed = s.column("param:seed");
    const CompareColumn& duration = s.column("figure:duration_s");
    const CompareColumn& energy = s.column("figure:gpu_energy_j");
    const CompareColumn& last = s.column(metricColumnId("accuracy", MetricStat::Last));
    const CompareColumn& mean = s.column(metricColumnId("accuracy", MetricStat::Mean));
    const CompareColumn& low = s.column(metricColumnId("accuracy", MetricStat::Min));
    const CompareColumn& high = s.column(metricColumnId("accuracy", MetricStat::Max));
    for (size_t row = 0; row < s.engine.runCount(); ++row) {
        const test::SweepRun& r = s.sweepRun(row);
        SCOPED_TRACE(r.uuid);
        EXPECT_EQ(batch.text(row), QString::number(r.batch));
        EXPECT_EQ(seed.text(row), QString::number(r.seed));
        EXPECT_NEAR(duration.values[row], r.durationS, 1e-9);
        EXPECT_NEAR(energy.values[row], r.watts * r.durationS, r.watts * 1.0); // integrated power
        EXPECT_DOUBLE_EQ(last.values[row], r.accuracy.back());
        EXPECT_NEAR(mean.values[row], std::accumulate(r.accuracy.begin(), r.accuracy.end(), 0.0) / 5, 1e-12);
        EXPECT_DOUBLE_EQ(low.values[row], *std::min_element(r.accuracy.begin(), r.accuracy.end()));
        EXPECT_DOUBLE_EQ(high.values[row], *std::max_element(r.accuracy.begin(), r.accuracy.end()));
        // What hovering its line says: the run, its params, its figures.
        s.engine.setAxes({"param:batch-size", "figure:duration_s"});
        const QString hover = s.engine.describeRun(row);
        EXPECT_TRUE(hover.contains(QStringLiteral("batch-size=%1, seed=%2").arg(r.batch).arg(r.seed)))
            << hover.toStdString();
        EXPECT_TRUE(hover.contains(QStringLiteral("Duration: "))) << hover.toStdString();
    }
}

// A 1e308 value labelled its axis and the colour key with 309-digit numbers, and -1e308..1e308
// made a span no double holds. Labels are 4 significant digits; every value keeps a place.
TEST(ParallelCoordinates, HugeValuesGetShortLabelsAndAPlaceOnTheAxis) {
    CompareColumn column;
    column.kind = ColumnKind::Numeric;
    column.values = {1e308, 5, 2.5e307};
    for (const bool wide : {false, true}) {
        if (wide)
            column.values.push_back(-1.7e308);
        const ColumnScale scale(column, false, 400, 0);
        const std::vector<ScaleTick> ticks = scale.ticks();
        ASSERT_FALSE(ticks.empty());
        for (const ScaleTick& t : ticks)
            EXPECT_LE(t.label.size(), 11) << t.label.toStdString(); // 4 significant digits: -1.798e+308
        for (const double v : column.values) {
            const double pixel = scale.toPixel(v);
            EXPECT_TRUE(std::isfinite(pixel) && pixel >= 0 && pixel <= 400) << v << " at " << pixel;
        }
        EXPECT_GT(scale.toPixel(5), scale.toPixel(1e308)) << "larger is higher up (smaller y)";
    }
    // The colour key labels with the same ticks.
    for (const auto& [fraction, label] : ColourScale(column, false).legend()) {
        EXPECT_LE(label.size(), 11) << label.toStdString();
        EXPECT_TRUE(std::isfinite(fraction));
    }
}

TEST(ParallelCoordinates, CategoriesAreOrderedNumbersAsNumbers) {
    Sweep s;
    // As text "128" < "256" < "64"; as numbers 64 < 128 < 256.
    EXPECT_EQ(s.column("param:batch-size").categories, (QStringList{"64", "128", "256"}));
    EXPECT_TRUE(categoryLess("9", "10"));
    EXPECT_TRUE(categoryLess("0.001", "0.01"));
    EXPECT_TRUE(categoryLess("-3", "2"));
    EXPECT_TRUE(categoryLess("1e-4", "0.001"));
    EXPECT_TRUE(categoryLess("256", "adam"));     // numbers before text
    EXPECT_TRUE(categoryLess("run 2", "run 10")); // text in natural order
    EXPECT_TRUE(categoryLess("(none)", "sgd"));   // a run without the param first, unset as in the report
    // On the axis, bottom to top: 64, 128, 256, evenly.
    s.engine.setAxes({"param:batch-size"});
    const ColumnScale& scale = s.engine.scale(0);
    const auto ticks = scale.ticks();
    ASSERT_EQ(ticks.size(), 3u);
    EXPECT_EQ(ticks[0].label, QStringLiteral("64"));
    EXPECT_EQ(ticks[2].label, QStringLiteral("256"));
    const double y64 = scale.toPixel(0), y128 = scale.toPixel(1), y256 = scale.toPixel(2);
    EXPECT_GT(y64, y128); // lower on screen is larger y
    EXPECT_NEAR(y64 - y128, y128 - y256, 1e-9);
    for (size_t row = 0; row < s.engine.runCount(); ++row) {
        const double y = s.engine.point(row, 0).y();
        EXPECT_DOUBLE_EQ(y, s.sweepRun(row).batch == 64 ? y64 : s.sweepRun(row).batch == 128 ? y128 : y256);
    }
}

TEST(ParallelCoordinates, ALogAxisSpacesDecadesEvenly) {
    CompareColumn column;
    column.id = QStringLiteral("metric:last:lr");
    column.title = QStringLiteral("lr (last)");
    column.values = {1e-4, 1e-3, 1e-2, 1e-1};
    ASSERT_TRUE(ColumnScale::canLog(column));
    const ColumnScale log(column, true, 400, 0);
    ASSERT_TRUE(log.isLog());
    const double a = log.toPixel(1e-4), b = log.toPixel(1e-3), c = log.toPixel(1e-2), d = log.toPixel(1e-1);
    EXPECT_NEAR(a - b, b - c, 1e-9);
    EXPECT_NEAR(b - c, c - d, 1e-9);
    EXPECT_NEAR(log.toValue(log.toPixel(3e-3)), 3e-3, 1e-15);
    // Ticks at the powers of ten (and 2x, 5x: fewer than 3 decades would get them; here 3+).
    QStringList labels;
    for (const ScaleTick& t : log.ticks())
        labels << t.label;
    EXPECT_TRUE(labels.contains(QStringLiteral("0.001"))) << labels.join(' ').toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("0.01")));
    // Linear: 1e-4 and 1e-3 almost on top of each other.
    const ColumnScale linear(column, false, 400, 0);
    EXPECT_FALSE(linear.isLog());
    EXPECT_LT(std::fabs(linear.toPixel(1e-4) - linear.toPixel(1e-3)), 5.0);
    // A value of 0 or below: no log scale, whatever is asked.
    column.values.push_back(0);
    EXPECT_FALSE(ColumnScale::canLog(column));
    EXPECT_FALSE(ColumnScale(column, true, 400, 0).isLog());

    // On the engine: a log axis where the values allow one, none on a param.
    Sweep s;
    s.engine.setAxes({"param:batch-size", "figure:gpu_energy_j"});
    EXPECT_FALSE(s.engine.setLog(0, true));
    EXPECT_TRUE(s.engine.setLog(1, true));
    EXPECT_TRUE(s.engine.isLog(1));
    EXPECT_TRUE(s.engine.scale(1).isLog());
    const ColumnScale& energy = s.engine.scale(1);
    EXPECT_NEAR(energy.toPixel(1e4) - energy.toPixel(2e4), energy.toPixel(2e4) - energy.toPixel(4e4), 1e-9);
}

TEST(ParallelCoordinates, BrushingSelectsExactlyTheRunsInsideEveryBrush) {
    Sweep s;
    s.engine.setAxes({"param:batch-size", "param:seed", "figure:duration_s", "metric:last:accuracy"});
    EXPECT_FALSE(s.engine.hasBrush());
    EXPECT_EQ(s.engine.selectedRuns().size(), 12u); // no brush: every run
    // Batch sizes 128 and 256: a range over their ticks on the categorical axis.
    const ColumnScale& batch = s.engine.scale(0);
    s.engine.brushPixels(0, batch.toPixel(0.6), batch.toPixel(2.3));
    EXPECT_EQ(s.selected(), s.uuidsWhere([](const test::SweepRun& r) { return r.batch >= 128; }));
    // AND seeds 1 and 2 on the second axis: four runs.
    s.engine.setBrush(1, {-0.4, 1.4});
    EXPECT_EQ(s.selected(),
              s.uuidsWhere([](const test::SweepRun& r) { return r.batch >= 128 && r.seed <= 2; }));
    EXPECT_EQ(s.engine.selectedRuns().size(), 4u);
    // A numeric brush by pixels: durations from 121 s to 130 s (batch 128 is 121..124 s,
    // batch 256 is 141..144 s).
    s.engine.clearBrushes();
    const ColumnScale& duration = s.engine.scale(2);
    s.engine.brushPixels(2, duration.toPixel(130), duration.toPixel(121)); // dragged upwards
    EXPECT_NEAR(s.engine.brush(2)->low, 121, 1e-9);
    EXPECT_NEAR(s.engine.brush(2)->high, 130, 1e-9);
    EXPECT_EQ(s.selected(), s.uuidsWhere([](const test::SweepRun& r) { return r.batch == 128; }));
    // And accuracy above its median: the brushes AND together.
    s.engine.setBrush(3, {test::sweepAccuracy(128, 3, 5) - 1e-9, 10});
    EXPECT_EQ(s.selected(),
              s.uuidsWhere([](const test::SweepRun& r) { return r.batch == 128 && r.seed >= 3; }));
    // A brush that holds nothing: no run.
    s.engine.setBrush(1, {10, 11});
    EXPECT_TRUE(s.engine.selectedRuns().empty());
    // Brushes and axes survive a reread of the same runs (the basket changed elsewhere).
    s.engine.clearBrush(1);
    s.engine.setTable(s.engine.table());
    EXPECT_TRUE(s.engine.brush(2).has_value());
    EXPECT_EQ(s.selected(),
              s.uuidsWhere([](const test::SweepRun& r) { return r.batch == 128 && r.seed >= 3; }));
}

TEST(ParallelCoordinates, HitTestingNamesTheRunUnderThePoint) {
    Sweep s;
    s.engine.setAxes({"param:batch-size", "figure:duration_s"});
    for (size_t row = 0; row < s.engine.runCount(); ++row) {
        // Half way between the axes on its own line: that run; its duration is its own.
        const QPointF a = s.engine.point(row, 0), b = s.engine.point(row, 1);
        const int hit = s.engine.runAt((a + b) / 2, 1.0);
        ASSERT_GE(hit, 0);
        // Lines of one batch size cross at the first axis; half way they are apart.
        EXPECT_EQ(hit, int(row));
    }
    EXPECT_EQ(s.engine.runAt(QPointF(450, 5), 4), -1); // above every line
    EXPECT_EQ(s.engine.axisNear(108, 10), 0);
    EXPECT_EQ(s.engine.axisNear(450, 10), -1);
    // The scatter: batch size against duration, every run a point of its own.
    ScatterEngine scatter(s.engine);
    scatter.setColumns("param:batch-size", "figure:duration_s");
    scatter.setPlotRect(QRectF(50, 20, 500, 300));
    EXPECT_EQ(scatter.shownCount(), 12u);
    for (size_t row = 0; row < s.engine.runCount(); ++row)
        EXPECT_EQ(scatter.runAt(scatter.point(row), 2), int(row));
}

TEST(ParallelCoordinates, ColoursFollowTheChosenColumn) {
    Sweep s;
    s.engine.setAxes({"param:batch-size", "figure:duration_s"});
    s.engine.setColourBy("figure:duration_s");
    size_t shortest = 0, longest = 0;
    const CompareColumn& d = s.column("figure:duration_s");
    for (size_t row = 0; row < d.values.size(); ++row) {
        shortest = d.values[row] < d.values[shortest] ? row : shortest;
        longest = d.values[row] > d.values[longest] ? row : longest;
    }
    // Viridis: dark purple low, yellow high.
    EXPECT_LT(s.engine.colourOf(shortest).lightness(), s.engine.colourOf(longest).lightness());
    // The key's title in the unit its ticks are written in (the sweep's runs use 3.5-5.1 kJ).
    s.engine.setColourBy("figure:gpu_energy_j");
    EXPECT_EQ(s.engine.colours().title(), "GPU energy (kJ)");
    for (const auto& [fraction, label] : s.engine.colours().legend())
        EXPECT_TRUE(label.endsWith(" kJ")) << label.toStdString();
    s.engine.setColourBy("param:batch-size");
    EXPECT_TRUE(s.engine.colours().isCategorical());
    EXPECT_EQ(s.engine.colours().legend().size(), 3u);
    s.engine.setColourBy("no such column");
    EXPECT_TRUE(s.engine.colourBy().isEmpty());
}

// Per configuration: a row per configuration of the report, in its order, a numeric
// column the mean of its runs that have a value, a param column only where each configuration's
// runs agree; a run in no configuration (unfinished) is in no row, broken input gives no row.
TEST(ParallelCoordinates, PerConfigurationRowsAreTheReportsConfigurationsWithTheirMeans) {
    CompareTable runs;
    for (const char* uuid : {"a", "b", "c", "d"})
        runs.runs.push_back({uuid, uuid, 1, {}, {}});
    CompareColumn batch;
    batch.id = "param:batch-size";
    batch.kind = ColumnKind::Categorical;
    batch.categories = QStringList{"64", "128"};
    batch.values = {0, 0, 1, 1};
    CompareColumn seed = batch;
    seed.id = "param:seed";
    seed.categories = QStringList{"1", "2"};
    seed.values = {0, 1, 0, 1};
    CompareColumn duration;
    duration.id = "figure:duration_s";
    duration.values = {10, 20, 30, CompareColumn::kMissing};
    runs.columns = {batch, seed, duration};
    const nlohmann::json report = {{"configurations",
                                    {{{"label", "batch-size=128"}, {"runs", {"c", "d"}}},
                                     {{"label", "batch-size=64"}, {"runs", {"a", "b"}}}}}};
    const CompareTable shown = configurationTable(runs, report);
    ASSERT_EQ(shown.runs.size(), 2u);
    EXPECT_EQ(shown.runs[0].uuid, "config:0");
    EXPECT_EQ(shown.runs[0].name, "batch-size=128 (N=2)");
    EXPECT_EQ(shown.runs[0].members, (QStringList{"c", "d"}));
    EXPECT_EQ(shown.column("param:seed"), -1) << "its runs differ in it";
    ASSERT_GE(shown.column("param:batch-size"), 0);
    EXPECT_EQ(shown.columns[size_t(shown.column("param:batch-size"))].values, (std::vector<double>{1, 0}));
    const CompareColumn& mean = shown.columns[size_t(shown.column("figure:duration_s"))];
    EXPECT_DOUBLE_EQ(mean.values[0], 30) << "the mean of the runs that have it";
    EXPECT_DOUBLE_EQ(mean.values[1], 15);
    // Unknown runs, no configurations, or no report: no rows, never a crash.
    EXPECT_TRUE(
        configurationTable(runs, {{"configurations", {{{"label", "x"}, {"runs", {"zz"}}}}}}).runs.empty());
    EXPECT_TRUE(configurationTable(runs, nlohmann::json::object()).runs.empty());
    EXPECT_TRUE(configurationTable(runs, nlohmann::json()).runs.empty());
}

// A failed run drew as a line like the finished ones, while the grouped chart and the report leave
// it out of its configuration's figures: it says so on its line, and the per-configuration rows
// (the report's) count only the finished runs.
TEST(ParallelCoordinates, AFailedRunSaysItIsInNoConfigurationsFigures) {
    test::TempDir dir;
    auto store = openStore("sqlite:///" + dir.file("sweep.db"), OpenMode::CreateIfMissing);
    const std::vector<test::SweepRun> runs = test::addSweepRuns(*store);
    store->setRunStatus(runs[0].uuid, RunStatus::Failed, std::nullopt);
    CompareRequest request;
    for (const test::SweepRun& r : runs)
        request.uuids.push_back(r.uuid);
    const CompareResult result = readComparison(*store, request);
    ParallelEngine engine;
    engine.setTable(buildCompareTable(result.runs, result.report, result.stats));
    size_t failed = engine.table().runs.size();
    for (size_t i = 0; i < engine.table().runs.size(); ++i)
        if (engine.table().runs[i].uuid.toStdString() == runs[0].uuid)
            failed = i;
    ASSERT_LT(failed, engine.table().runs.size());
    EXPECT_FALSE(engine.table().runs[failed].countsAsRepeat());
    EXPECT_TRUE(engine.table().runLabel(failed).endsWith("(FAILED: not in its configuration's figures)"))
        << engine.table().runLabel(failed).toStdString();
    EXPECT_TRUE(engine.describeRun(failed).contains("FAILED")) << engine.describeRun(failed).toStdString();
    for (size_t i = 0; i < engine.table().runs.size(); ++i) {
        if (i != failed) {
            EXPECT_FALSE(engine.table().runLabel(i).contains("not in its")) << i;
        }
    }
    const CompareTable configurations = configurationTable(engine.table(), result.report);
    QStringList names;
    for (const CompareRun& row : configurations.runs)
        names << row.name;
    EXPECT_EQ(names.filter("(N=3)").size(), 1) << names.join(" | ").toStdString();
    EXPECT_EQ(names.filter("(N=4)").size(), 2) << names.join(" | ").toStdString();

    // The table's CSV export reads with Python's csv module and pandas' defaults, a row per run.
    const QString csv = compareCsv(engine);
    test::writeFile(dir.file("compare.csv"), csv.toStdString());
    const std::string columns = std::to_string(csv.section('\n', 0, 0).count(',') + 1);
    EXPECT_EQ(test::readByPythonCsvReaders(dir.file("compare.csv")),
              "csv 12 " + columns + " run_uuid\npandas 12 " + columns + " run_uuid")
        << csv.toStdString();
}
