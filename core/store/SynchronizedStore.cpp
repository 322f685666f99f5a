// SPDX-License-Identifier: MIT
#include "core/store/SynchronizedStore.h"

namespace radt {

// One lock per call: each Store call is one transaction, so nothing larger needs holding.
#define RADT_LOCKED(call)                                                                                    \
    std::lock_guard<std::mutex> lock(m_mutex);                                                               \
    return m_store.call

std::string SynchronizedStore::displayUri() const {
    RADT_LOCKED(displayUri());
}
int64_t SynchronizedStore::getOrCreateExperiment(const std::string& name) {
    RADT_LOCKED(getOrCreateExperiment(name));
}
Run SynchronizedStore::createRun(const NewRun& run) {
    RADT_LOCKED(createRun(run));
}
void SynchronizedStore::setRunStatus(const std::string& runUuid, RunStatus status,
                                     std::optional<int64_t> endTime) {
    RADT_LOCKED(setRunStatus(runUuid, status, endTime));
}
void SynchronizedStore::logParams(const std::string& runUuid,
                                  const std::vector<std::pair<std::string, std::string>>& params) {
    RADT_LOCKED(logParams(runUuid, params));
}
void SynchronizedStore::setTags(const std::string& runUuid,
                                const std::vector<std::pair<std::string, std::string>>& tags) {
    RADT_LOCKED(setTags(runUuid, tags));
}
void SynchronizedStore::renameRun(const std::string& runUuid, const std::string& name) {
    RADT_LOCKED(renameRun(runUuid, name));
}
void SynchronizedStore::deleteTags(const std::string& runUuid, const std::vector<std::string>& keys) {
    RADT_LOCKED(deleteTags(runUuid, keys));
}
std::vector<std::string> SynchronizedStore::setRunsDeleted(const std::vector<std::string>& runUuids,
                                                           bool deleted) {
    RADT_LOCKED(setRunsDeleted(runUuids, deleted));
}
std::vector<Run> SynchronizedStore::deletedRuns() {
    RADT_LOCKED(deletedRuns());
}
void SynchronizedStore::renameExperiment(int64_t experimentId, const std::string& name) {
    RADT_LOCKED(renameExperiment(experimentId, name));
}
std::vector<int64_t> SynchronizedStore::setExperimentsDeleted(const std::vector<int64_t>& experimentIds,
                                                              bool deleted) {
    RADT_LOCKED(setExperimentsDeleted(experimentIds, deleted));
}
std::vector<Experiment> SynchronizedStore::deletedExperiments() {
    RADT_LOCKED(deletedExperiments());
}
void SynchronizedStore::logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    RADT_LOCKED(logMetrics(runUuid, points));
}
void SynchronizedStore::importRun(const Run& run) {
    RADT_LOCKED(importRun(run));
}
bool SynchronizedStore::applyCompaction(const std::string& runUuid,
                                        const std::vector<std::pair<std::string, Series>>& removals,
                                        const std::pair<std::string, std::string>& tag) {
    RADT_LOCKED(applyCompaction(runUuid, removals, tag));
}
void SynchronizedStore::reclaimSpace() {
    RADT_LOCKED(reclaimSpace());
}
int64_t SynchronizedStore::storageBytes() {
    RADT_LOCKED(storageBytes());
}
std::vector<Experiment> SynchronizedStore::experiments() {
    RADT_LOCKED(experiments());
}
std::optional<Experiment> SynchronizedStore::experimentById(int64_t id) {
    RADT_LOCKED(experimentById(id));
}
std::vector<Run> SynchronizedStore::runs(std::optional<int64_t> experimentId) {
    RADT_LOCKED(runs(experimentId));
}
std::vector<Run> SynchronizedStore::searchRuns(const std::vector<RunCondition>& conditions,
                                               std::optional<int64_t> experimentId) {
    RADT_LOCKED(searchRuns(conditions, experimentId));
}
std::optional<Run> SynchronizedStore::run(const std::string& runUuid) {
    RADT_LOCKED(run(runUuid));
}
std::vector<std::string> SynchronizedStore::metricKeys(const std::vector<std::string>& runUuids) {
    RADT_LOCKED(metricKeys(runUuids));
}
std::map<std::string, LatestMetric> SynchronizedStore::latestMetrics(const std::string& runUuid) {
    RADT_LOCKED(latestMetrics(runUuid));
}
Series SynchronizedStore::series(const std::string& runUuid, const std::string& key) {
    RADT_LOCKED(series(runUuid, key));
}
Series SynchronizedStore::seriesRange(const std::string& runUuid, const std::string& key, int64_t fromMs,
                                      int64_t toMs) {
    RADT_LOCKED(seriesRange(runUuid, key, fromMs, toMs));
}

Series SynchronizedStore::seriesEnvelope(const std::string& runUuid, const std::string& key,
                                         std::optional<std::pair<int64_t, int64_t>> range, int buckets) {
    RADT_LOCKED(seriesEnvelope(runUuid, key, range, buckets));
}

std::map<std::string, int64_t> SynchronizedStore::pointCounts(const std::string& runUuid) {
    RADT_LOCKED(pointCounts(runUuid));
}

std::map<std::string, SeriesStats> SynchronizedStore::seriesStatsOfRun(const std::string& runUuid,
                                                                       const std::string& onlyKey) {
    RADT_LOCKED(seriesStatsOfRun(runUuid, onlyKey));
}

std::map<std::string, StoredEnvelope>
SynchronizedStore::storedEnvelopes(const std::vector<std::string>& runUuids, const std::string& key,
                                   int buckets) {
    RADT_LOCKED(storedEnvelopes(runUuids, key, buckets));
}

std::optional<int64_t> SynchronizedStore::envelopeChangeCount(const std::string& runUuid) {
    RADT_LOCKED(envelopeChangeCount(runUuid));
}

bool SynchronizedStore::saveEnvelopes(const std::string& runUuid,
                                      const std::vector<StoredEnvelope>& envelopes) {
    RADT_LOCKED(saveEnvelopes(runUuid, envelopes));
}

#undef RADT_LOCKED

} // namespace radt
