// SPDX-License-Identifier: MIT
// Dead-band compaction: which samples go, that what stays reproduces every recorded
// sample within the tolerance, and `radt store compact` on a real SQLite store, whose reports and
// summaries stay within the tolerance of the run as recorded.

#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/analysis/InsightReport.h"
#include "core/base/SeriesCompaction.h"
#include "core/store/Store.h"
#include "core/store/StoreCompaction.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <sys/wait.h>

using namespace radt;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000;

Series series(const std::vector<double>& v, int64_t intervalMs = 1000) {
    Series s;
    for (size_t i = 0; i < v.size(); ++i) {
        s.t.push_back(kT0 + int64_t(i) * intervalMs);
        s.step.push_back(0);
        s.v.push_back(v[i]);
    }
    return s;
}

/// The value the kept samples' straight lines give at time t (t within the series).
double lineAt(const Series& kept, int64_t t) {
    size_t i = 1;
    while (i + 1 < kept.size() && kept.t[i] < t)
        ++i;
    const double f = double(t - kept.t[i - 1]) / double(kept.t[i] - kept.t[i - 1]);
    return kept.v[i - 1] + f * (kept.v[i] - kept.v[i - 1]);
}

/// A 1 Hz GPU power trace: idle, a ramp, noisy training with spikes, idle again.
Series powerTrace(size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::normal_distribution<double> noise(0, 2.0);
    std::vector<double> v;
    for (size_t i = 0; i < n; ++i) {
        const double phase = double(i) / double(n);
        double w = phase < 0.1 ? 60 : phase < 0.15 ? 60 + (phase - 0.1) * 20 * 240 : phase < 0.9 ? 300 : 60;
        if (phase >= 0.15 && phase < 0.9)
            w += noise(random) + (i % 97 == 0 ? 80 : 0);
        v.push_back(w);
    }
    return series(v);
}

} // namespace

TEST(DeadBand, EveryDroppedSampleLiesWithinTheToleranceOfTheKeptLine) {
    for (unsigned seed : {1u, 2u, 3u}) {
        const Series s = powerTrace(3000, seed);
        const double tolerance = 1.5;
        const std::vector<bool> keep = deadBandKeep(s, tolerance, 5000);
        const Series kept = selectSamples(s, keep, true);
        ASSERT_LT(kept.size(), s.size());
        for (size_t i = 0; i < s.size(); ++i)
            ASSERT_LE(std::fabs(lineAt(kept, s.t[i]) - s.v[i]), tolerance + 1e-9) << "sample " << i;
        EXPECT_TRUE(keep.front());
        EXPECT_TRUE(keep.back());
        for (size_t i = 1; i < kept.size(); ++i)
            ASSERT_LE(kept.t[i] - kept.t[i - 1], 5000) << "no span longer than 5 intervals";
        // Every spike (80 W above the noise) stays, and so do the extremes.
        for (size_t i = 0; i < s.size(); ++i) {
            if (i % 97 == 0 && i >= 450 && i < 2700) {
                EXPECT_TRUE(keep[i]) << "spike at " << i;
            }
        }
        const auto [lo, hi] = std::minmax_element(s.v.begin(), s.v.end());
        EXPECT_TRUE(keep[size_t(lo - s.v.begin())]);
        EXPECT_TRUE(keep[size_t(hi - s.v.begin())]);
    }
}

TEST(DeadBand, FlatAndLinearStretchesKeepOneSampleInFiveAndNothingCrossesAGapOrNaN) {
    std::vector<double> v(21, 40.0);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] += double(i); // a straight ramp: only the 5-interval bound keeps samples
    std::vector<bool> keep = deadBandKeep(series(v), 0.01, 5000);
    EXPECT_EQ(std::count(keep.begin(), keep.end(), true), 5) << "0, 5, 10, 15, 20 (+ the extremes, the ends)";
    EXPECT_TRUE(keep[5] && keep[10] && keep[15]);

    Series gap = series(std::vector<double>(10, 7.0));
    for (size_t i = 5; i < 10; ++i)
        gap.t[i] += 60'000; // a minute without samples between 4 and 5
    gap.v[7] = std::numeric_limits<double>::quiet_NaN();
    keep = deadBandKeep(gap, 0.5, 5000);
    EXPECT_TRUE(keep[4] && keep[5]) << "both ends of the gap";
    EXPECT_TRUE(keep[6] && keep[7] && keep[8]) << "NaN and its neighbours";

    EXPECT_TRUE(deadBandKeep(Series{}, 1, 5000).empty());
    EXPECT_EQ(deadBandKeep(series({1, 2}), 1, 5000), (std::vector<bool>{true, true}));
}

TEST(DeadBand, ExpandingRestoresTheGridWithinTheTolerance) {
    const Series s = powerTrace(600, 9);
    const double tolerance = 2.0;
    const Series kept = selectSamples(s, deadBandKeep(s, tolerance, 5000), true);
    const Series back = expandCompacted(kept, 1000, 5000);
    ASSERT_EQ(back.size(), s.size()) << "one sample per second again";
    for (size_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(back.t[i], s.t[i]);
        ASSERT_LE(std::fabs(back.v[i] - s.v[i]), tolerance + 1e-9) << i;
    }
    // A real gap stays a gap.
    Series gap = series({1, 1, 1, 1});
    gap.t[3] += 30'000;
    EXPECT_EQ(expandCompacted(gap, 1000, 5000).size(), 4u);
}

TEST(DeadBand, ToleranceParsing) {
    EXPECT_DOUBLE_EQ(parseTolerance("0.5%").tolerance, 0.5);
    EXPECT_TRUE(parseTolerance("0.5%").relative);
    EXPECT_FALSE(parseTolerance("2").relative);
    for (const char* bad : {"", "%", "0", "-1", "abc", "1e400", "60%", "2W", "nan"})
        EXPECT_THROW(parseTolerance(bad), std::invalid_argument) << bad;
}

namespace {

/// A finished run of 10 minutes at 1 Hz: GPU power and utilisation from the trace, a loss per
/// minute; plus a running run.
struct CompactionStore {
    test::TempDir dir;
    std::string uri = "sqlite:///" + dir.file("compact.db");
    std::unique_ptr<Store> store = openStore(uri, OpenMode::CreateIfMissing);
    std::string finished, running;
    CompactionStore() {
        const int64_t exp = store->getOrCreateExperiment("bench");
        finished = store->createRun({exp, "(1 0) train.py", kT0, "u", "train.py", RunStatus::Running}).uuid;
        store->logParams(finished, {{"workload", "1"}, {"letter", "0"}, {"listeners", "smi+top"}});
        const Series power = powerTrace(600, 5);
        std::vector<MetricPoint> points;
        for (size_t i = 0; i < power.size(); ++i) {
            points.push_back({"SMI - Power Draw", power.v[i], power.t[i], 0});
            points.push_back({"SMI - GPU Util", std::min(100.0, power.v[i] / 3.0), power.t[i], 0});
        }
        for (int e = 1; e <= 10; ++e)
            points.push_back({"loss", 1.0 / e, kT0 + e * 60'000 - 1, e});
        store->logMetrics(finished, points);
        store->setRunStatus(finished, RunStatus::Finished, kT0 + 600'000);
        running = store->createRun({exp, "(2 0) train.py", kT0, "u", "train.py", RunStatus::Running}).uuid;
        store->logParams(running, {{"workload", "2"}, {"letter", "0"}, {"listeners", "smi+top"}});
        store->logMetrics(running, {{"SMI - Power Draw", 10, kT0, 0},
                                    {"SMI - Power Draw", 11, kT0 + 1000, 0},
                                    {"SMI - Power Draw", 12, kT0 + 2000, 0}});
    }
    nlohmann::json report() {
        return buildReport(*store, {*store->run(finished)}, ReportOptions{})["runs"][0];
    }
};

} // namespace

TEST(StoreCompaction, ReportsOfACompactedRunStayWithinTheToleranceAndTheFileShrinks) {
    CompactionStore s;
    const nlohmann::json before = s.report();
    const size_t lossPoints = s.store->series(s.finished, "loss").size();
    const CompactionOptions options = parseTolerance("1%");
    const CompactionStats stats = compactRuns(*s.store, s.store->runs(), options);
    EXPECT_EQ(stats.runs, 1u);
    EXPECT_EQ(stats.series, 2u);
    EXPECT_EQ(stats.rowsBefore, 1200u);
    EXPECT_LT(stats.rowsAfter, stats.rowsBefore);
    EXPECT_EQ(s.store->series(s.finished, "SMI - Power Draw").size() +
                  s.store->series(s.finished, "SMI - GPU Util").size(),
              stats.rowsAfter);
    ASSERT_EQ(stats.skipped.size(), 1u);
    EXPECT_NE(stats.skipped[0].find("still running"), std::string::npos);
    EXPECT_EQ(s.store->series(s.running, "SMI - Power Draw").size(), 3u);
    EXPECT_EQ(s.store->series(s.finished, "loss").size(), lossPoints) << "software metrics untouched";
    EXPECT_LT(stats.bytesAfter, stats.bytesBefore) << "VACUUM gave the space back";

    const radt::Run run = *s.store->run(s.finished);
    const auto tag = nlohmann::json::parse(run.tags.at(kCompactedTag));
    EXPECT_EQ(tag["tolerance"], "1%");
    EXPECT_EQ(tag["interval_ms"], 1000);
    EXPECT_EQ(tag["rows_before"], 1200);

    // Power spans 60..~380 W: 1 % is ~3.2 W, so energy moves by less than that times 600 s and
    // every utilisation figure (range ~20..100 %) by less than ~0.8 points.
    const nlohmann::json after = s.report();
    const Series recorded = powerTrace(600, 5);
    const double powerTolerance = 0.01 * (*std::max_element(recorded.v.begin(), recorded.v.end()) - 60.0);
    EXPECT_NEAR(after["gpu_energy_j"].get<double>(), before["gpu_energy_j"].get<double>(),
                powerTolerance * 600);
    EXPECT_EQ(after["energy_coverage"], before["energy_coverage"]) << "compacted spans are not gaps";
    for (const char* figure : {"mean", "p50", "p95"})
        EXPECT_NEAR(after["util"]["SMI - GPU Util"][figure].get<double>(),
                    before["util"]["SMI - GPU Util"][figure].get<double>(), 1.0)
            << figure;
    EXPECT_EQ(after["energy_per_epoch_j"].is_null(), before["energy_per_epoch_j"].is_null());

    const CompactionStats again = compactRuns(*s.store, {run}, options);
    EXPECT_EQ(again.runs, 0u);
    ASSERT_EQ(again.skipped.size(), 1u);
    EXPECT_NE(again.skipped[0].find("already compacted"), std::string::npos);
}

TEST(StoreCompaction, RadtStoreCompactCountsDryRunsAndRefusesBadInput) {
    CompactionStore s;
    const std::string radt = std::string(RADT_BINARY_DIR) + "/app/radt";
    auto run = [&](const std::string& args) {
        const std::string cmd = "'" + radt + "' store compact --store '" + s.uri + "' " + args + " >'" +
                                s.dir.file("out") + "' 2>'" + s.dir.file("err") + "'";
        const int status = std::system(cmd.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    ASSERT_EQ(run("--dry-run --tolerance 1% bench"), 0) << test::readFile(s.dir.file("err"));
    EXPECT_NE(test::readFile(s.dir.file("out")).find("would compact 1 runs, 2 hardware series: 1200 -> "),
              std::string::npos)
        << test::readFile(s.dir.file("out"));
    EXPECT_EQ(s.store->series(s.finished, "SMI - Power Draw").size(), 600u) << "a dry run changes nothing";
    EXPECT_NE(test::readFile(s.dir.file("err")).find("skipped " + s.running + ": still running"),
              std::string::npos);

    EXPECT_EQ(run("--tolerance 0 bench"), 2);
    EXPECT_NE(test::readFile(s.dir.file("err")).find("--tolerance expects a number above 0"),
              std::string::npos);
    EXPECT_EQ(run("--tolerance 1%"), 2);
    EXPECT_NE(test::readFile(s.dir.file("err")).find("needs a TARGET"), std::string::npos);
    EXPECT_EQ(run("nothing-here"), 2);
    EXPECT_NE(test::readFile(s.dir.file("err")).find("'nothing-here' names no run"), std::string::npos);

    ASSERT_EQ(run("1-1"), 0) << test::readFile(s.dir.file("err"));
    EXPECT_NE(test::readFile(s.dir.file("out")).find("compacted 1 runs, 2 hardware series: 1200 -> "),
              std::string::npos);
    EXPECT_NE(test::readFile(s.dir.file("out")).find("store: "), std::string::npos);
    EXPECT_NE(test::readFile(s.dir.file("out")).find("chart envelopes: 0 series"), std::string::npos)
        << test::readFile(s.dir.file("out"));
    EXPECT_LT(s.store->series(s.finished, "SMI - Power Draw").size(), 600u);
}

// `radt store compact` also writes every finished run's chart envelopes, compacted or not (an
// MLflow run's too), from the series as they are after compaction.
TEST(StoreCompaction, CompactWritesEveryFinishedRunsChartEnvelopes) {
    CompactionStore s;
    const std::string mlflowRun =
        s.store->createRun({0, "mlflow", kT0, "u", "x.py", RunStatus::Running}).uuid;
    std::vector<MetricPoint> points;
    for (int i = 0; i < 5000; ++i)
        points.push_back({"val_loss", 1.0 / (1 + i), kT0 + i * 100, i});
    s.store->logMetrics(mlflowRun, points);
    s.store->logMetrics(s.finished, {{"SMI - Power Draw", 50, kT0 + 600'000, 0}});
    s.store->setRunStatus(mlflowRun, RunStatus::Finished, kT0 + 600'000);
    // The finished run's power series is 601 samples: lengthen it past what is read whole.
    std::vector<MetricPoint> more;
    for (int i = 0; i < 3000; ++i)
        more.push_back(
            {"SMI - Power Draw", 500 + 400 * std::sin(i * 1.3), kT0 + 700'000 + i * 1000, 0}); // noise: kept
    s.store->logMetrics(s.finished, more);

    const CompactionStats stats = compactRuns(*s.store, s.store->runs(), parseTolerance("1%"));
    EXPECT_EQ(stats.envelopes, 2u) << "the power series and the MLflow run's val_loss, at 1024 slices";
    EXPECT_TRUE(stats.envelopeError.empty()) << stats.envelopeError;
    const auto power =
        s.store->envelopes().storedEnvelopes({s.finished, s.running}, "SMI - Power Draw", 1024);
    ASSERT_EQ(power.size(), 1u) << "the running run has none";
    EXPECT_EQ(power.at(s.finished).pointCount,
              int64_t(s.store->series(s.finished, "SMI - Power Draw").size()))
        << "made from the compacted series";
    EXPECT_EQ(s.store->envelopes().storedEnvelopes({mlflowRun}, "val_loss", 1024).size(), 1u);
}

// A run MLflow's own client wrote (no radt `listeners` param) whose keys merely look like radt's
// hardware keys: its "SMI - Power Draw" is whatever its author logged, so it is left alone and the
// reason is said.
TEST(StoreCompaction, AnMlflowRunWhoseKeysLookLikeHardwareIsLeftAloneAndSaysWhy) {
    CompactionStore s;
    const int64_t exp = s.store->getOrCreateExperiment("mlflow");
    const std::string mlflowRun =
        s.store->createRun({exp, "mlflow-run", kT0, "u", "notebook", RunStatus::Running}).uuid;
    const Series power = powerTrace(300, 3);
    std::vector<MetricPoint> points;
    for (size_t i = 0; i < power.size(); ++i)
        points.push_back({"SMI - Power Draw", power.v[i], power.t[i], int64_t(i)});
    s.store->logMetrics(mlflowRun, points);
    s.store->setRunStatus(mlflowRun, RunStatus::Finished, kT0 + 300'000);

    const CompactionStats stats = compactRuns(*s.store, s.store->runs(), parseTolerance("1%"));
    EXPECT_EQ(stats.runs, 1u) << "the radt run";
    EXPECT_EQ(s.store->series(mlflowRun, "SMI - Power Draw").size(), 300u);
    EXPECT_EQ(s.store->run(mlflowRun)->tags.count(kCompactedTag), 0u);
    bool said = false;
    for (const std::string& why : stats.skipped)
        said = said || (why.rfind(mlflowRun + ": not recorded by radt", 0) == 0);
    EXPECT_TRUE(said) << "the skipped run and why";
}
