// SPDX-License-Identifier: MIT
// PostgreSQL stores whose metrics table is partitioned by time (resources/DESIGN.md §4
// "Partitions"): new stores are made so under MLflow's names, a batch past the partitions makes
// its own, MLflow's own SQL runs against it, `radt store partition` converts a store in place and
// survives kill -9, and `radt store archive` moves old runs out, losing nothing when killed.

#include "RadtProcess.h"
#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/base/TextFormat.h"
#include "core/store/postgres/PostgresMaintenance.h"
#include "core/store/postgres/PostgresStore.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

using namespace radt;

namespace {

constexpr int64_t kDay = 86400000;
constexpr int64_t kMonday = 1767571200000; // 2026-01-05 00:00 UTC, a Monday

std::string dbOf(const std::string& uri) {
    return uri.substr(std::string("postgresql:///").size());
}

/// psql's unaligned answer to `sql` in the store's database.
std::string psql(const std::string& uri, const std::string& sql) {
    return test::shellOutput("psql -X -Atq -v ON_ERROR_STOP=1 -d " + dbOf(uri) + " -c \"" + sql + "\" 2>&1");
}

/// Every run's samples, exactly: its count and an md5 of its rows in a fixed order.
std::string perRunDigest(const std::string& uri) {
    return psql(uri,
                "SELECT run_uuid, count(*), md5(string_agg(m::text, ',' ORDER BY \\\"key\\\", timestamp, "
                "step, value)) FROM metrics m GROUP BY run_uuid ORDER BY run_uuid");
}

/// `runs` finished runs of `points` samples of two keys, run i starting `spacingMs` after run i-1.
std::vector<std::string> recordRuns(Store& store, int runs, int points, int64_t firstMs, int64_t spacingMs) {
    const int64_t exp = store.getOrCreateExperiment("partitions");
    std::vector<std::string> uuids;
    for (int r = 0; r < runs; ++r) {
        const int64_t start = firstMs + r * spacingMs;
        const std::string uuid =
            store
                .createRun({exp, "run " + std::to_string(r), start, "tester", "train.py", RunStatus::Running})
                .uuid;
        std::vector<MetricPoint> batch;
        for (int i = 0; i < points; ++i) {
            batch.push_back({"SMI - Power Draw", 100.0 + (i * 7 + r) % 113, start + i * 1000, 0});
            if (i % 10 == 0)
                batch.push_back({"loss", 2.0 / (i + 1), start + i * 1000, i / 10});
        }
        store.logMetrics(uuid, batch);
        store.setRunStatus(uuid, RunStatus::Finished, start + points * 1000);
        uuids.push_back(uuid);
    }
    return uuids;
}

class PostgresPartitions : public ::testing::Test {
protected:
    void SetUp() override {
        m_backend = test::makeBackend("postgresql");
        if (!m_backend->available())
            GTEST_SKIP() << m_backend->unavailableReason();
    }
    std::unique_ptr<test::StoreBackend> m_backend;
    test::TempDir m_dir;
};

} // namespace

TEST_F(PostgresPartitions, ANewStoreIsPartitionedByWeekUnderMlflowsNames) {
    const std::string uri = m_backend->freshUri();
    openStore(uri, OpenMode::CreateIfMissing);
    EXPECT_EQ(psql(uri, "SELECT relkind FROM pg_class WHERE relname = 'metrics'"), "p");
    EXPECT_EQ(psql(uri, "SELECT pg_get_partkeydef('metrics'::regclass)"), "RANGE (\"timestamp\")");
    // MLflow's constraint and index names, on the partitioned table itself.
    EXPECT_EQ(
        psql(uri,
             "SELECT string_agg(conname || ':' || contype::text, ' ' ORDER BY conname) FROM pg_constraint "
             "WHERE conrelid = 'metrics'::regclass"),
        "metric_pk:p metrics_run_uuid_fkey:f");
    EXPECT_EQ(psql(uri,
                   "SELECT string_agg(indexname, ' ' ORDER BY indexname) FROM pg_indexes WHERE tablename = "
                   "'metrics'"),
              "index_metrics_run_uuid metric_pk radt_metrics_run_key_time");
    EXPECT_EQ(psql(uri, "SELECT value FROM radt_settings WHERE name = 'metrics_partition_period'"), "week");
    // The week before now, this week and two ahead; each a Monday-to-Monday range.
    const std::string weeks =
        psql(uri, "SELECT count(*) FROM pg_inherits WHERE inhparent = 'metrics'::regclass "
                  "AND inhrelid::regclass::text <> 'metrics_default'");
    EXPECT_GE(std::stoi(weeks), 3);
    EXPECT_LE(std::stoi(weeks), 4);
    EXPECT_EQ(
        psql(uri,
             "SELECT count(*) FROM (SELECT pg_get_expr(c.relpartbound, c.oid) AS b FROM pg_inherits i "
             "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'metrics'::regclass) x WHERE b = "
             "'DEFAULT'"),
        "1");
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM pg_class WHERE relname LIKE 'metrics_p%' AND "
                        "extract(isodow FROM to_date(substr(relname, 10), 'YYYYMMDD')) <> 1"),
              "0")
        << "weeks start on Monday";
}

TEST_F(PostgresPartitions, TheEnvironmentChoosesDaysOrNoneAndAWrongWordIsNamed) {
    const std::string daily = m_backend->freshUri(), plain = m_backend->freshUri(),
                      wrong = m_backend->freshUri();
    ::setenv("RADT_PARTITION_PERIOD", "day", 1);
    openStore(daily, OpenMode::CreateIfMissing);
    ::setenv("RADT_PARTITION_PERIOD", "none", 1);
    openStore(plain, OpenMode::CreateIfMissing);
    ::setenv("RADT_PARTITION_PERIOD", "fortnight", 1);
    try {
        openStore(wrong, OpenMode::CreateIfMissing);
        ADD_FAILURE() << "a period radt does not know was accepted";
    } catch (const StoreError& e) {
        EXPECT_NE(
            std::string(e.what()).find("RADT_PARTITION_PERIOD is 'fortnight': expected day, week or none"),
            std::string::npos)
            << e.what();
    }
    ::unsetenv("RADT_PARTITION_PERIOD");
    EXPECT_EQ(psql(daily, "SELECT value FROM radt_settings"), "day");
    EXPECT_GE(std::stoi(psql(daily, "SELECT count(*) FROM pg_class WHERE relname LIKE 'metrics_p%'")), 15);
    EXPECT_EQ(psql(plain, "SELECT relkind FROM pg_class WHERE relname = 'metrics'"), "r");
    EXPECT_EQ(psql(wrong, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), "0")
        << "nothing half-made";
}

TEST_F(PostgresPartitions, BatchesPastThePartitionsMakeTheirOwnAndTakeOverTheDefaultPartitionsRows) {
    const std::string uri = m_backend->freshUri();
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    const int64_t exp = store->getOrCreateExperiment("far");
    const std::string run = store->createRun({exp, "r", 0, "u", "s", RunStatus::Running}).uuid;
    const int64_t later = nowMs() + 60 * kDay; // past the partitions made ahead
    // Another writer's row for that time (a role that may not create partitions) waits in the
    // default partition...
    psql(uri,
         "INSERT INTO metrics VALUES ('loss', 1.5, " + std::to_string(later) + ", '" + run + "', 0, false)");
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics_default"), "1");
    // ...until a batch of this store's owner reaches that week: its partition is made and takes it.
    store->logMetrics(run,
                      {{"loss", 1.0, later + 1000, 1}, {"loss", 0.5, 1136073600000, 2}, {"loss", 0.2, 0, 3}});
    EXPECT_EQ(psql(uri,
                   "SELECT tableoid::regclass::text || '=' || count(*) FROM metrics GROUP BY tableoid ORDER "
                   "BY 1"),
              "metrics_default=1\nmetrics_p20051226=1\nmetrics_p" +
                  psql(uri, "SELECT to_char(date_trunc('week', to_timestamp(" + std::to_string(later / 1000) +
                                ") AT TIME ZONE 'UTC'), 'YYYYMMDD')") +
                  "=2")
        << "2006-01-01 in its week's partition (2005-12-26), timestamp 0 in the default one";
    EXPECT_EQ(store->series(run, "loss").size(), 4u);
    EXPECT_GT(store->maintenance().storageBytes(), 0) << "a partitioned table's size is its partitions'";
}

// The statements MLflow's SqlAlchemyStore issues for metrics (log_batch with its duplicate check
// and latest_metrics update, get_metric_history, search_runs ordered by a metric, the garbage
// collector's delete), as SQLAlchemy renders them for PostgreSQL, on radt's partitioned store
// and on a store of MLflow's own schema: same answers, and each reads the other's rows.
class MlflowSqlOnPartitions : public test::BackendTest {};

TEST_P(MlflowSqlOnPartitions, MlflowsStatementsWorkAndBothSidesReadEachOther) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const int64_t exp = store->getOrCreateExperiment("mlflow sql");
    const std::string ours = store->createRun({exp, "radt", kMonday, "u", "s", RunStatus::Running}).uuid;
    store->logMetrics(ours, {{"loss", 0.9, kMonday + 1000, 0}, {"loss", 0.7, kMonday + 2000, 1}});
    const std::string theirs = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5";
    const std::string t = std::to_string(kMonday + 3 * kDay);
    const std::string log =
        "BEGIN; INSERT INTO runs (run_uuid, name, source_type, source_name, entry_point_name, user_id, "
        "status, "
        "start_time, end_time, deleted_time, source_version, lifecycle_stage, artifact_uri, experiment_id) "
        "VALUES ('" +
        theirs + "', 'mlflow run', 'UNKNOWN', '', '', 'mlflow', 'RUNNING', " + t +
        ", NULL, NULL, '', 'active', "
        "'file:///a', " +
        std::to_string(exp) +
        "); "
        "INSERT INTO metrics (key, value, timestamp, step, is_nan, run_uuid) VALUES ('loss', 0.5, " +
        t + ", 0, false, '" + theirs + "'), ('loss', 0.25, " + t + " + 1000, 1, false, '" + theirs +
        "'); "
        "SELECT latest_metrics.key, latest_metrics.value, latest_metrics.timestamp, latest_metrics.step, "
        "latest_metrics.is_nan, latest_metrics.run_uuid FROM latest_metrics WHERE latest_metrics.run_uuid = "
        "'" +
        theirs +
        "' AND latest_metrics.key IN ('loss') FOR UPDATE; "
        "INSERT INTO latest_metrics (key, value, timestamp, step, is_nan, run_uuid) VALUES ('loss', 0.25, " +
        t + " + 1000, 1, false, '" + theirs + "'); COMMIT;";
    ASSERT_EQ(
        test::shell("psql -X -q -v ON_ERROR_STOP=1 -d " + dbOf(m_uri) + " -c \"" + log + "\" >/dev/null"), 0);
    // log_batch finds duplicates by the primary key's unique violation (it then retries without
    // them): the partitioned table must still raise it. There it names the partition's copy of the
    // key (metrics_p20260105_pkey); MLflow catches any IntegrityError, whatever its name.
    EXPECT_NE(
        psql(m_uri,
             "INSERT INTO metrics (key, value, timestamp, step, is_nan, run_uuid) VALUES ('loss', 0.5, " + t +
                 ", 0, false, '" + theirs + "')")
            .find("ERROR:  duplicate key value violates unique constraint"),
        std::string::npos);
    // get_metric_history, as MLflow reads it: radt's samples.
    EXPECT_EQ(
        psql(m_uri, "SELECT metrics.key, metrics.value, metrics.timestamp, metrics.step, metrics.is_nan "
                    "FROM metrics WHERE metrics.run_uuid = '" +
                        ours +
                        "' AND metrics.key = 'loss' ORDER BY "
                        "metrics.timestamp, metrics.step, metrics.run_uuid, metrics.value, metrics.key"),
        "loss|0.9|" + std::to_string(kMonday + 1000) + "|0|f\nloss|0.7|" + std::to_string(kMonday + 2000) +
            "|1|f");
    // search_runs ordered by metrics.loss (a join on latest_metrics).
    EXPECT_EQ(
        psql(m_uri, "SELECT runs.run_uuid FROM runs LEFT OUTER JOIN (SELECT latest_metrics.run_uuid AS "
                    "run_uuid, latest_metrics.value AS value FROM latest_metrics WHERE latest_metrics.key = "
                    "'loss') AS anon_1 ON runs.run_uuid = anon_1.run_uuid WHERE runs.experiment_id = " +
                        std::to_string(exp) + " ORDER BY anon_1.value IS NULL, anon_1.value ASC"),
        theirs + "\n" + ours);
    // radt reads MLflow's samples and latest value.
    EXPECT_EQ(store->series(theirs, "loss").v, (std::vector<double>{0.5, 0.25}));
    EXPECT_EQ(store->latestMetrics(theirs).at("loss").value, 0.25);
    // MLflow's garbage collector deletes a run's rows table by table.
    ASSERT_EQ(psql(m_uri, "BEGIN; DELETE FROM metrics WHERE metrics.run_uuid IN ('" + theirs +
                              "'); DELETE FROM latest_metrics WHERE latest_metrics.run_uuid IN ('" + theirs +
                              "'); DELETE FROM runs WHERE runs.run_uuid IN ('" + theirs + "'); COMMIT"),
              "");
    EXPECT_EQ(psql(m_uri, "SELECT count(*) FROM metrics"), "2");
}

INSTANTIATE_TEST_SUITE_P(Stores, MlflowSqlOnPartitions,
                         ::testing::Values("postgresql", "postgresql_unpartitioned", "postgresql_mlflow3"),
                         [](const auto& info) { return info.param; });

TEST_F(PostgresPartitions, ConversionKilledMidwayResumesAndLosesNothing) {
    ::setenv("RADT_PARTITION_PERIOD", "none", 1); // a store from before partitions
    const std::string uri = m_backend->freshUri();
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        ::unsetenv("RADT_PARTITION_PERIOD");
        recordRuns(*store, 60, 3000, kMonday, 3 * 3600 * 1000); // 7.5 days of runs
    }
    const std::string before = perRunDigest(uri);
    ASSERT_EQ(std::count(before.begin(), before.end(), '\n'), 59);

    test::Radt first = test::startRadt(m_dir, {"store", "partition", "--store", uri, "--period", "day"});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (test::countContaining(first.err(), "radt: copied") < 2 &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ::kill(first.pid(), SIGKILL);
    EXPECT_EQ(first.wait(), 128 + SIGKILL) << first.err();
    // Killed on the way: the store is as it was, the copy so far kept for the next run.
    EXPECT_EQ(psql(uri, "SELECT relkind FROM pg_class WHERE relname = 'metrics'"), "r") << first.err();
    EXPECT_EQ(perRunDigest(uri), before);
    const int copied = std::stoi(psql(uri, "SELECT count(*) FROM radt_partition_progress"));
    EXPECT_GE(copied, 12);
    EXPECT_LT(copied, 60);

    test::Radt second = test::startRadt(m_dir, {"store", "partition", "--store", uri, "--period", "day"});
    ASSERT_EQ(second.wait(), 0) << second.err();
    EXPECT_NE(second.out().find("partitioned metrics by day (resumed): 198000 samples in "),
              std::string::npos)
        << second.out();
    EXPECT_EQ(test::countContaining(second.err(), "radt: copied"), 10 - copied / 6)
        << "a line per tenth of the 60 runs, from where the first one stopped: " << second.err();
    EXPECT_EQ(perRunDigest(uri), before) << "every run's samples, exactly";
    EXPECT_EQ(psql(uri, "SELECT relkind FROM pg_class WHERE relname = 'metrics'"), "p");
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM pg_tables WHERE tablename IN ('radt_partition_progress', "
                        "'radt_metrics_partitioned')"),
              "0");
    EXPECT_EQ(psql(uri,
                   "SELECT string_agg(indexname, ' ' ORDER BY indexname) FROM pg_indexes WHERE tablename = "
                   "'metrics'"),
              "index_metrics_run_uuid metric_pk radt_metrics_run_key_time");
    // 7.5 days of samples in 8 daily partitions (2026-01-05 to -12), none left in the default one.
    EXPECT_EQ(psql(uri, "SELECT count(DISTINCT tableoid) FROM metrics"), "8");
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics_default"), "0");
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics_p20260107"), "26400") << "runs 16 to 23";
    auto store = openStore(uri, OpenMode::OpenExisting);
    EXPECT_EQ(store->series(store->runs().front().uuid, "SMI - Power Draw").size(), 3000u);
}

TEST_F(PostgresPartitions, RowsWrittenDuringTheConversionAreInTheSwappedTable) {
    ::setenv("RADT_PARTITION_PERIOD", "none", 1);
    const std::string uri = m_backend->freshUri();
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    ::unsetenv("RADT_PARTITION_PERIOD");
    const std::vector<std::string> runs = recordRuns(*store, 3, 500, kMonday, kDay);
    const std::string live =
        store->createRun({1, "live", kMonday + 4 * kDay, "u", "s", RunStatus::Running}).uuid;
    store->logMetrics(live, {{"loss", 1.0, kMonday + 4 * kDay, 0}});
    // A collector still records while the runs are copied: after each copied run, more samples
    // of the live run and one of a finished run (a late MLflow client).
    int64_t step = 0;
    const PartitionOutcome o = partitionStore(uri, "week", [&](size_t, size_t, int64_t) {
        ++step;
        store->logMetrics(live, {{"loss", 1.0 / (step + 1), kMonday + 4 * kDay + step * 1000, step}});
        store->logMetrics(runs[0], {{"late", double(step), kMonday + step * 1000, step}});
    });
    EXPECT_TRUE(o.converted);
    EXPECT_EQ(store->series(live, "loss").size(), 5u) << "the first sample and one per copied run";
    EXPECT_EQ(store->series(runs[0], "late").size(), 4u);
    EXPECT_EQ(o.samples, 3 * 550 + 5 + 4);
    // The change log named the two runs written to after their copy; nothing changed under the lock.
    EXPECT_EQ(o.recopied, 2u);
    EXPECT_EQ(o.recopiedLocked, 0u);
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM pg_proc WHERE proname LIKE 'radt_partition%'"), "0")
        << "the change log's functions go with the old table";
    store->logMetrics(live, {{"loss", 0.01, kMonday + 5 * kDay, 9}}); // the writer goes on afterwards
    EXPECT_EQ(store->series(live, "loss").size(), 6u);
}

// A collector opened before the conversion goes on writing afterwards: at its first batch of a new
// day it learns the table is partitioned, and makes the partitions its days need instead of filling
// the default partition once the conversion's partitions ahead run out.
TEST_F(PostgresPartitions, AWriterOpenedBeforeTheConversionMakesTheNewTablesPartitions) {
    ::setenv("RADT_PARTITION_PERIOD", "none", 1);
    const std::string uri = m_backend->freshUri();
    auto writer = openStore(uri, OpenMode::CreateIfMissing);
    ::unsetenv("RADT_PARTITION_PERIOD");
    const std::string run = recordRuns(*writer, 1, 100, kMonday, kDay).front();
    ASSERT_TRUE(partitionStore(uri, "day").converted);
    const int64_t later = nowMs() + 60 * kDay; // past the partitions the conversion made ahead
    writer->logMetrics(run, {{"late", 1.0, later, 0}, {"late", 2.0, later + kDay, 1}});
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics_default"), "0");
    EXPECT_EQ(psql(uri, "SELECT count(DISTINCT tableoid) FROM metrics WHERE \\\"key\\\" = 'late'"), "2")
        << "a day partition each";
}

// A TRUNCATE during the conversion and as many rows loaded again with other values: the log says
// every run may have changed, so both the noted runs and every count are looked at.
TEST_F(PostgresPartitions, ATruncateAndAReloadOfAsManyRowsDuringTheConversionAreCopied) {
    ::setenv("RADT_PARTITION_PERIOD", "none", 1);
    const std::string uri = m_backend->freshUri();
    std::vector<std::string> runs;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        ::unsetenv("RADT_PARTITION_PERIOD");
        runs = recordRuns(*store, 2, 100, kMonday, kDay);
    }
    const std::string reload = "BEGIN; CREATE TEMP TABLE keep AS SELECT * FROM metrics WHERE run_uuid = '" +
                               runs[0] +
                               "'; TRUNCATE metrics; INSERT INTO metrics SELECT \\\"key\\\", 7, timestamp, "
                               "run_uuid, step, is_nan FROM keep; COMMIT";
    std::string failure;
    size_t calls = 0;
    const PartitionOutcome o = partitionStore(uri, "day", [&](size_t, size_t, int64_t) {
        if (++calls == 2)
            failure = psql(uri, reload);
    });
    EXPECT_EQ(failure, "");
    EXPECT_TRUE(o.converted);
    EXPECT_EQ(o.samples, 110) << "run 0's 110 samples; run 1 has none left";
    EXPECT_EQ(psql(uri, "SELECT count(*), min(value), max(value) FROM metrics"), "110|7|7");
}

// Changes a per-run count cannot see (an UPDATE, a delete and an insert of as many rows), written
// by a role MLflow's server might have (grants on MLflow's tables, none on radt's), after the run
// was copied: the change log notes them and the swapped table holds them.
TEST_F(PostgresPartitions, ChangesThatKeepARunsCountAndAnotherRolesWritesAreCopiedAgain) {
    ::setenv("RADT_PARTITION_PERIOD", "none", 1);
    const std::string uri = m_backend->freshUri();
    std::vector<std::string> runs;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        ::unsetenv("RADT_PARTITION_PERIOD");
        runs = recordRuns(*store, 3, 200, kMonday, kDay);
    }
    const std::string writer = "radt_writer_" + dbOf(uri).substr(dbOf(uri).size() - 6);
    ASSERT_EQ(
        psql(uri, "CREATE ROLE " + writer +
                      " LOGIN; GRANT SELECT, INSERT, UPDATE, DELETE ON metrics, latest_metrics, runs TO " +
                      writer),
        "");
    struct DropRole {
        std::string uri, role;
        ~DropRole() { psql(uri, "DROP OWNED BY " + role + "; DROP ROLE " + role); }
    } dropRole{uri, writer};
    const std::string asWriter = "SET ROLE " + writer + "; ";
    size_t calls = 0;
    std::string failures;
    const PartitionOutcome o = partitionStore(uri, "day", [&](size_t, size_t, int64_t) {
        if (++calls != 3)
            return; // after the last run's copy: every run was copied before it changed
        failures += psql(uri, asWriter + "UPDATE metrics SET value = -1 WHERE run_uuid = '" + runs[0] +
                                  "' AND \"key\" = 'loss' AND step = 3");
        failures += psql(uri, asWriter + "DELETE FROM metrics WHERE run_uuid = '" + runs[1] +
                                  "' AND \\\"key\\\" = 'loss' AND timestamp = (SELECT min(timestamp) FROM "
                                  "metrics WHERE run_uuid = '" +
                                  runs[1] + "'); INSERT INTO metrics VALUES ('late', 5, " +
                                  std::to_string(kMonday + 2 * kDay) + ", '" + runs[1] + "', 0, false)");
    });
    EXPECT_EQ(failures, "") << "the role writes on while the change log notes its changes";
    EXPECT_TRUE(o.converted);
    EXPECT_EQ(o.recopied, 2u);
    EXPECT_EQ(psql(uri, "SELECT value FROM metrics WHERE run_uuid = '" + runs[0] +
                            "' AND \"key\" = 'loss' AND step = 3"),
              "-1");
    EXPECT_EQ(
        psql(uri, "SELECT count(*) FROM metrics WHERE run_uuid = '" + runs[1] + "' AND \"key\" = 'late'"),
        "1");
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics"), std::to_string(3 * 220));
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM pg_class WHERE relname LIKE 'radt_partition%'"), "0");
}

TEST_F(PostgresPartitions, ArchiveKilledBeforeTheDropLosesNothingThenMovesOldRunsAndDropsTheirWeeks) {
    const std::string uri = m_backend->freshUri();
    const std::string archiveUri = "sqlite:///" + m_dir.file("archive.db");
    std::vector<std::string> old;
    std::string running, recent;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        old = recordRuns(*store, 30, 2000, kMonday, 2 * 3600 * 1000); // 2.5 days of January
        // A run still recording since that week, and one finished in June: both stay.
        running = store->createRun({1, "running", kMonday + 2 * kDay, "u", "s", RunStatus::Running}).uuid;
        store->logMetrics(running,
                          {{"loss", 1.0, kMonday + 2 * kDay, 0}, {"loss", 0.5, kMonday + 9 * kDay, 1}});
        recent = recordRuns(*store, 1, 100, kMonday + 150 * kDay, 0).front();
    }
    const std::string before = perRunDigest(uri);

    test::Radt first = test::startRadt(
        m_dir, {"store", "archive", "--store", uri, "--before", "2026-03-01", "--to", archiveUri});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (test::countContaining(first.err(), "radt: archived") < 1 &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ::kill(first.pid(), SIGKILL);
    EXPECT_EQ(first.wait(), 128 + SIGKILL) << first.err();
    EXPECT_EQ(perRunDigest(uri), before) << "killed while copying: the store lost nothing";

    test::Radt second = test::startRadt(
        m_dir, {"store", "archive", "--store", uri, "--before", "2026-03-01", "--to", archiveUri});
    ASSERT_EQ(second.wait(), 0) << second.err();
    EXPECT_NE(
        second.out().find("archived 30 runs (66000 samples) to " + archiveUri + "; dropped 0 partitions"),
        std::string::npos)
        << second.out();
    auto store = openStore(uri, OpenMode::OpenExisting);
    auto archive = openStore(archiveUri, OpenMode::OpenExisting);
    std::vector<std::string> left;
    for (const radt::Run& r : store->runs())
        left.push_back(r.uuid);
    std::sort(left.begin(), left.end());
    std::vector<std::string> kept{running, recent};
    std::sort(kept.begin(), kept.end());
    EXPECT_EQ(left, kept);
    for (const std::string& run : old) {
        const auto counts = archive->pointCounts(run);
        EXPECT_EQ(counts.at("SMI - Power Draw"), 2000);
        EXPECT_EQ(counts.at("loss"), 200);
        EXPECT_EQ(archive->run(run)->status, RunStatus::Finished);
    }
    // Both January weeks hold a sample of the running run: they stay, without the archived rows.
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics_p20260105"), "1");
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics_p20260112"), "1");
    EXPECT_EQ(store->series(running, "loss").size(), 2u);
    EXPECT_EQ(store->series(recent, "SMI - Power Draw").size(), 100u);
}

TEST_F(PostgresPartitions, ArchiveDropsWholeWeeksThatHoldOnlyArchivedRuns) {
    const std::string uri = m_backend->freshUri();
    std::vector<std::string> old;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        old = recordRuns(*store, 2, 100, kMonday, 7 * kDay); // one run in each of two weeks
    }
    const ArchiveOutcome o = archiveStore(uri, kMonday + 30 * kDay, m_dir.file("a.db"), openStore);
    EXPECT_EQ(o.runs, 2u);
    EXPECT_EQ(o.samples, 220);
    EXPECT_EQ(o.dropped, (std::vector<std::string>{"metrics_p20260105", "metrics_p20260112"}));
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics"), "0");
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM runs"), "0");
}

TEST(PostgresMaintenanceInput, ASqliteStoreOrABadDateIsRefusedByName) {
    test::TempDir dir;
    const std::string sqlite = "sqlite:///" + dir.file("s.db");
    openStore(sqlite, OpenMode::CreateIfMissing);
    try {
        partitionStore(sqlite, "day");
        ADD_FAILURE();
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("radt store partition works on a PostgreSQL store; " + sqlite +
                                             " is SQLite"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(partitionStore(sqlite, "month"), std::invalid_argument);
    test::Radt bad = test::startRadt(
        dir, {"store", "archive", "--store", sqlite, "--before", "last tuesday", "--to", dir.file("a.db")});
    EXPECT_EQ(bad.wait(), 2);
    EXPECT_NE(bad.err().find(
                  "--before expects a date, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UTC), got 'last tuesday'"),
              std::string::npos)
        << bad.err();
    EXPECT_EQ(parseUtcDate("2026-03-01"), 1772323200000);
    EXPECT_EQ(parseUtcDate("2026-03-01T12:00:00"), 1772323200000 + 12 * 3600000);
    EXPECT_THROW(parseUtcDate("2026-02-30"), std::invalid_argument) << "a day that does not exist";
    EXPECT_FALSE(std::filesystem::exists(dir.file("a.db"))) << "nothing made for a refused command";
}

TEST_F(PostgresPartitions, ConversionWhileACollectorWritesIntoARunBeingCopied) {
    ::setenv("RADT_PARTITION_PERIOD", "none", 1);
    const std::string uri = m_backend->freshUri();
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    ::unsetenv("RADT_PARTITION_PERIOD");
    recordRuns(*store, 2, 2000, kMonday, kDay);
    // A long run still recording: its copy takes a while, and samples keep arriving during it
    // (between the copy's count, insert and checksum, which then must see one snapshot).
    const std::string live =
        store->createRun({1, "live", kMonday + 3 * kDay, "u", "s", RunStatus::Running}).uuid;
    std::vector<MetricPoint> history;
    for (int i = 0; i < 60000; ++i)
        history.push_back({"SMI - Power Draw", double(i % 300), kMonday + 3 * kDay + i * 10, 0});
    store->logMetrics(live, history);
    std::atomic<bool> done{false};
    std::atomic<int> written{0};
    std::thread collector([&] {
        auto own = openStore(uri, OpenMode::OpenExisting);
        for (int i = 0; !done; ++i) {
            own->logMetrics(live, {{"loss", 1.0 / (i + 1), kMonday + 4 * kDay + i, i}});
            ++written;
        }
    });
    PartitionOutcome o;
    try {
        o = partitionStore(uri, "day");
    } catch (const std::exception& e) {
        ADD_FAILURE() << "the conversion failed while a collector wrote: " << e.what();
    }
    done = true;
    collector.join();
    EXPECT_TRUE(o.converted);
    EXPECT_GT(written.load(), 0);
    EXPECT_EQ(store->series(live, "loss").size(), size_t(written.load())) << "every sample written during it";
    EXPECT_EQ(store->series(live, "SMI - Power Draw").size(), 60000u);
}

TEST_F(PostgresPartitions, AChangeOfPeriodLeavesNoDayToTheDefaultPartition) {
    ::setenv("RADT_PARTITION_PERIOD", "day", 1);
    const std::string uri = m_backend->freshUri();
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    ::unsetenv("RADT_PARTITION_PERIOD");
    EXPECT_FALSE(partitionStore(uri, "week").converted);
    const std::string run = store->createRun({0, "r", 0, "u", "s", RunStatus::Running}).uuid;
    auto writer = openStore(uri, OpenMode::OpenExisting); // a collector opened after the change
    for (int64_t day = 15; day <= 22; ++day)
        writer->logMetrics(run, {{"loss", 1.0, nowMs() + day * kDay, day}});
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics_default"), "0")
        << "a week that days cover in part gets day partitions for the rest";
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics"), "8");
}

TEST_F(PostgresPartitions, ArchiveRefusesItselfUnderAnotherSpellingAndKeepsRunsOthersReferTo) {
    auto mlflow3 = test::makeBackend("postgresql_mlflow3");
    const std::string uri = mlflow3->freshUri();
    std::vector<std::string> runs;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        runs = recordRuns(*store, 2, 50, kMonday, kDay);
    }
    try {
        archiveStore(uri, kMonday + 30 * kDay, "postgresql+psycopg2:///" + dbOf(uri), openStore);
        ADD_FAILURE() << "archived a store into itself";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("is the store itself"), std::string::npos) << e.what();
    }
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM runs"), "2");
    // MLflow logged a dataset input for the first run: the archive does not carry inputs.
    psql(uri,
         "INSERT INTO inputs (input_uuid, source_type, source_id, destination_type, destination_id, step) "
         "VALUES ('i1', 'DATASET', 'd1', 'RUN', '" +
             runs[0] + "', 0)");
    const ArchiveOutcome o = archiveStore(uri, kMonday + 30 * kDay, m_dir.file("a3.db"), openStore);
    EXPECT_EQ(o.runs, 1u);
    ASSERT_EQ(o.kept.size(), 1u);
    EXPECT_EQ(o.kept[0], "run " + runs[0] + " has rows in inputs, which an archive does not carry");
    EXPECT_EQ(psql(uri, "SELECT run_uuid FROM runs"), runs[0]);
    EXPECT_EQ(psql(uri, "SELECT count(*) FROM metrics"), "55");
}
