#pragma once
// Parsers for the /proc files the collector samples. Pure functions over the file text, so the
// recorded fixtures of other kernels test them as well as the live /proc.

#include <cstdint>
#include <optional>
#include <string>

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
};

/// Parses one /proc/<pid>/stat line; the command name may hold spaces and parentheses.
std::optional<ProcessStat> parseProcPidStat(const std::string& text);

/// Reads a whole (small) file; nullopt when it cannot be opened.
std::optional<std::string> readSmallFile(const std::string& path);

} // namespace radt
