#include "widgets/chart/engine/ChartLines.h"

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
    std::vector<int64_t>().swap(s.step); // frees the memory, not only the size
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

// Mean, min and max over the runs per bin. A run's several points in a bin count as their mean,
// so a run sampled faster than the others does not outweigh them.
void meanBand(const std::vector<Points>& parts, ChartOptions::XAxis axis, Points& mean, Points& low,
              Points& high) {
    const int64_t width = binWidth(parts, axis);
    struct Cell {
        int64_t bin;
        double value;
    };
    std::vector<Cell> cells;
    for (const Points& p : parts) {
        for (size_t i = 0; i < p.x.size();) {
            const int64_t bin = floorDiv(p.x[i], width);
            double sum = 0;
            size_t n = 0;
            for (; i < p.x.size() && floorDiv(p.x[i], width) == bin; ++i, ++n)
                sum += p.y[i];
            cells.push_back({bin, sum / double(n)});
        }
    }
    std::stable_sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) { return a.bin < b.bin; });
    for (size_t i = 0; i < cells.size();) {
        const int64_t bin = cells[i].bin;
        double sum = 0, lo = cells[i].value, hi = cells[i].value;
        size_t n = 0;
        for (; i < cells.size() && cells[i].bin == bin; ++i, ++n) {
            sum += cells[i].value;
            lo = std::min(lo, cells[i].value);
            hi = std::max(hi, cells[i].value);
        }
        const int64_t x = bin * width;
        mean.x.push_back(x);
        mean.y.push_back(sum / double(n));
        low.x.push_back(x);
        low.y.push_back(lo);
        high.x.push_back(x);
        high.y.push_back(hi);
    }
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

bool ranTogether(const std::vector<ChartRunData>& runs, const std::vector<size_t>& which) {
    if (which.size() < 2)
        return true;
    // A run's span: start to end (or its last sample while it has no end).
    auto span = [&runs](size_t i) {
        const ChartRunData& r = runs[i];
        const int64_t lastSample = r.series.empty() ? r.run.startTime : r.series.t.back();
        const int64_t start = r.run.startTime > 0 ? r.run.startTime
                              : r.series.empty()  ? 0
                                                  : r.series.t.front();
        return std::make_pair(start, std::max(r.run.endTime.value_or(lastSample), start));
    };
    const auto first = span(which.front());
    return std::all_of(which.begin() + 1, which.end(), [&](size_t i) {
        const auto other = span(i);
        return other.first < first.second && first.first < other.second;
    });
}

namespace {

// Params that say nothing about what differs between lines: radT's bookkeeping.
bool namesNothing(const std::string& key) {
    return key == "workload" || key == "letter" || key == "params" || key == "manual" || key == "listeners";
}

QString experimentLabel(const ChartRunData& r) {
    return r.experimentName.empty() ? QObject::tr("experiment %1").arg(r.run.experimentId)
                                    : toQString(r.experimentName);
}

// radT's own params: they tell lines apart only where the user's params do not.
bool isBookkeeping(const std::string& key) {
    return key == "model" || key == "devices" || key == "collocation" || key == "max_epoch" ||
           key == "max_time" || key == "runs_per_gpu";
}

// The fewest params that tell the lines apart, most telling first: the user's params before radT's,
// then those with more values; each one kept only where it names more lines apart than before
// ("iters" adds nothing once "size" moves with it). A line whose runs differ in a param does not say
// it, and no line says an unset value ("collocation=-").
std::vector<std::string> tellingParams(const std::vector<ChartLineGroup>& groups,
                                       const std::vector<std::map<std::string, std::string>>& shared,
                                       const std::set<std::string>& keys) {
    struct Candidate {
        std::string key;
        bool bookkeeping;
        size_t values;
    };
    std::vector<Candidate> candidates;
    for (const std::string& key : keys) {
        std::set<std::string> values;
        size_t set = 0;
        for (size_t gi = 0; gi < groups.size(); ++gi)
            if (const auto it = shared[gi].find(key); it != shared[gi].end()) {
                values.insert(it->second);
                set += !it->second.empty() && it->second != "-";
            }
        if (values.size() > 1 && set > 0)
            candidates.push_back({key, isBookkeeping(key), values.size()});
    }
    // Greedy: the param that names the most lines apart next; the user's before radT's.
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.bookkeeping != b.bookkeeping ? !a.bookkeeping : a.values > b.values;
    });
    std::vector<std::string> chosen;
    std::vector<std::string> names(groups.size()); // each line's values so far, as one text
    auto distinct = [](const std::vector<std::string>& v) {
        return std::set<std::string>(v.begin(), v.end()).size();
    };
    auto with = [&](const std::string& key) {
        std::vector<std::string> longer = names;
        for (size_t gi = 0; gi < groups.size(); ++gi) {
            const auto it = shared[gi].find(key);
            longer[gi] += '\x1f' + (it == shared[gi].end() ? std::string("\x1e") : it->second);
        }
        return longer;
    };
    while (distinct(names) < groups.size()) {
        size_t best = candidates.size(), bestCount = distinct(names);
        for (size_t c = 0; c < candidates.size(); ++c) {
            if (best < candidates.size() && candidates[best].bookkeeping != candidates[c].bookkeeping)
                break; // a user param that helps wins over any of radT's
            if (const size_t count = distinct(with(candidates[c].key)); count > bestCount)
                best = c, bestCount = count;
        }
        if (best == candidates.size())
            break;
        names = with(candidates[best].key);
        chosen.push_back(candidates[best].key);
        candidates.erase(candidates.begin() + long(best));
    }
    return chosen;
}

// Names for people: what tells the lines apart. The params every run of a line shares, where
// lines differ in them ("batch-size=128"); else the run's name, or the workload for merged runs;
// the experiment first when the runs come from several.
void nameReadably(std::vector<ChartLineGroup>& groups, const std::vector<ChartRunData>& runs) {
    std::vector<std::map<std::string, std::string>> shared(groups.size());
    std::set<std::string> keys;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        const auto& members = groups[gi].runs;
        for (const auto& [key, value] : runs[members.front()].run.params) {
            if (namesNothing(key))
                continue;
            // Init-captures: a lambda cannot capture a structured binding before C++20 (clang refuses).
            const bool same =
                std::all_of(members.begin(), members.end(), [&runs, &key = key, &value = value](size_t r) {
                    return runs[r].run.param(key) == value;
                });
            if (same)
                shared[gi][key] = value;
            keys.insert(key);
        }
    }
    const std::vector<std::string> differing = tellingParams(groups, shared, keys);
    std::set<int64_t> experiments;
    for (const ChartRunData& r : runs)
        experiments.insert(r.run.experimentId);
    constexpr size_t kMostParams = 3;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        ChartLineGroup& g = groups[gi];
        const ChartRunData& first = runs[g.runs.front()];
        QStringList said;
        for (const std::string& key : differing) {
            if (said.size() == int(kMostParams))
                break;
            if (const auto it = shared[gi].find(key);
                it != shared[gi].end() && !it->second.empty() && it->second != "-")
                said << toQString(key) + QLatin1Char('=') + displayName(toQString(it->second), 24);
        }
        QString name = said.join(QLatin1Char(' '));
        if (name.isEmpty())
            name = g.merged                 ? QObject::tr("workload %1").arg(toQString(first.run.workload()))
                   : first.run.name.empty() ? seriesLabelOf(first.run)
                                            : toQString(first.run.name);
        if (experiments.size() > 1)
            name = experimentLabel(first) + QStringLiteral(": ") + name;
        g.name = name;
    }
    // Lines still named alike are told apart by radT's id of the line.
    std::map<QString, int> uses;
    for (const ChartLineGroup& g : groups)
        ++uses[g.name];
    for (ChartLineGroup& g : groups) {
        if (uses[g.name] < 2)
            continue;
        const Run& run = runs[g.runs.front()].run;
        g.name += QStringLiteral(" (") +
                  (g.merged                 ? g.workloadKey
                   : run.workload().empty() ? toQString(run.uuid.substr(0, 5))
                                            : seriesLabelOf(run)) +
                  QLatin1Char(')');
    }
}

} // namespace

std::vector<ChartLineGroup> groupChartRuns(const std::vector<ChartRunData>& runs,
                                           const ChartOptions& options) {
    std::vector<ChartLineGroup> groups;
    std::map<QString, size_t> byKey;
    for (size_t i = 0; i < runs.size(); ++i) {
        const Run& run = runs[i].run;
        const QString key = workloadKeyOf(run);
        const bool merged = !run.workload().empty() && !options.shownRuns.count(key);
        const QString groupKey = merged ? key : key + QLatin1Char('/') + toQString(run.uuid);
        auto it = byKey.find(groupKey);
        if (it == byKey.end()) {
            it = byKey.emplace(groupKey, groups.size()).first;
            // Merged runs are named by the workload id, as radT names them ("1-3").
            groups.push_back({merged ? key : seriesLabelOf(run), key, merged, {}});
        }
        groups[it->second].runs.push_back(i);
    }
    for (ChartLineGroup& g : groups)
        g.band = g.merged && g.runs.size() > 1 &&
                 (options.aggregate == ChartOptions::Aggregate::MeanBand ||
                  (options.aggregate == ChartOptions::Aggregate::Auto && !ranTogether(runs, g.runs)));
    if (options.naming == ChartOptions::Naming::Readable && !groups.empty()) {
        nameReadably(groups, runs);
        return groups;
    }
    // Two groups named alike (the same workload id in two experiments) must stay apart.
    std::map<QString, int> uses;
    for (const ChartLineGroup& g : groups)
        ++uses[g.name];
    for (size_t gi = 0; gi < groups.size(); ++gi)
        if (uses[groups[gi].name] > 1)
            groups[gi].name += QStringLiteral(" #%1").arg(gi + 1);
    return groups;
}

std::vector<ChartLine> buildChartLines(const std::vector<ChartRunData>& runs, const ChartOptions& options) {
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
        if (g.band && parts.size() > 1) {
            // Each run is smoothed on its own, then the runs are combined.
            for (Points& p : parts)
                p.y = emaSmooth(p.y, options.smoothing);
            Points mean, low, high;
            meanBand(parts, options.xAxis, mean, low, high);
            if (options.logY) {
                keepPositive(mean);
                keepPositive(low); // a band reaching zero loses its lower edge there, not its line
                keepPositive(high);
            }
            if (mean.x.empty())
                continue;
            line.pyramid = SeriesPyramid(std::move(mean.x), std::move(mean.y));
            line.bandLow.emplace(std::move(low.x), std::move(low.y));
            line.bandHigh.emplace(std::move(high.x), std::move(high.y));
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
