// SPDX-License-Identifier: MIT
#pragma once
// A Store that several threads may use at once: every call runs under one mutex. The collector
// records the runs of a collocated workload concurrently (each with its writer thread) into one
// connection; SQLite connections and prepared statements are not to be shared unlocked.

#include "core/store/Store.h"

#include <memory>
#include <mutex>

namespace radt {

class SynchronizedStore : public Store {
public:
    explicit SynchronizedStore(Store& store);
    ~SynchronizedStore() override;

    std::string displayUri() const override;
    std::string openNotice() const override;
    std::string fileProblem() const override;
    bool isReadOnly() const override;
    int64_t getOrCreateExperiment(const std::string& name) override;
    Run createRun(const NewRun& run) override;
    void setRunStatus(const std::string& runUuid, RunStatus status, std::optional<int64_t> endTime) override;
    void logParams(const std::string& runUuid,
                   const std::vector<std::pair<std::string, std::string>>& params) override;
    void setTags(const std::string& runUuid,
                 const std::vector<std::pair<std::string, std::string>>& tags) override;
    void logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) override;
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
    /// The wrapped store's roles, each call under the same mutex.
    StoreCuration& curation() override;
    StoreMaintenance& maintenance() override;
    EnvelopeCache& envelopes() override;

private:
    class Curation;
    class Maintenance;
    class Envelopes;

    Store& m_store;
    mutable std::mutex m_mutex;
    std::unique_ptr<Curation> m_curation;
    std::unique_ptr<Maintenance> m_maintenance;
    std::unique_ptr<Envelopes> m_envelopes;
};

} // namespace radt
