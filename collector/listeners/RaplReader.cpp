// SPDX-License-Identifier: MIT
#include "collector/listeners/RaplReader.h"

#include "collector/listeners/ProcParsers.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <unistd.h>

namespace radt {

namespace fs = std::filesystem;

namespace {

std::optional<uint64_t> readNumber(const std::string& path) {
    const auto text = readSmallFile(path);
    if (!text)
        return std::nullopt;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text->c_str(), &end, 10);
    if (end == text->c_str())
        return std::nullopt;
    return v;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

bool keyChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == ' ';
}

} // namespace

uint64_t raplDelta(uint64_t before, uint64_t after, uint64_t maxRangeUj) {
    if (after >= before)
        return after - before;
    return maxRangeUj > before ? maxRangeUj - before + after : after; // wrapped around
}

std::vector<RaplDomain> findRaplDomains(const std::string& sysRoot) {
    std::vector<RaplDomain> out;
    std::error_code ec;
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(sysRoot + "/class/powercap", ec))
        if (entry.path().filename().string().rfind("intel-rapl:", 0) == 0)
            dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    std::map<std::string, int> uses;
    std::vector<std::pair<fs::path, std::string>> named;
    for (const fs::path& dir : dirs) {
        const auto text = readSmallFile((dir / "name").string());
        if (!text)
            continue;
        std::string name = trimmed(*text);
        if (name.rfind("package", 0) != 0 && name != "dram")
            continue; // core/uncore lie inside the package, psys around it: counted twice
        name.erase(std::remove_if(name.begin(), name.end(), [](char c) { return !keyChar(c); }), name.end());
        ++uses[name];
        named.emplace_back(dir, name);
    }
    for (auto& [dir, name] : named) {
        // Two sockets each have a "dram": say whose, from the parent zone's name.
        if (uses[name] > 1) {
            const std::string zone = dir.filename().string(); // intel-rapl:1:0
            const std::string parent = zone.substr(0, zone.rfind(':'));
            if (const auto p = readSmallFile((dir.parent_path() / parent / "name").string()))
                name = trimmed(*p) + " " + name;
        }
        out.push_back({dir.string(), name, readNumber((dir / "max_energy_range_uj").string()).value_or(0)});
    }
    return out;
}

std::string raplProblem(const std::string& sysRoot) {
    const auto domains = findRaplDomains(sysRoot);
    if (domains.empty())
        return sysRoot + "/class/powercap has no RAPL package or DRAM domain (no intel_rapl driver, or a VM)";
    for (const RaplDomain& d : domains)
        if (::access((d.dir + "/energy_uj").c_str(), R_OK) != 0)
            return d.dir + "/energy_uj is not readable (root only since Linux 5.10)";
    return {};
}

RaplReader::RaplReader(const std::string& sysRoot)
    : m_domains(findRaplDomains(sysRoot)), m_last(m_domains.size()) {}

void RaplReader::sample(int64_t nowMs, std::vector<MetricPoint>& out) {
    const int64_t dtMs = nowMs - m_lastMs;
    for (size_t i = 0; i < m_domains.size(); ++i) {
        const auto now = readNumber(m_domains[i].dir + "/energy_uj");
        if (now && m_last[i] && dtMs > 0)
            out.push_back(
                {"RAPL - " + m_domains[i].name + " Power W",
                 double(raplDelta(*m_last[i], *now, m_domains[i].maxRangeUj)) / (double(dtMs) * 1000.0),
                 nowMs, 0});
        m_last[i] = now;
    }
    m_lastMs = nowMs;
}

} // namespace radt
