// SPDX-License-Identifier: MIT
// PostgresStore's maintenance (StoreRoles.h): a copied run's row, a run's compaction, VACUUM and the
// metrics table's size.

#include "core/store/MlflowLimits.h"
#include "core/store/postgres/PostgresStoreConnection.h"
#include "core/store/postgres/PostgresStoreRoles.h"

#include <cmath>

namespace radt {

bool PostgresStoreMaintenance::applyCompaction(const std::string& runUuid,
                                               const std::vector<std::pair<std::string, Series>>& removals,
                                               const std::pair<std::string, std::string>& tag) {
    mlflow::validateKey(tag.first, "tag");
    mlflow::validateTagValue(tag.first, tag.second);
    return m_store.withConnection("compacting a run", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        // The run's row locked: a second compaction of it waits here, then (READ COMMITTED: its
        // next statement sees our commit) finds the tag and leaves the run alone.
        if (tx.exec_params("SELECT 1 FROM runs WHERE run_uuid = $1 FOR UPDATE", runUuid).empty())
            throw StoreError("run '" + runUuid + "' not found in " + m_store.m_uri.display());
        if (!tx.exec_params("SELECT 1 FROM tags WHERE \"key\" = $1 AND run_uuid = $2", tag.first, runUuid)
                 .empty())
            return false;
        // Staged with COPY like a metrics batch, then one DELETE joined on the primary key.
        tx.exec("CREATE TEMP TABLE IF NOT EXISTS radt_metrics_out (\"key\" VARCHAR(250), timestamp BIGINT, "
                "step BIGINT, value FLOAT(53)) ON COMMIT DELETE ROWS");
        {
            pqxx::stream_to copy(tx, "radt_metrics_out",
                                 std::vector<std::string>{"key", "timestamp", "step", "value"});
            for (const auto& [key, points] : removals)
                for (size_t i = 0; i < points.size(); ++i)
                    if (std::isfinite(points.v[i]))
                        copy << std::make_tuple(key, points.t[i], i < points.step.size() ? points.step[i] : 0,
                                                points.v[i]);
            copy.complete();
        }
        tx.exec_params("DELETE FROM metrics m USING radt_metrics_out o WHERE m.\"key\" = o.\"key\" AND "
                       "m.run_uuid = $1 AND m.timestamp = o.timestamp AND m.step = o.step AND "
                       "m.value = o.value AND NOT m.is_nan",
                       runUuid);
        tx.exec_params("INSERT INTO tags (\"key\", value, run_uuid) VALUES ($1, $2, $3)", tag.first,
                       tag.second, runUuid);
        tx.commit();
        return true;
    });
}

void PostgresStoreMaintenance::reclaimSpace() {
    m_store.withConnection("vacuuming metrics", [&](pqxx::connection& c) {
        pqxx::nontransaction tx(c); // VACUUM cannot run inside a transaction block
        tx.exec("VACUUM metrics");
        return 0;
    });
}

int64_t PostgresStoreMaintenance::storageBytes() {
    return m_store.withConnection("measuring the metrics table", [&](pqxx::connection& c) {
        pqxx::nontransaction tx(c);
        // A partitioned table's own size is 0: its partitions hold the rows.
        return tx
            .exec1("SELECT pg_total_relation_size('metrics') + coalesce((SELECT "
                   "sum(pg_total_relation_size(relid)) FROM pg_partition_tree('metrics') WHERE relid <> "
                   "'metrics'::regclass), 0)::bigint")[0]
            .as<int64_t>();
    });
}

void PostgresStoreMaintenance::importRun(const Run& run) {
    mlflow::validateRunName(run.name);
    const auto tag = [&](const char* key) {
        auto it = run.tags.find(key);
        return it == run.tags.end() ? std::string() : it->second;
    };
    m_store.withConnection("copying a run", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        tx.exec_params(
            "INSERT INTO runs (run_uuid, name, source_type, source_name, entry_point_name, user_id, "
            "status, start_time, end_time, source_version, lifecycle_stage, artifact_uri, experiment_id) "
            "VALUES ($1, $2, 'LOCAL', $3, '', $4, $5, $6, $7, '', 'active', $8, $9) "
            "ON CONFLICT (run_uuid) DO UPDATE SET status = excluded.status, end_time = excluded.end_time",
            run.uuid, run.name, tag("mlflow.source.name"), tag("mlflow.user"),
            std::string(toString(run.status)), run.startTime, run.endTime, run.artifactUri, run.experimentId);
        tx.commit();
        return 0;
    });
}

} // namespace radt
