// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the GPU tool parser tests: fixtures as the tools printed them, lookups.

#include "TempDir.h"
#include "collector/listeners/GpuParsers.h"
#include <cstdio>
#include <ctime>
#include <gtest/gtest.h>
#include <iterator>
#include <regex>
#include <sstream>
#include <sys/wait.h>

namespace radt::test {

// ---- fixture helpers ----

/// A fixture's lines as the tool printed them: only the first line goes when it is the
/// "# source:" provenance comment (later '#' lines are real dcgmi headers).
inline std::vector<std::string> fixtureLines(const std::string& name) {
    const std::string text = test::readFixture("tools/" + name);
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        lines.push_back(line);
    if (!lines.empty() && lines[0].rfind("# source:", 0) == 0)
        lines.erase(lines.begin());
    return lines;
}

inline std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) {
        const size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
        out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    return out;
}

/// The line our query (kSmiQueryFields) would have printed on the machine a capture with other
/// columns came from: columns picked by header name ("power.draw [W]" is power.draw). A column
/// the capture lacks is "[N/A]", except index, which single-GPU captures without it print as 0.
/// nounits strips the header's unit from the value, as --format=csv,nounits does.
inline std::string ourQueryLine(const std::string& header, const std::string& row, bool nounits = false) {
    const auto heads = splitCsv(header), cells = splitCsv(row);
    EXPECT_EQ(heads.size(), cells.size()) << header;
    std::string out;
    for (const auto& field : splitCsv(kSmiQueryFields)) {
        std::string value = field == "index" ? "0" : "[N/A]";
        for (size_t i = 0; i < heads.size() && i < cells.size(); ++i) {
            const std::string name = heads[i].substr(0, heads[i].find(" ["));
            if (name != field)
                continue;
            value = cells[i];
            const size_t open = heads[i].find(" [");
            if (nounits && open != std::string::npos) {
                const std::string unit = " " + heads[i].substr(open + 2, heads[i].size() - open - 3);
                if (value.size() > unit.size() &&
                    value.compare(value.size() - unit.size(), unit.size(), unit) == 0)
                    value.resize(value.size() - unit.size());
            }
        }
        out += (out.empty() ? "" : ", ") + value;
    }
    return out;
}

inline const NamedValue* find(const std::vector<NamedValue>& values, const std::string& key) {
    for (const auto& v : values)
        if (v.key == key)
            return &v;
    return nullptr;
}

inline double valueOf(const std::vector<NamedValue>& values, const std::string& key) {
    const NamedValue* v = find(values, key);
    if (!v) {
        ADD_FAILURE() << "no value for " << key;
        return -1e300;
    }
    return v->value;
}

inline bool has(const std::vector<NamedValue>& values, const std::string& key) {
    return find(values, key) != nullptr;
}

inline void expectMlflowKeys(const std::vector<NamedValue>& values) {
    static const std::regex mlflowKey(R"(^[/\w.\- :]*$)");
    for (const auto& v : values)
        EXPECT_TRUE(std::regex_match(v.key, mlflowKey)) << v.key;
}

/// Local time as nvidia-smi prints it, in seconds since the epoch.
inline double localSeconds(int y, int mo, int d, int h, int mi, int s, double fraction) {
    std::tm t{};
    t.tm_year = y - 1900;
    t.tm_mon = mo - 1;
    t.tm_mday = d;
    t.tm_hour = h;
    t.tm_min = mi;
    t.tm_sec = s;
    t.tm_isdst = -1;
    return static_cast<double>(std::mktime(&t)) + fraction;
}

inline SmiRow parseOurs(const std::string& header, const std::string& row, bool nounits = false) {
    const std::string line = ourQueryLine(header, row, nounits);
    auto parsed = parseSmiLine(line);
    EXPECT_TRUE(parsed) << line;
    if (parsed)
        expectMlflowKeys(parsed->values);
    return parsed ? *parsed : SmiRow{};
}

/// Runs a shell command, returning its stdout and exit status.
inline std::pair<std::string, int> runCommand(const std::string& command) {
    FILE* pipe = popen(command.c_str(), "r");
    EXPECT_NE(pipe, nullptr) << command;
    if (!pipe)
        return {"", -1};
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0)
        out.append(buf, n);
    const int status = pclose(pipe);
    return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

inline std::vector<std::string> lines(const std::string& text) {
    return splitLines(text);
}

inline std::vector<DcgmiDmonParser::Row> feedAll(DcgmiDmonParser& parser,
                                                 const std::vector<std::string>& input) {
    std::vector<DcgmiDmonParser::Row> rows;
    for (const auto& line : input)
        if (auto row = parser.feed(line)) {
            expectMlflowKeys(row->values);
            rows.push_back(*row);
        }
    return rows;
}

inline TegraSample tegra(const std::string& line) {
    auto s = parseTegrastatsLine(line);
    EXPECT_TRUE(s) << line;
    if (s)
        expectMlflowKeys(s->values);
    return s ? *s : TegraSample{};
}

inline const std::string kFakes = std::string(RADT_SOURCE_DIR) + "/tests/fakes/";

} // namespace radt::test
