// SPDX-License-Identifier: MIT
#include "collector/listeners/GpuParsers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <unordered_map>

namespace radt {

const char* const kSmiQueryFields =
    "index,timestamp,power.draw,utilization.gpu,utilization.memory,memory.used,pstate";

namespace {

// ' ' and \t \n \v \f \r (9..13): two compares per byte, dmon rows are mostly padding.
bool isSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

/// Parses a number at the start of s; `used` gets how many chars it took. from_chars, because it
/// ignores the locale (strtod under a German locale reads "185.300" as 185); the guards, because it
/// also accepts "inf"/"nan" and a tool's garbage must become "missing", not a value.
bool parseNumberPrefix(std::string_view s, double limit, double& out, size_t& used) {
    size_t i = 0;
    if (i < s.size() && s[i] == '-')
        ++i;
    if (i >= s.size() || !(isDigit(s[i]) || (s[i] == '.' && i + 1 < s.size() && isDigit(s[i + 1]))))
        return false; // rejects inf, nan, "+5", hex
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
    if (ec != std::errc() || !std::isfinite(v) || std::fabs(v) > limit)
        return false;
    out = v;
    used = static_cast<size_t>(end - s.data());
    return true;
}

/// The whole of s is a number.
std::optional<double> parseNumber(std::string_view s, double limit) {
    double v;
    size_t used;
    if (!parseNumberPrefix(s, limit, v, used) || used != s.size())
        return std::nullopt;
    return v;
}

std::optional<long long> parseInteger(std::string_view s) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

/// A number optionally followed by spaces and the expected unit ("631.95 W" with csv units).
std::optional<double> parseWithUnit(std::string_view s, std::string_view unit, double limit) {
    double v;
    size_t used;
    if (!parseNumberPrefix(s, limit, v, used))
        return std::nullopt;
    const std::string_view rest = trim(s.substr(used));
    if (!rest.empty() && rest != unit)
        return std::nullopt;
    return v;
}

/// MLflow accepts only ^[/\w.\- :]*$ as a key; anything else from a tool's text becomes '_'.
std::string sanitizeKey(std::string key) {
    for (char& c : key)
        if (!(isAlpha(c) || isDigit(c) || c == '_' || c == '/' || c == '.' || c == '-' || c == ' ' ||
              c == ':'))
            c = '_';
    return key;
}

// ---- nvidia-smi ----

constexpr double kSmiLimit = 1e15; // no smi quantity comes near; larger text is garbage

bool leapYear(int y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/// "2019/08/23 14:41:50.273" as local time (nvidia-smi prints the host's local clock).
std::optional<double> parseSmiTimestamp(std::string_view s) {
    if (s.size() < 19 || s[4] != '/' || s[7] != '/' || s[10] != ' ' || s[13] != ':' || s[16] != ':')
        return std::nullopt;
    auto num = [&](size_t pos, size_t len) -> int {
        int v = 0;
        for (size_t i = pos; i < pos + len; ++i) {
            if (!isDigit(s[i]))
                return -1;
            v = v * 10 + (s[i] - '0');
        }
        return v;
    };
    const int year = num(0, 4), month = num(5, 2), day = num(8, 2);
    const int hour = num(11, 2), minute = num(14, 2), second = num(17, 2);
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1970 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 ||
        minute > 59 || second < 0 || second > 60)
        return std::nullopt;
    if (day > kDays[month - 1] + (month == 2 && leapYear(year) ? 1 : 0))
        return std::nullopt;
    double fraction = 0;
    if (s.size() > 19) {
        if (s[19] != '.' || s.size() == 20 || s.size() > 29)
            return std::nullopt;
        double scale = 0.1;
        for (size_t i = 20; i < s.size(); ++i, scale /= 10) {
            if (!isDigit(s[i]))
                return std::nullopt;
            fraction += (s[i] - '0') * scale;
        }
    }
    // mktime re-reads the zone rules on every call (a stat of /etc/localtime in glibc), too slow
    // for one call per line at -lms 10. Offsets change only on whole hours, so cache per hour.
    struct HourCache {
        int year = -1, month = 0, day = 0, hour = 0;
        std::time_t base = 0;
    };
    thread_local HourCache cache;
    if (cache.year != year || cache.month != month || cache.day != day || cache.hour != hour) {
        std::tm t{};
        t.tm_year = year - 1900;
        t.tm_mon = month - 1;
        t.tm_mday = day;
        t.tm_hour = hour;
        t.tm_isdst = -1;
        const std::time_t base = std::mktime(&t);
        if (base == static_cast<std::time_t>(-1))
            return std::nullopt;
        cache = {year, month, day, hour, base};
    }
    return static_cast<double>(cache.base) + minute * 60 + second + fraction;
}

// ---- dcgmi ----

void splitWhitespace(std::string_view line, std::vector<std::string_view>& out) {
    out.clear();
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isSpace(line[i]))
            ++i;
        const size_t start = i;
        while (i < line.size() && !isSpace(line[i]))
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
}

constexpr double kDcgmiLimit = 1e18; // TOTEC (mJ since driver load) and byte counters grow large

/// dmon prints "N/A" for blank values; older builds also print other "N/x" markers.
bool isBlankValue(std::string_view v) {
    return startsWith(v, "N/");
}

/// "GPU", "GPU-I", "GPU-CI", "LINK": the entity becomes part of a metric key (" - GPU-I 1"), so
/// a word of an error message glued to a row ("unknown:", "ParsedGpu(i:1") must not pass.
bool isEntityName(std::string_view s) {
    if (s.empty() || !isAlpha(s.front()))
        return false;
    for (char c : s)
        if (!(isAlpha(c) || isDigit(c) || c == '-' || c == '_'))
            return false;
    return true;
}

/// Entity labels are one or more (name words, integer id) groups: "GPU 0", "GPU-I 1", "GPU 0 LINK 3".
bool validEntity(const std::vector<std::string_view>& tokens, size_t count) {
    if (count < 2 || !isAlpha(tokens[0].front()) || !parseInteger(tokens[count - 1]))
        return false;
    bool previousWasName = false;
    for (size_t i = 0; i < count; ++i) {
        const bool isId = parseInteger(tokens[i]).has_value();
        if (isId && !previousWasName)
            return false;
        if (!isId && !isEntityName(tokens[i]))
            return false;
        previousWasName = !isId;
    }
    return true;
}

// ---- tegrastats ----

constexpr double kTegraLimit = 1e12;

/// "2020/7852MB", "0/252kB", "5012mW/5012mW" -> the two numbers and what follows the second.
bool parsePair(std::string_view s, double& first, double& second, std::string_view& unit) {
    size_t used;
    if (!parseNumberPrefix(s, kTegraLimit, first, used))
        return false;
    s.remove_prefix(used);
    if (startsWith(s, "mW"))
        s.remove_prefix(2);
    if (s.empty() || s.front() != '/')
        return false;
    s.remove_prefix(1);
    if (!parseNumberPrefix(s, kTegraLimit, second, used))
        return false;
    unit = s.substr(used);
    return true;
}

double toMegabytes(double v, std::string_view unit) {
    if (startsWith(unit, "kB") || startsWith(unit, "KB"))
        return v / 1024.0;
    if (startsWith(unit, "GB"))
        return v * 1024.0;
    return v; // MB, the unit of every tegrastats generation in the fixtures
}

/// "9%", "2%@1866", "0%@[305,305]" (Orin prints one clock per GPC: the first stands for all).
bool parsePercentAt(std::string_view s, std::optional<double>& percent, std::optional<double>& mhz) {
    double v;
    size_t used;
    if (!parseNumberPrefix(s, kTegraLimit, v, used) || used >= s.size() || s[used] != '%')
        return false;
    percent = v;
    s.remove_prefix(used + 1);
    if (s.empty())
        return true;
    if (s.front() != '@')
        return false;
    s.remove_prefix(1);
    if (!s.empty() && s.front() == '[')
        s.remove_prefix(1);
    if (parseNumberPrefix(s, kTegraLimit, v, used))
        mhz = v;
    return true;
}

bool isRailName(std::string_view s) {
    if (s.empty() || !isAlpha(s.front()))
        return false;
    for (char c : s)
        if (!(isAlpha(c) || isDigit(c) || c == '_'))
            return false;
    return true;
}

/// "08-21-2023" / "10:00:00": the date newer JetPacks put first.
bool isDateOrTime(std::string_view s) {
    if (s.size() < 5)
        return false;
    bool separator = false;
    for (char c : s) {
        if (c == '-' || c == ':')
            separator = true;
        else if (!isDigit(c))
            return false;
    }
    return separator;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// nvidia-smi

std::optional<SmiRow> parseSmiLine(std::string_view line) {
    constexpr size_t kColumns = 7;
    std::string_view f[kColumns];
    size_t n = 0, start = 0;
    for (;;) {
        if (n == kColumns)
            return std::nullopt; // more columns than our query: someone else's output
        const size_t comma = line.find(',', start);
        f[n++] = trim(
            line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    if (n != kColumns)
        return std::nullopt;
    const auto index = parseInteger(f[0]);
    if (!index || *index < 0 || *index > 1 << 20)
        return std::nullopt;

    SmiRow row;
    row.gpuIndex = static_cast<int>(*index);
    row.values.reserve(6);
    if (auto t = parseSmiTimestamp(f[1]))
        row.values.push_back({"SMI - Timestamp", *t});
    if (auto v = parseWithUnit(f[2], "W", kSmiLimit))
        row.values.push_back({"SMI - Power Draw", *v});
    if (auto v = parseWithUnit(f[3], "%", kSmiLimit))
        row.values.push_back({"SMI - GPU Util", *v / 100.0});
    if (auto v = parseWithUnit(f[4], "%", kSmiLimit))
        row.values.push_back({"SMI - Mem Util", *v / 100.0});
    if (auto v = parseWithUnit(f[5], "MiB", kSmiLimit))
        row.values.push_back({"SMI - Mem Used", *v});
    if (f[6].size() >= 2 && f[6].front() == 'P')
        if (auto p = parseInteger(f[6].substr(1)); p && *p >= 0 && *p <= 32)
            row.values.push_back({"SMI - Performance State", static_cast<double>(*p)});
    return row;
}

// ---------------------------------------------------------------------------------------------
// dcgmi

const std::vector<std::vector<int>>& dcgmiFieldSets() {
    static const std::vector<std::vector<int>> sets = {
        {155, 156, 200, 201, 203, 204, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011,
         1012},
        {155, 156, 200, 201, 203, 204},
        {155, 203},
    };
    return sets;
}

std::string dcgmiKeyForColumn(const std::string& shortName) {
    // resources/DESIGN.md §5 names for the fields the listener asks for, then readable names for the rest of
    // DCGM's reference table (dcgm_fields.cpp) so a user-chosen field set also reads well.
    // clang-format off
    static const std::unordered_map<std::string, const char*> names = {
        {"POWER", "Power Usage"}, {"TOTEC", "Total Energy Consumption"}, {"TXPCI", "PCIE TX Throughput"},
        {"RXPCI", "PCIE RX Throughput"}, {"GPUTL", "GPU Utilization"}, {"MCUTL", "Memory Copy Utilization"},
        {"GRACT", "GR Engine Active"}, {"SMACT", "SM Active"}, {"SMOCC", "SM Occupancy"},
        {"TENSO", "Tensor Active"}, {"DRAMA", "DRAM Active"}, {"FP64A", "FP64 Active"},
        {"FP32A", "FP32 Active"}, {"FP16A", "FP16 Active"}, {"PCITX", "PCIE TX Bytes"},
        {"PCIRX", "PCIE RX Bytes"}, {"NVLTX", "NVlink TX Bytes"}, {"NVLRX", "NVlink RX Bytes"},
        // not asked for by the listener
        {"SMCLK", "SM Clock"}, {"MMCLK", "Memory Clock"}, {"MMTMP", "Memory Temperature"},
        {"TMPTR", "GPU Temperature"}, {"POWINST", "Power Usage Instant"}, {"FBTTL", "FB Total"},
        {"FBFRE", "FB Free"}, {"FBUSD", "FB Used"}, {"ESVTL", "ECC SBE Volatile Total"},
        {"EDVTL", "ECC DBE Volatile Total"},
    };
    // clang-format on
    const auto it = names.find(shortName);
    return "DCGMI - " + (it != names.end() ? std::string(it->second) : sanitizeKey(shortName));
}

std::optional<DcgmiDmonParser::Row> DcgmiDmonParser::feed(std::string_view line) {
    splitWhitespace(line, m_tokens);
    if (m_tokens.empty())
        return std::nullopt;
    if (line.find("Error setting watches") != std::string_view::npos) {
        m_watchError = true;
        return std::nullopt;
    }
    const std::string_view first = m_tokens[0];
    if (first.front() == '#') {
        // "# Entity  GRACT" (DCGM <= 2.3) or "#Entity   GPUTL" (2.4.5 and later).
        size_t columnsFrom = 0;
        if (first == "#Entity")
            columnsFrom = 1;
        else if (first == "#" && m_tokens.size() > 1 && m_tokens[1] == "Entity")
            columnsFrom = 2;
        if (columnsFrom == 0 || columnsFrom == m_tokens.size()) {
            ++m_skipped;
            return std::nullopt;
        }
        m_keys.clear();
        for (size_t i = columnsFrom; i < m_tokens.size(); ++i)
            m_keys.push_back(dcgmiKeyForColumn(std::string(m_tokens[i])));
        return std::nullopt;
    }
    if (first == "Id" || first == "ID")
        return std::nullopt; // second header line: entity id label and unit strings
    const size_t columns = m_keys.size();
    if (columns == 0 || m_tokens.size() < columns + 2) {
        ++m_skipped; // before any header, or truncated
        return std::nullopt;
    }
    const size_t entityTokens = m_tokens.size() - columns;
    if (!validEntity(m_tokens, entityTokens)) {
        ++m_skipped;
        return std::nullopt;
    }
    Row row;
    row.values.reserve(columns);
    for (size_t c = 0; c < columns; ++c) {
        const std::string_view text = m_tokens[entityTokens + c];
        if (isBlankValue(text))
            continue;
        const auto v = parseNumber(text, kDcgmiLimit);
        if (!v) {
            ++m_skipped; // a value column with text in it: not a row we understand
            return std::nullopt;
        }
        row.values.push_back({m_keys[c], *v});
    }
    for (size_t i = 0; i < entityTokens; ++i) {
        if (i)
            row.entity += ' ';
        row.entity += m_tokens[i];
    }
    ++m_rows;
    return row;
}

std::optional<int> parseDcgmiGroupId(std::string_view output) {
    const size_t created = output.find("Successfully created group");
    if (created == std::string_view::npos)
        return std::nullopt;
    constexpr std::string_view marker = "with a group ID of ";
    const size_t at = output.find(marker, created);
    if (at == std::string_view::npos)
        return std::nullopt;
    const char* begin = output.data() + at + marker.size();
    int id = -1;
    const auto [end, ec] = std::from_chars(begin, output.data() + output.size(), id);
    if (ec != std::errc() || end == begin || id < 0)
        return std::nullopt;
    return id;
}

// ---------------------------------------------------------------------------------------------
// nvidia-smi dmon

const char* const kSmiDmonGroups = "puctv";

std::string smiDmonKeyForColumn(const std::string& column, const std::string& unit) {
    // Names as nvidia-smi's help for dmon describes the columns; units where the name alone would
    // not say them (a temperature, a clock, a rate), as tegrastats' keys do.
    // clang-format off
    static const std::unordered_map<std::string, const char*> names = {
        {"pwr", "Power Draw"}, {"gtemp", "GPU Temp C"}, {"mtemp", "Memory Temp C"},
        {"sm", "SM Util"}, {"mem", "Mem Util"}, {"enc", "Encoder Util"}, {"dec", "Decoder Util"},
        {"jpg", "JPEG Util"}, {"ofa", "OFA Util"}, {"mclk", "Memory Clock MHz"}, {"pclk", "SM Clock MHz"},
        {"rxpci", "PCIe RX MB/s"}, {"txpci", "PCIe TX MB/s"}, {"pviol", "Power Violation"},
        {"tviol", "Thermal Violation"}, {"fb", "FB Used MB"}, {"bar1", "BAR1 Used MB"},
        {"ccpm", "CC Protected Memory MB"}, {"sbecc", "ECC Single Bit Errors"},
        {"dbecc", "ECC Double Bit Errors"}, {"pci", "PCIe Replay Errors"},
    };
    // clang-format on
    const auto it = names.find(column);
    if (it != names.end())
        return std::string("DMON - ") + it->second;
    return sanitizeKey("DMON - " + column + (unit.empty() || unit == "-" ? "" : " " + unit));
}

std::optional<SmiDmonParser::Row> SmiDmonParser::feed(std::string_view line) {
    splitWhitespace(line, m_tokens);
    if (m_tokens.empty())
        return std::nullopt;
    if (m_tokens[0].front() == '#') {
        // "# gpu    pwr  gtemp" or "#Date       Time        gpu" (-o DT): '#' alone or glued on.
        if (m_tokens[0] == "#")
            m_tokens.erase(m_tokens.begin());
        else
            m_tokens[0].remove_prefix(1);
        const auto gpu = std::find(m_tokens.begin(), m_tokens.end(), "gpu");
        if (gpu != m_tokens.end()) {
            m_columns.assign(m_tokens.begin(), m_tokens.end());
            m_gpuColumn = static_cast<int>(gpu - m_tokens.begin());
            m_unitsSeen = false;
        } else if (!m_columns.empty() && !m_unitsSeen && m_tokens.size() == m_columns.size()) {
            m_unitsSeen = true; // "# Idx W C ...": names the unknown columns' units
        } else {
            ++m_skipped;
            return std::nullopt;
        }
        m_keys.assign(m_columns.size(), std::string());
        for (size_t c = 0; c < m_columns.size(); ++c) {
            const std::string& name = m_columns[c];
            if (static_cast<int>(c) != m_gpuColumn && name != "Date" && name != "Time")
                m_keys[c] = smiDmonKeyForColumn(name, m_unitsSeen ? std::string(m_tokens[c]) : "");
        }
        return std::nullopt;
    }
    std::optional<long long> gpu;
    if (m_gpuColumn < 0 || m_tokens.size() != m_columns.size() ||
        !(gpu = parseInteger(m_tokens[m_gpuColumn])) || *gpu < 0 || *gpu > 4096) {
        ++m_skipped; // before any header, truncated, or not a row at all
        return std::nullopt;
    }
    Row row;
    row.gpuIndex = static_cast<int>(*gpu);
    for (size_t c = 0; c < m_keys.size(); ++c)
        if (!m_keys[c].empty())
            if (const auto v = parseNumber(m_tokens[c], 1e15)) // "-": not supported here
                row.values.push_back({m_keys[c], *v});
    return row;
}

// ---------------------------------------------------------------------------------------------
// tegrastats

namespace {

/// tegrastats' CPU list: "[9%@345,off,...]" (per-core clocks) or "[17%,13%]@408" (TX1: one clock
/// for all), each core's utilisation and clock; a core that is "off" has neither.
void parseTegraCpus(std::string_view list, TegraSample& sample) {
    const size_t close = list.find(']');
    const std::string_view inner =
        list.substr(1, close == std::string_view::npos ? list.size() - 1 : close - 1);
    std::optional<double> sharedMhz;
    if (close != std::string_view::npos && list.size() > close + 2 && list[close + 1] == '@')
        if (auto m = parseNumber(list.substr(close + 2), kTegraLimit))
            sharedMhz = m;
    size_t core = 0, from = 0;
    for (;;) {
        const size_t comma = inner.find(',', from);
        const std::string_view item =
            inner.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from);
        std::optional<double> util, mhz;
        if (item != "off") {
            if (parsePercentAt(item, util, mhz)) {
                const std::string prefix = "TEGRA - CPU " + std::to_string(core);
                sample.values.push_back({prefix + " Util", *util});
                if (mhz || sharedMhz)
                    sample.values.push_back({prefix + " MHz", mhz ? *mhz : *sharedMhz});
            } else {
                ++sample.skippedTokens;
            }
        }
        ++core;
        if (comma == std::string_view::npos)
            break;
        from = comma + 1;
    }
}

} // namespace

std::optional<TegraSample> parseTegrastatsLine(std::string_view line) {
    std::vector<std::string_view> tok;
    splitWhitespace(line, tok);
    TegraSample sample;
    auto& out = sample.values;
    bool sawRam = false;
    size_t i = 0;
    // A token that opens '(' ("(lfb", "0/252kB(lfb") is followed by the rest of the remark.
    auto skipRemark = [&](std::string_view t) {
        if (t.find('(') == std::string_view::npos || t.find(')') != std::string_view::npos)
            return;
        while (i < tok.size())
            if (tok[i++].find(')') != std::string_view::npos)
                break;
    };
    while (i < tok.size() && i < 2 && isDateOrTime(tok[i]))
        ++i;
    while (i < tok.size()) {
        const std::string_view t = tok[i++];
        const std::string_view next = i < tok.size() ? tok[i] : std::string_view();
        double a = 0, b = 0;
        std::string_view unit;
        if (t.front() == '(') {
            skipRemark(t);
        } else if ((t == "RAM" || t == "SWAP") && parsePair(next, a, b, unit)) {
            ++i;
            if (t == "RAM") {
                sawRam = true;
                out.push_back({"TEGRA - RAM Used MB", toMegabytes(a, unit)});
                out.push_back({"TEGRA - RAM Total MB", toMegabytes(b, unit)});
            } else {
                out.push_back({"TEGRA - SWAP Used MB", toMegabytes(a, unit)});
            }
            skipRemark(next);
        } else if (t == "IRAM" && !next.empty()) {
            ++i;
            skipRemark(next);
        } else if ((t == "CPU" || t == "cpu") && startsWith(next, "[")) {
            ++i;
            parseTegraCpus(next, sample);
        } else if (t == "EMC_FREQ" || t == "EMC" || t == "GR3D_FREQ" || t == "GR3D") {
            std::optional<double> util, mhz;
            if (parsePercentAt(next, util, mhz)) {
                ++i;
                const char* name = t.front() == 'E' ? "TEGRA - EMC" : "TEGRA - GPU";
                out.push_back({std::string(name) + " Util", *util});
                if (mhz)
                    out.push_back({std::string(name) + " MHz", *mhz});
            } else {
                ++sample.skippedTokens;
            }
        } else if (t == "MTS" && i + 3 < tok.size() && tok[i] == "fg" && tok[i + 2] == "bg") {
            i += 4; // Xavier's "MTS fg 0% bg 0%" (Denver core scheduling): no key of ours
        } else if (const size_t at = t.find('@');
                   at != std::string_view::npos && at > 0 && t.size() > at + 2 && t.back() == 'C') {
            if (auto c = parseNumber(t.substr(at + 1, t.size() - at - 2), kTegraLimit))
                out.push_back({sanitizeKey("TEGRA - Temp " + std::string(t.substr(0, at)) + " C"), *c});
            else
                ++sample.skippedTokens;
        } else if (isRailName(t) && parsePair(next, a, b, unit) && (unit.empty() || unit == "mW")) {
            ++i;
            out.push_back({"TEGRA - Power " + std::string(t) + " mW", a});
        } else if (isRailName(t) && !next.empty()) {
            // Engine clocks without a key of ours: "APE 150", "NVENC 716", "NVDEC off", "VIC_FREQ 0%@115".
            std::optional<double> util, mhz;
            if (next == "off" || parseInteger(next) || parsePercentAt(next, util, mhz))
                ++i;
            else
                ++sample.skippedTokens;
        } else {
            ++sample.skippedTokens;
        }
    }
    if (!sawRam)
        return std::nullopt;
    return sample;
}

} // namespace radt
