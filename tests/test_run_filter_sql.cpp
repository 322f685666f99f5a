// SPDX-License-Identifier: MIT
// MLflow's search syntax as SQL (core/store/RunFilterSql) on real stores: the runs of
// RunFilterCases.h recorded through the Store API into SQLite and PostgreSQL (and into both as
// MLflow's stores of 2019, without latest_metrics), each expression's SQL run by the database, and
// its answer held to the one runMatches() gives in memory. A metric is logged twice, so "latest"
// is the later step, not the larger or the first value.
#include "RunFilterCases.h"
#include "RunFilterStore.h"
#include "StoreTestBackends.h"
#include "core/StoreFactory.h"
#include "core/base/RunFilter.h"
#include "core/store/RunFilterSql.h"
#include "core/store/Store.h"

#include <pqxx/pqxx>
#include <sqlite3.h>

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>

using namespace radt;

// Outside an anonymous namespace: the tests derive from it (GCC's -Wsubobject-linkage).
class RunFilterSql : public test::FixtureStoreTest {
protected:
    bool postgres() const { return GetParam().rfind("postgresql", 0) == 0; }
    bool hasLatestMetrics() const { return GetParam().find("2019") == std::string::npos; }

    /// The fixture ids of the runs the database returns for `expression`.
    std::set<std::string> sqlAnswer(const std::string& expression) {
        const std::string where =
            runFilterSql(parseRunFilter(expression), postgres() ? SqlDialect::Postgres : SqlDialect::Sqlite,
                         hasLatestMetrics());
        const std::string sql = "SELECT run_uuid FROM runs WHERE lifecycle_stage = 'active' AND " + where;
        std::set<std::string> uuids;
        if (postgres()) {
            pqxx::connection connection(m_uri);
            pqxx::work work(connection);
            for (const auto& row : work.exec(sql))
                uuids.insert(row[0].as<std::string>());
        } else {
            sqlite3* db = nullptr;
            EXPECT_EQ(sqlite3_open_v2(m_uri.substr(std::string("sqlite:///").size()).c_str(), &db,
                                      SQLITE_OPEN_READONLY, nullptr),
                      SQLITE_OK);
            sqlite3_stmt* stmt = nullptr;
            EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
                << sqlite3_errmsg(db) << "\n"
                << sql;
            while (stmt && sqlite3_step(stmt) == SQLITE_ROW)
                uuids.insert(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
            sqlite3_finalize(stmt);
            sqlite3_close(db);
        }
        std::set<std::string> ids;
        for (const auto& [id, uuid] : m_ids)
            if (uuids.count(uuid))
                ids.insert(id);
        return ids;
    }
};

TEST_P(RunFilterSql, TheDatabaseReturnsTheRunsEachExpressionMustReturn) {
    size_t asked = 0;
    for (auto [expression, expected] : test::runFilterCases()) {
        if (expression.find("artifact_uri") != std::string::npos)
            continue; // the store chooses the folders; asked below
        // A run id names the store's uuid of that run.
        for (const auto& [id, uuid] : m_ids)
            expression = std::regex_replace(expression, std::regex("'" + id + "'"), "'" + uuid + "'");
        EXPECT_EQ(sqlAnswer(expression), expected) << GetParam() << ": " << expression;
        ++asked;
    }
    EXPECT_GE(asked, 40u);
    EXPECT_EQ(sqlAnswer("attributes.artifact_uri LIKE '%" + m_ids.at("c3") + "%'"),
              std::set<std::string>{"c3"});
}

// Store::searchRuns (what radt ls --filter asks) gives the same runs, in one experiment or all.
TEST_P(RunFilterSql, TheStoreSearchesWithTheSameAnswers) {
    auto store = openStore(m_uri, OpenMode::OpenExisting);
    const int64_t experiment = store->getOrCreateExperiment("search"); // made in SetUp: found
    for (const auto& [expression, expected] : test::runFilterCases()) {
        if (expression.find("artifact_uri") != std::string::npos ||
            expression.find("run_id") != std::string::npos)
            continue;
        for (const std::optional<int64_t> in :
             {std::optional<int64_t>(experiment), std::optional<int64_t>()}) {
            std::set<std::string> ids;
            for (const radt::Run& run : store->searchRuns(parseRunFilter(expression), in))
                for (const auto& [id, uuid] : m_ids)
                    if (uuid == run.uuid)
                        ids.insert(id);
            EXPECT_EQ(ids, expected) << GetParam() << ": " << expression;
        }
    }
    const std::vector<radt::Run> found = store->searchRuns(parseRunFilter("params.model = 'yolo'"));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found.front().params.at("batch-size"), "0064") << "a run found comes with its params";
    EXPECT_EQ(found.front().tags.at("team"), "detection") << "and its tags";
    EXPECT_TRUE(store->searchRuns(parseRunFilter("params.model = 'yolo'"), experiment + 1).empty())
        << "another experiment has none";
}

TEST_P(RunFilterSql, AValueCannotBreakOutOfItsLiteral) {
    // Quotes and SQL in a value or a key stay a value or a key: nothing matches, nothing is run.
    for (const std::string& expression : {std::string("params.model = 'x'' OR 1=1 --'"),
                                          std::string("tags.`team'; DROP TABLE runs; --` = 'a'"),
                                          std::string("params.model LIKE '%'' OR ''%'")})
        EXPECT_TRUE(sqlAnswer(expression).empty()) << expression;
    EXPECT_EQ(sqlAnswer("params.model = 'yolo'"), std::set<std::string>{"e5"})
        << "the runs table is still there";
}

INSTANTIATE_TEST_SUITE_P(Backends, RunFilterSql,
                         ::testing::Values("sqlite", "postgresql", "sqlite_2019", "postgresql_2019"));
