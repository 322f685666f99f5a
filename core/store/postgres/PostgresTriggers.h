// SPDX-License-Identifier: MIT
#pragma once
// The statement triggers radt puts on metrics to learn which runs a statement changed, whichever
// client runs it: the partition conversion's change log (PostgresMaintenance.cpp) and the change
// count of kept envelopes (PostgresEnvelopes.cpp). Internal to core.

#include <pqxx/pqxx>

#include <string>

namespace radt::pg {

/// metrics' schema and owner, quoted: what trigger functions are qualified with and owned by.
struct MetricsOwner {
    std::string schema, owner;
};
MetricsOwner metricsOwner(pqxx::transaction_base& tx);

/// The trigger function `schema.name()` running `body` (PL/pgSQL statements, then RETURN NULL):
/// SECURITY DEFINER, owned by metrics' owner, search_path pg_catalog, the schema, pg_temp last, so
/// a writer under any role runs it and can slip no table of its own in (qualify names in `body`).
void makeTriggerFunction(pqxx::transaction_base& tx, const MetricsOwner& where, const char* name,
                         const std::string& body);

/// Statement triggers `<prefix>insert`, `<prefix>update_old`, `<prefix>update_new` and
/// `<prefix>delete` on metrics, each seeing its statement's rows as the transition table `changed`
/// and calling `rowsFunction`, and `<prefix>truncate` calling `truncateFunction`; made again where
/// they exist.
void makeStatementTriggers(pqxx::transaction_base& tx, const MetricsOwner& where, const std::string& prefix,
                           const char* rowsFunction, const char* truncateFunction);

} // namespace radt::pg
