// SPDX-License-Identifier: MIT
#pragma once
// The store both insight suites (core report, explorer view) compute on: two runs sharing GPU 0
// (100 W for 10 s, 2 epochs of 5 s, GPU utilisation 90 % with SM activity 30 %) and a solo run of
// the same script and arguments (200 W, 4 epochs of 2.5 s).

#include "core/store/Store.h"

#include <map>
#include <string>
#include <vector>

namespace radt::test {

inline constexpr int64_t kInsightT0 = 1'700'000'000'000;

inline std::string addInsightRun(Store& store, int64_t experiment, const std::string& workload,
                                 const std::string& letter, double watts, int epochs) {
    const int64_t t0 = kInsightT0;
    const radt::Run run = store.createRun(
        {experiment, "(" + workload + " " + letter + ") train.py", t0, "u", "train.py", RunStatus::Running});
    store.logParams(run.uuid, {{"workload", workload},
                               {"letter", letter},
                               {"model", "train.py"},
                               {"params", "--batch-size 64"},
                               {"devices", "0"}});
    std::vector<MetricPoint> points;
    for (int i = 0; i <= 10; ++i) {
        points.push_back({"DCGMI - Power Usage", watts, t0 + i * 1000, 0});
        points.push_back({"DCGMI - GPU Utilization", 90, t0 + i * 1000, 0});
        points.push_back({"DCGMI - SM Active", 0.3, t0 + i * 1000, 0});
    }
    for (int e = 1; e <= epochs; ++e)
        points.push_back({"loss", 1.0 / e, t0 + e * 10000 / epochs, e});
    store.logMetrics(run.uuid, points);
    store.setRunStatus(run.uuid, RunStatus::Finished, t0 + 10000);
    return run.uuid;
}

/// The collocated pair (workload 1) and the solo baseline (workload 2) in experiment "bench".
struct InsightRuns {
    std::vector<std::string> collocated;
    std::string solo;
};

inline InsightRuns addInsightRuns(Store& store) {
    const int64_t experiment = store.getOrCreateExperiment("bench");
    InsightRuns runs;
    runs.collocated = {addInsightRun(store, experiment, "1", "0_A_MPS", 100, 2),
                       addInsightRun(store, experiment, "1", "0_B_MPS", 100, 2)};
    runs.solo = addInsightRun(store, experiment, "2", "0", 200, 4);
    return runs;
}

/// Three finished repeats of one configuration (params model, size, seed 1 to 3), written through
/// the store API as another client would, in experiment "bench": 10 s each, 100 W and 200 W for
/// the first two (1000 J and 2000 J), no power series for the third, so its energy is unknown.
inline std::vector<std::string> addRepeatsOneWithoutPower(Store& store) {
    const int64_t experiment = store.getOrCreateExperiment("bench");
    std::vector<std::string> uuids;
    for (int seed = 1; seed <= 3; ++seed) {
        const int64_t start = kInsightT0 + seed * 100'000;
        const Run run = store.createRun({experiment, "train.py", start, "u", "train.py", RunStatus::Running});
        store.logParams(run.uuid, {{"model", "train.py"}, {"size", "8"}, {"seed", std::to_string(seed)}});
        std::vector<MetricPoint> points;
        for (int i = 0; seed < 3 && i <= 10; ++i)
            points.push_back({"DCGMI - Power Usage", 100.0 * seed, start + i * 1000, 0});
        points.push_back({"loss", 0.5, start + 10'000, 1});
        store.logMetrics(run.uuid, points);
        store.setRunStatus(run.uuid, RunStatus::Finished, start + 10'000);
        uuids.push_back(run.uuid);
    }
    return uuids;
}

/// A batch-size sweep: 3 configurations x 4 seeds, params `batch-size` and `seed`, in
/// experiment "sweep", written in an order that is not the params' (256, then 64, then 128; seeds
/// 4 to 1), so that an order by params is seen to be one. Run k of batch size b lasts
/// kSweepSeconds.at(b)[seed - 1] s at kSweepWatts.at(b) W.
inline const std::map<int, std::vector<double>> kSweepSeconds = {
    {64, {30, 32, 31, 34}}, {128, {20, 21, 19, 23}}, {256, {15, 16, 14, 15}}};
inline const std::map<int, double> kSweepWatts = {{64, 150}, {128, 200}, {256, 250}};

inline std::vector<std::string> addBatchSizeSweep(Store& store) {
    const int64_t experiment = store.getOrCreateExperiment("sweep");
    std::vector<std::string> uuids;
    int64_t start = kInsightT0;
    for (const int batch : {256, 64, 128})
        for (int seed = 4; seed >= 1; --seed) {
            const double seconds = kSweepSeconds.at(batch)[size_t(seed - 1)];
            const Run run =
                store.createRun({experiment, "train.py", start, "u", "train.py", RunStatus::Running});
            store.logParams(run.uuid, {{"model", "train.py"},
                                       {"batch-size", std::to_string(batch)},
                                       {"seed", std::to_string(seed)}});
            std::vector<MetricPoint> points;
            for (int i = 0; i * 1000 <= seconds * 1000; ++i)
                points.push_back({"DCGMI - Power Usage", kSweepWatts.at(batch), start + i * 1000, 0});
            points.push_back({"loss", 1.0 / batch, start + int64_t(seconds * 1000), 1});
            store.logMetrics(run.uuid, points);
            const int64_t end = start + int64_t(seconds * 1000);
            store.setRunStatus(run.uuid, RunStatus::Finished, end);
            uuids.push_back(run.uuid);
            start = end + 5000;
        }
    return uuids;
}

} // namespace radt::test
