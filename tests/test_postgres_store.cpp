// SPDX-License-Identifier: MIT
// PostgreSQL-only behaviour of the store: connection errors that name the problem without the
// password, schemas that are not MLflow's, and concurrent writers on one run.

#include "StoreTestBackends.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "core/store/StoreUri.h"

#include <gtest/gtest.h>

#include <thread>

using namespace radt;

namespace {

class PostgresStoreTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_backend = test::makeBackend("postgresql");
        if (!m_backend->available())
            GTEST_SKIP() << m_backend->unavailableReason();
    }
    static std::string env(const char* name, const char* fallback = "") {
        const char* v = std::getenv(name);
        return v ? v : fallback;
    }
    std::string errorOpening(const std::string& uri, OpenMode mode = OpenMode::OpenExisting) {
        try {
            openStore(uri, mode);
        } catch (const StoreError& e) {
            return e.what();
        }
        return "";
    }
    std::unique_ptr<test::StoreBackend> m_backend;
};

} // namespace

TEST_F(PostgresStoreTest, WrongPasswordIsReportedWithoutThePassword) {
    const std::string db = m_backend->freshUri().substr(std::string("postgresql:///").size());
    const std::string uri = "postgresql://" + env("PGUSER") + ":Secr3tWrong@" + env("PGHOST") + ":" +
                            env("PGPORT", "5432") + "/" + db;
    const std::string error = errorOpening(uri, OpenMode::CreateIfMissing);
    EXPECT_NE(error.find("cannot connect to postgresql://" + env("PGUSER") + ":***@"), std::string::npos)
        << error;
    EXPECT_NE(error.find("password authentication failed"), std::string::npos) << error;
    EXPECT_EQ(error.find("Secr3tWrong"), std::string::npos) << error;
}

TEST_F(PostgresStoreTest, UnreachableHostAndMissingDatabaseAreNamed) {
    const std::string refused = errorOpening("postgresql://someone:pw@127.0.0.1:1/mlflow");
    EXPECT_NE(refused.find("cannot connect to postgresql://someone:***@127.0.0.1:1/mlflow"),
              std::string::npos)
        << refused;
    EXPECT_NE(refused.find("Connection refused"), std::string::npos) << refused;
    const std::string missing = errorOpening("postgresql:///radt_no_such_database");
    EXPECT_NE(missing.find("database \"radt_no_such_database\" does not exist"), std::string::npos)
        << missing;
}

TEST_F(PostgresStoreTest, EmptyOrForeignDatabasesAreNotMlflowStoresAndStayUntouched) {
    const std::string uri = m_backend->freshUri();
    EXPECT_NE(errorOpening(uri).find("the database is empty, not an MLflow tracking database"),
              std::string::npos);
    const std::string db = uri.substr(std::string("postgresql:///").size());
    ASSERT_EQ(test::shell("psql -q -d " + db + " -c 'CREATE TABLE inventory (item text)' >/dev/null"), 0);
    for (OpenMode mode : {OpenMode::OpenExisting, OpenMode::CreateIfMissing})
        EXPECT_NE(errorOpening(uri, mode).find("not an MLflow tracking database (no table 'experiments')"),
                  std::string::npos);
    EXPECT_EQ(
        test::shell("psql -Atq -d " + db +
                    " -c \"SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'\" "
                    "| grep -qx 1"),
        0)
        << "nothing was created in a database that is not ours";
}

TEST_F(PostgresStoreTest, SqlalchemyStyleUrisAndTheSchemaVersion) {
    const std::string uri = m_backend->freshUri();
    const std::string db = uri.substr(std::string("postgresql:///").size());
    {
        auto store = openStore("postgresql+psycopg2:///" + db, OpenMode::CreateIfMissing);
        EXPECT_EQ(store->experiments().size(), 1u);
    }
    EXPECT_EQ(test::shell("psql -Atq -d " + db +
                          " -c 'SELECT version_num FROM alembic_version' | grep -qx c9d4e5f6a7b8"),
              0);
    EXPECT_EQ(
        test::shell("psql -Atq -d " + db +
                    " -c \"SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public' AND "
                    "table_name NOT LIKE 'radt%' AND table_name NOT LIKE 'metrics%'\" | grep -qx 40"),
        0)
        << "every table of MLflow's schema but metrics, which is partitioned (test_postgres_partitions)";
    EXPECT_EQ(test::shell("psql -Atq -d " + db +
                          " -c \"SELECT relkind FROM pg_class WHERE relname = 'metrics'\" | grep -qx p"),
              0);
}

TEST_F(PostgresStoreTest, ConcurrentWritersToOneRunLoseNothingAndKeepLatestRight) {
    const std::string uri = m_backend->freshUri();
    std::string run;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        run = store->createRun({0, "shared", 0, "u", "s", RunStatus::Running}).uuid;
    }
    // 8 connections write interleaved steps of the same keys at once.
    constexpr int kWriters = 8, kBatches = 20, kPerBatch = 50;
    std::vector<std::thread> writers;
    std::atomic<int> failures{0};
    for (int w = 0; w < kWriters; ++w)
        writers.emplace_back([&, w] {
            try {
                auto store = openStore(uri, OpenMode::OpenExisting);
                for (int b = 0; b < kBatches; ++b) {
                    std::vector<MetricPoint> batch;
                    for (int i = 0; i < kPerBatch; ++i) {
                        const int64_t step = (b * kPerBatch + i) * kWriters + w;
                        for (const char* key : {"loss", "GPU util"})
                            batch.push_back({key, double(step), 1'700'000'000'000 + step, step});
                    }
                    store->logMetrics(run, batch);
                }
            } catch (const std::exception& e) {
                ++failures;
                ADD_FAILURE() << e.what();
            }
        });
    for (auto& t : writers)
        t.join();
    EXPECT_EQ(failures.load(), 0);
    auto store = openStore(uri, OpenMode::OpenExisting);
    const int64_t total = kWriters * kBatches * kPerBatch;
    EXPECT_EQ(store->series(run, "loss").v.size(), size_t(total));
    const auto latest = store->latestMetrics(run);
    EXPECT_EQ(latest.at("loss").step, total - 1) << "no lost update";
    EXPECT_EQ(latest.at("GPU util").value, double(total - 1));
}

TEST_F(PostgresStoreTest, ExperimentsByNameWorkAfterMlflow3MadeNamesUniquePerWorkspace) {
    // Regression: after MLflow 3 upgraded a store radt created, `radt -e <name>` failed with "there
    // is no unique or exclusion constraint matching the ON CONFLICT specification". The upgrade's
    // change to experiments, as MLflow 3.11's schema has it.
    const std::string uri = m_backend->freshUri();
    const std::string db = uri.substr(std::string("postgresql:///").size());
    openStore(uri, OpenMode::CreateIfMissing);
    const std::string upgrade =
        "ALTER TABLE experiments ADD COLUMN workspace VARCHAR(63) NOT NULL DEFAULT 'default'; "
        "DO \\$\\$ DECLARE c text; BEGIN SELECT conname INTO c FROM pg_constraint WHERE conrelid = "
        "'experiments'::regclass AND contype = 'u'; EXECUTE 'ALTER TABLE experiments DROP CONSTRAINT ' || "
        "quote_ident(c); END \\$\\$; "
        "ALTER TABLE experiments ADD CONSTRAINT uq_experiments_workspace_name UNIQUE (workspace, name); "
        "INSERT INTO experiments (name, artifact_location, lifecycle_stage, workspace) VALUES "
        "('shared-name', '', 'active', 'team-b');";
    ASSERT_EQ(test::shell("psql -q -v ON_ERROR_STOP=1 -d " + db + " -c \"" + upgrade + "\" >/dev/null"), 0);
    auto store = openStore(uri, OpenMode::OpenExisting);
    const int64_t fresh = store->getOrCreateExperiment("by-name");
    EXPECT_EQ(store->getOrCreateExperiment("by-name"), fresh);
    const int64_t mine = store->getOrCreateExperiment("shared-name");
    EXPECT_EQ(store->getOrCreateExperiment("shared-name"), mine);
    EXPECT_EQ(test::shell("psql -Atq -d " + db +
                          " -c \"SELECT workspace FROM experiments WHERE experiment_id = " +
                          std::to_string(mine) + "\" | grep -qx default"),
              0)
        << "ours lives in the default workspace, team-b's stays theirs";
}

TEST_F(PostgresStoreTest, AReadOnlyOpenReadsEverythingAndWritesNothing) {
    const std::string uri = m_backend->freshUri();
    std::string run;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        run = store->createRun({0, "r", 0, "u", "s", RunStatus::Running}).uuid;
        store->logMetrics(run, {{"loss", 0.5, 1000, 1}});
    }
    auto store = openStore(uri, OpenMode::ReadOnly);
    EXPECT_EQ(store->series(run, "loss").v, std::vector<double>{0.5});
    EXPECT_EQ(store->openNotice(), "");
    EXPECT_THROW(store->logMetrics(run, {{"loss", 0.4, 2000, 2}}), StoreError);
    EXPECT_THROW(store->getOrCreateExperiment("new"), StoreError);
    EXPECT_EQ(store->series(run, "loss").size(), 1u);
}

// A lab's dashboard account: a role with SELECT only. `radt ls`, `radt report` and the explorer's
// reads work on a store opened read-only with a notice (CREATE INDEX IF NOT EXISTS used to fail
// with "must be owner of table metrics"); a role with no grants at all hears "permission denied",
// not "the database is empty".
TEST_F(PostgresStoreTest, ASelectOnlyRoleReadsWithANoticeAndARoleWithoutGrantsIsDenied) {
    const std::string uri = m_backend->freshUri();
    const std::string db = uri.substr(std::string("postgresql:///").size());
    std::string run;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        run = store->createRun({0, "r", 1700000000000, "u", "s", RunStatus::Running}).uuid;
        store->logParams(run, {{"listeners", "smi"}});
        store->logMetrics(
            run, {{"SMI - Power Draw", 100, 1700000000000, 0}, {"SMI - Power Draw", 100, 1700000010000, 0}});
        store->setRunStatus(run, RunStatus::Finished, 1700000010000);
    }
    ASSERT_EQ(test::shell("psql -q -v ON_ERROR_STOP=1 -d " + db +
                          " -c \"DROP INDEX radt_metrics_run_key_time\" >/dev/null"),
              0);
    const std::string reader = "radt_reader_" + db.substr(db.size() - 6);
    const std::string nobody = "radt_nobody_" + db.substr(db.size() - 6);
    ASSERT_EQ(test::shell("psql -q -v ON_ERROR_STOP=1 -d " + db + " -c \"CREATE ROLE " + reader +
                          " LOGIN PASSWORD 'r3ader'; CREATE ROLE " + nobody +
                          " LOGIN PASSWORD 'n0body'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO " +
                          reader + "\" >/dev/null"),
              0);
    struct DropRoles {
        std::string db, a, b;
        ~DropRoles() {
            test::shell("psql -q -d " + db + " -c \"DROP OWNED BY " + a + "; DROP ROLE " + a +
                        "; DROP ROLE " + b + "\" >/dev/null 2>&1");
        }
    } dropRoles{db, reader, nobody};
    const std::string at = "@" + env("PGHOST", "localhost") + ":" + env("PGPORT", "5432") + "/" + db;

    auto store = openStore("postgresql://" + reader + ":r3ader" + at, OpenMode::OpenExisting);
    EXPECT_TRUE(store->isReadOnly());
    EXPECT_NE(store->openNotice().find("role '" + reader + "' may only read"), std::string::npos)
        << store->openNotice();
    EXPECT_EQ(store->runs().size(), 1u);
    EXPECT_EQ(store->series(run, "SMI - Power Draw").size(), 2u);
    EXPECT_THROW(store->setTags(run, {{"x", "y"}}), StoreError);

    const std::string denied = errorOpening("postgresql://" + nobody + ":n0body" + at);
    EXPECT_NE(denied.find("permission denied: role '" + nobody + "' may not read"), std::string::npos)
        << denied;
    EXPECT_EQ(denied.find("empty"), std::string::npos) << denied;

    // The CLI as the reader: listing and report work, said once on stderr.
    const std::string radt = std::string(RADT_BINARY_DIR) + "/app/radt";
    const std::string readerUri = "'postgresql://" + reader + ":r3ader" + at + "'";
    EXPECT_EQ(test::shell("'" + radt + "' ls --store " + readerUri + " >/dev/null 2>/dev/null"), 0);
    EXPECT_EQ(
        test::shell("'" + radt + "' report --store " + readerUri + " " + run + " >/dev/null 2>/dev/null"), 0);
}
