// SPDX-License-Identifier: MIT
// SqliteStore's per-run envelopes (SqliteEnvelopeCache; RunEnvelopes.h): the radt_envelopes table
// beside MLflow's.

#include "core/store/RunEnvelopes.h"
#include "core/store/sqlite/SqliteStoreRoles.h"
#include "core/store/sqlite/SqliteStoreTransaction.h"

namespace radt {

namespace {

// Ours, beside MLflow's tables (MLflow never reads it). Deleting a run deletes its envelopes
// where foreign keys are enforced; elsewhere a leftover row has no latest_metrics row to match
// and is never read. `changes`: the run's change count it was made at (-1 from a radt before the
// count: never fresh).
constexpr const char* kCreateEnvelopesSql = R"SQL(CREATE TABLE IF NOT EXISTS radt_envelopes (
    run_uuid VARCHAR(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE,
    "key" VARCHAR(250) NOT NULL,
    buckets INTEGER NOT NULL,
    version INTEGER NOT NULL,
    point_count BIGINT NOT NULL,
    latest_timestamp BIGINT NOT NULL,
    latest_step BIGINT NOT NULL,
    points BLOB NOT NULL,
    changes BIGINT NOT NULL DEFAULT -1,
    PRIMARY KEY (run_uuid, "key", buckets)))SQL";

// Each run whose envelopes are kept has a row here, and every row any client inserts, updates or
// deletes in metrics counts one more change of its run: MLflow's log_batch of an older point, a
// value logged again at a timestamp, a retention job's DELETE. A kept entry is fresh while its
// run's count is the one it was made at. Runs without a row (running ones) cost one failed
// primary-key probe per row written. SQLite drops a table's triggers with it (MLflow's migrations
// rebuild metrics so): then nothing counted, and every entry is dropped when they are made again.
constexpr const char* kCreateChangeCountSql = R"SQL(
CREATE TABLE IF NOT EXISTS radt_run_changes (
    run_uuid VARCHAR(32) NOT NULL PRIMARY KEY,
    changes BIGINT NOT NULL);
CREATE TRIGGER IF NOT EXISTS radt_changes_insert AFTER INSERT ON metrics BEGIN
    UPDATE radt_run_changes SET changes = changes + 1 WHERE run_uuid = NEW.run_uuid; END;
CREATE TRIGGER IF NOT EXISTS radt_changes_update AFTER UPDATE ON metrics BEGIN
    UPDATE radt_run_changes SET changes = changes + 1 WHERE run_uuid IN (OLD.run_uuid, NEW.run_uuid); END;
CREATE TRIGGER IF NOT EXISTS radt_changes_delete AFTER DELETE ON metrics BEGIN
    UPDATE radt_run_changes SET changes = changes + 1 WHERE run_uuid = OLD.run_uuid; END;
)SQL";

constexpr int kChangeTriggers = 3;

} // namespace

bool SqliteEnvelopeCache::countsRunChanges() {
    // The triggers, and both tables (a person may drop radt_envelopes to make them again).
    SqliteStatement stmt(m_store.m_db,
                         "SELECT count(*) FROM sqlite_master WHERE (type = 'trigger' AND tbl_name = "
                         "'metrics' AND name IN ('radt_changes_insert', 'radt_changes_update', "
                         "'radt_changes_delete')) OR (type = 'table' AND name IN ('radt_envelopes', "
                         "'radt_run_changes'))");
    return stmt.step() && stmt.int64(0) == kChangeTriggers + 2;
}

std::map<std::string, int64_t> SqliteStore::pointCounts(const std::string& runUuid) {
    SqliteStatement stmt(m_db, "SELECT \"key\", COUNT(*) FROM metrics WHERE run_uuid = ? GROUP BY \"key\"");
    stmt.bind(1, runUuid);
    std::map<std::string, int64_t> counts;
    while (stmt.step())
        counts[stmt.text(0)] = stmt.int64(1);
    return counts;
}

std::map<std::string, StoredEnvelope>
SqliteEnvelopeCache::storedEnvelopes(const std::vector<std::string>& runUuids, const std::string& key,
                                     int buckets) {
    std::map<std::string, StoredEnvelope> out;
    if (!m_store.m_hasLatestMetrics || runUuids.empty())
        return out;
    // The triggers make radt_run_changes with radt_envelopes' `changes` column: without them
    // nothing proves an entry fresh.
    if (!countsRunChanges())
        return out;
    // Fresh: made from the series as it is now: no change counted since, and (a check that costs
    // nothing more) its latest_metrics row has not moved.
    SqliteStatement stmt(m_store.m_db,
                         "SELECT e.point_count, e.latest_timestamp, e.latest_step, e.points, e.changes "
                         "FROM radt_envelopes e JOIN radt_run_changes c "
                         "ON c.run_uuid = e.run_uuid AND c.changes = e.changes "
                         "JOIN latest_metrics l ON l.run_uuid = e.run_uuid AND l.\"key\" = e.\"key\" "
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
            e.changeCount = stmt.int64(4);
            e.series = decodeEnvelopePoints(
                sqlite3_column_blob(stmt.handle(), 3), size_t(sqlite3_column_bytes(stmt.handle(), 3)),
                m_store.m_path + ": radt_envelopes of run " + uuid + ", '" + key + "'");
            out.emplace(uuid, std::move(e));
        }
        stmt.reset();
    }
    return out;
}

std::optional<int64_t> SqliteEnvelopeCache::envelopeChangeCount(const std::string& runUuid) {
    if (m_store.m_readOnly || !m_store.m_hasLatestMetrics)
        return std::nullopt;
    // A run already counted (every summary asks again for the runs it could not read kept): a read,
    // no write transaction. The triggers' presence read first: without them the count means nothing.
    if (countsRunChanges()) {
        SqliteStatement counted(m_store.m_db, "SELECT changes FROM radt_run_changes WHERE run_uuid = ?");
        counted.bind(1, runUuid);
        if (counted.step())
            return counted.int64(0);
    }
    SqliteStore::Transaction tx(m_store.m_db);
    if (!countsRunChanges()) {
        // First use, or the triggers went with a rebuilt metrics table: what is kept was made
        // while nothing counted, so none of it can be proved fresh.
        sqliteExec(m_store.m_db, kCreateEnvelopesSql,
                   m_store.m_path + ": cannot create the table radt_envelopes");
        bool hasChanges = false;
        for (SqliteStatement column(m_store.m_db, "SELECT name FROM pragma_table_info('radt_envelopes')");
             column.step();)
            hasChanges = hasChanges || column.text(0) == "changes";
        if (!hasChanges) // made by a radt before the count
            sqliteExec(m_store.m_db,
                       "ALTER TABLE radt_envelopes ADD COLUMN changes BIGINT NOT NULL DEFAULT -1",
                       m_store.m_path + ": cannot add the column changes to radt_envelopes");
        sqliteExec(m_store.m_db, kCreateChangeCountSql,
                   m_store.m_path + ": cannot make the triggers that count runs' changes");
        sqliteExec(m_store.m_db, "DELETE FROM radt_envelopes; DELETE FROM radt_run_changes",
                   m_store.m_path + ": cannot drop the envelopes kept while no change was counted");
    }
    SqliteStatement add(m_store.m_db,
                        "INSERT OR IGNORE INTO radt_run_changes (run_uuid, changes) VALUES (?, 0)");
    add.bind(1, runUuid);
    add.execute();
    SqliteStatement count(m_store.m_db, "SELECT changes FROM radt_run_changes WHERE run_uuid = ?");
    count.bind(1, runUuid);
    if (!count.step())
        throw StoreError(m_store.m_path + ": radt_run_changes lost the row of run " + runUuid);
    const int64_t changes = count.int64(0);
    count.reset();
    tx.commit();
    return changes;
}

bool SqliteEnvelopeCache::saveEnvelopes(const std::string& runUuid,
                                        const std::vector<StoredEnvelope>& envelopes) {
    if (m_store.m_readOnly || !m_store.m_hasLatestMetrics)
        return false;
    SqliteStore::Transaction tx(m_store.m_db);
    // Nothing is kept while no change is counted (envelopeChangeCount makes the triggers and the
    // table; they went since, with a rebuilt metrics): it could never be proved fresh.
    if (!countsRunChanges())
        return false;
    SqliteStatement upsert(
        m_store.m_db, "INSERT INTO radt_envelopes (run_uuid, \"key\", buckets, version, point_count, "
                      "latest_timestamp, latest_step, points, changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                      "ON CONFLICT (run_uuid, \"key\", buckets) DO UPDATE SET "
                      "version = excluded.version, point_count = excluded.point_count, "
                      "latest_timestamp = excluded.latest_timestamp, "
                      "latest_step = excluded.latest_step, points = excluded.points, "
                      "changes = excluded.changes");
    for (const StoredEnvelope& e : envelopes) {
        const std::string points = encodeEnvelopePoints(e.series);
        upsert.bind(1, runUuid).bind(2, e.key).bind(3, int64_t(e.buckets)).bind(4, int64_t(kEnvelopeVersion));
        upsert.bind(5, e.pointCount).bind(6, e.latestTimestamp).bind(7, e.latestStep);
        sqlite3_bind_blob(upsert.handle(), 8, points.data(), int(points.size()), SQLITE_TRANSIENT);
        upsert.bind(9, e.changeCount);
        upsert.execute();
    }
    tx.commit();
    return true;
}

} // namespace radt
