// SPDX-License-Identifier: MIT
#include "core/store/sqlite/SqliteStore.h"

#include <cstdio>

#include "core/base/Uuid.h"
#include "core/store/MlflowLimits.h"
#include "core/store/RunFilterSql.h"
#include "core/store/sqlite/SqliteStatement.h"
#include "core/store/sqlite/SqliteStoreRoles.h"
#include "core/store/sqlite/SqliteStoreTransaction.h"

#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace radt {

extern const char* const kMlflowSqliteSchema; // generated from schema/mlflow_sqlite_<version>.sql
extern const char* const kMlflowSqliteSchemaVersion;

namespace fs = std::filesystem;

namespace {

constexpr double kMlflowMaxFloat = 1.7976931348623157e308; // what MLflow stores for +-inf

// Explorer read index: covers (run, key) series reads in time order. MLflow ignores it.
constexpr const char* kReadIndexSql = "CREATE INDEX IF NOT EXISTS radt_metrics_run_key_time ON metrics "
                                      "(run_uuid, \"key\", timestamp, step, value, is_nan)";

const char* const kRequiredTables[] = {"experiments", "runs", "metrics", "params", "tags"};

bool betterLatest(int64_t step, int64_t ts, double value, const LatestMetric& than) {
    if (step != than.step)
        return step > than.step;
    if (ts != than.timestamp)
        return ts > than.timestamp;
    return value > than.value;
}

} // namespace

const char* SqliteStore::schemaVersion() {
    return kMlflowSqliteSchemaVersion;
}

SqliteStore::SqliteStore(const StoreUri& uri, OpenMode mode)
    : m_uri(uri), m_curation(std::make_unique<SqliteCuration>(*this)),
      m_maintenance(std::make_unique<SqliteMaintenance>(*this)),
      m_envelopes(std::make_unique<SqliteEnvelopeCache>(*this)) {
    openFile(mode);
}

StoreCuration& SqliteStore::curation() {
    return *m_curation;
}

StoreMaintenance& SqliteStore::maintenance() {
    return *m_maintenance;
}

EnvelopeCache& SqliteStore::envelopes() {
    return *m_envelopes;
}

SqliteStore::~SqliteStore() {
    m_insertMetric.reset();
    m_upsertLatest.reset();
    sqlite3_close_v2(m_db);
}

void SqliteStore::openFile(OpenMode mode) {
    const std::string shown = m_uri.display();
    std::error_code ec;
    const fs::path path = fs::absolute(m_uri.path, ec);
    m_path = path.string();
    const bool exists = fs::exists(path, ec);
    if (exists && fs::is_directory(path, ec))
        throw StoreError("cannot open store " + shown + ": " + m_path + " is a directory, not a SQLite file");
    if (!exists) {
        if (mode != OpenMode::CreateIfMissing)
            throw StoreError("cannot open store " + shown + ": no such file " + m_path);
        if (!fs::is_directory(path.parent_path(), ec))
            throw StoreError("cannot create store " + shown + ": directory " + path.parent_path().string() +
                             " does not exist");
    } else if (::access(m_path.c_str(), R_OK) != 0) {
        throw StoreError("cannot open store " + shown + ": " + m_path +
                         " is not readable (permission denied)");
    }

    // A store we may not write (a read-only file or folder, someone else's share) is opened for
    // reading: listing and charts work, writes fail naming the file.
    const bool writable =
        !exists || (::access(m_path.c_str(), W_OK) == 0 && ::access(path.parent_path().c_str(), W_OK) == 0);
    const int flags = SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
    if (!writable || mode == OpenMode::ReadOnly)
        openReadOnly(shown);
    else if (sqlite3_open_v2(m_path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        throw StoreError("cannot open store " + shown + ": " + message);
    }
    sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
    // Each b-tree page is checked as it is read: a damaged index page otherwise reads as fewer
    // rows, without an error (a report gave 56 kJ for 62 kJ). Then it is "malformed", an error.
    sqlite3_exec(m_db, "PRAGMA cell_size_check=ON", nullptr, nullptr, nullptr);
    try {
        // Reading the schema is the first access: it fails here for files that are not SQLite.
        bool empty = false;
        {
            SqliteStatement tables(m_db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
            tables.step();
            empty = tables.int64(0) == 0;
        } // finalized here: an open read would keep the journal mode from switching to WAL
        if (empty && exists && mode != OpenMode::CreateIfMissing)
            throw StoreError("cannot open store " + shown + ": " + m_path +
                             " is an empty SQLite database, not an MLflow tracking store");
        if (empty)
            createSchema();
        checkIsMlflowStore();
        detectColumns();
        configureConnection();
        struct stat opened {};
        if (::stat(m_path.c_str(), &opened) == 0) {
            m_device = opened.st_dev;
            m_inode = opened.st_ino;
        }
    } catch (const StoreError& e) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        if (!exists) { // never leave a half-made file behind
            fs::remove(path, ec);
            fs::remove(m_path + "-journal", ec);
        }
        const std::string what = e.what();
        if (what.find("file is not a database") != std::string::npos)
            throw StoreError("cannot open store " + shown + ": " + m_path + " is not a SQLite database");
        throw;
    }
}

std::string SqliteStore::fileProblem() const {
    // SQLite keeps its descriptor of the file as opened, so its inode cannot be reused meanwhile.
    struct stat now {};
    if (::stat(m_path.c_str(), &now) != 0)
        return "the store file " + m_path + " was deleted while radt wrote to it";
    if (uint64_t(now.st_dev) != m_device || uint64_t(now.st_ino) != m_inode)
        return "the store file " + m_path + " was replaced by another file while radt wrote to it";
    return {};
}

void SqliteStore::openReadOnly(const std::string& shown) {
    std::string escaped;
    for (const char c : m_path) {
        if (c == '%' || c == '?' || c == '#') {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
            escaped += hex;
        } else {
            escaped += c;
        }
    }
    // mode=ro reads like any reader: committed data only, waiting out a writer's lock. immutable=1
    // tells SQLite that nobody writes the file, so it takes no locks and reads whatever is there,
    // uncommitted pages included: only for a store in a folder we cannot write (read-only media, a
    // share), where a WAL store's -shm cannot be made and mode=ro cannot read it.
    const bool folderWritable = ::access(fs::path(m_path).parent_path().c_str(), W_OK) == 0;
    for (const char* query : {"?mode=ro", "?immutable=1"}) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        const std::string uri = "file:" + escaped + query;
        if (sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK)
            continue;
        sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
        const int rc =
            sqlite3_exec(m_db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) & 0xff;
        if (rc == SQLITE_OK) {
            m_readOnly = true;
            return;
        }
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
            sqlite3_close_v2(m_db);
            m_db = nullptr;
            throw StoreError("cannot open store " + shown + " for reading: " + m_path +
                             " is busy (another process held a lock on it for " +
                             std::to_string(kBusyTimeoutMs / 1000) + " s); try again when it is done");
        }
        if (folderWritable)
            break; // not a read-only medium: the error stands, immutable would hide a writer
    }
    const std::string message = m_db ? sqlite3_errmsg(m_db) : "out of memory";
    sqlite3_close_v2(m_db);
    m_db = nullptr;
    throw StoreError("cannot open store " + shown + " for reading: " + message + " (" + m_path + ")");
}

void SqliteStore::checkIsMlflowStore() {
    SqliteStatement stmt(m_db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    for (const char* table : kRequiredTables) {
        stmt.bind(1, std::string(table));
        const bool found = stmt.step();
        stmt.reset();
        if (!found)
            throw StoreError("cannot open store " + m_uri.display() + ": " + m_path +
                             " is a SQLite database but not an MLflow tracking store (table '" + table +
                             "' is missing)");
    }
}

void SqliteStore::createSchema() {
    Transaction tx(m_db);
    {
        // Another process may have created the store while we waited for the write lock (two
        // radt started at once on a new store): then it is made, and ours would collide with it.
        SqliteStatement tables(m_db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
        tables.step();
        if (tables.int64(0) > 0)
            return;
    }
    sqliteExec(m_db, kMlflowSqliteSchema, "cannot create the MLflow schema in " + m_path);
    SqliteStatement version(m_db, "INSERT INTO alembic_version (version_num) VALUES (?)");
    version.bind(1, std::string(kMlflowSqliteSchemaVersion)).execute();
    const int64_t now = nowMs();
    SqliteStatement experiment(m_db, "INSERT INTO experiments (experiment_id, name, artifact_location, "
                                     "lifecycle_stage, creation_time, last_update_time) "
                                     "VALUES (0, 'Default', ?, 'active', ?, ?)");
    experiment.bind(1, artifactRoot() + "/0").bind(2, now).bind(3, now).execute();
    sqliteExec(m_db, kReadIndexSql, "cannot create the explorer's read index");
    tx.commit();
}

void SqliteStore::detectColumns() {
    for (const char* table : {"experiments", "runs", "metrics", "latest_metrics"}) {
        SqliteStatement stmt(m_db, std::string("PRAGMA table_info(\"") + table + "\")");
        while (stmt.step())
            m_columns[table].insert(stmt.text(1));
    }
    m_hasLatestMetrics = !m_columns["latest_metrics"].empty();
}

std::string SqliteStore::columnOr(const std::string& table, const std::string& column,
                                  const std::string& fallback) const {
    auto it = m_columns.find(table);
    return it != m_columns.end() && it->second.count(column) ? column : fallback;
}

void SqliteStore::configureConnection() {
    // WAL lets the explorer read while radt writes; NORMAL sync is safe with WAL against crashes.
    // Both fail harmlessly on a read-only file, which the explorer can still read.
    if (!m_readOnly) {
        sqlite3_exec(m_db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
        sqlite3_exec(m_db, "PRAGMA synchronous=NORMAL", nullptr, nullptr, nullptr);
    }
    // The explorer's read index: added to a store another tool made, which is a change to it, so
    // the caller says so once. Never on a store opened read-only (by choice or by permissions).
    if (!m_readOnly && m_columns["metrics"].count("step") && m_columns["metrics"].count("is_nan")) {
        auto hasIndex = [this] {
            SqliteStatement find(m_db, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = "
                                       "'radt_metrics_run_key_time'");
            return find.step();
        };
        if (!hasIndex() && sqlite3_exec(m_db, kReadIndexSql, nullptr, nullptr, nullptr) == SQLITE_OK &&
            hasIndex())
            m_notice = "added the index radt_metrics_run_key_time to " + m_path +
                       " for fast series reads (MLflow ignores it; --read-only opens a store without it)";
    }

    // Older MLflow generations lack step / is_nan in metrics: write only what the table has.
    const bool hasStep = m_columns["metrics"].count("step");
    const bool hasNan = m_columns["metrics"].count("is_nan");
    std::string sql = "INSERT OR IGNORE INTO metrics (\"key\", value, timestamp, run_uuid";
    sql += hasStep ? ", step" : "";
    sql += hasNan ? ", is_nan" : "";
    sql += ") VALUES (?1, ?2, ?3, ?4";
    sql += hasStep ? ", ?5" : "";
    sql += hasNan ? ", ?6" : "";
    sql += ")";
    m_insertMetric = std::make_unique<SqliteStatement>(m_db, sql);
    if (m_hasLatestMetrics) {
        m_upsertLatest = std::make_unique<SqliteStatement>(
            m_db, "INSERT INTO latest_metrics (\"key\", value, timestamp, step, is_nan, run_uuid) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (\"key\", run_uuid) DO UPDATE SET "
                  "value = excluded.value, timestamp = excluded.timestamp, step = excluded.step, "
                  "is_nan = excluded.is_nan WHERE (excluded.step, excluded.timestamp, excluded.value) > "
                  "(latest_metrics.step, latest_metrics.timestamp, latest_metrics.value)");
    }
}

std::string SqliteStore::artifactRoot() const {
    return (fs::path(m_path).parent_path() / "radt-artifacts").string();
}

int64_t SqliteStore::getOrCreateExperiment(const std::string& name) {
    mlflow::validateExperimentName(name);
    Transaction tx(m_db);
    // MLflow 3 stores: names are unique per workspace; ours is the default one.
    SqliteStatement find(
        m_db, std::string("SELECT experiment_id, lifecycle_stage FROM experiments WHERE name = ?") +
                  (m_columns["experiments"].count("workspace") ? " AND workspace = 'default'" : ""));
    find.bind(1, name);
    if (find.step()) {
        const int64_t id = find.int64(0);
        if (find.text(1) == "deleted")
            throw StoreError("experiment '" + name + "' (id " + std::to_string(id) +
                             ") is deleted; restore it in MLflow or choose another name");
        return id;
    }
    SqliteStatement nextId(m_db, "SELECT coalesce(max(experiment_id), -1) + 1 FROM experiments");
    nextId.step();
    const int64_t id = nextId.int64(0);
    const int64_t now = nowMs();
    const std::string columns = m_columns["experiments"].count("creation_time")
                                    ? ", creation_time, last_update_time) VALUES (?, ?, ?, 'active', ?, ?)"
                                    : ") VALUES (?, ?, ?, 'active')";
    SqliteStatement insert(m_db, "INSERT INTO experiments (experiment_id, name, artifact_location, "
                                 "lifecycle_stage" +
                                     columns);
    insert.bind(1, id).bind(2, name).bind(3, artifactRoot() + "/" + std::to_string(id));
    if (m_columns["experiments"].count("creation_time"))
        insert.bind(4, now).bind(5, now);
    insert.execute();
    tx.commit();
    return id;
}

Run SqliteStore::createRun(const NewRun& spec) {
    mlflow::validateRunName(spec.name);
    Run run = newRunFor(spec, artifactRoot());

    {
        // Scoped: the experiment lookup stops between rows, and a statement left so would keep
        // its snapshot into setTags' transaction below.
        Transaction tx(m_db);
        SqliteStatement exp(m_db, "SELECT lifecycle_stage FROM experiments WHERE experiment_id = ?");
        exp.bind(1, spec.experimentId);
        if (!exp.step())
            throw StoreError("cannot create run: experiment " + std::to_string(spec.experimentId) +
                             " does not exist in " + m_uri.display());
        exp.reset();
        SqliteStatement insert(
            m_db, "INSERT INTO runs (run_uuid, name, source_type, source_name, entry_point_name, "
                  "user_id, status, start_time, end_time, source_version, lifecycle_stage, "
                  "artifact_uri, experiment_id) "
                  "VALUES (?, ?, 'LOCAL', ?, '', ?, ?, ?, NULL, '', 'active', ?, ?)");
        insert.bind(1, run.uuid).bind(2, run.name).bind(3, spec.sourceName).bind(4, spec.userId);
        insert.bind(5, std::string(toString(run.status))).bind(6, run.startTime).bind(7, run.artifactUri);
        insert.bind(8, spec.experimentId).execute();
        tx.commit();
    }

    setTags(run.uuid, mlflowRunTags(spec));
    return run;
}

void SqliteStore::requireRun(const std::string& runUuid) {
    SqliteStatement stmt(m_db, "SELECT 1 FROM runs WHERE run_uuid = ?");
    stmt.bind(1, runUuid);
    if (!stmt.step())
        throw StoreError("run '" + runUuid + "' not found in " + m_uri.display());
}

void SqliteStore::setRunStatus(const std::string& runUuid, RunStatus status, std::optional<int64_t> endTime) {
    Transaction tx(m_db);
    requireRun(runUuid);
    SqliteStatement update(m_db, "UPDATE runs SET status = ?, end_time = ? WHERE run_uuid = ?");
    update.bind(1, std::string(toString(status)));
    if (endTime)
        update.bind(2, *endTime);
    else
        update.bindNull(2);
    update.bind(3, runUuid).execute();
    tx.commit();
}

void SqliteStore::logParams(const std::string& runUuid,
                            const std::vector<std::pair<std::string, std::string>>& params) {
    for (const auto& [key, value] : params) {
        mlflow::validateKey(key, "param");
        mlflow::validateParamValue(key, value);
    }
    Transaction tx(m_db);
    requireRun(runUuid);
    SqliteStatement insert(m_db, "INSERT INTO params (\"key\", value, run_uuid) VALUES (?, ?, ?) "
                                 "ON CONFLICT (\"key\", run_uuid) DO NOTHING");
    SqliteStatement existing(m_db, "SELECT value FROM params WHERE \"key\" = ? AND run_uuid = ?");
    for (const auto& [key, value] : params) {
        insert.bind(1, key).bind(2, value).bind(3, runUuid).execute();
        if (sqlite3_changes(m_db) == 0) {
            existing.bind(1, key).bind(2, runUuid);
            existing.step();
            const std::string old = existing.text(0);
            existing.reset();
            if (old != value)
                throw StoreError("param '" + key + "' of run " + runUuid + " is already '" + old +
                                 "'; MLflow params cannot change (new value '" + value + "')");
        }
    }
    tx.commit();
}

void SqliteStore::setTags(const std::string& runUuid,
                          const std::vector<std::pair<std::string, std::string>>& tags) {
    for (const auto& [key, value] : tags) {
        mlflow::validateKey(key, "tag");
        mlflow::validateTagValue(key, value);
    }
    Transaction tx(m_db);
    requireRun(runUuid);
    SqliteStatement upsert(m_db, "INSERT INTO tags (\"key\", value, run_uuid) VALUES (?, ?, ?) "
                                 "ON CONFLICT (\"key\", run_uuid) DO UPDATE SET value = excluded.value");
    for (const auto& [key, value] : tags)
        upsert.bind(1, key).bind(2, value).bind(3, runUuid).execute();
    tx.commit();
}

void SqliteStore::logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    if (points.empty())
        return;
    for (const MetricPoint& p : points) {
        if (m_validatedKeys.count(p.key))
            continue;
        mlflow::validateKey(p.key, "metric");
        m_validatedKeys.insert(p.key);
    }
    struct Latest {
        LatestMetric m;
        bool isNan = false;
    };
    std::map<std::string, Latest> latest;

    Transaction tx(m_db);
    requireRun(runUuid);
    SqliteStatement& insert = *m_insertMetric;
    for (const MetricPoint& p : points) {
        // MLflow's encoding: NaN as 0 with is_nan = 1, +-inf as +-max float.
        const bool isNan = std::isnan(p.value);
        double value = isNan ? 0.0 : p.value;
        if (std::isinf(value))
            value = value > 0 ? kMlflowMaxFloat : -kMlflowMaxFloat;
        insert.bindNoCopy(1, p.key).bind(2, value).bind(3, p.timestamp).bindNoCopy(4, runUuid);
        insert.bind(5, p.step).bind(6, static_cast<int64_t>(isNan));
        insert.execute();
        auto it = latest.find(p.key);
        if (it == latest.end())
            latest.emplace(p.key, Latest{{value, p.timestamp, p.step}, isNan});
        else if (betterLatest(p.step, p.timestamp, value, it->second.m))
            it->second = Latest{{value, p.timestamp, p.step}, isNan};
    }
    if (m_upsertLatest) {
        for (const auto& [key, l] : latest) {
            m_upsertLatest->bind(1, key).bind(2, l.m.value).bind(3, l.m.timestamp).bind(4, l.m.step);
            m_upsertLatest->bind(5, static_cast<int64_t>(l.isNan)).bind(6, runUuid);
            m_upsertLatest->execute();
        }
    }
    tx.commit();
}

std::vector<Experiment> SqliteStore::experiments() {
    return queryExperiments("active");
}

std::vector<Experiment> SqliteStore::queryExperiments(const char* lifecycle) {
    SqliteStatement stmt(m_db, "SELECT experiment_id, name, artifact_location, lifecycle_stage, " +
                                   columnOr("experiments", "creation_time", "NULL") +
                                   " FROM experiments WHERE lifecycle_stage = ? ORDER BY experiment_id");
    stmt.bind(1, std::string(lifecycle));
    std::vector<Experiment> result;
    while (stmt.step())
        result.push_back({stmt.int64(0), stmt.text(1), stmt.text(2), stmt.text(3), stmt.int64(4)});
    return result;
}

std::optional<Experiment> SqliteStore::experimentById(int64_t id) {
    SqliteStatement stmt(m_db, "SELECT experiment_id, name, artifact_location, lifecycle_stage, " +
                                   columnOr("experiments", "creation_time", "NULL") +
                                   " FROM experiments WHERE experiment_id = ?");
    stmt.bind(1, id);
    if (!stmt.step())
        return std::nullopt;
    return Experiment{stmt.int64(0), stmt.text(1), stmt.text(2), stmt.text(3), stmt.int64(4)};
}

std::vector<Run> SqliteStore::queryRuns(const std::string& where, const std::optional<std::string>& bindValue,
                                        bool bindInt, const char* lifecycle) {
    auto bindFilter = [&](SqliteStatement& stmt) {
        if (where.empty() || !bindValue)
            return;
        if (bindInt)
            stmt.bind(1, static_cast<int64_t>(std::stoll(*bindValue)));
        else
            stmt.bind(1, *bindValue);
    };
    const std::string filter = " WHERE r.lifecycle_stage = '" + std::string(lifecycle) + "'" +
                               (where.empty() ? "" : " AND " + where);
    SqliteStatement runs(m_db,
                         "SELECT r.run_uuid, r.name, r.experiment_id, r.status, r.start_time, r.end_time, "
                         "r.artifact_uri FROM runs r" +
                             filter + " ORDER BY r.start_time, r.run_uuid");
    bindFilter(runs);
    std::vector<Run> result;
    std::map<std::string, size_t> index;
    while (runs.step()) {
        Run run;
        run.uuid = runs.text(0);
        run.name = runs.text(1);
        run.experimentId = runs.int64(2);
        run.status = runStatusFromString(runs.text(3)).value_or(RunStatus::Running);
        run.startTime = runs.int64(4);
        if (!runs.isNull(5))
            run.endTime = runs.int64(5);
        run.artifactUri = runs.text(6);
        index[run.uuid] = result.size();
        result.push_back(std::move(run));
    }
    for (const char* table : {"params", "tags"}) {
        SqliteStatement kv(m_db, std::string("SELECT t.run_uuid, t.\"key\", t.value FROM ") + table +
                                     " t JOIN runs r ON r.run_uuid = t.run_uuid" + filter);
        bindFilter(kv);
        const bool isParams = table[0] == 'p';
        while (kv.step()) {
            auto it = index.find(kv.text(0));
            if (it == index.end())
                continue;
            Run& run = result[it->second];
            (isParams ? run.params : run.tags)[kv.text(1)] = kv.text(2);
        }
    }
    for (Run& run : result) {
        if (run.name.empty())
            run.name = run.tags.count("mlflow.runName") ? run.tags["mlflow.runName"] : run.uuid;
    }
    return result;
}

std::vector<Run> SqliteStore::runs(std::optional<int64_t> experimentId) {
    if (experimentId)
        return queryRuns("r.experiment_id = ?", std::to_string(*experimentId), true);
    return queryRuns("", "", false);
}

std::vector<Run> SqliteStore::searchRuns(const std::vector<RunCondition>& conditions,
                                         std::optional<int64_t> experimentId) {
    // The database finds them: no run is read that does not match.
    const std::string filter = runFilterSql(conditions, SqlDialect::Sqlite, m_hasLatestMetrics, "r");
    if (experimentId)
        return queryRuns("r.experiment_id = ? AND " + filter, std::to_string(*experimentId), true);
    return queryRuns(filter, std::nullopt, false);
}

std::optional<Run> SqliteStore::run(const std::string& runUuid) {
    auto found = queryRuns("r.run_uuid = ?", runUuid, false);
    if (found.empty())
        return std::nullopt;
    return found.front();
}

std::vector<std::string> SqliteStore::metricKeys(const std::vector<std::string>& runUuids) {
    // latest_metrics has one row per (key, run): far cheaper than DISTINCT over every sample.
    SqliteStatement stmt(m_db, std::string("SELECT DISTINCT \"key\" FROM ") +
                                   (m_hasLatestMetrics ? "latest_metrics" : "metrics") +
                                   " WHERE run_uuid = ?");
    std::set<std::string> keys;
    for (const std::string& uuid : runUuids) {
        stmt.bind(1, uuid);
        while (stmt.step())
            keys.insert(stmt.text(0));
        stmt.reset();
    }
    return {keys.begin(), keys.end()};
}

std::map<std::string, LatestMetric> SqliteStore::latestMetrics(const std::string& runUuid) {
    const std::string nan = columnOr("metrics", "is_nan", "0");
    const std::string step = columnOr("metrics", "step", "0");
    const std::string sql =
        m_hasLatestMetrics
            ? "SELECT \"key\", value, timestamp, step, is_nan FROM latest_metrics WHERE run_uuid = ?"
            : "SELECT \"key\", value, timestamp, " + step + ", " + nan + " FROM metrics WHERE run_uuid = ?";
    SqliteStatement stmt(m_db, sql);
    stmt.bind(1, runUuid);
    std::map<std::string, LatestMetric> result;
    while (stmt.step()) {
        const double value = stmt.int64(4) ? std::numeric_limits<double>::quiet_NaN() : stmt.real(1);
        LatestMetric m{value, stmt.int64(2), stmt.int64(3)};
        auto it = result.find(stmt.text(0));
        if (it == result.end())
            result.emplace(stmt.text(0), m);
        else if (betterLatest(m.step, m.timestamp, stmt.int64(4) ? 0.0 : m.value, it->second))
            it->second = m;
    }
    return result;
}

Series SqliteStore::series(const std::string& runUuid, const std::string& key) {
    return querySeries(runUuid, key, std::nullopt);
}

Series SqliteStore::seriesRange(const std::string& runUuid, const std::string& key, int64_t fromMs,
                                int64_t toMs) {
    return querySeries(runUuid, key, std::make_pair(fromMs, toMs));
}

Series SqliteStore::querySeries(const std::string& runUuid, const std::string& key,
                                std::optional<std::pair<int64_t, int64_t>> range) {
    // Whole series without a range test: the bound check per row costs measurably at 1M points.
    const std::string step = columnOr("metrics", "step", "0");
    SqliteStatement stmt(
        m_db, "SELECT timestamp, " + step + ", value, " + columnOr("metrics", "is_nan", "0") +
                  " FROM metrics WHERE run_uuid = ? AND \"key\" = ?" +
                  (range ? " AND timestamp BETWEEN ? AND ?" : "") + " ORDER BY timestamp, " + step);
    stmt.bind(1, runUuid).bind(2, key);
    if (range)
        stmt.bind(3, range->first).bind(4, range->second);
    // No up-front reserve: 16k points per series made every one-point series of a run with a
    // million keys hold ~13 KB (radt report took 13.5 GB). Growth by doubling, a long series on
    // huge pages: its page faults were a third of reading 1M points (series_read_ratio); the
    // capacity past the end is given back once read (else a long series' last huge page stays whole).
    Series s;
    sqlite3_stmt* h = stmt.handle();
    while (stmt.step())
        s.append(sqlite3_column_int64(h, 0), sqlite3_column_int64(h, 1),
                 sqlite3_column_int64(h, 3) ? std::numeric_limits<double>::quiet_NaN()
                                            : sqlite3_column_double(h, 2));
    s.releaseUnusedCapacity();
    return s;
}

} // namespace radt
