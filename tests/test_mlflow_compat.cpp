// SPDX-License-Identifier: MIT
// Our writes into a database MLflow itself created (tests/fixtures/mlflow) keep it valid for
// MLflow: integrity, foreign keys, latest_metrics, and the column types MLflow's models expect.

#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/sqlite/SqliteStore.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <limits>

using namespace radt;

namespace {

std::vector<std::vector<std::string>> query(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    std::vector<std::vector<std::string>> rows;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
            const auto* t = sqlite3_column_text(stmt, i);
            row.push_back(t ? reinterpret_cast<const char*>(t) : "NULL");
        }
        rows.push_back(row);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

} // namespace

TEST(MlflowCompat, WritesIntoRealMlflowDatabaseKeepItValid) {
    test::TempDir dir;
    const std::string path = test::copyMlflowFixture(dir);
    std::string uuid;
    {
        auto store = openStore("sqlite:///" + path, OpenMode::OpenExisting);
        auto exps = store->experiments();
        ASSERT_EQ(exps.size(), 1u);
        EXPECT_EQ(exps[0].name, "Default");
        const int64_t exp = store->getOrCreateExperiment("radt compat");
        EXPECT_EQ(exp, 1);
        radt::Run run = store->createRun(
            {exp, "(1 0) train.py", 1700000000000, "tester", "train.py", RunStatus::Running});
        uuid = run.uuid;
        store->logParams(uuid,
                         {{"workload", "1"}, {"letter", "0"}, {"model", "train.py"}, {"batch-size", "256"}});
        store->setTags(uuid, {{"mlflow.parentRunId", uuid}});
        std::vector<MetricPoint> points;
        for (int i = 0; i < 10000; ++i)
            points.push_back({i % 2 ? "SMI - Power Draw" : "TOP - CPU Utilization", 50.0 + (i % 97) * 0.5,
                              1700000000000 + i * 100, i / 2});
        points.push_back({"loss", std::numeric_limits<double>::quiet_NaN(), 1700000000000, 0});
        points.push_back({"loss", std::numeric_limits<double>::infinity(), 1700000000001, 1});
        store->logMetrics(uuid, points);
        store->setRunStatus(uuid, RunStatus::Finished, 1700000001000);
    }
    {
        auto reopened = openStore("sqlite:///" + path, OpenMode::OpenExisting);
        EXPECT_EQ(reopened->runs().size(), 1u);
        EXPECT_EQ(reopened->series(uuid, "TOP - CPU Utilization").size(), 5000u);
        EXPECT_EQ(reopened->series(uuid, "SMI - Power Draw").size(), 5000u);
    }

    EXPECT_EQ(query(path, "PRAGMA integrity_check"), (std::vector<std::vector<std::string>>{{"ok"}}));
    EXPECT_TRUE(query(path, "PRAGMA foreign_key_check").empty());
    EXPECT_EQ(query(path, "SELECT version_num FROM alembic_version")[0][0], "c9d4e5f6a7b8");
    EXPECT_EQ(query(path, "SELECT count(*) FROM metrics")[0][0], "10002");

    // latest_metrics holds, per key, the row with the greatest (step, timestamp, value).
    const auto mismatches = query(path, R"(
        SELECT l."key" FROM latest_metrics l WHERE NOT EXISTS (
          SELECT 1 FROM metrics m WHERE m.run_uuid = l.run_uuid AND m."key" = l."key"
            AND m.step = l.step AND m.timestamp = l.timestamp AND m.value = l.value AND m.is_nan = l.is_nan)
        OR EXISTS (
          SELECT 1 FROM metrics m WHERE m.run_uuid = l.run_uuid AND m."key" = l."key"
            AND (m.step, m.timestamp, m.value) > (l.step, l.timestamp, l.value)))");
    EXPECT_TRUE(mismatches.empty()) << mismatches.size() << " wrong latest_metrics rows";
    EXPECT_EQ(query(path, "SELECT count(*) FROM latest_metrics")[0][0], "3");

    // Storage classes MLflow's SQLAlchemy models read back.
    EXPECT_EQ(
        query(path, "SELECT DISTINCT typeof(value), typeof(timestamp), typeof(step), typeof(is_nan), "
                    "typeof(run_uuid), typeof(\"key\") FROM metrics"),
        (std::vector<std::vector<std::string>>{{"real", "integer", "integer", "integer", "text", "text"}}));
    EXPECT_EQ(query(path, "SELECT typeof(start_time), typeof(end_time), typeof(experiment_id), status, "
                          "source_type, lifecycle_stage, length(run_uuid) FROM runs"),
              (std::vector<std::vector<std::string>>{
                  {"integer", "integer", "integer", "FINISHED", "LOCAL", "active", "32"}}));
    EXPECT_EQ(query(path, "SELECT DISTINCT typeof(value) FROM params"),
              (std::vector<std::vector<std::string>>{{"text"}}));
    EXPECT_EQ(query(path,
                    "SELECT typeof(experiment_id), typeof(creation_time), lifecycle_stage FROM experiments "
                    "WHERE name = 'radt compat'"),
              (std::vector<std::vector<std::string>>{{"integer", "integer", "active"}}));
    // NaN and inf as MLflow stores them.
    EXPECT_EQ(query(path, "SELECT value, is_nan FROM metrics WHERE \"key\" = 'loss' ORDER BY step"),
              (std::vector<std::vector<std::string>>{{"0.0", "1"}, {"1.79769313486232e+308", "0"}}));
    EXPECT_EQ(query(path, "SELECT value FROM tags WHERE \"key\" = 'mlflow.runName'")[0][0], "(1 0) train.py");
}

TEST(MlflowCompat, AnMlflow3StoreGetsExperimentsByNameInTheDefaultWorkspace) {
    // MLflow 3.11's own empty store: experiment names are unique per workspace.
    test::TempDir dir;
    const std::string path = dir.file("mlflow3.db");
    std::filesystem::copy_file(test::fixturePath("mlflow/mlflow_empty_7d34483879f0.db"), path);
    std::filesystem::permissions(path, std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    // Another workspace's experiment of the same name must not be taken for ours.
    ASSERT_EQ(sqlite3_exec(raw,
                           "INSERT INTO experiments (name, artifact_location, lifecycle_stage, workspace) "
                           "VALUES ('shared-name', '', 'active', 'team-b')",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(raw);
    sqlite3_close(raw);
    auto store = openStore("sqlite:///" + path, OpenMode::OpenExisting);
    const int64_t mine = store->getOrCreateExperiment("shared-name");
    EXPECT_EQ(store->getOrCreateExperiment("shared-name"), mine) << "found again, not created twice";
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(raw, "SELECT workspace FROM experiments WHERE experiment_id = ?", -1, &stmt, nullptr);
    sqlite3_bind_int64(stmt, 1, mine);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "default");
    sqlite3_finalize(stmt);
    sqlite3_close(raw);
}
