// SPDX-License-Identifier: MIT
// SeriesMath: EMA smoothing, summary statistics, and the min/max pyramid checked against a
// brute-force per-column reduction.

#include "core/base/LargeArrays.h"
#include "core/base/SeriesMath.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace radt;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int64_t kEpoch = 1700000000000;

struct Points {
    std::vector<int64_t> t;
    std::vector<double> v;
    bool operator==(const Points& o) const { return t == o.t && v == o.v; }
};

std::ostream& operator<<(std::ostream& os, const Points& p) {
    os << p.t.size() << " points:";
    for (size_t i = 0; i < p.t.size() && i < 40; ++i)
        os << " (" << p.t[i] - kEpoch << "," << p.v[i] << ")";
    return os;
}

Points query(const SeriesPyramid& pyramid, int64_t from, int64_t to, int columns) {
    Points out;
    pyramid.query(from, to, columns, out.t, out.v);
    return out;
}

// The definition written out the slow way: every point of the range, its column by plain
// integer division, and per column the earliest minimum and earliest maximum in index order.
Points reference(const std::vector<int64_t>& t, const std::vector<double>& v, int64_t from, int64_t to,
                 int columns) {
    Points out;
    if (columns < 1 || to < from)
        return out;
    std::vector<size_t> inRange;
    for (size_t i = 0; i < t.size(); ++i)
        if (t[i] >= from && t[i] <= to)
            inRange.push_back(i);
    if (inRange.size() < 2 * size_t(columns)) {
        for (size_t i : inRange)
            if (!std::isnan(v[i])) {
                out.t.push_back(t[i]);
                out.v.push_back(v[i]);
            }
        return out;
    }
    const int64_t width = to - from + 1; // tests keep width * columns far from overflow
    std::vector<long> lo(columns, -1), hi(columns, -1);
    for (size_t i : inRange) {
        if (std::isnan(v[i]))
            continue;
        const auto c = size_t((t[i] - from) * columns / width);
        if (lo[c] < 0 || v[i] < v[lo[c]])
            lo[c] = long(i);
        if (hi[c] < 0 || v[i] > v[hi[c]])
            hi[c] = long(i);
    }
    for (int c = 0; c < columns; ++c) {
        if (lo[c] < 0)
            continue;
        std::vector<long> picked = {std::min(lo[c], hi[c])};
        if (hi[c] != lo[c])
            picked.push_back(std::max(lo[c], hi[c]));
        for (long i : picked) {
            out.t.push_back(t[i]);
            out.v.push_back(v[i]);
        }
    }
    return out;
}

// Sorted times with duplicates and gaps, values from a small set (ties) with NaN sprinkled in.
Points randomSeries(std::mt19937_64& rng, size_t n, double nanShare) {
    Points p;
    std::uniform_int_distribution<int> step(0, 3), value(-20, 20);
    std::bernoulli_distribution isNan(nanShare);
    int64_t t = kEpoch;
    for (size_t i = 0; i < n; ++i) {
        t += step(rng);
        p.t.push_back(t);
        p.v.push_back(isNan(rng) ? kNaN : value(rng) * 0.5);
    }
    // Long NaN runs cover whole stored blocks, not only single points.
    if (n > 200 && std::bernoulli_distribution(0.5)(rng)) {
        const size_t start = std::uniform_int_distribution<size_t>(0, n - 100)(rng);
        std::fill(p.v.begin() + long(start), p.v.begin() + long(start + 99), kNaN);
    }
    return p;
}

} // namespace

TEST(EmaSmooth, ZeroOrNegativePercentReturnsInput) {
    const std::vector<double> v = {1, 5, 2, 8};
    EXPECT_EQ(emaSmooth(v, 0), v);
    EXPECT_EQ(emaSmooth(v, -10), v);
    EXPECT_TRUE(emaSmooth({}, 50).empty());
    EXPECT_TRUE(emaSmooth({}, 0).empty());
}

TEST(EmaSmooth, HandComputedValues) {
    const auto half = emaSmooth({1, 3, 5}, 50); // 1, .5*1+.5*3, .5*2+.5*5
    ASSERT_EQ(half.size(), 3u);
    EXPECT_DOUBLE_EQ(half[0], 1.0);
    EXPECT_DOUBLE_EQ(half[1], 2.0);
    EXPECT_DOUBLE_EQ(half[2], 3.5);

    const auto ninety = emaSmooth({10, 0, 0, 20}, 90); // 10, 9, 8.1, .9*8.1+.1*20
    ASSERT_EQ(ninety.size(), 4u);
    EXPECT_DOUBLE_EQ(ninety[0], 10.0);
    EXPECT_DOUBLE_EQ(ninety[1], 9.0);
    EXPECT_DOUBLE_EQ(ninety[2], 8.1);
    EXPECT_DOUBLE_EQ(ninety[3], 9.29);

    const auto most = emaSmooth({100, 0, 0}, 99); // 100, 99, 98.01
    ASSERT_EQ(most.size(), 3u);
    EXPECT_DOUBLE_EQ(most[0], 100.0);
    EXPECT_DOUBLE_EQ(most[1], 99.0);
    EXPECT_DOUBLE_EQ(most[2], 98.01);
    // Anything above 99 is 99: 100 would freeze the line at its first value.
    EXPECT_EQ(emaSmooth({100, 0, 0}, 100), most);
    EXPECT_EQ(emaSmooth({100, 0, 0}, 250), most);
}

TEST(EmaSmooth, NaNIsKeptAndSkipped) {
    const auto middle = emaSmooth({2, kNaN, kNaN, 4, 8}, 50); // 2, NaN, NaN, 3, 5.5
    ASSERT_EQ(middle.size(), 5u);
    EXPECT_DOUBLE_EQ(middle[0], 2.0);
    EXPECT_TRUE(std::isnan(middle[1]));
    EXPECT_TRUE(std::isnan(middle[2]));
    EXPECT_DOUBLE_EQ(middle[3], 3.0);
    EXPECT_DOUBLE_EQ(middle[4], 5.5);

    const auto leading = emaSmooth({kNaN, 4, 6}, 50); // the first finite value starts it
    ASSERT_EQ(leading.size(), 3u);
    EXPECT_TRUE(std::isnan(leading[0]));
    EXPECT_DOUBLE_EQ(leading[1], 4.0);
    EXPECT_DOUBLE_EQ(leading[2], 5.0);
}

TEST(SeriesStats, SmallSeriesWithNaN) {
    Series s;
    s.t = {kEpoch, kEpoch + 10, kEpoch + 20, kEpoch + 30, kEpoch + 40, kEpoch + 50, kEpoch + 75};
    s.step = {0, 1, 2, 3, 4, 5, 6};
    s.v = {3, kNaN, 1, 4, 1, 5, kNaN};
    const SeriesStats st = seriesStats(s);
    EXPECT_EQ(st.samples, 5u);
    EXPECT_DOUBLE_EQ(st.min, 1.0);
    EXPECT_DOUBLE_EQ(st.max, 5.0);
    EXPECT_DOUBLE_EQ(st.mean, 14.0 / 5);
    // Sorted 1 1 3 4 5: p50 at rank 2 -> 3; p95 at rank 3.8 -> 4 + 0.8 * (5 - 4).
    EXPECT_DOUBLE_EQ(st.p50, 3.0);
    EXPECT_DOUBLE_EQ(st.p95, 4.8);
    EXPECT_DOUBLE_EQ(st.last, 5.0);
    EXPECT_EQ(st.durationMs, 75);
}

TEST(SeriesStats, MatchesSortedReferenceOnRandomData) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal(50, 20);
    for (size_t n : {2u, 3u, 10u, 101u, 1000u, 4567u}) {
        Series s;
        std::vector<double> finite;
        for (size_t i = 0; i < n; ++i) {
            s.t.push_back(kEpoch + int64_t(i) * 3);
            s.step.push_back(int64_t(i));
            const double x = (i % 7 == 3) ? kNaN : normal(rng);
            s.v.push_back(x);
            if (!std::isnan(x))
                finite.push_back(x);
        }
        std::sort(finite.begin(), finite.end());
        auto pct = [&](double p) {
            const double rank = p * double(finite.size() - 1);
            const size_t i = size_t(rank);
            return i + 1 < finite.size() ? finite[i] + (finite[i + 1] - finite[i]) * (rank - double(i))
                                         : finite[i];
        };
        double sum = 0;
        for (double x : finite)
            sum += x;
        const SeriesStats st = seriesStats(s);
        SCOPED_TRACE(n);
        EXPECT_EQ(st.samples, finite.size());
        EXPECT_EQ(st.min, finite.front());
        EXPECT_EQ(st.max, finite.back());
        EXPECT_NEAR(st.mean, sum / double(finite.size()), 1e-9);
        EXPECT_NEAR(st.p50, pct(0.5), 1e-9);
        EXPECT_NEAR(st.p95, pct(0.95), 1e-9);
        const double lastFinite = std::isnan(s.v.back()) ? s.v[n - 2] : s.v.back();
        EXPECT_EQ(st.last, lastFinite);
        EXPECT_EQ(st.durationMs, int64_t(n - 1) * 3);
    }
}

TEST(SeriesStats, OnePointEmptyAndAllNaN) {
    Series one;
    one.t = {kEpoch};
    one.step = {0};
    one.v = {42.5};
    const SeriesStats a = seriesStats(one);
    EXPECT_EQ(a.samples, 1u);
    for (double x : {a.min, a.mean, a.p50, a.p95, a.max, a.last})
        EXPECT_DOUBLE_EQ(x, 42.5);
    EXPECT_EQ(a.durationMs, 0);

    const SeriesStats e = seriesStats(Series{});
    EXPECT_EQ(e.samples, 0u);
    for (double x : {e.min, e.mean, e.p50, e.p95, e.max, e.last})
        EXPECT_TRUE(std::isnan(x));
    EXPECT_EQ(e.durationMs, 0);

    Series nan;
    nan.t = {kEpoch, kEpoch + 500};
    nan.step = {0, 1};
    nan.v = {kNaN, kNaN};
    const SeriesStats n = seriesStats(nan);
    EXPECT_EQ(n.samples, 0u);
    for (double x : {n.min, n.mean, n.p50, n.p95, n.max, n.last})
        EXPECT_TRUE(std::isnan(x));
    EXPECT_EQ(n.durationMs, 500);
}

TEST(SeriesPyramid, EmptyAndDegenerateQueries) {
    const SeriesPyramid empty;
    EXPECT_EQ(empty.size(), 0u);
    EXPECT_EQ(empty.firstTime(), 0);
    EXPECT_EQ(empty.lastTime(), 0);
    EXPECT_TRUE(query(empty, 0, 1000, 100).t.empty());

    const SeriesPyramid p({10, 20, 30}, {1, 2, 3});
    EXPECT_EQ(p.size(), 3u);
    EXPECT_EQ(p.firstTime(), 10);
    EXPECT_EQ(p.lastTime(), 30);
    EXPECT_TRUE(query(p, 10, 30, 0).t.empty());     // no columns
    EXPECT_TRUE(query(p, 30, 10, 100).t.empty());   // reversed range
    EXPECT_TRUE(query(p, 31, 1000, 100).t.empty()); // after the data
    EXPECT_TRUE(query(p, -50, 9, 100).t.empty());   // before the data
    EXPECT_EQ(query(p, 20, 20, 5), (Points{{20}, {2}}));
    // The output vectors are replaced, not appended to.
    std::vector<int64_t> t = {99};
    std::vector<double> v = {99};
    p.query(10, 30, 10, t, v);
    EXPECT_EQ(t, (std::vector<int64_t>{10, 20, 30}));
    EXPECT_EQ(v, (std::vector<double>{1, 2, 3}));

    EXPECT_THROW(SeriesPyramid({3, 2}, {1, 1}), std::invalid_argument);
    EXPECT_THROW(SeriesPyramid({1, 2}, {1}), std::invalid_argument);
}

TEST(SeriesPyramid, MatchesBruteForceOnRandomData) {
    std::mt19937_64 rng(20240601);
    int blockPathTrials = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const size_t n = std::uniform_int_distribution<size_t>(0, trial % 10 == 0 ? 20000 : 3000)(rng);
        const Points data = randomSeries(rng, n, trial % 3 == 0 ? 0.3 : 0.05);
        const SeriesPyramid pyramid(data.t, data.v);
        const int64_t first = n ? data.t.front() : kEpoch, last = n ? data.t.back() : kEpoch;
        std::uniform_int_distribution<int64_t> at(first - 50, last + 50);
        int64_t from = at(rng), to = at(rng);
        if (from > to)
            std::swap(from, to);
        if (trial % 5 == 0) { // the whole series, exactly as a first frame asks for it
            from = first;
            to = last;
        }
        const int columns = std::uniform_int_distribution<int>(1, trial % 4 == 0 ? 2000 : 60)(rng);
        const Points expected = reference(data.t, data.v, from, to, columns);
        const Points got = query(pyramid, from, to, columns);
        ASSERT_EQ(got, expected) << "trial " << trial << " n " << n << " range " << from - kEpoch << ".."
                                 << to - kEpoch << " columns " << columns;
        if (got.t.size() <= 2 * size_t(columns) && n > 1000 && columns < 60)
            ++blockPathTrials;
    }
    EXPECT_GT(blockPathTrials, 100); // the reduction, not only the full-resolution path, was checked
}

// Column ends are found by guessing from the average spacing, then galloping: times that come in
// bursts with long silences (a metric logged per epoch, a paused run) make the guess far off.
TEST(SeriesPyramid, MatchesBruteForceWhenPointsComeInBursts) {
    std::mt19937_64 rng(20261124);
    for (int trial = 0; trial < 600; ++trial) {
        const size_t n = std::uniform_int_distribution<size_t>(100, 6000)(rng);
        Points data;
        int64_t t = kEpoch;
        std::bernoulli_distribution silence(trial % 2 ? 0.002 : 0.05);
        std::uniform_int_distribution<int64_t> gap(1000, 2'000'000), value(-50, 50);
        for (size_t i = 0; i < n; ++i) {
            t += silence(rng) ? gap(rng) : std::uniform_int_distribution<int64_t>(0, 2)(rng);
            data.t.push_back(t);
            data.v.push_back(double(value(rng)));
        }
        const SeriesPyramid pyramid(data.t, data.v);
        std::uniform_int_distribution<int64_t> at(data.t.front() - 10, data.t.back() + 10);
        int64_t from = at(rng), to = at(rng);
        if (from > to)
            std::swap(from, to);
        if (trial % 3 == 0) {
            from = data.t.front();
            to = data.t.back();
        }
        const int columns = std::uniform_int_distribution<int>(1, 400)(rng);
        ASSERT_EQ(query(pyramid, from, to, columns), reference(data.t, data.v, from, to, columns))
            << "trial " << trial << " n " << n << " columns " << columns;
    }
}

TEST(SeriesPyramid, SingleSpikeSurvivesEveryZoomLevel) {
    constexpr size_t kN = 1000000;
    constexpr size_t kSpike = 654321, kDip = 123457;
    std::vector<int64_t> t(kN);
    std::vector<double> v(kN);
    for (size_t i = 0; i < kN; ++i) {
        t[i] = kEpoch + int64_t(i) * 10;
        v[i] = 100 + std::sin(double(i) * 0.001) * 5 + double(i % 13) * 0.1;
    }
    v[kSpike] = 1000;
    v[kDip] = -1000;
    const SeriesPyramid pyramid(t, v);
    auto has = [](const Points& p, size_t i, const std::vector<int64_t>& tt, const std::vector<double>& vv) {
        for (size_t k = 0; k < p.t.size(); ++k)
            if (p.t[k] == tt[i] && p.v[k] == vv[i])
                return true;
        return false;
    };
    for (int columns : {1, 2, 3, 7, 100, 640, 1200, 1920, 3840, 100000}) {
        const Points whole = query(pyramid, t.front(), t.back(), columns);
        SCOPED_TRACE(columns);
        EXPECT_LE(whole.t.size(), 2 * size_t(columns));
        EXPECT_TRUE(std::is_sorted(whole.t.begin(), whole.t.end()));
        EXPECT_TRUE(has(whole, kSpike, t, v));
        EXPECT_TRUE(has(whole, kDip, t, v));
    }
    // Zooming in around the spike: every window keeps it, down to full resolution.
    for (int64_t halfWidth : {4000000, 400000, 40000, 4000, 400, 40}) {
        const Points zoomed = query(pyramid, t[kSpike] - halfWidth, t[kSpike] + halfWidth / 3, 1200);
        SCOPED_TRACE(halfWidth);
        EXPECT_TRUE(has(zoomed, kSpike, t, v));
        EXPECT_LE(zoomed.t.size(), 2400u);
    }
}

TEST(SeriesPyramid, ZoomToFewPointsReturnsThemAll) {
    std::vector<int64_t> t(100000);
    std::vector<double> v(t.size());
    for (size_t i = 0; i < t.size(); ++i) {
        t[i] = kEpoch + int64_t(i) * 25;
        v[i] = double((i * 7919) % 1000);
    }
    const SeriesPyramid pyramid(t, v);
    const size_t first = 43210;
    const Points got = query(pyramid, t[first], t[first + 99], 1000);
    const Points expected{{t.begin() + first, t.begin() + first + 100},
                          {v.begin() + first, v.begin() + first + 100}};
    EXPECT_EQ(got, expected);
    // Margins that hold no further point change nothing.
    EXPECT_EQ(query(pyramid, t[first] - 24, t[first + 99] + 24, 1000), expected);
}

TEST(SeriesPyramid, NaNRunsAndAllNaNRanges) {
    std::vector<int64_t> t(5000);
    std::vector<double> v(t.size());
    for (size_t i = 0; i < t.size(); ++i) {
        t[i] = kEpoch + int64_t(i);
        v[i] = double(i % 97);
    }
    std::fill(v.begin() + 1000, v.begin() + 3000, kNaN); // spans whole stored blocks at every level
    v[1999] = 500;                                       // one finite point inside the run
    std::fill(v.begin() + 4990, v.end(), kNaN);          // the tail, where blocks are incomplete
    const SeriesPyramid pyramid(t, v);
    for (int columns : {1, 3, 10, 50, 400}) {
        const Points got = query(pyramid, t.front(), t.back(), columns);
        SCOPED_TRACE(columns);
        EXPECT_EQ(got, reference(t, v, t.front(), t.back(), columns));
        for (double x : got.v)
            EXPECT_FALSE(std::isnan(x));
        EXPECT_NE(std::find(got.v.begin(), got.v.end(), 500.0), got.v.end());
    }
    EXPECT_TRUE(query(pyramid, t[1000], t[1998], 5).t.empty());
    EXPECT_TRUE(query(pyramid, t[1000], t[1998], 5000).t.empty());
    EXPECT_TRUE(query(pyramid, t[4990], t.back() + 100, 2).t.empty());
    EXPECT_EQ(query(pyramid, t[1000], t[2999], 4), (Points{{t[1999]}, {500}}));

    const SeriesPyramid allNaN(t, std::vector<double>(t.size(), kNaN));
    EXPECT_TRUE(query(allNaN, t.front(), t.back(), 10).t.empty());
    EXPECT_TRUE(query(allNaN, t.front(), t.back(), 10000).t.empty());
}

TEST(SeriesPyramid, TiesAndDuplicateTimes) {
    // 64 points at 8 distinct times, all the same value: one point per column, the earliest.
    std::vector<int64_t> t;
    std::vector<double> v(64, 3.0);
    for (int i = 0; i < 64; ++i)
        t.push_back(kEpoch + i / 8);
    const SeriesPyramid flat(t, v);
    EXPECT_EQ(query(flat, kEpoch, kEpoch + 7, 4),
              (Points{{kEpoch, kEpoch + 2, kEpoch + 4, kEpoch + 6}, {3, 3, 3, 3}}));
    // Extremes that share a timestamp come back in index order.
    v[20] = -1;
    v[21] = 9;
    const SeriesPyramid sameTime(t, v);
    const Points got = query(sameTime, kEpoch, kEpoch + 7, 1);
    EXPECT_EQ(got, (Points{{kEpoch + 2, kEpoch + 2}, {-1, 9}}));
}

TEST(SeriesPyramid, WholeInt64RangeDoesNotOverflow) {
    std::mt19937_64 rng(3);
    const Points data = randomSeries(rng, 10000, 0.01);
    const SeriesPyramid pyramid(data.t, data.v);
    const Points got =
        query(pyramid, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 1000);
    // Every point lands in the same column of so wide a range: the global extremes, nothing else.
    double lo = 1e9, hi = -1e9;
    for (double x : data.v)
        if (!std::isnan(x)) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    ASSERT_EQ(got.v.size(), 2u);
    EXPECT_EQ(std::min(got.v[0], got.v[1]), lo);
    EXPECT_EQ(std::max(got.v[0], got.v[1]), hi);
}

TEST(SeriesPyramid, AppendEqualsBuildingAtOnce) {
    std::mt19937_64 rng(99);
    for (int trial = 0; trial < 40; ++trial) {
        const Points data = randomSeries(rng, 6000 + size_t(trial) * 37, 0.1);
        SeriesPyramid live;
        std::uniform_int_distribution<size_t> chunk(0, trial % 2 ? 3 : 700);
        for (size_t i = 0; i < data.t.size();) {
            const size_t n = std::min(chunk(rng), data.t.size() - i);
            live.append({data.t.begin() + long(i), data.t.begin() + long(i + n)},
                        {data.v.begin() + long(i), data.v.begin() + long(i + n)});
            i += n;
        }
        const SeriesPyramid whole(data.t, data.v);
        ASSERT_EQ(live.size(), whole.size());
        EXPECT_EQ(live.firstTime(), whole.firstTime());
        EXPECT_EQ(live.lastTime(), whole.lastTime());
        std::uniform_int_distribution<int64_t> at(data.t.front() - 10, data.t.back() + 10);
        for (int q = 0; q < 50; ++q) {
            int64_t from = at(rng), to = at(rng);
            if (from > to)
                std::swap(from, to);
            const int columns = std::uniform_int_distribution<int>(1, 80)(rng);
            const Points got = query(live, from, to, columns);
            ASSERT_EQ(got, query(whole, from, to, columns)) << "trial " << trial << " query " << q;
            ASSERT_EQ(got, reference(data.t, data.v, from, to, columns));
        }
    }
    SeriesPyramid p({10, 20}, {1, 2});
    EXPECT_THROW(p.append({15}, {3}), std::invalid_argument);
    p.append({20, 30}, {5, 6}); // an equal timestamp is newer data, not older
    EXPECT_EQ(p.size(), 4u);
    EXPECT_EQ(p.lastTime(), 30);
}

TEST(SeriesPyramid, NearestPointForTheCrosshair) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    SeriesPyramid p({0, 10, 20, 30, 40}, {1.0, nan, 3.0, nan, 5.0});
    EXPECT_EQ(p.nearest(-100), std::make_pair(int64_t(0), 1.0));
    EXPECT_EQ(p.nearest(9), std::make_pair(int64_t(0), 1.0)); // 10 is NaN: 0 and 20 bracket it
    EXPECT_EQ(p.nearest(11), std::make_pair(int64_t(20), 3.0));
    EXPECT_EQ(p.nearest(30), std::make_pair(int64_t(20), 3.0)); // a tie goes to the earlier point
    EXPECT_EQ(p.nearest(31), std::make_pair(int64_t(40), 5.0));
    EXPECT_EQ(p.nearest(1000), std::make_pair(int64_t(40), 5.0));
    EXPECT_FALSE(SeriesPyramid({1, 2}, {nan, nan}).nearest(1));
    EXPECT_FALSE(SeriesPyramid().nearest(0));
}

TEST(SeriesPyramid, ABorrowingPyramidAnswersLikeAnOwningOne) {
    // A run's arrays, viewed with x = t - start, against a copy shifted by hand.
    const int64_t start = 1'700'000'000'000;
    // A Series' arrays, as the chart borrows them.
    LargeArray<int64_t> t;
    LargeArray<double> v;
    for (int i = 0; i < 5000; ++i) {
        t.push_back(start + i * 10);
        v.push_back(i == 3210 ? 999.0 : (i % 97 == 0 ? std::nan("") : std::sin(i * 0.01)));
    }
    std::vector<int64_t> x;
    for (int64_t ti : t)
        x.push_back(ti - start);
    SeriesPyramid owned(x, std::vector<double>(v.begin(), v.end()));
    SeriesPyramid view = SeriesPyramid::borrowing(t, v, start);
    EXPECT_TRUE(view.isBorrowed());
    EXPECT_FALSE(owned.isBorrowed());
    EXPECT_EQ(view.firstTime(), 0);
    EXPECT_EQ(view.lastTime(), 49'990);
    std::vector<int64_t> ot, vt;
    std::vector<double> ov, vv;
    for (auto [from, to] : {std::pair<int64_t, int64_t>{0, 49'990},
                            {32'000, 32'500},
                            {-5, 100},
                            {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}}) {
        owned.query(from, to, 300, ot, ov);
        view.query(from, to, 300, vt, vv);
        EXPECT_EQ(vt, ot) << from << ".." << to;
        EXPECT_EQ(vv, ov) << from << ".." << to;
    }
    EXPECT_EQ(view.nearest(32'104), owned.nearest(32'104));
    // The owner grows its arrays (they may move) and rebinds; the view then sees the new points.
    for (int i = 5000; i < 9000; ++i) {
        t.push_back(start + i * 10);
        v.push_back(i == 8888 ? -500.0 : 0.5);
    }
    view.rebind(t, v);
    EXPECT_EQ(view.size(), 9000u);
    EXPECT_EQ(view.lastTime(), 89'990);
    view.query(0, 89'990, 200, vt, vv);
    EXPECT_EQ(*std::min_element(vv.begin(), vv.end()), -500.0) << "a spike among the new points";
    EXPECT_EQ(*std::max_element(vv.begin(), vv.end()), 999.0);
    EXPECT_THROW(view.append({100'000}, {1.0}), std::logic_error);
    EXPECT_THROW(owned.rebind(t, v), std::logic_error);
    LargeArray<int64_t> shorter(t.begin(), t.begin() + 10);
    LargeArray<double> shorterV(v.begin(), v.begin() + 10);
    EXPECT_THROW(view.rebind(shorter, shorterV), std::invalid_argument);
}

TEST(SeriesStats, MlflowsInfinityPlaceholdersAreLeftOutLikeNaN) {
    // Regression: MLflow writes +-inf as +-1.797e308; the summary showed Min -1.798e+308, Mean 0.5.
    Series s;
    s.t = {0, 1, 2, 3, 4};
    s.step = {0, 0, 0, 0, 0};
    s.v = {1.0, DBL_MAX, 2.0, -DBL_MAX, 3.0};
    const SeriesStats st = seriesStats(s);
    EXPECT_EQ(st.samples, 3u);
    EXPECT_EQ(st.min, 1.0);
    EXPECT_EQ(st.max, 3.0);
    EXPECT_EQ(st.mean, 2.0);
    EXPECT_EQ(st.last, 3.0);
}

// A dense line drawn as its mean per pixel column with the min–max range behind.
TEST(SeriesPyramid, EnvelopeMatchesBruteForcePerColumn) {
    std::mt19937_64 rng(20261126);
    for (int trial = 0; trial < 400; ++trial) {
        const size_t n = std::uniform_int_distribution<size_t>(1, 20000)(rng);
        const Points data = randomSeries(rng, n, trial % 3 == 0 ? 0.3 : 0.05);
        const SeriesPyramid pyramid(data.t, data.v);
        const int64_t first = data.t.front(), last = data.t.back();
        std::uniform_int_distribution<int64_t> at(first - 50, last + 50);
        int64_t from = at(rng), to = at(rng);
        if (from > to)
            std::swap(from, to);
        const int columns = std::uniform_int_distribution<int>(1, 400)(rng);
        SeriesPyramid::Envelope got;
        pyramid.queryEnvelope(from, to, columns, got);
        // The slow way: each point's column by integer division, as the reference query does.
        const int64_t width = to - from + 1;
        std::vector<double> sum(columns, 0), low(columns, kNaN), high(columns, kNaN);
        std::vector<size_t> finite(columns, 0), inRange(columns, 0);
        for (size_t i = 0; i < n; ++i) {
            if (data.t[i] < from || data.t[i] > to)
                continue;
            const auto c = size_t((data.t[i] - from) * columns / width);
            ++inRange[c];
            if (std::isnan(data.v[i]))
                continue;
            sum[c] += data.v[i];
            ++finite[c];
            low[c] = std::isnan(low[c]) ? data.v[i] : std::min(low[c], data.v[i]);
            high[c] = std::isnan(high[c]) ? data.v[i] : std::max(high[c], data.v[i]);
        }
        size_t k = 0;
        for (int c = 0; c < columns; ++c) {
            if (finite[c] == 0)
                continue;
            ASSERT_LT(k, got.t.size()) << "trial " << trial << " column " << c;
            EXPECT_NEAR(got.mean[k], sum[c] / double(finite[c]), 1e-9)
                << "trial " << trial << " column " << c;
            EXPECT_EQ(got.low[k], low[c]);
            EXPECT_EQ(got.high[k], high[c]);
            EXPECT_GE(got.t[k], from + c * width / columns) << "placed inside its column";
            ++k;
        }
        EXPECT_EQ(k, got.t.size()) << "trial " << trial;
        size_t points = 0;
        for (size_t i = 0; i < n; ++i)
            points += data.t[i] >= from && data.t[i] <= to;
        EXPECT_EQ(pyramid.countIn(from, to), points);
    }
}

namespace {
/// Resident KiB of the mapping that holds `address` (/proc/self/smaps), 0 when none is found.
long residentKibOfMappingAt(const void* address) {
    std::ifstream smaps("/proc/self/smaps");
    const auto at = reinterpret_cast<uintptr_t>(address);
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        uintptr_t from = 0, to = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx ", &from, &to) == 2 && line.find(':') > line.find(' '))
            inside = at >= from && at < to;
        else if (inside && line.rfind("Rss:", 0) == 0)
            return std::stol(line.substr(4));
    }
    return 0;
}
} // namespace

TEST(LargeArray, AFilledArrayKeepsResidentOnlyWhatItHolds) {
    if (kUnderAddressSanitizer)
        GTEST_SKIP() << "under AddressSanitizer the arrays are malloc's";
    // 300k points: 2.4 MB in a 4 MiB capacity. A huge page is resident whole once touched, so
    // without the release the array held 4 MiB (14 bytes a point where 8 are data).
    LargeArray<int64_t> t;
    for (int64_t i = 0; i < 300'000; ++i)
        t.push_back(i);
    releaseUnusedCapacity(t);
    const long usedKib = (300'000 * 8 + 4095) / 4096 * 4;
    EXPECT_LE(residentKibOfMappingAt(t.data()), usedKib) << "the capacity past the end is given back";
    EXPECT_GE(residentKibOfMappingAt(t.data()), usedKib / 2) << "the mapping was found";
    EXPECT_EQ(t[299'999], 299'999);
    // It grows on as before, the released part reading as zeros until written.
    for (int64_t i = 300'000; i < 400'000; ++i)
        t.push_back(i);
    EXPECT_EQ(t[399'999], 399'999);
    EXPECT_EQ(t[300'000], 300'000);
}

TEST(LargeArray, HoldsMillionsOfPointsOnWholeHugePagesAndSmallOnesInMalloc) {
    // A 3M-point series' times, grown by push_back as the store reads them.
    LargeArray<int64_t> t;
    for (int64_t i = 0; i < 3'000'000; ++i)
        t.push_back(i * 7);
    ASSERT_EQ(t.size(), 3'000'000u);
    for (size_t i = 0; i < t.size(); i += 99'991)
        ASSERT_EQ(t[i], static_cast<int64_t>(i) * 7) << i;
    EXPECT_EQ(t.back(), 2'999'999 * 7);
    const auto at = reinterpret_cast<uintptr_t>(t.data());
    if (!kUnderAddressSanitizer)
        EXPECT_EQ(at % kHugePageBytes, 0u) << "a large array starts on a huge page boundary";
    // Copies, shrinking by swap and freeing work across the two kinds of memory.
    LargeArray<int64_t> copy = t;
    EXPECT_TRUE(copy == std::vector<int64_t>(t.begin(), t.end()));
    copy.resize(10);
    copy.shrink_to_fit();
    EXPECT_EQ(copy.size(), 10u);
    EXPECT_EQ(copy[9], 63);
    LargeArray<int64_t>().swap(t);
    EXPECT_EQ(t.capacity(), 0u);
    // A mapping the machine cannot give is refused as an allocation, not a crash.
    EXPECT_THROW(mapHugePages(size_t(-1) - 10), std::bad_alloc);
    EXPECT_THROW(mapHugePages(size_t(1) << 60), std::bad_alloc);
    void* small = mapHugePages(1);
    static_cast<char*>(small)[kHugePageBytes - 1] = 1; // one byte rounds up to a whole huge page
    unmapHugePages(small, 1);
}
