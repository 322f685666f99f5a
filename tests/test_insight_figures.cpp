// SPDX-License-Identifier: MIT
// The per-run figure table and the input-stall analysis on
// hand-made series and values whose answers are worked out by hand: what a person reads in the
// Insights view and `radt report`, and the stretches the stall chart shades.

#include "core/analysis/InsightFigures.h"
#include "core/analysis/StallInsight.h"
#include "core/base/Model.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace radt;
using namespace radt::insight;

namespace {

/// A series sampled every second from 0 to 99 s with value(t) at t.
Series everySecond(const std::function<double(int)>& value, const std::set<int>& missing = {}) {
    Series s;
    for (int t = 0; t < 100; ++t)
        if (!missing.count(t)) {
            s.t.push_back(t * 1000);
            s.v.push_back(value(t));
        }
    return s;
}

} // namespace

// The GPU waits (under 10 %) while the run's processes keep a core busy (>= 80 %).
TEST(InputStalls, KnownStallWindowsGiveExactSharesGapsAreNotCountedAndMissingSeriesGiveNothing) {
    // GPU idle in [20, 30) and [60, 70); the CPU busy except in [60, 70): one 10 s stall.
    const Series gpu =
        everySecond([](int t) { return (t >= 20 && t < 30) || (t >= 60 && t < 70) ? 0.05 : 1.0; });
    const Series cpu = everySecond([](int t) { return t >= 60 && t < 70 ? 10.0 : 95.0; });
    std::map<std::string, Series> data{{"SMI - GPU Util", gpu}, {"PROC - CPU Utilization", cpu}};
    auto read = [&](const std::string& key) { return data.at(key); };
    const std::vector<std::string> keys{"PROC - CPU Utilization", "SMI - GPU Util"};
    auto stalls = inputStalls(keys, read, 0, 100000);
    ASSERT_TRUE(stalls);
    EXPECT_DOUBLE_EQ(stalls->stalledS, 10.0);
    EXPECT_DOUBLE_EQ(stalls->coveredS, 100.0);
    EXPECT_DOUBLE_EQ(stalls->share, 0.1);
    EXPECT_EQ(stalls->gpuKey, "SMI - GPU Util");
    // The stretch to shade on a chart: one window, its held samples merged into [20 s, 30 s).
    using Periods = std::vector<std::pair<int64_t, int64_t>>;
    EXPECT_EQ(stalls->periods, (Periods{{20000, 30000}}));
    // The thresholds are settings: at 5 % nothing (0.05 is 5 %, not under it) is a stall.
    EXPECT_DOUBLE_EQ(inputStalls(keys, read, 0, 100000, {5.0, 0.8})->share, 0.0);
    // Two cores' worth needed: 95 % of one core is not enough.
    EXPECT_DOUBLE_EQ(inputStalls(keys, read, 0, 100000, {10.0, 2.0})->share, 0.0);
    // A window inside the run: [25, 45) holds 5 s of the stall.
    EXPECT_DOUBLE_EQ(inputStalls(keys, read, 25000, 45000)->share, 0.25);

    // GPU samples 41..49 missing: sample 40 holds one interval, nine seconds are unknown and
    // count neither way; a stall inside a gap is not invented.
    data["SMI - GPU Util"] = everySecond([](int t) { return t >= 20 && t < 30 ? 0.0 : 1.0; },
                                         {41, 42, 43, 44, 45, 46, 47, 48, 49});
    stalls = inputStalls(keys, read, 0, 100000);
    ASSERT_TRUE(stalls);
    EXPECT_DOUBLE_EQ(stalls->coveredS, 91.0);
    EXPECT_DOUBLE_EQ(stalls->share, 10.0 / 91.0);
    EXPECT_EQ(stalls->periods, (Periods{{20000, 30000}}));

    // DCGMI's utilisation (percent) wins over nvidia-smi's where both were recorded.
    data["DCGMI - GPU Utilization"] = everySecond([](int) { return 50.0; });
    EXPECT_DOUBLE_EQ(
        inputStalls({"DCGMI - GPU Utilization", "PROC - CPU Utilization", "SMI - GPU Util"}, read, 0, 100000)
            ->share,
        0.0);
    // Without the run's CPU series, or without a GPU series: no figure (null), not 0.
    EXPECT_FALSE(inputStalls({"SMI - GPU Util", "TOP - CPU Utilization"}, read, 0, 100000));
    EXPECT_FALSE(inputStalls({"PROC - CPU Utilization"}, read, 0, 100000));
    // Series that never overlap in time: nothing known.
    EXPECT_FALSE(inputStalls(keys, read, 200000, 300000));
}

// Figures read by people in units of their magnitude, and one table
// that names every figure (the view, its chart and the terminal find figures by key).
TEST(InsightFigures, ValuesReadInTheUnitOfTheirMagnitudeAndDurationsAsAClock) {
    using insight::formatForPeople;
    using insight::Unit;
    EXPECT_EQ(formatForPeople(500, Unit::Joules, 1), "500 J");
    EXPECT_EQ(formatForPeople(4040.3, Unit::Joules, 1), "4.04 kJ");
    EXPECT_EQ(formatForPeople(2773611, Unit::Joules, 1), "2.77 MJ");
    EXPECT_EQ(formatForPeople(0.5, Unit::Joules, 1), "0.5 J");
    EXPECT_EQ(formatForPeople(1122.4, Unit::WattHours, 3), "1.12 kWh");
    EXPECT_EQ(formatForPeople(0.139, Unit::WattHours, 3), "0.139 Wh");
    EXPECT_EQ(formatForPeople(1500, Unit::Grams, 3), "1.50 kg");
    EXPECT_EQ(formatForPeople(18.46, Unit::Seconds, 1), "0:00:18.5");
    EXPECT_EQ(formatForPeople(6164.2, Unit::Seconds, 1), "1:42:44") << "1.7122864 h";
    EXPECT_EQ(formatForPeople(599.97, Unit::Seconds, 1), "0:10:00.0");
    EXPECT_EQ(formatForPeople(45.26, Unit::Percent, 1), "45.3");
    EXPECT_EQ(formatForPeople(1.394, Unit::Factor, 2), "1.39");
    const auto scale = insight::axisScale(8100, Unit::Joules);
    EXPECT_EQ(scale.divisor, 1000);
    EXPECT_EQ(scale.symbol, "kJ");
    EXPECT_EQ(insight::axisScale(7200, Unit::Seconds).symbol, "h");
    EXPECT_EQ(insight::axisScale(50, Unit::Percent).symbol, "%");

    // Every key is unique and found; an unknown one is named.
    std::set<std::string> keys;
    for (const auto& f : insight::runFigures())
        EXPECT_TRUE(keys.insert(f.key).second) << f.key;
    EXPECT_EQ(insight::runFigure("sm_active_pct").unit, Unit::Percent);
    EXPECT_EQ(insight::viewColumn("name"), 0);
    EXPECT_EQ(insight::viewColumn("run_id"), -1) << "the terminal's column only";
    try {
        insight::runFigure("no_such_figure");
        ADD_FAILURE() << "no throw";
    } catch (const std::out_of_range& e) {
        EXPECT_NE(std::string(e.what()).find("'no_such_figure'"), std::string::npos);
    }
    // The SM activity column reads DCGM's SM Active in percent of its scale (a share of 1).
    const nlohmann::json run = {{"util", {{"DCGMI - SM Active", {{"mean", 0.42}, {"scale", 1.0}}}}}};
    EXPECT_DOUBLE_EQ(insight::runFigure("sm_active_pct").value(run).get<double>(), 42.0);
    EXPECT_TRUE(insight::runFigure("gpu_util_pct").value(run).is_null());
}

TEST(InsightFigures, AMeanAndItsConfidenceIntervalShareOneUnit) {
    using insight::formatMeanAndHalfWidth;
    using insight::Unit;
    const double energyCi = 61.2, durationCi = 0.6, hours = 72, pct = 1.26;
    EXPECT_EQ(formatMeanAndHalfWidth(4040.3, &energyCi, Unit::Joules, 1), "4.040 ± 0.061 kJ");
    EXPECT_EQ(formatMeanAndHalfWidth(18.5, &durationCi, Unit::Seconds, 1), "18.50 ± 0.60 s");
    EXPECT_EQ(formatMeanAndHalfWidth(6164.2, &hours, Unit::Seconds, 1), "1.712 ± 0.020 h");
    EXPECT_EQ(formatMeanAndHalfWidth(4040.3, nullptr, Unit::Joules, 1), "4.04 kJ") << "n < 2: no CI";
    EXPECT_EQ(formatMeanAndHalfWidth(45.0, &pct, Unit::Percent, 1), "45.0 ± 1.3");
}
