// SPDX-License-Identifier: MIT
#include "TempDir.h"
#include "collector/listeners/ListenerTable.h"
#include "collector/listeners/ProcParsers.h"
#include "collector/listeners/ProcSampler.h"
#include "core/StoreFactory.h"
#include "core/base/MetricKeys.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <pthread.h>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace radt;

namespace {

// A fixture file without its '# source' comment lines, as the tool printed it.
std::string fixture(const std::string& name) {
    std::istringstream in(test::readFixture("tools/" + name));
    std::string line, out;
    while (std::getline(in, line))
        if (line.rfind("#", 0) != 0)
            out += line + "\n";
    return out;
}

double valueOf(const std::vector<MetricPoint>& pts, const std::string& key) {
    for (const auto& p : pts)
        if (p.key == key)
            return p.value;
    ADD_FAILURE() << "no point for " << key;
    return -1;
}

bool hasKey(const std::vector<MetricPoint>& pts, const std::string& key) {
    for (const auto& p : pts)
        if (p.key == key)
            return true;
    return false;
}

// Fields of /proc/<pid>/stat after the command name: the state letter (0 when the process is gone)
// and the parent pid (-1 when gone).
std::istringstream statAfterName(pid_t pid) {
    const std::string stat = test::readFile("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    return std::istringstream(close == std::string::npos ? "" : stat.substr(close + 1));
}
char stateOf(pid_t pid) {
    char state = 0;
    statAfterName(pid) >> state;
    return state;
}
pid_t parentOf(pid_t pid) {
    char state = 0;
    pid_t ppid = -1;
    statAfterName(pid) >> state >> ppid;
    return ppid;
}

} // namespace

TEST(ProcParsers, ProcStatNewAndOldKernels) {
    auto cpu = parseProcStatCpu(fixture("proc_stat_1.txt"));
    ASSERT_TRUE(cpu);
    EXPECT_EQ(cpu->total, 6002u + 152 + 8398 + 3444436 + 448 + 0 + 1174 + 0);
    EXPECT_EQ(cpu->idle, 3444436u + 448);
    auto old = parseProcStatCpu(fixture("proc_stat_2_old_kernel.txt"));
    ASSERT_TRUE(old);
    EXPECT_EQ(old->total, 259246u + 7001 + 60190 + 34250993 + 137517 + 772 + 0);
    EXPECT_EQ(old->idle, 34250993u + 137517);
}

TEST(ProcParsers, ProcStatBrokenInput) {
    EXPECT_FALSE(parseProcStatCpu(""));
    EXPECT_FALSE(parseProcStatCpu("intr 1 2 3\n"));
    EXPECT_FALSE(parseProcStatCpu("cpu  1 2\n"));
    EXPECT_FALSE(parseProcStatCpu("cpu0 1 2 3 4 5\n")); // per-core only: no aggregate line
}

TEST(ProcParsers, CpuUtilization) {
    EXPECT_DOUBLE_EQ(*cpuUtilizationPercent({100, 50}, {200, 75}), 75.0);
    EXPECT_FALSE(cpuUtilizationPercent({100, 50}, {100, 50}));
    // Found by fuzz_proc: a fully busy CPU over huge counters came out above 100 %.
    EXPECT_LE(*cpuUtilizationPercent({}, {184467473079551617u, 0}), 100.0);
    for (uint64_t total = 184467473079551617u; total < 184467473079551617u + 4096; total += 7)
        ASSERT_LE(*cpuUtilizationPercent({}, {total, 0}), 100.0) << total;
}

TEST(ProcParsers, Meminfo) {
    auto m = parseMeminfo(fixture("proc_meminfo_1.txt"));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->totalKb, 3997272u);
    EXPECT_EQ(m->availableKb, 3386876u);
    // Kernels before 3.14 have no MemAvailable.
    auto old = parseMeminfo("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 250 kB\n");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->availableKb, 400u);
    EXPECT_FALSE(parseMeminfo("MemFree: 100 kB\n"));
    EXPECT_FALSE(parseMeminfo("garbage"));
}

TEST(ProcParsers, PidStatWithSpacesAndParensInName) {
    const std::string line = "4242 (python3 (train) x) S 17 4242 17 0 -1 4194304 5 0 0 0 "
                             "123 45 0 0 20 0 7 0 28309 3133440 381 18446744073709551615 0";
    auto s = parseProcPidStat(line);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->pid, 4242);
    EXPECT_EQ(s->ppid, 17);
    EXPECT_EQ(s->utime, 123u);
    EXPECT_EQ(s->stime, 45u);
    EXPECT_EQ(s->threads, 7);
    EXPECT_EQ(s->rssPages, 381);
    EXPECT_FALSE(parseProcPidStat(""));
    EXPECT_FALSE(parseProcPidStat("12 (x) S 1 2"));
    EXPECT_FALSE(parseProcPidStat("abc (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22"));
}

TEST(ProcSampler, MeasuresABusyProcessTreeFromRealProc) {
    // A parent that forks a busy child: the tree's CPU must include the grandchild's work.
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (fork() == 0) {
            volatile double x = 0;
            const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(3);
            while (std::chrono::steady_clock::now() < end)
                x = x + 1;
            _exit(0);
        }
        sleep(3);
        _exit(0);
    }
    ProcSampler sampler(pid);
    std::vector<MetricPoint> first, second;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    sampler.sample(1000, first);
    EXPECT_FALSE(hasKey(first, "PROC - CPU Utilization")) << "a rate needs two samples";
    EXPECT_GT(valueOf(first, "TOP - Memory Usage GB"), 0.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    sampler.sample(2000, second);
    EXPECT_EQ(sampler.lastTree().size(), 2u);
    const double cpu = valueOf(second, "PROC - CPU Utilization");
    EXPECT_GT(cpu, 20.0); // one busy grandchild: ~100 % alone, less on a loaded machine; ~0 if missed
    EXPECT_LT(cpu, 210.0);
    EXPECT_GT(valueOf(second, "PROC - RSS MB"), 0.1);
    EXPECT_GE(valueOf(second, "PROC - Threads"), 2.0);
    const double sys = valueOf(second, "TOP - CPU Utilization");
    EXPECT_GT(sys, 0.0);
    EXPECT_LE(sys, 100.0);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
}

TEST(ProcSampler, VanishedRootYieldsOnlySystemMetrics) {
    ProcSampler sampler(999999999);
    std::vector<MetricPoint> pts;
    sampler.sample(1000, pts);
    EXPECT_FALSE(hasKey(pts, "PROC - RSS MB"));
    EXPECT_TRUE(hasKey(pts, "TOP - Memory Usage GB"));
}

TEST(ProcParsers, PidStatProcessorFieldForPerCoreCpu) {
    // A full 52-field line of Linux 5.x: field 39 (processor) is 3.
    const std::string line =
        "77 (worker) R 1 77 77 0 -1 4194560 100 0 0 0 50 10 0 0 20 0 4 0 1000 1000000 200 "
        "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0 0 0 0 0 0 0 0 0";
    auto s = parseProcPidStat(line);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->processor, 3);
    EXPECT_EQ(
        parseProcPidStat("4242 (x) S 17 4242 17 0 -1 4194304 5 0 0 0 123 45 0 0 20 0 7 0 28309 3133440 381 1")
            ->processor,
        -1)
        << "short (old or truncated) lines still parse, without a processor";
}

TEST(ProcParsers, DiskstatsFixtureAndPartitions) {
    size_t skipped = 0;
    const auto disks = parseDiskstats(fixture("proc_diskstats_1.txt"), &skipped);
    EXPECT_EQ(skipped, 0u);
    ASSERT_EQ(disks.size(), 15u);
    auto find = [&](const std::string& name) {
        return *std::find_if(disks.begin(), disks.end(), [&](const DiskStat& d) { return d.name == name; });
    };
    const DiskStat sda = find("sda");
    EXPECT_EQ(sda.reads, 14200u);
    EXPECT_EQ(sda.sectorsRead, 892828u);
    EXPECT_EQ(sda.writes, 18736u);
    EXPECT_EQ(sda.sectorsWritten, 715384u);
    EXPECT_EQ(find("dm-0").sectorsWritten, 715168u);
    EXPECT_TRUE(isPartition("sda1", disks));
    EXPECT_TRUE(isPartition("sda3", disks));
    EXPECT_FALSE(isPartition("sda", disks));
    EXPECT_FALSE(isPartition("dm-0", disks));
    EXPECT_FALSE(isPartition("loop1", disks)) << "loop1 is not a partition of some loop";
    const std::vector<DiskStat> nvme = {
        {"nvme0n1", 0, 0, 0, 0}, {"nvme0n1p2", 0, 0, 0, 0}, {"mmcblk0", 0, 0, 0, 0}};
    EXPECT_TRUE(isPartition("nvme0n1p2", nvme));
    EXPECT_FALSE(isPartition("nvme0n1", nvme));
    EXPECT_FALSE(isPartition("mmcblk01", nvme)) << "digit-ended parents separate partitions with 'p'";

    // Linux 2.6 partitions print four counters; garbage and truncated lines are counted.
    skipped = 0;
    const auto old =
        parseDiskstats("   3    1 hda1 35486 38030 38030 5\n garbage\n   8 0 sdb 1 2\n\n", &skipped);
    ASSERT_EQ(old.size(), 1u);
    EXPECT_EQ(old[0].reads, 35486u);
    EXPECT_EQ(old[0].sectorsWritten, 5u);
    EXPECT_EQ(skipped, 2u);
}

TEST(ProcParsers, NetDevFixtureAndBrokenInput) {
    size_t skipped = 0;
    const auto ifaces = parseNetDev(fixture("proc_net_dev_1.txt"), &skipped);
    ASSERT_EQ(ifaces.size(), 2u);
    EXPECT_EQ(ifaces[1].iface, "ens33");
    EXPECT_EQ(ifaces[1].rxBytes, 60600053u);
    EXPECT_EQ(ifaces[1].txBytes, 44256546u);
    EXPECT_EQ(skipped, 0u);
    const auto broken =
        parseNetDev("eth0: 1 2 3\nwlan0:99999999999999999999999 0 0 0 0 0 0 0 5\nno colon\n", &skipped);
    EXPECT_TRUE(broken.empty());
    EXPECT_EQ(skipped, 2u);
    EXPECT_EQ(metricKeyPart("veth@if3 (x)%"), "veth_if3 _x__");
}

TEST(ProcSampler, DiskNetworkAndPerCoreListenersFromAProcCopy) {
    // A fake /proc with two readings of diskstats and net/dev one second apart.
    radt::test::TempDir dir;
    const std::string root = dir.path();
    std::filesystem::create_directories(root + "/net");
    radt::test::writeFile(root + "/diskstats", "   8 0 sda 100 0 2048 0 50 0 4096 0 0 0 0\n"
                                               "   8 1 sda1 100 0 2048 0 50 0 4096 0 0 0 0\n"
                                               "   8 16 sdb 7 0 7 0 7 0 7 0 0 0 0\n"
                                               "   7 0 loop0 5 0 10 0 0 0 0 0 0 0 0\n");
    radt::test::writeFile(root + "/net/dev", "Inter-|x\n face |x\n    lo: 5 0 0 0 0 0 0 0 5 0 0 0 0 0 0 0\n"
                                             "  eth0: 1048576 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
                                             "  ifb0: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    ProcSamplerOptions options;
    options.top = options.proc = false;
    options.iostat = options.net = options.ps = true;
    options.procRoot = root;
    ProcSampler sampler(1, options);
    std::vector<MetricPoint> first, second;
    sampler.sample(1000, first);
    EXPECT_TRUE(first.empty()) << "rates need two readings";
    radt::test::writeFile(root + "/diskstats", "   8 0 sda 110 0 4096 0 60 0 8192 0 0 0 0\n"
                                               "   8 1 sda1 110 0 4096 0 60 0 8192 0 0 0 0\n"
                                               "   8 16 sdb 7 0 7 0 7 0 7 0 0 0 0\n"
                                               "   7 0 loop0 9 0 20 0 0 0 0 0 0 0 0\n");
    radt::test::writeFile(root + "/net/dev", "Inter-|x\n face |x\n    lo: 9 0 0 0 0 0 0 0 9 0 0 0 0 0 0 0\n"
                                             "  eth0: 3145728 0 0 0 0 0 0 0 524288 0 0 0 0 0 0 0\n"
                                             "  ifb0: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    sampler.sample(2000, second);
    EXPECT_DOUBLE_EQ(valueOf(second, "sda - tps"), 20.0);
    EXPECT_DOUBLE_EQ(valueOf(second, "sda - MB read/s"), 1.0); // 2048 sectors of 512 bytes
    EXPECT_DOUBLE_EQ(valueOf(second, "sda - MB written/s"), 2.0);
    EXPECT_DOUBLE_EQ(valueOf(second, "iostat - Total MB read/s"), 1.0) << "sda1 is inside sda: counted once";
    EXPECT_FALSE(hasKey(second, "loop0 - tps"));
    EXPECT_DOUBLE_EQ(valueOf(second, "NET - eth0 RX MB/s"), 2.0);
    EXPECT_DOUBLE_EQ(valueOf(second, "NET - eth0 TX MB/s"), 0.5);
    EXPECT_FALSE(hasKey(second, "NET - lo RX MB/s"));
    EXPECT_FALSE(hasKey(second, "sdb - tps")) << "a disk that moved nothing adds no rows";
    EXPECT_FALSE(hasKey(second, "NET - ifb0 RX MB/s")) << "nor an idle interface";
    // Once active, always reported, zeros included: a chart of it has no gaps.
    radt::test::writeFile(root + "/net/dev", "Inter-|x\n face |x\n"
                                             "  eth0: 3145728 0 0 0 0 0 0 0 524288 0 0 0 0 0 0 0\n"
                                             "  ifb0: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    std::vector<MetricPoint> third;
    sampler.sample(3000, third);
    EXPECT_DOUBLE_EQ(valueOf(third, "NET - eth0 RX MB/s"), 0.0);
    EXPECT_DOUBLE_EQ(valueOf(third, "sda - tps"), 0.0);
}

TEST(ProcSampler, PerCoreCpuOfTheRunsThreadsFromRealProc) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        volatile double x = 0;
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        while (std::chrono::steady_clock::now() < end)
            x = x + 1;
        _exit(0);
    }
    ProcSamplerOptions options;
    options.top = options.proc = false;
    options.ps = true;
    ProcSampler sampler(pid, options);
    std::vector<MetricPoint> first, second;
    sampler.sample(nowMs(), first);
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    sampler.sample(nowMs(), second);
    double total = 0;
    int cores = 0;
    for (const auto& p : second)
        if (p.key.rfind("PS - CPU ", 0) == 0) {
            total += p.value;
            ++cores;
        }
    EXPECT_GE(cores, 1);
    EXPECT_GT(total, 20.0) << "one busy thread: up to 100 % of a core";
    EXPECT_LT(total, 120.0);
    EXPECT_TRUE(std::any_of(second.begin(), second.end(), [](const MetricPoint& p) {
        return p.key.rfind("PS - MEM ", 0) == 0 && p.value > 0;
    }));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
}

namespace {
size_t openDescriptors() {
    return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                                             std::filesystem::directory_iterator()));
}

/// A child process of `threads` threads that block until it is killed; returns its pid once they run.
pid_t processWithThreads(int threads) {
    int ready[2];
    if (pipe(ready) != 0)
        return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < threads; ++i) {
            pthread_t thread;
            pthread_create(
                &thread, nullptr,
                [](void*) -> void* {
                    pause();
                    return nullptr;
                },
                nullptr);
        }
        (void)!write(ready[1], "r", 1);
        for (;;)
            pause();
    }
    char go = 0;
    (void)!read(ready[0], &go, 1);
    close(ready[0]);
    close(ready[1]);
    return pid;
}
} // namespace

TEST(ProcSampler, ThreadsAreReadThroughKeptDescriptorsThatCloseWhenTheThreadsEnd) {
    // The ps listener reads every thread's stat each tick: each through a descriptor kept open,
    // closed when the thread is gone, and at most 256 of them however many threads a run has.
    ProcSamplerOptions options;
    options.top = options.proc = options.iostat = options.net = false;
    options.ps = true;
    const size_t before = openDescriptors();
    for (const auto& [threads, kept] : {std::pair<int, size_t>{7, 8}, {299, 256}}) {
        const pid_t pid = processWithThreads(threads);
        ASSERT_GT(pid, 0);
        {
            ProcSampler sampler(pid, options);
            std::vector<MetricPoint> pts;
            sampler.sample(nowMs(), pts);
            const size_t sampling = openDescriptors();
            sampler.sample(nowMs() + 1000, pts);
            EXPECT_EQ(openDescriptors(), sampling) << "the same descriptors read again";
            EXPECT_TRUE(std::any_of(pts.begin(), pts.end(), [](const MetricPoint& p) {
                return p.key.rfind("PS - MEM ", 0) == 0 && p.value > 0;
            }));
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
            sampler.sample(nowMs() + 2000, pts);
            EXPECT_EQ(sampling - openDescriptors(), kept)
                << threads + 1 << " threads: their descriptors closed once they ended";
        }
        EXPECT_EQ(openDescriptors(), before) << "and the sampler's own with it";
    }
}

TEST(ProcSampler, ADaemonisedChildStaysInTheTreeAfterItsParentExits) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t parent = fork();
    ASSERT_GE(parent, 0);
    if (parent == 0) {
        const pid_t child = fork();
        if (child == 0) {
            sleep(3); // outlives its parent, reparented to init (a daemonised data loader)
            _exit(0);
        }
        (void)!write(fds[1], &child, sizeof child);
        usleep(400000);
        _exit(0);
    }
    pid_t child = 0;
    ASSERT_EQ(read(fds[0], &child, sizeof child), static_cast<ssize_t>(sizeof child));
    ProcSampler sampler(parent);
    std::vector<MetricPoint> pts;
    sampler.sample(1000, pts);
    EXPECT_EQ(sampler.lastTree(), (std::vector<int>{parent, child}));
    waitpid(parent, nullptr, 0);
    ASSERT_TRUE(test::waitFor([&] { return parentOf(child) != parent; }, 5000)) << "reparented";
    sampler.sample(2000, pts);
    EXPECT_EQ(sampler.lastTree(), (std::vector<int>{child})) << "the orphan is still the run's";
    sampler.sample(3000, pts);
    EXPECT_EQ(sampler.lastTree(), (std::vector<int>{child}));
    kill(child, SIGKILL);
    ASSERT_TRUE(test::waitFor([&] { return stateOf(child) == 'Z' || stateOf(child) == 0; }, 5000)) << "dead";
    sampler.sample(4000, pts);
    EXPECT_TRUE(sampler.lastTree().empty());
    close(fds[0]);
    close(fds[1]);
}

TEST(ProcSampler, WhenAProcessIsBornOnlyThePidsHandedOutSinceTheLastTickAreRead) {
    // A /proc copy: init (1), the run's root (50) with its child (70), an unrelated process (60).
    radt::test::TempDir dir;
    const std::string root = dir.path();
    auto process = [&](int pid, int ppid) {
        std::filesystem::create_directories(root + "/" + std::to_string(pid));
        radt::test::writeFile(root + "/" + std::to_string(pid) + "/stat",
                              std::to_string(pid) + " (p" + std::to_string(pid) + ") S " +
                                  std::to_string(ppid) + " 0 0 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 " +
                                  std::to_string(1000 + pid) + " 4096 25\n");
    };
    auto lastPid = [&](int pid) {
        radt::test::writeFile(root + "/loadavg", "0.1 0.2 0.3 1/90 " + std::to_string(pid) + "\n");
    };
    for (auto [pid, ppid] : {std::pair{1, 0}, {50, 1}, {60, 1}, {70, 50}})
        process(pid, ppid);
    lastPid(100);
    ProcSamplerOptions options;
    options.top = options.ps = options.iostat = options.net = false;
    options.proc = true;
    options.procRoot = root;
    ProcSampler sampler(50, options);
    std::vector<MetricPoint> pts;
    sampler.sample(1000, pts);
    EXPECT_EQ(sampler.lastTree(), (std::vector<int>{50, 70})) << "the first tick reads every process";

    // A grandchild is born (pid 101). The unrelated 60 now claims the root as its parent, which no
    // kernel does: it shows that a process older than the last tick is not read again.
    process(101, 70);
    process(60, 50);
    lastPid(101);
    sampler.sample(2000, pts);
    EXPECT_EQ(sampler.lastTree(), (std::vector<int>{50, 70, 101}));

    // The pids wrap around at pid_max: 32000 and 3 are both new, children of the tree.
    process(32000, 50);
    process(3, 101);
    lastPid(5);
    sampler.sample(3000, pts);
    EXPECT_EQ(sampler.lastTree(), (std::vector<int>{50, 3, 70, 101, 32000}));

    // Nobody born, 70 gone: its child stays the run's (reparented, as a daemonised loader).
    std::filesystem::remove_all(root + "/70");
    pts.clear();
    sampler.sample(4000, pts);
    EXPECT_EQ(sampler.lastTree(), (std::vector<int>{50, 3, 101, 32000}));
    EXPECT_DOUBLE_EQ(valueOf(pts, "PROC - Threads"), 4.0);
}

TEST(ProcParsers, LoadavgLastPid) {
    EXPECT_EQ(parseLoadavgLastPid("0.41 0.67 0.79 1/234 5678\n"), 5678);
    EXPECT_FALSE(parseLoadavgLastPid(""));
    EXPECT_FALSE(parseLoadavgLastPid("0.41 0.67 0.79 1/234"));
    EXPECT_FALSE(parseLoadavgLastPid("0.41 0.67 0.79 1/234 x"));
}

// One table of listeners. Every name -l accepts is made, listed and described from
// it, and every key a /proc listener writes is recognised as that listener's hardware key (the
// epoch finder and compaction rely on it).
TEST(ListenerTable, EachListenerIsListedMadeAndOwnsTheKeysItWrites) {
    std::vector<std::string> names;
    for (const ListenerSpec& l : listenerSpecs())
        names.push_back(l.name);
    EXPECT_EQ(names, knownListeners());
    for (const ListenerSpec& l : listenerSpecs()) {
        const bool samples = l.source != ListenerSpec::Source::Workload;
        bool hasKeys = false;
        for (const ListenerKeys& k : listenerKeys())
            hasKeys |= std::string(k.listener) == l.name;
        EXPECT_EQ(hasKeys, samples) << l.name << ": a sampling listener has its keys in core's table";
        EXPECT_EQ(isWorkloadListener(l.name), !samples) << l.name;
    }
    const auto made = makeListeners({"top", "smi", "proc", "nsys"});
    ASSERT_EQ(made.size(), 2u) << "the /proc ones share one sampler; nsys wraps the command";
    EXPECT_EQ(made[0]->name(), "top+proc");
    EXPECT_EQ(made[1]->name(), "smi");
    for (const ListenerAvailability& a : listenerAvailability("/no/such/proc")) {
        if (a.name == "top" || a.name == "net") {
            EXPECT_EQ(a.detail.rfind("/no/such/proc/", 0), 0u) << a.detail;
        }
    }

    // Real /proc, every /proc switch on: each key belongs to a listener that was switched on.
    ProcSamplerOptions options;
    options.top = options.ps = options.iostat = options.net = options.proc = true;
    ProcSampler sampler(::getpid(), options);
    std::vector<MetricPoint> points;
    sampler.sample(1000, points);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    sampler.sample(2000, points);
    ASSERT_FALSE(points.empty());
    std::set<std::string> owners;
    for (const MetricPoint& p : points) {
        const ListenerKeys* owner = listenerOfKey(p.key);
        ASSERT_TRUE(owner) << p.key << " would count as a script's metric";
        owners.insert(owner->listener);
    }
    for (const char* expected : {"top", "ps", "proc"})
        EXPECT_TRUE(owners.count(expected)) << expected;
    EXPECT_EQ(listenerOfKey("loss"), nullptr);
    EXPECT_EQ(std::string(listenerOfKey("sda - MB read/s")->listener), "iostat");
}

// The analyses read keys by role (core/base/MetricKeys): the roles' order of preference is the one
// the figures were defined with, a per-device key plays its base's role, and every role key of
// nvidia-smi and dmon is one the real tools wrote (the recorded H100 run has them all).
TEST(ListenerTable, KeysPlayTheirRolesInOrderAndAreKeysTheToolsWrite) {
    using V = std::vector<std::string>;
    EXPECT_EQ(keysOfRole(KeyRole::GpuPower),
              (V{"DCGMI - Power Usage", "SMI - Power Draw", "DMON - Power Draw"}));
    EXPECT_EQ(keysOfRole(KeyRole::GpuUtilisation),
              (V{"DCGMI - GPU Utilization", "SMI - GPU Util", "TEGRA - GPU Util", "DMON - SM Util"}));
    EXPECT_EQ(keysOfRole(KeyRole::SmActivity),
              (V{"DCGMI - SM Active", "DCGMI - SN Active", "DCGMI - GR Engine Active"}));
    EXPECT_EQ(keysOfRole(KeyRole::GpuEnergyCounter), (V{"DCGMI - Total Energy Consumption"}));
    ASSERT_TRUE(roleOfKey("SMI - Power Draw GPU 1"));
    EXPECT_EQ(roleOfKey("SMI - Power Draw GPU 1")->role, KeyRole::GpuPower);
    EXPECT_EQ(roleOfKey("DCGMI - SM Active GPU 0")->fullScale, 1.0) << "dcgmi's activity is a ratio";
    EXPECT_EQ(roleOfKey("DCGMI - GPU Utilization")->fullScale, 100.0);
    EXPECT_EQ(roleOfKey("loss"), nullptr);
    EXPECT_EQ(roleOfKey("TOP - CPU Utilization"), nullptr);
    EXPECT_TRUE(playsRole("DMON - Power Draw", KeyRole::GpuPower));
    EXPECT_FALSE(playsRole("DMON - Power Draw", KeyRole::GpuUtilisation));
    EXPECT_EQ(firstKeyOfRole({"DMON - SM Util", "SMI - GPU Util"}, KeyRole::GpuUtilisation),
              "SMI - GPU Util");
    EXPECT_EQ(firstKeyOfRole({"loss"}, KeyRole::GpuUtilisation), "");
    EXPECT_EQ(roleKeysText(KeyRole::SmActivity),
              "DCGMI - SM Active, DCGMI - SN Active or DCGMI - GR Engine Active");

    auto store = openStore("sqlite:///" + test::fixturePath("runs/h100_matmul_dmon.db"), OpenMode::ReadOnly);
    const std::vector<std::string> written = store->metricKeys({store->runs().at(0).uuid});
    for (const ListenerKeys& l : listenerKeys()) {
        if (std::string(l.listener) != "smi" && std::string(l.listener) != "dmon")
            continue;
        for (const RoleKey& r : l.roles)
            EXPECT_TRUE(std::count(written.begin(), written.end(), r.key)) << r.key << " was never written";
    }
}

TEST(ProcFile, ReadsTheFileAsItIsNowThroughOneDescriptor) {
    // Real /proc: the kernel writes the file afresh at each read from its start. A thread of
    // this process started between two reads is in the second.
    ProcFile status("/proc/self/status");
    auto threadsIn = [](const std::string& text) {
        const size_t at = text.find("\nThreads:");
        return at == std::string::npos ? -1 : std::atoi(text.c_str() + at + 9);
    };
    const auto before = status.read();
    ASSERT_TRUE(before);
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    std::thread waiting([&] {
        std::unique_lock<std::mutex> lock(mutex);
        cv.wait(lock, [&] { return done; });
    });
    const auto during = status.read();
    {
        std::lock_guard<std::mutex> lock(mutex);
        done = true;
    }
    cv.notify_one();
    waiting.join();
    ASSERT_TRUE(during);
    EXPECT_EQ(threadsIn(*during), threadsIn(*before) + 1) << *during;

    // A file longer than one read comes whole; a file rewritten in place is read as it is now.
    test::TempDir dir;
    const std::string path = dir.path() + "/stat";
    test::writeFile(path, "first\n");
    ProcFile file(path);
    EXPECT_EQ(file.read().value_or("?"), "first\n");
    const std::string longer(100'000, 'x');
    test::writeFile(path, longer);
    EXPECT_EQ(file.read().value_or("?"), longer);
    test::writeFile(path, "short\n");
    EXPECT_EQ(file.read().value_or("?"), "short\n") << "nothing of the longer text left behind";

    // A file that is not there reads as nothing, and is read once it is.
    ProcFile missing(dir.path() + "/later");
    EXPECT_FALSE(missing.read());
    test::writeFile(dir.path() + "/later", "now\n");
    EXPECT_EQ(missing.read().value_or("?"), "now\n");
}
