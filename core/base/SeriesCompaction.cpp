// SPDX-License-Identifier: MIT
#include "core/base/SeriesCompaction.h"

#include "core/base/InsightSeries.h"

#include <algorithm>
#include <cmath>

namespace radt {

namespace {

// Vertical distance of sample i from the line through samples a and e.
double offLine(const Series& s, size_t a, size_t e, size_t i) {
    const double f = double(s.t[i] - s.t[a]) / double(s.t[e] - s.t[a]);
    return std::fabs(s.v[a] + f * (s.v[e] - s.v[a]) - s.v[i]);
}

} // namespace

std::vector<bool> deadBandKeep(const Series& s, double tolerance, int64_t maxSpanMs) {
    const size_t n = s.size();
    std::vector<bool> keep(n, false);
    if (n == 0)
        return keep;
    // Forced keeps: the ends, the extremes (summaries' Min and Max stay exact), and what a line
    // cannot pass through.
    std::vector<bool> forced(n, false);
    forced[0] = forced[n - 1] = true;
    size_t lo = n, hi = n;
    for (size_t i = 0; i < n; ++i) {
        if (!insight::usable(s.v[i])) {
            forced[i] = true;
            if (i > 0)
                forced[i - 1] = true;
            if (i + 1 < n)
                forced[i + 1] = true;
            continue;
        }
        if (lo == n || s.v[i] < s.v[lo])
            lo = i;
        if (hi == n || s.v[i] > s.v[hi])
            hi = i;
    }
    if (lo < n)
        forced[lo] = forced[hi] = true;

    // Greedy: from the last kept sample a, grow the segment a..e while every sample inside stays
    // within the tolerance of the line a-e. Spans are at most a few intervals long, so checking
    // every inner sample again per candidate end costs a few operations per sample.
    keep[0] = true;
    size_t a = 0, end = 1; // the segment a..end holds (neighbours always do)
    while (end + 1 < n) {
        const size_t e = end + 1;
        bool fits = !forced[end] && s.t[e] > s.t[a] && s.t[e] - s.t[a] <= maxSpanMs;
        for (size_t i = a + 1; fits && i < e; ++i)
            fits = offLine(s, a, e, i) <= tolerance;
        if (fits) {
            end = e;
            continue;
        }
        keep[end] = true; // the last end that held becomes the next anchor
        a = end;
        end = a + 1;
    }
    for (size_t i = 0; i < n; ++i)
        keep[i] = keep[i] || forced[i];
    return keep;
}

Series selectSamples(const Series& s, const std::vector<bool>& keep, bool kept) {
    Series out;
    for (size_t i = 0; i < s.size(); ++i)
        if (keep[i] == kept) {
            out.t.push_back(s.t[i]);
            out.step.push_back(i < s.step.size() ? s.step[i] : 0);
            out.v.push_back(s.v[i]);
        }
    return out;
}

Series expandCompacted(const Series& s, int64_t intervalMs, int64_t maxSpanMs) {
    if (intervalMs <= 0 || s.size() < 2)
        return s;
    Series out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        out.t.push_back(s.t[i]);
        out.step.push_back(i < s.step.size() ? s.step[i] : 0);
        out.v.push_back(s.v[i]);
        if (i + 1 == s.size())
            break;
        const int64_t t0 = s.t[i], t1 = s.t[i + 1];
        const double v0 = s.v[i], v1 = s.v[i + 1];
        if (t1 - t0 > maxSpanMs || !insight::usable(v0) || !insight::usable(v1))
            continue; // a real gap, or nothing to draw a line between
        // Grid points strictly inside, at least half an interval away from the next sample.
        for (int64_t t = t0 + intervalMs; t1 - t >= intervalMs / 2; t += intervalMs) {
            out.t.push_back(t);
            out.step.push_back(out.step.back());
            out.v.push_back(v0 + (v1 - v0) * double(t - t0) / double(t1 - t0));
        }
    }
    return out;
}

} // namespace radt
