// SPDX-License-Identifier: MIT
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/base/Uuid.h"
#include "core/store/MlflowLimits.h"
#include "core/store/sqlite/SqliteStore.h"

#include <gtest/gtest.h>
#include <set>
#include <sqlite3.h>
#include <sys/wait.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <unistd.h>

using namespace radt;
using radt::test::errorOf;
using radt::test::TempDir;

namespace {

std::unique_ptr<Store> freshStore(const TempDir& dir) {
    return openStore("sqlite:///" + dir.file("s.db"), OpenMode::CreateIfMissing);
}

std::string fileBytes(const std::string& path) {
    return radt::test::readFile(path);
}

} // namespace

TEST(SqliteStore, CreatesMlflowSchemaWithAlembicVersionAndDefaultExperiment) {
    TempDir dir;
    auto store = freshStore(dir);
    auto exps = store->experiments();
    ASSERT_EQ(exps.size(), 1u);
    EXPECT_EQ(exps[0].id, 0);
    EXPECT_EQ(exps[0].name, "Default");

    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(dir.file("s.db").c_str(), &db), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, "SELECT version_num FROM alembic_version", -1, &stmt, nullptr);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), SqliteStore::schemaVersion());
    sqlite3_finalize(stmt);
    sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type='table'", -1, &stmt, nullptr);
    sqlite3_step(stmt);
    EXPECT_EQ(sqlite3_column_int(stmt, 0), 41); // every table of MLflow's schema, as in the fixture
    sqlite3_finalize(stmt);
    sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE name='radt_metrics_run_key_time'", -1,
                       &stmt, nullptr);
    sqlite3_step(stmt);
    EXPECT_EQ(sqlite3_column_int(stmt, 0), 1);
    sqlite3_finalize(stmt);
    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr);
    sqlite3_step(stmt);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

TEST(SqliteStore, MissingPathErrorsAndCreatesNothing) {
    TempDir dir;
    const std::string missing = dir.file("nope.db");
    EXPECT_NE(
        errorOf([&] { openStore("sqlite:///" + missing, OpenMode::OpenExisting); }).find("no such file"),
        std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(missing));
    const std::string noDir = dir.file("no/such/dir/x.db");
    EXPECT_NE(
        errorOf([&] { openStore("sqlite:///" + noDir, OpenMode::CreateIfMissing); }).find("does not exist"),
        std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(dir.file("no")));
}

TEST(SqliteStore, DirectoryIsNotAStore) {
    TempDir dir;
    EXPECT_NE(errorOf([&] { openStore(dir.path(), OpenMode::CreateIfMissing); }).find("is a directory"),
              std::string::npos);
}

TEST(SqliteStore, GarbageFileIsNotADatabaseAndStaysUntouched) {
    TempDir dir;
    const std::string path = dir.file("notes.db");
    const std::string text(5000, 'x');
    radt::test::writeFile(path, text);
    for (OpenMode mode : {OpenMode::OpenExisting, OpenMode::CreateIfMissing}) {
        const std::string error = errorOf([&] { openStore(path, mode); });
        EXPECT_NE(error.find("is not a SQLite database"), std::string::npos) << error;
        EXPECT_NE(error.find(path), std::string::npos) << error;
    }
    EXPECT_EQ(fileBytes(path), text);
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST(SqliteStore, ForeignSqliteDatabaseIsRejectedUnchanged) {
    TempDir dir;
    const std::string path = dir.file("other.db");
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "CREATE TABLE runs(x); CREATE TABLE notes(y); INSERT INTO notes VALUES (1);", nullptr,
                 nullptr, nullptr);
    sqlite3_close(db);
    const std::string before = fileBytes(path);
    for (OpenMode mode : {OpenMode::OpenExisting, OpenMode::CreateIfMissing}) {
        const std::string error = errorOf([&] { openStore(path, mode); });
        EXPECT_NE(error.find("not an MLflow tracking store"), std::string::npos) << error;
        EXPECT_NE(error.find("'experiments'"), std::string::npos) << error;
    }
    EXPECT_EQ(fileBytes(path), before);
}

TEST(SqliteStore, EmptyFileIsNotAStoreWhenOpeningExisting) {
    TempDir dir;
    const std::string path = dir.file("empty.db");
    radt::test::writeFile(path, "");
    EXPECT_NE(errorOf([&] { openStore(path, OpenMode::OpenExisting); }).find("empty SQLite database"),
              std::string::npos);
    EXPECT_EQ(std::filesystem::file_size(path), 0u);
}

TEST(SqliteStore, UnreadableFileIsReported) {
    TempDir dir;
    auto store = freshStore(dir);
    store.reset();
    std::filesystem::permissions(dir.file("s.db"), std::filesystem::perms::none);
    // As root (CI) the check runs as nobody: permissions do not bind root.
    const std::string error =
        test::errorAsUnprivilegedUser(dir, [&] { openStore(dir.file("s.db"), OpenMode::OpenExisting); });
    EXPECT_NE(error.find("not readable"), std::string::npos) << error;
}

TEST(SqliteStore, OldGenerationWithoutLatestMetricsDerivesThem) {
    TempDir dir;
    const std::string path = dir.file("old.db");
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    // MLflow 1.0-era tables (2019): no latest_metrics, no deleted_time, no creation_time.
    sqlite3_exec(
        db,
        "CREATE TABLE experiments (experiment_id INTEGER PRIMARY KEY, name VARCHAR(256) UNIQUE NOT NULL, "
        "artifact_location VARCHAR(256), lifecycle_stage VARCHAR(32));"
        "CREATE TABLE runs (run_uuid VARCHAR(32) PRIMARY KEY, name VARCHAR(250), source_type VARCHAR(20), "
        "source_name VARCHAR(500), entry_point_name VARCHAR(50), user_id VARCHAR(256), status VARCHAR(20), "
        "start_time BIGINT, end_time BIGINT, source_version VARCHAR(50), lifecycle_stage VARCHAR(20), "
        "artifact_uri VARCHAR(200), experiment_id INTEGER);"
        "CREATE TABLE metrics (key VARCHAR(250), value FLOAT, timestamp BIGINT, run_uuid VARCHAR(32), "
        "step BIGINT DEFAULT 0, is_nan BOOLEAN DEFAULT 0);"
        "CREATE TABLE params (key VARCHAR(250), value VARCHAR(250), run_uuid VARCHAR(32));"
        "CREATE TABLE tags (key VARCHAR(250), value VARCHAR(250), run_uuid VARCHAR(32));"
        "INSERT INTO experiments VALUES (0, 'Default', '/mlruns/0', 'active');"
        "INSERT INTO runs VALUES ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '', 'LOCAL', 'train.py', '', 'me', "
        "'FINISHED', 1000, 9000, '', 'active', '/mlruns/0/a', 0);"
        "INSERT INTO params VALUES ('workload', '3', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');"
        "INSERT INTO tags VALUES ('mlflow.runName', 'old run', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');"
        "INSERT INTO metrics VALUES ('SN Active', 0.5, 2000, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 0, 0);"
        "INSERT INTO metrics VALUES ('SN Active', 0.7, 3000, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 0, 0);",
        nullptr, nullptr, nullptr);
    sqlite3_close(db);
    auto store = openStore(path, OpenMode::OpenExisting);
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].name, "old run");
    EXPECT_EQ(runs[0].workload(), "3");
    EXPECT_EQ(store->metricKeys({runs[0].uuid}), std::vector<std::string>{"SN Active"});
    EXPECT_DOUBLE_EQ(store->latestMetrics(runs[0].uuid).at("SN Active").value, 0.7);
    EXPECT_EQ(store->series(runs[0].uuid, "SN Active").size(), 2u);
    // Writing into the old generation works too.
    store->logMetrics(runs[0].uuid, {{"SN Active", 0.9, 4000, 0}});
    EXPECT_DOUBLE_EQ(store->latestMetrics(runs[0].uuid).at("SN Active").value, 0.9);
    EXPECT_EQ(store->experiments().at(0).name, "Default");
}

TEST(SqliteStore, ReaderSeesWritesOfAnotherConnectionWhileWriting) {
    TempDir dir;
    auto writer = freshStore(dir);
    auto reader = openStore(dir.file("s.db"), OpenMode::OpenExisting);
    radt::Run run = writer->createRun({0, "live", 0, "u", "s", RunStatus::Running});
    for (int batch = 0; batch < 5; ++batch) {
        std::vector<MetricPoint> pts;
        for (int i = 0; i < 1000; ++i)
            pts.push_back({"x", double(i), int64_t(batch) * 1000 + i, 0});
        writer->logMetrics(run.uuid, pts);
        EXPECT_EQ(reader->series(run.uuid, "x").size(), size_t(batch + 1) * 1000);
    }
    EXPECT_EQ(reader->runs().at(0).status, RunStatus::Running);
}

TEST(RunUuid, EveryIdIsFreshRandomVersion4EvenAcrossAFork) {
    // Regression: ids came from a generator seeded with one 32-bit value per thread; a forked
    // child then repeated its parent's next id.
    std::set<std::string> seen;
    for (int i = 0; i < 10000; ++i) {
        const std::string id = radt::newRunUuid();
        ASSERT_TRUE(radt::isRunUuid(id)) << id;
        ASSERT_EQ(id[12], '4') << "version 4: " << id;
        ASSERT_NE(std::string("89ab").find(id[16]), std::string::npos) << "RFC 4122 variant: " << id;
        ASSERT_TRUE(seen.insert(id).second) << "repeated " << id;
    }
    int pipeFds[2];
    ASSERT_EQ(::pipe(pipeFds), 0);
    const pid_t child = ::fork();
    if (child == 0) {
        const std::string id = radt::newRunUuid();
        (void)!::write(pipeFds[1], id.data(), id.size());
        ::_exit(0);
    }
    const std::string parent = radt::newRunUuid();
    char buf[32];
    ASSERT_EQ(::read(pipeFds[0], buf, sizeof buf), 32);
    ::waitpid(child, nullptr, 0);
    EXPECT_NE(std::string(buf, 32), parent) << "a forked process made its parent's id";
    ::close(pipeFds[0]);
    ::close(pipeFds[1]);
}

// Regression: a store with damaged pages gave a report of 26 kJ for 62 kJ without an error (a damaged
// page of the read index read as fewer rows). Every page of a store, damaged in turn: reading the
// run's power series either gives all of it or fails with SQLite's "malformed", never fewer rows.
TEST(SqliteStore, ADamagedPageIsAnErrorNeverFewerRows) {
    radt::test::TempDir dir;
    const std::string clean = dir.file("clean.db");
    std::string uuid;
    {
        auto store = radt::openStore(clean, radt::OpenMode::CreateIfMissing);
        uuid = store->createRun({0, "r", 1700000000000, "u", "s", radt::RunStatus::Running}).uuid;
        std::vector<radt::MetricPoint> points;
        for (int i = 0; i < 600; ++i)
            points.push_back({"SMI - Power Draw", 100.0 + i % 7, 1700000000000 + i * 1000LL, 0});
        store->logMetrics(uuid, points);
        store->setRunStatus(uuid, radt::RunStatus::Finished, 1700000600000);
        store->maintenance().storageBytes(); // a WAL checkpoint: everything in the main file
    }
    const auto pages = std::filesystem::file_size(clean) / 4096;
    ASSERT_GT(pages, 50u);
    size_t errors = 0;
    for (uintmax_t page = 1; page < pages; ++page) {
        const std::string damaged = dir.file("damaged.db");
        std::filesystem::copy_file(clean, damaged, std::filesystem::copy_options::overwrite_existing);
        {
            FILE* f = std::fopen(damaged.c_str(), "r+b");
            ASSERT_TRUE(f);
            std::fseek(f, long(page * 4096 + 8), SEEK_SET); // the page header stays, its cells go
            const std::vector<char> zeros(2000, 0);
            std::fwrite(zeros.data(), 1, zeros.size(), f);
            std::fclose(f);
        }
        try {
            auto store = radt::openStore(damaged, radt::OpenMode::ReadOnly);
            const size_t read = store->series(uuid, "SMI - Power Draw").size();
            EXPECT_EQ(read, 600u) << "page " << page + 1 << " damaged: fewer rows without an error";
        } catch (const radt::StoreError& e) {
            ++errors;
            EXPECT_NE(std::string(e.what()).find("malformed"), std::string::npos) << e.what();
        }
    }
    EXPECT_GT(errors, 0u) << "some pages hold the series";
}
