#include "ChartReads.h"

#include "InsightSeries.h"
#include "Store.h"

#include <limits>
#include <map>

namespace radt {

std::vector<ChartRunData> readChartRuns(Store& store, const std::vector<Run>& runs,
                                        const std::string& metricKey, int columns,
                                        const std::function<void(size_t, size_t)>& progress) {
    std::vector<ChartRunData> data;
    std::map<int64_t, std::string> experimentNames; // lines are named by experiment (resources/DESIGN.md §9)
    for (size_t i = 0; i < runs.size(); ++i) {
        const Run& run = runs[i];
        // A server store reduces large series where they are (resources/DESIGN.md §8); generous resolution,
        // so a wider window or a moderate zoom still has real points.
        Series series = store.prefersEnvelopes()
                            ? store.seriesEnvelope(run.uuid, metricKey, std::nullopt, 4 * columns)
                            : store.series(run.uuid, metricKey);
        // A running run stays even before its first sample of this metric: it is followed.
        if (!series.empty() || run.status == RunStatus::Running) {
            ChartRunData d;
            d.run = run;
            d.series = std::move(series);
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

std::vector<LivePollResult> readLivePoll(Store& store, const std::string& metricKey,
                                         const std::vector<LivePollQuery>& queries) {
    std::vector<LivePollResult> results;
    for (const LivePollQuery& q : queries)
        results.push_back(
            {q, store.seriesRange(q.runUuid, metricKey, q.after, std::numeric_limits<int64_t>::max()),
             store.run(q.runUuid)});
    return results;
}

} // namespace radt
