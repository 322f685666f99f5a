// SPDX-License-Identifier: MIT
#include "core/store/SynchronizedStore.h"

namespace radt {

// One lock per call: each Store call is one transaction, so nothing larger needs holding.
#define RADT_LOCKED(call)                                                                                    \
    std::lock_guard<std::mutex> lock(m_mutex);                                                               \
    return m_store.call

#define RADT_LOCKED_ROLE(call)                                                                               \
    std::lock_guard<std::mutex> lock(m_mutex);                                                               \
    return m_inner.call

std::string SynchronizedStore::displayUri() const {
    RADT_LOCKED(displayUri());
}
std::string SynchronizedStore::openNotice() const {
    RADT_LOCKED(openNotice());
}
std::string SynchronizedStore::fileProblem() const {
    RADT_LOCKED(fileProblem());
}
bool SynchronizedStore::isReadOnly() const {
    RADT_LOCKED(isReadOnly());
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
void SynchronizedStore::logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    RADT_LOCKED(logMetrics(runUuid, points));
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

// The roles: the same lock, the wrapped store's role objects.
class SynchronizedStore::Curation final : public StoreCuration {
public:
    Curation(StoreCuration& inner, std::mutex& mutex, const Store& store)
        : m_inner(inner), m_mutex(mutex), m_store(store) {}
    void renameRun(const std::string& runUuid, const std::string& name) override {
        RADT_LOCKED_ROLE(renameRun(runUuid, name));
    }
    void deleteTags(const std::string& runUuid, const std::vector<std::string>& keys) override {
        RADT_LOCKED_ROLE(deleteTags(runUuid, keys));
    }
    std::vector<std::string> setRunsDeleted(const std::vector<std::string>& runUuids, bool deleted) override {
        RADT_LOCKED_ROLE(setRunsDeleted(runUuids, deleted));
    }
    std::vector<Run> deletedRuns() override { RADT_LOCKED_ROLE(deletedRuns()); }
    void renameExperiment(int64_t experimentId, const std::string& name) override {
        RADT_LOCKED_ROLE(renameExperiment(experimentId, name));
    }
    std::vector<int64_t> setExperimentsDeleted(const std::vector<int64_t>& experimentIds,
                                               bool deleted) override {
        RADT_LOCKED_ROLE(setExperimentsDeleted(experimentIds, deleted));
    }
    std::vector<Experiment> deletedExperiments() override { RADT_LOCKED_ROLE(deletedExperiments()); }

protected:
    std::string curatedUri() const override { return m_store.displayUri(); }

private:
    StoreCuration& m_inner;
    std::mutex& m_mutex;
    const Store& m_store;
};

class SynchronizedStore::Maintenance final : public StoreMaintenance {
public:
    Maintenance(StoreMaintenance& inner, std::mutex& mutex) : m_inner(inner), m_mutex(mutex) {}
    void importRun(const Run& run) override { RADT_LOCKED_ROLE(importRun(run)); }
    bool applyCompaction(const std::string& runUuid,
                         const std::vector<std::pair<std::string, Series>>& removals,
                         const std::pair<std::string, std::string>& tag) override {
        RADT_LOCKED_ROLE(applyCompaction(runUuid, removals, tag));
    }
    void reclaimSpace() override { RADT_LOCKED_ROLE(reclaimSpace()); }
    int64_t storageBytes() override { RADT_LOCKED_ROLE(storageBytes()); }

private:
    StoreMaintenance& m_inner;
    std::mutex& m_mutex;
};

class SynchronizedStore::Envelopes final : public EnvelopeCache {
public:
    Envelopes(EnvelopeCache& inner, std::mutex& mutex) : m_inner(inner), m_mutex(mutex) {}
    std::map<std::string, StoredEnvelope> storedEnvelopes(const std::vector<std::string>& runUuids,
                                                          const std::string& key, int buckets) override {
        RADT_LOCKED_ROLE(storedEnvelopes(runUuids, key, buckets));
    }
    std::optional<int64_t> envelopeChangeCount(const std::string& runUuid) override {
        RADT_LOCKED_ROLE(envelopeChangeCount(runUuid));
    }
    bool saveEnvelopes(const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes) override {
        RADT_LOCKED_ROLE(saveEnvelopes(runUuid, envelopes));
    }

private:
    EnvelopeCache& m_inner;
    std::mutex& m_mutex;
};

SynchronizedStore::SynchronizedStore(Store& store)
    : m_store(store), m_curation(std::make_unique<Curation>(store.curation(), m_mutex, store)),
      m_maintenance(std::make_unique<Maintenance>(store.maintenance(), m_mutex)),
      m_envelopes(std::make_unique<Envelopes>(store.envelopes(), m_mutex)) {}

SynchronizedStore::~SynchronizedStore() = default;

StoreCuration& SynchronizedStore::curation() {
    return *m_curation;
}

StoreMaintenance& SynchronizedStore::maintenance() {
    return *m_maintenance;
}

EnvelopeCache& SynchronizedStore::envelopes() {
    return *m_envelopes;
}

#undef RADT_LOCKED_ROLE
#undef RADT_LOCKED

} // namespace radt
