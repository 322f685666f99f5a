// SPDX-License-Identifier: MIT
#include "widgets/chart/engine/ChartLines.h"

#include "core/base/Statistics.h"
#include "widgets/common/Formatting.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include <QObject>
#include <QStringList>

namespace radt {

QString workloadKeyOf(const Run& run) {
    // Runs without a workload are their own group: nothing to merge them with.
    if (run.workload().empty())
        return QStringLiteral("run:") + toQString(run.uuid);
    return QString::number(run.experimentId) + QLatin1Char('-') + toQString(run.workload());
}

QString seriesLabelOf(const Run& run) {
    // radT's front end names a run shown on its own "<workload id> <letter>"; a one-character
    // letter (or none) is not unique across experiments' runs, so the run id's first 5 characters
    // follow in parentheses. Board files store hidden series under these names.
    const QString id5 = toQString(run.uuid.substr(0, 5));
    if (run.workload().empty())
        return QString::number(run.experimentId) + QStringLiteral(" (") + id5 + QLatin1Char(')');
    const QString key = workloadKeyOf(run);
    const QString letter = toQString(run.letter());
    if (letter.isEmpty())
        return key + QStringLiteral(" (") + id5 + QLatin1Char(')');
    if (letter.size() > 1)
        return key + QLatin1Char(' ') + letter;
    return key + QLatin1Char(' ') + letter + QStringLiteral(" (") + id5 + QLatin1Char(')');
}

int64_t stepAt(const ChartRunData& r, size_t i) {
    return r.stepsConstant ? r.constantStep : r.series.step[i];
}

void compactSteps(ChartRunData& r) {
    Series& s = r.series;
    if (r.stepsConstant || s.step.empty() || s.step.size() != s.t.size())
        return;
    if (std::adjacent_find(s.step.begin(), s.step.end(), std::not_equal_to<>()) != s.step.end())
        return;
    r.constantStep = s.step.front();
    r.stepsConstant = true;
    decltype(s.step)().swap(s.step); // frees the memory, not only the size
}

void appendPoint(ChartRunData& r, int64_t t, int64_t step, double v) {
    Series& s = r.series;
    if (s.t.empty() && s.step.empty()) { // a first point starts a compact column
        r.stepsConstant = true;
        r.constantStep = step;
    } else if (r.stepsConstant && step != r.constantStep) {
        s.step.assign(s.t.size(), r.constantStep); // steps vary from now on: write them out
        r.stepsConstant = false;
    }
    s.t.push_back(t);
    s.v.push_back(v);
    if (!r.stepsConstant)
        s.step.push_back(step);
}

void truncatePoints(ChartRunData& r, size_t n) {
    Series& s = r.series;
    s.t.resize(std::min(n, s.t.size()));
    s.v.resize(s.t.size());
    if (!r.stepsConstant)
        s.step.resize(s.t.size());
}

Series fullSeries(const ChartRunData& r) {
    Series s = r.series;
    if (r.stepsConstant)
        s.step.assign(s.t.size(), r.constantStep);
    return s;
}

int64_t chartX(const ChartRunData& r, size_t i, ChartOptions::XAxis axis) {
    const Series& s = r.series;
    const int64_t origin = r.run.startTime > 0 ? r.run.startTime : s.t.front();
    if (axis == ChartOptions::XAxis::Epoch) {
        const auto progress = insight::epochProgress(r.epochs, s.t[i]);
        return progress ? std::llround(*progress * 1000.0) : kNoChartX;
    }
    return axis == ChartOptions::XAxis::Step        ? stepAt(r, i)
           : axis == ChartOptions::XAxis::WallClock ? s.t[i]
                                                    : saturatingDifference(s.t[i], origin);
}

namespace {

// A single run's line can be a view on its arrays (no copy) when nothing is computed per point:
// no smoothing, no log filter, time on x, and no infinities (MLflow's +-DBL_MAX) to leave out.
bool canBorrow(const ChartRunData& r, const ChartOptions& o) {
    if (o.smoothing > 0 || o.logY || o.xAxis == ChartOptions::XAxis::Step ||
        o.xAxis == ChartOptions::XAxis::Epoch || r.series.empty())
        return false;
    bool anyFinite = false;
    for (double v : r.series.v) {
        if (std::isnan(v))
            continue;
        if (!std::isfinite(v) || std::fabs(v) >= DBL_MAX)
            return false;
        anyFinite = true;
    }
    return anyFinite;
}

} // namespace

bool lineCanGrowInPlace(const ChartRunData& r, size_t from) {
    for (size_t i = from; i < r.series.v.size(); ++i)
        if (!std::isnan(r.series.v[i]) &&
            (!std::isfinite(r.series.v[i]) || std::fabs(r.series.v[i]) >= DBL_MAX))
            return false;
    return true;
}

namespace {

struct Points {
    std::vector<int64_t> x;
    std::vector<double> y;
};

// One run's points on the chart's x axis, in x order, without values a chart cannot place.
Points runPoints(const ChartRunData& r, ChartOptions::XAxis axis) {
    const Series& s = r.series;
    Points p;
    if (s.empty())
        return p;
    std::vector<std::pair<int64_t, double>> points;
    points.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        // MLflow stores +-inf as +-DBL_MAX: missing, like NaN, or the y axis collapses.
        if (!std::isfinite(s.v[i]) || std::fabs(s.v[i]) >= DBL_MAX)
            continue;
        if (const int64_t x = chartX(r, i, axis); x != kNoChartX)
            points.emplace_back(x, s.v[i]);
    }
    // Time order already is x order except on the step axis; stable keeps time order in a step.
    if (axis == ChartOptions::XAxis::Step)
        std::stable_sort(points.begin(), points.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    p.x.reserve(points.size());
    p.y.reserve(points.size());
    for (const auto& [x, y] : points) {
        p.x.push_back(x);
        p.y.push_back(y);
    }
    return p;
}

// radT's merge: the runs' points interleaved into one line in x order.
Points concatenated(std::vector<Points> parts) {
    if (parts.size() == 1)
        return std::move(parts.front());
    std::vector<std::pair<int64_t, double>> all;
    for (const Points& p : parts)
        for (size_t i = 0; i < p.x.size(); ++i)
            all.emplace_back(p.x[i], p.y[i]);
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    Points out;
    out.x.reserve(all.size());
    out.y.reserve(all.size());
    for (const auto& [x, y] : all) {
        out.x.push_back(x);
        out.y.push_back(y);
    }
    return out;
}

// The bin a mean is taken over: one step, or the runs' typical sampling interval, so that each
// run contributes about one value per bin however their clocks are offset.
int64_t binWidth(const std::vector<Points>& parts, ChartOptions::XAxis axis) {
    if (axis == ChartOptions::XAxis::Step)
        return 1;
    std::vector<int64_t> gaps;
    for (const Points& p : parts)
        for (size_t i = 1; i < p.x.size() && gaps.size() < 4096; ++i)
            if (p.x[i] > p.x[i - 1])
                gaps.push_back(p.x[i] - p.x[i - 1]);
    if (gaps.empty())
        return 1;
    std::nth_element(gaps.begin(), gaps.begin() + long(gaps.size() / 2), gaps.end());
    return std::max<int64_t>(1, gaps[gaps.size() / 2]);
}

int64_t floorDiv(int64_t a, int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

// The band's edges around the mean of n values with sample sd `sd`. A CI of fewer than
// kFewestRunsForCi runs is no band: the mean alone.
std::pair<double, double> bandEdges(ChartOptions::Band band, double mean, double sd, size_t n, double lo,
                                    double hi) {
    switch (band) {
    case ChartOptions::Band::MinMax:
        return {lo, hi};
    case ChartOptions::Band::Sd:
        return {mean - sd, mean + sd};
    case ChartOptions::Band::Ci95:
        break;
    }
    const double half =
        n >= kFewestRunsForCi ? stats::studentTQuantile(0.975, double(n - 1)) * sd / std::sqrt(double(n)) : 0;
    return {mean - half, mean + half};
}

// Mean and band over the runs per bin. A run's several points in a bin count as their mean, so a
// run sampled faster than the others does not outweigh them; with two runs or more, a bin only
// one run reaches is left out.
std::vector<BandRow> meanBand(const std::vector<Points>& parts, const ChartOptions& options,
                              ValueRange range) {
    const int64_t width = binWidth(parts, options.xAxis);
    struct Cell {
        int64_t bin;
        double value;
    };
    std::vector<Cell> cells;
    for (const Points& p : parts) {
        for (size_t i = 0; i < p.x.size();) {
            const int64_t bin = floorDiv(p.x[i], width);
            size_t end = i;
            while (end < p.x.size() && floorDiv(p.x[end], width) == bin)
                ++end;
            // Each value divided first: the sum of two values near DBL_MAX would overflow.
            double mean = 0;
            for (const size_t n = end - i; i < end; ++i)
                mean += p.y[i] / double(n);
            cells.push_back({bin, mean});
        }
    }
    std::stable_sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) { return a.bin < b.bin; });
    const size_t fewest = parts.size() > 1 ? 2 : 1;
    std::vector<BandRow> rows;
    for (size_t i = 0; i < cells.size();) {
        const size_t first = i;
        const int64_t bin = cells[i].bin;
        double lo = cells[i].value, hi = cells[i].value;
        while (i < cells.size() && cells[i].bin == bin) {
            lo = std::min(lo, cells[i].value);
            hi = std::max(hi, cells[i].value);
            ++i;
        }
        const size_t n = i - first;
        if (n < fewest)
            continue;
        // Values near 1e200 squared, or two near DBL_MAX summed, overflow: the mean from values
        // divided first, the sd from halved deviations scaled by the largest (the band of 1e200s
        // is finite; one wider than a double can hold is not, and is left out by the caller).
        double mean = 0;
        for (size_t k = first; k < i; ++k)
            mean += cells[k].value / double(n);
        double largest = 0;
        for (size_t k = first; k < i; ++k)
            largest = std::max(largest, std::fabs(cells[k].value / 2 - mean / 2));
        double squares = 0;
        for (size_t k = first; k < i && largest > 0; ++k) {
            const double d = (cells[k].value / 2 - mean / 2) / largest;
            squares += d * d;
        }
        const double sd = n > 1 && largest > 0 ? 2 * largest * std::sqrt(squares / double(n - 1)) : 0;
        auto [low, high] = bandEdges(options.band, mean, sd, n, lo, hi);
        if (!std::isfinite(low) || !std::isfinite(high))
            low = high = std::nan("");
        // Utilisation never leaves 0-100 %, power is never negative: a band is cut there.
        const bool clipped = low < range.low || high > range.high;
        if (clipped) {
            low = std::max(low, range.low);
            high = std::min(high, range.high);
        }
        rows.push_back({bin * width, mean, low, high, n, lo, hi, clipped});
    }
    return rows;
}

// A log axis has no place for zero or negative values.
void keepPositive(Points& p) {
    size_t kept = 0;
    for (size_t i = 0; i < p.y.size(); ++i)
        if (p.y[i] > 0) {
            p.x[kept] = p.x[i];
            p.y[kept++] = p.y[i];
        }
    p.x.resize(kept);
    p.y.resize(kept);
}

} // namespace

std::vector<ChartLine> buildChartLines(const std::vector<ChartRunData>& runs, const ChartOptions& options,
                                       ValueRange range) {
    const std::vector<ChartLineGroup> groups = groupChartRuns(runs, options);
    std::vector<ChartLine> lines;
    for (const ChartLineGroup& g : groups) {
        if (g.runs.size() == 1 && canBorrow(runs[g.runs.front()], options)) {
            const ChartRunData& r = runs[g.runs.front()];
            const int64_t origin = r.run.startTime > 0 ? r.run.startTime : r.series.t.front();
            ChartLine line;
            line.name = g.name;
            line.workloadKey = g.workloadKey;
            line.runs = g.runs;
            line.grouped = g.grouped;
            line.pyramid = SeriesPyramid::borrowing(
                r.series.t, r.series.v, options.xAxis == ChartOptions::XAxis::SinceStart ? origin : 0);
            lines.push_back(std::move(line));
            continue;
        }
        std::vector<Points> parts;
        for (size_t r : g.runs) {
            Points p = runPoints(runs[r], options.xAxis);
            if (!p.x.empty())
                parts.push_back(std::move(p));
        }
        if (parts.empty())
            continue;
        ChartLine line;
        line.name = g.name;
        line.workloadKey = g.workloadKey;
        line.runs = g.runs;
        line.grouped = g.grouped;
        if (g.band && parts.size() > 1) {
            for (Points& p : parts) // each run is smoothed on its own, then the runs are combined
                p.y = emaSmooth(p.y, options.smoothing);
            Points mean, low, high, runsLow, runsHigh;
            for (const BandRow& row : meanBand(parts, options, range)) {
                mean.x.push_back(row.x);
                mean.y.push_back(row.mean);
                low.x.push_back(row.x);
                low.y.push_back(row.low);
                high.x.push_back(row.x);
                high.y.push_back(row.high);
                runsLow.x.push_back(row.x);
                runsLow.y.push_back(row.runsLow);
                runsHigh.x.push_back(row.x);
                runsHigh.y.push_back(row.runsHigh);
                line.bandClipped = line.bandClipped || row.clipped;
                line.bandNarrowed = line.bandNarrowed ||
                                    (options.band == ChartOptions::Band::Ci95 && row.n < kFewestRunsForCi);
            }
            if (options.logY) {
                keepPositive(mean);
                keepPositive(low); // a band reaching zero loses its lower edge there, not its line
                keepPositive(high);
                keepPositive(runsLow);
                keepPositive(runsHigh);
            }
            if (mean.x.empty())
                continue;
            // A band wider than a double holds would span the axis from -inf to inf and wash out
            // every line: the mean is drawn without it, and its name says so.
            line.bandTooWide =
                std::any_of(low.y.begin(), low.y.end(), [](double v) { return std::isnan(v); });
            line.pyramid = SeriesPyramid(std::move(mean.x), std::move(mean.y));
            if (line.bandTooWide) {
                line.name += QObject::tr(" (band too wide to draw)");
            } else {
                line.bandLow.emplace(std::move(low.x), std::move(low.y));
                line.bandHigh.emplace(std::move(high.x), std::move(high.y));
            }
            line.valueLow.emplace(std::move(runsLow.x), std::move(runsLow.y));
            line.valueHigh.emplace(std::move(runsHigh.x), std::move(runsHigh.y));
        } else {
            Points p = concatenated(std::move(parts));
            p.y = emaSmooth(p.y, options.smoothing); // radT smooths the merged line as one
            if (options.logY)
                keepPositive(p);
            if (p.x.empty())
                continue;
            line.pyramid = SeriesPyramid(std::move(p.x), std::move(p.y));
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<BandRow> bandRows(const std::vector<ChartRunData>& runs, const std::vector<size_t>& members,
                              const ChartOptions& options, ValueRange range) {
    std::vector<Points> parts;
    for (const size_t r : members) {
        Points p = runPoints(runs[r], options.xAxis);
        p.y = emaSmooth(p.y, options.smoothing);
        if (!p.x.empty())
            parts.push_back(std::move(p));
    }
    return parts.empty() ? std::vector<BandRow>() : meanBand(parts, options, range);
}

std::vector<std::vector<ChartLineRow>> chartLineRows(const std::vector<ChartRunData>& runs,
                                                     const ChartOptions& options) {
    std::vector<std::vector<ChartLineRow>> out;
    for (const ChartLineGroup& g : groupChartRuns(runs, options)) {
        // Every drawable raw point of the group's runs, in x order as buildChartLines merges them.
        std::vector<ChartLineRow> rows;
        for (size_t r : g.runs) {
            const Series& s = runs[r].series;
            for (size_t i = 0; i < s.size(); ++i)
                if (std::isfinite(s.v[i]) && std::fabs(s.v[i]) < DBL_MAX)
                    if (const int64_t x = chartX(runs[r], i, options.xAxis); x != kNoChartX)
                        rows.push_back({r, i, x, s.v[i]});
        }
        if (rows.empty())
            continue;
        std::stable_sort(rows.begin(), rows.end(),
                         [](const ChartLineRow& a, const ChartLineRow& b) { return a.x < b.x; });
        const bool band = g.band;
        // The EMA drawn: over the merged line, or per run where runs are combined as a band.
        const double w = std::min(options.smoothing, 99) / 100.0;
        std::map<size_t, double> state; // per run (band) or one shared entry (merged)
        std::vector<ChartLineRow> kept;
        kept.reserve(rows.size());
        for (ChartLineRow& row : rows) {
            const size_t slot = band ? row.run : 0;
            auto it = state.find(slot);
            const double s = options.smoothing <= 0 || it == state.end()
                                 ? row.smoothed
                                 : w * it->second + (1 - w) * row.smoothed;
            state[slot] = s;
            row.smoothed = s;
            if (!options.logY || s > 0)
                kept.push_back(row);
        }
        if (!kept.empty())
            out.push_back(std::move(kept));
    }
    return out;
}

} // namespace radt
