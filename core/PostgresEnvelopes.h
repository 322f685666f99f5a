#pragma once
// PostgresStore's per-run envelopes and summary statistics (RunEnvelopes.h): the radt_envelopes
// table beside MLflow's, and the statistics computed in the server. Internal to core: it speaks
// libpqxx; PostgresStore wraps each call in its connection handling.

#include "RunEnvelopes.h"
#include "SeriesMath.h"

#include <pqxx/pqxx>

#include <map>
#include <string>
#include <vector>

namespace radt::pg {

std::map<std::string, int64_t> pointCounts(pqxx::transaction_base& tx, const std::string& runUuid);
/// `storeName` names the store in the message of a damaged row.
std::map<std::string, StoredEnvelope> storedEnvelopes(pqxx::transaction_base& tx,
                                                      const std::vector<std::string>& runUuids,
                                                      const std::string& key, int buckets,
                                                      const std::string& storeName);
/// Makes the table on first use (one writer at a time) and upserts the run's envelopes.
void saveEnvelopes(pqxx::work& tx, const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes);
/// seriesStats() of each key (or `onlyKey`) of a run, computed by the server: a week of samples
/// never crosses the network to become eight numbers.
std::map<std::string, SeriesStats> seriesStatsOfRun(pqxx::transaction_base& tx, const std::string& runUuid,
                                                    const std::string& onlyKey);

} // namespace radt::pg
