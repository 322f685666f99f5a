#include "ProcParsers.h"
#include "ProcSampler.h"
#include "TempDir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace radt;

namespace {

// A fixture file without its '# source' comment lines, as the tool printed it.
std::string fixture(const std::string& name) {
    std::ifstream in(std::string(RADT_FIXTURES_DIR) + "/tools/" + name);
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
