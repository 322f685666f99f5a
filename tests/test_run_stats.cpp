// SPDX-License-Identifier: MIT
// Summary statistics of a run's series (the summary table's figures) on every backend of the store
// contract: computed by the store (in the server on PostgreSQL) exactly as seriesStats() computes
// them from the samples, kept as a stats entry of radt_envelopes when a run finishes, read back
// only while fresh, and what a summary of many runs reads instead of every sample.

#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/Store.h"
#include "core/store/StoreCompaction.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

using namespace radt;

namespace {

constexpr int64_t kT0 = 1700000000000;

/// `n` samples a second apart: a swing, a NaN every 7th, +-inf now and then (MLflow keeps them as
/// +-max float: placeholders the statistics leave out), repeated values (percentile ties).
std::vector<MetricPoint> awkwardSamples(const std::string& key, int from, int n) {
    std::vector<MetricPoint> points;
    for (int i = from; i < from + n; ++i) {
        double v = std::round(100 + 50 * std::sin(i / 30.0));
        if (i % 7 == 3)
            v = std::numeric_limits<double>::quiet_NaN();
        else if (i % 101 == 5)
            v = i % 2 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
        points.push_back({key, v, kT0 + 1000 * int64_t(i), i / 10});
    }
    return points;
}

void expectSameStats(const SeriesStats& got, const SeriesStats& want, const std::string& what) {
    EXPECT_EQ(got.samples, want.samples) << what;
    EXPECT_EQ(got.durationMs, want.durationMs) << what;
    const auto same = [&](double a, double b, const char* field) {
        if (std::isnan(b))
            EXPECT_TRUE(std::isnan(a)) << what << " " << field << ": " << a;
        else // the server sums in another order: the last bits may differ
            EXPECT_NEAR(a, b, 1e-12 * std::max(1.0, std::fabs(b))) << what << " " << field;
    };
    same(got.min, want.min, "min");
    same(got.mean, want.mean, "mean");
    same(got.p50, want.p50, "p50");
    same(got.p95, want.p95, "p95");
    same(got.max, want.max, "max");
    same(got.last, want.last, "last");
}

class RunStats : public test::BackendTest {};
/// The stores that keep stats entries: not 2019's (no latest_metrics to tell fresh from stale).
class KeptRunStats : public test::BackendTest {};

} // namespace

TEST_P(RunStats, TheStoreComputesWhatSeriesStatsComputesFromTheSamples) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "r", 0, "u", "s", RunStatus::Running}).uuid;
    store->logMetrics(run, awkwardSamples("power", 0, 3000));
    store->logMetrics(run, {{"nan only", std::nan(""), kT0, 0}, {"nan only", std::nan(""), kT0 + 5000, 1}});
    store->logMetrics(run, {{"one", 42.5, kT0 + 7, 3}});
    // A diverged loss: float8's avg in PostgreSQL overflows on its squares (1e400).
    store->logMetrics(run,
                      {{"huge", 1e200, kT0, 0}, {"huge", 3e200, kT0 + 1, 1}, {"huge", -2e200, kT0 + 2, 2}});
    // Two samples at one time: the later step is the last value, as series() orders them.
    store->logMetrics(run, {{"tie", 1.0, kT0, 1}, {"tie", 2.0, kT0 + 10, 2}, {"tie", 3.0, kT0 + 10, 1}});

    const std::map<std::string, SeriesStats> all = store->seriesStatsOfRun(run);
    ASSERT_EQ(all.size(), 5u);
    for (const auto& [key, stats] : all)
        expectSameStats(stats, seriesStats(store->series(run, key)), GetParam() + " " + key);
    EXPECT_EQ(all.at("power").samples, 3000u - 429u - 26u) << "NaN and +-inf left out";
    EXPECT_EQ(all.at("nan only").samples, 0u);
    EXPECT_EQ(all.at("nan only").durationMs, 5000);
    EXPECT_DOUBLE_EQ(all.at("tie").last, 2.0);
    EXPECT_DOUBLE_EQ(all.at("one").p95, 42.5);
    EXPECT_NEAR(all.at("huge").mean, 2e200 / 3, 1e186);

    const auto one = store->seriesStatsOfRun(run, "power");
    ASSERT_EQ(one.size(), 1u);
    expectSameStats(one.at("power"), all.at("power"), "power alone");
    EXPECT_TRUE(store->seriesStatsOfRun(run, "no such key").empty());
}

TEST_P(KeptRunStats, AFinishedRunKeepsEveryKeysStatsAndASummaryReadsThemWhileFresh) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "r", 0, "u", "s", RunStatus::Running}).uuid;
    store->logMetrics(run, awkwardSamples("power", 0, 5000));
    store->logMetrics(run, awkwardSamples("short", 0, 50));
    store->setRunStatus(run, RunStatus::Finished, std::nullopt);
    EXPECT_EQ(writeRunEnvelopes(*store, run), 1u)
        << "power's envelope at 1024 slices; stats entries are not counted";
    for (const char* key : {"power", "short"}) {
        const auto kept = store->envelopes().storedEnvelopes({run}, key, kStatsBuckets);
        ASSERT_EQ(kept.size(), 1u) << key << ": short series have their statistics kept too";
        expectSameStats(statsOfEntry(kept.at(run), key), seriesStats(store->series(run, key)), key);
    }

    // What a summary reads is the kept entry: one saved with another mean comes back as saved.
    const radt::Run finished = *store->run(run);
    SeriesStats planted = store->seriesStatsOfRun(run, "power").at("power");
    planted.mean = 12345;
    ASSERT_TRUE(store->envelopes().saveEnvelopes(
        run, {statsEntry("power", planted, store->latestMetrics(run).at("power"),
                         store->envelopes().envelopeChangeCount(run).value())}));
    EXPECT_EQ(runsSeriesStats(*store, {finished}, "power", nullptr).at(run).mean, 12345);

    // A point logged afterwards makes it stale: computed again from the samples, and kept again.
    store->logMetrics(run, {{"power", 7.0, kT0 + 6000000, 9999}});
    const SeriesStats fresh = runsSeriesStats(*store, {finished}, "power", store.get()).at(run);
    expectSameStats(fresh, seriesStats(store->series(run, "power")), "after a late point");
    EXPECT_DOUBLE_EQ(fresh.last, 7.0);
    const auto keptAgain = store->envelopes().storedEnvelopes({run}, "power", kStatsBuckets);
    ASSERT_EQ(keptAgain.size(), 1u) << "kept for the next summary";
    EXPECT_DOUBLE_EQ(statsOfEntry(keptAgain.at(run), "power").last, 7.0);

    // A running run's statistics are computed, never read from a kept entry nor kept.
    const std::string running = store->createRun({0, "live", 0, "u", "s", RunStatus::Running}).uuid;
    store->logMetrics(running, awkwardSamples("power", 0, 5000));
    const auto live = runsSeriesStats(*store, {*store->run(running)}, "power", store.get());
    expectSameStats(live.at(running), seriesStats(store->series(running, "power")), "running");
    EXPECT_TRUE(store->envelopes().storedEnvelopes({running}, "power", kStatsBuckets).empty());
    // A run without the key has no statistics rather than empty ones.
    EXPECT_TRUE(runsSeriesStats(*store, {finished}, "no such key", store.get()).empty());
}

TEST_P(KeptRunStats, ACompactedRunsStatisticsAreThoseOfItsSeriesBackOnTheGrid) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    NewRun spec{0, "r", kT0, "u", "s", RunStatus::Running};
    const std::string run = store->createRun(spec).uuid;
    store->logParams(run, {{"listeners", "smi"}});
    std::vector<MetricPoint> power;
    for (int i = 0; i < 6000; ++i) // long flat stretches: compaction keeps few rows of them
        power.push_back(
            {"SMI - Power Draw", (i / 500) % 2 ? 300.0 : 60.0 + (i % 3), kT0 + 1000 * int64_t(i), 0});
    store->logMetrics(run, power);
    store->setRunStatus(run, RunStatus::Finished, kT0 + 6000000);
    ASSERT_EQ(compactRuns(*store, store->runs(), parseTolerance("1%")).runs, 1u);
    const radt::Run compacted = *store->run(run);
    ASSERT_LT(store->series(run, "SMI - Power Draw").size(), 6000u);

    const SeriesStats onGrid = seriesStats(readForAnalysis(*store, compacted, "SMI - Power Draw"));
    EXPECT_EQ(onGrid.samples, 6000u);
    const auto kept = store->envelopes().storedEnvelopes({run}, "SMI - Power Draw", kStatsBuckets);
    ASSERT_EQ(kept.size(), 1u) << "radt store compact keeps them";
    expectSameStats(statsOfEntry(kept.at(run), "kept"), onGrid, "kept");
    expectSameStats(runsSeriesStats(*store, {compacted}, "SMI - Power Draw", nullptr).at(run), onGrid,
                    "read");
}

INSTANTIATE_TEST_SUITE_P(Backends, RunStats,
                         ::testing::Values("sqlite", "postgresql", "postgresql_unpartitioned",
                                           "sqlite_mlflow3", "postgresql_mlflow3", "sqlite_2019",
                                           "postgresql_2019"),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, KeptRunStats,
                         ::testing::Values("sqlite", "postgresql", "postgresql_mlflow3"),
                         [](const auto& info) { return info.param; });

TEST(RunStatsEntry, RoundTripsAndABrokenEntryIsNamed) {
    SeriesStats s;
    s.samples = 123456789;
    s.durationMs = -5;
    s.min = -DBL_MAX / 2;
    s.mean = 1e-310;
    s.p50 = 0.5;
    s.p95 = 0.95;
    s.max = 7;
    s.last = -0.0;
    const StoredEnvelope e = statsEntry("k", s, LatestMetric{1, 2, 3}, 0);
    EXPECT_EQ(e.buckets, kStatsBuckets);
    const std::string bytes = encodeEnvelopePoints(e.series);
    StoredEnvelope back = e;
    back.series = decodeEnvelopePoints(bytes.data(), bytes.size(), "test");
    expectSameStats(statsOfEntry(back, "test"), s, "round trip");
    EXPECT_TRUE(std::signbit(statsOfEntry(back, "test").last));

    back.series.t.pop_back();
    back.series.step.pop_back();
    back.series.v.pop_back();
    const std::string error = test::errorOf([&] { statsOfEntry(back, "store.db: run abc, 'k'"); });
    EXPECT_NE(error.find("store.db: run abc, 'k': a stored summary of 5 fields"), std::string::npos) << error;
}
