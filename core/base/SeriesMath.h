// SPDX-License-Identifier: MIT
#pragma once
// Chart-side arithmetic on series (resources/DESIGN.md §8): radT's EMA smoothing, summary statistics, and the
// min/max pyramid that lets a chart redraw in O(pixels) whatever the number of points.

#include "core/base/Model.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace radt {

/// a - b clamped to int64_t's range. Stored timestamps are outside data (a board may hold
/// INT64_MIN): a plain difference overflows, and a clamped one keeps ascending times ascending.
int64_t saturatingDifference(int64_t a, int64_t b);

/// radT's EMA smoothing (resources/DESIGN.md §8): s_i = w*s_{i-1} + (1-w)*x_i with w = percent/100 (0..99),
/// s_0 = x_0. NaN inputs give NaN at that index and do not disturb the running value (the next
/// finite value continues from the last finite s); the first finite value starts the average.
/// percent <= 0 returns v unchanged; percent is clamped to 99.
std::vector<double> emaSmooth(const std::vector<double>& v, int percent);

/// Summary statistics of a series' finite values.
struct SeriesStats {
    static constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
    size_t samples = 0; ///< finite values
    double min = NaN, mean = NaN, p50 = NaN, p95 = NaN, max = NaN;
    double last = NaN;      ///< the last finite value in time order
    int64_t durationMs = 0; ///< t.back() - t.front() over all points, NaN or not
};

/// Percentiles interpolate linearly between closest ranks (numpy's default). O(n).
SeriesStats seriesStats(const Series& s);

/// A min/max pyramid over one series (resources/DESIGN.md §8), built once in O(n); each query for a visible
/// x range costs O(columns * log n), not O(points): per pixel column the minimum and the maximum
/// point (in time order, at their own timestamps), so a single spike among a million points is
/// still drawn; when the range holds fewer points than 2*columns, every point is returned (full
/// resolution on zoom). NaN values are never returned. Equal values: the earliest point wins.
class SeriesPyramid {
public:
    SeriesPyramid() = default;
    /// t must be sorted ascending; t and v have equal size (std::invalid_argument otherwise).
    /// Takes the vectors by value so a caller that no longer needs them can move them in.
    SeriesPyramid(std::vector<int64_t> t, std::vector<double> v);
    /// A pyramid over arrays it does not copy (a chart's run series, so a loaded point is held
    /// once): x = t[i] - offset. The vectors must stay alive and unchanged until rebind() or the
    /// pyramid's end; the pyramid stores only its levels.
    static SeriesPyramid borrowing(const LargeArray<int64_t>& t, const LargeArray<double>& v, int64_t offset);
    /// After the borrowed vectors grew (they may have moved): points them again and adds levels.
    void rebind(const LargeArray<int64_t>& t, const LargeArray<double>& v);
    bool isBorrowed() const { return m_borrowT != nullptr; }

    size_t size() const { return count(); }
    /// Of all points; 0 when empty.
    int64_t firstTime() const { return count() == 0 ? 0 : saturatingDifference(times()[0], m_offset); }
    int64_t lastTime() const {
        return count() == 0 ? 0 : saturatingDifference(times()[count() - 1], m_offset);
    }
    /// The value of the last point (NaN when empty): where a live EMA continues from.
    double lastValue() const {
        return count() == 0 ? std::numeric_limits<double>::quiet_NaN() : values()[count() - 1];
    }

    /// Points with fromMs <= t <= toMs reduced to at most 2 per column (columns >= 1). Column c
    /// holds the times with floor((t - fromMs) * columns / (toMs - fromMs + 1)) == c, computed
    /// exactly. Output: parallel vectors (t, v) sorted by t; both are cleared first.
    void query(int64_t fromMs, int64_t toMs, int columns, std::vector<int64_t>& outT,
               std::vector<double>& outV) const;

    /// Points with fromMs <= t <= toMs summarised per column as query() splits them: the mean,
    /// least and greatest finite value, placed at the middle of the column's first and last point.
    /// How a line with many more points than the plot has pixel columns is drawn: its mean, with
    /// the range lighter behind it so peaks stay visible. Columns without a finite value are left
    /// out. O(columns * log n), like query().
    struct Envelope {
        std::vector<int64_t> t;
        std::vector<double> mean, low, high;
    };
    void queryEnvelope(int64_t fromMs, int64_t toMs, int columns, Envelope& out) const;
    /// How many points lie in fromMs <= t <= toMs (NaN ones included). O(log n).
    size_t countIn(int64_t fromMs, int64_t toMs) const;

    /// The finite point nearest to x (the earlier one on a tie): what a crosshair at x reads.
    /// nullopt when the series has no finite value. O(log n) unless NaNs surround x.
    std::optional<std::pair<int64_t, double>> nearest(int64_t x) const;

    /// Appends newer points (live data): t[0] >= lastTime(), t sorted; amortised O(1) per point.
    /// Not for a borrowing pyramid (std::logic_error): its owner grows the arrays and rebinds.
    void append(const std::vector<int64_t>& t, const std::vector<double>& v);

private:
    static constexpr size_t kNone = std::numeric_limits<size_t>::max();
    /// Indices of the earliest minimum and earliest maximum finite value; kNone when all NaN.
    struct MinMax {
        size_t lo = kNone;
        size_t hi = kNone;
        double sum = 0;    ///< of the finite values, for queryEnvelope()'s means
        size_t finite = 0; ///< how many values are finite
    };

    void merge(MinMax& into, const MinMax& other) const;
    void scan(MinMax& into, size_t from, size_t to) const;
    MinMax minMax(size_t from, size_t to) const;
    void extendLevels();
    /// Moves [fromMs, toMs] to stored times (the arguments change) and returns the index range
    /// [a, b) of the points in it.
    std::pair<size_t, size_t> shiftedRange(int64_t& fromMs, int64_t& toMs) const;
    /// Calls column(lo, hi) with the index range of each column query() would draw, for the
    /// points in [a, b) between the shifted times fromMs and toMs; empty columns are skipped.
    template <typename Column>
    void forEachColumn(size_t a, size_t b, int64_t fromMs, int64_t toMs, int columns, Column&& column) const;

    const int64_t* times() const { return m_borrowT ? m_borrowT : m_t.data(); }
    const double* values() const { return m_borrowT ? m_borrowV : m_v.data(); }
    size_t count() const { return m_borrowT ? m_borrowN : m_t.size(); }

    std::vector<int64_t> m_t; ///< owned points (empty when borrowing)
    std::vector<double> m_v;
    const int64_t* m_borrowT = nullptr; ///< borrowed points, when set
    const double* m_borrowV = nullptr;
    size_t m_borrowN = 0;
    int64_t m_offset = 0; ///< x = stored time - offset
    /// m_levels[k][i] covers points [i * 2^(k+kBaseShift), (i+1) * 2^(k+kBaseShift)); only
    /// complete blocks are stored, so appending never invalidates an entry.
    std::vector<std::vector<MinMax>> m_levels;
};

} // namespace radt
