// SPDX-License-Identifier: MIT
// The insight analyses (resources/DESIGN.md §12) on small series whose answers are computed by
// hand, and `radt report` over a real SQLite store holding a collocated workload and its solo baseline
// (the real H200 experiment's report: test_h200_report.cpp).

#include "InsightTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/analysis/BurstInsight.h"
#include "core/analysis/EnergyInsight.h"
#include "core/analysis/EpochInsight.h"
#include "core/analysis/InsightReport.h"
#include "core/analysis/StallInsight.h"
#include "core/analysis/UtilisationInsight.h"
#include "core/base/InsightSeries.h"
#include "core/base/LargeArrays.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include <cfloat>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>

namespace fs = std::filesystem;
using namespace radt;
using namespace radt::insight;

namespace {

Series series(std::vector<int64_t> t, std::vector<double> v) {
    Series s;
    s.t.assign(t.begin(), t.end());
    s.v.assign(v.begin(), v.end());
    s.step.assign(s.t.size(), 0);
    return s;
}

std::function<Series(const std::string&)> reader(const std::map<std::string, Series>& all) {
    return [&all](const std::string& key) { return all.count(key) ? all.at(key) : Series{}; };
}

std::vector<std::string> keysOf(const std::map<std::string, Series>& all) {
    std::vector<std::string> keys;
    for (const auto& entry : all)
        keys.push_back(entry.first);
    return keys;
}

} // namespace

TEST(EnergyInsight, ACounterSumsItsIncrementsSkipsResetsAndLongGaps) {
    const Series counter = series({0, 1000, 2000, 3000}, {0, 1000, 3000, 6000}); // mJ
    EnergyIntegral e = counterEnergy(counter, 0, 3000);
    EXPECT_DOUBLE_EQ(e.joules, 6.0);
    EXPECT_EQ(e.coveredMs, 3000);
    // A window takes each cut interval in proportion: 0.5 + 2 + 1.5.
    EXPECT_DOUBLE_EQ(counterEnergy(counter, 500, 2500).joules, 4.0);
    // A reset (the counter goes down): that interval's energy is unknown and not covered.
    e = counterEnergy(series({0, 1000, 2000, 3000}, {0, 1000, 500, 1500}), 0, 3000);
    EXPECT_DOUBLE_EQ(e.joules, 2.0);
    EXPECT_EQ(e.coveredMs, 2000);
    // A counter that does not move adds nothing but covers its time; a gap of 17 intervals is not bridged.
    e = counterEnergy(series({0, 1000, 2000, 3000, 20000}, {5000, 5000, 5000, 6000, 90000}), 0, 20000);
    EXPECT_DOUBLE_EQ(e.joules, 1.0);
    EXPECT_EQ(e.coveredMs, 3000);
}

TEST(EnergyInsight, ManyWindowsInOnePassGiveWhatEachWindowAloneGives) {
    const Series counter = series({0, 1000, 2000, 3000, 4000}, {0, 1000, 3000, 6000, 10000});
    const auto windows = energyInWindows(counter, true, {{0, 1500}, {1500, 2500}, {2500, 4000}});
    EXPECT_DOUBLE_EQ(windows[0].joules, counterEnergy(counter, 0, 1500).joules);
    EXPECT_DOUBLE_EQ(windows[1].joules, 2.5);
    EXPECT_DOUBLE_EQ(windows[2].joules, counterEnergy(counter, 2500, 4000).joules);
    EXPECT_DOUBLE_EQ(windows[0].joules + windows[1].joules + windows[2].joules, 10.0);
    const std::map<std::string, Series> all = {
        {"DCGMI - Power Usage", series({0, 1000, 2000}, {100, 200, 100})}};
    const auto perEpoch =
        gpuEnergyInWindows(keysOf(all), reader(all), {{0, 1000}, {1000, 2000}, {5000, 6000}});
    EXPECT_DOUBLE_EQ(*perEpoch[0], 150.0);
    EXPECT_DOUBLE_EQ(*perEpoch[1], 150.0);
    EXPECT_FALSE(perEpoch[2]) << "no samples there";
    std::vector<double> values = {5, 1, 4, 2, 3};
    EXPECT_DOUBLE_EQ(percentile(values, 0.5), 3.0);
    values = {5, 1, 4, 2, 3};
    EXPECT_DOUBLE_EQ(percentile(values, 0.95), 4.8);
}

TEST(EnergyInsight, PowerIsIntegratedByTrapezoidsInterpolatedAtTheWindow) {
    const Series watts = series({0, 1000, 2000}, {100, 200, 100});
    EXPECT_DOUBLE_EQ(powerEnergy(watts, 0, 2000).joules, 300.0);
    EXPECT_DOUBLE_EQ(powerEnergy(watts, 500, 1500).joules, 175.0);
    // NaN and MLflow's ±DBL_MAX stand-ins for ±inf are not values.
    const Series holes = series({0, 1000, 2000, 3000}, {100, std::nan(""), DBL_MAX, 100});
    EXPECT_DOUBLE_EQ(powerEnergy(holes, 0, 3000).joules, 300.0);
    // One sample is no interval.
    const EnergyIntegral one = powerEnergy(series({0}, {100}), 0, 1000);
    EXPECT_EQ(one.joules, 0.0);
    EXPECT_EQ(one.coveredMs, 0);
}

TEST(EnergyInsight, TheCounterWinsPerDeviceAndCoverageIsTheLeastCoveredDevice) {
    const std::map<std::string, Series> all = {
        {"DCGMI - Total Energy Consumption", series({0, 1000, 2000}, {0, 50000, 100000})},
        {"DCGMI - Power Usage", series({0, 1000, 2000}, {50, 50, 50})},
        {"SMI - Power Draw - GPU 1", series({0, 1000}, {300, 300})},
        {"TOP - CPU Utilization", series({0, 1000}, {50, 50})},
    };
    const EnergyEstimate e = gpuEnergy(keysOf(all), reader(all), 0, 2000);
    ASSERT_TRUE(e.joules);
    EXPECT_DOUBLE_EQ(*e.joules, 100.0 + 300.0);
    EXPECT_EQ(e.source, "mixed");
    ASSERT_EQ(e.devices.size(), 2u);
    EXPECT_EQ(e.devices[0].source, "counter");
    EXPECT_EQ(e.devices[1].device, " - GPU 1");
    EXPECT_EQ(e.devices[1].source, "power");
    EXPECT_DOUBLE_EQ(e.coverage, 0.5);
    ASSERT_TRUE(e.checkCounterJoules) << "GPU 0 has both: the cross-check";
    EXPECT_DOUBLE_EQ(*e.checkCounterJoules, 100.0);
    EXPECT_DOUBLE_EQ(*e.checkPowerJoules, 100.0);
    EXPECT_TRUE(e.notes.empty());
    // A run without GPU series has no GPU energy, not zero.
    const std::map<std::string, Series> cpuOnly = {{"TOP - CPU Utilization", series({0, 1000}, {50, 50})}};
    EXPECT_FALSE(gpuEnergy(keysOf(cpuOnly), reader(cpuOnly), 0, 1000).joules);
    // RAPL domains add up.
    const std::map<std::string, Series> rapl = {{"RAPL - package-0 Power W", series({0, 1000}, {20, 20})},
                                                {"RAPL - dram Power W", series({0, 1000}, {5, 5})}};
    EXPECT_DOUBLE_EQ(*cpuEnergy(keysOf(rapl), reader(rapl), 0, 1000), 25.0);
    EXPECT_DOUBLE_EQ(co2eGrams(3.6e6, 400, 1.5), 600.0);
}

namespace {

/// A 100 W GPU sampled at 1 Hz for `seconds` s: its counter (mJ, from a large reading since boot)
/// and its power.
std::pair<Series, Series> hundredWatts(int seconds) {
    std::vector<int64_t> t;
    std::vector<double> mj, w;
    for (int i = 0; i <= seconds; ++i) {
        t.push_back(int64_t(i) * 1000);
        mj.push_back(36e9 + 100'000.0 * i);
        w.push_back(100);
    }
    return {series(t, mj), series(t, w)};
}

} // namespace

// A counter's first reading 0 (a 10 s, 100 W run was reported as 36,001,000 J), a
// counter that dips by 5 J every 97 readings (overcounted by 55 %), and a real reset.
TEST(EnergyInsight, CounterGlitchesAreLeftOutAndARealResetStaysUncounted) {
    auto [counter, power] = hundredWatts(10);
    counter.v[0] = 0;
    EnergyIntegral e = counterEnergy(counter, 0, 10000);
    EXPECT_NEAR(e.joules, 900.0, 1e-6) << "the 9 intervals after the bad first reading";
    EXPECT_EQ(e.coveredMs, 9000);
    EXPECT_EQ(cleanCounter(counter).glitches, 1u);

    // A slow counter (1 W, 1 J per reading) dipping 5 J below the reading before, every 97.
    std::vector<int64_t> t;
    std::vector<double> mj;
    for (int i = 0; i <= 2000; ++i) {
        t.push_back(int64_t(i) * 1000);
        mj.push_back(5e6 + 1000.0 * i - (i % 97 == 50 ? 6000.0 : 0.0));
    }
    e = counterEnergy(series(t, mj), 0, 2000000);
    EXPECT_NEAR(e.joules, 2000.0, 2000.0 * 0.001) << "within 0.1 % of 1 W x 2000 s";
    EXPECT_EQ(cleanCounter(series(t, mj)).glitches, 21u);

    // A driver reload: to near zero, then on at the same rate. That one interval is unknown.
    auto [reset, unused] = hundredWatts(10);
    for (size_t i = 5; i < reset.size(); ++i)
        reset.v[i] = 100'000.0 * double(i - 5) + 2000;
    e = counterEnergy(reset, 0, 10000);
    EXPECT_NEAR(e.joules, 900.0, 1e-6);
    EXPECT_EQ(e.coveredMs, 9000);
    EXPECT_EQ(cleanCounter(reset).glitches, 0u);
}

// The energy cross-check: counter against integrated power; flagged above 2 %, and above 25 %
// the counter is not believed and the report says why.
TEST(EnergyInsight, TheCounterIsCrossCheckedAgainstPowerAndReplacedWhenFarOff) {
    auto [counter, power] = hundredWatts(10);
    std::map<std::string, Series> all = {{"DCGMI - Total Energy Consumption", counter},
                                         {"SMI - Power Draw", power}};
    EnergyEstimate e = gpuEnergy(keysOf(all), reader(all), 0, 10000);
    EXPECT_EQ(e.source, "counter");
    EXPECT_NEAR(*e.joules, 1000.0, 1e-6);
    EXPECT_NEAR(*e.checkCounterJoules, 1000.0, 1e-6);
    EXPECT_NEAR(*e.checkPowerJoules, 1000.0, 1e-6);

    for (double& v : all["SMI - Power Draw"].v)
        v = 60; // the counter says 100 W: 67 % apart
    e = gpuEnergy(keysOf(all), reader(all), 0, 10000);
    EXPECT_EQ(e.source, "power");
    EXPECT_NEAR(*e.joules, 600.0, 1e-6);
    ASSERT_EQ(e.notes.size(), 1u);
    EXPECT_NE(
        e.notes[0].find("GPU 0: the energy counter (1000 J) disagrees with integrated power (600 J) by 67 %"),
        std::string::npos)
        << e.notes[0];
}

// Negative power readings are left out and said; a clock set back 30 s while recording (samples
// overlapping in time) is said, since the energy of the overlap cannot be told apart.
TEST(EnergyInsight, NegativePowerAndAClockThatWentBackAreSaid) {
    std::map<std::string, Series> all = {
        {"SMI - Power Draw", series({0, 1000, 2000, 3000}, {100, -50, 100, 100})}};
    EnergyEstimate e = gpuEnergy(keysOf(all), reader(all), 0, 3000);
    EXPECT_NEAR(*e.joules, 300.0, 1e-6) << "as if the negative reading were missing";
    ASSERT_EQ(e.notes.size(), 1u);
    EXPECT_NE(e.notes[0].find("1 negative power reading(s) left out"), std::string::npos);

    // 120 s at 1 Hz with the clock set back 30 s after 90 s: 121 samples over 90 s of timestamps.
    std::vector<int64_t> t;
    std::vector<double> w;
    for (int i = 0; i <= 120; ++i) {
        t.push_back((i <= 90 ? i : i - 30) * 1000 + (i > 90 ? 500 : 0));
        w.push_back(100);
    }
    Series stepped = series(t, w);
    std::vector<size_t> order(t.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return t[a] < t[b]; });
    Series sorted; // as the store gives it: in time order
    for (size_t i : order) {
        sorted.t.push_back(stepped.t[i]);
        sorted.v.push_back(stepped.v[i]);
        sorted.step.push_back(0);
    }
    all = {{"SMI - Power Draw", sorted}};
    e = gpuEnergy(keysOf(all), reader(all), 0, 91000);
    ASSERT_FALSE(e.notes.empty());
    EXPECT_NE(e.notes[0].find("the clock went back while recording"), std::string::npos) << e.notes[0];
    EXPECT_NE(e.notes[0].find("energy is undercounted"), std::string::npos) << e.notes[0];

    // A loaded tool that missed every third sample (steps of 1 and 2 s) is no clock step.
    t.clear();
    w.clear();
    for (int i = 0, ms = 0; i <= 120; ++i, ms += (i % 3 == 0 ? 2000 : 1000)) {
        t.push_back(ms);
        w.push_back(100);
    }
    all = {{"SMI - Power Draw", series(t, w)}};
    e = gpuEnergy(keysOf(all), reader(all), 0, t.back());
    EXPECT_TRUE(e.notes.empty()) << e.notes.front();
}

// Two bad counter readings in a row (a 0 then another 0) would count the counter's whole lifetime
// in one step; a step at over 50 times the usual rate is left uncounted and counted as a glitch.
TEST(EnergyInsight, TwoBadCounterReadingsInARowAreNotTheCountersLifetime) {
    auto [counter, power] = hundredWatts(20);
    counter.v[8] = 0;
    counter.v[9] = 0;
    const EnergyIntegral e = counterEnergy(counter, 0, 20000);
    EXPECT_LT(e.joules, 2000.0) << "at most 100 W x 20 s";
    EXPECT_GE(e.joules, 1600.0);
    EXPECT_GE(cleanCounter(counter).glitches, 1u);
}

TEST(UtilisationInsight, ProfilesAreTimeWeightedWithAnIdleShare) {
    auto p = utilisationProfile(series({0, 1000, 2000, 3000}, {0, 100, 100, 50}), 100);
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->mean, 62.5);
    EXPECT_DOUBLE_EQ(p->p50, 75.0);
    EXPECT_DOUBLE_EQ(p->p95, 100.0);
    EXPECT_DOUBLE_EQ(p->idleShare, 0.25);
    // A sample holds until the next: 10 for 1 s, 20 for 2 s, and the last for one interval (2 s).
    p = utilisationProfile(series({0, 1000, 3000}, {10, 20, 30}), 100);
    EXPECT_DOUBLE_EQ(p->mean, (10 * 1000 + 20 * 2000 + 30 * 2000) / 5000.0);
    EXPECT_FALSE(utilisationProfile(series({0}, {std::nan("")}), 100));
    EXPECT_EQ(utilisationScale("SMI - GPU Util", {}), 1.0);
    EXPECT_EQ(utilisationScale("DCGMI - SM Active", {}), 1.0);
    EXPECT_EQ(utilisationScale("DCGMI - GPU Utilization", {}), 100.0);
}

TEST(UtilisationInsight, AWideGapBetweenUtilisationAndSmActivityIsFlagged) {
    const std::map<std::string, Series> busyLooking = {
        {"DCGMI - GPU Utilization", series({0, 1000}, {90, 90})},
        {"DCGMI - SM Active", series({0, 1000}, {0.4, 0.4})}};
    auto gap = utilSmactGap(keysOf(busyLooking), reader(busyLooking));
    ASSERT_TRUE(gap);
    EXPECT_DOUBLE_EQ(gap->utilPct, 90);
    EXPECT_DOUBLE_EQ(gap->smactPct, 40);
    EXPECT_DOUBLE_EQ(gap->gapPp, 50);
    EXPECT_TRUE(gap->flagged);
    // nvidia-smi's 0..1 util against GR Engine Active (no SM Active): 50 % vs 45 %.
    const std::map<std::string, Series> fine = {
        {"SMI - GPU Util", series({0, 1000}, {0.5, 0.5})},
        {"DCGMI - GR Engine Active", series({0, 1000}, {0.45, 0.45})}};
    gap = utilSmactGap(keysOf(fine), reader(fine));
    ASSERT_TRUE(gap);
    EXPECT_NEAR(gap->gapPp, 5, 1e-9);
    EXPECT_FALSE(gap->flagged);
    const std::map<std::string, Series> none = {{"SMI - GPU Util", series({0}, {0.5})}};
    EXPECT_FALSE(utilSmactGap(keysOf(none), reader(none)));
}

TEST(BurstInsight, TwoMeansSplitsBurstsFromIdleAndWindowsGetTheirPattern) {
    EXPECT_EQ(*twoMeansThreshold({0, 0, 0, 10, 10}), 10);
    EXPECT_FALSE(twoMeansThreshold({3, 3, 3}));
    // 30 s at 1 Hz: idle 10 s, burst 13 s, idle 3 s, burst 4 s; windows I, B, BIB.
    std::vector<int64_t> t;
    std::vector<double> v;
    for (int i = 0; i < 30; ++i) {
        t.push_back(i * 1000);
        v.push_back(i < 10 || (i >= 23 && i < 26) ? 0 : 80);
    }
    const auto b = burstIdle(series(t, v), 5);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->burstMean, 80);
    EXPECT_EQ(b->idleMean, 0);
    EXPECT_DOUBLE_EQ(b->burstDurationMeanS, (13 + 4) / 2.0);
    EXPECT_DOUBLE_EQ(b->idleDurationMeanS, (10 + 3) / 2.0);
    EXPECT_DOUBLE_EQ(b->idleDurationP50S, 6.5);
    EXPECT_EQ(b->windows, 3u);
    EXPECT_DOUBLE_EQ(b->shareI, 1.0 / 3);
    EXPECT_DOUBLE_EQ(b->shareB, 1.0 / 3);
    EXPECT_DOUBLE_EQ(b->shareBIB, 1.0 / 3);
    const auto periods = burstPeriods(series(t, v), b->threshold);
    ASSERT_EQ(periods.size(), 2u);
    EXPECT_EQ(periods[0], std::make_pair(int64_t(10000), int64_t(23000)));
    EXPECT_EQ(periods[1], std::make_pair(int64_t(26000), int64_t(30000)));
    // A steady 75 % is one long burst; a steady 1 % (under the idle floor of 5) is idle.
    EXPECT_EQ(burstIdle(series({0, 1000, 2000}, {75, 75, 75}), 5)->shareB, 1.0);
    EXPECT_EQ(burstIdle(series({0, 1000, 2000}, {1, 1, 2}), 5)->shareI, 1.0);
}

TEST(EpochInsight, EpochsEndWhenTheirStepIsLoggedAndHardwareSamplesFindTheirEpoch) {
    Series loss = series({1000, 3000, 6000}, {0.9, 0.5, 0.3});
    loss.step = {1, 2, 3};
    const auto spans = epochSpans(loss, 0);
    ASSERT_EQ(spans.size(), 3u);
    EXPECT_EQ(spans[1].fromMs, 1000);
    EXPECT_EQ(spans[1].toMs, 3000);
    EXPECT_EQ(epochAt(spans, 2000), 2);
    EXPECT_EQ(epochAt(spans, 6000), 3);
    EXPECT_EQ(epochAt(spans, 0), -1);
    EXPECT_EQ(epochAt(spans, 7000), -1);
    Series accuracy = series({3000, 6000}, {0.5, 0.6});
    accuracy.step = {2, 3};
    const std::map<std::string, Series> all = {{"loss", loss},
                                               {"accuracy", accuracy},
                                               {"TOP - CPU Utilization", series({0, 1, 2, 3}, {1, 2, 3, 4})}};
    EXPECT_EQ(epochMetricKey(keysOf(all), reader(all)), "loss");
}

TEST(EpochInsight, ProgressCountsEpochsFromTheStartWhateverTheStepNumbers) {
    Series loss = series({1000, 3000, 6000}, {0.9, 0.5, 0.3});
    loss.step = {7, 8, 9}; // numbered from 7: progress still starts at 0
    const auto spans = epochSpans(loss, 0);
    EXPECT_EQ(epochProgress(spans, 0), 0.0);
    EXPECT_EQ(epochProgress(spans, 500), 0.5);
    EXPECT_EQ(epochProgress(spans, 2000), 1.5);
    EXPECT_EQ(epochProgress(spans, 6000), 3.0);
    EXPECT_FALSE(epochProgress(spans, 6001));
    EXPECT_FALSE(epochProgress(spans, -1));
    EXPECT_FALSE(epochProgress({}, 0));
    // From latest values alone: the software key with the highest step; hardware keys never.
    std::map<std::string, LatestMetric> latest = {{"loss", {0.3, 6000, 9}},
                                                  {"accuracy", {0.6, 6000, 9}},
                                                  {"lr", {0.1, 0, 0}},
                                                  {"SMI - Power Draw W", {200, 6000, 99}}};
    EXPECT_EQ(epochMetricFromLatest(latest), "accuracy") << "ties go to the name first in order";
    latest.erase("accuracy");
    latest.erase("loss");
    EXPECT_EQ(epochMetricFromLatest(latest), "") << "no key with a step of 1 or more";
}

namespace {

// The insight store of InsightTestSupport.h in a temporary SQLite file.
struct ReportStore {
    test::TempDir dir;
    std::string uri = "sqlite:///" + dir.file("report.db");
    std::unique_ptr<Store> store = openStore(uri, OpenMode::CreateIfMissing);
    std::vector<std::string> collocated;
    std::string solo;
    ReportStore() {
        const test::InsightRuns runs = test::addInsightRuns(*store);
        collocated = runs.collocated;
        solo = runs.solo;
    }
};

} // namespace

TEST(InsightReport, ACollocatedWorkloadAgainstItsSoloBaseline) {
    ReportStore s;
    const std::vector<radt::Run> runs = resolveReportTargets(*s.store, {"1-1"});
    ASSERT_EQ(runs.size(), 2u);
    ReportOptions options;
    options.gridIntensity = 400;
    const nlohmann::json report = buildReport(*s.store, runs, options);
    ASSERT_EQ(report["runs"].size(), 2u);
    const nlohmann::json& r = report["runs"][0];
    EXPECT_EQ(r["workload"], "1-1");
    EXPECT_DOUBLE_EQ(r["duration_s"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(r["gpu_energy_j"].get<double>(), 1000.0);
    EXPECT_EQ(r["gpu_energy_source"], "power");
    EXPECT_DOUBLE_EQ(r["energy_coverage"].get<double>(), 1.0);
    EXPECT_TRUE(r["cpu_energy_j"].is_null());
    EXPECT_EQ(r["epochs"], 2);
    EXPECT_DOUBLE_EQ(r["energy_per_epoch_j"].get<double>(), 500.0);
    // Two runs shared the GPU: each is charged half of it, CO2e included.
    EXPECT_DOUBLE_EQ(r["gpu_energy_device_j"].get<double>(), 1000.0);
    EXPECT_DOUBLE_EQ(r["gpu_energy_attributed_j"].get<double>(), 500.0);
    EXPECT_DOUBLE_EQ(r["energy_per_epoch_attributed_j"].get<double>(), 250.0);
    EXPECT_DOUBLE_EQ(r["co2e_g"].get<double>(), 500.0 / 3.6e6 * 400);
    EXPECT_DOUBLE_EQ(r["util"]["DCGMI - GPU Utilization"]["mean"].get<double>(), 90.0);
    EXPECT_NEAR(r["util_smact_gap_pp"].get<double>(), 60.0, 1e-9);
    EXPECT_TRUE(r["util_smact_flag"].get<bool>());
    ASSERT_FALSE(r["collocation"].is_null());
    const std::string other = r["run_uuid"] == s.collocated[0] ? s.collocated[1] : s.collocated[0];
    EXPECT_EQ(r["collocation"]["shared_with"], nlohmann::json::array({other}));
    EXPECT_DOUBLE_EQ(r["collocation"]["energy_share_j"].get<double>(), 500.0);
    EXPECT_EQ(r["collocation"]["method"], "equal");
    ASSERT_FALSE(r["slowdown"].is_null());
    EXPECT_TRUE(r["slowdown"]["baseline_run"].is_null()) << "no --baseline: the solo configuration";
    EXPECT_EQ(r["slowdown"]["baseline_runs"], nlohmann::json::array({s.solo}));
    EXPECT_EQ(r["slowdown"]["basis"], "epoch");
    EXPECT_EQ(r["slowdown"]["baseline_n"], 1);
    EXPECT_DOUBLE_EQ(r["slowdown"]["factor"].get<double>(), 2.0) << "5 s epochs against 2.5 s alone";
    ASSERT_EQ(report["workloads"].size(), 1u);
    EXPECT_DOUBLE_EQ(report["workloads"][0]["gpu_energy_j"].get<double>(), 1000.0)
        << "the shared GPU counted once";
    // The solo run alone: no collocation, no slowdown.
    const nlohmann::json alone =
        buildReport(*s.store, resolveReportTargets(*s.store, {s.solo.substr(0, 6)}), {});
    EXPECT_TRUE(alone["runs"][0]["collocation"].is_null());
    EXPECT_TRUE(alone["runs"][0]["slowdown"].is_null());
    EXPECT_TRUE(alone["runs"][0]["co2e_g"].is_null()) << "no grid intensity given";
    EXPECT_DOUBLE_EQ(alone["runs"][0]["energy_per_epoch_j"].get<double>(), 500.0);
    // Targets: experiment by name, unknown names.
    EXPECT_EQ(resolveReportTargets(*s.store, {"bench"}).size(), 3u);
    EXPECT_THROW(resolveReportTargets(*s.store, {"nothing-here"}), std::invalid_argument);
    EXPECT_TRUE(resolveReportTargets(*s.store, {"0"}).empty()) << "experiment 0 exists, without runs";
    EXPECT_THROW(resolveReportTargets(*s.store, {}), std::invalid_argument);
}

TEST(InsightReport, RadtReportPrintsATableJsonAndRefusesUnknownTargets) {
    ReportStore s;
    const std::string radt = std::string(RADT_BINARY_DIR) + "/app/radt";
    auto run = [&](const std::string& args) {
        const std::string cmd = "'" + radt + "' report --store '" + s.uri + "' " + args + " >'" +
                                s.dir.file("out") + "' 2>'" + s.dir.file("err") + "'";
        const int status = std::system(cmd.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    ASSERT_EQ(run("1-1 --grid-intensity 400 --pue 1.2"), 0) << test::readFile(s.dir.file("err"));
    const std::string table = test::readFile(s.dir.file("out"));
    EXPECT_NE(table.find("1000.0"), std::string::npos) << table;
    EXPECT_NE(table.find("2.00x"), std::string::npos) << table;
    EXPECT_NE(table.find("60.0!"), std::string::npos) << "the util/SMACT flag shows: " << table;
    ASSERT_EQ(run("bench --json"), 0) << test::readFile(s.dir.file("err"));
    const auto json = nlohmann::json::parse(test::readFile(s.dir.file("out")));
    EXPECT_EQ(json["runs"].size(), 3u);
    EXPECT_EQ(json["workloads"].size(), 2u);
    EXPECT_EQ(run("nothing-here"), 2);
    EXPECT_NE(test::readFile(s.dir.file("err")).find("'nothing-here' names no run, workload or experiment"),
              std::string::npos)
        << test::readFile(s.dir.file("err"));
    EXPECT_EQ(run("1-1 --pue 0.5"), 2);
    EXPECT_NE(test::readFile(s.dir.file("err")).find("--pue expects a ratio between 1.0 and 5.0"),
              std::string::npos);
    // A misspelt --burst-metric is said, not ignored.
    EXPECT_EQ(run("1-1 --burst-metric 'SMI - GPU Utill'"), 2);
    EXPECT_NE(test::readFile(s.dir.file("err"))
                  .find("--burst-metric 'SMI - GPU Utill' is not a metric of the runs reported (they have "),
              std::string::npos)
        << test::readFile(s.dir.file("err"));
    EXPECT_EQ(test::readFile(s.dir.file("out")), "") << "nothing half-written";
}

// `radt report` of a run with very many metric keys keeps its memory proportional to the
// data (13.5 KB per key before: a million keys took 13.5 GB, then bad_alloc without context).
TEST(InsightReport, ManyMetricKeysCostMemoryProportionalToTheirData) {
    if (kUnderAddressSanitizer)
        GTEST_SKIP() << "AddressSanitizer's shadow memory makes resident sizes meaningless";
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("keys.db");
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        const int64_t exp = store->getOrCreateExperiment("keys");
        const std::string run =
            store->createRun({exp, "r", 1'700'000'000'000, "u", "s", RunStatus::Running}).uuid;
        std::vector<MetricPoint> points;
        for (int i = 0; i < 30000; ++i)
            points.push_back({"k" + std::to_string(i), 1.0, 1'700'000'000'000 + i, 0});
        store->logMetrics(run, points);
        store->setRunStatus(run, RunStatus::Finished, 1'700'000'100'000);
    }
    const std::string cmd = "'" + std::string(RADT_BINARY_DIR) + "/app/radt' report --json --store '" + uri +
                            "' keys >'" + dir.file("out") + "' 2>'" + dir.file("err") + "'";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << test::readFile(dir.file("err"));
    rusage usage{};
    ASSERT_EQ(::getrusage(RUSAGE_CHILDREN, &usage), 0);
    // 30,000 one-point keys: a few MB of data; 13.5 KB per key was ~400 MB.
    EXPECT_LT(usage.ru_maxrss, 150 * 1024) << "peak resident KiB of radt report";
    EXPECT_EQ(nlohmann::json::parse(test::readFile(dir.file("out")))["runs"].size(), 1u);
}

// An MLflow run ended 0.6 s after its start, holding 100 s of points logged afterwards
// with their own times, was reported as 62 J at "96 % cover". The samples' own span is analysed
// and the report says so.
TEST(InsightReport, SamplesOutsideTheRunsStartAndEndAreAnalysedAndSaid) {
    test::TempDir dir;
    auto store = openStore("sqlite:///" + dir.file("backfill.db"), OpenMode::CreateIfMissing);
    const int64_t t0 = 1'700'000'000'000;
    const std::string uuid =
        store->createRun({0, "backfilled", t0, "u", "notebook", RunStatus::Running}).uuid;
    std::vector<MetricPoint> points;
    for (int i = 0; i <= 100; ++i)
        points.push_back({"SMI - Power Draw", 100.0, t0 + i * 1000, 0});
    store->logMetrics(uuid, points);
    store->setRunStatus(uuid, RunStatus::Finished, t0 + 600);
    const nlohmann::json r = buildReport(*store, {*store->run(uuid)}, ReportOptions{})["runs"][0];
    EXPECT_NEAR(r["gpu_energy_j"].get<double>(), 10000.0, 1e-6);
    EXPECT_NEAR(r["energy_coverage"].get<double>(), 1.0, 1e-9);
    EXPECT_NEAR(r["duration_s"].get<double>(), 100.0, 1e-9);
    ASSERT_TRUE(r["window_note"].is_string());
    EXPECT_NE(
        r["window_note"].get<std::string>().find("after its end; the analysis covers the samples' own span"),
        std::string::npos)
        << r["window_note"];
    const std::string table = reportTable(buildReport(*store, {*store->run(uuid)}, ReportOptions{}));
    EXPECT_NE(table.find("window: samples lie 1m 39s after its end"), std::string::npos) << table;
}
