// SPDX-License-Identifier: MIT
#include "core/store/StoreCopy.h"

#include "core/store/MlflowLimits.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace radt {

namespace {

/// `values` without the entries MLflow's rules reject (`check` throws StoreError for them); the
/// first rejection's message in `problem`.
template <typename Check>
std::vector<std::pair<std::string, std::string>> acceptable(const std::map<std::string, std::string>& values,
                                                            Check check, std::string& problem) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, value] : values) {
        try {
            check(key, value);
            out.emplace_back(key, value);
        } catch (const StoreError& e) {
            if (problem.empty())
                problem = e.what();
        }
    }
    return out;
}

/// Copies one run's params, tags and samples into `destination` (the run is there, SCHEDULED);
/// "" when all of it arrived, else why not. Adds the samples read to `samples`.
std::string copyRunData(Store& source, Store& destination, const Run& run, size_t& samples) {
    std::string problem;
    const auto params = acceptable(
        run.params,
        [](const std::string& k, const std::string& v) {
            mlflow::validateKey(k, "param");
            mlflow::validateParamValue(k, v);
        },
        problem);
    const auto tags = acceptable(
        run.tags,
        [](const std::string& k, const std::string& v) {
            mlflow::validateKey(k, "tag");
            mlflow::validateTagValue(k, v);
        },
        problem);
    if (!params.empty())
        destination.logParams(run.uuid, params);
    if (!tags.empty())
        destination.setTags(run.uuid, tags);
    // The keys of its samples, not only latest_metrics': another client may have written rows to
    // metrics alone.
    std::set<std::string> keys;
    for (const std::string& key : source.metricKeys({run.uuid}))
        keys.insert(key);
    for (const auto& [key, n] : source.pointCounts(run.uuid))
        keys.insert(key);
    std::map<std::string, size_t> read;
    for (const std::string& key : keys) {
        const Series s = source.series(run.uuid, key);
        read[key] = s.size();
        samples += s.size();
        // A key MLflow rejects would fail the destination's write: the run's other keys still go.
        try {
            mlflow::validateKey(key, "metric");
        } catch (const StoreError& e) {
            if (problem.empty())
                problem = std::string(e.what()) + " (" + std::to_string(s.size()) + " samples not copied)";
            continue;
        }
        std::vector<MetricPoint> points;
        points.reserve(s.size());
        for (size_t i = 0; i < s.size(); ++i)
            points.push_back({key, s.v[i], s.t[i], s.step[i]});
        // In slices: one transaction each, memory bounded for million-point series.
        constexpr size_t kSlice = 100000;
        for (size_t from = 0; from < points.size(); from += kSlice)
            destination.logMetrics(
                run.uuid, std::vector<MetricPoint>(points.begin() + from,
                                                   points.begin() + std::min(points.size(), from + kSlice)));
    }
    if (!problem.empty())
        return problem;
    // Counted where they landed: a status must never vouch for samples that are not there.
    const std::map<std::string, int64_t> there = destination.pointCounts(run.uuid);
    for (const auto& [key, n] : read) {
        const auto found = there.find(key);
        const int64_t have = found == there.end() ? 0 : found->second;
        if (have < int64_t(n))
            return "'" + key + "' has " + std::to_string(have) + " of its " + std::to_string(n) +
                   " samples there";
    }
    return {};
}

} // namespace

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
    size_t done = 0;
    for (const Run& original : runs) {
        const std::optional<int64_t> id = destinationId(original.experimentId);
        if (!id)
            continue;
        Run run = original;
        run.experimentId = *id;
        // The run goes in SCHEDULED and gets its own status only after its last sample: a copy
        // stopped on the way, or one that could not bring all of it, leaves it visibly incomplete
        // (never FINISHED with part of its data), and the next copy completes it.
        Run incomplete = run;
        incomplete.status = RunStatus::Scheduled;
        incomplete.endTime.reset();
        destination.maintenance().importRun(incomplete);
        if (const std::string why = copyRunData(source, destination, run, stats.samples); !why.empty()) {
            stats.incomplete[run.uuid] = why;
        } else {
            destination.setRunStatus(run.uuid, run.status, run.endTime);
            ++stats.runs;
        }
        if (progress)
            progress(++done, runs.size(), stats.samples);
    }
    return stats;
}

} // namespace radt
