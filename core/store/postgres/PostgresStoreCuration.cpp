// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresCuration.h"

#include "core/store/MlflowLimits.h"
#include "core/store/Store.h"
#include "core/store/postgres/PostgresStoreConnection.h"
#include "core/store/postgres/PostgresStoreRoles.h"

namespace radt::pg {

namespace {

/// The run's lifecycle stage, its row locked for the change; throws naming the run when unknown.
std::string lockedLifecycleOf(pqxx::work& tx, const std::string& runUuid, const std::string& store) {
    const pqxx::result row =
        tx.exec_params("SELECT lifecycle_stage FROM runs WHERE run_uuid = $1 FOR UPDATE", runUuid);
    if (row.empty())
        throw StoreError("run '" + runUuid + "' not found in " + store);
    return row[0][0].as<std::string>();
}

void requireActive(pqxx::work& tx, const std::string& runUuid, const std::string& store) {
    if (lockedLifecycleOf(tx, runUuid, store) != "active")
        throw StoreError("run '" + runUuid + "' is deleted in " + store + ": restore it first");
}

/// Whether the store's generation has this column (MLflow 1.x lacks runs.deleted_time).
bool hasColumn(pqxx::work& tx, const std::string& table, const std::string& column) {
    return !tx.exec_params("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                           "AND table_name = $1 AND column_name = $2",
                           table, column)
                .empty();
}

/// The experiment's lifecycle stage, its row locked for the change; throws when unknown.
std::string lockedExperimentLifecycleOf(pqxx::work& tx, int64_t id, const std::string& store) {
    const pqxx::result row =
        tx.exec_params("SELECT lifecycle_stage FROM experiments WHERE experiment_id = $1 FOR UPDATE", id);
    if (row.empty())
        throw StoreError("experiment " + std::to_string(id) + " not found in " + store);
    return row[0][0].as<std::string>();
}

/// The server's clock in milliseconds since the epoch, as MLflow's times are.
const std::string kNowMs = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

} // namespace

void renameRun(pqxx::work& tx, const std::string& runUuid, const std::string& name,
               const std::string& store) {
    requireActive(tx, runUuid, store);
    tx.exec_params("UPDATE runs SET name = $1 WHERE run_uuid = $2", name, runUuid);
    tx.exec_params("INSERT INTO tags (\"key\", value, run_uuid) VALUES ('mlflow.runName', $1, $2) "
                   "ON CONFLICT (\"key\", run_uuid) DO UPDATE SET value = excluded.value",
                   name, runUuid);
}

void deleteTags(pqxx::work& tx, const std::string& runUuid, const std::vector<std::string>& keys,
                const std::string& store) {
    requireActive(tx, runUuid, store);
    for (const std::string& key : keys)
        if (tx.exec_params("DELETE FROM tags WHERE run_uuid = $1 AND \"key\" = $2", runUuid, key)
                .affected_rows() == 0)
            throw StoreError("run '" + runUuid + "' has no tag '" + key + "' in " + store);
}

bool setRunDeleted(pqxx::work& tx, const std::string& runUuid, bool deleted, const std::string& store) {
    if (lockedLifecycleOf(tx, runUuid, store) == (deleted ? "deleted" : "active"))
        return false;
    const bool hasDeletedTime = hasColumn(tx, "runs", "deleted_time");
    const std::string stage = deleted ? "deleted" : "active";
    if (!hasDeletedTime)
        tx.exec_params("UPDATE runs SET lifecycle_stage = $1 WHERE run_uuid = $2", stage, runUuid);
    else if (deleted)
        tx.exec_params("UPDATE runs SET lifecycle_stage = $1, deleted_time = " + kNowMs +
                           " WHERE run_uuid = $2",
                       stage, runUuid);
    else
        tx.exec_params("UPDATE runs SET lifecycle_stage = $1, deleted_time = NULL WHERE run_uuid = $2", stage,
                       runUuid);
    return true;
}

void renameExperiment(pqxx::work& tx, int64_t experimentId, const std::string& name,
                      const std::string& store) {
    if (lockedExperimentLifecycleOf(tx, experimentId, store) != "active")
        throw StoreError("experiment " + std::to_string(experimentId) + " is deleted in " + store +
                         ": restore it first");
    // MLflow 3 stores: names are unique per workspace; ours is the default one.
    const pqxx::result taken = tx.exec_params(
        std::string("SELECT experiment_id, lifecycle_stage FROM experiments WHERE name = $1 AND "
                    "experiment_id <> $2") +
            (hasColumn(tx, "experiments", "workspace") ? " AND workspace = 'default'" : ""),
        name, experimentId);
    if (!taken.empty())
        throw StoreError("experiment " + taken[0][0].as<std::string>() +
                         (taken[0][1].as<std::string>() == "deleted" ? " (deleted)" : "") +
                         " is already named '" + name + "' in " + store);
    try {
        tx.exec_params(
            std::string("UPDATE experiments SET name = $1") +
                (hasColumn(tx, "experiments", "last_update_time") ? ", last_update_time = " + kNowMs : "") +
                " WHERE experiment_id = $2",
            name, experimentId);
    } catch (const pqxx::unique_violation&) {
        // Another client gave an experiment this name after the check above (its transaction
        // committed while this one waited on the name's index entry): the server's constraint
        // message names an index, not what happened.
        throw StoreError("another client named an experiment '" + name + "' in " + store +
                         " while this rename waited: experiment " + std::to_string(experimentId) +
                         " keeps its name (MLflow's names are unique)");
    }
}

bool setExperimentDeleted(pqxx::work& tx, int64_t experimentId, bool deleted, const std::string& store) {
    const std::string stage = deleted ? "deleted" : "active";
    if (lockedExperimentLifecycleOf(tx, experimentId, store) == stage)
        return false; // as asked already: another client's change, or named twice
    tx.exec_params(
        std::string("UPDATE experiments SET lifecycle_stage = $1") +
            (hasColumn(tx, "experiments", "last_update_time") ? ", last_update_time = " + kNowMs : "") +
            " WHERE experiment_id = $2",
        stage, experimentId);
    // Every run of it, as MLflow's _mark_run_deleted / _mark_run_active do.
    const std::string deletedTime = !hasColumn(tx, "runs", "deleted_time") ? ""
                                    : deleted                              ? ", deleted_time = " + kNowMs
                                                                           : ", deleted_time = NULL";
    tx.exec_params("UPDATE runs SET lifecycle_stage = $1" + deletedTime + " WHERE experiment_id = $2", stage,
                   experimentId);
    return true;
}

} // namespace radt::pg

namespace radt {

void PostgresStoreCuration::renameRun(const std::string& runUuid, const std::string& name) {
    mlflow::validateRunName(name);
    mlflow::validateTagValue("mlflow.runName", name);
    m_store.withConnection("renaming a run", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        pg::renameRun(tx, runUuid, name, m_store.m_uri.display());
        tx.commit();
        return 0;
    });
}

void PostgresStoreCuration::deleteTags(const std::string& runUuid, const std::vector<std::string>& keys) {
    m_store.withConnection("removing tags", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        pg::deleteTags(tx, runUuid, keys, m_store.m_uri.display());
        tx.commit();
        return 0;
    });
}

std::vector<std::string> PostgresStoreCuration::setRunsDeleted(const std::vector<std::string>& runUuids,
                                                               bool deleted) {
    return m_store.withConnection(deleted ? "deleting runs" : "restoring runs", [&](pqxx::connection& c) {
        pqxx::work tx(c); // one transaction: a kill -9 or an unknown run leaves all as they were
        std::vector<std::string> changed;
        for (const std::string& runUuid : runUuids)
            if (pg::setRunDeleted(tx, runUuid, deleted, m_store.m_uri.display()))
                changed.push_back(runUuid);
        tx.commit();
        return changed;
    });
}

std::vector<Run> PostgresStoreCuration::deletedRuns() {
    return m_store.queryRuns("", "", "deleted");
}

void PostgresStoreCuration::renameExperiment(int64_t experimentId, const std::string& name) {
    mlflow::validateExperimentName(name);
    m_store.withConnection("renaming an experiment", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        pg::renameExperiment(tx, experimentId, name, m_store.m_uri.display());
        tx.commit();
        return 0;
    });
}

std::vector<int64_t> PostgresStoreCuration::setExperimentsDeleted(const std::vector<int64_t>& experimentIds,
                                                                  bool deleted) {
    return m_store.withConnection(
        deleted ? "deleting experiments" : "restoring experiments", [&](pqxx::connection& c) {
            pqxx::work tx(c); // one transaction: a kill -9 or an unknown experiment leaves all as they were
            std::vector<int64_t> changed;
            for (const int64_t id : experimentIds)
                if (pg::setExperimentDeleted(tx, id, deleted, m_store.m_uri.display()))
                    changed.push_back(id);
            tx.commit();
            return changed;
        });
}

std::vector<Experiment> PostgresStoreCuration::deletedExperiments() {
    return m_store.queryExperiments("deleted");
}

} // namespace radt
