#include "ProcSampler.h"

#include <dirent.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <unordered_map>

namespace radt {

ProcSampler::ProcSampler(int rootPid, bool system, bool processTree, std::string procRoot)
    : m_rootPid(rootPid), m_system(system), m_processTree(processTree), m_procRoot(std::move(procRoot)),
      m_ticksPerSecond(sysconf(_SC_CLK_TCK)), m_pageSize(sysconf(_SC_PAGESIZE)) {}

void ProcSampler::sample(int64_t nowMs, std::vector<MetricPoint>& out) {
    if (m_system)
        sampleSystem(nowMs, out);
    if (m_processTree)
        sampleTree(nowMs, out);
}

void ProcSampler::sampleSystem(int64_t nowMs, std::vector<MetricPoint>& out) {
    if (auto text = readSmallFile(m_procRoot + "/stat")) {
        if (auto cpu = parseProcStatCpu(*text)) {
            if (m_lastCpu) {
                if (auto pct = cpuUtilizationPercent(*m_lastCpu, *cpu))
                    out.push_back({"TOP - CPU Utilization", *pct, nowMs, 0});
            }
            m_lastCpu = cpu;
        }
    }
    if (auto text = readSmallFile(m_procRoot + "/meminfo")) {
        if (auto mem = parseMeminfo(*text)) {
            const double usedKb = static_cast<double>(mem->totalKb - mem->availableKb);
            out.push_back({"TOP - Memory Usage GB", usedKb / (1024.0 * 1024.0), nowMs, 0});
            if (mem->totalKb > 0)
                out.push_back({"TOP - Memory Utilization", 100.0 * usedKb / mem->totalKb, nowMs, 0});
            const double swapUsedKb =
                static_cast<double>(mem->swapTotalKb - std::min(mem->swapFreeKb, mem->swapTotalKb));
            out.push_back({"TOP - Swap Memory GB", swapUsedKb / (1024.0 * 1024.0), nowMs, 0});
        }
    }
}

void ProcSampler::sampleTree(int64_t nowMs, std::vector<MetricPoint>& out) {
    // One pass over /proc/<pid>/stat, then walk the parent links down from the root.
    std::unordered_map<int, ProcessStat> stats;
    std::unordered_map<int, std::vector<int>> children;
    if (DIR* dir = opendir(m_procRoot.c_str())) {
        while (dirent* e = readdir(dir)) {
            if (!std::isdigit(static_cast<unsigned char>(e->d_name[0])))
                continue;
            auto text = readSmallFile(m_procRoot + "/" + e->d_name + "/stat");
            if (!text)
                continue; // the process exited between readdir and open
            if (auto s = parseProcPidStat(*text)) {
                children[s->ppid].push_back(s->pid);
                stats.emplace(s->pid, *s);
            }
        }
        closedir(dir);
    }
    m_tree.clear();
    if (!stats.count(m_rootPid))
        return;
    std::vector<int> stack{m_rootPid};
    while (!stack.empty()) {
        const int pid = stack.back();
        stack.pop_back();
        m_tree.push_back(pid);
        for (int child : children[pid])
            stack.push_back(child);
    }

    uint64_t deltaTicks = 0;
    int64_t rssPages = 0, threads = 0;
    std::map<int, uint64_t> ticks;
    for (int pid : m_tree) {
        const ProcessStat& s = stats[pid];
        const uint64_t t = s.utime + s.stime;
        ticks[pid] = t;
        auto last = m_lastTicks.find(pid);
        // A process new since the last tick counts from zero: its start lies in this interval.
        deltaTicks += last == m_lastTicks.end() ? t : (t >= last->second ? t - last->second : 0);
        rssPages += s.rssPages;
        threads += s.threads;
    }
    if (m_lastTreeSampleMs > 0 && nowMs > m_lastTreeSampleMs) {
        const double seconds = (nowMs - m_lastTreeSampleMs) / 1000.0;
        const double pct = 100.0 * (static_cast<double>(deltaTicks) / m_ticksPerSecond) / seconds;
        out.push_back({"PROC - CPU Utilization", pct, nowMs, 0});
    }
    out.push_back(
        {"PROC - RSS MB", static_cast<double>(rssPages) * m_pageSize / (1024.0 * 1024.0), nowMs, 0});
    out.push_back({"PROC - Threads", static_cast<double>(threads), nowMs, 0});
    m_lastTicks = std::move(ticks);
    m_lastTreeSampleMs = nowMs;
}

} // namespace radt
