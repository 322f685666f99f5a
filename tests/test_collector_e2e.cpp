// SPDX-License-Identifier: MIT
// End to end: the real `radt` with every listener against fake nvidia-smi / dcgmi executables that
// replay the recorded real output (tests/fakes), real Python workloads using the radt module, and
// the crash paths: kill -9 of the collector, Ctrl-C, the time limit.

#include "RadtProcess.h"
#include "TempDir.h"
#include "collector/listeners/ChildProcess.h"
#include "core/StoreFactory.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/RunReconciler.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace radt;
using radt::test::TempDir;
using namespace radt::test;
namespace fs = std::filesystem;

namespace {

const std::string kDemo = std::string(RADT_SOURCE_DIR) + "/resources/examples/demo_train.py";

// Logs one "tick" per 50 ms through the radt module and writes its progress to a side file.
const char* kTickWorkload = R"PY(import os, sys, time
import radt
progress, count = sys.argv[1], int(sys.argv[2])
with radt.run.RADTBenchmark() as run:
    for i in range(count):
        run.log_metric("tick", i, i)
        # Atomically: a SIGTERM between truncating and writing must not leave it empty.
        with open(progress + ".tmp", "w") as f:
            f.write(str(i))
        os.replace(progress + ".tmp", progress)
        time.sleep(0.05)
)PY";

std::string storeUri(const TempDir& dir) {
    return "sqlite:///" + dir.file("e2e.db");
}

size_t seriesSize(const std::string& uri, const std::string& key) {
    try {
        auto store = openStore(uri, OpenMode::OpenExisting);
        auto runs = store->runs();
        return runs.empty() ? 0 : store->series(runs[0].uuid, key).v.size();
    } catch (const std::exception&) {
        return 0;
    }
}

} // namespace

TEST(CollectorE2E, GpuAndProcListenersWithSoftwareMetricsAndMaxEpoch) {
    TempDir dir;
    Radt r = startRadt(dir,
                       {"--store", storeUri(dir), "-l", "smi+dcgmi+top+ps+iostat+net+proc", "-d", "0+1",
                        "--interval", "0.2", "-i", "3", kDemo, "--epochs", "10", "--data-size", "4000"},
                       fakeEnv(dir));
    ASSERT_EQ(r.wait(), 0) << r.err();
    EXPECT_NE(r.out().find("Maximum epoch reached"), std::string::npos) << "the module stopped it at epoch 3";
    EXPECT_EQ(r.out().find("epoch 4/10"), std::string::npos);

    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_EQ(run.status, RunStatus::Finished);
    EXPECT_EQ(run.param("max_epoch"), "3");
    EXPECT_EQ(run.param("hidden"), "48") << "a param the script logged through the module";
    EXPECT_EQ(run.letter(), "0+1");

    // Software metrics with their epochs as steps.
    const Series loss = store->series(run.uuid, "loss");
    ASSERT_EQ(loss.step, (std::vector<int64_t>{1, 2, 3}));
    EXPECT_LT(loss.v.back(), 0.8);
    EXPECT_EQ(store->series(run.uuid, "accuracy").v.size(), 3u);

    // Hardware series from the replayed nvidia-smi and dcgmi output (resources/DESIGN.md §5 keys).
    const Series power = store->series(run.uuid, "SMI - Power Draw");
    ASSERT_FALSE(power.v.empty());
    EXPECT_DOUBLE_EQ(power.v.front(), 631.95);
    EXPECT_DOUBLE_EQ(store->series(run.uuid, "SMI - GPU Util").v.at(0), 1.0);
    EXPECT_DOUBLE_EQ(store->series(run.uuid, "SMI - Mem Used").v.at(0), 19818);
    EXPECT_DOUBLE_EQ(store->series(run.uuid, "SMI - Performance State").v.at(0), 0);
    EXPECT_FALSE(store->series(run.uuid, "SMI - Power Draw - GPU 1").v.empty()) << "second GPU, own series";
    EXPECT_DOUBLE_EQ(store->series(run.uuid, "DCGMI - Power Usage").v.at(0), 185.3);
    EXPECT_FALSE(store->series(run.uuid, "DCGMI - SM Active").v.empty());
    const auto keys = store->metricKeys(std::vector<std::string>{run.uuid});
    for (const char* key : {"TOP - CPU Utilization", "TOP - Memory Usage GB", "PROC - CPU Utilization",
                            "PROC - RSS MB", "iostat - Total MB read/s"})
        EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
    EXPECT_TRUE(std::any_of(keys.begin(), keys.end(),
                            [](const std::string& k) { return k.rfind("PS - CPU ", 0) == 0; }));

    // The tools were called as the real ones would be, once per run, and the DCGM group removed.
    const auto calls = test::splitLines(test::readFile(dir.file("fake.log")));
    std::vector<std::string> streaming;
    for (const auto& c : calls)
        if (c.find(" -q") == std::string::npos) // the environment report runs concurrently
            streaming.push_back(c);
    ASSERT_EQ(streaming.size(), 4u) << test::readFile(dir.file("fake.log"));
    EXPECT_EQ(countContaining(
                  test::readFile(dir.file("fake.log")),
                  "nvidia-smi --query-gpu=index,timestamp,power.draw,utilization.gpu,utilization.memory,"
                  "memory.used,pstate --format=csv,noheader,nounits -lms 200 -i 0,1"),
              1);
    const auto group = std::find_if(streaming.begin(), streaming.end(), [](const std::string& c) {
        return c.rfind("dcgmi group -c radt-", 0) == 0;
    });
    ASSERT_NE(group, streaming.end());
    EXPECT_NE(group->find(" -a 0,1"), std::string::npos) << *group;
    EXPECT_LT(group - streaming.begin(),
              std::find_if(streaming.begin(), streaming.end(),
                           [](const std::string& c) { return c.rfind("dcgmi dmon", 0) == 0; }) -
                  streaming.begin())
        << "the group exists before dmon watches it";
    const int dmon =
        countContaining(test::readFile(dir.file("fake.log")),
                        "dcgmi dmon -e 155,156,200,201,203,204,1001,1002,1003,1004,1005,1006,1007,"
                        "1008,1009,1010,1011,1012 -g 8 -d 200");
    EXPECT_EQ(dmon, 1);
    EXPECT_EQ(streaming.back(), "dcgmi group -d 8") << "the group is removed when the run ends";

    // Environment capture: the GPU report and host facts.
    EXPECT_NE(test::readFile(run.artifactUri + "/smi.txt").find("NVSMI LOG"), std::string::npos);
    EXPECT_FALSE(run.tags.at("radt.host.cores").empty());
    EXPECT_FALSE(run.tags.at("radt.host.kernel").empty());
    EXPECT_EQ(processesMentioning(dir.path()), 0) << "no tool left running";
}

TEST(CollectorE2E, DcgmiFallsBackWhenTheGpuRefusesProfilingFields) {
    TempDir dir;
    auto env = fakeEnv(dir);
    env["RADT_FAKE_DCGMI_REFUSE"] = "1002";
    // The workload lasts until dcgmi was started again with the fallback fields, and 2.5 s more
    // for its rows: a fixed 2 s was too short on a loaded machine (the relaunch came as it ended).
    test::writeFile(dir.file("w.py"), R"PY(import sys, time
deadline = time.time() + 60
def relaunched():
    try:
        return open(sys.argv[1]).read().count("dcgmi dmon") >= 2
    except OSError:
        return False
while not relaunched() and time.time() < deadline:
    time.sleep(0.1)
time.sleep(2.5)
)PY");
    Radt r = startRadt(dir,
                       {"--store", storeUri(dir), "-l", "dcgmi", "--interval", "0.2", "--no-env-capture",
                        "python3", dir.file("w.py"), dir.file("fake.log")},
                       env);
    ASSERT_EQ(r.wait(), 0) << r.err();
    EXPECT_EQ(countContaining(r.err(), "refused some fields (Error setting watches); continuing with fields "
                                       "155,156,200,201,203,204"),
              1)
        << r.err();
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_FALSE(store->series(run.uuid, "DCGMI - Power Usage").v.empty());
    EXPECT_FALSE(store->series(run.uuid, "DCGMI - GPU Utilization").v.empty());
    EXPECT_TRUE(store->series(run.uuid, "DCGMI - SM Active").v.empty());
    EXPECT_EQ(countContaining(test::readFile(dir.file("fake.log")), "dcgmi dmon"), 2);
}

TEST(CollectorE2E, MissingToolsAreNamedOnceAndTheRunGoesOn) {
    TempDir dir;
    Radt r = startRadt(dir,
                       {"--store", storeUri(dir), "-l", "smi+dcgmi+tegrastats+top", "--interval", "0.2",
                        "--no-env-capture", "python3", "-c", "import time; time.sleep(1)"},
                       {{"PATH", "/usr/bin:/bin"}});
    ASSERT_EQ(r.wait(), 0) << r.err();
    EXPECT_EQ(countContaining(r.err(),
                              "listener 'smi': nvidia-smi not found in PATH; the run continues without it"),
              1)
        << r.err();
    EXPECT_EQ(countContaining(r.err(), "listener 'dcgmi': dcgmi not found in PATH"), 1) << r.err();
    EXPECT_EQ(countContaining(r.err(), "listener 'tegrastats': tegrastats not found in PATH"), 1) << r.err();
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_EQ(run.status, RunStatus::Finished);
    EXPECT_FALSE(store->series(run.uuid, "TOP - Memory Usage GB").v.empty());
}

// A real H200 answers `nvidia-smi -i 7` with "No devices were found" and exit 6
// (nvidia-smi_query-gpu_h200_no_such_index.txt). A run shorter than the listener's first look at
// its tool (0.5 s) ended FINISHED with no GPU series and not a word about why.
TEST(CollectorE2E, AGpuToolThatRefusesAtOnceIsNamedInShortAndLongRuns) {
    for (const char* seconds : {"0.4", "1.5"}) {
        TempDir dir;
        Radt r = startRadt(dir,
                           {"--store", storeUri(dir), "-l", "smi", "-d", "7", "--interval", "0.2",
                            "--no-env-capture", "sleep", seconds},
                           fakeEnv(dir));
        ASSERT_EQ(r.wait(), 0) << r.err();
        EXPECT_EQ(countContaining(r.err(), "listener 'smi': nvidia-smi exited with code 6: No devices were "
                                           "found; the run continues without it"),
                  1)
            << "sleep " << seconds << ": " << r.err();
    }
}

TEST(CollectorE2E, ListListenersShowsWhatThisMachineHas) {
    TempDir dir;
    Radt with = startRadt(dir, {"--list-listeners"}, fakeEnv(dir));
    ASSERT_EQ(with.wait(), 0);
    Radt without = startRadt(dir, {"--list-listeners"}, {{"PATH", "/usr/bin:/bin"}});
    ASSERT_EQ(without.wait(), 0);
    auto lineFor = [](const std::string& text, const std::string& name) {
        for (const auto& l : test::splitLines(text))
            if (l.rfind(name + " ", 0) == 0)
                return l;
        return std::string();
    };
    EXPECT_NE(lineFor(with.out(), "smi").find("available"), std::string::npos) << with.out();
    EXPECT_EQ(lineFor(with.out(), "smi").find("unavailable"), std::string::npos) << with.out();
    EXPECT_NE(lineFor(without.out(), "smi").find("unavailable"), std::string::npos) << without.out();
    EXPECT_NE(lineFor(without.out(), "smi").find("nvidia-smi not found in PATH"), std::string::npos);
    EXPECT_NE(lineFor(without.out(), "top").find("available"), std::string::npos);
    EXPECT_EQ(lineFor(without.out(), "top").find("unavailable"), std::string::npos);
}

TEST(CollectorE2E, KillDashNineLosesAtMostTheLastFlushAndTheRunIsReconciled) {
    TempDir dir;
    test::writeFile(dir.file("tick.py"), kTickWorkload);
    const std::string progress = dir.file("progress");
    Radt r = startRadt(dir, {"--store", storeUri(dir), "-l", "top+proc", "--interval", "0.1",
                             "--no-env-capture", dir.file("tick.py"), progress, "600"});
    ASSERT_TRUE(waitFor([&] { return seriesSize(storeUri(dir), "tick") >= 20; }, 20000)) << r.err();
    ::kill(r.pid(), SIGKILL);
    EXPECT_EQ(r.wait(), 128 + SIGKILL);
    const int lastLogged = std::stoi(test::readFile(progress));
    // The workload dies with its collector (PDEATHSIG) instead of running on unobserved.
    EXPECT_TRUE(waitFor([&] { return processesMentioning(dir.path()) == 0; }, 5000));
    EXPECT_EQ(test::readFile(progress), std::to_string(lastLogged)) << "the workload stopped";

    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(dir.file("e2e.db").c_str(), &db), SQLITE_OK);
        std::string check;
        sqlite3_exec(
            db, "PRAGMA integrity_check",
            [](void* out, int, char** values, char**) {
                *static_cast<std::string*>(out) += values[0] ? values[0] : "";
                return 0;
            },
            &check, nullptr);
        sqlite3_close(db);
        EXPECT_EQ(check, "ok") << "the store is consistent after the kill";
        auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
        const radt::Run run = store->runs().at(0);
        EXPECT_EQ(run.status, RunStatus::Running) << "nobody closed it yet";
        const Series ticks = store->series(run.uuid, "tick");
        // 50 ms per tick, flush every 250 ms: at most ~5 ticks (plus scheduling slack) are lost.
        EXPECT_GE(ticks.step.back(), lastLogged - 12) << "written before the kill: up to the last flush";
        for (size_t i = 0; i < ticks.step.size(); ++i)
            ASSERT_EQ(ticks.step[i], static_cast<int64_t>(i)) << "a consistent prefix, no gaps";
    }
    // The next radt invocation notices the collector is gone.
    Radt ls = startRadt(dir, {"ls", "--store", storeUri(dir)});
    ASSERT_EQ(ls.wait(), 0) << ls.err();
    EXPECT_EQ(countContaining(ls.err(), "marked FAILED: its collector (pid " + std::to_string(r.pid())), 1)
        << ls.err();
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_EQ(run.status, RunStatus::Failed);
    ASSERT_TRUE(run.endTime);
    int64_t lastSample = 0;
    for (const auto& [key, latest] : store->latestMetrics(run.uuid))
        lastSample = std::max(lastSample, latest.timestamp);
    EXPECT_EQ(*run.endTime, lastSample) << "the end time is the last sample's, not the time somebody looked";
    EXPECT_NE(run.tags.at(kFailureTag).find("ended without closing the run"), std::string::npos);
    EXPECT_EQ(reconcileOrphanedRuns(*store), 0u) << "idempotent";
}

TEST(CollectorE2E, CtrlCStopsEverythingFlushesAndClosesTheRunKilled) {
    TempDir dir;
    test::writeFile(dir.file("tick.py"), kTickWorkload);
    const std::string progress = dir.file("progress");
    Radt r = startRadt(dir,
                       {"--store", storeUri(dir), "-l", "smi+top+proc", "--interval", "0.1",
                        "--no-env-capture", dir.file("tick.py"), progress, "600"},
                       fakeEnv(dir));
    ASSERT_TRUE(waitFor([&] { return seriesSize(storeUri(dir), "tick") >= 10; }, 20000)) << r.err();
    ASSERT_GE(processesMentioning(dir.file("bin/nvidia-smi")), 1) << "the smi listener streams";
    ::kill(r.pid(), SIGINT);
    EXPECT_EQ(r.wait(), 130) << r.err();
    EXPECT_NE(r.err().find("KILLED"), std::string::npos) << r.err();
    EXPECT_EQ(processesMentioning(dir.path()), 0) << "workload and nvidia-smi are gone";

    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_EQ(run.status, RunStatus::Killed);
    ASSERT_TRUE(run.endTime);
    const int lastLogged = std::stoi(test::readFile(progress));
    const Series ticks = store->series(run.uuid, "tick");
    EXPECT_GE(ticks.step.back(), lastLogged - 1) << "everything the workload logged is written";
    EXPECT_FALSE(store->series(run.uuid, "SMI - Power Draw").v.empty());
}

TEST(CollectorE2E, TimeLimitStopsAWorkloadThatNeverLogs) {
    TempDir dir;
    const auto start = std::chrono::steady_clock::now();
    Radt r = startRadt(
        dir, {"--store", storeUri(dir), "-t", "0.03", "--grace", "1", "--no-env-capture", "sleep", "60"});
    EXPECT_EQ(r.wait(), 0) << r.err();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    EXPECT_EQ(countContaining(r.err(), "time limit of 1s reached; stopping the workload"), 1) << r.err();
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_EQ(run.status, RunStatus::Finished) << "a time-boxed benchmark ends as planned";
    EXPECT_EQ(run.tags.at("radt.stop_reason"), "max_time");
    EXPECT_EQ(run.param("max_time"), "1");
}

TEST(CollectorE2E, MalformedChannelLinesAreCountedAndReportedNotFatal) {
    TempDir dir;
    test::writeFile(dir.file("noisy.py"), R"PY(import os
f = os.fdopen(int(os.environ["RADT_METRICS_FD"]), "w")
f.write('{"metric": "good", "value": 1.5, "step": 1}\n')
f.write('this is not json\n')
f.write('{"metric": "bad%key", "value": 1}\n')
f.write('{"metric": "good", "value": 2.5, "step": 2}\n')
)PY");
    Radt r = startRadt(dir, {"--store", storeUri(dir), "--no-env-capture", dir.file("noisy.py")});
    ASSERT_EQ(r.wait(), 0) << r.err();
    EXPECT_EQ(countContaining(r.err(),
                              "2 malformed line(s) on RADT_METRICS_FD ignored; line 2: not a JSON object "
                              "('this is not json')"),
              1)
        << r.err();
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_EQ(run.status, RunStatus::Finished);
    EXPECT_EQ(store->series(run.uuid, "good").v, (std::vector<double>{1.5, 2.5}));
}

TEST(CollectorE2E, ManualModeSamplesOnlyInsideTheBenchmarkBlock) {
    TempDir dir;
    test::writeFile(dir.file("manual.py"), R"PY(import sys, time
import radt
time.sleep(1.5)
with open(sys.argv[1], "w") as f:
    f.write(str(int(time.time() * 1000)))
with radt.run.RADTBenchmark() as run:
    time.sleep(1.5)
time.sleep(1.5)
)PY");
    Radt r = startRadt(dir, {"--store", storeUri(dir), "--manual", "-l", "top", "--interval", "0.1",
                             "--no-env-capture", dir.file("manual.py"), dir.file("entered")});
    ASSERT_EQ(r.wait(), 0) << r.err();
    const int64_t entered = std::stoll(test::readFile(dir.file("entered")));
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_EQ(run.param("manual"), "True");
    const Series mem = store->series(run.uuid, "TOP - Memory Usage GB");
    ASSERT_GE(mem.t.size(), 5u);
    EXPECT_GE(mem.t.front(), entered - 50) << "nothing sampled before the block";
    EXPECT_LE(mem.t.back() - mem.t.front(), 1900) << "nor after it";
}

// A run's long series get their chart envelopes when radt closes the run (RunEnvelopes.h), so a
// chart of hundreds of such runs reads a few thousand points of each; a short one gets none.
TEST(CollectorE2E, AFinishedRunsLongSeriesHaveTheirChartEnvelopes) {
    TempDir dir;
    test::writeFile(dir.file("long.py"), R"PY(import radt
with radt.run.RADTBenchmark() as run:
    for i in range(3000):
        run.log_metric("tick", i % 100, i)
)PY");
    Radt r = startRadt(dir, {"--store", storeUri(dir), "-l", "top", "--interval", "0.2", "--no-env-capture",
                             dir.file("long.py")});
    ASSERT_EQ(r.wait(), 0) << r.err();
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    ASSERT_EQ(store->series(run.uuid, "tick").size(), 3000u);
    const auto envelopes = store->envelopes().storedEnvelopes({run.uuid}, "tick", envelopeLevels().front());
    ASSERT_EQ(envelopes.size(), 1u) << r.err();
    EXPECT_EQ(envelopes.at(run.uuid).pointCount, 3000);
    EXPECT_EQ(
        *std::max_element(envelopes.at(run.uuid).series.v.begin(), envelopes.at(run.uuid).series.v.end()),
        99.0);
    EXPECT_TRUE(store->envelopes()
                    .storedEnvelopes({run.uuid}, "TOP - CPU Utilization", envelopeLevels().front())
                    .empty())
        << "a few samples a second for a second or two: read whole";
}

TEST(CollectorE2E, ThePythonModuleIsANoOpOutsideRadt) {
    TempDir dir;
    const std::string cmd = "PYTHONPATH=" + std::string(RADT_SOURCE_DIR) +
                            "/resources/python RADT_MAX_EPOCH=1 python3 -c \"import radt\n"
                            "with radt.run.RADTBenchmark() as run:\n"
                            "    for e in range(5): run.log_metric('loss', 1.0, e)\n"
                            "print('ran', e)\" > " +
                            dir.file("out") + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << test::readFile(dir.file("out"));
    EXPECT_EQ(test::readFile(dir.file("out")), "ran 4\n") << "no channel: no output, no limits";
}

TEST(CollectorE2E, AToolsBinaryGarbageNeverReachesTheTerminalRaw) {
    // Regression: a misbehaving nvidia-smi's escapes and invalid bytes were echoed to stderr as is.
    TempDir dir;
    auto env = fakeEnv(dir);
    env["RADT_FAKE_SMI_GARBAGE"] = "1";
    Radt r = startRadt(dir,
                       {"--store", storeUri(dir), "-l", "smi", "--interval", "0.2", "--no-env-capture",
                        "python3", "-c", "import time; time.sleep(1.5)"},
                       env);
    ASSERT_EQ(r.wait(), 0) << r.err();
    const std::string err = r.err();
    EXPECT_NE(err.find("lines skipped"), std::string::npos) << err;
    EXPECT_NE(err.find("\\x1b[2J"), std::string::npos) << "shown escaped: " << err;
    for (unsigned char c : err)
        ASSERT_TRUE(c == '\n' || (c >= 0x20 && c != 0x7f && c < 0x80))
            << "raw byte " << int(c) << " in: " << err;
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    EXPECT_FALSE(store->series(store->runs().at(0).uuid, "SMI - Power Draw").v.empty())
        << "good rows still count";
}

TEST(CollectorE2E, AHangingEnvironmentCaptureIsStoppedAndNamed) {
    // Regression: a hanging `nvidia-smi -q` held the end of the run for 31 s without a word.
    TempDir dir;
    auto env = fakeEnv(dir);
    env["RADT_FAKE_SMI_HANG_Q"] = "1";
    env["RADT_ENV_CAPTURE_TIMEOUT"] = "2"; // the default 10 s would only make the test slower
    const auto started = std::chrono::steady_clock::now();
    Radt r = startRadt(dir, {"--store", storeUri(dir), "-l", "top", "python3", "-c", "print('done')"}, env);
    ASSERT_EQ(r.wait(), 0) << r.err();
    const auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count();
    EXPECT_NE(r.err().find("'nvidia-smi -q' did not finish within 2 s and was stopped; smi.txt is not saved"),
              std::string::npos)
        << r.err();
    EXPECT_LT(seconds, 15) << "bounded by the capture's timeout";
    EXPECT_EQ(processesMentioning(dir.path()), 0) << "the hanging tool was killed";
}

// A workload that logs an artifact named like radt's own captured output, while radt still writes
// that output: output.log stays radt's (every printed line, no NUL bytes), the user's file is kept
// as user-output.log with a notice; a folder, a FIFO and /dev/zero are refused saying what is wrong.
TEST(CollectorE2E, ArtifactsNeverOverwriteRadtsOwnFilesAndOddFilesAreNamed) {
    TempDir dir;
    fs::create_directories(dir.file("mine"));
    test::writeFile(dir.file("mine/output.log"), "the user's own log\n");
    ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
    test::writeFile(dir.file("art.py"), R"PY(import json, os, sys, time
f = os.fdopen(int(os.environ["RADT_METRICS_FD"]), "w")
for i in range(60):
    print("line", i, flush=True)
    if i == 30:
        for path in sys.argv[1:]:
            f.write(json.dumps({"artifact": path}) + "\n")
        f.flush()
    time.sleep(0.01)
)PY");
    Radt r = startRadt(dir, {"--store", storeUri(dir), "--no-env-capture", dir.file("art.py"),
                             dir.file("mine/output.log"), dir.file("mine"), dir.file("fifo"), "/dev/zero"});
    ASSERT_EQ(r.wait(), 0) << r.err();
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    const std::string log = test::readFile(run.artifactUri + "/output.log");
    for (int i = 0; i < 60; ++i)
        EXPECT_NE(log.find("line " + std::to_string(i) + "\n"), std::string::npos) << i << ": " << log;
    EXPECT_EQ(log.find('\0'), std::string::npos);
    EXPECT_EQ(log.find("the user's own log"), std::string::npos);
    EXPECT_EQ(test::readFile(run.artifactUri + "/user-output.log"), "the user's own log\n");
    EXPECT_EQ(countContaining(r.err(), "stored as user-output.log: output.log is radt's own file"), 1)
        << r.err();
    EXPECT_EQ(countContaining(r.err(), "'" + dir.file("mine") + "' not stored: it is a folder"), 1)
        << r.err();
    EXPECT_EQ(countContaining(r.err(), "'" + dir.file("fifo") + "' not stored: it is not a regular file"), 1)
        << r.err();
    EXPECT_EQ(countContaining(r.err(), "'/dev/zero' not stored: it is not a regular file"), 1) << r.err();
}

// `radt run delete --force` of a run being recorded: the collector wrote on and ended "FINISHED
// ... samples written" without a word that its run was gone from every view. It now says so at its
// end, with the command that brings the run back; every sample stays in the run.
TEST(CollectorE2E, ARunDeletedByAnotherClientWhileRecordedIsSaidWithTheWayBack) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    writeFile(dir.file("work.py"), "import os, time\n"
                                   "open(os.environ['STARTED'], 'w').write('started')\n"
                                   "while not os.path.exists(os.environ['GO']):\n"
                                   "    time.sleep(0.05)\n");
    Radt recording = startRadt(
        dir, {"--store", uri, "--interval", "0.2", "--no-env-capture", "python3", dir.file("work.py")},
        {{"STARTED", dir.file("started")}, {"GO", dir.file("go")}, {"XDG_DATA_HOME", dir.path()}});
    for (int i = 0; i < 600 && readFile(dir.file("started")).empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50)); // polls for the workload's word
    ASSERT_EQ(readFile(dir.file("started")), "started") << recording.err();
    auto store = openStore(uri, OpenMode::OpenExisting);
    ASSERT_EQ(store->runs().size(), 1u);
    const std::string uuid = store->runs().front().uuid;
    const RadtResult deleted = runRadtToEnd(dir, {"run", "delete", "--force", "--store", uri, uuid});
    ASSERT_EQ(deleted.rc, 0) << deleted.err;
    writeFile(dir.file("go"), "");
    ASSERT_EQ(recording.wait(), 0) << recording.err();
    EXPECT_NE(recording.err().find("run " + uuid + " was deleted by another client while it was recorded"),
              std::string::npos)
        << recording.err();
    EXPECT_NE(recording.err().find("`radt run restore " + uuid.substr(0, 8) + "` brings it back"),
              std::string::npos)
        << recording.err();
    store->curation().setRunDeleted(uuid, false);
    EXPECT_EQ(store->run(uuid)->status, RunStatus::Finished) << "closed as any run, only hidden";
}
