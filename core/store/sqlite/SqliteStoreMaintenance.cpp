// SPDX-License-Identifier: MIT
// SqliteStore's maintenance (StoreRoles.h): a copied run's row, a run's compaction, VACUUM and the
// file's size.

#include "core/store/MlflowLimits.h"
#include "core/store/sqlite/SqliteStoreRoles.h"
#include "core/store/sqlite/SqliteStoreTransaction.h"

#include <cmath>

namespace radt {

bool SqliteMaintenance::applyCompaction(const std::string& runUuid,
                                        const std::vector<std::pair<std::string, Series>>& removals,
                                        const std::pair<std::string, std::string>& tag) {
    mlflow::validateKey(tag.first, "tag");
    mlflow::validateTagValue(tag.first, tag.second);
    // The primary key (key, timestamp, step, run_uuid, value[, is_nan]) finds each row; a
    // 2019-era store without a step column matches on the rest.
    const bool hasStep = m_store.columnOr("metrics", "step", "") == "step";
    SqliteStatement remove(m_store.m_db,
                           std::string("DELETE FROM metrics WHERE \"key\" = ? AND run_uuid = ? AND "
                                       "timestamp = ? AND value = ?") +
                               (hasStep ? " AND step = ?" : ""));
    // BEGIN IMMEDIATE holds the write lock from here: a second compaction of this run waits, then
    // finds the tag and leaves the run alone.
    SqliteStore::Transaction tx(m_store.m_db);
    m_store.requireRun(runUuid);
    {
        SqliteStatement done(m_store.m_db, "SELECT 1 FROM tags WHERE \"key\" = ? AND run_uuid = ?");
        done.bind(1, tag.first).bind(2, runUuid);
        if (done.step())
            return false;
    }
    for (const auto& [key, points] : removals) {
        for (size_t i = 0; i < points.size(); ++i) {
            if (!std::isfinite(points.v[i]))
                continue; // NaN is stored as 0 with is_nan: never a compaction candidate
            remove.bindNoCopy(1, key).bindNoCopy(2, runUuid).bind(3, points.t[i]).bind(4, points.v[i]);
            if (hasStep)
                remove.bind(5, i < points.step.size() ? points.step[i] : 0);
            remove.execute();
        }
    }
    SqliteStatement setTag(m_store.m_db, "INSERT INTO tags (\"key\", value, run_uuid) VALUES (?, ?, ?)");
    setTag.bind(1, tag.first).bind(2, tag.second).bind(3, runUuid).execute();
    tx.commit();
    return true;
}

void SqliteMaintenance::reclaimSpace() {
    sqliteExec(m_store.m_db, "PRAGMA wal_checkpoint(TRUNCATE)", "cannot checkpoint " + m_store.m_path);
    sqliteExec(m_store.m_db, "VACUUM",
               "cannot rewrite " + m_store.m_path + " (VACUUM needs free space for a copy)");
}

int64_t SqliteMaintenance::storageBytes() {
    sqliteExec(m_store.m_db, "PRAGMA wal_checkpoint(TRUNCATE)", "cannot checkpoint " + m_store.m_path);
    SqliteStatement pages(m_store.m_db,
                          "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
    return pages.step() ? sqlite3_column_int64(pages.handle(), 0) : -1;
}

void SqliteMaintenance::importRun(const Run& run) {
    mlflow::validateRunName(run.name);
    SqliteStore::Transaction tx(m_store.m_db);
    SqliteStatement insert(
        m_store.m_db,
        "INSERT INTO runs (run_uuid, name, source_type, source_name, entry_point_name, "
        "user_id, status, start_time, end_time, source_version, lifecycle_stage, "
        "artifact_uri, experiment_id) VALUES (?, ?, 'LOCAL', ?, '', ?, ?, ?, ?, '', 'active', ?, ?) "
        "ON CONFLICT (run_uuid) DO UPDATE SET status = excluded.status, end_time = excluded.end_time");
    const auto tag = [&](const char* key) {
        auto it = run.tags.find(key);
        return it == run.tags.end() ? std::string() : it->second;
    };
    insert.bind(1, run.uuid).bind(2, run.name).bind(3, tag("mlflow.source.name")).bind(4, tag("mlflow.user"));
    insert.bind(5, std::string(toString(run.status))).bind(6, run.startTime);
    if (run.endTime)
        insert.bind(7, *run.endTime);
    else
        insert.bindNull(7);
    insert.bind(8, run.artifactUri).bind(9, run.experimentId).execute();
    tx.commit();
}

} // namespace radt
