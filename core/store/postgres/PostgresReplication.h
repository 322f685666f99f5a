// SPDX-License-Identifier: MIT
#pragma once
// How far a hot standby (a streaming replica, resources/doc/stores.md) is behind its
// primary, and whether it still replicates at all. A standby whose primary died keeps answering
// with the store as it was, a run RUNNING forever: readers must hear it. Internal to core.

#include <pqxx/pqxx>

#include <string>

namespace radt::pg {

/// On a standby: "" while a WAL receiver streams from its primary (pg_stat_wal_receiver); else a
/// warning that replication has stopped, naming how far behind it is (its last replayed change's
/// time and age, from pg_last_xact_replay_timestamp; with none since it started, its start's).
/// `display` names the store.
std::string replicationWarning(pqxx::transaction_base& tx, const std::string& display);

/// On a standby that replicates: "streaming from its primary, last change replayed at T UTC (N s
/// ago)" for the open notice; "" when the server says nothing of it.
std::string replicationState(pqxx::transaction_base& tx);

} // namespace radt::pg
