// SPDX-License-Identifier: MIT
#pragma once
// PostgresStore's per-run envelopes and summary statistics (RunEnvelopes.h): the radt_envelopes
// table beside MLflow's, and the statistics computed in the server. Internal to core: it speaks
// libpqxx; PostgresStore wraps each call in its connection handling.

#include "core/base/SeriesMath.h"
#include "core/store/RunEnvelopes.h"

#include <pqxx/pqxx>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace radt::pg {

std::map<std::string, int64_t> pointCounts(pqxx::transaction_base& tx, const std::string& runUuid);
/// `storeName` names the store in the message of a damaged row.
std::map<std::string, StoredEnvelope> storedEnvelopes(pqxx::transaction_base& tx,
                                                      const std::vector<std::string>& runUuids,
                                                      const std::string& key, int buckets,
                                                      const std::string& storeName);
/// True while the triggers that count each kept run's changes are on metrics.
bool countsRunChanges(pqxx::transaction_base& tx);
/// Makes (again) the triggers that count each kept run's changes on the table now named metrics,
/// keeping what is kept: for a table that holds exactly the rows the counted one held (the
/// partition conversion's swap). By metrics' owner.
void makeChangeTriggers(pqxx::transaction_base& tx);
/// Store::envelopeChangeCount: the triggers made first where missing, by metrics' owner only
/// (nullopt for another role), every kept entry dropped then.
std::optional<int64_t> envelopeChangeCount(pqxx::work& tx, const std::string& runUuid, bool ownsMetrics);
/// Upserts the run's envelopes; false (nothing saved) while no change is counted.
bool saveEnvelopes(pqxx::work& tx, const std::string& runUuid, const std::vector<StoredEnvelope>& envelopes);
/// seriesStats() of each key (or `onlyKey`) of a run, computed by the server: a week of samples
/// never crosses the network to become eight numbers.
std::map<std::string, SeriesStats> seriesStatsOfRun(pqxx::transaction_base& tx, const std::string& runUuid,
                                                    const std::string& onlyKey);

} // namespace radt::pg
