// SPDX-License-Identifier: MIT
#pragma once
// Taking a lock that holds every writer back (ACCESS EXCLUSIVE on metrics: the partition swap,
// archive's partition drop) without ever queueing writers behind a session that does not end.
// PostgreSQL queues every later request behind a waiting ACCESS EXCLUSIVE request, so one reader
// idle in its transaction (an analyst's psql) would stall every collector for as long as it
// stays. Each try waits at most a short lock_timeout, says on stderr whom it waits for
// (pg_blocking_pids), lets the writers through while it backs off, and gives up after a limit
// with nothing changed. Internal to core: it speaks libpqxx.

#include "core/store/postgres/LockPatience.h"

#include <pqxx/pqxx>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace radt::pg {

/// How long one try may wait for a lock: what writers queued behind it wait at most per try.
constexpr std::chrono::milliseconds kLockTryTimeout{200};

struct LockedWork {
    int64_t heldMs = 0;       ///< from the lock request of the try that committed to its commit (0: none)
    int tries = 1;            ///< 1 when the first try got its locks
    int64_t failedHeldMs = 0; ///< the tries that timed out, from their lock request to their rollback
};

/// Runs `work` in a transaction on `c` with SET LOCAL lock_timeout = kLockTryTimeout, and commits
/// it. `work` calls `locking()` right before the statement that takes the lock writers wait on
/// (heldMs is measured from there; 0 when it never calls it: no writer was held). A try
/// whose lock wait times out is rolled back and, after a growing pause, made again; meanwhile
/// the sessions it waited for (looked up from `watch`, a second connection, while it waited) are
/// said through `patience.say`. After `patience.limit`, throws StoreError: "`what`: gave up after
/// N s waiting for ..., held by <sessions>; `nothingChanged`".
LockedWork
withShortLockWaits(pqxx::connection& c, pqxx::connection& watch, const std::string& what,
                   const std::string& nothingChanged, const LockPatience& patience,
                   const std::function<void(pqxx::work&, const std::function<void()>& locking)>& work);

/// A PostgreSQL store, checked as MLflow's (PostgresStore's errors: not PostgreSQL, read-only), and
/// a connection of its own for `command` (PostgresMaintenance.cpp).
pqxx::connection connectChecked(const std::string& uri, const char* command);
/// A second connection to the store, to name whom a lock request waits for while it waits.
pqxx::connection watchConnection(const std::string& uri);

/// SET LOCAL lock_timeout = kLockTryTimeout again, after a statement in the try set its own
/// (createPartitions sets 2 s): every wait while writers are held stays that short.
void limitLockWaits(pqxx::transaction_base& tx);

/// The sessions `pid` waits for now (pg_blocking_pids), each as "pid N ('app', user 'u', idle in
/// transaction, its transaction open for 12 s)"; "" when it waits for none.
std::string blockingSessions(pqxx::connection& watch, int pid);

} // namespace radt::pg
