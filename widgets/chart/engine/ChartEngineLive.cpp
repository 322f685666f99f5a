// SPDX-License-Identifier: MIT
// ChartEngine's live data (resources/DESIGN.md §8): points from the in-process bus drawn ahead of the store,
// rows polled from the store (another process's run, or confirming the live tail), and lines
// that grow in place instead of being rebuilt for every new point.

#include "widgets/chart/engine/ChartEngine.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

namespace radt {

bool ChartEngine::extendLine(size_t runIndex, size_t from) {
    // Only a line that is this run alone grows in place; merged lines interleave runs, and a log
    // axis drops points, so those are rebuilt.
    if (m_options.logY)
        return false;
    auto line = std::find_if(m_lines.begin(), m_lines.end(), [&](const ChartLine& l) {
        return l.runs.size() == 1 && l.runs.front() == runIndex;
    });
    if (line == m_lines.end())
        return false;
    const ChartRunData& r = m_runs[runIndex];
    if (line->pyramid.isBorrowed()) { // a view on the run's arrays: they grew, it follows
        if (!lineCanGrowInPlace(r, from))
            return false;
        line->pyramid.rebind(r.series.t, r.series.v);
        return true;
    }
    const double w = m_options.smoothing / 100.0;
    double s = line->pyramid.lastValue();
    int64_t lastX = line->pyramid.lastTime();
    std::vector<int64_t> x;
    std::vector<double> y;
    for (size_t i = from; i < r.series.size(); ++i) {
        const double v = r.series.v[i];
        if (!std::isfinite(v) || std::fabs(v) >= DBL_MAX)
            continue;
        const int64_t xi = chartX(r, i, m_options.xAxis);
        if (xi == kNoChartX)
            continue; // past the last logged epoch: it appears when the epoch is logged
        if (xi < lastX)
            return false; // a step logged out of order: the line must be sorted again
        s = m_options.smoothing > 0 ? w * s + (1 - w) * v : v; // radT's EMA, continued
        x.push_back(xi);
        y.push_back(s);
        lastX = xi;
    }
    line->pyramid.append(x, y);
    return true;
}

ChartChange ChartEngine::appendLive(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    if (m_key.isEmpty() || m_loading || m_detached) // a load on its way brings these from the store
        return ChartChange::None;
    const std::string key = m_key.toStdString();
    bool changed = false, rebuildNeeded = false;
    for (size_t ri = 0; ri < m_runs.size(); ++ri) {
        ChartRunData& r = m_runs[ri];
        if (r.run.uuid != runUuid)
            continue;
        const size_t from = r.series.size();
        for (const MetricPoint& p : points) {
            if (p.key != key || (!r.series.empty() && p.timestamp <= r.series.t.back()))
                continue;
            appendPoint(r, p.timestamp, p.step, p.value);
            ++r.liveTail;
        }
        if (r.series.size() > from) {
            changed = true;
            rebuildNeeded |= !extendLine(ri, from);
        }
    }
    if (rebuildNeeded)
        rebuildLines(); // a user's zoom survives; otherwise the range grows with the data
    return !changed ? ChartChange::None : rebuildNeeded ? ChartChange::Rebuilt : ChartChange::Grown;
}

std::vector<LivePollQuery> ChartEngine::livePollQueries() const {
    std::vector<LivePollQuery> queries;
    if (m_key.isEmpty() || m_loading || m_detached) // the load on its way has the newest rows
        return queries;
    for (const ChartRunData& r : m_runs) {
        if (r.run.status != RunStatus::Running)
            continue;
        // Continue after what the store confirmed: live points from the bus are provisional.
        const size_t confirmed = r.series.size() - r.liveTail;
        queries.push_back({r.run.uuid, confirmed == 0 ? std::numeric_limits<int64_t>::min()
                                                      : r.series.t[confirmed - 1] + 1});
    }
    return queries;
}

ChartChange ChartEngine::applyLivePoll(const QString& metricKey, const std::vector<LivePollResult>& results,
                                       bool* anyChange) {
    *anyChange = false;
    if (metricKey != m_key || m_loading || m_detached)
        return ChartChange::None; // the chart shows something else now
    bool changed = false, grown = false, rebuildNeeded = false;
    for (const LivePollResult& result : results) {
        const auto found = std::find_if(m_runs.begin(), m_runs.end(), [&](const ChartRunData& r) {
            return r.run.uuid == result.query.runUuid && r.run.status == RunStatus::Running;
        });
        if (found == m_runs.end())
            continue;
        ChartRunData& r = *found;
        const size_t ri = size_t(found - m_runs.begin());
        const size_t confirmed = r.series.size() - r.liveTail;
        const int64_t after =
            confirmed == 0 ? std::numeric_limits<int64_t>::min() : r.series.t[confirmed - 1] + 1;
        if (after != result.query.after)
            continue; // rows were confirmed since it was asked: the next round reads on from there
        const Series& fresh = result.fresh;
        size_t same = 0;
        while (same < fresh.size() && same < r.liveTail && fresh.t[same] == r.series.t[confirmed + same] &&
               (fresh.v[same] == r.series.v[confirmed + same] ||
                (std::isnan(fresh.v[same]) && std::isnan(r.series.v[confirmed + same]))))
            ++same;
        if (same == fresh.size()) {
            r.liveTail -= same; // the store confirms what the bus already showed
        } else {
            // New rows (another process's run), or rows that differ from the live tail.
            const bool hadTail = r.liveTail > 0;
            truncatePoints(r, confirmed);
            r.liveTail = 0;
            for (size_t i = 0; i < fresh.size(); ++i)
                appendPoint(r, fresh.t[i], fresh.step[i], fresh.v[i]);
            rebuildNeeded |= hadTail || !extendLine(ri, confirmed);
            grown = changed = true;
        }
        if (result.now && result.now->status != RunStatus::Running) {
            r.run.status = result.now->status; // finished: no more polling for it
            r.run.endTime = result.now->endTime;
            r.liveTail = 0;
            changed = true;
        }
    }
    *anyChange = changed;
    if (grown && rebuildNeeded)
        rebuildLines();
    return !grown ? ChartChange::None : rebuildNeeded ? ChartChange::Rebuilt : ChartChange::Grown;
}

} // namespace radt
