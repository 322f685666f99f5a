// SPDX-License-Identifier: MIT
#include "core/base/InsightSeries.h"

#include "core/base/MetricKeys.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace radt::insight {

bool usable(double v) {
    return std::isfinite(v) && std::fabs(v) < DBL_MAX;
}

Series usablePoints(const Series& s) {
    Series out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (!usable(s.v[i]))
            continue;
        out.t.push_back(s.t[i]);
        out.v.push_back(s.v[i]);
        out.step.push_back(i < s.step.size() ? s.step[i] : 0);
    }
    return out;
}

int64_t typicalIntervalMs(const Series& s) {
    std::vector<int64_t> steps;
    steps.reserve(s.size());
    for (size_t i = 1; i < s.size(); ++i)
        if (s.t[i] > s.t[i - 1])
            steps.push_back(s.t[i] - s.t[i - 1]);
    if (steps.empty())
        return 0;
    std::nth_element(steps.begin(), steps.begin() + steps.size() / 2, steps.end());
    return steps[steps.size() / 2];
}

int64_t maxGapMs(const Series& s) {
    return typicalIntervalMs(s) * kMaxGapIntervals;
}

std::map<std::string, std::string> perDeviceKeys(const std::vector<std::string>& keys,
                                                 const std::string& base) {
    std::map<std::string, std::string> out;
    for (const std::string& key : keys) {
        if (key == base)
            out[""] = key;
        else if (key.size() > base.size() + 3 && key.compare(0, base.size(), base) == 0 &&
                 key.compare(base.size(), 3, " - ") == 0)
            out[key.substr(base.size())] = key;
    }
    return out;
}

bool isHardwareKey(const std::string& key) {
    return listenerOfKey(key) != nullptr;
}

double sortedPercentile(const std::vector<double>& sorted, double q) {
    if (sorted.empty())
        return std::nan("");
    const double pos = q * double(sorted.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

double percentile(std::vector<double>& values, double q) {
    if (values.empty())
        return std::nan("");
    const double pos = q * double(values.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(pos));
    std::nth_element(values.begin(), values.begin() + lo, values.end());
    const double low = values[lo];
    if (lo + 1 >= values.size())
        return low;
    const double high = *std::min_element(values.begin() + lo + 1, values.end()); // the next order statistic
    return low + (high - low) * (pos - double(lo));
}

} // namespace radt::insight
