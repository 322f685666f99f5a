// SPDX-License-Identifier: MIT
#pragma once
// A batch-size sweep as researchers record one: 3 batch sizes (64, 128, 256) x 4 seeds,
// one finished run each in experiment "sweep", written through the store API as radt writes runs:
// radT's params (workload, letter, model, params) and each flag as its own param. Every value is
// known: the comparison views' tests check them.

#include "core/store/Store.h"

#include <cmath>
#include <string>
#include <vector>

namespace radt::test {

inline constexpr int64_t kSweepT0 = 1'700'000'000'000;
inline const std::vector<int> kSweepBatches = {64, 128, 256};

struct SweepRun {
    std::string uuid;
    int batch = 0;
    int seed = 0;
    double durationS = 0;         ///< 100 s + 20 s per batch-size step + the seed
    double watts = 0;             ///< a flat power draw: 100 W + the batch size
    std::vector<double> accuracy; ///< one value per epoch (5 epochs)
};

/// The accuracy of epoch `e` (1..5) of a run.
inline double sweepAccuracy(int batch, int seed, int epoch) {
    return 0.5 + 0.1 * std::log2(batch / 64.0) + 0.01 * seed + 0.04 * epoch - (epoch == 3 ? 0.05 : 0.0);
}

inline std::vector<SweepRun> addSweepRuns(Store& store, const std::string& experimentName = "sweep") {
    const int64_t experiment = store.getOrCreateExperiment(experimentName);
    std::vector<SweepRun> out;
    int workload = 1;
    for (size_t b = 0; b < kSweepBatches.size(); ++b)
        for (int seed = 1; seed <= 4; ++seed, ++workload) {
            SweepRun s;
            s.batch = kSweepBatches[b];
            s.seed = seed;
            s.durationS = 100 + 20.0 * double(b) + seed;
            s.watts = 100 + s.batch;
            const int64_t start = kSweepT0 + workload * 1'000'000;
            const int64_t end = start + int64_t(s.durationS * 1000);
            const std::string flags =
                "--batch-size " + std::to_string(s.batch) + " --seed " + std::to_string(seed);
            const Run run = store.createRun({experiment, "(" + std::to_string(workload) + " 0) train.py",
                                             start, "u", "train.py", RunStatus::Running});
            s.uuid = run.uuid;
            store.logParams(run.uuid, {{"workload", std::to_string(workload)},
                                       {"letter", "0"},
                                       {"model", "train.py"},
                                       {"params", flags},
                                       {"batch-size", std::to_string(s.batch)},
                                       {"seed", std::to_string(seed)}});
            std::vector<MetricPoint> points;
            for (int64_t t = start; t <= end; t += 1000)
                points.push_back({"DCGMI - Power Usage", s.watts, t, 0});
            for (int e = 1; e <= 5; ++e) {
                s.accuracy.push_back(sweepAccuracy(s.batch, seed, e));
                points.push_back({"accuracy", s.accuracy.back(), start + e * (end - start) / 5, e});
                points.push_back({"epoch", double(e), start + e * (end - start) / 5, e});
            }
            store.logMetrics(run.uuid, points);
            store.setRunStatus(run.uuid, RunStatus::Finished, end);
            out.push_back(s);
        }
    return out;
}

} // namespace radt::test
