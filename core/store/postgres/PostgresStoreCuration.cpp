#include "core/store/postgres/PostgresCuration.h"

#include "core/store/MlflowLimits.h"
#include "core/store/Store.h"
#include "core/store/postgres/PostgresStoreConnection.h"

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

void setRunDeleted(pqxx::work& tx, const std::string& runUuid, bool deleted, const std::string& store) {
    if (lockedLifecycleOf(tx, runUuid, store) == (deleted ? "deleted" : "active"))
        throw StoreError("run '" + runUuid + "' is " + (deleted ? "already deleted" : "not deleted") +
                         " in " + store);
    // MLflow 1.x's runs have no deleted_time.
    const bool hasDeletedTime =
        !tx.exec("SELECT 1 FROM information_schema.columns WHERE table_schema = "
                 "current_schema() AND table_name = 'runs' AND column_name = 'deleted_time'")
             .empty();
    const std::string stage = deleted ? "deleted" : "active";
    if (!hasDeletedTime)
        tx.exec_params("UPDATE runs SET lifecycle_stage = $1 WHERE run_uuid = $2", stage, runUuid);
    else if (deleted)
        tx.exec_params("UPDATE runs SET lifecycle_stage = $1, deleted_time = "
                       "(extract(epoch FROM clock_timestamp()) * 1000)::bigint WHERE run_uuid = $2",
                       stage, runUuid);
    else
        tx.exec_params("UPDATE runs SET lifecycle_stage = $1, deleted_time = NULL WHERE run_uuid = $2", stage,
                       runUuid);
}

} // namespace radt::pg

namespace radt {

void PostgresStore::renameRun(const std::string& runUuid, const std::string& name) {
    mlflow::validateRunName(name);
    mlflow::validateTagValue("mlflow.runName", name);
    withConnection("renaming a run", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        pg::renameRun(tx, runUuid, name, m_uri.display());
        tx.commit();
        return 0;
    });
}

void PostgresStore::deleteTags(const std::string& runUuid, const std::vector<std::string>& keys) {
    withConnection("removing tags", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        pg::deleteTags(tx, runUuid, keys, m_uri.display());
        tx.commit();
        return 0;
    });
}

void PostgresStore::setRunDeleted(const std::string& runUuid, bool deleted) {
    withConnection(deleted ? "deleting a run" : "restoring a run", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        pg::setRunDeleted(tx, runUuid, deleted, m_uri.display());
        tx.commit();
        return 0;
    });
}

std::vector<Run> PostgresStore::deletedRuns() {
    return queryRuns("", "", "deleted");
}

} // namespace radt
