// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresEnvelopes.h"

#include "core/store/Store.h"
#include "core/store/postgres/PostgresTriggers.h"

namespace radt::pg {

namespace {

constexpr const char* kCreateEnvelopesSql =
    "CREATE TABLE IF NOT EXISTS radt_envelopes ("
    "run_uuid VARCHAR(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE, "
    "\"key\" VARCHAR(250) NOT NULL, buckets INTEGER NOT NULL, version INTEGER NOT NULL, "
    "point_count BIGINT NOT NULL, latest_timestamp BIGINT NOT NULL, latest_step BIGINT NOT NULL, "
    "points BYTEA NOT NULL, changes BIGINT NOT NULL DEFAULT -1, PRIMARY KEY (run_uuid, \"key\", buckets))";

/// radt_changes_insert, _update_old, _update_new, _delete and _truncate (makeStatementTriggers).
constexpr int kChangeTriggerCount = 5;

/// The tables the count needs, made where missing (on first use, or an older radt's envelopes).
void makeChangeCountTables(pqxx::transaction_base& tx) {
    tx.exec(kCreateEnvelopesSql);
    tx.exec("ALTER TABLE radt_envelopes ADD COLUMN IF NOT EXISTS changes BIGINT NOT NULL DEFAULT -1");
    tx.exec("CREATE TABLE IF NOT EXISTS radt_run_changes (run_uuid VARCHAR(32) PRIMARY KEY, changes BIGINT "
            "NOT NULL)");
    tx.exec("ALTER TABLE radt_run_changes OWNER TO " + metricsOwner(tx).owner);
}

} // namespace

/// Counts, for each run whose envelopes are kept (a row of radt_run_changes), every statement of
/// any client that inserts, updates or deletes its rows of metrics (a TRUNCATE counts for all):
/// MLflow's log_batch of an older point, a value logged again at a timestamp, a retention job. A
/// kept entry is fresh while its run's count is the one it was made at. Statement triggers with
/// transition tables, as the partition conversion's change log (PostgresMaintenance.cpp): one
/// semi-join of the statement's rows against the kept runs per COPY batch. The rows are locked
/// in run order (two statements over several runs lock them alike). The functions are SECURITY
/// DEFINER, owned by metrics' owner, their names qualified and search_path pg_catalog, the schema,
/// pg_temp last, so a writer under any role counts and can slip no table of its own in.
void makeChangeTriggers(pqxx::transaction_base& tx) {
    const MetricsOwner where = metricsOwner(tx);
    const std::string changes = where.schema + ".radt_run_changes";
    makeTriggerFunction(tx, where, "radt_count_run_changes",
                        "PERFORM 1 FROM " + changes + " WHERE run_uuid IN (SELECT run_uuid FROM changed) " +
                            "ORDER BY run_uuid FOR UPDATE; UPDATE " + changes +
                            " SET changes = changes + 1 " +
                            "WHERE run_uuid IN (SELECT run_uuid FROM changed);");
    makeTriggerFunction(tx, where, "radt_count_truncate",
                        "UPDATE " + changes + " SET changes = changes + 1;");
    makeStatementTriggers(tx, where, "radt_changes_", "radt_count_run_changes", "radt_count_truncate");
}

namespace {

/// The count made by metrics' owner where it was missing: the kept entries are dropped then, as
/// nothing counted before.
void installChangeCount(pqxx::transaction_base& tx) {
    makeChangeCountTables(tx);
    makeChangeTriggers(tx);
    tx.exec("DELETE FROM radt_envelopes");
    tx.exec("DELETE FROM radt_run_changes");
}

} // namespace

bool countsRunChanges(pqxx::transaction_base& tx) {
    // The triggers, and both tables (a person may drop radt_envelopes to make them again).
    return tx
        .exec1("SELECT to_regclass('radt_run_changes') IS NOT NULL AND to_regclass('radt_envelopes') IS NOT "
               "NULL "
               "AND (SELECT count(*) FROM pg_trigger "
               "WHERE tgrelid = to_regclass('metrics') AND tgenabled <> 'D' AND tgname IN "
               "('radt_changes_insert', 'radt_changes_update_old', 'radt_changes_update_new', "
               "'radt_changes_delete', 'radt_changes_truncate')) = " +
               std::to_string(kChangeTriggerCount))[0]
        .as<bool>();
}

std::optional<int64_t> envelopeChangeCount(pqxx::work& tx, const std::string& runUuid, bool ownsMetrics) {
    // A run already counted (every summary asks again for the runs it could not read kept): reads,
    // no lock. The triggers' presence first: without them the count means nothing.
    if (countsRunChanges(tx))
        if (const pqxx::result counted =
                tx.exec_params("SELECT changes FROM radt_run_changes WHERE run_uuid = $1", runUuid);
            !counted.empty())
            return counted[0][0].as<int64_t>();
    // One maker at a time: two would collide in the catalogue.
    tx.exec("SELECT pg_advisory_xact_lock(hashtext('radt_envelopes'))");
    if (!countsRunChanges(tx)) {
        if (!ownsMetrics)
            return std::nullopt; // only metrics' owner may add its triggers
        // Adding a trigger waits for every writer of metrics to commit, and while it waits every
        // new writer queues behind it: a writer idle in its transaction would stall them all. So
        // it waits a moment at most, and keeps nothing this time (the next run's close tries again).
        try {
            pqxx::subtransaction install(tx, "radt_change_count");
            install.exec("SET LOCAL lock_timeout = '1s'");
            installChangeCount(install);
            install.exec("SET LOCAL lock_timeout = 0");
            install.commit();
        } catch (const pqxx::sql_error& e) {
            if (e.sqlstate() == "55P03") // lock_not_available
                return std::nullopt;
            throw;
        }
    } else if (!tx.exec1("SELECT has_table_privilege('radt_run_changes', 'INSERT')")[0].as<bool>()) {
        return std::nullopt; // a role the owner gave no grant: charts reduce in the server instead
    }
    tx.exec_params("INSERT INTO radt_run_changes (run_uuid, changes) VALUES ($1, 0) ON CONFLICT DO NOTHING",
                   runUuid);
    return tx.exec_params1("SELECT changes FROM radt_run_changes WHERE run_uuid = $1", runUuid)[0]
        .as<int64_t>();
}

std::map<std::string, int64_t> pointCounts(pqxx::transaction_base& tx, const std::string& runUuid) {
    std::map<std::string, int64_t> counts;
    for (const auto& row : tx.exec_params(
             "SELECT \"key\", count(*) FROM metrics WHERE run_uuid = $1 GROUP BY \"key\"", runUuid))
        counts[row[0].as<std::string>()] = row[1].as<int64_t>();
    return counts;
}

std::map<std::string, StoredEnvelope> storedEnvelopes(pqxx::transaction_base& tx,
                                                      const std::vector<std::string>& runUuids,
                                                      const std::string& key, int buckets,
                                                      const std::string& storeName) {
    std::map<std::string, StoredEnvelope> out;
    // The triggers make radt_run_changes with radt_envelopes' `changes` column: without them
    // nothing proves an entry fresh.
    if (!countsRunChanges(tx))
        return out;
    // One round trip for every run; fresh: no change counted since it was made (and the key's
    // latest_metrics row has not moved, a check that costs nothing more).
    std::string uuids = "{"; // an array literal: each element quoted, backslash and quote escaped
    for (size_t i = 0; i < runUuids.size(); ++i) {
        uuids += i ? ",\"" : "\"";
        for (char ch : runUuids[i])
            uuids += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
        uuids += '"';
    }
    uuids += "}";
    const pqxx::result rows = tx.exec_params(
        "SELECT e.run_uuid, e.point_count, e.latest_timestamp, e.latest_step, e.points, e.changes "
        "FROM radt_envelopes e JOIN radt_run_changes c ON c.run_uuid = e.run_uuid AND c.changes = e.changes "
        "JOIN latest_metrics l ON l.run_uuid = e.run_uuid AND l.\"key\" = e.\"key\" "
        "WHERE e.run_uuid = ANY($1::varchar[]) AND e.\"key\" = $2 AND e.buckets = $3 AND e.version = $4 "
        "AND l.timestamp = e.latest_timestamp AND l.step = e.latest_step",
        uuids, key, buckets, kEnvelopeVersion);
    for (const auto& row : rows) {
        StoredEnvelope e;
        e.key = key;
        e.buckets = buckets;
        e.pointCount = row[1].as<int64_t>();
        e.latestTimestamp = row[2].as<int64_t>();
        e.latestStep = row[3].as<int64_t>();
        e.changeCount = row[5].as<int64_t>();
        const pqxx::binarystring points(row[4]);
        const std::string uuid = row[0].as<std::string>();
        e.series = decodeEnvelopePoints(points.data(), points.size(),
                                        storeName + ": radt_envelopes of run " + uuid + ", '" + key + "'");
        out.emplace(uuid, std::move(e));
    }
    return out;
}

bool saveEnvelopes(pqxx::work& tx, const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes) {
    // Nothing is kept while no change is counted (envelopeChangeCount makes the triggers and the
    // table; they went since, with a metrics table swapped for another): never provably fresh.
    if (!countsRunChanges(tx))
        return false;
    for (const StoredEnvelope& e : envelopes) {
        const std::string points = encodeEnvelopePoints(e.series);
        tx.exec_params(
            "INSERT INTO radt_envelopes (run_uuid, \"key\", buckets, version, point_count, "
            "latest_timestamp, latest_step, points, changes) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
            "ON CONFLICT (run_uuid, \"key\", buckets) DO UPDATE SET version = excluded.version, "
            "point_count = excluded.point_count, latest_timestamp = excluded.latest_timestamp, "
            "latest_step = excluded.latest_step, points = excluded.points, changes = excluded.changes",
            runUuid, e.key, e.buckets, kEnvelopeVersion, e.pointCount, e.latestTimestamp, e.latestStep,
            pqxx::binarystring(points.data(), points.size()), e.changeCount);
    }
    return true;
}

std::map<std::string, SeriesStats> seriesStatsOfRun(pqxx::transaction_base& tx, const std::string& runUuid,
                                                    const std::string& onlyKey) {
    // seriesStats() in SQL. Usable values: MLflow keeps NaN as is_nan and +-inf as +-max float,
    // both left out. percentile_cont interpolates between closest ranks, as numpy's default (and
    // seriesStats) does; the last value is the latest usable one in (timestamp, step) order, the
    // order series() reads. The duration spans every sample, usable or not. The mean is summed as
    // numeric: float8's avg raises an overflow error on values past 1e154 (a diverged loss).
    const std::string sql =
        "SELECT \"key\", count(*) FILTER (WHERE u), min(value) FILTER (WHERE u), "
        "(avg(value::numeric) FILTER (WHERE u))::float8, "
        "percentile_cont(0.5) WITHIN GROUP (ORDER BY value) FILTER (WHERE u), "
        "percentile_cont(0.95) WITHIN GROUP (ORDER BY value) FILTER (WHERE u), max(value) FILTER (WHERE u), "
        "(array_agg(value ORDER BY timestamp DESC, step DESC) FILTER (WHERE u))[1], "
        "least(max(timestamp)::numeric - min(timestamp), 9223372036854775807)::bigint "
        "FROM (SELECT \"key\", value, timestamp, step, "
        "NOT is_nan AND abs(value) < '1.7976931348623157e308'::float8 AS u FROM metrics WHERE run_uuid = $1" +
        std::string(onlyKey.empty() ? "" : " AND \"key\" = $2") + ") m GROUP BY \"key\"";
    const pqxx::result rows =
        onlyKey.empty() ? tx.exec_params(sql, runUuid) : tx.exec_params(sql, runUuid, onlyKey);
    std::map<std::string, SeriesStats> out;
    for (const auto& row : rows) {
        SeriesStats s;
        s.samples = row[1].as<size_t>();
        if (s.samples > 0) {
            s.min = row[2].as<double>();
            s.mean = row[3].as<double>();
            s.p50 = row[4].as<double>();
            s.p95 = row[5].as<double>();
            s.max = row[6].as<double>();
            s.last = row[7].as<double>();
        }
        s.durationMs = row[8].as<int64_t>();
        out.emplace(row[0].as<std::string>(), s);
    }
    return out;
}

} // namespace radt::pg
