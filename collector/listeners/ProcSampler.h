// SPDX-License-Identifier: MIT
#pragma once
// The /proc listeners (resources/DESIGN.md §5): top (system CPU, memory, swap), ps (per-core CPU and memory
// of the run's threads), iostat (per-device disk rates), net (per-interface rates) and proc (the run's
// process tree). Read from /proc directly: no child processes, exact counters.

#include "collector/listeners/ProcParsers.h"
#include "collector/listeners/RaplReader.h"
#include "core/base/Model.h"

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace radt {

struct ProcSamplerOptions {
    bool top = true;
    bool ps = false;
    bool iostat = false;
    bool net = false;
    bool proc = true;
    bool rapl = false;              ///< CPU package and DRAM power from /sys/class/powercap
    std::string procRoot = "/proc"; ///< tests point this at a copy of /proc
    std::string sysRoot = "/sys";   ///< and this at a copy of /sys
};

class ProcSampler {
public:
    /// rootPid: the workload's process; its descendants are found through their parent pids.
    ProcSampler(int rootPid, ProcSamplerOptions options);
    explicit ProcSampler(int rootPid, bool system = true, bool processTree = true,
                         std::string procRoot = "/proc");

    /// Appends this tick's points to `out` (timestamp `nowMs`). Rates need two ticks, so the first
    /// call yields no CPU, disk or network rates.
    void sample(int64_t nowMs, std::vector<MetricPoint>& out);

    /// Pids of the tree found by the last sample (root first when alive).
    const std::vector<int>& lastTree() const { return m_tree; }

private:
    void sampleSystem(int64_t nowMs, std::vector<MetricPoint>& out);
    void findTree(std::unordered_map<int, ProcessStat>& stats);
    void sampleTree(int64_t nowMs, const std::unordered_map<int, ProcessStat>& stats,
                    std::vector<MetricPoint>& out);
    void sampleThreads(int64_t nowMs, const std::unordered_map<int, ProcessStat>& stats,
                       std::vector<MetricPoint>& out);
    std::optional<std::string> readTaskStat(const std::string& path, int tid);
    void sampleDisks(int64_t nowMs, std::vector<MetricPoint>& out);
    void sampleNetwork(int64_t nowMs, std::vector<MetricPoint>& out);

    int m_rootPid;
    ProcSamplerOptions m_options;
    /// The files read every tick, each through a descriptor kept open.
    ProcFile m_statFile, m_meminfoFile, m_loadavgFile, m_diskstatsFile, m_netDevFile;
    long m_ticksPerSecond;
    long m_pageSize;
    uint64_t m_memTotalKb = 0;
    std::optional<CpuTimes> m_lastCpu;
    std::map<int, uint64_t> m_lastTicks; ///< pid -> utime+stime at the previous sample
    int64_t m_lastTreeSampleMs = 0;
    std::map<int, uint64_t> m_lastThreadTicks; ///< tid -> utime+stime
    /// The run's threads' stat files, kept open between ticks (at most kMaxKeptTaskFiles).
    std::unordered_map<int, ProcFile> m_taskFiles;
    static constexpr size_t kMaxKeptTaskFiles = 256;
    int64_t m_lastThreadSampleMs = 0;
    std::vector<DiskStat> m_lastDisks;
    std::optional<RaplReader> m_rapl;
    int64_t m_lastDiskMs = 0;
    std::set<std::string> m_activeDisks;  ///< devices that moved data since the run started
    std::set<std::string> m_activeIfaces; ///< interfaces that carried traffic since then
    std::vector<NetDevStat> m_lastNet;
    int64_t m_lastNetMs = 0;
    std::vector<int> m_tree;
    std::unordered_map<int, uint64_t> m_treeStarts; ///< the tree's pids -> their start time
    std::optional<long> m_lastPid;                  ///< /proc/loadavg's last pid at the last tick
};

} // namespace radt
