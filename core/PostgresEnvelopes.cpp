#include "PostgresEnvelopes.h"

#include "Store.h"

namespace radt::pg {

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
    if (tx.exec1("SELECT to_regclass('radt_envelopes') IS NOT NULL")[0].as<bool>() == false)
        return out;
    // One round trip for every run; fresh: the key's latest_metrics row has not moved since.
    std::string uuids = "{"; // an array literal: each element quoted, backslash and quote escaped
    for (size_t i = 0; i < runUuids.size(); ++i) {
        uuids += i ? ",\"" : "\"";
        for (char ch : runUuids[i])
            uuids += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
        uuids += '"';
    }
    uuids += "}";
    const pqxx::result rows = tx.exec_params(
        "SELECT e.run_uuid, e.point_count, e.latest_timestamp, e.latest_step, e.points "
        "FROM radt_envelopes e JOIN latest_metrics l ON l.run_uuid = e.run_uuid AND l.\"key\" = "
        "e.\"key\" "
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
        const pqxx::binarystring points(row[4]);
        const std::string uuid = row[0].as<std::string>();
        e.series = decodeEnvelopePoints(points.data(), points.size(),
                                        storeName + ": radt_envelopes of run " + uuid + ", '" + key + "'");
        out.emplace(uuid, std::move(e));
    }
    return out;
}

void saveEnvelopes(pqxx::work& tx, const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes) {
    // Two writers making the table at once would collide in the catalogue: one at a time.
    tx.exec("SELECT pg_advisory_xact_lock(hashtext('radt_envelopes'))");
    tx.exec("CREATE TABLE IF NOT EXISTS radt_envelopes ("
            "run_uuid VARCHAR(32) NOT NULL REFERENCES runs (run_uuid) ON DELETE CASCADE, "
            "\"key\" VARCHAR(250) NOT NULL, buckets INTEGER NOT NULL, version INTEGER NOT NULL, "
            "point_count BIGINT NOT NULL, latest_timestamp BIGINT NOT NULL, latest_step BIGINT NOT NULL, "
            "points BYTEA NOT NULL, PRIMARY KEY (run_uuid, \"key\", buckets))");
    for (const StoredEnvelope& e : envelopes) {
        const std::string points = encodeEnvelopePoints(e.series);
        tx.exec_params("INSERT INTO radt_envelopes (run_uuid, \"key\", buckets, version, point_count, "
                       "latest_timestamp, latest_step, points) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                       "ON CONFLICT (run_uuid, \"key\", buckets) DO UPDATE SET version = excluded.version, "
                       "point_count = excluded.point_count, latest_timestamp = excluded.latest_timestamp, "
                       "latest_step = excluded.latest_step, points = excluded.points",
                       runUuid, e.key, e.buckets, kEnvelopeVersion, e.pointCount, e.latestTimestamp,
                       e.latestStep, pqxx::binarystring(points.data(), points.size()));
    }
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
