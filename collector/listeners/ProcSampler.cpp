// SPDX-License-Identifier: MIT
#include "collector/listeners/ProcSampler.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <unordered_set>

namespace radt {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

template <typename Fn> void forEachNumericEntry(const std::string& dirPath, Fn fn) {
    if (DIR* dir = opendir(dirPath.c_str())) {
        while (dirent* e = readdir(dir))
            if (std::isdigit(static_cast<unsigned char>(e->d_name[0])))
                fn(e->d_name);
        closedir(dir);
    }
}

/// Whether `pid` was handed out after `before` and no later than `now` (both /proc/loadavg's last
/// pid): the kernel gives pids in increasing order and wraps around at pid_max.
bool pidBornBetween(long pid, long before, long now) {
    return before <= now ? pid > before && pid <= now : pid > before || pid <= now;
}

/// Counter delta, 0 when the counter went backwards (device re-plugged, counter reset).
double delta(uint64_t before, uint64_t after) {
    return after >= before ? static_cast<double>(after - before) : 0.0;
}

} // namespace

ProcSampler::ProcSampler(int rootPid, ProcSamplerOptions options)
    : m_rootPid(rootPid), m_options(std::move(options)), m_statFile(m_options.procRoot + "/stat"),
      m_meminfoFile(m_options.procRoot + "/meminfo"), m_loadavgFile(m_options.procRoot + "/loadavg"),
      m_diskstatsFile(m_options.procRoot + "/diskstats"), m_netDevFile(m_options.procRoot + "/net/dev"),
      m_ticksPerSecond(sysconf(_SC_CLK_TCK)), m_pageSize(sysconf(_SC_PAGESIZE)) {
    if (auto text = m_meminfoFile.read())
        if (auto mem = parseMeminfo(*text))
            m_memTotalKb = mem->totalKb;
}

ProcSampler::ProcSampler(int rootPid, bool system, bool processTree, std::string procRoot)
    : ProcSampler(rootPid,
                  ProcSamplerOptions{system, false, false, false, processTree, false, std::move(procRoot)}) {}

void ProcSampler::sample(int64_t nowMs, std::vector<MetricPoint>& out) {
    if (m_options.top)
        sampleSystem(nowMs, out);
    if (m_options.proc || m_options.ps) {
        std::unordered_map<int, ProcessStat> stats;
        findTree(stats);
        if (m_options.proc)
            sampleTree(nowMs, stats, out);
        if (m_options.ps)
            sampleThreads(nowMs, stats, out);
    }
    if (m_options.iostat)
        sampleDisks(nowMs, out);
    if (m_options.net)
        sampleNetwork(nowMs, out);
    if (m_options.rapl) {
        if (!m_rapl)
            m_rapl.emplace(m_options.sysRoot);
        m_rapl->sample(nowMs, out);
    }
}

void ProcSampler::sampleSystem(int64_t nowMs, std::vector<MetricPoint>& out) {
    if (auto text = m_statFile.read()) {
        if (auto cpu = parseProcStatCpu(*text)) {
            if (m_lastCpu) {
                if (auto pct = cpuUtilizationPercent(*m_lastCpu, *cpu))
                    out.push_back({"TOP - CPU Utilization", *pct, nowMs, 0});
            }
            m_lastCpu = cpu;
        }
    }
    if (auto text = m_meminfoFile.read()) {
        if (auto mem = parseMeminfo(*text)) {
            m_memTotalKb = mem->totalKb;
            const double usedKb = static_cast<double>(mem->totalKb - mem->availableKb);
            out.push_back({"TOP - Memory Usage GB", usedKb / kMiB, nowMs, 0});
            if (mem->totalKb > 0)
                out.push_back({"TOP - Memory Utilization", 100.0 * usedKb / mem->totalKb, nowMs, 0});
            const double swapUsedKb =
                static_cast<double>(mem->swapTotalKb - std::min(mem->swapFreeKb, mem->swapTotalKb));
            out.push_back({"TOP - Swap Memory GB", swapUsedKb / kMiB, nowMs, 0});
        }
    }
}

void ProcSampler::findTree(std::unordered_map<int, ProcessStat>& stats) {
    // Listing /proc and reading every process's stat each tick would cost more than everything
    // else the collector does. /proc/loadavg names the last pid created: while it stays the
    // same, no process was born, so re-reading the tree's own pids is enough. When it moved,
    // only the pids handed out since are new: a process that existed at the last tick and was
    // not the run's cannot have become the run's, so of the rest only the tree's own are read
    // (on a node of 1,000 processes that is a few files instead of 1,000 whenever one is born).
    std::optional<long> lastPid;
    if (auto text = m_loadavgFile.read())
        lastPid = parseLoadavgLastPid(*text);
    const bool everything = !lastPid || !m_lastPid; // the first tick, or no loadavg to go by
    const bool born = !everything && *lastPid != *m_lastPid;
    const long before = m_lastPid.value_or(0);
    m_lastPid = lastPid;

    std::unordered_map<int, uint64_t> previous = std::move(m_treeStarts);
    m_treeStarts.clear();
    m_tree.clear();
    auto sameProcess = [&](int pid, const ProcessStat& s) {
        auto it = previous.find(pid);
        return it != previous.end() && it->second == s.startTicks;
    };
    if (!everything && !born) {
        for (const auto& [pid, start] : previous) {
            auto text = readSmallFile(m_options.procRoot + "/" + std::to_string(pid) + "/stat");
            auto s = text ? parseProcPidStat(*text) : std::nullopt;
            if (s && !s->zombie && s->startTicks == start) // else gone, or the pid was recycled
                stats.emplace(pid, *s);
        }
    } else {
        forEachNumericEntry(m_options.procRoot, [&](const char* name) {
            const long pid = std::strtol(name, nullptr, 10);
            if (!everything && !pidBornBetween(pid, before, *lastPid) &&
                !previous.count(static_cast<int>(pid)))
                return;
            auto text = readSmallFile(m_options.procRoot + "/" + name + "/stat");
            if (!text)
                return; // the process exited between readdir and open
            if (auto s = parseProcPidStat(*text); s && !s->zombie)
                stats.emplace(s->pid, *s);
        });
    }
    // The tree: the root and its descendants through parent links, plus earlier members still
    // alive (a daemonised data loader reparented to init stays part of the run).
    std::unordered_map<int, std::vector<int>> children;
    for (const auto& [pid, s] : stats)
        children[s.ppid].push_back(pid);
    std::vector<int> stack;
    if (stats.count(m_rootPid))
        stack.push_back(m_rootPid);
    for (const auto& [pid, s] : stats)
        if (pid != m_rootPid && sameProcess(pid, s))
            stack.push_back(pid);
    while (!stack.empty()) {
        const int pid = stack.back();
        stack.pop_back();
        if (m_treeStarts.count(pid))
            continue;
        m_treeStarts.emplace(pid, stats.at(pid).startTicks);
        m_tree.push_back(pid);
        for (int child : children[pid])
            stack.push_back(child);
    }
    std::sort(m_tree.begin(), m_tree.end(), [this](int a, int b) {
        return (a == m_rootPid) != (b == m_rootPid) ? a == m_rootPid : a < b; // root first
    });
}

void ProcSampler::sampleTree(int64_t nowMs, const std::unordered_map<int, ProcessStat>& stats,
                             std::vector<MetricPoint>& out) {
    if (m_tree.empty())
        return;
    uint64_t deltaTicks = 0;
    int64_t rssPages = 0, threads = 0;
    std::map<int, uint64_t> ticks;
    for (int pid : m_tree) {
        const ProcessStat& s = stats.at(pid);
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
    out.push_back({"PROC - RSS MB", static_cast<double>(rssPages) * m_pageSize / kMiB, nowMs, 0});
    out.push_back({"PROC - Threads", static_cast<double>(threads), nowMs, 0});
    m_lastTicks = std::move(ticks);
    m_lastTreeSampleMs = nowMs;
}

void ProcSampler::sampleThreads(int64_t nowMs, const std::unordered_map<int, ProcessStat>& stats,
                                std::vector<MetricPoint>& out) {
    // radT's ps listener: CPU of the run's threads per core they last ran on, and the memory share
    // of the processes with a thread on that core (each process counted once per core).
    std::map<int, double> cpuTicks;
    std::map<int, std::set<int>> pidsOnCore;
    std::map<int, uint64_t> ticks;
    std::unordered_set<int> listedTids; // this tick's
    for (int pid : m_tree) {
        const std::string taskDir = m_options.procRoot + "/" + std::to_string(pid) + "/task";
        forEachNumericEntry(taskDir, [&](const char* tid) {
            const int id = std::atoi(tid);
            listedTids.insert(id);
            auto text = readTaskStat(taskDir + "/" + tid + "/stat", id);
            if (!text)
                return;
            auto s = parseProcPidStat(*text);
            if (!s || s->processor < 0)
                return;
            const uint64_t t = s->utime + s->stime;
            ticks[s->pid] = t;
            auto last = m_lastThreadTicks.find(s->pid);
            cpuTicks[s->processor] +=
                last == m_lastThreadTicks.end() ? static_cast<double>(t) : delta(last->second, t);
            pidsOnCore[s->processor].insert(pid);
        });
    }
    const bool haveRate = m_lastThreadSampleMs > 0 && nowMs > m_lastThreadSampleMs;
    const double seconds = (nowMs - m_lastThreadSampleMs) / 1000.0;
    for (const auto& [core, pids] : pidsOnCore) {
        const std::string suffix = std::to_string(core);
        if (haveRate)
            out.push_back(
                {"PS - CPU " + suffix, 100.0 * (cpuTicks[core] / m_ticksPerSecond) / seconds, nowMs, 0});
        if (m_memTotalKb > 0) {
            double rssKb = 0;
            for (int pid : pids)
                rssKb += static_cast<double>(stats.at(pid).rssPages) * m_pageSize / 1024.0;
            out.push_back({"PS - MEM " + suffix, 100.0 * rssKb / m_memTotalKb, nowMs, 0});
        }
    }
    m_lastThreadTicks = std::move(ticks);
    m_lastThreadSampleMs = nowMs;
    // The descriptors of threads that ended or left the tree are closed.
    for (auto it = m_taskFiles.begin(); it != m_taskFiles.end();)
        it = listedTids.count(it->first) ? std::next(it) : m_taskFiles.erase(it);
}

std::optional<std::string> ProcSampler::readTaskStat(const std::string& path, int tid) {
    // A training process has tens of threads, each read every tick: through a descriptor kept
    // open that is one call into the kernel instead of a path lookup, an open, a read and a close.
    // Up to a bound, so a run of thousands of threads cannot use up radt's descriptors.
    auto it = m_taskFiles.find(tid);
    if (it == m_taskFiles.end()) {
        if (m_taskFiles.size() >= kMaxKeptTaskFiles)
            return readSmallFile(path);
        it = m_taskFiles.emplace(tid, ProcFile(path)).first;
    }
    auto text = it->second.read();
    if (!text)
        m_taskFiles.erase(it); // ended: the next thread with this tid gets a descriptor of its own
    return text;
}

void ProcSampler::sampleDisks(int64_t nowMs, std::vector<MetricPoint>& out) {
    auto text = m_diskstatsFile.read();
    if (!text)
        return;
    std::vector<DiskStat> disks = parseDiskstats(*text);
    // Loop and RAM disks are snap/squashfs mounts and tmpfs-like: noise in a training benchmark.
    disks.erase(std::remove_if(disks.begin(), disks.end(),
                               [](const DiskStat& d) {
                                   return d.name.rfind("loop", 0) == 0 || d.name.rfind("ram", 0) == 0;
                               }),
                disks.end());
    if (m_lastDiskMs > 0 && nowMs > m_lastDiskMs) {
        const double seconds = (nowMs - m_lastDiskMs) / 1000.0;
        double totalTps = 0, totalRead = 0, totalWritten = 0;
        for (const DiskStat& d : disks) {
            auto last = std::find_if(m_lastDisks.begin(), m_lastDisks.end(),
                                     [&](const DiskStat& l) { return l.name == d.name; });
            if (last == m_lastDisks.end())
                continue;
            const double tps = (delta(last->reads, d.reads) + delta(last->writes, d.writes)) / seconds;
            const double readMb = delta(last->sectorsRead, d.sectorsRead) * 512.0 / kMiB / seconds;
            const double writtenMb = delta(last->sectorsWritten, d.sectorsWritten) * 512.0 / kMiB / seconds;
            // Devices that never moved a sector during the run (spare disks, optical drives)
            // would add rows of zeros every tick: they appear once they are used.
            if (tps > 0 || m_activeDisks.count(d.name)) {
                m_activeDisks.insert(d.name);
                const std::string name = metricKeyPart(d.name);
                out.push_back({name + " - tps", tps, nowMs, 0});
                out.push_back({name + " - MB read/s", readMb, nowMs, 0});
                out.push_back({name + " - MB written/s", writtenMb, nowMs, 0});
            }
            if (!isPartition(d.name, disks)) {
                totalTps += tps;
                totalRead += readMb;
                totalWritten += writtenMb;
            }
        }
        out.push_back({"iostat - Total tps", totalTps, nowMs, 0});
        out.push_back({"iostat - Total MB read/s", totalRead, nowMs, 0});
        out.push_back({"iostat - Total MB written/s", totalWritten, nowMs, 0});
    }
    m_lastDisks = std::move(disks);
    m_lastDiskMs = nowMs;
}

void ProcSampler::sampleNetwork(int64_t nowMs, std::vector<MetricPoint>& out) {
    auto text = m_netDevFile.read();
    if (!text)
        return;
    std::vector<NetDevStat> ifaces = parseNetDev(*text);
    ifaces.erase(
        std::remove_if(ifaces.begin(), ifaces.end(), [](const NetDevStat& n) { return n.iface == "lo"; }),
        ifaces.end());
    if (m_lastNetMs > 0 && nowMs > m_lastNetMs) {
        const double seconds = (nowMs - m_lastNetMs) / 1000.0;
        for (const NetDevStat& n : ifaces) {
            auto last = std::find_if(m_lastNet.begin(), m_lastNet.end(),
                                     [&](const NetDevStat& l) { return l.iface == n.iface; });
            if (last == m_lastNet.end())
                continue;
            const double rx = delta(last->rxBytes, n.rxBytes), tx = delta(last->txBytes, n.txBytes);
            if (rx == 0 && tx == 0 && !m_activeIfaces.count(n.iface))
                continue; // idle bridges and tunnels appear once they carry traffic
            m_activeIfaces.insert(n.iface);
            const std::string name = "NET - " + metricKeyPart(n.iface);
            out.push_back({name + " RX MB/s", rx / kMiB / seconds, nowMs, 0});
            out.push_back({name + " TX MB/s", tx / kMiB / seconds, nowMs, 0});
        }
    }
    m_lastNet = std::move(ifaces);
    m_lastNetMs = nowMs;
}

} // namespace radt
