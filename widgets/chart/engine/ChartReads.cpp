// SPDX-License-Identifier: MIT
#include "widgets/chart/engine/ChartReads.h"

#include "core/base/InsightSeries.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/Store.h"

#include <algorithm>
#include <limits>
#include <map>

namespace radt {

namespace {

/// From this many runs on, a chart reads finished runs' envelopes (RunEnvelopes.h) rather than
/// every point: 500 runs of 100k samples are 50M rows, against 2 to 8 thousand points a run.
constexpr size_t kEnvelopesFromRuns = 8;

/// A finished run's series for a chart of many runs: its stored envelope when fresh; otherwise
/// read whole, reduced, and the envelope saved through `keep` for the next chart (a cache: a store
/// that cannot keep it is charted all the same). Says in `d` whether the series is reduced.
Series envelopeOrWhole(Store& store, Store* keep, const Run& run, const std::string& key, int level,
                       std::map<std::string, StoredEnvelope>& stored, ChartRunData& d) {
    if (auto found = stored.find(run.uuid); found != stored.end()) {
        d.reduced = true;
        d.storedPoints = found->second.pointCount;
        return std::move(found->second.series);
    }
    if (store.prefersEnvelopes()) { // reduced where it is; `radt store compact` stores it
        d.reduced = true;
        return store.seriesEnvelope(run.uuid, key, std::nullopt, 2 * level);
    }
    // The change count before the series, as writeRunEnvelopes does: a change meanwhile makes
    // the saved envelope stale rather than short of it.
    std::optional<int64_t> changes;
    try {
        if (keep)
            changes = keep->envelopes().envelopeChangeCount(run.uuid);
    } catch (const StoreError&) {
        // Locked by a writer: charted all the same, kept by the next chart.
    }
    const std::map<std::string, LatestMetric> latest = store.latestMetrics(run.uuid);
    Series whole = store.series(run.uuid, key);
    const auto l = latest.find(key);
    if (l == latest.end() || int64_t(whole.size()) <= envelopeMinPoints())
        return whole;
    std::vector<StoredEnvelope> envelopes = envelopesOf(key, whole, l->second, changes.value_or(-1));
    try {
        if (changes)
            keep->envelopes().saveEnvelopes(run.uuid, envelopes);
    } catch (const StoreError&) {
        // Locked by a writer, a role that may only read: the next chart reads it whole again.
    }
    for (StoredEnvelope& e : envelopes)
        if (e.buckets == level) {
            d.reduced = true;
            d.storedPoints = int64_t(whole.size());
            return std::move(e.series);
        }
    return whole;
}

} // namespace

std::vector<ChartRunData> readChartRuns(Store& store, const std::vector<Run>& runs,
                                        const std::string& metricKey, int columns,
                                        const std::function<void(size_t, size_t)>& progress, Store* keep) {
    std::vector<ChartRunData> data;
    std::map<int64_t, std::string> experimentNames; // lines are named by experiment (resources/DESIGN.md §9)
    const bool many = runs.size() >= kEnvelopesFromRuns;
    const int level = envelopeLevelFor(columns);
    std::map<std::string, StoredEnvelope> stored;
    if (many) {
        std::vector<std::string> finished;
        for (const Run& run : runs)
            if (run.status != RunStatus::Running)
                finished.push_back(run.uuid);
        stored = store.envelopes().storedEnvelopes(finished, metricKey, level);
    }
    for (size_t i = 0; i < runs.size(); ++i) {
        const Run& run = runs[i];
        ChartRunData d;
        d.run = run;
        if (many && run.status != RunStatus::Running) {
            d.series = envelopeOrWhole(store, keep, run, metricKey, level, stored, d);
        } else if (store.prefersEnvelopes()) {
            // A server store reduces large series where they are (resources/DESIGN.md §8);
            // generous resolution, so a wider window or a moderate zoom still has real points.
            d.series = store.seriesEnvelope(run.uuid, metricKey, std::nullopt, 4 * columns);
            d.reduced = true;
        } else {
            d.series = store.series(run.uuid, metricKey);
        }
        // A running run stays even before its first sample of this metric: it is followed.
        if (!d.series.empty() || run.status == RunStatus::Running) {
            auto name = experimentNames.find(run.experimentId);
            if (name == experimentNames.end()) {
                const auto experiment = store.experimentById(run.experimentId);
                name = experimentNames.emplace(run.experimentId, experiment ? experiment->name : "").first;
            }
            d.experimentName = name->second;
            if (insight::isHardwareKey(metricKey)) {
                // For the epoch x axis: one latest-values query picks the epoch metric, whose
                // series is short (a point per epoch or step); cheap enough to do on every load.
                d.epochKey = insight::epochMetricFromLatest(store.latestMetrics(run.uuid));
                if (!d.epochKey.empty())
                    d.epochs = insight::epochSpans(store.series(run.uuid, d.epochKey),
                                                   run.startTime > 0  ? run.startTime
                                                   : d.series.empty() ? 0
                                                                      : d.series.t.front());
                if (d.epochs.empty())
                    d.epochKey.clear();
            }
            data.push_back(std::move(d));
        }
        if (progress)
            progress(i + 1, runs.size());
    }
    return data;
}

std::vector<ChartDetail> readChartDetail(Store& store, const ChartDetailQuery& query) {
    // 4 slices a column, as a server store's first read: a moderate zoom further still has real points.
    const int buckets = 4 * std::max(1, query.columns);
    // The store's envelope of the range: reduced in the server on PostgreSQL, here on SQLite; a
    // range of fewer points than slices comes back whole.
    std::vector<ChartDetail> details;
    for (const ChartDetailQuery::RunRange& r : query.runs)
        details.push_back(
            {r, store.seriesEnvelope(r.runUuid, query.metricKey, std::make_pair(r.from, r.to), buckets)});
    return details;
}

std::vector<LivePollResult> readLivePoll(Store& store, const std::string& metricKey,
                                         const std::vector<LivePollQuery>& queries) {
    std::vector<LivePollResult> results;
    results.reserve(queries.size());
    for (const LivePollQuery& q : queries)
        results.push_back(
            {q, store.seriesRange(q.runUuid, metricKey, q.after, std::numeric_limits<int64_t>::max()),
             store.run(q.runUuid)});
    return results;
}

} // namespace radt
