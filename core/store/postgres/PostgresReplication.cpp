// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresReplication.h"

namespace radt::pg {

namespace {

struct Replication {
    bool receiving = false; ///< a WAL receiver streams from the primary
    std::string lastChange; ///< the last replayed transaction's time, UTC; "" when none since start
    int64_t ageS = -1;      ///< how long ago that was
    std::string started;    ///< when the standby started, UTC
    int64_t startedAgeS = -1;
};

Replication replication(pqxx::transaction_base& tx) {
    // pg_stat_wal_receiver has a row only while a WAL receiver runs; a role without
    // pg_read_all_stats sees its pid but not its status, so a hidden status counts as streaming.
    const pqxx::row row = tx.exec1(
        "SELECT EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE coalesce(status, 'streaming') = "
        "'streaming'), "
        "coalesce(to_char(pg_last_xact_replay_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), ''), "
        "coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp())::bigint, -1), "
        "to_char(pg_postmaster_start_time() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), "
        "extract(epoch FROM now() - pg_postmaster_start_time())::bigint");
    return {row[0].as<bool>(), row[1].as<std::string>(), row[2].as<int64_t>(), row[3].as<std::string>(),
            row[4].as<int64_t>()};
}

/// How old what it shows is: its last replayed change's time (or, with none since it started, the
/// start's), with its age.
std::string asOfText(const Replication& r) {
    if (r.lastChange.empty())
        return "as it was when the standby started, " + r.started + " UTC (" + std::to_string(r.startedAgeS) +
               " s ago), having replayed no change since";
    return "as it was at its last replayed change, " + r.lastChange + " UTC (" + std::to_string(r.ageS) +
           " s ago)";
}

} // namespace

std::string replicationWarning(pqxx::transaction_base& tx, const std::string& display) {
    const Replication r = replication(tx);
    if (r.receiving)
        return {};
    return "warning: " + display +
           " is a standby server whose replication has stopped: no WAL receiver is streaming from its "
           "primary (the primary is down or unreachable), so it shows the store " +
           asOfText(r) + "; runs shown RUNNING there may have ended since";
}

std::string replicationState(pqxx::transaction_base& tx) {
    const Replication r = replication(tx);
    if (!r.receiving)
        return {};
    if (r.lastChange.empty())
        return "streaming from its primary";
    return "streaming from its primary, last change replayed at " + r.lastChange + " UTC (" +
           std::to_string(r.ageS) + " s ago)";
}

} // namespace radt::pg
