// SqliteStore's per-run envelopes (RunEnvelopes.h): the radt_envelopes table beside MLflow's.

#include "SqliteStore.h"
#include "SqliteTransaction.h"

namespace radt {

namespace {

// Ours, beside MLflow's tables (MLflow never reads it). Deleting a run deletes its envelopes
// where foreign keys are enforced; elsewhere a leftover row has no latest_metrics row to match
// and is never read.
constexpr const char* kCreateEnvelopesSql = R"SQL(CREATE TABLE IF NOT EXISTS radt_envelopes (
    run_uuid VARCHAR(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
    "key" VARCHAR(250) NOT NULL,
    buckets INTEGER NOT NULL,
    version INTEGER NOT NULL,
    point_count BIGINT NOT NULL,
    latest_timestamp BIGINT NOT NULL,
    latest_step BIGINT NOT NULL,
    points BLOB NOT NULL,
    PRIMARY KEY (run_uuid, "key", buckets)))SQL";

} // namespace

std::map<std::string, int64_t> SqliteStore::pointCounts(const std::string& runUuid) {
    SqliteStatement stmt(m_db, "SELECT \"key\", COUNT(*) FROM metrics WHERE run_uuid = ? GROUP BY \"key\"");
    stmt.bind(1, runUuid);
    std::map<std::string, int64_t> counts;
    while (stmt.step())
        counts[stmt.text(0)] = stmt.int64(1);
    return counts;
}

std::map<std::string, StoredEnvelope> SqliteStore::storedEnvelopes(const std::vector<std::string>& runUuids,
                                                                   const std::string& key, int buckets) {
    std::map<std::string, StoredEnvelope> out;
    if (!m_hasLatestMetrics || runUuids.empty())
        return out;
    {
        SqliteStatement exists(
            m_db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'radt_envelopes'");
        if (!exists.step())
            return out;
    }
    // Fresh: made from the series as it is now, i.e. its latest_metrics row has not moved since.
    SqliteStatement stmt(m_db, "SELECT e.point_count, e.latest_timestamp, e.latest_step, e.points "
                               "FROM radt_envelopes e JOIN latest_metrics l "
                               "ON l.run_uuid = e.run_uuid AND l.\"key\" = e.\"key\" "
                               "WHERE e.run_uuid = ? AND e.\"key\" = ? AND e.buckets = ? AND e.version = ? "
                               "AND l.timestamp = e.latest_timestamp AND l.step = e.latest_step");
    for (const std::string& uuid : runUuids) {
        stmt.bind(1, uuid).bind(2, key).bind(3, int64_t(buckets)).bind(4, int64_t(kEnvelopeVersion));
        if (stmt.step()) {
            StoredEnvelope e;
            e.key = key;
            e.buckets = buckets;
            e.pointCount = stmt.int64(0);
            e.latestTimestamp = stmt.int64(1);
            e.latestStep = stmt.int64(2);
            e.series = decodeEnvelopePoints(sqlite3_column_blob(stmt.handle(), 3),
                                            size_t(sqlite3_column_bytes(stmt.handle(), 3)),
                                            m_path + ": radt_envelopes of run " + uuid + ", '" + key + "'");
            out.emplace(uuid, std::move(e));
        }
        stmt.reset();
    }
    return out;
}

bool SqliteStore::saveEnvelopes(const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes) {
    if (m_readOnly || !m_hasLatestMetrics)
        return false;
    Transaction tx(m_db);
    sqliteExec(m_db, kCreateEnvelopesSql, m_path + ": cannot create the table radt_envelopes");
    SqliteStatement upsert(m_db,
                           "INSERT INTO radt_envelopes (run_uuid, \"key\", buckets, version, point_count, "
                           "latest_timestamp, latest_step, points) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                           "ON CONFLICT (run_uuid, \"key\", buckets) DO UPDATE SET "
                           "version = excluded.version, point_count = excluded.point_count, "
                           "latest_timestamp = excluded.latest_timestamp, "
                           "latest_step = excluded.latest_step, points = excluded.points");
    for (const StoredEnvelope& e : envelopes) {
        const std::string points = encodeEnvelopePoints(e.series);
        upsert.bind(1, runUuid).bind(2, e.key).bind(3, int64_t(e.buckets)).bind(4, int64_t(kEnvelopeVersion));
        upsert.bind(5, e.pointCount).bind(6, e.latestTimestamp).bind(7, e.latestStep);
        sqlite3_bind_blob(upsert.handle(), 8, points.data(), int(points.size()), SQLITE_TRANSIENT);
        upsert.execute();
    }
    tx.commit();
    return true;
}

} // namespace radt
