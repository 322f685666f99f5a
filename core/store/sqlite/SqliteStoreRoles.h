// SPDX-License-Identifier: MIT
#pragma once
// SqliteStore's roles (StoreRoles.h) other than reading and writing runs, each a class of its own
// on the store's connection: curation (SqliteStoreCuration.cpp), maintenance
// (SqliteStoreMaintenance.cpp) and the envelope cache (SqliteStoreEnvelopes.cpp). Internal to core.

#include "core/store/sqlite/SqliteStore.h"

namespace radt {

class SqliteCuration final : public StoreCuration {
public:
    explicit SqliteCuration(SqliteStore& store) : m_store(store) {}

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
    SqliteStore& m_store;
};

class SqliteMaintenance final : public StoreMaintenance {
public:
    explicit SqliteMaintenance(SqliteStore& store) : m_store(store) {}

    void importRun(const Run& run) override;
    bool applyCompaction(const std::string& runUuid,
                         const std::vector<std::pair<std::string, Series>>& removals,
                         const std::pair<std::string, std::string>& tag) override;
    void reclaimSpace() override;
    int64_t storageBytes() override;

private:
    SqliteStore& m_store;
};

class SqliteEnvelopeCache final : public EnvelopeCache {
public:
    explicit SqliteEnvelopeCache(SqliteStore& store) : m_store(store) {}

    std::map<std::string, StoredEnvelope> storedEnvelopes(const std::vector<std::string>& runUuids,
                                                          const std::string& key, int buckets) override;
    std::optional<int64_t> envelopeChangeCount(const std::string& runUuid) override;
    bool saveEnvelopes(const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes) override;

private:
    /// True while the triggers that count each run's changes are on metrics, with both tables.
    bool countsRunChanges();

    SqliteStore& m_store;
};

} // namespace radt
