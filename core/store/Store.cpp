// SPDX-License-Identifier: MIT
#include "core/store/Store.h"

#include "core/base/Uuid.h"

#include <cmath>
#include <cstdint>

namespace radt {

std::vector<Run> StoreReader::searchRuns(const std::vector<RunCondition>& conditions,
                                         std::optional<int64_t> experimentId) {
    std::vector<Run> found;
    for (Run& run : runs(experimentId)) {
        std::map<std::string, double> latest;
        for (const auto& [key, metric] : latestMetrics(run.uuid))
            if (!std::isnan(metric.value)) // a NaN latest value meets no condition, as in SQL
                latest.emplace(key, metric.value);
        if (runMatches(conditions, run, latest))
            found.push_back(std::move(run));
    }
    return found;
}

Run newRunFor(const NewRun& spec, const std::string& artifactRoot) {
    Run run;
    run.uuid = newRunUuid();
    run.name = spec.name;
    run.experimentId = spec.experimentId;
    run.status = spec.status;
    run.startTime = spec.startTime ? spec.startTime : nowMs();
    run.artifactUri = artifactRoot + "/" + std::to_string(spec.experimentId) + "/" + run.uuid + "/artifacts";
    for (auto& [k, v] : mlflowRunTags(spec))
        run.tags[k] = v;
    return run;
}

std::vector<std::pair<std::string, std::string>> mlflowRunTags(const NewRun& spec) {
    return {{"mlflow.runName", spec.name},
            {"mlflow.user", spec.userId},
            {"mlflow.source.name", spec.sourceName},
            {"mlflow.source.type", "LOCAL"}};
}

void StoreCuration::setRunDeleted(const std::string& runUuid, bool deleted) {
    if (setRunsDeleted({runUuid}, deleted).empty())
        throw StoreError("run '" + runUuid + "' is " + (deleted ? "already deleted" : "not deleted") +
                         " in " + curatedUri());
}

void StoreCuration::setExperimentDeleted(int64_t experimentId, bool deleted) {
    if (setExperimentsDeleted({experimentId}, deleted).empty())
        throw StoreError("experiment " + std::to_string(experimentId) + " is " +
                         (deleted ? "already deleted" : "not deleted") + " in " + curatedUri());
}

EnvelopeCache& Store::envelopes() {
    static EnvelopeCache none; // keeps nothing and holds no state: one serves every such store
    return none;
}

std::optional<Experiment> StoreReader::experimentById(int64_t id) {
    for (Experiment& e : experiments())
        if (e.id == id)
            return std::move(e);
    return std::nullopt;
}

Series StoreReader::seriesEnvelope(const std::string& runUuid, const std::string& key,
                                   std::optional<std::pair<int64_t, int64_t>> range, int buckets) {
    const Series all = range ? seriesRange(runUuid, key, range->first, range->second) : series(runUuid, key);
    return envelopeOf(all, range ? range->first : (all.t.empty() ? 0 : all.t.front()),
                      range ? range->second : (all.t.empty() ? 0 : all.t.back()), buckets);
}

std::map<std::string, int64_t> StoreReader::pointCounts(const std::string& runUuid) {
    std::map<std::string, int64_t> counts;
    for (const std::string& key : metricKeys({runUuid}))
        counts[key] = int64_t(series(runUuid, key).size());
    return counts;
}

std::map<std::string, SeriesStats> StoreReader::seriesStatsOfRun(const std::string& runUuid,
                                                                 const std::string& onlyKey) {
    std::map<std::string, SeriesStats> out;
    const std::vector<std::string> keys =
        onlyKey.empty() ? metricKeys({runUuid}) : std::vector<std::string>{onlyKey};
    for (const std::string& key : keys) {
        const Series s = series(runUuid, key);
        if (!s.empty())
            out.emplace(key, seriesStats(s));
    }
    return out;
}

Series envelopeOf(const Series& s, int64_t fromMs, int64_t toMs, int buckets) {
    Series out;
    if (s.t.empty() || buckets < 1 || toMs < fromMs)
        return out;
    // The same arithmetic as PostgreSQL's width_bucket over float8, so both stores cut alike.
    const double width = double(toMs) + 1 - double(fromMs);
    size_t i = 0;
    while (i < s.t.size()) {
        const int bucket = static_cast<int>((double(s.t[i]) - double(fromMs)) / width * buckets);
        size_t lo = SIZE_MAX, hi = SIZE_MAX;
        for (; i < s.t.size() &&
               static_cast<int>((double(s.t[i]) - double(fromMs)) / width * buckets) == bucket;
             ++i) {
            if (std::isnan(s.v[i]))
                continue;
            // Ties go to the earliest point, as the server's ORDER BY value, timestamp, step does.
            if (lo == SIZE_MAX || s.v[i] < s.v[lo])
                lo = i;
            if (hi == SIZE_MAX || s.v[i] > s.v[hi])
                hi = i;
        }
        if (lo == SIZE_MAX)
            continue;
        auto push = [&](size_t k) {
            out.t.push_back(s.t[k]);
            out.step.push_back(s.step[k]);
            out.v.push_back(s.v[k]);
        };
        push(std::min(lo, hi));
        if (hi != lo)
            push(std::max(lo, hi));
    }
    return out;
}

} // namespace radt
