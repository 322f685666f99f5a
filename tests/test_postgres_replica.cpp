// SPDX-License-Identifier: MIT
// Reads that never slow the writers: a lab's primary PostgreSQL server takes the
// collectors' writes, a streaming replica (PostgreSQL's own replication, set up by pg_basebackup)
// serves the explorer. Two real servers of the test's own on loopback (PrivatePostgres): radt
// records into the primary; the replica shows the run while it runs (the rows the explorer's live
// polling reads) and when it has finished; a recording pointed at the replica is refused, naming it.

#include "PrivatePostgres.h"
#include "RadtProcess.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <limits>
#include <regex>
#include <thread>

using namespace radt;
using namespace radt::test;

TEST(PostgresReplica, TheExplorerFollowsARunOnAStreamingReplicaAndARecordingThereIsRefused) {
    PrivatePostgres primary, standby;
    if (!primary.unavailableReason().empty())
        GTEST_SKIP() << primary.unavailableReason();
    primary.initAndStart();
    ASSERT_EQ(primary.psql("CREATE DATABASE radt"), 0) << primary.log();
    // The store exists on the primary before the replica is made, as in a lab.
    openStore(primary.uri("radt"), OpenMode::CreateIfMissing)->getOrCreateExperiment("cluster");
    standby.startStandbyOf(primary);
    const std::string replicaUri = standby.uri("radt");

    TempDir dir;
    writeTicksWorkload(dir);
    Radt r = startRadt(dir, {"--store", primary.uri("radt"), "--no-env-capture", "-l", "top", "--interval",
                             "0.2", "-e", "cluster", dir.file("ticks.py"), "60", "0.1"}); // about 6 s

    // While it runs: the replica has the run, RUNNING, and its rows grow, read as the explorer's
    // live polling reads them (readLivePoll: the rows after the last one seen) on a read-only
    // connection.
    auto replica = openStore(replicaUri, OpenMode::ReadOnly);
    std::optional<radt::Run> seen;
    ASSERT_TRUE(waitFor(
        [&] {
            const auto runs = replica->runs();
            if (runs.empty())
                return false;
            seen = runs.front();
            return replica->series(seen->uuid, "tick").size() >= 5;
        },
        20000))
        << r.err() << standby.log();
    EXPECT_EQ(seen->status, RunStatus::Running);
    const Series first = replica->series(seen->uuid, "tick");
    ASSERT_TRUE(waitFor(
        [&] {
            return !replica
                        ->seriesRange(seen->uuid, "tick", first.t.back() + 1,
                                      std::numeric_limits<int64_t>::max())
                        .empty();
        },
        10000))
        << "no new rows reached the replica while the run went on";

    ASSERT_EQ(r.wait(), 0) << r.err();
    ASSERT_TRUE(waitFor(
        [&] {
            const auto run = replica->run(seen->uuid);
            return run && run->status == RunStatus::Finished &&
                   replica->series(seen->uuid, "tick").size() == 60;
        },
        20000))
        << "the finished run, every tick, on the replica";

    // Opened without --read-only (the explorer's default), the replica is read-only and says why.
    auto plain = openStore(replicaUri, OpenMode::OpenExisting);
    EXPECT_TRUE(plain->isReadOnly());
    EXPECT_NE(plain->openNotice().find("standby server (a streaming replica)"), std::string::npos)
        << plain->openNotice();
    EXPECT_EQ(plain->runs().size(), 1u);

    // A collector pointed at the replica is refused before it starts, naming the primary.
    Radt wrong = startRadt(
        dir, {"--store", replicaUri, "--no-env-capture", "-l", "top", dir.file("ticks.py"), "1", "0"});
    EXPECT_NE(wrong.wait(), 0);
    EXPECT_NE(
        wrong.err().find("it is a standby server (a streaming replica), which only reads; record into its "
                         "primary"),
        std::string::npos)
        << wrong.err();
}

// A standby whose primary died answers on with the store as it was: a run RUNNING
// forever. Opened, it says replication has stopped and how far behind it is; `radt ls` and `radt
// report` say so on stderr, the explorer in its status bar (the open notice).
TEST(PostgresReplica, AStandbyWhosePrimaryStoppedSaysReplicationStoppedAndHowFarBehindItIs) {
    PrivatePostgres primary, standby;
    if (!primary.unavailableReason().empty())
        GTEST_SKIP() << primary.unavailableReason();
    primary.initAndStart();
    ASSERT_EQ(primary.psql("CREATE DATABASE radt"), 0) << primary.log();
    std::string run;
    {
        auto store = openStore(primary.uri("radt"), OpenMode::CreateIfMissing);
        const int64_t exp = store->getOrCreateExperiment("cluster");
        run = store->createRun({exp, "running", nowMs(), "u", "train.py", RunStatus::Running}).uuid;
        store->logMetrics(run, {{"loss", 1.0, nowMs(), 0}});
    }
    standby.startStandbyOf(primary);
    const std::string replicaUri = standby.uri("radt");
    // The run goes on recording while the standby streams it: no warning, the notice says it
    // follows its primary.
    openStore(primary.uri("radt"), OpenMode::OpenExisting)->logMetrics(run, {{"loss", 0.5, nowMs(), 1}});
    ASSERT_TRUE(waitFor(
        [&] { return openStore(replicaUri, OpenMode::ReadOnly)->series(run, "loss").size() == 2; }, 20000))
        << standby.log();
    const std::string following = openStore(replicaUri, OpenMode::OpenExisting)->openNotice();
    EXPECT_NE(following.find("following its primary; streaming from its primary"), std::string::npos)
        << following;
    EXPECT_EQ(openStore(replicaUri, OpenMode::ReadOnly)->openNotice(), "");

    primary.stop(); // the primary dies; the standby keeps answering
    std::string notice;
    ASSERT_TRUE(waitFor(
        [&] {
            notice = openStore(replicaUri, OpenMode::ReadOnly)->openNotice();
            return !notice.empty();
        },
        30000))
        << standby.log();
    EXPECT_NE(notice.find("warning: " + replicaUri +
                          " is a standby server whose replication has stopped: no WAL "
                          "receiver is streaming from its primary"),
              std::string::npos)
        << notice;
    std::smatch lag;
    ASSERT_TRUE(
        std::regex_search(notice, lag,
                          std::regex("it shows the store as it was at its last replayed change, "
                                     "[0-9-]+ [0-9:]+ UTC \\(([0-9]+) s ago\\); runs shown RUNNING there "
                                     "may have ended since")))
        << notice;
    std::this_thread::sleep_for(std::chrono::seconds(2));
    TempDir dir;
    Radt ls = startRadt(dir, {"ls", "--store", replicaUri});
    EXPECT_EQ(ls.wait(), 0) << ls.err();
    EXPECT_NE(
        ls.err().find("radt: warning: " + replicaUri + " is a standby server whose replication has stopped"),
        std::string::npos)
        << ls.err();
    const std::string lsErr = ls.err();
    std::smatch later;
    ASSERT_TRUE(std::regex_search(lsErr, later, std::regex("UTC \\(([0-9]+) s ago\\)"))) << ls.err();
    EXPECT_GE(std::stoi(later[1]), std::stoi(lag[1]) + 2) << "the lag grows while the primary is away";
    EXPECT_NE(ls.out().find("RUNNING"), std::string::npos) << ls.out();
    Radt report = startRadt(dir, {"report", "--store", replicaUri, run});
    report.wait();
    EXPECT_NE(report.err().find("is a standby server whose replication has stopped"), std::string::npos)
        << report.err();
}
