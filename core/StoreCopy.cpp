#include "StoreCopy.h"

#include <map>

namespace radt {

StoreCopyStats copyStore(Store& source, Store& destination,
                         const std::function<void(size_t, size_t, size_t)>& progress) {
    StoreCopyStats stats;
    // Experiments are matched by name: ids are each store's own.
    std::map<int64_t, int64_t> experimentIds;
    for (const Experiment& e : source.experiments()) {
        experimentIds[e.id] = e.id == 0 ? 0 : destination.getOrCreateExperiment(e.name);
        ++stats.experiments;
    }
    const std::vector<Run> runs = source.runs();
    for (const Run& original : runs) {
        auto id = experimentIds.find(original.experimentId);
        if (id == experimentIds.end())
            continue; // a run of a deleted experiment
        Run run = original;
        run.experimentId = id->second;
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
