#include "ProcParsers.h"

#include <cctype>
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
    while (in >> tok && f.size() < 37)
        f.push_back(tok);
    if (f.size() < 22)
        return std::nullopt;
    try {
        s.ppid = std::stoi(f[1]);       // field 4
        s.utime = std::stoull(f[11]);   // field 14
        s.stime = std::stoull(f[12]);   // field 15
        s.threads = std::stoll(f[17]);  // field 20
        s.rssPages = std::stoll(f[21]); // field 24
        if (f.size() >= 37)
            s.processor = std::stoi(f[36]); // field 39
    } catch (...) {
        return std::nullopt;
    }
    return s;
}

std::vector<DiskStat> parseDiskstats(const std::string& text, size_t* skipped) {
    std::vector<DiskStat> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string major, minor;
        DiskStat d;
        std::vector<uint64_t> v;
        if (!(fields >> major >> minor >> d.name)) {
            if (skipped && line.find_first_not_of(" \t") != std::string::npos)
                ++*skipped;
            continue;
        }
        uint64_t x;
        while (v.size() < 11 && fields >> x)
            v.push_back(x);
        if (v.size() >= 11) {
            d.reads = v[0];
            d.sectorsRead = v[2];
            d.writes = v[4];
            d.sectorsWritten = v[6];
        } else if (v.size() == 4) { // Linux 2.6 partitions: reads, sectors read, writes, sectors written
            d.reads = v[0];
            d.sectorsRead = v[1];
            d.writes = v[2];
            d.sectorsWritten = v[3];
        } else {
            if (skipped)
                ++*skipped;
            continue;
        }
        out.push_back(std::move(d));
    }
    return out;
}

bool isPartition(const std::string& name, const std::vector<DiskStat>& all) {
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name.back())))
        return false;
    for (const DiskStat& d : all) {
        const std::string& parent = d.name;
        if (parent.size() >= name.size() || name.compare(0, parent.size(), parent) != 0)
            continue;
        std::string rest = name.substr(parent.size());
        // nvme0n1 -> nvme0n1p1 and mmcblk0 -> mmcblk0p1 put a 'p' between when the parent ends in
        // a digit; sda -> sda1 does not.
        if (std::isdigit(static_cast<unsigned char>(parent.back()))) {
            if (rest.size() < 2 || rest[0] != 'p')
                continue;
            rest.erase(0, 1);
        }
        if (!rest.empty() && rest.find_first_not_of("0123456789") == std::string::npos)
            return true;
    }
    return false;
}

std::vector<NetDevStat> parseNetDev(const std::string& text, size_t* skipped) {
    std::vector<NetDevStat> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos || line.find('|') != std::string::npos)
            continue; // the two header lines
        NetDevStat n;
        const auto begin = line.find_first_not_of(' ');
        n.iface = line.substr(begin, colon - begin);
        std::istringstream fields(line.substr(colon + 1));
        std::vector<uint64_t> v;
        uint64_t x;
        while (v.size() < 9 && fields >> x)
            v.push_back(x);
        if (v.size() < 9 || n.iface.empty()) {
            if (skipped)
                ++*skipped;
            continue;
        }
        n.rxBytes = v[0];
        n.txBytes = v[8];
        out.push_back(std::move(n));
    }
    return out;
}

std::string metricKeyPart(const std::string& name) {
    std::string out = name;
    for (char& c : out) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (!(std::isalnum(u) || c == '_' || c == '.' || c == '/' || c == '-' || c == ' ' || c == ':'))
            c = '_';
    }
    return out;
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
