// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresMaintenance.h"

#include "core/store/StoreCopy.h"
#include "core/store/postgres/PostgresEnvelopes.h"
#include "core/store/postgres/PostgresLockWaits.h"
#include "core/store/postgres/PostgresPartitions.h"
#include "core/store/postgres/PostgresStore.h"
#include "core/store/postgres/PostgresTriggers.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace radt {

namespace {

constexpr const char* kTwin = "radt_metrics_partitioned";
constexpr const char* kProgress = "radt_partition_progress";
constexpr const char* kChanges = "radt_partition_changes";

/// Notes, from the first copied run to the swap, every run a statement on metrics changes: one row
/// per run, its `seq` drawn anew by each change (INSERT, UPDATE of either run, DELETE; TRUNCATE notes
/// '*'). The value is drawn in the DO UPDATE, after the row's lock: writers of one run queue on its
/// row, so its seq changes in the order its changes commit, and a copy that saw seq s holds every
/// change up to s; any other seq says it must be copied again. Catching up and the locked swap read
/// these rows instead of counting metrics per run (minutes on a billion rows), and an UPDATE that
/// keeps a run's count is seen too. The functions are SECURITY DEFINER, owned like the table and
/// their names qualified (search_path pg_catalog, the schema, pg_temp last), so a writer whose role
/// has no grant on radt's table (MLflow's server under its own role) writes on and can slip no table
/// of its own in. Made again from nothing when an abandoned conversion left parts of it.
void installChangeLog(pqxx::transaction_base& tx) {
    const pg::MetricsOwner where = pg::metricsOwner(tx);
    const std::string changes = where.schema + "." + kChanges,
                      sequence = where.schema + ".radt_partition_changes_seq";
    tx.exec("DROP TABLE IF EXISTS " + changes);
    tx.exec("DROP SEQUENCE IF EXISTS " + sequence);
    tx.exec("CREATE SEQUENCE " + sequence);
    tx.exec("CREATE TABLE " + changes + " (run_uuid VARCHAR(32) PRIMARY KEY, seq BIGINT NOT NULL)");
    const std::string next = "nextval('" + sequence + "')";
    const auto note = [&](const std::string& noted) {
        return "INSERT INTO " + changes + " " + noted +
               " ON CONFLICT (run_uuid) DO UPDATE SET seq = " + next + ";";
    };
    // In run order: a statement over several runs locks their rows as every other one does.
    pg::makeTriggerFunction(tx, where, "radt_partition_note_runs",
                            note("SELECT run_uuid, " + next +
                                 " FROM (SELECT DISTINCT run_uuid FROM changed ORDER BY run_uuid) r"));
    pg::makeTriggerFunction(tx, where, "radt_partition_note_truncate", note("VALUES ('*', " + next + ")"));
    tx.exec("ALTER TABLE " + changes + " OWNER TO " + where.owner);
    tx.exec("ALTER SEQUENCE " + sequence + " OWNER TO " + where.owner);
    pg::makeStatementTriggers(tx, where, "radt_partition_", "radt_partition_note_runs",
                              "radt_partition_note_truncate");
}

/// The change log and its functions, once the table they watch is gone (its triggers went with it).
void dropChangeLog(pqxx::transaction_base& tx) {
    tx.exec("DROP TABLE " + std::string(kChanges));
    tx.exec("DROP SEQUENCE radt_partition_changes_seq");
    tx.exec("DROP FUNCTION radt_partition_note_runs(), radt_partition_note_truncate()");
}

/// What the change log says changed since the runs were copied.
struct LoggedChanges {
    std::vector<std::string> runs; ///< noted with another seq than their copy saw, or never copied
    bool truncated = false;        ///< a TRUNCATE was noted: every run may have changed
};

LoggedChanges loggedChanges(pqxx::transaction_base& tx) {
    LoggedChanges out;
    for (const auto& row : tx.exec(
             "SELECT c.run_uuid FROM " + std::string(kChanges) + " c LEFT JOIN " + std::string(kProgress) +
             " p ON p.run_uuid = c.run_uuid WHERE p.run_uuid IS NULL OR c.seq <> p.seq")) {
        if (row[0].as<std::string>() == "*")
            out.truncated = true;
        else
            out.runs.push_back(row[0].as<std::string>());
    }
    return out;
}

struct RunDigest {
    int64_t rows = 0;
    std::string checksum; ///< sum of the rows' 64-bit hashes, as an exact numeric
    bool operator==(const RunDigest& o) const { return rows == o.rows && checksum == o.checksum; }
};

/// One run's rows in `table`: counted and checksummed (order-independent: a sum of each row's
/// hash, so the partitioned copy must hold exactly the same rows).
RunDigest digest(pqxx::transaction_base& tx, const std::string& table, const std::string& run) {
    const pqxx::row row = tx.exec_params1(
        "SELECT count(*), coalesce(sum(hashtextextended(m::text, 0)::numeric), 0)::text FROM " +
            tx.quote_name(table) + " m WHERE run_uuid = $1",
        run);
    return {row[0].as<int64_t>(), row[1].as<std::string>()};
}

/// Copies one run's rows from metrics into the twin, making the partitions they need; throws
/// when the copy's count or checksum differs (the transaction then leaves nothing). Run it in a
/// REPEATABLE READ transaction, or with metrics locked.
int64_t copyRun(pqxx::transaction_base& tx, const std::string& run, pg::PartitionPeriod period, bool logged) {
    const RunDigest before = digest(tx, "metrics", run);
    std::vector<int64_t> days;
    for (const auto& row : tx.exec_params(
             "SELECT DISTINCT div(timestamp, 86400000) * 86400000 FROM metrics WHERE run_uuid = $1", run))
        days.push_back(row[0].as<int64_t>());
    pg::createPartitions(tx, kTwin, "metrics", period, days);
    tx.exec_params("DELETE FROM " + std::string(kTwin) + " WHERE run_uuid = $1", run);
    tx.exec_params("INSERT INTO " + std::string(kTwin) + " SELECT * FROM metrics WHERE run_uuid = $1", run);
    const RunDigest after = digest(tx, kTwin, run);
    if (!(after == before))
        throw StoreError("run " + run + ": the partitioned copy holds " + std::to_string(after.rows) +
                         " samples (checksum " + after.checksum + "), the table " +
                         std::to_string(before.rows) + " (checksum " + before.checksum +
                         "); nothing of it was kept");
    if (logged) // the change this copy holds the last of (the copy's snapshot or the lock sees it)
        tx.exec_params(
            "INSERT INTO " + std::string(kProgress) +
                " (run_uuid, rows, checksum, seq) VALUES ($1::varchar, $2, $3, coalesce((SELECT seq FROM " +
                kChanges +
                " WHERE run_uuid = $1::varchar), 0)) ON CONFLICT (run_uuid) DO UPDATE SET rows = "
                "excluded.rows, "
                "checksum = excluded.checksum, seq = excluded.seq",
            run, before.rows, before.checksum);
    else // a conversion begun by a radt without the change log: counted per run instead
        tx.exec_params(
            "INSERT INTO " + std::string(kProgress) +
                " (run_uuid, rows, checksum) VALUES ($1, $2, $3) ON CONFLICT (run_uuid) DO UPDATE SET "
                "rows = excluded.rows, checksum = excluded.checksum",
            run, before.rows, before.checksum);
    return before.rows;
}

/// What changed in metrics since runs were copied, counted (without a change log, or after a
/// TRUNCATE): runs whose count differs from their copy's (or that have no copy), and copied runs
/// that have no rows left.
struct Drift {
    std::vector<std::string> changed, gone;
};

Drift drift(pqxx::transaction_base& tx) {
    std::map<std::string, int64_t> copied;
    for (const auto& row : tx.exec("SELECT run_uuid, rows FROM " + std::string(kProgress)))
        copied[row[0].as<std::string>()] = row[1].as<int64_t>();
    Drift d;
    for (const auto& row : tx.exec("SELECT run_uuid, count(*) FROM metrics GROUP BY run_uuid")) {
        const std::string run = row[0].as<std::string>();
        auto known = copied.find(run);
        if (known == copied.end() || known->second != row[1].as<int64_t>())
            d.changed.push_back(run);
        if (known != copied.end())
            copied.erase(known);
    }
    for (const auto& [run, rows] : copied)
        if (rows > 0)
            d.gone.push_back(run);
    return d;
}

/// What would make the swap fail after hours of copying, said before the first row is copied:
/// only the table's owner may drop it, and a view on it would have to go first.
void requireConvertible(pqxx::transaction_base& tx) {
    const pqxx::row owner = tx.exec1("SELECT pg_get_userbyid(relowner), pg_has_role(relowner, 'USAGE') FROM "
                                     "pg_class WHERE oid = 'metrics'::regclass");
    if (!owner[1].as<bool>())
        throw StoreError("the metrics table belongs to role '" + owner[0].as<std::string>() + "', not '" +
                         tx.exec1("SELECT current_user")[0].as<std::string>() +
                         "': run radt store partition as its owner");
    std::string views;
    for (const auto& row : tx.exec(
             "SELECT DISTINCT v.oid::regclass::text FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid "
             "JOIN pg_class v ON v.oid = r.ev_class WHERE d.refobjid = 'metrics'::regclass AND v.oid <> "
             "'metrics'::regclass ORDER BY 1"))
        views += (views.empty() ? "" : ", ") + row[0].as<std::string>();
    if (!views.empty())
        throw StoreError("the metrics table has views on it (" + views +
                         "); drop them before radt store partition and make them again afterwards");
}

/// The conversion's first transaction: on a partitioned table only the period is set (true: done);
/// else the twin, the progress table and the change log are made (or found, resumed).
bool prepareConversion(pqxx::connection& c, pg::PartitionPeriod period, PartitionOutcome& out, bool& logged) {
    pqxx::work tx(c);
    if (pg::isPartitioned(tx, "metrics")) {
        // Already partitioned: the period applies to the partitions made from now on.
        pg::storePeriod(tx, period);
        pg::createPartitions(tx, "metrics", "metrics", period,
                             pg::aheadTimestamps(period, std::time(nullptr) * int64_t(1000)));
        out.partitions = int(pg::partitionRanges(tx, "metrics").size());
        out.samples = tx.exec1("SELECT count(*) FROM metrics")[0].as<int64_t>();
        tx.commit();
        return true;
    }
    out.resumed = pg::isPartitioned(tx, kTwin);
    requireConvertible(tx);
    if (!out.resumed) {
        pg::makePartitionedTwin(tx, "metrics", kTwin);
        tx.exec("CREATE TABLE " + std::string(kProgress) +
                " (run_uuid VARCHAR(32) PRIMARY KEY, rows BIGINT NOT NULL, checksum TEXT NOT NULL, "
                "seq BIGINT NOT NULL DEFAULT 0)");
        installChangeLog(tx); // before the first copy: no change goes unnoted
    }
    logged = !tx.exec_params1("SELECT to_regclass($1) IS NULL", kChanges)[0].as<bool>();
    tx.commit();
    return false;
}

/// Run by run, a transaction each: an interruption keeps every run copied so far, and the store
/// stays fully usable meanwhile (writers go on into the old table).
void copyPendingRuns(pqxx::connection& c, pg::PartitionPeriod period, bool logged, PartitionOutcome& out,
                     const std::function<void(size_t, size_t, int64_t)>& progress) {
    std::vector<std::string> pending;
    size_t total = 0;
    {
        pqxx::read_transaction tx(c);
        total = tx.exec1("SELECT count(*) FROM runs")[0].as<size_t>();
        for (const auto& row :
             tx.exec("SELECT run_uuid FROM runs WHERE run_uuid NOT IN (SELECT run_uuid FROM " +
                     std::string(kProgress) + ") ORDER BY start_time, run_uuid"))
            pending.push_back(row[0].as<std::string>());
    }
    size_t done = total - pending.size();
    int64_t copied = 0;
    for (const std::string& run : pending) {
        // One snapshot for the run's count, copy and count again: a collector still writing into
        // it (READ COMMITTED would see its new rows between the three) does not fail it.
        pqxx::transaction<pqxx::isolation_level::repeatable_read> tx(c);
        copied += copyRun(tx, run, period, logged);
        tx.commit();
        ++out.runs;
        if (progress)
            progress(++done, total, copied);
    }
}

/// The runs changed since they were copied: the change log's runs; after a TRUNCATE (or in a
/// conversion begun without the log) also every run whose count differs from its copy's.
/// `counted` becomes true once counts had to be compared.
std::vector<std::string> changedRuns(pqxx::transaction_base& tx, bool logged, bool& counted) {
    LoggedChanges noted;
    if (logged)
        noted = loggedChanges(tx);
    counted = counted || !logged || noted.truncated;
    std::set<std::string> runs(noted.runs.begin(), noted.runs.end());
    if (counted) {
        const Drift d = drift(tx);
        runs.insert(d.changed.begin(), d.changed.end());
        runs.insert(d.gone.begin(), d.gone.end()); // copied as nothing: progress says 0 rows
    }
    return std::vector<std::string>(runs.begin(), runs.end());
}

/// The swap, in the transaction that holds metrics locked: what changed since the catch-up is
/// copied again, the totals compared, the twin renamed into place.
void swapLocked(pqxx::work& tx, pg::PartitionPeriod period, bool logged, bool counted,
                PartitionOutcome& out) {
    const std::vector<std::string> since = changedRuns(tx, logged, counted);
    for (const std::string& run : since)
        copyRun(tx, run, period, logged);
    pg::limitLockWaits(tx); // the copies' partitions set their own timeout
    out.recopiedLocked = since.size();
    int64_t newRows = 0;
    if (!counted) {
        // Every run's copy was checked by count and checksum, and none has changed since (the log
        // says so): the copies' counts add up to the table's without a scan of it.
        newRows = tx.exec1("SELECT coalesce(sum(rows), 0) FROM " + std::string(kProgress))[0].as<int64_t>();
    } else {
        const int64_t oldRows = tx.exec1("SELECT count(*) FROM metrics")[0].as<int64_t>();
        newRows = tx.exec1("SELECT count(*) FROM " + std::string(kTwin))[0].as<int64_t>();
        if (oldRows != newRows) // rows of a run whose count went down to nothing since
            throw StoreError("the partitioned table holds " + std::to_string(newRows) + " samples, metrics " +
                             std::to_string(oldRows) + "; nothing was changed (run it again)");
    }
    // Kept chart envelopes stay fresh through the swap: the new table holds exactly the rows the
    // counted one did, so its changes are counted on from here (resources/DESIGN.md §4).
    const bool countedChanges = pg::countsRunChanges(tx);
    pg::swapInTwin(tx, "metrics", kTwin);
    if (countedChanges)
        pg::makeChangeTriggers(tx);
    if (logged)
        dropChangeLog(tx);
    pg::storePeriod(tx, period);
    // Made on the twin before the lock; only a day that began since is made here.
    pg::createPartitions(tx, "metrics", "metrics", period,
                         pg::aheadTimestamps(period, std::time(nullptr) * int64_t(1000)));
    tx.exec("DROP TABLE " + std::string(kProgress));
    out.partitions = int(pg::partitionRanges(tx, "metrics").size());
    out.samples = newRows;
}

} // namespace

namespace pg {

/// A PostgreSQL store, checked as MLflow's (PostgresStore's errors), and a connection of our own.
pqxx::connection connectChecked(const std::string& uri, const char* command) {
    const StoreUri parsed = parseStoreUri(uri);
    if (parsed.kind != StoreUri::Kind::Postgres)
        throw StoreError(std::string(command) + " works on a PostgreSQL store; " + parsed.display() +
                         " is SQLite, whose runs live in one file (radt store copy moves them)");
    PostgresStore check(parsed, OpenMode::OpenExisting);
    if (check.isReadOnly())
        throw StoreError(std::string(command) + ": " + check.openNotice());
    try {
        return pqxx::connection(PostgresStore::connectionString(parsed));
    } catch (const std::exception& e) {
        throw StoreError("cannot connect to " + parsed.display() + ": " + e.what());
    }
}

/// A second connection to the store, to name whom a lock request waits for while it waits.
pqxx::connection watchConnection(const std::string& uri) {
    return pqxx::connection(PostgresStore::connectionString(parseStoreUri(uri)));
}

} // namespace pg

PartitionOutcome partitionStore(const std::string& uri, const std::string& periodText,
                                const std::function<void(size_t, size_t, int64_t)>& progress,
                                const LockPatience& patience) {
    const auto period = pg::parsePeriod(periodText);
    if (!period)
        throw std::invalid_argument("--period expects day or week, got '" + periodText + "'");
    pqxx::connection c = pg::connectChecked(uri, "radt store partition");
    PartitionOutcome out;
    out.period = pg::periodName(*period);
    bool logged = false; // the change log (installChangeLog) watches metrics
    try {
        pqxx::nontransaction(c).exec("SET application_name = 'radt store partition'");
        if (prepareConversion(c, *period, out, logged))
            return out;
        copyPendingRuns(c, *period, logged, out, progress);
        // Catch up outside the lock first: runs still recording were copied a while ago, and
        // copying them again now leaves the locked swap only the last moments' changes.
        bool counted = false;
        std::vector<std::string> since;
        {
            pqxx::read_transaction t(c);
            since = changedRuns(t, logged, counted);
        }
        for (const std::string& run : since) {
            pqxx::transaction<pqxx::isolation_level::repeatable_read> t(c);
            copyRun(t, run, *period, logged);
            t.commit();
        }
        out.recopied = since.size();
        {
            // The partitions ahead of the clock, made on the twin now: under the lock, making them
            // (a table, its indexes and an ATTACH each) held writers for most of the swap.
            pqxx::work t(c);
            pg::createPartitions(t, kTwin, "metrics", *period,
                                 pg::aheadTimestamps(*period, std::time(nullptr) * int64_t(1000)));
            t.commit();
        }
        // The swap: writers wait on the lock while it runs (what changed since the catch-up: a run
        // still recording, a late MLflow client), and while it waits for it, a try at a time.
        pqxx::connection watch = pg::watchConnection(uri);
        const pg::LockedWork locked = pg::withShortLockWaits(
            c, watch, "radt store partition: the swap",
            "nothing was changed: metrics is as it was, the runs copied so far are kept (run it again "
            "once that session has ended, or give it longer with --lock-wait)",
            patience, [&](pqxx::work& tx, const std::function<void()>& locking) {
                locking();
                tx.exec("LOCK TABLE metrics IN ACCESS EXCLUSIVE MODE");
                swapLocked(tx, *period, logged, counted, out);
            });
        out.heldMs = locked.heldMs;
        out.lockTries = locked.tries;
        out.failedHeldMs = locked.failedHeldMs;
        pqxx::nontransaction(c).exec("ANALYZE metrics");
        out.converted = true;
        return out;
    } catch (const pqxx::sql_error& e) {
        throw StoreError("radt store partition on " + parseStoreUri(uri).display() + ": " + e.what());
    }
}

} // namespace radt
