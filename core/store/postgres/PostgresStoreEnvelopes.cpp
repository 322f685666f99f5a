// SPDX-License-Identifier: MIT
// PostgresStore's point counts and summary statistics, and its envelope cache (PostgresEnvelopeCache,
// PostgresStoreRoles.h): each runs the pg:: function of PostgresEnvelopes.h that does the work
// inside the store's connection handling.
#include "core/store/postgres/PostgresEnvelopes.h"
#include "core/store/postgres/PostgresStoreConnection.h"
#include "core/store/postgres/PostgresStoreRoles.h"

namespace radt {

std::map<std::string, int64_t> PostgresStore::pointCounts(const std::string& runUuid) {
    return withConnection("counting a run's points", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        return pg::pointCounts(tx, runUuid);
    });
}

std::map<std::string, SeriesStats> PostgresStore::seriesStatsOfRun(const std::string& runUuid,
                                                                   const std::string& onlyKey) {
    return withConnection("computing a run's summary statistics", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        return pg::seriesStatsOfRun(tx, runUuid, onlyKey);
    });
}

std::map<std::string, StoredEnvelope>
PostgresEnvelopeCache::storedEnvelopes(const std::vector<std::string>& runUuids, const std::string& key,
                                       int buckets) {
    if (!m_store.m_hasLatestMetrics || runUuids.empty())
        return {};
    return m_store.withConnection("reading stored envelopes", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        return pg::storedEnvelopes(tx, runUuids, key, buckets, m_store.m_uri.display());
    });
}

std::optional<int64_t> PostgresEnvelopeCache::envelopeChangeCount(const std::string& runUuid) {
    if (m_store.m_readOnly || m_store.m_standby || !m_store.m_hasLatestMetrics)
        return std::nullopt;
    return m_store.withConnection("counting a run's changes", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        const std::optional<int64_t> changes = pg::envelopeChangeCount(tx, runUuid, m_store.m_mayPartition);
        tx.commit();
        return changes;
    });
}

bool PostgresEnvelopeCache::saveEnvelopes(const std::string& runUuid,
                                          const std::vector<StoredEnvelope>& envelopes) {
    if (m_store.m_readOnly || !m_store.m_hasLatestMetrics)
        return false;
    return m_store.withConnection("saving envelopes", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        const bool saved = pg::saveEnvelopes(tx, runUuid, envelopes);
        tx.commit();
        return saved;
    });
}

} // namespace radt
