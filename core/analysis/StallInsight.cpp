// SPDX-License-Identifier: MIT
#include "core/analysis/StallInsight.h"

#include "core/analysis/UtilisationInsight.h"
#include "core/base/InsightSeries.h"
#include "core/base/MetricKeys.h"

#include <algorithm>

namespace radt::insight {

namespace {

struct Held {
    int64_t from, to; ///< [from, to)
    double value;     ///< in percent of the metric's scale
};

/// Each usable sample as a stretch of time it stands for, clipped to [fromMs, toMs].
std::vector<Held> heldSamples(const Series& raw, double scale, int64_t fromMs, int64_t toMs) {
    const Series s = usablePoints(raw);
    std::vector<Held> out;
    const int64_t typical = std::max<int64_t>(typicalIntervalMs(s), 1);
    const int64_t gap = maxGapMs(s);
    for (size_t i = 0; i < s.size(); ++i) {
        const bool continuous = i + 1 < s.size() && s.t[i + 1] - s.t[i] <= gap;
        const int64_t a = std::max(s.t[i], fromMs);
        const int64_t b = std::min(continuous ? s.t[i + 1] : s.t[i] + typical, toMs);
        if (b > a)
            out.push_back({a, b, s.v[i] / scale * 100.0});
    }
    return out;
}

} // namespace

std::optional<InputStalls> inputStalls(const std::vector<std::string>& keys,
                                       const std::function<Series(const std::string&)>& series,
                                       int64_t fromMs, int64_t toMs, const StallThresholds& thresholds) {
    InputStalls r;
    r.gpuKey = firstKeyOfRole(keys, KeyRole::GpuUtilisation);
    r.cpuKey = std::count(keys.begin(), keys.end(), "PROC - CPU Utilization") ? "PROC - CPU Utilization" : "";
    if (r.gpuKey.empty() || r.cpuKey.empty())
        return std::nullopt;
    const Series gpuSeries = series(r.gpuKey), cpuSeries = series(r.cpuKey);
    const auto gpu = heldSamples(gpuSeries, utilisationScale(r.gpuKey, gpuSeries), fromMs, toMs);
    const auto cpu = heldSamples(cpuSeries, 100.0, fromMs, toMs); // 100 % = one core
    int64_t covered = 0, stalled = 0;
    // Both lists are ordered and their stretches do not overlap: walk them side by side.
    for (size_t g = 0, c = 0; g < gpu.size() && c < cpu.size();) {
        const int64_t a = std::max(gpu[g].from, cpu[c].from), b = std::min(gpu[g].to, cpu[c].to);
        if (b > a) {
            covered += b - a;
            if (gpu[g].value < thresholds.gpuBelowPct && cpu[c].value >= thresholds.cpuCores * 100.0) {
                stalled += b - a;
                if (!r.periods.empty() && r.periods.back().second == a)
                    r.periods.back().second = b;
                else
                    r.periods.emplace_back(a, b);
            }
        }
        (gpu[g].to < cpu[c].to ? g : c)++;
    }
    if (covered <= 0)
        return std::nullopt;
    r.coveredS = double(covered) / 1000.0;
    r.stalledS = double(stalled) / 1000.0;
    r.share = double(stalled) / double(covered);
    return r;
}

} // namespace radt::insight
