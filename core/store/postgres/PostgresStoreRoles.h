// SPDX-License-Identifier: MIT
#pragma once
// PostgresStore's roles (StoreRoles.h) other than reading and writing runs, each a class of its own
// on the store's connection handling: curation (PostgresStoreCuration.cpp), maintenance
// (PostgresStoreMaintenance.cpp) and the envelope cache (PostgresStoreEnvelopes.cpp). Internal to
// core.

#include "core/store/postgres/PostgresStore.h"

namespace radt {

class PostgresStoreCuration final : public StoreCuration {
public:
    explicit PostgresStoreCuration(PostgresStore& store) : m_store(store) {}

    void renameRun(const std::string& runUuid, const std::string& name) override;
    void deleteTags(const std::string& runUuid, const std::vector<std::string>& keys) override;
    std::vector<std::string> setRunsDeleted(const std::vector<std::string>& runUuids, bool deleted) override;
    std::vector<Run> deletedRuns() override;
    void renameExperiment(int64_t experimentId, const std::string& name) override;
    std::vector<int64_t> setExperimentsDeleted(const std::vector<int64_t>& experimentIds,
                                               bool deleted) override;
    std::vector<Experiment> deletedExperiments() override;

protected:
    std::string curatedUri() const override { return m_store.displayUri(); }

private:
    PostgresStore& m_store;
};

class PostgresStoreMaintenance final : public StoreMaintenance {
public:
    explicit PostgresStoreMaintenance(PostgresStore& store) : m_store(store) {}

    void importRun(const Run& run) override;
    bool applyCompaction(const std::string& runUuid,
                         const std::vector<std::pair<std::string, Series>>& removals,
                         const std::pair<std::string, std::string>& tag) override;
    void reclaimSpace() override;
    int64_t storageBytes() override;

private:
    PostgresStore& m_store;
};

class PostgresEnvelopeCache final : public EnvelopeCache {
public:
    explicit PostgresEnvelopeCache(PostgresStore& store) : m_store(store) {}

    std::map<std::string, StoredEnvelope> storedEnvelopes(const std::vector<std::string>& runUuids,
                                                          const std::string& key, int buckets) override;
    std::optional<int64_t> envelopeChangeCount(const std::string& runUuid) override;
    bool saveEnvelopes(const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes) override;

private:
    PostgresStore& m_store;
};

} // namespace radt
