// SPDX-License-Identifier: MIT
// The locks that hold every writer back: `radt store partition`'s swap and `radt
// store archive`'s partition drop take ACCESS EXCLUSIVE on metrics, and PostgreSQL queues every
// later request behind a waiting one. A real session idle in a transaction that read metrics (an
// analyst's psql, as a second libpqxx connection) holds its lock; the real radt binary converts or
// archives meanwhile, and a real 2 s recording started during the wait must end normally within
// seconds. Then the reader ends and the command finishes, or (a short --lock-wait) gives up saying
// whom it waited for, with the store as it was.

#include "RadtProcess.h"
#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <chrono>
#include <future>
#include <regex>
#include <thread>

using namespace radt;
using namespace radt::test;

namespace {

constexpr int64_t kDay = 86400000;
constexpr int64_t kMonday = 1767571200000; // 2026-01-05 00:00 UTC, a Monday

/// Every old run's samples (experiment 'old', not the recordings'): its count and an md5 of its
/// rows in a fixed order.
std::string perRunDigest(const std::string& uri) {
    return psqlIn(
        uri, "SELECT run_uuid, count(*), md5(string_agg(m::text, ',' ORDER BY \\\"key\\\", timestamp, "
             "step, value)) FROM metrics m WHERE run_uuid IN (SELECT run_uuid FROM runs JOIN experiments "
             "USING (experiment_id) WHERE name = 'old') GROUP BY run_uuid ORDER BY run_uuid");
}

/// `runs` finished runs of `points` samples, a day apart from `firstMs`.
void recordRuns(Store& store, int runs, int points, int64_t firstMs) {
    const int64_t exp = store.getOrCreateExperiment("old");
    for (int r = 0; r < runs; ++r) {
        const int64_t start = firstMs + r * kDay;
        const std::string uuid =
            store
                .createRun({exp, "run " + std::to_string(r), start, "tester", "train.py", RunStatus::Running})
                .uuid;
        std::vector<MetricPoint> batch;
        for (int i = 0; i < points; ++i)
            batch.push_back({"SMI - Power Draw", 100.0 + i % 17, start + i * 1000, 0});
        store.logMetrics(uuid, batch);
        store.setRunStatus(uuid, RunStatus::Finished, start + points * 1000);
    }
}

/// A session idle in its transaction after reading metrics: an analyst's psql left open.
class IdleReader {
public:
    explicit IdleReader(const std::string& uri) : m_c(uri) {
        pqxx::nontransaction(m_c).exec("SET application_name = 'analyst_psql'");
        m_tx = std::make_unique<pqxx::work>(m_c);
        m_tx->exec("SELECT count(*) FROM metrics");
    }
    int pid() const { return m_c.backendpid(); }
    void end() { m_tx.reset(); } // rolled back: its locks go

private:
    pqxx::connection m_c;
    std::unique_ptr<pqxx::work> m_tx;
};

/// The exit status of `r` if it ends within `seconds`, else nullopt.
std::optional<int> exitWithin(std::future<int>& r, int seconds) {
    if (r.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready)
        return std::nullopt;
    return r.get();
}

class PostgresLockWaits : public ::testing::Test {
protected:
    void SetUp() override {
        m_backend = makeBackend("postgresql");
        if (!m_backend->available())
            GTEST_SKIP() << m_backend->unavailableReason();
        writeTicksWorkload(m_dir);
    }
    /// A 2 s recording (20 ticks 0.1 s apart) into `uri`.
    Radt record(const std::string& uri) {
        return startRadt(m_dir, {"--store", uri, "--no-env-capture", "-l", "top", "--interval", "0.2", "-e",
                                 "live", m_dir.file("ticks.py"), "20", "0.1"});
    }
    /// Starts a 2 s recording while `waiting` waits for its lock, and checks it ends normally
    /// within seconds: exit 0, FINISHED, every tick. Ends `reader` first when it does not, so
    /// nothing hangs.
    void recordingEndsNormally(const std::string& uri, IdleReader& reader) {
        const auto started = std::chrono::steady_clock::now();
        Radt recording = record(uri);
        std::future<int> ended = std::async(std::launch::async, [&] { return recording.wait(); });
        const std::optional<int> rc = exitWithin(ended, 20);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (!rc) {
            reader.end();
            ended.wait();
            FAIL() << "a 2 s recording did not end within 20 s while the command waited: " << recording.err();
        }
        EXPECT_EQ(*rc, 0) << recording.err();
        std::printf("recording during the wait: %.1f s\n", seconds);
        EXPECT_LT(seconds, 12.0) << recording.err();
        auto store = openStore(uri, OpenMode::ReadOnly);
        for (const radt::Run& run : store->runs())
            if (run.name.find("ticks") != std::string::npos || store->series(run.uuid, "tick").size() > 0) {
                EXPECT_EQ(run.status, RunStatus::Finished);
                EXPECT_EQ(store->series(run.uuid, "tick").size(), 20u) << "every sample of the recording";
                return;
            }
        ADD_FAILURE() << "the recording's run is not in the store";
    }
    std::unique_ptr<StoreBackend> m_backend;
    TempDir m_dir;
};

bool waitForLine(const Radt& r, const std::string& needle, int timeoutMs) {
    return waitFor([&] { return r.err().find(needle) != std::string::npos; }, timeoutMs);
}

} // namespace

TEST_F(PostgresLockWaits, TheSwapWaitsBehindAnIdleReaderWithoutStallingARecordingThenFinishes) {
    ::setenv("RADT_PARTITION_PERIOD", "none", 1); // a store from before partitions
    const std::string uri = m_backend->freshUri();
    recordRuns(*openStore(uri, OpenMode::CreateIfMissing), 3, 300, kMonday);
    ::unsetenv("RADT_PARTITION_PERIOD");
    IdleReader reader(uri);

    Radt partition = startRadt(m_dir, {"store", "partition", "--store", uri, "--period", "day"});
    // Said within a try or two; a radt that only queues (never says) has queued by then too.
    EXPECT_TRUE(waitForLine(partition, "radt store partition: the swap: waiting for pid", 20000))
        << partition.err();
    // It names the session it waits for: pid, application, state and its transaction's age.
    EXPECT_TRUE(std::regex_search(partition.err(),
                                  std::regex("waiting for pid " + std::to_string(reader.pid()) +
                                             " \\('analyst_psql', user '[^']*', idle in transaction, its "
                                             "transaction open for [0-9]+ s\\)")))
        << partition.err();

    recordingEndsNormally(uri, reader);

    reader.end();
    std::future<int> done = std::async(std::launch::async, [&] { return partition.wait(); });
    const std::optional<int> rc = exitWithin(done, 30);
    ASSERT_TRUE(rc) << "the conversion did not finish once the reader ended: " << partition.err();
    EXPECT_EQ(*rc, 0) << partition.err();
    EXPECT_EQ(psqlIn(uri, "SELECT relkind FROM pg_class WHERE relname = 'metrics'"), "p");
    EXPECT_EQ(psqlIn(uri, "SELECT count(*) FROM metrics WHERE \\\"key\\\" = 'tick'"), "20");
    EXPECT_EQ(psqlIn(uri, "SELECT count(*) FROM metrics WHERE \\\"key\\\" = 'SMI - Power Draw'"), "900");
    const std::string said = partition.out();
    std::smatch held;
    ASSERT_TRUE(
        std::regex_search(said, held,
                          std::regex("writers held back for ([0-9]+) ms by the swap, after ([0-9]+) tries "
                                     "that waited for its lock \\(writers held back ([0-9]+) ms")))
        << partition.out();
    std::printf("swap: writers held %s ms; %s tries before, holding them %s ms in all\n",
                held[1].str().c_str(), held[2].str().c_str(), held[3].str().c_str());
    EXPECT_LT(std::stoi(held[1]), 1000) << partition.out();
}

TEST_F(PostgresLockWaits, TheSwapGivesUpAfterTheLockWaitNamingTheReaderWithTheStoreAsItWas) {
    ::setenv("RADT_PARTITION_PERIOD", "none", 1);
    const std::string uri = m_backend->freshUri();
    recordRuns(*openStore(uri, OpenMode::CreateIfMissing), 3, 300, kMonday);
    ::unsetenv("RADT_PARTITION_PERIOD");
    const std::string before = perRunDigest(uri);
    IdleReader reader(uri);

    Radt partition =
        startRadt(m_dir, {"store", "partition", "--store", uri, "--period", "day", "--lock-wait", "2"});
    std::future<int> done = std::async(std::launch::async, [&] { return partition.wait(); });
    const std::optional<int> rc = exitWithin(done, 30);
    if (!rc)
        reader.end();
    ASSERT_TRUE(rc) << "still waiting after 30 s with --lock-wait 2: " << partition.err();
    EXPECT_EQ(*rc, 2) << partition.err();
    EXPECT_NE(
        partition.err().find("radt: radt store partition: the swap: gave up after 2 s waiting for its lock, "
                             "held by pid " +
                             std::to_string(reader.pid()) + " ('analyst_psql'"),
        std::string::npos)
        << partition.err();
    EXPECT_NE(partition.err().find("nothing was changed: metrics is as it was"), std::string::npos)
        << partition.err();
    EXPECT_EQ(psqlIn(uri, "SELECT relkind FROM pg_class WHERE relname = 'metrics'"), "r");
    EXPECT_EQ(perRunDigest(uri), before);

    reader.end(); // the analyst goes home: the conversion can be run again
    Radt again =
        startRadt(m_dir, {"store", "partition", "--store", uri, "--period", "day", "--lock-wait", "10"});
    EXPECT_EQ(again.wait(), 0) << again.err();
    EXPECT_NE(again.out().find("partitioned metrics by day (resumed)"), std::string::npos) << again.out();
    EXPECT_EQ(psqlIn(uri, "SELECT relkind FROM pg_class WHERE relname = 'metrics'"), "p");
    EXPECT_EQ(perRunDigest(uri), before);
}

TEST_F(PostgresLockWaits, ArchivesPartitionDropWaitsBehindAnIdleReaderThenGivesUpWithNothingRemoved) {
    const std::string uri = m_backend->freshUri(); // partitioned by week
    recordRuns(*openStore(uri, OpenMode::CreateIfMissing), 3, 300, kMonday);
    const std::string before = perRunDigest(uri);
    IdleReader reader(uri); // read every partition of metrics, January's too
    const std::string archiveUri = "sqlite:///" + m_dir.file("archive.db");

    Radt archive = startRadt(m_dir, {"store", "archive", "--store", uri, "--before", "2026-03-01", "--to",
                                     archiveUri, "--lock-wait", "8"});
    EXPECT_TRUE(
        waitForLine(archive, "radt store archive: dropping the archived partitions: waiting for pid", 20000))
        << archive.err();
    EXPECT_NE(archive.err().find("('analyst_psql'"), std::string::npos) << archive.err();
    recordingEndsNormally(uri, reader);

    std::future<int> done = std::async(std::launch::async, [&] { return archive.wait(); });
    const std::optional<int> rc = exitWithin(done, 30);
    if (!rc)
        reader.end();
    ASSERT_TRUE(rc) << "still waiting after 30 s with --lock-wait 8: " << archive.err();
    EXPECT_EQ(*rc, 2) << archive.err();
    EXPECT_NE(archive.err().find("gave up after 8 s waiting for its lock, held by pid " +
                                 std::to_string(reader.pid())),
              std::string::npos)
        << archive.err();
    EXPECT_NE(archive.err().find("nothing was removed from"), std::string::npos) << archive.err();
    EXPECT_EQ(
        psqlIn(uri, "SELECT count(*) FROM runs WHERE experiment_id <> (SELECT experiment_id FROM experiments "
                    "WHERE name = 'live')"),
        "3");
    EXPECT_EQ(perRunDigest(uri), before) << "the old runs' samples, all there";
    EXPECT_EQ(psqlIn(uri, "SELECT count(*) FROM pg_class WHERE relname = 'metrics_p20260105'"), "1");

    reader.end();
    Radt again = startRadt(m_dir, {"store", "archive", "--store", uri, "--before", "2026-03-01", "--to",
                                   archiveUri, "--lock-wait", "10"});
    EXPECT_EQ(again.wait(), 0) << again.err();
    const std::string said = again.out();
    std::smatch held;
    ASSERT_TRUE(
        std::regex_search(said, held,
                          std::regex("archived 3 runs \\(900 samples\\) to .*; dropped 1 partitions, "
                                     "writers held back for ([0-9]+) ms; 0 run\\(s\\) left in the store")))
        << again.out();
    std::printf("archive drop: writers held %s ms\n", held[1].str().c_str());
    EXPECT_LT(std::stoi(held[1]), 1000);
    EXPECT_EQ(psqlIn(uri, "SELECT count(*) FROM pg_class WHERE relname = 'metrics_p20260105'"), "0");
}

// Two clients renaming two experiments to one name at once: the loser got the server's raw
// unique-constraint error (an index name, "duplicate key value"). Made to happen for real: another
// client's rename holds the name uncommitted while `radt experiment rename` checks (no one has it
// yet) and then waits on the name's index entry; the other commits, and radt says it in its own
// words with nothing changed.
TEST_F(PostgresLockWaits, ARenameThatLosesARaceForANameIsToldInRadtsWordsAndChangesNothing) {
    const std::string uri = m_backend->freshUri();
    int64_t mine = 0, theirs = 0;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        mine = store->getOrCreateExperiment("mine");
        theirs = store->getOrCreateExperiment("theirs");
    }
    pqxx::connection other(uri);
    auto colleague = std::make_unique<pqxx::work>(other);
    colleague->exec_params("UPDATE experiments SET name = 'shared' WHERE experiment_id = $1", theirs);
    Radt rename = startRadt(m_dir, {"experiment", "rename", "--store", uri, std::to_string(mine), "shared"});
    pqxx::connection watcher(uri);
    const bool waits = waitFor(
        [&] {
            return pqxx::nontransaction(watcher)
                       .exec1("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND "
                              "query LIKE 'UPDATE experiments SET name%'")[0]
                       .as<int>() > 0;
        },
        20000);
    colleague->commit();
    const int rc = rename.wait();
    ASSERT_TRUE(waits) << "radt never waited on the other client's name: " << rename.err();
    EXPECT_EQ(rc, 2) << rename.err();
    EXPECT_NE(rename.err().find("another client named an experiment 'shared'"), std::string::npos)
        << rename.err();
    EXPECT_EQ(rename.err().find("duplicate key"), std::string::npos) << rename.err();
    auto store = openStore(uri, OpenMode::ReadOnly);
    for (const Experiment& e : store->experiments()) {
        if (e.id == mine) {
            EXPECT_EQ(e.name, "mine") << "nothing changed";
        }
    }
}
