#include "StoreCopy.h"

#include <algorithm>
#include <map>
#include <optional>

namespace radt {

StoreCopyStats copyStore(Store& source, Store& destination,
                         const std::function<void(size_t, size_t, size_t)>& progress,
                         const std::function<bool(const Run&)>& include) {
    StoreCopyStats stats;
    // Experiments are matched by name: ids are each store's own. A whole copy makes every
    // experiment, empty ones too; a selection only those of its runs.
    std::map<int64_t, Experiment> sourceExperiments;
    std::map<int64_t, int64_t> experimentIds;
    const auto destinationId = [&](int64_t sourceId) -> std::optional<int64_t> {
        if (auto known = experimentIds.find(sourceId); known != experimentIds.end())
            return known->second;
        auto e = sourceExperiments.find(sourceId);
        if (e == sourceExperiments.end())
            return std::nullopt; // a run of a deleted experiment
        ++stats.experiments;
        return experimentIds[sourceId] =
                   sourceId == 0 ? 0 : destination.getOrCreateExperiment(e->second.name);
    };
    for (const Experiment& e : source.experiments()) {
        sourceExperiments[e.id] = e;
        if (!include)
            destinationId(e.id);
    }
    std::vector<Run> runs = source.runs();
    if (include)
        runs.erase(std::remove_if(runs.begin(), runs.end(), [&](const Run& r) { return !include(r); }),
                   runs.end());
    for (const Run& original : runs) {
        const std::optional<int64_t> id = destinationId(original.experimentId);
        if (!id)
            continue;
        Run run = original;
        run.experimentId = *id;
        // The run goes in SCHEDULED and gets its own status only after its last sample: a copy
        // stopped on the way leaves it visibly incomplete (never FINISHED with part of its data),
        // and the next copy completes it.
        Run incomplete = run;
        incomplete.status = RunStatus::Scheduled;
        incomplete.endTime.reset();
        destination.importRun(incomplete);
        if (!run.params.empty())
            destination.logParams(run.uuid, {run.params.begin(), run.params.end()});
        if (!run.tags.empty())
            destination.setTags(run.uuid, {run.tags.begin(), run.tags.end()});
        for (const std::string& key : source.metricKeys({run.uuid})) {
            const Series s = source.series(run.uuid, key);
            std::vector<MetricPoint> points;
            points.reserve(s.size());
            for (size_t i = 0; i < s.size(); ++i)
                points.push_back({key, s.v[i], s.t[i], s.step[i]});
            // In slices: one transaction each, memory bounded for million-point series.
            constexpr size_t kSlice = 100000;
            for (size_t from = 0; from < points.size(); from += kSlice)
                destination.logMetrics(
                    run.uuid,
                    std::vector<MetricPoint>(points.begin() + from,
                                             points.begin() + std::min(points.size(), from + kSlice)));
            stats.samples += points.size();
        }
        destination.setRunStatus(run.uuid, run.status, run.endTime);
        ++stats.runs;
        if (progress)
            progress(stats.runs, runs.size(), stats.samples);
    }
    return stats;
}

} // namespace radt
