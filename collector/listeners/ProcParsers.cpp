// SPDX-License-Identifier: MIT
#include "collector/listeners/ProcParsers.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace radt {

namespace {

// /proc files are read every tick: parse with string_view and from_chars, not iostreams (whose
// locale machinery cost more than the reads themselves in a profile of the collector).

template <typename Fn> void forEachLine(std::string_view text, Fn fn) {
    while (!text.empty()) {
        const size_t end = text.find('\n');
        fn(text.substr(0, end));
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
}

/// Whitespace-separated tokens of one line.
class Tokens {
public:
    explicit Tokens(std::string_view line) : m_rest(line) {}
    bool next(std::string_view& token) {
        const size_t begin = m_rest.find_first_not_of(" \t\r\n");
        if (begin == std::string_view::npos) {
            m_rest = {};
            return false;
        }
        m_rest.remove_prefix(begin);
        const size_t end = std::min(m_rest.find_first_of(" \t\r\n"), m_rest.size());
        token = m_rest.substr(0, end);
        m_rest.remove_prefix(end);
        return true;
    }
    /// Appends numbers until `max` or the first token that is not one.
    template <typename T> void numbers(std::vector<T>& out, size_t max) {
        std::string_view token;
        T value{};
        while (out.size() < max && next(token) && toNumber(token, value))
            out.push_back(value);
    }
    template <typename T> static bool toNumber(std::string_view token, T& out) {
        const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), out);
        return error == std::errc() && end == token.data() + token.size();
    }

private:
    std::string_view m_rest;
};

} // namespace

std::optional<CpuTimes> parseProcStatCpu(const std::string& text) {
    std::optional<CpuTimes> result;
    bool seen = false;
    forEachLine(text, [&](std::string_view line) {
        if (seen || line.substr(0, 4) != "cpu ")
            return;
        seen = true;
        std::vector<uint64_t> v;
        Tokens(line.substr(4)).numbers(v, 10);
        if (v.size() < 4) // user nice system idle are in every kernel's format
            return;
        CpuTimes t;
        // user nice system idle iowait irq softirq steal guest guest_nice: guest is part of user.
        for (size_t i = 0; i < v.size() && i < 8; ++i)
            t.total += v[i];
        t.idle = v[3] + (v.size() > 4 ? v[4] : 0);
        result = t;
    });
    return result;
}

std::optional<double> cpuUtilizationPercent(const CpuTimes& before, const CpuTimes& after) {
    if (after.total <= before.total || after.idle < before.idle)
        return std::nullopt;
    const double total = static_cast<double>(after.total - before.total);
    const double idle = static_cast<double>(after.idle - before.idle);
    const double busy = total > idle ? total - idle : 0.0;
    // The share first: busy / total <= 1 exactly when busy <= total, while 100 * busy / total
    // rounded to 100.00000000000001 for a fully busy CPU with huge counters (found by fuzz_proc).
    return 100.0 * (busy / total);
}

std::optional<MemInfo> parseMeminfo(const std::string& text) {
    MemInfo m;
    bool haveTotal = false, haveAvailable = false;
    uint64_t memFree = 0, buffers = 0, cached = 0;
    forEachLine(text, [&](std::string_view line) {
        Tokens tokens(line);
        std::string_view key, number;
        uint64_t value = 0;
        if (!tokens.next(key) || !tokens.next(number) || !Tokens::toNumber(number, value))
            return;
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
    });
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
    std::string_view pidText(text.data(), open);
    while (!pidText.empty() && pidText.back() == ' ')
        pidText.remove_suffix(1);
    if (!Tokens::toNumber(pidText, s.pid))
        return std::nullopt;
    std::vector<std::string_view> f; // f[0] is field 3 (state)
    Tokens tokens(std::string_view(text).substr(close + 1));
    std::string_view token;
    while (f.size() < 37 && tokens.next(token))
        f.push_back(token);
    if (f.size() < 22)
        return std::nullopt;
    const bool ok = Tokens::toNumber(f[1], s.ppid) &&        // field 4
                    Tokens::toNumber(f[11], s.utime) &&      // field 14
                    Tokens::toNumber(f[12], s.stime) &&      // field 15
                    Tokens::toNumber(f[17], s.threads) &&    // field 20
                    Tokens::toNumber(f[19], s.startTicks) && // field 22
                    Tokens::toNumber(f[21], s.rssPages);     // field 24
    if (!ok)
        return std::nullopt;
    s.zombie = f[0] == "Z" || f[0] == "X";
    if (f.size() >= 37 && !Tokens::toNumber(f[36], s.processor)) // field 39
        s.processor = -1;
    return s;
}

std::optional<long> parseLoadavgLastPid(const std::string& text) {
    // "0.41 0.67 0.79 1/234 5678"
    Tokens tokens(text);
    std::string_view token, last;
    int count = 0;
    while (tokens.next(token)) {
        last = token;
        ++count;
    }
    long pid = 0;
    if (count != 5 || !Tokens::toNumber(last, pid))
        return std::nullopt;
    return pid;
}

std::vector<DiskStat> parseDiskstats(const std::string& text, size_t* skipped) {
    std::vector<DiskStat> out;
    forEachLine(text, [&](std::string_view line) {
        Tokens tokens(line);
        std::string_view major, minor, name;
        if (!tokens.next(major) || !tokens.next(minor) || !tokens.next(name)) {
            if (skipped && line.find_first_not_of(" \t\r") != std::string_view::npos)
                ++*skipped;
            return;
        }
        std::vector<uint64_t> v;
        tokens.numbers(v, 11);
        DiskStat d;
        d.name = std::string(name);
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
            return;
        }
        out.push_back(std::move(d));
    });
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
    forEachLine(text, [&](std::string_view line) {
        const auto colon = line.find(':');
        if (colon == std::string_view::npos || line.find('|') != std::string_view::npos)
            return; // the two header lines
        const auto begin = line.find_first_not_of(' ');
        NetDevStat n;
        n.iface = std::string(line.substr(begin, colon - begin));
        std::vector<uint64_t> v;
        Tokens(line.substr(colon + 1)).numbers(v, 9);
        if (v.size() < 9 || n.iface.empty()) {
            if (skipped)
                ++*skipped;
            return;
        }
        n.rxBytes = v[0];
        n.txBytes = v[8];
        out.push_back(std::move(n));
    });
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
    return ProcFile(path).read(); // opened, read whole and closed again
}

ProcFile::~ProcFile() {
    if (m_fd >= 0)
        ::close(m_fd);
}

std::optional<std::string> ProcFile::read() {
    if (m_fd < 0 && (m_fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC)) < 0)
        return std::nullopt;
    // /proc files report size 0: read until a read returns nothing (a file of many records,
    // net/dev or diskstats, comes a page at a time whatever the buffer), no iostream overhead.
    std::string out;
    char buf[16384];
    ssize_t n;
    while ((n = ::pread(m_fd, buf, sizeof buf, static_cast<off_t>(out.size()))) > 0)
        out.append(buf, static_cast<size_t>(n));
    if (n < 0) {
        ::close(m_fd);
        m_fd = -1;
        return std::nullopt;
    }
    return out;
}

} // namespace radt
