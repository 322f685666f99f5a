// SPDX-License-Identifier: MIT
// What `radt store compact` and `radt store copy` promise when interrupted: a real radt
// killed with SIGKILL at a chosen point, two real radt compacting one store at once (SQLite and
// PostgreSQL), a real full tmpfs. A run is compacted wholly or not at all, never twice; a copied
// run is FINISHED only once all its samples are there.

#include "CachedStore.h"
#include "RadtProcess.h"
#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "core/store/StoreCompaction.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <random>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace radt;
using radt::test::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000;
constexpr int kRuns = 4;
const char* const kKeys[] = {"SMI - Power Draw",      "SMI - GPU Util", "SMI - Memory Used",
                             "TOP - CPU Utilization", "PROC - RSS MB",  "SMI - Temperature",
                             "SMI - SM Clock",        "SMI - Fan Speed"};

/// `kRuns` finished runs as radt records them (a `listeners` param), each with eight 1 Hz
/// hardware series of `samples` noisy samples and a loss per 100 s, the same on every call.
void fillStore(Store& store, int samples) {
    const int64_t exp = store.getOrCreateExperiment("interrupt");
    std::mt19937 random(7);
    std::normal_distribution<double> noise(0, 3.0);
    for (int r = 0; r < kRuns; ++r) {
        const std::string uuid =
            store.createRun({exp, "run" + std::to_string(r), kT0, "u", "train.py", RunStatus::Running}).uuid;
        store.logParams(
            uuid, {{"workload", std::to_string(r + 1)}, {"letter", "0"}, {"listeners", "smi+top+proc"}});
        std::vector<MetricPoint> points;
        for (int i = 0; i < samples; ++i) {
            const double phase = double(i) / samples;
            for (size_t k = 0; k < std::size(kKeys); ++k)
                points.push_back({kKeys[k], 100.0 * double(k + 1) * (phase < 0.5 ? 1.0 : 2.0) + noise(random),
                                  kT0 + int64_t(i) * 1000, 0});
            if (i % 100 == 99)
                points.push_back({"loss", 1.0 / (i + 1), kT0 + int64_t(i) * 1000, i / 100});
        }
        store.logMetrics(uuid, points);
        store.setRunStatus(uuid, RunStatus::Finished, kT0 + int64_t(samples) * 1000);
    }
}

/// Rows per (run name, key): what the comparisons are made on.
std::map<std::string, size_t> rowCounts(Store& store) {
    std::map<std::string, size_t> rows;
    for (const radt::Run& run : store.runs())
        for (const std::string& key : store.metricKeys({run.uuid}))
            rows[run.name + "/" + key] = store.series(run.uuid, key).size();
    return rows;
}

/// A SQLite store at dir/name filled by fillStore(samples): a copy of one built once per build.
std::string filledStore(const TempDir& dir, const std::string& name, int samples) {
    return test::copyOfCachedStore(
        "interrupt-" + std::to_string(samples), [samples](Store& store) { fillStore(store, samples); },
        dir.file(name));
}

/// The rows a clean, uninterrupted compaction leaves, computed on a store of the same data (built
/// once per build, like the filled store).
std::map<std::string, size_t> cleanlyCompacted(const TempDir& dir, int samples) {
    const std::string path = test::copyOfCachedStore(
        "interrupt-" + std::to_string(samples) + "-compacted",
        [samples](Store& store) {
            fillStore(store, samples);
            compactRuns(store, store.runs(), parseTolerance("0.5%"));
        },
        dir.file("reference.db"));
    return rowCounts(*openStore("sqlite:///" + path, OpenMode::OpenExisting));
}

int64_t sqliteCount(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    int64_t n = -1;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 2000);
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
            n = sqlite3_column_int64(stmt, 0);
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return n;
}

int radtCommand(const std::string& args, const std::string& errFile) {
    const int status = std::system((test::shellQuote(std::string(RADT_BINARY_DIR) + "/app/radt") + " " +
                                    args + " >/dev/null 2>" + test::shellQuote(errFile))
                                       .c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

// kill -9 once the first run is compacted, while the second is under way: every run is either
// compacted and tagged (its rows what the tag says) or exactly as recorded; running the command
// again finishes the job with the rows of one clean compaction and the 1 s interval in every tag.
TEST(StoreInterruptions, CompactionKilledMidwayLeavesEachRunWholeOrAsItWasAndARerunMatchesACleanOne) {
    TempDir dir;
    // The full disk's size below: both share the cached store and its clean compaction, and a run
    // of 80,000 samples still takes seconds to compact under ASan, three of them after the kill.
    constexpr int kSamples = 10000;
    const std::string uri = "sqlite:///" + filledStore(dir, "store.db", kSamples);
    std::map<std::string, size_t> recorded = rowCounts(*openStore(uri, OpenMode::OpenExisting));
    test::Radt radt = test::startRadt(dir, {"store", "compact", "--store", uri, "interrupt"});
    ASSERT_TRUE(
        test::waitFor([&] { return radt.err().find("compacted 1/4 runs") != std::string::npos; }, 60000))
        << radt.err();
    ::kill(radt.pid(), SIGKILL);
    EXPECT_EQ(radt.wait(), 128 + SIGKILL) << "killed before it finished: make the runs larger" << radt.err();

    auto store = openStore(uri, OpenMode::OpenExisting);
    size_t compacted = 0;
    for (const radt::Run& run : store->runs()) {
        size_t rows = 0, before = 0;
        for (const char* key : kKeys) {
            rows += store->series(run.uuid, key).size();
            before += recorded.at(run.name + "/" + key);
        }
        if (run.tags.count(kCompactedTag)) {
            ++compacted;
            const auto tag = nlohmann::json::parse(run.tags.at(kCompactedTag));
            EXPECT_EQ(tag["rows_after"].get<size_t>(), rows) << run.name << " is wholly compacted";
            EXPECT_EQ(tag["rows_before"].get<size_t>(), before) << run.name;
        } else {
            EXPECT_EQ(rows, before) << run.name << " has no tag, so it must be as recorded";
        }
    }
    EXPECT_GE(compacted, 1u);
    EXPECT_LT(compacted, size_t(kRuns)) << "the kill came before the last run";

    ASSERT_EQ(radtCommand("store compact --store " + test::shellQuote(uri) + " interrupt", dir.file("err")),
              0)
        << test::readFile(dir.file("err"));
    EXPECT_NE(test::readFile(dir.file("err")).find("already compacted"), std::string::npos)
        << "the runs done before the kill are not thinned again";
    EXPECT_EQ(rowCounts(*store), cleanlyCompacted(dir, kSamples));
    for (const radt::Run& run : store->runs())
        EXPECT_EQ(nlohmann::json::parse(run.tags.at(kCompactedTag))["interval_ms"], 1000) << run.name;
}

class TwoCompactions : public ::testing::TestWithParam<const char*> {};

INSTANTIATE_TEST_SUITE_P(Backends, TwoCompactions, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return std::string(info.param); });

// Two radt compacting the same runs at the same time: each run is thinned once (the rows of one
// clean compaction), and the one that came second says it left the run alone.
TEST_P(TwoCompactions, CompactEachRunOnce) {
    auto backend = test::makeBackend(GetParam());
    if (!backend->available())
        GTEST_SKIP() << backend->unavailableReason();
    TempDir dir;
    constexpr int kSamples = 6000;
    const std::string uri = backend->freshUri();
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        fillStore(*store, kSamples);
    }
    test::Radt first = test::startRadt(dir, {"store", "compact", "--store", uri, "interrupt"});
    test::Radt second = test::startRadt(dir, {"store", "compact", "--store", uri, "interrupt"});
    ASSERT_EQ(first.wait(), 0) << first.err();
    ASSERT_EQ(second.wait(), 0) << second.err();
    auto store = openStore(uri, OpenMode::OpenExisting);
    EXPECT_EQ(rowCounts(*store), cleanlyCompacted(dir, kSamples)) << first.err() << second.err();
    const std::string both = first.err() + second.err();
    EXPECT_EQ(test::countContaining(both, "compacted by another radt meanwhile") +
                  test::countContaining(both, "already compacted"),
              kRuns)
        << "each run was left alone by one of the two: " << both;
}

// Out of disk space in the middle of compacting: the message names the run that was left as it
// was; that run and those after it are untouched; once there is room the command finishes.
TEST(StoreInterruptions, CompactionOnAFullDiskNamesTheRunLeftAsItWas) {
    if (::geteuid() != 0 || std::system("unshare -m true 2>/dev/null") != 0)
        GTEST_SKIP() << "needs root and mount namespaces to mount a small tmpfs";
    TempDir dir;
    constexpr int kSamples = 10000;
    filledStore(dir, "store.db", kSamples);
    const std::string mnt = dir.file("small");
    fs::create_directories(mnt);
    fs::create_directories(dir.file("copy"));
    const std::string radt = test::shellQuote(std::string(RADT_BINARY_DIR) + "/app/radt");
    const std::string m = test::shellQuote(mnt);
    // The store on a tmpfs with 512 KiB to spare: the first run's deletions need more than that.
    const auto storeKiB = fs::file_size(dir.file("store.db")) / 1024;
    const std::string script =
        "set -u; mount -t tmpfs -o size=" + std::to_string(storeKiB + 4096) + "k tmpfs " + m +
        " || exit 99\n" + "cp " + test::shellQuote(dir.file("store.db")) + " " + m + "/s.db\n" +
        "dd if=/dev/zero of=" + m + "/spare bs=512k count=1 2>/dev/null\n" + "dd if=/dev/zero of=" + m +
        "/fill bs=64k 2>/dev/null; rm -f " + m + "/spare\n" + radt + " store compact --store " + m +
        "/s.db interrupt >/dev/null 2>" + test::shellQuote(dir.file("full.err")) + "; echo $? >" +
        test::shellQuote(dir.file("full.rc")) + "\n" + "rm -f " + m +
        "/fill; mount -o remount,size=" + std::to_string(storeKiB * 3 + 4096) + "k " + m + "\n" + radt +
        " store compact --store " + m + "/s.db interrupt >/dev/null 2>" +
        test::shellQuote(dir.file("again.err")) + "; echo $? >" + test::shellQuote(dir.file("again.rc")) +
        "\n" + "cp -a " + m + "/s.db " + test::shellQuote(dir.file("copy")) + "/\n";
    test::writeFile(dir.file("scenario.sh"), script);
    ASSERT_EQ(test::shell("unshare -m bash " + test::shellQuote(dir.file("scenario.sh"))), 0)
        << test::readFile(dir.file("full.err"));
    const std::string err = test::readFile(dir.file("full.err"));
    EXPECT_EQ(test::readFile(dir.file("full.rc")), "2\n") << err;
    EXPECT_NE(err.find("disk is full"), std::string::npos) << err;
    EXPECT_NE(err.find("was left as it was (nothing of it changed)"), std::string::npos) << err;
    EXPECT_EQ(test::readFile(dir.file("again.rc")), "0\n") << test::readFile(dir.file("again.err"));
    auto store = openStore("sqlite:///" + dir.file("copy/s.db"), OpenMode::OpenExisting);
    EXPECT_EQ(rowCounts(*store), cleanlyCompacted(dir, kSamples));
}

// kill -9 while the destination's samples are being written: the copied run is SCHEDULED, not
// FINISHED with part of its data; copying again completes it and only then marks it FINISHED.
TEST(StoreInterruptions, StoreCopyKilledLeavesTheRunVisiblyIncompleteAndARerunCompletesIt) {
    TempDir dir;
    constexpr int kSamples = 30000;
    const std::string source = "sqlite:///" + filledStore(dir, "source.db", kSamples);
    const std::string destination = dir.file("destination.db");
    std::map<std::string, size_t> recorded = rowCounts(*openStore(source, OpenMode::OpenExisting));
    test::Radt radt = test::startRadt(dir, {"store", "copy", source, destination});
    ASSERT_TRUE(test::waitFor(
        [&] {
            return fs::exists(destination) && sqliteCount(destination, "SELECT count(*) FROM metrics") > 0;
        },
        60000))
        << radt.err();
    ::kill(radt.pid(), SIGKILL);
    ASSERT_EQ(radt.wait(), 128 + SIGKILL) << "the copy ended before the kill: make the runs larger";
    {
        auto store = openStore("sqlite:///" + destination, OpenMode::OpenExisting);
        const std::vector<radt::Run> runs = store->runs();
        ASSERT_FALSE(runs.empty());
        size_t partial = 0;
        for (const radt::Run& run : runs) {
            size_t rows = 0, whole = 0;
            for (const char* key : kKeys) {
                rows += store->series(run.uuid, key).size();
                whole += recorded.at(run.name + "/" + key);
            }
            if (rows < whole) {
                ++partial;
                EXPECT_EQ(run.status, RunStatus::Scheduled) << run.name << " has " << rows << " of " << whole
                                                            << " samples, so it must not look finished";
                EXPECT_FALSE(run.endTime) << run.name;
            } else {
                EXPECT_EQ(run.status, RunStatus::Finished) << run.name;
            }
        }
        EXPECT_EQ(partial, 1u) << "killed while the samples of one run were being written";
    }
    // Compacting the destination now leaves the incomplete run alone: the next copy completes it.
    ASSERT_EQ(
        radtCommand("store compact --store " + test::shellQuote(destination) + " interrupt", dir.file("err")),
        0)
        << test::readFile(dir.file("err"));
    EXPECT_NE(
        test::readFile(dir.file("err")).find(": SCHEDULED (not started, or a copy that did not finish)"),
        std::string::npos)
        << test::readFile(dir.file("err"));
    ASSERT_EQ(radtCommand("store copy " + test::shellQuote(source) + " " + test::shellQuote(destination),
                          dir.file("err")),
              0)
        << test::readFile(dir.file("err"));
    auto store = openStore("sqlite:///" + destination, OpenMode::OpenExisting);
    EXPECT_EQ(rowCounts(*store), recorded);
    for (const radt::Run& run : store->runs()) {
        EXPECT_EQ(run.status, RunStatus::Finished) << run.name;
        EXPECT_EQ(run.endTime, kT0 + int64_t(kSamples) * 1000) << run.name;
    }
}

// `radt-explorer --export` onto a nearly full disk: the failure names the file that could not be
// written and why (not "Unknown error", not the board path twice), and no partial or temporary
// file is left, whichever format ran out of space.
TEST(StoreInterruptions, ExportOntoAFullDiskNamesTheFileAndLeavesNoPartialFile) {
    if (::geteuid() != 0 || std::system("unshare -m true 2>/dev/null") != 0)
        GTEST_SKIP() << "needs root and mount namespaces to mount a small tmpfs";
    if (!fs::exists(std::string(RADT_BINARY_DIR) + "/app/radt-explorer"))
        GTEST_SKIP() << "radt-explorer is not built here (BUILD_GUI=OFF, as in the sanitizer job)";
    TempDir dir;
    std::string points;
    for (int i = 0; i < 3000; ++i)
        points += std::string(i ? ", " : "") + "{\"timestamp\": " + std::to_string(1000 * i) +
                  ", \"value\": " + std::to_string((i * 7919) % 1000 / 10.0) +
                  ", \"step\": " + std::to_string(i) + "}";
    const std::string board =
        R"([{"id": 1, "metric": "loss", "data": [{"name": "0123456789abcdef0123456789abcdef", "experimentId": "1",
           "workload": "1-0", "letter": "0", "data": [)" +
        points + "]}]}]";
    test::writeFile(dir.file("b.json"), board);
    const std::string explorer = test::shellQuote(std::string(RADT_BINARY_DIR) + "/app/radt-explorer");
    const std::string m = test::shellQuote(dir.file("small"));
    fs::create_directories(dir.file("small"));
    for (const char* format : {"svg", "png", "pdf", "csv"}) {
        // 4 KiB of room: every format of this chart needs more.
        const std::string script = "set -u; mount -t tmpfs -o size=4k tmpfs " + m + " || exit 99\n" +
                                   "QT_QPA_PLATFORM=offscreen " + explorer + " --export " + m +
                                   "/out --format " + format + " " + test::shellQuote(dir.file("b.json")) +
                                   " >/dev/null 2>" + test::shellQuote(dir.file("err")) + "; echo $? >" +
                                   test::shellQuote(dir.file("rc")) + "\n" + "ls -A " + m + "/out >" +
                                   test::shellQuote(dir.file("left")) + "\n";
        test::writeFile(dir.file("scenario.sh"), script);
        ASSERT_EQ(test::shell("unshare -m bash " + test::shellQuote(dir.file("scenario.sh"))), 0) << format;
        const std::string err = test::readFile(dir.file("err"));
        EXPECT_EQ(test::readFile(dir.file("rc")), "1\n") << format << ": " << err;
        EXPECT_NE(err.find("cannot write " + dir.file("small") + "/out/01-loss." + format + ": "),
                  std::string::npos)
            << format << ": " << err;
        EXPECT_EQ(err.find("Unknown error"), std::string::npos) << format << ": " << err;
        size_t named = 0;
        for (size_t at = err.find("b.json"); at != std::string::npos; at = err.find("b.json", at + 1))
            ++named;
        EXPECT_EQ(named, 1u) << "the board is named once: " << err;
        EXPECT_EQ(test::readFile(dir.file("left")), "") << format << ": no partial or temporary file";
    }
}
