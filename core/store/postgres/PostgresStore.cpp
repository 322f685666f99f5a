// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresStore.h"
#include "core/store/postgres/PostgresStoreConnection.h"
#include "core/store/postgres/PostgresStoreRoles.h"

#include "core/base/Uuid.h"
#include "core/store/MlflowLimits.h"
#include "core/store/RunFilterSql.h"
#include "core/store/postgres/PostgresEnvelopes.h"
#include "core/store/postgres/PostgresMetricWrites.h"
#include "core/store/postgres/PostgresPartitions.h"
#include "core/store/postgres/PostgresReplication.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <tuple>

namespace radt {

extern const char* const kMlflowPostgresSchema;
extern const char* const kMlflowSqliteSchemaVersion;

namespace {

constexpr double kMlflowMaxFloat = 1.7976931348623157e308;

/// The tables of the current schema, and what this role may do with MLflow's.
struct TableAccess {
    std::set<std::string> names;
    bool mayRead = true, mayWrite = true, ownsMetrics = false;
};

TableAccess tableAccess(pqxx::work& tx) {
    // pg_tables lists every table, whatever this role may do with it (information_schema only
    // those it has a privilege on: a role without grants saw "the database is empty").
    const pqxx::result tables =
        tx.exec("SELECT tablename, has_table_privilege(quote_ident(tablename), 'SELECT'), "
                "has_table_privilege(quote_ident(tablename), 'INSERT'), "
                "pg_has_role(tableowner, 'USAGE') FROM pg_tables WHERE schemaname = current_schema()");
    TableAccess access;
    for (const auto& row : tables) {
        const std::string name = row[0].as<std::string>();
        access.names.insert(name);
        if (name == "runs" || name == "metrics" || name == "experiments") {
            access.mayRead = access.mayRead && row[1].as<bool>();
            access.mayWrite = access.mayWrite && row[2].as<bool>();
        }
        if (name == "metrics")
            access.ownsMetrics = row[3].as<bool>();
    }
    return access;
}

/// An empty database made a store: MLflow's own schema, then what MLflow's first start inserts.
void createMlflowSchema(pqxx::work& tx, const std::string& artifactRoot) {
    tx.exec(kMlflowPostgresSchema);
    // metrics partitioned by time (§4 "Partitions"), under MLflow's names; a week per
    // partition unless RADT_PARTITION_PERIOD says day, or none (MLflow's plain table).
    const char* periodEnv = std::getenv("RADT_PARTITION_PERIOD");
    const std::string periodText = periodEnv && *periodEnv ? periodEnv : "week";
    const auto period = pg::parsePeriod(periodText);
    if (!period && periodText != "none")
        throw StoreError("RADT_PARTITION_PERIOD is '" + periodText +
                         "': expected day, week or none (the metrics table's partitions)");
    if (period) {
        pg::makePartitionedTwin(tx, "metrics", "radt_metrics_partitioned");
        pg::swapInTwin(tx, "metrics", "radt_metrics_partitioned");
        pg::storePeriod(tx, *period);
    }
    tx.exec_params("INSERT INTO alembic_version (version_num) VALUES ($1)",
                   std::string(kMlflowSqliteSchemaVersion));
    const int64_t now = nowMs();
    tx.exec_params("INSERT INTO experiments (experiment_id, name, artifact_location, lifecycle_stage, "
                   "creation_time, last_update_time) VALUES (0, 'Default', $1, 'active', $2, $2)",
                   artifactRoot + "/0", now);
}

/// The explorer reads whole series by (run, key) ordered by time: one covering index, added to a
/// store another tool made when this role owns metrics. Whether it was there already.
bool ensureReadIndex(pqxx::work& tx, bool ownsMetrics) {
    // Looked up first: CREATE INDEX IF NOT EXISTS checks ownership of the table before it checks
    // for the index.
    const bool hadIndex = !tx.exec("SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND "
                                   "indexname = 'radt_metrics_run_key_time'")
                               .empty();
    if (!hadIndex && ownsMetrics)
        tx.exec("CREATE INDEX IF NOT EXISTS radt_metrics_run_key_time ON metrics "
                "(run_uuid, \"key\", timestamp, step) INCLUDE (value, is_nan)");
    return hadIndex;
}

/// A partitioned metrics table's bounded partitions, after making those ahead of the clock.
std::vector<std::pair<int64_t, int64_t>> partitionsAhead(pqxx::work& tx, pg::PartitionPeriod period,
                                                         bool ownsMetrics) {
    // Partitions ahead of the clock, made by the table's owner; another role's rows go to
    // the default partition until the owner opens the store.
    if (ownsMetrics) {
        // A store that cannot make them now (a reader holds the default partition past the
        // lock timeout) still opens: its batches make them later, or go to the default.
        try {
            pqxx::subtransaction ahead(tx, "partitions ahead");
            pg::createPartitions(ahead, "metrics", "metrics", period, pg::aheadTimestamps(period, nowMs()));
            ahead.commit();
        } catch (const pqxx::sql_error&) {
        }
    }
    return pg::partitionRanges(tx, "metrics");
}

/// What opening a store without the read index said (once, by the caller).
std::string readIndexNotice(bool ownsMetrics, const std::string& role, const std::string& store) {
    return ownsMetrics ? "added the index radt_metrics_run_key_time to " + store +
                             " for fast series reads (MLflow ignores it; --read-only opens a store "
                             "without it)"
                       : "role '" + role + "' does not own the metrics table of " + store +
                             ", so the read index radt_metrics_run_key_time was not added: series "
                             "reads are slower (its owner can add it by opening the store once)";
}

} // namespace

std::string PostgresStore::connectionString(const StoreUri& uri) {
    // postgresql+psycopg2://... is SQLAlchemy's spelling (MLflow's); libpq wants postgresql://.
    const auto schemeEnd = uri.text.find("://");
    return "postgresql" + uri.text.substr(schemeEnd);
}

PostgresStore::PostgresStore(const StoreUri& uri, OpenMode mode)
    : m_uri(uri), m_readOnly(mode == OpenMode::ReadOnly),
      m_curation(std::make_unique<PostgresStoreCuration>(*this)),
      m_maintenance(std::make_unique<PostgresStoreMaintenance>(*this)),
      m_envelopes(std::make_unique<PostgresEnvelopeCache>(*this)) {
    connect();
    checkOrCreateSchema(mode);
}

StoreCuration& PostgresStore::curation() {
    return *m_curation;
}

StoreMaintenance& PostgresStore::maintenance() {
    return *m_maintenance;
}

EnvelopeCache& PostgresStore::envelopes() {
    return *m_envelopes;
}

PostgresStore::~PostgresStore() = default;

void PostgresStore::connect() {
    try {
        m_conn = std::make_unique<Connection>(connectionString(m_uri));
    } catch (const std::exception& e) {
        m_conn.reset();
        throw StoreError("cannot connect to " + m_uri.display() + ": " + trimmed(e.what()));
    }
    pqxx::work tx(m_conn->c);
    // A streaming replica (hot standby) replays its primary and accepts no write, not even a
    // temporary table: the session only reads (checkOrCreateSchema says so, or refuses a recording).
    m_standby = tx.exec1("SELECT pg_is_in_recovery()")[0].as<bool>();
    // A session-private staging table for COPY: duplicates and latest_metrics are then resolved
    // with one INSERT ... SELECT each, inside the batch's transaction. A reader never stages.
    if (!m_readOnly && !m_standby)
        tx.exec("CREATE TEMP TABLE IF NOT EXISTS radt_metrics_in (\"key\" VARCHAR(250), value FLOAT(53), "
                "timestamp BIGINT, run_uuid VARCHAR(32), step BIGINT, is_nan BOOLEAN) ON COMMIT DELETE ROWS");
    if (m_readOnly || m_standby) // --read-only or a replica: this session writes nothing
        tx.exec("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
    tx.commit();
    m_conn->c.prepare(pg::kUpsertLatest, pg::kUpsertLatestSql);
}

void PostgresStore::checkOrCreateSchema(OpenMode mode) {
    withConnection("checking the schema", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        TableAccess access = tableAccess(tx);
        const std::set<std::string>& names = access.names;
        if (m_standby && mode == OpenMode::CreateIfMissing)
            throw StoreError("cannot record into " + m_uri.display() +
                             ": it is a standby server (a streaming replica), which only reads; record into "
                             "its primary, and point readers (radt-explorer --read-only) here");
        if (names.empty()) {
            if (mode != OpenMode::CreateIfMissing)
                throw StoreError("cannot open store " + m_uri.display() +
                                 ": the database is empty, not an MLflow tracking database");
            createMlflowSchema(tx, artifactRoot());
            access.mayRead = access.mayWrite = access.ownsMetrics = true;
        } else {
            for (const char* required :
                 {"experiments", "runs", "metrics", "params", "tags", "alembic_version"})
                if (!names.count(required))
                    throw StoreError("cannot open store " + m_uri.display() +
                                     ": not an MLflow tracking database (no table '" + required + "')");
        }
        const std::string role = tx.exec1("SELECT current_user")[0].as<std::string>();
        if (!access.mayRead)
            throw StoreError("cannot open store " + m_uri.display() + ": permission denied: role '" + role +
                             "' may not read its tables (GRANT SELECT on them, or use another role)");
        // MLflow before 1.1 (2019) had no latest_metrics: it is then derived from metrics.
        m_hasLatestMetrics = names.empty() || names.count("latest_metrics");
        if (m_standby) {
            // Runs recorded into the primary appear here as the standby replays them. One whose
            // primary died answers on with the store as it was: said in any mode, with its lag.
            m_readOnly = true;
            if (const std::string stopped = pg::replicationWarning(tx, m_uri.display()); !stopped.empty())
                m_notice = stopped;
            else if (mode == OpenMode::OpenExisting)
                m_notice = m_uri.display() +
                           " is a standby server (a streaming replica): opened read-only, following its "
                           "primary; " +
                           pg::replicationState(tx);
        } else if (!access.mayWrite && mode == OpenMode::OpenExisting) {
            // A reader's role (a lab's dashboard account): everything that only reads works.
            m_readOnly = true;
            tx.exec("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
            m_notice = "role '" + role + "' may only read " + m_uri.display() + ": opened read-only";
        }
        if (m_readOnly || mode == OpenMode::ReadOnly) {
            tx.commit();
            return 0; // no read index: the session is read-only (connect())
        }
        const bool hadIndex = ensureReadIndex(tx, access.ownsMetrics);
        if (pg::isPartitioned(tx, "metrics")) {
            m_partitionPeriod = pg::storedPeriod(tx).value_or(pg::PartitionPeriod::Week);
            m_partitionRanges = partitionsAhead(tx, *m_partitionPeriod, access.ownsMetrics);
        }
        m_mayPartition = access.ownsMetrics;
        m_partitionsCheckedDay = nowMs() / pg::kDayMs;
        tx.commit();
        if (!hadIndex && !names.empty())
            m_notice = readIndexNotice(access.ownsMetrics, role, m_uri.display());
        return 0;
    });
}

std::string PostgresStore::artifactRoot() const {
    if (const char* root = std::getenv("RADT_ARTIFACT_ROOT"); root && *root)
        return root;
    return defaultStoreDir() + "/artifacts";
}

int64_t PostgresStore::getOrCreateExperiment(const std::string& name) {
    mlflow::validateExperimentName(name);
    return withConnection("creating an experiment", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        // MLflow 3 makes names unique per workspace (UNIQUE(workspace, name)) and upgrades stores it
        // opens: a conflict target of (name) no longer matches a constraint there. Without a target,
        // ON CONFLICT DO NOTHING takes whichever unique constraint the generation has, so two
        // collectors creating the same experiment at once still get the same id.
        const bool workspaces =
            !tx.exec("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND "
                     "table_name = 'experiments' AND column_name = 'workspace'")
                 .empty();
        const int64_t now = nowMs();
        tx.exec_params("INSERT INTO experiments (name, artifact_location, lifecycle_stage, creation_time, "
                       "last_update_time) VALUES ($1, '', 'active', $2, $2) ON CONFLICT DO NOTHING",
                       name, now);
        // Ours is the default workspace's (the column's default, where MLflow's clients look).
        const pqxx::row row = tx.exec_params1(
            std::string(
                "SELECT experiment_id, lifecycle_stage, artifact_location FROM experiments WHERE name = $1") +
                (workspaces ? " AND workspace = 'default'" : ""),
            name);
        const int64_t id = row[0].as<int64_t>();
        if (row[1].as<std::string>() == "deleted")
            throw StoreError("experiment '" + name + "' (id " + std::to_string(id) +
                             ") is deleted; restore it in MLflow or choose another name");
        if (row[2].is_null() || row[2].as<std::string>().empty())
            tx.exec_params("UPDATE experiments SET artifact_location = $1 WHERE experiment_id = $2",
                           artifactRoot() + "/" + std::to_string(id), id);
        tx.commit();
        return id;
    });
}

Run PostgresStore::createRun(const NewRun& spec) {
    mlflow::validateRunName(spec.name);
    Run run = newRunFor(spec, artifactRoot());
    withConnection("creating a run", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        if (tx.exec_params("SELECT 1 FROM experiments WHERE experiment_id = $1", spec.experimentId).empty())
            throw StoreError("cannot create run: experiment " + std::to_string(spec.experimentId) +
                             " does not exist in " + m_uri.display());
        tx.exec_params(
            "INSERT INTO runs (run_uuid, name, source_type, source_name, entry_point_name, user_id, "
            "status, start_time, end_time, source_version, lifecycle_stage, artifact_uri, experiment_id) "
            "VALUES ($1, $2, 'LOCAL', $3, '', $4, $5, $6, NULL, '', 'active', $7, $8)",
            run.uuid, run.name, spec.sourceName, spec.userId, std::string(toString(run.status)),
            run.startTime, run.artifactUri, spec.experimentId);
        tx.commit();
        return 0;
    });
    setTags(run.uuid, mlflowRunTags(spec));
    return run;
}

namespace {
void requireRun(pqxx::work& tx, const std::string& runUuid, const std::string& where) {
    if (tx.exec_params("SELECT 1 FROM runs WHERE run_uuid = $1", runUuid).empty())
        throw StoreError("run '" + runUuid + "' not found in " + where);
}
} // namespace

void PostgresStore::setRunStatus(const std::string& runUuid, RunStatus status,
                                 std::optional<int64_t> endTime) {
    withConnection("closing a run", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        requireRun(tx, runUuid, m_uri.display());
        tx.exec_params("UPDATE runs SET status = $1, end_time = $2 WHERE run_uuid = $3",
                       std::string(toString(status)), endTime, runUuid);
        tx.commit();
        return 0;
    });
}

void PostgresStore::logParams(const std::string& runUuid,
                              const std::vector<std::pair<std::string, std::string>>& params) {
    for (const auto& [key, value] : params) {
        mlflow::validateKey(key, "param");
        mlflow::validateParamValue(key, value);
    }
    withConnection("logging params", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        requireRun(tx, runUuid, m_uri.display());
        for (const auto& [key, value] : params) {
            tx.exec_params("INSERT INTO params (\"key\", value, run_uuid) VALUES ($1, $2, $3) "
                           "ON CONFLICT (\"key\", run_uuid) DO NOTHING",
                           key, value, runUuid);
            const std::string old =
                tx.exec_params1("SELECT value FROM params WHERE \"key\" = $1 AND run_uuid = $2", key,
                                runUuid)[0]
                    .as<std::string>();
            if (old != value)
                throw StoreError("param '" + key + "' of run " + runUuid + " is already '" + old +
                                 "'; MLflow params cannot change (new value '" + value + "')");
        }
        tx.commit();
        return 0;
    });
}

void PostgresStore::setTags(const std::string& runUuid,
                            const std::vector<std::pair<std::string, std::string>>& tags) {
    for (const auto& [key, value] : tags) {
        mlflow::validateKey(key, "tag");
        mlflow::validateTagValue(key, value);
    }
    withConnection("setting tags", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        requireRun(tx, runUuid, m_uri.display());
        for (const auto& [key, value] : tags)
            tx.exec_params("INSERT INTO tags (\"key\", value, run_uuid) VALUES ($1, $2, $3) "
                           "ON CONFLICT (\"key\", run_uuid) DO UPDATE SET value = excluded.value",
                           key, value, runUuid);
        tx.commit();
        return 0;
    });
}

void PostgresStore::logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    if (points.empty())
        return;
    for (const MetricPoint& p : points)
        if (!m_validatedKeys.count(p.key)) {
            mlflow::validateKey(p.key, "metric");
            m_validatedKeys.insert(p.key);
        }
    withConnection("writing metrics", [&](pqxx::connection& c) {
        if (m_mayPartition) {
            followPartitioning(points);
            if (m_partitionPeriod)
                extendPartitions(points);
        }
        // The direct path: COPY straight into metrics (PostgreSQL routes each row to its time
        // partition) and latest_metrics from the batch's own latest points. An exact duplicate
        // of a stored row (a batch retried after a lost commit) fails it with a unique violation;
        // the staged path then ignores duplicates as MLflow's primary key makes them.
        // The run's existence is checked by the foreign key, row by row, as the rows go in.
        try {
            pqxx::work tx(c);
            pg::copyPoints(tx, "metrics", runUuid, points);
            if (m_hasLatestMetrics)
                pg::upsertLatest(tx, runUuid, points);
            tx.commit();
            return 0;
        } catch (const pqxx::unique_violation&) {
        } catch (const pqxx::foreign_key_violation&) {
            throw StoreError("run '" + runUuid + "' not found in " + m_uri.display());
        }
        pqxx::work tx(c);
        requireRun(tx, runUuid, m_uri.display());
        pg::copyPoints(tx, "radt_metrics_in", runUuid, points);
        tx.exec("INSERT INTO metrics (\"key\", value, timestamp, run_uuid, step, is_nan) "
                "SELECT \"key\", value, timestamp, run_uuid, step, is_nan FROM radt_metrics_in "
                "ON CONFLICT DO NOTHING");
        if (m_hasLatestMetrics)
            pg::upsertLatest(tx, runUuid, points);
        tx.commit();
        return 0;
    });
}

void PostgresStore::followPartitioning(const std::vector<MetricPoint>& points) {
    // A conversion (radt store partition) or a change of period since this store was opened is
    // looked up at the first batch of each new day of samples: a writer opened before the table
    // was partitioned makes the partitions its later days need instead of filling the default
    // one once the conversion's partitions ahead run out. One catalogue query a day.
    int64_t latest = points.front().timestamp;
    for (const MetricPoint& p : points)
        latest = std::max(latest, p.timestamp);
    // A sample far in the future (a unit error) must not put off the next look for years.
    const int64_t day = std::min(latest / pg::kDayMs, nowMs() / pg::kDayMs + 1);
    if (day <= m_partitionsCheckedDay)
        return;
    try {
        pqxx::read_transaction tx(m_conn->c);
        if (pg::isPartitioned(tx, "metrics")) {
            m_partitionPeriod = pg::storedPeriod(tx).value_or(pg::PartitionPeriod::Week);
            m_partitionRanges = pg::partitionRanges(tx, "metrics");
        } else {
            m_partitionPeriod.reset();
        }
        m_partitionsCheckedDay = day;
    } catch (const pqxx::sql_error&) {
        // Looked up again at the next batch; the rows land all the same.
    }
}

void PostgresStore::extendPartitions(const std::vector<MetricPoint>& points) {
    std::vector<int64_t> timestamps; // the batch's distinct timestamps (a tick's points share one)
    timestamps.reserve(points.size());
    for (const MetricPoint& p : points)
        if (timestamps.empty() || timestamps.back() != p.timestamp)
            timestamps.push_back(p.timestamp);
    std::sort(timestamps.begin(), timestamps.end());
    timestamps.erase(std::unique(timestamps.begin(), timestamps.end()), timestamps.end());
    if (pg::covered(m_partitionRanges, timestamps) || nowMs() < m_partitionRetryAt)
        return;
    try {
        pqxx::work tx(m_conn->c);
        pg::createPartitions(tx, "metrics", "metrics", *m_partitionPeriod, timestamps);
        m_partitionRanges = pg::partitionRanges(tx, "metrics");
        tx.commit();
    } catch (const pqxx::sql_error&) {
        // The batch still lands, in the default partition; this writer tries again in a minute
        // (the ATTACH waited past its lock timeout behind a reader of the default partition).
        m_partitionRetryAt = nowMs() + 60000;
    }
}

std::optional<Experiment> PostgresStore::experimentById(int64_t id) {
    return withConnection("reading an experiment", [&](pqxx::connection& c) -> std::optional<Experiment> {
        pqxx::read_transaction tx(c);
        const pqxx::result rows =
            tx.exec_params("SELECT experiment_id, name, coalesce(artifact_location, ''), "
                           "lifecycle_stage, coalesce(creation_time, 0) FROM experiments "
                           "WHERE experiment_id = $1",
                           id);
        if (rows.empty())
            return std::nullopt;
        const auto row = rows[0];
        return Experiment{row[0].as<int64_t>(), row[1].as<std::string>(), row[2].as<std::string>(),
                          row[3].as<std::string>(), row[4].as<int64_t>()};
    });
}

std::vector<Experiment> PostgresStore::experiments() {
    return queryExperiments("active");
}

std::vector<Experiment> PostgresStore::queryExperiments(const char* lifecycle) {
    return withConnection("reading experiments", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        std::vector<Experiment> result;
        for (const auto& row : tx.exec_params("SELECT experiment_id, name, coalesce(artifact_location, ''), "
                                              "lifecycle_stage, coalesce(creation_time, 0) FROM experiments "
                                              "WHERE lifecycle_stage = $1 ORDER BY experiment_id",
                                              std::string(lifecycle)))
            result.push_back({row[0].as<int64_t>(), row[1].as<std::string>(), row[2].as<std::string>(),
                              row[3].as<std::string>(), row[4].as<int64_t>()});
        return result;
    });
}

std::vector<Run> PostgresStore::queryRuns(const std::string& where, const std::optional<std::string>& value,
                                          const char* lifecycle) {
    return withConnection("reading runs", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        const std::string filter = " WHERE r.lifecycle_stage = '" + std::string(lifecycle) + "'" +
                                   (where.empty() ? "" : " AND " + where);
        auto exec = [&](const std::string& sql) {
            return where.empty() || !value ? tx.exec(sql) : tx.exec_params(sql, *value);
        };
        std::vector<Run> result;
        std::map<std::string, size_t> index;
        for (const auto& row :
             exec("SELECT r.run_uuid, coalesce(r.name, ''), r.experiment_id, r.status, "
                  "coalesce(r.start_time, 0), r.end_time, coalesce(r.artifact_uri, '') FROM runs r" +
                  filter + " ORDER BY r.start_time, r.run_uuid")) {
            Run run;
            run.uuid = row[0].as<std::string>();
            run.name = row[1].as<std::string>();
            run.experimentId = row[2].as<int64_t>();
            run.status = runStatusFromString(row[3].as<std::string>()).value_or(RunStatus::Running);
            run.startTime = row[4].as<int64_t>();
            if (!row[5].is_null())
                run.endTime = row[5].as<int64_t>();
            run.artifactUri = row[6].as<std::string>();
            index[run.uuid] = result.size();
            result.push_back(std::move(run));
        }
        for (const char* table : {"params", "tags"}) {
            const bool isParams = table[0] == 'p';
            for (const auto& row :
                 exec(std::string("SELECT t.run_uuid, t.\"key\", coalesce(t.value, '') FROM ") + table +
                      " t JOIN runs r ON r.run_uuid = t.run_uuid" + filter)) {
                auto it = index.find(row[0].as<std::string>());
                if (it != index.end())
                    (isParams ? result[it->second].params
                              : result[it->second].tags)[row[1].as<std::string>()] = row[2].as<std::string>();
            }
        }
        for (Run& run : result)
            if (run.name.empty())
                run.name = run.tags.count("mlflow.runName") ? run.tags["mlflow.runName"] : run.uuid;
        return result;
    });
}

std::vector<Run> PostgresStore::runs(std::optional<int64_t> experimentId) {
    if (experimentId)
        return queryRuns("r.experiment_id = $1::integer", std::to_string(*experimentId));
    return queryRuns("", "");
}

std::vector<Run> PostgresStore::searchRuns(const std::vector<RunCondition>& conditions,
                                           std::optional<int64_t> experimentId) {
    // The database finds them: no run is read that does not match.
    const std::string filter = runFilterSql(conditions, SqlDialect::Postgres, m_hasLatestMetrics, "r");
    if (experimentId)
        return queryRuns("r.experiment_id = $1::integer AND " + filter, std::to_string(*experimentId));
    return queryRuns(filter, std::nullopt);
}

std::optional<Run> PostgresStore::run(const std::string& runUuid) {
    auto found = queryRuns("r.run_uuid = $1", runUuid);
    if (found.empty())
        return std::nullopt;
    return found.front();
}

std::vector<std::string> PostgresStore::metricKeys(const std::vector<std::string>& runUuids) {
    return withConnection("reading metric keys", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        std::set<std::string> keys;
        for (const std::string& uuid : runUuids)
            for (const auto& row : tx.exec_params(
                     m_hasLatestMetrics ? "SELECT \"key\" FROM latest_metrics WHERE run_uuid = $1"
                                        : "SELECT DISTINCT \"key\" FROM metrics WHERE run_uuid = $1",
                     uuid))
                keys.insert(row[0].as<std::string>());
        return std::vector<std::string>(keys.begin(), keys.end());
    });
}

std::map<std::string, LatestMetric> PostgresStore::latestMetrics(const std::string& runUuid) {
    return withConnection("reading latest metrics", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        std::map<std::string, LatestMetric> result;
        // Without latest_metrics, MLflow's own rule on metrics: greatest step, then time, then value.
        const char* sql =
            m_hasLatestMetrics
                ? "SELECT \"key\", value, coalesce(timestamp, 0), step, is_nan FROM latest_metrics "
                  "WHERE run_uuid = $1"
                : "SELECT DISTINCT ON (\"key\") \"key\", value, coalesce(timestamp, 0), step, is_nan "
                  "FROM metrics WHERE run_uuid = $1 ORDER BY \"key\", step DESC, timestamp DESC, "
                  "value DESC";
        for (const auto& row : tx.exec_params(sql, runUuid)) {
            const double value =
                row[4].as<bool>() ? std::numeric_limits<double>::quiet_NaN() : row[1].as<double>();
            result.emplace(row[0].as<std::string>(),
                           LatestMetric{value, row[2].as<int64_t>(), row[3].as<int64_t>()});
        }
        return result;
    });
}

Series PostgresStore::series(const std::string& runUuid, const std::string& key) {
    return querySeries(runUuid, key, std::nullopt);
}

Series PostgresStore::seriesRange(const std::string& runUuid, const std::string& key, int64_t fromMs,
                                  int64_t toMs) {
    return querySeries(runUuid, key, std::make_pair(fromMs, toMs));
}

Series PostgresStore::seriesEnvelope(const std::string& runUuid, const std::string& key,
                                     std::optional<std::pair<int64_t, int64_t>> range, int buckets) {
    if (buckets < 1)
        return {};
    return withConnection("reading a series envelope", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        // A short series (at most two points per slice on average) is read and reduced here: a
        // plain index range instead of the server's hashing (a 600-point run: 2 ms, not 17).
        const std::string within = range ? " AND timestamp BETWEEN $3 AND $4" : "";
        const std::string small =
            "SELECT count(*) FROM (SELECT 1 FROM metrics WHERE run_uuid = $1 AND \"key\" = $2" + within +
            " LIMIT " + std::to_string(2 * int64_t(buckets) + 1) + ") x";
        const int64_t few = (range ? tx.exec_params1(small, runUuid, key, range->first, range->second)
                                   : tx.exec_params1(small, runUuid, key))[0]
                                .as<int64_t>();
        if (few <= 2 * int64_t(buckets)) {
            const std::string sql =
                "SELECT timestamp, step, value FROM metrics WHERE run_uuid = $1 AND \"key\" = $2" + within +
                " AND NOT is_nan ORDER BY timestamp, step";
            Series s;
            for (const auto& row : range ? tx.exec_params(sql, runUuid, key, range->first, range->second)
                                         : tx.exec_params(sql, runUuid, key)) {
                s.t.push_back(row[0].as<int64_t>());
                s.step.push_back(row[1].as<int64_t>());
                s.v.push_back(row[2].as<double>());
            }
            // Reduced here as the server would (Store's envelopeOf cuts exactly as width_bucket).
            return s.empty() ? s
                             : envelopeOf(s, range ? range->first : s.t.front(),
                                          range ? range->second : s.t.back(), buckets);
        }
        std::pair<int64_t, int64_t> bounds;
        if (range) {
            bounds = *range;
        } else { // the whole series: its ends come from the covering index alone
            const pqxx::row ends = tx.exec_params1(
                "SELECT min(timestamp), max(timestamp) FROM metrics WHERE run_uuid = $1 AND \"key\" = $2",
                runUuid, key);
            if (ends[0].is_null())
                return Series{};
            bounds = {ends[0].as<int64_t>(), ends[1].as<int64_t>()};
        }
        // Per bucket the lowest and the highest point (ties: the earliest), reduced in the
        // server; the client gets at most 2 rows per pixel column. One hashed pass finds each
        // bucket's extremes, a hash join picks the rows holding them, and only those few are
        // sorted. A freshly written series has no statistics yet, and the planner would then
        // pick a nested loop over the CTE (seconds instead of milliseconds): rule it out.
        tx.exec("SET LOCAL enable_nestloop = off");
        tx.exec("SET LOCAL work_mem = '64MB'");
        const pqxx::result rows = tx.exec_params(
            "WITH b AS (SELECT timestamp, step, value, width_bucket(timestamp::float8, $3::float8, "
            "$4::float8 + 1, $5) AS bucket FROM metrics WHERE run_uuid = $1 AND \"key\" = $2 "
            "AND timestamp BETWEEN $3 AND $4 AND NOT is_nan), "
            "e AS (SELECT bucket, min(value) AS lo, max(value) AS hi FROM b GROUP BY bucket) "
            "SELECT timestamp, step, value FROM (SELECT DISTINCT ON (b.bucket, b.value) b.timestamp, b.step, "
            "b.value "
            "FROM b JOIN e ON b.bucket = e.bucket AND (b.value = e.lo OR b.value = e.hi) "
            "ORDER BY b.bucket, b.value, b.timestamp, b.step) x ORDER BY timestamp, step",
            runUuid, key, bounds.first, bounds.second, buckets);
        Series s;
        s.reserve(rows.size());
        for (const auto& row : rows) {
            s.t.push_back(row[0].as<int64_t>());
            s.step.push_back(row[1].as<int64_t>());
            s.v.push_back(row[2].as<double>());
        }
        return s;
    });
}

Series PostgresStore::querySeries(const std::string& runUuid, const std::string& key,
                                  std::optional<std::pair<int64_t, int64_t>> range) {
    return withConnection("reading a series", [&](pqxx::connection& c) {
        pqxx::read_transaction tx(c);
        const std::string sql = "SELECT timestamp, step, value, is_nan FROM metrics WHERE run_uuid = $1 AND "
                                "\"key\" = $2" +
                                std::string(range ? " AND timestamp BETWEEN $3 AND $4" : "") +
                                " ORDER BY timestamp, step";
        const pqxx::result rows = range ? tx.exec_params(sql, runUuid, key, range->first, range->second)
                                        : tx.exec_params(sql, runUuid, key);
        Series s;
        s.reserve(rows.size());
        for (const auto& row : rows) {
            s.t.push_back(row[0].as<int64_t>());
            s.step.push_back(row[1].as<int64_t>());
            s.v.push_back(row[3].as<bool>() ? std::numeric_limits<double>::quiet_NaN() : row[2].as<double>());
        }
        s.releaseUnusedCapacity();
        return s;
    });
}

} // namespace radt
