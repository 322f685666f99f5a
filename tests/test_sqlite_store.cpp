#include "MlflowLimits.h"
#include "SqliteStore.h"
#include "TempDir.h"
#include "Uuid.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <unistd.h>

using namespace radt;
using radt::test::TempDir;

namespace {

std::unique_ptr<Store> freshStore(const TempDir& dir) {
    return openStore("sqlite:///" + dir.file("s.db"), OpenMode::CreateIfMissing);
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
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

TEST(SqliteStore, RoundTripRunParamsTagsMetrics) {
    TempDir dir;
    int64_t start = 0;
    std::string uuid;
    {
        auto store = freshStore(dir);
        const int64_t exp = store->getOrCreateExperiment("resnet sweep");
        EXPECT_EQ(store->getOrCreateExperiment("resnet sweep"), exp);
        NewRun spec;
        spec.experimentId = exp;
        spec.name = "(1 0) train.py";
        spec.startTime = start = 1700000000000;
        radt::Run run = store->createRun(spec);
        uuid = run.uuid;
        EXPECT_TRUE(isRunUuid(uuid));
        EXPECT_NE(run.artifactUri.find(uuid), std::string::npos);
        store->logParams(uuid,
                         {{"workload", "1"}, {"letter", "0"}, {"model", "train.py"}, {"batch-size", "256"}});
        store->logParams(uuid, {{"letter", "0"}}); // same value again is fine, as in MLflow
        store->setTags(uuid, {{"mlflow.parentRunId", "abc"}});
        std::vector<MetricPoint> points;
        for (int i = 0; i < 100; ++i)
            points.push_back({"loss", 1.0 / (i + 1), start + 1000 * i, i});
        points.push_back({"odd", std::numeric_limits<double>::quiet_NaN(), start, 0});
        points.push_back({"odd", std::numeric_limits<double>::infinity(), start + 1, 0});
        points.push_back({"odd", -std::numeric_limits<double>::infinity(), start + 2, 0});
        store->logMetrics(uuid, points);
        store->logMetrics(uuid, {points[5]}); // duplicate: ignored, not an error
        store->setRunStatus(uuid, RunStatus::Finished, start + 100000);
    }
    auto store = openStore("sqlite:///" + dir.file("s.db"), OpenMode::OpenExisting);
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    const radt::Run& r = runs[0];
    EXPECT_EQ(r.uuid, uuid);
    EXPECT_EQ(r.name, "(1 0) train.py");
    EXPECT_EQ(r.status, RunStatus::Finished);
    EXPECT_EQ(r.workload(), "1");
    EXPECT_EQ(r.letter(), "0");
    EXPECT_EQ(r.model(), "train.py");
    EXPECT_EQ(r.param("batch-size"), "256");
    EXPECT_EQ(r.tags.at("mlflow.runName"), "(1 0) train.py");
    EXPECT_EQ(r.tags.at("mlflow.parentRunId"), "abc");
    EXPECT_EQ(r.durationMs(0), 100000);

    EXPECT_EQ(store->metricKeys({uuid}), (std::vector<std::string>{"loss", "odd"}));
    Series loss = store->series(uuid, "loss");
    ASSERT_EQ(loss.size(), 100u);
    EXPECT_EQ(loss.t[0], start);
    EXPECT_EQ(loss.step[99], 99);
    EXPECT_DOUBLE_EQ(loss.v[3], 0.25);
    Series odd = store->series(uuid, "odd");
    ASSERT_EQ(odd.size(), 3u);
    EXPECT_TRUE(std::isnan(odd.v[0]));
    EXPECT_EQ(odd.v[1], 1.7976931348623157e308);
    EXPECT_EQ(odd.v[2], -1.7976931348623157e308);

    Series slice = store->seriesRange(uuid, "loss", start + 10000, start + 19000);
    ASSERT_EQ(slice.size(), 10u);
    EXPECT_EQ(slice.t.front(), start + 10000);
    EXPECT_EQ(slice.t.back(), start + 19000);

    auto latest = store->latestMetrics(uuid);
    EXPECT_EQ(latest.at("loss").step, 99);
    EXPECT_DOUBLE_EQ(latest.at("loss").value, 0.01);
}

TEST(SqliteStore, LatestMetricsKeepsGreatestStepThenTimestampThenValue) {
    TempDir dir;
    auto store = freshStore(dir);
    radt::Run run = store->createRun({0, "r", 1000, "u", "s", RunStatus::Running});
    store->logMetrics(run.uuid, {{"acc", 0.5, 5000, 3}, {"acc", 0.7, 4000, 2}});
    EXPECT_DOUBLE_EQ(store->latestMetrics(run.uuid).at("acc").value,
                     0.5);                                // step 3 wins over later batch order
    store->logMetrics(run.uuid, {{"acc", 0.9, 3000, 2}}); // smaller step: no change
    EXPECT_DOUBLE_EQ(store->latestMetrics(run.uuid).at("acc").value, 0.5);
    store->logMetrics(run.uuid, {{"acc", 0.6, 5000, 3}}); // same step+ts, greater value
    EXPECT_DOUBLE_EQ(store->latestMetrics(run.uuid).at("acc").value, 0.6);
    store->logMetrics(run.uuid, {{"acc", 0.1, 6000, 3}}); // later timestamp
    EXPECT_DOUBLE_EQ(store->latestMetrics(run.uuid).at("acc").value, 0.1);
}

TEST(SqliteStore, EnforcesMlflowLimitsWithClearErrors) {
    TempDir dir;
    auto store = freshStore(dir);
    radt::Run run = store->createRun({0, "r", 0, "u", "s", RunStatus::Running});
    EXPECT_NE(errorOf([&] {
                  store->logMetrics(run.uuid, {{"bad%key", 1, 1, 0}});
              }).find("'bad%key'"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->logMetrics(run.uuid, {{std::string(251, 'k'), 1, 1, 0}});
              }).find("251 characters"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->logParams(run.uuid, {{"p", std::string(6001, 'v')}});
              }).find("at most 6000"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->setTags(run.uuid, {{"t", std::string(8001, 'v')}});
              }).find("at most 8000"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { store->getOrCreateExperiment(std::string(257, 'e')); }).find("at most 256"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { store->getOrCreateExperiment(""); }).find("empty"), std::string::npos);
    store->logParams(run.uuid, {{"lr", "0.1"}});
    EXPECT_NE(errorOf([&] {
                  store->logParams(run.uuid, {{"lr", "0.2"}});
              }).find("cannot change"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->logMetrics("0123456789abcdef0123456789abcdef", {{"k", 1, 1, 0}});
              }).find("not found"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->createRun({42, "r", 0, "u", "s", RunStatus::Running});
              }).find("experiment 42"),
              std::string::npos);
    // A failed batch leaves nothing behind: one transaction.
    EXPECT_FALSE(errorOf([&] {
                     store->logMetrics(run.uuid, {{"good", 1, 1, 0}, {"b@d", 2, 2, 0}});
                 }).empty());
    EXPECT_TRUE(store->series(run.uuid, "good").empty());
    EXPECT_TRUE(mlflow::isValidKey("SMI - Power Draw"));
    EXPECT_TRUE(mlflow::isValidKey("a/b.c-d_e:f"));
    EXPECT_FALSE(mlflow::isValidKey("GPU %"));
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
    if (geteuid() == 0)
        GTEST_SKIP() << "root reads files regardless of permissions";
    TempDir dir;
    auto store = freshStore(dir);
    store.reset();
    std::filesystem::permissions(dir.file("s.db"), std::filesystem::perms::none);
    EXPECT_NE(errorOf([&] { openStore(dir.file("s.db"), OpenMode::OpenExisting); }).find("not readable"),
              std::string::npos);
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
