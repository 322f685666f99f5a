// SPDX-License-Identifier: MIT
#pragma once
// Parsers for the /proc files the collector samples. Pure functions over the file text, so the
// recorded fixtures of other kernels test them as well as the live /proc.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace radt {

/// Aggregate CPU time from the first `cpu ` line of /proc/stat, in clock ticks.
struct CpuTimes {
    uint64_t total = 0; ///< every state except guest time (already counted in user/nice)
    uint64_t idle = 0;  ///< idle + iowait
};

/// std::nullopt when the text has no parsable aggregate `cpu` line (old kernels' 4-7 fields are fine).
std::optional<CpuTimes> parseProcStatCpu(const std::string& text);

/// Busy share of the CPU between two readings, 0..100; nullopt when no time passed.
std::optional<double> cpuUtilizationPercent(const CpuTimes& before, const CpuTimes& after);

struct MemInfo {
    uint64_t totalKb = 0;
    uint64_t availableKb = 0; ///< MemAvailable, or MemFree + Buffers + Cached on kernels before 3.14
    uint64_t swapTotalKb = 0;
    uint64_t swapFreeKb = 0;
};

/// std::nullopt when MemTotal is missing.
std::optional<MemInfo> parseMeminfo(const std::string& text);

/// The fields of /proc/<pid>/stat the collector uses.
struct ProcessStat {
    int pid = 0;
    int ppid = 0;
    uint64_t utime = 0; ///< clock ticks
    uint64_t stime = 0;
    int64_t threads = 0;
    int64_t rssPages = 0;
    bool zombie = false;     ///< exited, not yet reaped (state Z or X)
    uint64_t startTicks = 0; ///< start time after boot (field 22): tells a recycled pid apart
    int processor = -1;      ///< CPU it last ran on (field 39); -1 on kernels that lack it
};

/// Parses one /proc/<pid>/stat line; the command name may hold spaces and parentheses.
std::optional<ProcessStat> parseProcPidStat(const std::string& text);

/// One line of /proc/diskstats (both the 14+ field layout and the 4-counter one of 2.6 partitions).
struct DiskStat {
    std::string name;
    uint64_t reads = 0;       ///< completed
    uint64_t sectorsRead = 0; ///< 512-byte sectors, whatever the device's block size
    uint64_t writes = 0;      ///< completed
    uint64_t sectorsWritten = 0;
};

/// Parses /proc/diskstats; unparsable lines are counted in `skipped` (when given).
std::vector<DiskStat> parseDiskstats(const std::string& text, size_t* skipped = nullptr);

/// True when `name` is a partition of another device in `all` (sda1 of sda, nvme0n1p2 of
/// nvme0n1, mmcblk0p1 of mmcblk0), so totals count each byte once.
bool isPartition(const std::string& name, const std::vector<DiskStat>& all);

struct NetDevStat {
    std::string iface;
    uint64_t rxBytes = 0;
    uint64_t txBytes = 0;
};

/// Parses /proc/net/dev (two header lines, then `iface: rx... tx...`).
std::vector<NetDevStat> parseNetDev(const std::string& text, size_t* skipped = nullptr);

/// `name` made safe for an MLflow metric key: characters outside [\w./\- :] become '_'.
std::string metricKeyPart(const std::string& name);

/// The last field of /proc/loadavg: the most recently created pid. When it has not changed, no
/// process was created since, so the collector need not list /proc again.
std::optional<long> parseLoadavgLastPid(const std::string& text);

/// Reads a whole (small) file; nullopt when it cannot be opened.
std::optional<std::string> readSmallFile(const std::string& path);

/// A /proc file read every tick through one descriptor kept open: a read from offset 0 makes
/// the kernel write it afresh, and the path lookup, open and close of readSmallFile are saved
/// (the open was a tenth of the collector's CPU on a virtual machine, where each call into the
/// kernel is dear). Not copyable: it owns the descriptor.
class ProcFile {
public:
    explicit ProcFile(std::string path) : m_path(std::move(path)) {}
    ~ProcFile();
    ProcFile(ProcFile&& other) noexcept : m_path(std::move(other.m_path)), m_fd(other.m_fd) {
        other.m_fd = -1;
    }
    ProcFile(const ProcFile&) = delete;
    ProcFile& operator=(const ProcFile&) = delete;
    ProcFile& operator=(ProcFile&&) = delete;

    /// The whole file as it is now; nullopt when it cannot be opened or read (opened again at
    /// the next call: a file that comes back is read again).
    std::optional<std::string> read();

private:
    std::string m_path;
    int m_fd = -1;
};

} // namespace radt
