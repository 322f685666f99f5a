// SPDX-License-Identifier: MIT
#pragma once
// Chart runs held in memory for the GUI benchmarks (bench_chart_open, bench_zoom_frame).

#include "widgets/chart/engine/ChartLines.h"

#include <cmath>
#include <string>
#include <vector>

namespace radt::bench {

/// `runs` runs of `points` each, 10 ms apart, a step per point, each its own workload: a power
/// trace with a slow swing and fine jitter, so every pixel column holds a distinct min and max
/// (the densest a line gets).
inline std::vector<ChartRunData> memoryChartRuns(int runs, int points) {
    std::vector<ChartRunData> out;
    for (int r = 0; r < runs; ++r) {
        ChartRunData d;
        d.run.uuid = "run" + std::to_string(r);
        d.run.startTime = 1700000000000;
        d.run.status = RunStatus::Finished;
        d.run.params = {{"workload", std::to_string(r + 1)}, {"letter", "0"}};
        d.series.reserve(size_t(points));
        for (int i = 0; i < points; ++i) {
            d.series.t.push_back(1700000000000 + int64_t(i) * 10);
            d.series.step.push_back(i);
            d.series.v.push_back(150.0 + 40.0 * std::sin(i * 2e-5 + r) + (int64_t(i) * 7919 % 101) * 0.05);
        }
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace radt::bench
