// SPDX-License-Identifier: MIT
#pragma once
// A Store that several threads may use at once: every call runs under one mutex. The collector
// records the runs of a collocated workload concurrently (each with its writer thread) into one
// connection; SQLite connections and prepared statements are not to be shared unlocked.

#include "core/store/Store.h"

#include <mutex>

namespace radt {

class SynchronizedStore : public Store {
public:
    explicit SynchronizedStore(Store& store) : m_store(store) {}

    std::string displayUri() const override;
    int64_t getOrCreateExperiment(const std::string& name) override;
    Run createRun(const NewRun& run) override;
    void setRunStatus(const std::string& runUuid, RunStatus status, std::optional<int64_t> endTime) override;
    void logParams(const std::string& runUuid,
                   const std::vector<std::pair<std::string, std::string>>& params) override;
    void setTags(const std::string& runUuid,
                 const std::vector<std::pair<std::string, std::string>>& tags) override;
    void logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) override;
    void renameRun(const std::string& runUuid, const std::string& name) override;
    void deleteTags(const std::string& runUuid, const std::vector<std::string>& keys) override;
    std::vector<std::string> setRunsDeleted(const std::vector<std::string>& runUuids, bool deleted) override;
    std::vector<Run> deletedRuns() override;
    void renameExperiment(int64_t experimentId, const std::string& name) override;
    std::vector<int64_t> setExperimentsDeleted(const std::vector<int64_t>& experimentIds,
                                               bool deleted) override;
    std::vector<Experiment> deletedExperiments() override;
    void importRun(const Run& run) override;
    bool applyCompaction(const std::string& runUuid,
                         const std::vector<std::pair<std::string, Series>>& removals,
                         const std::pair<std::string, std::string>& tag) override;
    void reclaimSpace() override;
    int64_t storageBytes() override;
    std::vector<Experiment> experiments() override;
    std::optional<Experiment> experimentById(int64_t id) override;
    std::vector<Run> runs(std::optional<int64_t> experimentId) override;
    std::vector<Run> searchRuns(const std::vector<RunCondition>& conditions,
                                std::optional<int64_t> experimentId) override;
    std::optional<Run> run(const std::string& runUuid) override;
    std::vector<std::string> metricKeys(const std::vector<std::string>& runUuids) override;
    std::map<std::string, LatestMetric> latestMetrics(const std::string& runUuid) override;
    Series series(const std::string& runUuid, const std::string& key) override;
    Series seriesRange(const std::string& runUuid, const std::string& key, int64_t fromMs,
                       int64_t toMs) override;
    Series seriesEnvelope(const std::string& runUuid, const std::string& key,
                          std::optional<std::pair<int64_t, int64_t>> range, int buckets) override;
    bool prefersEnvelopes() const override { return m_store.prefersEnvelopes(); }
    std::map<std::string, int64_t> pointCounts(const std::string& runUuid) override;
    std::map<std::string, SeriesStats> seriesStatsOfRun(const std::string& runUuid,
                                                        const std::string& onlyKey = {}) override;
    std::map<std::string, StoredEnvelope> storedEnvelopes(const std::vector<std::string>& runUuids,
                                                          const std::string& key, int buckets) override;
    std::optional<int64_t> envelopeChangeCount(const std::string& runUuid) override;
    bool saveEnvelopes(const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes) override;

private:
    Store& m_store;
    mutable std::mutex m_mutex;
};

} // namespace radt
