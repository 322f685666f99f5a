// SPDX-License-Identifier: MIT
#include "core/analysis/UtilisationInsight.h"

#include "core/base/InsightSeries.h"
#include "core/base/MetricKeys.h"

#include <algorithm>
#include <set>

namespace radt::insight {

namespace {

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

} // namespace

double utilisationScale(const std::string& key, const Series& s) {
    if (const RoleKey* role = roleOfKey(key); role && role->fullScale > 0)
        return role->fullScale;
    if (key.find(" Active") != std::string::npos) // dcgmi's other activity fields are ratios too
        return 1.0;
    if (startsWith(key, "DCGMI - ") || startsWith(key, "TOP - ") || startsWith(key, "PROC - ") ||
        startsWith(key, "DMON - ") || startsWith(key, "TEGRA - "))
        return 100.0;
    double top = 0;
    for (double v : s.v)
        if (usable(v))
            top = std::max(top, v);
    return top <= 1.0 ? 1.0 : 100.0;
}

std::optional<UtilisationProfile> utilisationProfile(const Series& raw, double fullScale) {
    const Series s = usablePoints(raw);
    if (s.empty())
        return std::nullopt;
    const int64_t interval = std::max<int64_t>(1, typicalIntervalMs(s));
    const int64_t gap = interval * kMaxGapIntervals;
    UtilisationProfile p;
    p.fullScale = fullScale;
    p.samples = s.size();
    double weighted = 0, total = 0, idle = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        // A sample stands for the time until the next one; across a gap, and for the last one,
        // for one sampling interval.
        const int64_t dt = i + 1 < s.size() ? s.t[i + 1] - s.t[i] : interval;
        const double w = double(dt > gap ? interval : std::max<int64_t>(dt, 0));
        weighted += s.v[i] * w;
        total += w;
        if (s.v[i] < kIdleShareOfScale * fullScale)
            idle += w;
    }
    p.mean = total > 0 ? weighted / total : s.v.front();
    p.idleShare = total > 0 ? idle / total : (s.v.front() < kIdleShareOfScale * fullScale ? 1.0 : 0.0);
    std::vector<double> values(s.v.begin(), s.v.end());
    p.p50 = percentile(values, 0.50);
    p.p95 = percentile(values, 0.95);
    return p;
}

std::vector<std::string> utilisationKeys(const std::vector<std::string>& keys) {
    std::vector<std::string> out;
    for (const std::string& key : keys) {
        const RoleKey* role = roleOfKey(key);
        const bool gpu = role && role->fullScale > 0; // a utilisation or an activity of some GPU part
        const bool cpu = key == "TOP - CPU Utilization" || key == "PROC - CPU Utilization";
        if (gpu || cpu)
            out.push_back(key);
    }
    return out;
}

std::optional<UtilSmactGap> utilSmactGap(const std::vector<std::string>& keys,
                                         const std::function<Series(const std::string&)>& series) {
    UtilSmactGap gap;
    gap.utilKey = firstKeyOfRole(keys, KeyRole::GpuUtilisation);
    gap.smactKey = firstKeyOfRole(keys, KeyRole::SmActivity);
    if (gap.utilKey.empty() || gap.smactKey.empty())
        return std::nullopt;
    // Both in percent: dcgmi's activity fields and radT's SMI util are 0..1 ratios.
    auto meanPct = [&](const std::string& key) -> std::optional<double> {
        const Series s = series(key);
        const double scale = utilisationScale(key, s);
        const auto p = utilisationProfile(s, scale);
        if (!p)
            return std::nullopt;
        return p->mean * (100.0 / scale);
    };
    const auto util = meanPct(gap.utilKey), smact = meanPct(gap.smactKey);
    if (!util || !smact)
        return std::nullopt;
    gap.utilPct = *util;
    gap.smactPct = *smact;
    gap.gapPp = gap.utilPct - gap.smactPct;
    gap.flagged = gap.gapPp >= kUtilSmactFlagPp;
    return gap;
}

} // namespace radt::insight
