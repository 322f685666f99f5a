// SPDX-License-Identifier: MIT
// ChartEngine's zoom into runs it holds as envelopes (a chart of many runs reads each finished
// run's stored envelope, RunEnvelopes.h; a server store reduces what it sends): once a zoom
// settles, the visible range (and as much again either side, for panning) is read again finer
// and spliced into the runs, so the lines show real points however far the user zooms.

#include "widgets/chart/engine/ChartEngine.h"

#include <algorithm>
#include <limits>

namespace radt {

namespace {

int64_t saturatingSum(int64_t a, int64_t b) {
    if (b > 0 && a > std::numeric_limits<int64_t>::max() - b)
        return std::numeric_limits<int64_t>::max();
    if (b < 0 && a < std::numeric_limits<int64_t>::min() - b)
        return std::numeric_limits<int64_t>::min();
    return a + b;
}

} // namespace

std::optional<ChartDetailQuery> ChartEngine::detailQuery(int columns) {
    using XAxis = ChartOptions::XAxis;
    // Steps and epochs do not map to one time range per run: those axes keep the envelope.
    if (!m_zoom || m_key.isEmpty() || m_detached ||
        (m_options.xAxis != XAxis::WallClock && m_options.xAxis != XAxis::SinceStart))
        return std::nullopt;
    const auto [zoomFrom, zoomTo] = *m_zoom;
    // Within the range last read and not much narrower: the points held are fine enough.
    if (m_detailedRange && zoomFrom >= m_detailedRange->first && zoomTo <= m_detailedRange->second &&
        (zoomTo - zoomFrom) * 4 > m_detailedRange->second - m_detailedRange->first)
        return std::nullopt;
    const int64_t margin = (zoomTo - zoomFrom) / 2;
    ChartDetailQuery query;
    query.metricKey = m_key.toStdString();
    query.columns = columns;
    query.axisRange = {saturatingSum(zoomFrom, -margin), saturatingSum(zoomTo, margin)};
    for (const ChartRunData& r : m_runs) {
        if (!r.reduced || r.series.empty())
            continue;
        // The origin chartX takes for time since start.
        const int64_t origin = m_options.xAxis == XAxis::WallClock ? 0
                               : r.run.startTime > 0               ? r.run.startTime
                                                                   : r.series.t.front();
        query.runs.push_back({r.run.uuid, saturatingSum(origin, query.axisRange.first),
                              saturatingSum(origin, query.axisRange.second)});
    }
    if (query.runs.empty())
        return std::nullopt;
    query.generation = ++m_detailGeneration;
    return query;
}

bool ChartEngine::applyDetail(const ChartDetailQuery& query, std::vector<ChartDetail> details) {
    if (query.generation != m_detailGeneration || query.metricKey != m_key.toStdString())
        return false;
    bool changed = false;
    for (ChartDetail& d : details) {
        auto run = std::find_if(m_runs.begin(), m_runs.end(), [&](const ChartRunData& r) {
            return r.reduced && r.run.uuid == d.range.runUuid;
        });
        if (run == m_runs.end())
            continue;
        // The points held before the range, the range as read, the points held after it.
        const Series held = fullSeries(*run);
        const size_t lo =
            size_t(std::lower_bound(held.t.begin(), held.t.end(), d.range.from) - held.t.begin());
        const size_t hi = size_t(std::upper_bound(held.t.begin(), held.t.end(), d.range.to) - held.t.begin());
        Series spliced;
        spliced.reserve(lo + d.points.size() + (held.size() - hi));
        auto append = [&spliced](const Series& s, size_t from, size_t to) {
            spliced.t.insert(spliced.t.end(), s.t.begin() + long(from), s.t.begin() + long(to));
            spliced.step.insert(spliced.step.end(), s.step.begin() + long(from), s.step.begin() + long(to));
            spliced.v.insert(spliced.v.end(), s.v.begin() + long(from), s.v.begin() + long(to));
        };
        append(held, 0, lo);
        append(d.points, 0, d.points.size());
        append(held, hi, held.size());
        run->series = std::move(spliced);
        run->stepsConstant = false;
        compactSteps(*run);
        changed = true;
    }
    if (!changed)
        return false;
    m_detailedRange = query.axisRange;
    rebuildLines(); // the user's zoom stays
    return true;
}

bool ChartEngine::holdsReducedRuns() const {
    return std::any_of(m_runs.begin(), m_runs.end(), [](const ChartRunData& r) { return r.reduced; });
}

void ChartEngine::forgetDetail() {
    ++m_detailGeneration;
    m_detailedRange.reset();
}

} // namespace radt
