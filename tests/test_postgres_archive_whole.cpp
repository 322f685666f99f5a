// SPDX-License-Identifier: MIT
// An archive copy never looks complete when it is not. Another MLflow client wrote a
// metric key MLflow's rules reject straight into a PostgreSQL store (by SQL, as a client that
// skips MLflow's checks would): into metrics alone, or into metrics and latest_metrics. The real
// `radt store archive` keeps such a run in the store, leaves its copy SCHEDULED in the archive
// (never FINISHED with part of its samples), names it and exits 1, on every rerun; `radt store
// copy` does the same.

#include "RadtProcess.h"
#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

using namespace radt;
using namespace radt::test;

namespace {

constexpr int64_t kDay = 86400000;
constexpr int64_t kMonday = 1767571200000; // 2026-01-05 00:00 UTC, a Monday

} // namespace

TEST(ArchiveWhole, ARunWithAKeyMlflowRejectsStaysAndIsNeverFinishedInTheArchive) {
    auto backend = makeBackend("postgresql");
    if (!backend->available())
        GTEST_SKIP() << backend->unavailableReason();
    const std::string uri = backend->freshUri();
    std::vector<std::string> runs;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        const int64_t exp = store->getOrCreateExperiment("old");
        for (int r = 0; r < 3; ++r) {
            const int64_t start = kMonday + r * kDay;
            runs.push_back(
                store->createRun({exp, "run " + std::to_string(r), start, "u", "s", RunStatus::Running})
                    .uuid);
            std::vector<MetricPoint> batch;
            for (int i = 0; i < 1000; ++i)
                batch.push_back({"SMI - Power Draw", 100.0 + i % 7, start + i * 1000, 0});
            store->logMetrics(runs.back(), batch);
            store->setRunStatus(runs.back(), RunStatus::Finished, start + 1000 * 1000);
        }
    }
    // Run 0: a key with '?' in metrics alone (1000 + 1 samples); run 1: a key with '{' in metrics
    // and latest_metrics, as MLflow's own SQL writes a point.
    ASSERT_EQ(
        psqlIn(uri, "INSERT INTO metrics (\\\"key\\\", value, timestamp, run_uuid, step, is_nan) VALUES "
                    "('bad?key', 1, " +
                        std::to_string(kMonday + 5000) + ", '" + runs[0] + "', 0, false)"),
        "");
    ASSERT_EQ(
        psqlIn(uri,
               "INSERT INTO metrics (\\\"key\\\", value, timestamp, run_uuid, step, is_nan) VALUES "
               "('loss{rank=0}', 2, " +
                   std::to_string(kMonday + kDay + 5000) + ", '" + runs[1] +
                   "', 0, false); INSERT INTO latest_metrics (\\\"key\\\", value, timestamp, step, is_nan, "
                   "run_uuid) VALUES ('loss{rank=0}', 2, " +
                   std::to_string(kMonday + kDay + 5000) + ", 0, false, '" + runs[1] + "')"),
        "");
    TempDir dir;
    const std::string archiveUri = "sqlite:///" + dir.file("archive.db");
    for (int attempt = 0; attempt < 2; ++attempt) { // every rerun says the same, changes nothing
        Radt archive = startRadt(
            dir, {"store", "archive", "--store", uri, "--before", "2026-03-01", "--to", archiveUri});
        EXPECT_EQ(archive.wait(), 1) << archive.err();
        EXPECT_NE(
            archive.err().find("radt: run " + runs[0] + " stays: its copy in " + archiveUri +
                               " is not whole (invalid metric key 'bad?key': MLflow keys may only contain"),
            std::string::npos)
            << archive.err();
        EXPECT_NE(archive.err().find("(1 samples not copied)), so it is SCHEDULED there"), std::string::npos)
            << archive.err();
        EXPECT_NE(archive.err().find("radt: run " + runs[1] + " stays: its copy in " + archiveUri +
                                     " is not whole (invalid metric key 'loss{rank=0}'"),
                  std::string::npos)
            << archive.err();
        const std::string expected =
            attempt == 0 ? "archived 1 runs (1000 samples)" : "archived 0 runs (0 samples)";
        EXPECT_NE(archive.out().find(expected), std::string::npos) << archive.out();
        EXPECT_NE(archive.out().find("; 2 run(s) left in the store"), std::string::npos) << archive.out();

        auto copy = openStore(archiveUri, OpenMode::ReadOnly);
        for (int r = 0; r < 2; ++r) {
            ASSERT_TRUE(copy->run(runs[r]));
            EXPECT_EQ(copy->run(runs[r])->status, RunStatus::Scheduled)
                << "never FINISHED with part of its samples";
            EXPECT_EQ(copy->pointCounts(runs[r]).at("SMI - Power Draw"), 1000);
        }
        EXPECT_EQ(copy->run(runs[2])->status, RunStatus::Finished);
        // Kept whole in the store: both runs with every sample, the other one gone.
        EXPECT_EQ(psqlIn(uri, "SELECT run_uuid || ':' || count(*) FROM metrics GROUP BY run_uuid ORDER BY 1"),
                  std::min(runs[0], runs[1]) + ":1001\n" + std::max(runs[0], runs[1]) + ":1001");
    }

    // radt store copy says the same of the runs it cannot copy whole.
    const std::string copyUri = "sqlite:///" + dir.file("copy.db");
    Radt copy = startRadt(dir, {"store", "copy", uri, copyUri});
    EXPECT_EQ(copy.wait(), 1) << copy.err();
    EXPECT_NE(copy.err().find("radt: run " + runs[0] + " was not copied whole: invalid metric key 'bad?key'"),
              std::string::npos)
        << copy.err();
    EXPECT_NE(copy.err().find("it is SCHEDULED in " + copyUri + ", never FINISHED with part of its data"),
              std::string::npos)
        << copy.err();
    EXPECT_EQ(openStore(copyUri, OpenMode::ReadOnly)->run(runs[0])->status, RunStatus::Scheduled);
}
