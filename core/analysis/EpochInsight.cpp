// SPDX-License-Identifier: MIT
#include "core/analysis/EpochInsight.h"

#include "core/base/InsightSeries.h"

#include <algorithm>
#include <map>
#include <set>

namespace radt::insight {

std::string epochMetricKey(const std::vector<std::string>& keys,
                           const std::function<Series(const std::string&)>& series) {
    std::string best;
    size_t bestSteps = 1;
    for (const std::string& key : keys) {
        if (isHardwareKey(key))
            continue;
        const Series s = series(key);
        const std::set<int64_t> steps(s.step.begin(), s.step.end());
        if (steps.size() > bestSteps) {
            best = key;
            bestSteps = steps.size();
        }
    }
    return best;
}

std::vector<EpochSpan> epochSpans(const Series& s, int64_t runStartMs) {
    // The last log time of each step, in time order.
    std::map<int64_t, int64_t> lastLog;
    for (size_t i = 0; i < s.size() && i < s.step.size(); ++i)
        lastLog[s.step[i]] = std::max(lastLog.count(s.step[i]) ? lastLog[s.step[i]] : s.t[i], s.t[i]);
    std::vector<std::pair<int64_t, int64_t>> ends; // (time, step)
    ends.reserve(lastLog.size());
    for (const auto& [step, t] : lastLog)
        ends.emplace_back(t, step);
    std::sort(ends.begin(), ends.end());
    std::vector<EpochSpan> spans;
    int64_t from = runStartMs, lastStep = INT64_MIN;
    for (const auto& [t, step] : ends) {
        if (step <= lastStep)
            continue; // a step logged after a later one: not an epoch boundary
        if (t > from)
            spans.push_back({step, from, t});
        from = std::max(from, t);
        lastStep = step;
    }
    return spans;
}

int64_t epochAt(const std::vector<EpochSpan>& spans, int64_t t) {
    auto it = std::lower_bound(spans.begin(), spans.end(), t,
                               [](const EpochSpan& e, int64_t x) { return e.toMs < x; });
    return it != spans.end() && t > it->fromMs && t <= it->toMs ? it->step : -1;
}

std::optional<double> epochProgress(const std::vector<EpochSpan>& spans, int64_t t) {
    if (spans.empty() || t < spans.front().fromMs || t > spans.back().toMs)
        return std::nullopt;
    auto it = std::lower_bound(spans.begin(), spans.end(), t,
                               [](const EpochSpan& e, int64_t x) { return e.toMs < x; });
    if (it == spans.end() || t < it->fromMs)
        return std::nullopt; // between spans: a step logged twice left a hole
    const double length = double(it->toMs - it->fromMs);
    return double(it - spans.begin()) + (length > 0 ? double(t - it->fromMs) / length : 1.0);
}

std::string epochMetricFromLatest(const std::map<std::string, LatestMetric>& latest) {
    std::string best;
    int64_t bestStep = 0;
    for (const auto& [key, value] : latest) // in name order: the first of equal steps stays
        if (!isHardwareKey(key) && value.step > bestStep) {
            best = key;
            bestStep = value.step;
        }
    return best;
}

} // namespace radt::insight
