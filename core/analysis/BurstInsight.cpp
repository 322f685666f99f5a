// SPDX-License-Identifier: MIT
#include "core/analysis/BurstInsight.h"

#include "core/base/InsightSeries.h"

#include <algorithm>
#include <string>

namespace radt::insight {

std::optional<double> twoMeansThreshold(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    if (values.size() < 2 || values.front() == values.back())
        return std::nullopt;
    const size_t n = values.size();
    std::vector<double> sum(n + 1, 0), sq(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
        sum[i + 1] = sum[i] + values[i];
        sq[i + 1] = sq[i] + values[i] * values[i];
    }
    auto sse = [&](size_t a, size_t b) { // values[a, b)
        const double k = double(b - a), s = sum[b] - sum[a];
        return (sq[b] - sq[a]) - s * s / k;
    };
    double best = 0;
    size_t split = 0;
    for (size_t k = 1; k < n; ++k) {
        if (values[k] == values[k - 1])
            continue; // equal values stay in one cluster
        const double cost = sse(0, k) + sse(k, n);
        if (split == 0 || cost < best) {
            best = cost;
            split = k;
        }
    }
    return values[split];
}

std::optional<BurstIdle> burstIdle(const Series& raw, double idleBelow, int64_t windowMs) {
    const Series s = usablePoints(raw);
    if (s.empty())
        return std::nullopt;
    BurstIdle out;
    out.samples = s.size();
    const auto threshold = twoMeansThreshold({s.v.begin(), s.v.end()});
    // Constant: one state, by its level. Else the upper cluster, but never below the idle floor.
    out.threshold =
        std::max(threshold.value_or(s.v.front() >= idleBelow ? s.v.front() : s.v.front() + 1), idleBelow);
    std::vector<bool> burst(s.size());
    double burstSum = 0, idleSum = 0;
    size_t burstN = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        burst[i] = s.v[i] >= out.threshold;
        (burst[i] ? burstSum : idleSum) += s.v[i];
        burstN += burst[i];
    }
    out.burstMean = burstN ? burstSum / double(burstN) : 0;
    out.idleMean = s.size() > burstN ? idleSum / double(s.size() - burstN) : 0;

    // Runs of one state: from their first sample to the next state's first sample (the last run
    // to its last sample plus one interval).
    const int64_t interval = std::max<int64_t>(1, typicalIntervalMs(s));
    std::vector<double> burstRuns, idleRuns;
    for (size_t i = 0; i < s.size();) {
        size_t j = i;
        while (j < s.size() && burst[j] == burst[i])
            ++j;
        const int64_t end = j < s.size() ? s.t[j] : s.t[j - 1] + interval;
        (burst[i] ? burstRuns : idleRuns).push_back(double(end - s.t[i]) / 1000.0);
        i = j;
    }
    auto meanAndP50 = [](std::vector<double> runs, double& mean, double& p50) {
        if (runs.empty())
            return;
        double total = 0;
        for (double r : runs)
            total += r;
        mean = total / double(runs.size());
        std::sort(runs.begin(), runs.end());
        p50 = sortedPercentile(runs, 0.5);
    };
    meanAndP50(burstRuns, out.burstDurationMeanS, out.burstDurationP50S);
    meanAndP50(idleRuns, out.idleDurationMeanS, out.idleDurationP50S);

    // Fixed windows from the first sample; each window's pattern is its sequence of states with
    // repeats collapsed ("I", "B", "IB", "BIB", ...). A window without samples has no pattern.
    size_t i = 0, I = 0, B = 0, BIB = 0;
    for (int64_t start = s.t.front(); i < s.size(); start += windowMs) {
        std::string pattern;
        while (i < s.size() && s.t[i] < start + windowMs) {
            const char c = burst[i] ? 'B' : 'I';
            if (pattern.empty() || pattern.back() != c)
                pattern += c;
            ++i;
        }
        if (pattern.empty())
            continue;
        ++out.windows;
        I += pattern == "I";
        B += pattern == "B";
        BIB += pattern == "BIB";
    }
    if (out.windows) {
        out.shareI = double(I) / double(out.windows);
        out.shareB = double(B) / double(out.windows);
        out.shareBIB = double(BIB) / double(out.windows);
    }
    return out;
}

std::vector<std::pair<int64_t, int64_t>> burstPeriods(const Series& raw, double threshold) {
    const Series s = usablePoints(raw);
    const int64_t interval = std::max<int64_t>(1, typicalIntervalMs(s));
    std::vector<std::pair<int64_t, int64_t>> out;
    for (size_t i = 0; i < s.size();) {
        if (s.v[i] < threshold) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < s.size() && s.v[j] >= threshold)
            ++j;
        out.emplace_back(s.t[i], j < s.size() ? s.t[j] : s.t[j - 1] + interval);
        i = j;
    }
    return out;
}

} // namespace radt::insight
