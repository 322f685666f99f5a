// SPDX-License-Identifier: MIT
// SqliteStore's curation of runs and experiments (SqliteCuration, StoreRoles.h): rename, remove tags, delete
// and restore, writing the rows MLflow's own SQLAlchemy store writes for each.

#include "core/store/MlflowLimits.h"
#include "core/store/sqlite/SqliteStoreRoles.h"
#include "core/store/sqlite/SqliteStoreTransaction.h"

namespace radt {

namespace {

/// The run's lifecycle stage; throws naming the run when the store has no such run.
std::string lifecycleOf(sqlite3* db, const std::string& runUuid, const std::string& store) {
    SqliteStatement stmt(db, "SELECT lifecycle_stage FROM runs WHERE run_uuid = ?");
    stmt.bind(1, runUuid);
    if (!stmt.step())
        throw StoreError("run '" + runUuid + "' not found in " + store);
    return stmt.text(0);
}

void requireActive(sqlite3* db, const std::string& runUuid, const std::string& store) {
    if (lifecycleOf(db, runUuid, store) != "active")
        throw StoreError("run '" + runUuid + "' is deleted in " + store + ": restore it first");
}

} // namespace

void SqliteCuration::renameRun(const std::string& runUuid, const std::string& name) {
    mlflow::validateRunName(name);
    mlflow::validateTagValue(kRunNameTag, name);
    SqliteStore::Transaction tx(m_store.m_db);
    requireActive(m_store.m_db, runUuid, m_store.m_uri.display());
    SqliteStatement update(m_store.m_db, "UPDATE runs SET name = ? WHERE run_uuid = ?");
    update.bind(1, name).bind(2, runUuid).execute();
    SqliteStatement tag(m_store.m_db, "INSERT INTO tags (\"key\", value, run_uuid) VALUES (?, ?, ?) "
                                      "ON CONFLICT (\"key\", run_uuid) DO UPDATE SET value = excluded.value");
    tag.bind(1, std::string(kRunNameTag)).bind(2, name).bind(3, runUuid).execute();
    tx.commit();
}

void SqliteCuration::deleteTags(const std::string& runUuid, const std::vector<std::string>& keys) {
    SqliteStore::Transaction tx(m_store.m_db);
    requireActive(m_store.m_db, runUuid, m_store.m_uri.display());
    SqliteStatement remove(m_store.m_db, "DELETE FROM tags WHERE run_uuid = ? AND \"key\" = ?");
    for (const std::string& key : keys) {
        remove.bind(1, runUuid).bind(2, key).execute();
        if (sqlite3_changes(m_store.m_db) == 0)
            throw StoreError("run '" + runUuid + "' has no tag '" + key + "' in " + m_store.m_uri.display());
    }
    tx.commit();
}

std::vector<std::string> SqliteCuration::setRunsDeleted(const std::vector<std::string>& runUuids,
                                                        bool deleted) {
    SqliteStore::Transaction tx(m_store.m_db); // an unknown run throws before the commit: nothing changes
    const bool hasDeletedTime = m_store.m_columns["runs"].count("deleted_time") > 0; // MLflow 1.x has none
    const int64_t now = nowMs();
    std::vector<std::string> changed;
    for (const std::string& runUuid : runUuids) {
        if (lifecycleOf(m_store.m_db, runUuid, m_store.m_uri.display()) == (deleted ? "deleted" : "active"))
            continue; // as asked already: another client's change, or named twice
        SqliteStatement update(m_store.m_db, std::string("UPDATE runs SET lifecycle_stage = ?") +
                                                 (hasDeletedTime ? ", deleted_time = ?" : "") +
                                                 " WHERE run_uuid = ?");
        update.bind(1, std::string(deleted ? "deleted" : "active"));
        if (hasDeletedTime) {
            if (deleted)
                update.bind(2, now);
            else
                sqlite3_bind_null(update.handle(), 2);
        }
        update.bind(hasDeletedTime ? 3 : 2, runUuid).execute();
        changed.push_back(runUuid);
    }
    tx.commit();
    return changed;
}

std::vector<Run> SqliteCuration::deletedRuns() {
    return m_store.queryRuns("", "", false, "deleted");
}

namespace {

/// The experiment's lifecycle stage; throws naming the experiment when the store has none.
std::string experimentLifecycleOf(sqlite3* db, int64_t id, const std::string& store) {
    SqliteStatement stmt(db, "SELECT lifecycle_stage FROM experiments WHERE experiment_id = ?");
    stmt.bind(1, id);
    if (!stmt.step())
        throw StoreError("experiment " + std::to_string(id) + " not found in " + store);
    return stmt.text(0);
}

} // namespace

void SqliteCuration::renameExperiment(int64_t experimentId, const std::string& name) {
    mlflow::validateExperimentName(name);
    SqliteStore::Transaction tx(m_store.m_db);
    if (experimentLifecycleOf(m_store.m_db, experimentId, m_store.m_uri.display()) != "active")
        throw StoreError("experiment " + std::to_string(experimentId) + " is deleted in " +
                         m_store.m_uri.display() + ": restore it first");
    // MLflow 3 stores: names are unique per workspace; ours is the default one.
    const bool workspaces = m_store.m_columns["experiments"].count("workspace") > 0;
    SqliteStatement taken(m_store.m_db, std::string("SELECT experiment_id, lifecycle_stage FROM experiments "
                                                    "WHERE name = ? AND experiment_id <> ?") +
                                            (workspaces ? " AND workspace = 'default'" : ""));
    taken.bind(1, name).bind(2, experimentId);
    if (taken.step())
        throw StoreError("experiment " + std::to_string(taken.int64(0)) +
                         (taken.text(1) == "deleted" ? " (deleted)" : "") + " is already named '" + name +
                         "' in " + m_store.m_uri.display());
    const bool hasUpdateTime =
        m_store.m_columns["experiments"].count("last_update_time") > 0; // not in MLflow 1.x
    SqliteStatement update(m_store.m_db, std::string("UPDATE experiments SET name = ?") +
                                             (hasUpdateTime ? ", last_update_time = ?" : "") +
                                             " WHERE experiment_id = ?");
    update.bind(1, name);
    if (hasUpdateTime)
        update.bind(2, nowMs());
    update.bind(hasUpdateTime ? 3 : 2, experimentId).execute();
    tx.commit();
}

std::vector<int64_t> SqliteCuration::setExperimentsDeleted(const std::vector<int64_t>& experimentIds,
                                                           bool deleted) {
    SqliteStore::Transaction tx(
        m_store.m_db); // an unknown experiment or a failed update throws before the commit: nothing changes
    const std::string stage = deleted ? "deleted" : "active";
    const int64_t now = nowMs();
    const bool hasUpdateTime = m_store.m_columns["experiments"].count("last_update_time") > 0;
    const bool hasDeletedTime = m_store.m_columns["runs"].count("deleted_time") > 0;
    std::vector<int64_t> changed;
    for (const int64_t id : experimentIds) {
        if (experimentLifecycleOf(m_store.m_db, id, m_store.m_uri.display()) == stage)
            continue; // as asked already: another client's change, or named twice
        SqliteStatement experiment(m_store.m_db, std::string("UPDATE experiments SET lifecycle_stage = ?") +
                                                     (hasUpdateTime ? ", last_update_time = ?" : "") +
                                                     " WHERE experiment_id = ?");
        experiment.bind(1, stage);
        if (hasUpdateTime)
            experiment.bind(2, now);
        experiment.bind(hasUpdateTime ? 3 : 2, id).execute();
        // Every run of it, as MLflow's _mark_run_deleted / _mark_run_active do.
        SqliteStatement runs(m_store.m_db, std::string("UPDATE runs SET lifecycle_stage = ?") +
                                               (hasDeletedTime ? ", deleted_time = ?" : "") +
                                               " WHERE experiment_id = ?");
        runs.bind(1, stage);
        if (hasDeletedTime) {
            if (deleted)
                runs.bind(2, now);
            else
                runs.bindNull(2);
        }
        runs.bind(hasDeletedTime ? 3 : 2, id).execute();
        changed.push_back(id);
    }
    tx.commit();
    return changed;
}

std::vector<Experiment> SqliteCuration::deletedExperiments() {
    return m_store.queryExperiments("deleted");
}

} // namespace radt
