// SPDX-License-Identifier: MIT
#include "core/base/SeriesMath.h"

#include "core/base/InsightSeries.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace radt {

namespace {

// Level-0 blocks hold 16 points: a column's ragged ends cost at most 2*15 plain comparisons,
// and the pyramid stays near 2 bytes per point next to the series' own 16.
constexpr unsigned kBaseShift = 4;
constexpr size_t kBase = size_t(1) << kBaseShift;

unsigned trailingZeros(size_t x) {
    return x == 0 ? 63u : unsigned(__builtin_ctzll(static_cast<unsigned long long>(x)));
}

unsigned floorLog2(size_t x) { // x > 0
    return 63u - unsigned(__builtin_clzll(static_cast<unsigned long long>(x)));
}

// numpy's _lerp: the second form for t >= 0.5 keeps the result exact at t == 1 and monotonic.
double lerp(double a, double b, double t) {
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

// Percentile of `x` (finite values, reordered in place) the way numpy.percentile's default
// "linear" method does it, with nth_element instead of a full sort.
double percentile(std::vector<double>& x, double fraction) {
    const double position = fraction * double(x.size() - 1);
    const size_t below = static_cast<size_t>(std::floor(position));
    std::nth_element(x.begin(), x.begin() + below, x.end());
    const double low = x[below];
    if (below + 1 >= x.size())
        return low;
    const double high = *std::min_element(x.begin() + below + 1, x.end());
    return lerp(low, high, position - double(below));
}

// x + offset, saturating: a query over the whole int64 range stays the whole range.
int64_t shifted(int64_t x, int64_t offset) {
    int64_t out;
    if (__builtin_add_overflow(x, offset, &out))
        return offset > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return out;
}

template <class Times, class Values> void checkSorted(const Times& t, const Values& v, const char* what) {
    if (t.size() != v.size())
        throw std::invalid_argument(std::string(what) + ": t and v differ in size");
    if (!std::is_sorted(t.begin(), t.end()))
        throw std::invalid_argument(std::string(what) + ": t is not sorted ascending");
}

} // namespace

int64_t saturatingDifference(int64_t a, int64_t b) {
    int64_t out;
    if (__builtin_sub_overflow(a, b, &out))
        return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return out;
}

std::vector<double> emaSmooth(const std::vector<double>& v, int percent) {
    if (percent <= 0)
        return v;
    const double w = std::min(percent, 99) / 100.0;
    std::vector<double> out(v.size());
    double s = 0;
    bool started = false;
    for (size_t i = 0; i < v.size(); ++i) {
        const double x = v[i];
        if (std::isnan(x)) {
            // A gap in the samples is shown as a gap, not folded into the average.
            out[i] = x;
            continue;
        }
        s = started ? w * s + (1 - w) * x : x;
        started = true;
        out[i] = s;
    }
    return out;
}

SeriesStats seriesStats(const Series& s) {
    SeriesStats stats;
    if (!s.t.empty())
        stats.durationMs = saturatingDifference(s.t.back(), s.t.front());
    std::vector<double> finite;
    finite.reserve(s.v.size());
    double sum = 0;
    // MLflow stores +-inf as +-DBL_MAX: placeholders, left out like NaN (the chart does too).
    for (double x : s.v) {
        if (!insight::usable(x))
            continue;
        if (finite.empty() || x < stats.min)
            stats.min = x;
        if (finite.empty() || x > stats.max)
            stats.max = x;
        sum += x;
        finite.push_back(x);
    }
    stats.samples = finite.size();
    if (finite.empty())
        return stats;
    for (auto it = s.v.rbegin(); it != s.v.rend(); ++it)
        if (insight::usable(*it)) {
            stats.last = *it;
            break;
        }
    stats.mean = sum / double(finite.size());
    stats.p50 = percentile(finite, 0.50);
    stats.p95 = percentile(finite, 0.95);
    return stats;
}

SeriesPyramid::SeriesPyramid(std::vector<int64_t> t, std::vector<double> v) {
    checkSorted(t, v, "SeriesPyramid");
    m_t = std::move(t);
    m_v = std::move(v);
    extendLevels();
}

SeriesPyramid SeriesPyramid::borrowing(const LargeArray<int64_t>& t, const LargeArray<double>& v,
                                       int64_t offset) {
    checkSorted(t, v, "SeriesPyramid::borrowing");
    SeriesPyramid p;
    p.m_offset = offset;
    p.m_borrowT = t.data() ? t.data() : reinterpret_cast<const int64_t*>(&p); // non-null marks borrowing
    p.m_borrowV = v.data();
    p.m_borrowN = t.size();
    p.extendLevels();
    return p;
}

void SeriesPyramid::rebind(const LargeArray<int64_t>& t, const LargeArray<double>& v) {
    if (!m_borrowT)
        throw std::logic_error("SeriesPyramid::rebind: the pyramid owns its points");
    if (t.size() != v.size() || t.size() < m_borrowN)
        throw std::invalid_argument("SeriesPyramid::rebind: the arrays must only grow");
    for (size_t i = std::max<size_t>(m_borrowN, 1); i < t.size(); ++i)
        if (t[i] < t[i - 1])
            throw std::invalid_argument("SeriesPyramid::rebind: times out of order");
    m_borrowT = t.data() ? t.data() : m_borrowT;
    m_borrowV = v.data();
    m_borrowN = t.size();
    extendLevels();
}

void SeriesPyramid::append(const std::vector<int64_t>& t, const std::vector<double>& v) {
    if (m_borrowT)
        throw std::logic_error("SeriesPyramid::append: a borrowing pyramid grows through rebind()");
    checkSorted(t, v, "SeriesPyramid::append");
    if (t.empty())
        return;
    if (!m_t.empty() && t.front() < m_t.back())
        throw std::invalid_argument("SeriesPyramid::append: points older than lastTime()");
    m_t.insert(m_t.end(), t.begin(), t.end());
    m_v.insert(m_v.end(), v.begin(), v.end());
    extendLevels();
}

// Adds the blocks that became complete. Stored blocks never change, so a level whose count did
// not grow cannot make the next one grow either: the walk stops there, which keeps appends of a
// few points at a time O(1) amortised instead of O(levels).
void SeriesPyramid::extendLevels() {
    const size_t n = count();
    for (unsigned k = 0;; ++k) {
        const size_t blocks = n >> (k + kBaseShift);
        if (blocks == 0)
            return;
        if (m_levels.size() <= k)
            m_levels.emplace_back();
        const size_t had = m_levels[k].size();
        if (had == blocks)
            return;
        m_levels[k].reserve(blocks);
        for (size_t i = had; i < blocks; ++i) {
            MinMax m;
            if (k == 0) {
                scan(m, i << kBaseShift, (i + 1) << kBaseShift);
            } else {
                m = m_levels[k - 1][2 * i];
                merge(m, m_levels[k - 1][2 * i + 1]);
            }
            m_levels[k].push_back(m);
        }
    }
}

// `other` covers points after `into`'s, so strict comparisons keep the earliest of equal values.
void SeriesPyramid::merge(MinMax& into, const MinMax& other) const {
    const double* v = values();
    if (other.lo != kNone && (into.lo == kNone || v[other.lo] < v[into.lo]))
        into.lo = other.lo;
    if (other.hi != kNone && (into.hi == kNone || v[other.hi] > v[into.hi]))
        into.hi = other.hi;
    into.sum += other.sum;
    into.finite += other.finite;
}

void SeriesPyramid::scan(MinMax& into, size_t from, size_t to) const {
    const double* v = values();
    for (size_t i = from; i < to; ++i) {
        const double x = v[i];
        if (std::isnan(x))
            continue;
        if (std::isfinite(x)) {
            into.sum += x;
            ++into.finite;
        }
        if (into.lo == kNone || x < v[into.lo])
            into.lo = i;
        if (into.hi == kNone || x > v[into.hi])
            into.hi = i;
    }
}

// Ragged ends point by point, the aligned middle as the fewest stored blocks (each the largest
// one that starts at the current position and still fits), all in index order.
SeriesPyramid::MinMax SeriesPyramid::minMax(size_t from, size_t to) const {
    MinMax m;
    const size_t alignedFrom = (from + kBase - 1) & ~(kBase - 1);
    const size_t alignedTo = to & ~(kBase - 1);
    if (alignedFrom >= alignedTo || m_levels.empty()) {
        scan(m, from, to);
        return m;
    }
    scan(m, from, alignedFrom);
    const unsigned topLevel = unsigned(m_levels.size() - 1);
    for (size_t p = alignedFrom; p < alignedTo;) {
        const unsigned shift = std::min(trailingZeros(p), floorLog2(alignedTo - p));
        const unsigned k = std::min(shift - kBaseShift, topLevel);
        merge(m, m_levels[k][p >> (k + kBaseShift)]);
        p += size_t(1) << (k + kBaseShift);
    }
    scan(m, alignedTo, to);
    return m;
}

std::optional<std::pair<int64_t, double>> SeriesPyramid::nearest(int64_t x) const {
    const int64_t* T = times();
    const double* V = values();
    const size_t n = count();
    const int64_t t = shifted(x, m_offset);
    const size_t at = size_t(std::lower_bound(T, T + n, t) - T);
    // The closest finite point on each side; NaNs are gaps, not values.
    size_t before = at, after = at;
    while (before > 0 && std::isnan(V[before - 1]))
        --before;
    while (after < n && std::isnan(V[after]))
        ++after;
    const bool hasBefore = before > 0, hasAfter = after < n;
    if (!hasBefore && !hasAfter)
        return std::nullopt;
    size_t pick;
    if (!hasAfter)
        pick = before - 1;
    else if (!hasBefore)
        pick = after;
    else // compare distances without overflow: both points bracket t
        pick = uint64_t(t) - uint64_t(T[before - 1]) <= uint64_t(T[after]) - uint64_t(t) ? before - 1 : after;
    return std::make_pair(saturatingDifference(T[pick], m_offset), V[pick]);
}

template <typename Column>
void SeriesPyramid::forEachColumn(size_t a, size_t b, int64_t fromMs, int64_t toMs, int columns,
                                  Column&& column) const {
    const int64_t* const begin = times();
    // Column c starts at fromMs + ceil(c * W / columns) with W = toMs - fromMs + 1. W is split
    // into q * columns + r from toMs - fromMs, so nothing overflows even for the whole int64
    // range, and every boundary is exact (no double rounding moving a point between columns).
    const uint64_t cols = uint64_t(columns);
    const uint64_t span = uint64_t(toMs) - uint64_t(fromMs);
    uint64_t q = span / cols, r = span % cols + 1;
    if (r == cols) {
        ++q;
        r = 0;
    }
    // Where a column ends: samples come at a steady rate, so the index where the edge time
    // would fall at the range's average spacing is a close guess; a gallop from there finds the
    // exact one. A plain binary search over the range touches ~20 cache lines per column, most
    // of them far apart: with 8 lines of 1M points that was most of a zoom frame.
    const double pointsPerMs = double(b - a) / (double(begin[b - 1]) - double(begin[a]) + 1.0);
    auto firstAtOrAfter = [&](size_t lo, int64_t edge) {
        const double ahead = (double(edge) - double(begin[lo])) * pointsPerMs;
        const size_t guess = lo + size_t(std::clamp(ahead, 0.0, double(b - lo)));
        size_t low, high; // the answer lies in [low, high]
        if (guess < b && begin[guess] < edge) {
            low = guess + 1;
            size_t step = 1;
            high = std::min(b, low + step);
            while (high < b && begin[high] < edge) {
                low = high + 1;
                step *= 2;
                high = std::min(b, low + step);
            }
        } else {
            high = guess;
            size_t step = 1;
            low = high > lo + step ? high - step : lo;
            while (low > lo && begin[low - 1] >= edge) {
                high = low - 1;
                step *= 2;
                low = high > lo + step ? high - step : lo;
            }
        }
        return size_t(std::lower_bound(begin + low, begin + high, edge) - begin);
    };
    size_t lo = a;
    for (uint64_t c = 1; c <= cols && lo < b; ++c) {
        size_t hi = b;
        if (c < cols) {
            const uint64_t offset = q * c + (r * c + cols - 1) / cols;
            const auto edge = static_cast<int64_t>(uint64_t(fromMs) + offset);
            hi = firstAtOrAfter(lo, edge);
        }
        if (hi > lo)
            column(lo, hi);
        lo = hi;
    }
}

void SeriesPyramid::query(int64_t fromMs, int64_t toMs, int columns, std::vector<int64_t>& outT,
                          std::vector<double>& outV) const {
    outT.clear();
    outV.clear();
    if (count() == 0 || columns < 1 || toMs < fromMs)
        return;
    const auto [a, b] = shiftedRange(fromMs, toMs);
    const int64_t* const begin = times();
    const double* const V = values();
    auto push = [&](size_t i) {
        outT.push_back(saturatingDifference(begin[i], m_offset));
        outV.push_back(V[i]);
    };
    if (b - a < 2 * size_t(columns)) {
        for (size_t i = a; i < b; ++i)
            if (!std::isnan(V[i]))
                push(i);
        return;
    }
    outT.reserve(2 * size_t(columns));
    outV.reserve(2 * size_t(columns));
    forEachColumn(a, b, fromMs, toMs, columns, [&](size_t lo, size_t hi) {
        const MinMax m = minMax(lo, hi);
        if (m.lo != kNone) {
            push(std::min(m.lo, m.hi));
            if (m.hi != m.lo)
                push(std::max(m.lo, m.hi));
        }
    });
}

std::pair<size_t, size_t> SeriesPyramid::shiftedRange(int64_t& fromMs, int64_t& toMs) const {
    // Stored times are x + offset: the range moves there, the output comes back.
    fromMs = shifted(fromMs, m_offset);
    toMs = shifted(toMs, m_offset);
    const int64_t* const begin = times();
    const int64_t* const end = begin + count();
    const size_t a = size_t(std::lower_bound(begin, end, fromMs) - begin);
    return {a, size_t(std::upper_bound(begin + a, end, toMs) - begin)};
}

size_t SeriesPyramid::countIn(int64_t fromMs, int64_t toMs) const {
    if (count() == 0 || toMs < fromMs)
        return 0;
    const auto [a, b] = shiftedRange(fromMs, toMs);
    return b - a;
}

void SeriesPyramid::queryEnvelope(int64_t fromMs, int64_t toMs, int columns, Envelope& out) const {
    out.t.clear();
    out.mean.clear();
    out.low.clear();
    out.high.clear();
    if (count() == 0 || columns < 1 || toMs < fromMs)
        return;
    const auto [a, b] = shiftedRange(fromMs, toMs);
    const int64_t* const begin = times();
    const double* const V = values();
    if (a == b)
        return;
    forEachColumn(a, b, fromMs, toMs, columns, [&](size_t lo, size_t hi) {
        const MinMax m = minMax(lo, hi);
        if (m.lo == kNone || m.finite == 0)
            return;
        const int64_t middle = begin[lo] + (begin[hi - 1] - begin[lo]) / 2;
        out.t.push_back(saturatingDifference(middle, m_offset));
        out.mean.push_back(m.sum / double(m.finite));
        out.low.push_back(V[m.lo]);
        out.high.push_back(V[m.hi]);
    });
}

} // namespace radt
