// SPDX-License-Identifier: MIT
// Kept envelopes and summary statistics (radt_envelopes, core/store/RunEnvelopes.h) follow the store:
// when another MLflow client changes a finished run's samples the way MLflow's own client and SQL
// can (a log_batch point older than the latest, a value logged again at the latest timestamp,
// which moves only latest_metrics.value, an UPDATE, a retention job's DELETE), the kept entries are
// stale and never shown: a summary and a chart read what the store holds now. Each change is made
// by another process (Python's sqlite3, the driver MLflow's SQLAlchemy store uses; psql), on every
// backend that keeps envelopes.

#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/Store.h"
#include "core/store/postgres/PostgresMaintenance.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <chrono>
#include <cmath>
#include <future>

using namespace radt;

namespace {

constexpr int64_t kT0 = 1700000000000;

/// `n` samples a second apart, an irregular swing: any changed value moves the mean.
std::vector<MetricPoint> samples(int n) {
    std::vector<MetricPoint> points;
    for (int i = 0; i < n; ++i)
        points.push_back(
            {"power", 100 + 50 * std::sin(i / 300.0) + (i % 13), kT0 + 1000 * int64_t(i), i / 100});
    return points;
}

void otherClient(const std::string& uri, const std::string& sql) {
    ASSERT_NO_THROW(test::sqlByAnotherClient(uri, sql));
}

void expectSameStats(const SeriesStats& got, const SeriesStats& want, const std::string& what) {
    EXPECT_EQ(got.samples, want.samples) << what;
    for (const auto& [a, b, field] :
         {std::tuple{got.mean, want.mean, "mean"}, std::tuple{got.p95, want.p95, "p95"},
          std::tuple{got.max, want.max, "max"}, std::tuple{got.min, want.min, "min"}})
        EXPECT_NEAR(a, b, 1e-9 * std::max(1.0, std::fabs(b))) << what << " " << field;
}

struct Change {
    const char* name;
    const char* sql; ///< $RUN is the run's uuid
};

/// What another client does to a finished run of 5,000 samples (t = kT0 + 1000 i, step i/100).
const Change kChanges[] = {
    // MLflow's log_batch of a point older than the latest: a metrics row; latest_metrics keeps its row.
    {"an older point logged", "INSERT INTO metrics (\"key\", value, timestamp, run_uuid, step, is_nan) "
                              "VALUES ('power', 9999, 1700000000500, '$RUN', 0, 1 = 0)"},
    // A value logged again at the latest timestamp and step: MLflow adds the row and changes only
    // latest_metrics.value, so its timestamp and step stay what an entry was made from.
    {"a value logged again at the latest timestamp",
     "INSERT INTO metrics (\"key\", value, timestamp, run_uuid, step, is_nan) "
     "VALUES ('power', 5000, 1700004999000, '$RUN', 49, 1 = 0); "
     "UPDATE latest_metrics SET value = 5000 WHERE run_uuid = '$RUN' AND \"key\" = 'power'"},
    {"values updated by SQL", "UPDATE metrics SET value = value * 3 WHERE run_uuid = '$RUN' AND timestamp < "
                              "1700001000000"},
    {"a retention job's delete", "DELETE FROM metrics WHERE run_uuid = '$RUN' AND timestamp < 1700002500000"},
};

std::string forRun(std::string sql, const std::string& run) {
    for (size_t at; (at = sql.find("$RUN")) != std::string::npos;)
        sql.replace(at, 4, run);
    return sql;
}

class EnvelopeFreshness : public test::BackendTest {};

} // namespace

TEST_P(EnvelopeFreshness, AnotherClientsChangeToAFinishedRunIsNeverShownFromKeptEntries) {
    for (const Change& change : kChanges) {
        SCOPED_TRACE(change.name);
        auto store = openStore(m_uri, OpenMode::CreateIfMissing);
        const std::string run = store->createRun({0, change.name, 0, "u", "s", RunStatus::Running}).uuid;
        store->logMetrics(run, samples(5000));
        store->setRunStatus(run, RunStatus::Finished, kT0 + 5000000);
        ASSERT_EQ(writeRunEnvelopes(*store, run), 1u) << "as radt does when it closes a run";
        const radt::Run finished = *store->run(run);
        // The explorer's connection, open before the change and after it, as a window's is.
        auto explorer = openStore(m_uri, OpenMode::OpenExisting);
        const SeriesStats before = runsSeriesStats(*explorer, {finished}, "power", explorer.get()).at(run);
        ASSERT_EQ(explorer->envelopes().storedEnvelopes({run}, "power", 1024).size(), 1u) << "fresh before";
        ASSERT_EQ(explorer->envelopes().storedEnvelopes({run}, "power", kStatsBuckets).size(), 1u)
            << "fresh before";

        otherClient(m_uri, forRun(change.sql, run));

        const Series now = explorer->series(run, "power");
        const SeriesStats want = seriesStats(now);
        ASSERT_NE(want.mean, before.mean) << "the change moves the mean";
        EXPECT_TRUE(explorer->envelopes().storedEnvelopes({run}, "power", 1024).empty())
            << "a stale envelope is not read";
        EXPECT_TRUE(explorer->envelopes().storedEnvelopes({run}, "power", kStatsBuckets).empty())
            << "stale statistics are not read";
        // The summary (and Compare Runs, which reads the same) computes them again and keeps them.
        expectSameStats(runsSeriesStats(*explorer, {finished}, "power", explorer.get()).at(run), want,
                        "summary");
        const auto kept = explorer->envelopes().storedEnvelopes({run}, "power", kStatsBuckets);
        ASSERT_EQ(kept.size(), 1u) << "kept again for the next summary";
        expectSameStats(statsOfEntry(kept.at(run), "kept"), want, "kept again");
        // The chart's envelope, made again (as a chart that read the run whole does), is the new series'.
        ASSERT_EQ(writeRunEnvelopes(*explorer, run), 1u);
        const auto envelope = explorer->envelopes().storedEnvelopes({run}, "power", 1024);
        ASSERT_EQ(envelope.size(), 1u);
        EXPECT_EQ(envelope.at(run).series.v, envelopeOf(now, now.t.front(), now.t.back(), 1024).v);
    }
}

TEST_P(EnvelopeFreshness, AChangeBetweenTheCountAndTheSaveLeavesTheEntryStale) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "r", 0, "u", "s", RunStatus::Finished}).uuid;
    store->logMetrics(run, samples(5000));
    // What a chart does: the count, the series read whole ...
    const std::optional<int64_t> changes = store->envelopes().envelopeChangeCount(run);
    ASSERT_TRUE(changes);
    const Series read = store->series(run, "power");
    // ... another client logs a point before the envelope is saved ...
    otherClient(m_uri, forRun(kChanges[0].sql, run));
    // ... so what is saved was made from the series before it, and is never read as fresh.
    ASSERT_TRUE(store->envelopes().saveEnvelopes(
        run, envelopesOf("power", read, store->latestMetrics(run).at("power"), *changes)));
    EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "power", 1024).empty());
    // Saved again at the count it was made at: fresh.
    const std::optional<int64_t> after = store->envelopes().envelopeChangeCount(run);
    ASSERT_TRUE(after);
    EXPECT_GT(*after, *changes);
    const Series now = store->series(run, "power");
    ASSERT_TRUE(store->envelopes().saveEnvelopes(
        run, envelopesOf("power", now, store->latestMetrics(run).at("power"), *after)));
    EXPECT_EQ(store->envelopes().storedEnvelopes({run}, "power", 1024).size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Backends, EnvelopeFreshness,
                         ::testing::Values("sqlite", "postgresql", "postgresql_unpartitioned",
                                           "sqlite_mlflow3", "postgresql_mlflow3"),
                         [](const auto& info) { return info.param; });

TEST(EnvelopeFreshnessSqlite, AMetricsTableRebuiltWithoutTheTriggersKeepsNothingUntilTheyAreBack) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("s.db");
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "r", 0, "u", "s", RunStatus::Finished}).uuid;
    store->logMetrics(run, samples(5000));
    ASSERT_EQ(writeRunEnvelopes(*store, run), 1u);
    // MLflow's migrations rebuild a table in SQLite (alembic's batch mode: a copy, the old table
    // dropped with its triggers, the copy renamed), and a value changes while nothing counts.
    otherClient(uri, "CREATE TABLE _alembic_tmp_metrics AS SELECT * FROM metrics; DROP TABLE metrics; "
                     "ALTER TABLE _alembic_tmp_metrics RENAME TO metrics; "
                     "UPDATE metrics SET value = value + 1 WHERE timestamp = 1700000001000");
    EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "power", 1024).empty())
        << "nothing proves it fresh";
    EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "power", kStatsBuckets).empty());
    const std::string tables = test::shellOutput(
        "python3 -c " +
        test::shellQuote("import sqlite3, sys\n"
                         "c = sqlite3.connect(sys.argv[1])\n"
                         "print(c.execute(\"SELECT count(*) FROM radt_envelopes\").fetchone()[0])\n") +
        " " + test::shellQuote(dir.file("s.db")));
    EXPECT_NE(tables, "0") << "kept rows are still there, only unread";
    // The next write makes the triggers again and drops what was kept while nothing counted.
    ASSERT_EQ(writeRunEnvelopes(*store, run), 1u);
    const Series now = store->series(run, "power");
    const auto envelope = store->envelopes().storedEnvelopes({run}, "power", 1024);
    ASSERT_EQ(envelope.size(), 1u);
    EXPECT_EQ(envelope.at(run).series.v, envelopeOf(now, now.t.front(), now.t.back(), 1024).v);
    otherClient(uri, forRun(kChanges[2].sql, run));
    EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "power", 1024).empty()) << "counted again";
    // A person drops our table to have everything made again: read as nothing kept, made anew.
    otherClient(uri, "DROP TABLE radt_envelopes");
    EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "power", 1024).empty());
    ASSERT_EQ(writeRunEnvelopes(*store, run), 1u);
    EXPECT_EQ(store->envelopes().storedEnvelopes({run}, "power", 1024).size(), 1u);
}

// Adding the triggers waits for every writer of metrics to commit, and every new writer queues
// behind it: behind a writer idle in its transaction (a notebook's open session) it would stall
// every collector. It waits a moment at most, keeps nothing this time, and keeps them afterwards.
TEST(EnvelopeFreshnessPostgres, MakingTheTriggersNeverWaitsBehindAWriterIdleInItsTransaction) {
    auto backend = test::makeBackend("postgresql");
    if (!backend->available())
        GTEST_SKIP() << backend->unavailableReason();
    const std::string uri = backend->freshUri();
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    const std::string running = store->createRun({0, "live", 0, "u", "s", RunStatus::Running}).uuid;
    const std::string finished = store->createRun({0, "done", 0, "u", "s", RunStatus::Finished}).uuid;
    store->logMetrics(finished, samples(5000));

    pqxx::connection notebook(uri);
    pqxx::work idle(notebook);
    idle.exec_params("INSERT INTO metrics (\"key\", value, timestamp, run_uuid, step, is_nan) "
                     "VALUES ('loss', 1, 1700000000000, $1, 0, false)",
                     running);
    auto count =
        std::async(std::launch::async, [&] { return store->envelopes().envelopeChangeCount(finished); });
    const bool returned = count.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
    if (!returned)
        idle.abort(); // let the waiting call end before the test fails
    ASSERT_TRUE(returned) << "envelopeChangeCount waited behind a writer idle in its transaction";
    EXPECT_FALSE(count.get()) << "nothing kept while the triggers could not be made";
    EXPECT_EQ(writeRunEnvelopes(*store, finished), 0u);

    idle.commit();
    ASSERT_EQ(writeRunEnvelopes(*store, finished), 1u) << "kept once the writer committed";
    EXPECT_EQ(store->envelopes().storedEnvelopes({finished}, "power", 1024).size(), 1u);
}

// radt store partition swaps metrics for a partitioned copy of the same rows: the kept envelopes
// stay fresh through it (the count goes on on the new table), and a change after it is counted.
TEST(EnvelopeFreshnessPostgres, KeptEnvelopesStayFreshThroughThePartitionConversionAndAreCountedAfter) {
    auto backend = test::makeBackend("postgresql_unpartitioned");
    if (!backend->available())
        GTEST_SKIP() << backend->unavailableReason();
    const std::string uri = backend->freshUri();
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "done", 0, "u", "s", RunStatus::Finished}).uuid;
    store->logMetrics(run, samples(5000));
    ASSERT_EQ(writeRunEnvelopes(*store, run), 1u);

    const PartitionOutcome converted = partitionStore(uri, "week");
    ASSERT_TRUE(converted.converted);
    auto after = openStore(uri, OpenMode::OpenExisting);
    EXPECT_EQ(after->envelopes().storedEnvelopes({run}, "power", 1024).size(), 1u) << "kept through the swap";
    EXPECT_EQ(after->envelopes().storedEnvelopes({run}, "power", kStatsBuckets).size(), 1u);
    otherClient(uri, forRun(kChanges[3].sql, run));
    EXPECT_TRUE(after->envelopes().storedEnvelopes({run}, "power", 1024).empty())
        << "a change on the new table counts";
}
