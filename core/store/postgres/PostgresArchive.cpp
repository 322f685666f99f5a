// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresMaintenance.h"

#include "core/store/StoreCopy.h"
#include "core/store/postgres/PostgresLockWaits.h"
#include "core/store/postgres/PostgresPartitions.h"
#include "core/store/postgres/PostgresStore.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace radt {

namespace {

std::string uuidArray(const std::set<std::string>& runs) {
    std::string array = "{";
    for (const std::string& run : runs) {
        array += array.size() > 1 ? ",\"" : "\""; // quoted: a run id MLflow let in may hold anything
        for (char ch : run) {
            if (ch == '"' || ch == '\\')
                array += '\\';
            array += ch;
        }
        array += '"';
    }
    return array + "}";
}

/// Every param and tag of `original` is in `copy`, and each key has as many samples.
std::string incompleteness(Store& source, Store& archive, const Run& original) {
    const std::optional<Run> copy = archive.run(original.uuid);
    if (!copy)
        return "it is not there";
    if (copy->status != original.status)
        return std::string("its status there is ") + toString(copy->status);
    if (copy->params != original.params)
        return "its params differ";
    for (const auto& [key, value] : original.tags)
        if (copy->tags.count(key) == 0 || copy->tags.at(key) != value)
            return "its tag '" + key + "' differs";
    const auto counts = source.pointCounts(original.uuid);
    const auto copied = archive.pointCounts(original.uuid);
    for (const auto& [key, n] : counts)
        if (copied.count(key) == 0 || copied.at(key) != n)
            return "'" + key + "' has " + std::to_string(copied.count(key) ? copied.at(key) : 0) + " of " +
                   std::to_string(n) + " samples";
    return {};
}

/// The server, database and schema a connection works in: two URIs may name one store in many
/// spellings (localhost or 127.0.0.1, the +psycopg2 scheme, a socket).
std::string storeIdentity(pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    return tx
        .exec1("SELECT (SELECT system_identifier FROM pg_control_system())::text || ':' || "
               "current_setting('port') || ':' || current_database() || ':' || current_schema()")[0]
        .as<std::string>();
}

/// Runs among `runs` that rows of tables the archive does not carry refer to (MLflow 3's logged
/// models and their metrics, issues, inputs, assessments...): removing them would lose those rows
/// or leave them pointing nowhere. run -> the table.
std::map<std::string, std::string> referencedElsewhere(pqxx::transaction_base& tx, const std::string& runs) {
    std::vector<std::pair<std::string, std::string>> columns; // table, column holding a run id
    for (const auto& row : tx.exec(
             "SELECT c.conrelid::regclass::text, a.attname FROM pg_constraint c JOIN pg_class t ON t.oid = "
             "c.conrelid JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] WHERE "
             "c.contype = 'f' AND c.confrelid = 'runs'::regclass AND NOT t.relispartition AND "
             "t.relname NOT IN ('metrics', 'latest_metrics', 'params', 'tags', 'radt_envelopes')"))
        columns.emplace_back(row[0].as<std::string>(), row[1].as<std::string>());
    // Run ids MLflow keeps without a foreign key.
    for (const auto& row :
         tx.exec("SELECT table_name, column_name FROM information_schema.columns WHERE "
                 "table_schema = current_schema() AND (table_name, column_name) IN "
                 "(('inputs', 'destination_id'), ('assessments', 'run_id'), ('model_versions', "
                 "'run_id'), ('logged_models', 'source_run_id'), ('trace_info', 'run_id'))"))
        columns.emplace_back(row[0].as<std::string>(), row[1].as<std::string>());
    std::map<std::string, std::string> out;
    for (const auto& [table, column] : columns)
        for (const auto& row :
             tx.exec_params("SELECT DISTINCT " + tx.quote_name(column) + "::text FROM " + table + " WHERE " +
                                tx.quote_name(column) + "::text = ANY($1::text[])",
                            runs))
            out.emplace(row[0].as<std::string>(), table);
    return out;
}

/// Each chosen run compared with its copy as it is now (the runs locked by the caller): one that
/// changed since it was copied, or that is not whole in the archive, leaves `chosen`, its why in
/// `kept`. The samples of those that stay chosen.
int64_t keepUnlessWhole(Store& source, Store& archive, std::set<std::string>& chosen,
                        std::vector<std::string>& kept) {
    int64_t samples = 0;
    for (auto it = chosen.begin(); it != chosen.end();) {
        const std::optional<Run> now = source.run(*it);
        std::string why = !now ? "it is gone" : incompleteness(source, archive, *now);
        if (why.empty() && (now->status == RunStatus::Running || now->status == RunStatus::Scheduled))
            why = std::string("it is ") + toString(now->status) + " again";
        if (!why.empty()) {
            kept.push_back("run " + *it + " stays: " + why);
            it = chosen.erase(it);
            continue;
        }
        for (const auto& [key, n] : source.pointCounts(*it))
            samples += n;
        ++it;
    }
    return samples;
}

/// The partitions of metrics that ended before `dropBefore` (never those made ahead of the clock)
/// and hold only rows of `runs`, each locked before it is looked at, so no late row slips in
/// before it goes. A partition's own lock holds back only its readers: writers route their rows
/// to newer partitions without touching it.
std::vector<std::string> droppablePartitions(pqxx::transaction_base& tx, const std::string& runs,
                                             int64_t dropBefore) {
    std::vector<std::string> out;
    if (!pg::isPartitioned(tx, "metrics"))
        return out;
    for (const pg::Partition& p : pg::partitions(tx, "metrics"))
        if (p.range.second <= dropBefore) {
            const std::string name = tx.quote_name(p.name);
            tx.exec("LOCK TABLE " + name + " IN ACCESS EXCLUSIVE MODE");
            if (tx.exec_params("SELECT 1 FROM " + name + " WHERE NOT (run_uuid = ANY($1::text[])) LIMIT 1",
                               runs)
                    .empty())
                out.push_back(p.name);
        }
    return out;
}

/// The removal, in one transaction: the archived runs' rows outside the partitions that go, then
/// those partitions dropped whole, then the runs. The drop locks metrics itself (ACCESS EXCLUSIVE,
/// every writer waits), so it comes after the row deletes: writers wait only for the drop and the
/// runs' removal.
void removeArchived(pqxx::work& tx, const std::set<std::string>& chosen, int64_t dropBefore,
                    const std::function<void()>& locking, std::vector<std::string>& dropped) {
    const std::string runs = uuidArray(chosen);
    dropped = droppablePartitions(tx, runs, dropBefore);
    std::set<std::string> going(dropped.begin(), dropped.end());
    for (const char* table : {"metrics", "latest_metrics", "params", "tags", "radt_envelopes"}) {
        if (tx.exec_params("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1",
                           std::string(table))
                .empty())
            continue;
        if (std::string(table) == "metrics" && !going.empty())
            tx.exec_params("DELETE FROM metrics WHERE run_uuid = ANY($1::text[]) AND tableoid <> "
                           "ALL($2::text[]::regclass[])",
                           runs, uuidArray(going)); // the partitions that go are not read row by row
        else
            tx.exec_params("DELETE FROM " + std::string(table) + " WHERE run_uuid = ANY($1::text[])", runs);
    }
    if (!dropped.empty()) {
        locking();
        tx.exec("LOCK TABLE metrics IN ACCESS EXCLUSIVE MODE");
        for (const std::string& name : dropped)
            tx.exec("DROP TABLE " + tx.quote_name(name));
    }
    // Last: the rows of the dropped partitions referred to these runs until they went.
    tx.exec_params("DELETE FROM runs WHERE run_uuid = ANY($1::text[])", runs);
}

} // namespace

ArchiveOutcome archiveStore(const std::string& uri, int64_t beforeMs, const std::string& toUri,
                            const StoreOpener& open,
                            const std::function<void(size_t, size_t, size_t)>& progress,
                            const LockPatience& patience) {
    pqxx::connection c = pg::connectChecked(uri, "radt store archive");
    auto source = std::make_unique<PostgresStore>(parseStoreUri(uri), OpenMode::OpenExisting);
    auto archive = open(toUri, OpenMode::CreateIfMissing);
    const StoreUri target = parseStoreUri(toUri);
    if (target.kind == StoreUri::Kind::Postgres) {
        pqxx::connection other(PostgresStore::connectionString(target));
        if (storeIdentity(other) == storeIdentity(c))
            throw StoreError("radt store archive: --to " + archive->displayUri() + " is the store itself (" +
                             source->displayUri() + ")");
    }
    std::set<std::string> chosen;
    for (const Run& r : source->runs())
        if (r.status != RunStatus::Running && r.status != RunStatus::Scheduled &&
            r.endTime.value_or(r.startTime) < beforeMs)
            chosen.insert(r.uuid);
    ArchiveOutcome out;
    try {
        pqxx::nontransaction(c).exec("SET application_name = 'radt store archive'");
        {
            pqxx::read_transaction tx(c);
            for (const auto& [run, table] : referencedElsewhere(tx, uuidArray(chosen))) {
                out.kept.push_back("run " + run + " has rows in " + table +
                                   ", which an archive does not carry");
                chosen.erase(run);
            }
        }
        const StoreCopyStats copied =
            copyStore(*source, *archive, progress, [&](const Run& r) { return chosen.count(r.uuid) > 0; });
        for (const auto& [run, why] : copied.incomplete) {
            // Left SCHEDULED in the archive by copyStore, never FINISHED with part of its data.
            out.incomplete.push_back("run " + run + " stays: its copy in " + archive->displayUri() +
                                     " is not whole (" + why + "), so it is SCHEDULED there");
            chosen.erase(run);
        }
        out.kept.insert(out.kept.end(), out.incomplete.begin(), out.incomplete.end());
        const int64_t dropBefore = std::min<int64_t>(beforeMs, std::time(nullptr) * int64_t(1000));
        pqxx::connection watch = pg::watchConnection(uri);
        const size_t keptBefore = out.kept.size();
        std::set<std::string> removed;
        const pg::LockedWork locked = pg::withShortLockWaits(
            c, watch, "radt store archive: dropping the archived partitions",
            "nothing was removed from " + source->displayUri() +
                " (the archive holds the copies: run it again)",
            patience, [&](pqxx::work& tx, const std::function<void()>& locking) {
                // A try made again starts from the same runs: what an earlier try found is undone.
                out.kept.resize(keptBefore);
                removed = chosen;
                // The runs locked (their metrics, params and tags writers wait on the foreign key's
                // share lock), then each compared with its copy as it is now.
                tx.exec_params("SELECT 1 FROM runs WHERE run_uuid = ANY($1::text[]) FOR UPDATE",
                               uuidArray(removed));
                out.samples = keepUnlessWhole(*source, *archive, removed, out.kept);
                removeArchived(tx, removed, dropBefore, locking, out.dropped);
            });
        out.heldMs = locked.heldMs;
        out.lockTries = locked.tries;
        out.failedHeldMs = locked.failedHeldMs;
        out.runs = removed.size();
    } catch (const pqxx::sql_error& e) {
        throw StoreError("radt store archive: removing the archived runs from " + source->displayUri() +
                         " failed, so all of them stay there (the archive holds copies): " + e.what());
    }
    return out;
}

} // namespace radt
