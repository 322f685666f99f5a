// SPDX-License-Identifier: MIT
#pragma once
// PostgresStore's curation of runs and experiments (Store.h): rename, remove tags, delete and restore,
// writing the rows MLflow's own SQLAlchemy store writes for each. Internal to core: it speaks libpqxx;
// PostgresStore wraps each call in its connection handling.

#include <pqxx/pqxx>

#include <cstdint>
#include <string>
#include <vector>

namespace radt::pg {

/// `store` names the store in errors.
void renameRun(pqxx::work& tx, const std::string& runUuid, const std::string& name, const std::string& store);
void deleteTags(pqxx::work& tx, const std::string& runUuid, const std::vector<std::string>& keys,
                const std::string& store);
/// False, changing nothing, when the run is already as asked.
bool setRunDeleted(pqxx::work& tx, const std::string& runUuid, bool deleted, const std::string& store);
void renameExperiment(pqxx::work& tx, int64_t experimentId, const std::string& name,
                      const std::string& store);
/// False, changing nothing (its runs neither), when the experiment is already as asked.
bool setExperimentDeleted(pqxx::work& tx, int64_t experimentId, bool deleted, const std::string& store);

} // namespace radt::pg
