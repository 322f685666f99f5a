// SPDX-License-Identifier: MIT
// Nothing lost when the store fails under a running collector: a store locked by
// another process when radt is stopped, a file system that fills up, frees and fills again, and
// two radt creating one new store at once. Real radt processes, real SQLite files, a real tmpfs.

#include "RadtProcess.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/RunReconciler.h"
#include "core/store/SpillFile.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace radt;
using radt::test::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kRadt = std::string(RADT_BINARY_DIR) + "/app/radt";

int64_t maxTimestamp(const Series& s) {
    return s.t.empty() ? 0 : s.t.back();
}

bool anyFileNamed(const std::string& dir, const std::string& name) {
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().filename() == name)
            return true;
    return false;
}

} // namespace

TEST(StoreFaults, ALockedStoreAtSigtermKeepsEverySampleAndTheNextRadtClosesTheRunKilled) {
    TempDir dir;
    const std::string db = dir.file("s.db");
    test::writeFile(dir.file("sleep.py"), "import time\ntime.sleep(60)\n");
    test::Radt radt(
        {"--store", db, "--no-env-capture", "--interval", "0.2", "-l", "top", dir.file("sleep.py")}, {});
    const std::string key = "TOP - CPU Utilization";
    ASSERT_TRUE(test::waitFor(
        [&] {
            if (!fs::exists(db))
                return false;
            try { // radt may be creating the file's schema right now
                auto store = openStore(db, OpenMode::OpenExisting);
                const auto runs = store->runs();
                return !runs.empty() && store->series(runs.front().uuid, key).size() >= 3;
            } catch (const StoreError&) {
                return false;
            }
        },
        20000))
        << radt.err();

    // Another process takes the write lock; radt keeps sampling, then is told to stop.
    sqlite3* locker = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &locker), SQLITE_OK);
    sqlite3_busy_timeout(locker, 10000);
    ASSERT_EQ(sqlite3_exec(locker, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
    const int64_t locked = nowMs();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const int64_t stopped = nowMs();
    ::kill(radt.pid(), SIGTERM);
    const int rc = radt.wait();
    const int64_t exited = nowMs();
    EXPECT_EQ(rc, 2) << "the exit code says the store did not get everything: " << radt.err();
    EXPECT_LT(exited - stopped, 20000) << "a stopped radt does not wait out the lock for long";
    EXPECT_NE(radt.err().find("samples are not in the store yet; they are kept"), std::string::npos)
        << radt.err();
    EXPECT_TRUE(anyFileNamed(dir.path(), kSpillFileName));
    EXPECT_TRUE(anyFileNamed(dir.path(), kPendingCloseFileName));
    sqlite3_exec(locker, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(locker);

    // The next radt that opens the store writes what was kept and closes the run as it ended.
    const std::string ls = "'" + kRadt + "' ls --store '" + db + "' > '" + dir.file("ls.out") + "' 2> '" +
                           dir.file("ls.err") + "'";
    ASSERT_EQ(std::system(ls.c_str()), 0) << test::readFile(dir.file("ls.err"));
    EXPECT_NE(test::readFile(dir.file("ls.err")).find("closed KILLED as its collector"), std::string::npos)
        << test::readFile(dir.file("ls.err"));
    auto store = openStore(db, OpenMode::OpenExisting);
    const radt::Run run = store->runs().front();
    EXPECT_EQ(run.status, RunStatus::Killed) << "KILLED as it ended, not FAILED";
    ASSERT_TRUE(run.endTime);
    EXPECT_LE(*run.endTime, exited) << "end_time is when the workload ended, not after the wait";
    EXPECT_EQ(run.tags.at(kUnwrittenSamplesTag), "0") << "every kept sample reached the store";
    const Series s = store->series(run.uuid, key);
    EXPECT_GE(maxTimestamp(s), stopped - 600) << "samples taken while the store was locked are in it";
    size_t duringLock = 0;
    for (int64_t t : s.t)
        duringLock += t >= locked && t <= stopped;
    EXPECT_GE(duringLock, 5u) << "1.5 s of 0.2 s samples while locked";
    EXPECT_FALSE(anyFileNamed(dir.path(), kSpillFileName)) << "removed once written";
    EXPECT_FALSE(anyFileNamed(dir.path(), kPendingCloseFileName));
}

// A file system that fills up, frees and fills again while radt records: nothing that was
// sampled while space came and went is lost, output.log keeps every line, and a disk still full
// at the end is said in the exit code, with the run not left RUNNING by the next radt.
TEST(StoreFaults, AFileSystemThatFillsUpLosesNothingAndSaysWhatItCouldNotKeep) {
    if (::geteuid() != 0 || std::system("unshare -m true 2>/dev/null") != 0)
        GTEST_SKIP() << "needs root and mount namespaces to mount a small tmpfs";
    TempDir dir;
    const std::string mnt = dir.file("small");
    fs::create_directories(mnt);
    test::writeFile(dir.file("w.py"), "import time\nfor i in range(8):\n    print('line', i, flush=True)\n"
                                      "    time.sleep(1)\n");
    // Inside a private mount namespace: a 6 MiB tmpfs holds the store and the artifacts; `fill`
    // takes its free space and gives it back. The store is copied out before the namespace goes.
    auto scenario = [&](bool fullAtTheEnd) {
        const std::string q = test::shellQuote(mnt);
        std::string script =
            "set -u; mount -t tmpfs -o size=6m tmpfs " + q + " || exit 99\n" + test::shellQuote(kRadt) +
            " --store " + q + "/s.db --no-env-capture --interval 0.1 -l top+proc+ps " +
            test::shellQuote(dir.file("w.py")) + " >" + test::shellQuote(dir.file("radt.out")) + " 2>" +
            test::shellQuote(dir.file("radt.err")) + " & pid=$!\n" + "sleep 2; dd if=/dev/zero of=" + q +
            "/fill bs=64k 2>/dev/null; sleep 2; rm -f " + q + "/fill; sleep 1\n" + "dd if=/dev/zero of=" + q +
            "/fill bs=64k 2>/dev/null; sleep 1\n" + (fullAtTheEnd ? "" : "rm -f " + q + "/fill\n") +
            "wait $pid; rc=$?; rm -f " + q + "/fill\n" + "cp -a " + q + "/. " +
            test::shellQuote(dir.file("copy")) + "/\nexit $rc\n";
        fs::remove_all(dir.file("copy"));
        fs::create_directories(dir.file("copy"));
        test::writeFile(dir.file("scenario.sh"), script);
        const int status =
            std::system(("unshare -m bash " + test::shellQuote(dir.file("scenario.sh"))).c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };

    const int rc = scenario(false);
    ASSERT_NE(rc, 99) << "mount failed";
    EXPECT_EQ(rc, 0) << test::readFile(dir.file("radt.err"));
    const std::string err = test::readFile(dir.file("radt.err"));
    EXPECT_NE(err.find("database or disk is full"), std::string::npos) << "the disk did fill up: " << err;
    EXPECT_NE(err.find("accepts writes again"), std::string::npos) << err;
    {
        auto store = openStore(dir.file("copy/s.db"), OpenMode::OpenExisting);
        const radt::Run run = store->runs().front();
        EXPECT_EQ(run.status, RunStatus::Finished);
        EXPECT_EQ(run.tags.count(kUnwrittenSamplesTag), 0u) << "nothing was lost";
        // 0.1 s samples over ~8 s with no gap longer than a few intervals: nothing lost mid-run.
        const Series s = store->series(run.uuid, "TOP - CPU Utilization");
        ASSERT_GT(s.size(), 50u);
        for (size_t i = 1; i < s.size(); ++i)
            ASSERT_LT(s.t[i] - s.t[i - 1], 1000) << "a hole in the samples at " << i;
        std::string log;
        for (const auto& e : fs::recursive_directory_iterator(dir.file("copy")))
            if (e.path().filename() == "output.log")
                log = test::readFile(e.path().string());
        for (int i = 0; i < 8; ++i)
            EXPECT_NE(log.find("line " + std::to_string(i) + "\n"), std::string::npos)
                << "output.log: " << log;
    }

    // Still full when the workload ends: radt says so and exits 2; the run is not left RUNNING.
    EXPECT_EQ(scenario(true), 2) << test::readFile(dir.file("radt.err"));
    EXPECT_NE(test::readFile(dir.file("radt.err")).find("could not be written to the store"),
              std::string::npos)
        << test::readFile(dir.file("radt.err"));
    auto store = openStore(dir.file("copy/s.db"), OpenMode::OpenExisting);
    reconcileOrphanedRuns(*store); // what the next radt does on opening the store
    for (const radt::Run& r : store->runs())
        EXPECT_NE(r.status, RunStatus::Running) << r.uuid;
}

TEST(StoreFaults, TwoRadtCreatingOneNewStoreAtOnceBothRecord) {
    for (int attempt = 0; attempt < 5; ++attempt) {
        TempDir dir;
        const std::string db = dir.file("new.db");
        test::Radt a({"--store", db, "--no-env-capture", "true"}, {});
        test::Radt b({"--store", db, "--no-env-capture", "true"}, {});
        EXPECT_EQ(a.wait(), 0) << a.err();
        EXPECT_EQ(b.wait(), 0) << b.err();
        EXPECT_EQ(openStore(db, OpenMode::OpenExisting)->runs().size(), 2u) << "attempt " << attempt;
    }
}

// The store file deleted, or replaced by another file, while radt records into it: every write
// would land in a file nobody can open again. radt says so and exits 2 instead of "FINISHED".
TEST(StoreFaults, AStoreFileDeletedOrReplacedDuringARunIsSaidWithANonZeroExit) {
    TempDir dir;
    test::writeFile(dir.file("w.py"), "import time\nfor i in range(30):\n    time.sleep(0.1)\n");
    for (const bool replace : {false, true}) {
        const std::string db = dir.file(replace ? "replaced.db" : "deleted.db");
        test::Radt radt = test::startRadt(dir, {"--store", db, "--no-env-capture", "--interval", "0.1", "-l",
                                                "top+proc", dir.file("w.py")});
        ASSERT_TRUE(test::waitFor([&] { return fs::exists(db) && fs::file_size(db) > 0; }, 20000))
            << radt.err();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        if (replace) {
            auto other = openStore(dir.file("other.db"), OpenMode::CreateIfMissing);
            other.reset();
            fs::rename(dir.file("other.db"), db);
        } else {
            fs::remove(db);
        }
        EXPECT_EQ(radt.wait(), 2) << radt.err();
        EXPECT_NE(radt.err().find(std::string("the store file ") + db +
                                  (replace ? " was replaced" : " was deleted")),
                  std::string::npos)
            << radt.err();
        EXPECT_NE(radt.err().find("in no file anyone can open again"), std::string::npos) << radt.err();
    }
}

// --read-only while another process holds a write lock mid-transaction (MLflow's own stores use a
// rollback journal, so the pages of the uncommitted change are in the file): the reader waits for
// the lock and sees only committed data (the run FINISHED), never the change that was rolled back.
TEST(StoreFaults, ReadOnlyNeverReadsAnotherProcesssUncommittedChange) {
    TempDir dir;
    const std::string db = dir.file("journal.db");
    std::string uuid;
    {
        auto store = openStore(db, OpenMode::CreateIfMissing);
        const int64_t exp = store->getOrCreateExperiment("e");
        uuid = store->createRun({exp, "r", 1700000000000, "u", "s", RunStatus::Running}).uuid;
        store->setRunStatus(uuid, RunStatus::Finished, 1700000060000);
    }
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
    // The writer: a small page cache, so its uncommitted pages spill into the database file.
    test::writeFile(dir.file("writer.py"), R"PY(import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA cache_size=1")
db.execute("BEGIN EXCLUSIVE")
db.execute("UPDATE runs SET status = 'KILLED'")
for i in range(3000):
    db.execute("INSERT INTO params (key, value, run_uuid) VALUES (?, ?, ?)", ("p%d" % i, "x" * 200, sys.argv[2]))
open(sys.argv[3], "w").write("locked")
time.sleep(1.5)
db.execute("ROLLBACK")
)PY");
    const std::string command = "python3 " + test::shellQuote(dir.file("writer.py")) + " " +
                                test::shellQuote(db) + " " + uuid + " " +
                                test::shellQuote(dir.file("locked")) + " &";
    ASSERT_EQ(std::system(command.c_str()), 0);
    ASSERT_TRUE(test::waitFor([&] { return fs::exists(dir.file("locked")); }, 20000));
    auto reader = openStore(db, OpenMode::ReadOnly);
    const std::optional<radt::Run> run = reader->run(uuid);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, RunStatus::Finished) << "the rolled-back KILLED was read";
    EXPECT_TRUE(run->params.empty()) << "uncommitted params were read";
}
