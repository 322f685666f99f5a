#include "ProcParsers.h"

#include <fcntl.h>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace radt {

std::optional<CpuTimes> parseProcStatCpu(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("cpu ", 0) != 0)
            continue;
        std::istringstream fields(line.substr(4));
        std::vector<uint64_t> v;
        uint64_t x;
        while (fields >> x)
            v.push_back(x);
        if (v.size() < 4) // user nice system idle are in every kernel's format
            return std::nullopt;
        CpuTimes t;
        // user nice system idle iowait irq softirq steal guest guest_nice: guest is part of user.
        for (size_t i = 0; i < v.size() && i < 8; ++i)
            t.total += v[i];
        t.idle = v[3] + (v.size() > 4 ? v[4] : 0);
        return t;
    }
    return std::nullopt;
}

std::optional<double> cpuUtilizationPercent(const CpuTimes& before, const CpuTimes& after) {
    if (after.total <= before.total || after.idle < before.idle)
        return std::nullopt;
    const double total = static_cast<double>(after.total - before.total);
    const double idle = static_cast<double>(after.idle - before.idle);
    const double busy = total > idle ? total - idle : 0.0;
    return 100.0 * busy / total;
}

std::optional<MemInfo> parseMeminfo(const std::string& text) {
    std::istringstream in(text);
    std::string key;
    uint64_t value = 0;
    std::string unit;
    MemInfo m;
    bool haveTotal = false, haveAvailable = false;
    uint64_t memFree = 0, buffers = 0, cached = 0;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        if (!(fields >> key >> value))
            continue;
        if (key == "MemTotal:") {
            m.totalKb = value;
            haveTotal = true;
        } else if (key == "MemAvailable:") {
            m.availableKb = value;
            haveAvailable = true;
        } else if (key == "MemFree:") {
            memFree = value;
        } else if (key == "Buffers:") {
            buffers = value;
        } else if (key == "Cached:") {
            cached = value;
        } else if (key == "SwapTotal:") {
            m.swapTotalKb = value;
        } else if (key == "SwapFree:") {
            m.swapFreeKb = value;
        }
    }
    if (!haveTotal)
        return std::nullopt;
    if (!haveAvailable)
        m.availableKb = memFree + buffers + cached;
    if (m.availableKb > m.totalKb)
        m.availableKb = m.totalKb;
    return m;
}

std::optional<ProcessStat> parseProcPidStat(const std::string& text) {
    // "pid (comm) state ppid ..." where comm may contain ") (": split at the last ')'.
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return std::nullopt;
    ProcessStat s;
    try {
        s.pid = std::stoi(text.substr(0, open));
    } catch (...) {
        return std::nullopt;
    }
    std::istringstream in(text.substr(close + 1));
    std::vector<std::string> f; // f[0] is field 3 (state)
    std::string tok;
    while (in >> tok && f.size() < 22)
        f.push_back(tok);
    if (f.size() < 22)
        return std::nullopt;
    try {
        s.ppid = std::stoi(f[1]);       // field 4
        s.utime = std::stoull(f[11]);   // field 14
        s.stime = std::stoull(f[12]);   // field 15
        s.threads = std::stoll(f[17]);  // field 20
        s.rssPages = std::stoll(f[21]); // field 24
    } catch (...) {
        return std::nullopt;
    }
    return s;
}

std::optional<std::string> readSmallFile(const std::string& path) {
    // /proc files report size 0: read until EOF with plain read(2), no iostream overhead.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0)
        out.append(buf, static_cast<size_t>(n));
    ::close(fd);
    if (n < 0)
        return std::nullopt;
    return out;
}

} // namespace radt
