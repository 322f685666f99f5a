// SPDX-License-Identifier: MIT
// The MPS path of `radt experiment.csv` recorded for real on an H100 (driver 580.159.04, CUDA
// 13.0): two runs alone, a time-sliced pair and two pairs under MPS that radt started and quit
// itself (tests/fixtures/runs/h100_mps_experiment.db). The figures are the recording's own; the
// assertions say what a researcher reads off them.

#include "InsightTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/analysis/InsightReport.h"
#include "core/report/ReportTables.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace radt {
namespace {

struct MpsExperiment : ::testing::Test {
    void SetUp() override {
        store = openStore(test::fixturePath("runs/h100_mps_experiment.db"), OpenMode::ReadOnly);
        runs = resolveReportTargets(*store, {"h100-mps"});
    }
    /// Mean of the TFLOP/s the workload logged per epoch, for one run.
    double meanTflops(const std::string& runUuid) const {
        const Series s = store->series(runUuid, "TFLOPS");
        EXPECT_EQ(s.v.size(), 4u) << "four epochs";
        return std::accumulate(s.v.begin(), s.v.end(), 0.0) / static_cast<double>(s.v.size());
    }
    std::unique_ptr<Store> store;
    std::vector<radt::Run> runs;
};

TEST_F(MpsExperiment, MpsIsItsOwnConfigurationAndBeatsTimeSlicing) {
    ASSERT_EQ(runs.size(), 8u);
    const nlohmann::json report = buildReport(*store, runs, {});
    const nlohmann::json& configurations = report["configurations"];
    ASSERT_EQ(configurations.size(), 3u) << configurations.dump(1);
    // Collocation is a configuration parameter: a time-sliced pair and an MPS pair are not repeats.
    EXPECT_EQ(configurations[0]["params"]["runs_per_gpu"], "1");
    EXPECT_EQ(configurations[1]["params"]["collocation"], "-");
    EXPECT_EQ(configurations[1]["params"]["runs_per_gpu"], "2");
    EXPECT_EQ(configurations[2]["params"]["collocation"], "MPS");
    EXPECT_EQ(configurations[2]["runs"].size(), 4u) << "two workloads of two runs under MPS";
    const auto meanDuration = [&](int c) {
        return configurations[c]["stats"]["duration_s"]["mean"].get<double>();
    };
    // Alone 18.0 s; a time-sliced pair 30.5 s; an MPS pair 27.6 s (recorded).
    EXPECT_LT(meanDuration(2), meanDuration(1));
    EXPECT_GT(meanDuration(2), meanDuration(0));
    // A pair's two jobs ran at the same time on one GPU: not two repeats. N counts workloads, each
    // one replicate (its jobs' mean), and Welch follows: the time-sliced pair is one workload (no
    // test against it), the MPS pairs two. Independently (scipy's ttest_ind, equal_var=False, on
    // the solo runs' 18.051, 18.049 s and the MPS workloads' means 27.550, 27.659 s): t = 175.28,
    // p = 0.0036197850; energy shares 7466.23, 7526.62 J against 7249.77, 7302.44 J: p = 0.0328111381.
    EXPECT_EQ(configurations[0]["n"], 2);
    EXPECT_EQ(configurations[1]["n"], 1);
    EXPECT_EQ(configurations[2]["n"], 2);
    EXPECT_EQ(configurations[2]["replicate"], "workload");
    EXPECT_EQ(configurations[2]["workloads"], nlohmann::json::array({"1-4", "1-5"}));
    EXPECT_EQ(configurations[2]["stats"]["duration_s"]["n"], 2);
    bool compared = false, tested = false;
    for (const auto& k : report["comparisons"]) {
        if (k["a"] == 1 && k["b"] == 2 && k["figure"] == "duration_s") {
            compared = true;
            EXPECT_LT(k["ratio"].get<double>(), 0.95) << "MPS is faster than time-slicing";
            EXPECT_EQ(k["n_a"], 1) << "one time-sliced workload";
            EXPECT_EQ(k["n_b"], 2) << "two MPS workloads, not their four runs";
            EXPECT_TRUE(k["p_value"].is_null()) << "no test against a single replicate";
        }
        if (k["a"] == 0 && k["b"] == 2) {
            tested = true;
            EXPECT_EQ(k["n_a"], 2);
            EXPECT_EQ(k["n_b"], 2);
            EXPECT_NEAR(k["p_value"].get<double>(), k["figure"] == "duration_s" ? 0.0036197850 : 0.0328111381,
                        1e-9)
                << k.dump();
        }
    }
    EXPECT_TRUE(compared);
    EXPECT_TRUE(tested);

    // Per workload: two runs together against the same two one after another alone. MPS gains more.
    std::map<std::string, double> gain;
    for (const auto& w : report["workloads"])
        if (w["collocation_gain"].is_object())
            gain[w["workload"]] = w["collocation_gain"]["throughput_gain"].get<double>();
    ASSERT_EQ(gain.size(), 3u);
    EXPECT_GT(gain.at("1-3"), 1.05) << "time-sliced pair";
    for (const char* mps : {"1-4", "1-5"}) {
        EXPECT_GT(gain.at(mps), gain.at("1-3") + 0.05) << mps;
        EXPECT_LT(gain.at(mps), 2.0) << mps;
    }
    // Named by the fewest params that tell them apart (radT's own here: nothing else differs).
    EXPECT_EQ(configurations[0]["label"], "runs_per_gpu=1");
    EXPECT_EQ(configurations[1]["label"], "runs_per_gpu=2");
    EXPECT_EQ(configurations[2]["label"], "collocation=MPS runs_per_gpu=2");
    EXPECT_NE(reportTable(report).find("collocation=MPS runs_per_gpu=2"), std::string::npos);
}

TEST_F(MpsExperiment, SharesOfTheGpuAddUpAndTheWorkloadsOwnThroughputAgrees) {
    const nlohmann::json report = buildReport(*store, runs, {});
    std::map<std::string, double> shares;
    std::map<std::string, std::vector<std::string>> members;
    for (const auto& r : report["runs"]) {
        shares[r["workload"]] += r["gpu_energy_attributed_j"].get<double>();
        members[r["workload"]].push_back(r["run_uuid"]);
    }
    for (const auto& w : report["workloads"])
        EXPECT_NEAR(w["gpu_energy_j"].get<double>(), shares[w["workload"]], 1e-6) << w.dump();

    // What the workload itself measured (TFLOP/s per epoch) tells the same story as the durations:
    // one run alone ~51.6, each of a time-sliced pair ~23, each of an MPS pair ~26.5.
    const auto pairTflops = [&](const std::string& workload) {
        double sum = 0;
        for (const std::string& uuid : members.at(workload))
            sum += meanTflops(uuid);
        return sum;
    };
    ASSERT_EQ(members.at("1-1").size(), 1u);
    const double alone = meanTflops(members.at("1-1")[0]);
    EXPECT_GT(alone, 45.0);
    EXPECT_LT(pairTflops("1-3"), alone) << "time-slicing loses to one run alone";
    EXPECT_GT(pairTflops("1-4"), alone) << "MPS overlaps the pair's kernels";
    EXPECT_GT(pairTflops("1-5"), pairTflops("1-3") * 1.1);
}

} // namespace
} // namespace radt
