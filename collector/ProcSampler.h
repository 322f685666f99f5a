#pragma once
// Samples the system (`top` listener) and the run's own process tree (`proc` listener) from
// /proc directly: no child processes, exact counters (DESIGN §5).

#include "Model.h"
#include "ProcParsers.h"

#include <map>
#include <string>
#include <vector>

namespace radt {

class ProcSampler {
public:
    /// rootPid: the workload's process; its descendants are found through their parent pids.
    /// procRoot lets tests point at a copy of /proc.
    explicit ProcSampler(int rootPid, bool system = true, bool processTree = true,
                         std::string procRoot = "/proc");

    /// Appends this tick's points to `out` (timestamp `nowMs`). Rates need two ticks, so the first
    /// call yields no CPU utilisation.
    void sample(int64_t nowMs, std::vector<MetricPoint>& out);

    /// Pids of the tree found by the last sample (root first when alive).
    const std::vector<int>& lastTree() const { return m_tree; }

private:
    void sampleSystem(int64_t nowMs, std::vector<MetricPoint>& out);
    void sampleTree(int64_t nowMs, std::vector<MetricPoint>& out);

    int m_rootPid;
    bool m_system;
    bool m_processTree;
    std::string m_procRoot;
    long m_ticksPerSecond;
    long m_pageSize;
    std::optional<CpuTimes> m_lastCpu;
    std::map<int, uint64_t> m_lastTicks; ///< pid -> utime+stime at the previous sample
    int64_t m_lastTreeSampleMs = 0;
    std::vector<int> m_tree;
};

} // namespace radt
