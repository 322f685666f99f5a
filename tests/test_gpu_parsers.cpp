#include "GpuParsers.h"
#include "TempDir.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <ctime>
#include <iterator>
#include <regex>
#include <sstream>
#include <sys/wait.h>

using namespace radt;

namespace {

// ---- fixture helpers ----

/// A fixture's lines as the tool printed them: only the first line goes when it is the
/// "# source:" provenance comment (later '#' lines are real dcgmi headers).
std::vector<std::string> fixtureLines(const std::string& name) {
    const std::string text = test::readFile(std::string(RADT_FIXTURES_DIR) + "/tools/" + name);
    EXPECT_FALSE(text.empty()) << name;
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        lines.push_back(line);
    if (!lines.empty() && lines[0].rfind("# source:", 0) == 0)
        lines.erase(lines.begin());
    return lines;
}

std::vector<std::string> splitCsv(const std::string& line) {
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
std::string ourQueryLine(const std::string& header, const std::string& row, bool nounits = false) {
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

const NamedValue* find(const std::vector<NamedValue>& values, const std::string& key) {
    for (const auto& v : values)
        if (v.key == key)
            return &v;
    return nullptr;
}

double valueOf(const std::vector<NamedValue>& values, const std::string& key) {
    const NamedValue* v = find(values, key);
    if (!v) {
        ADD_FAILURE() << "no value for " << key;
        return -1e300;
    }
    return v->value;
}

bool has(const std::vector<NamedValue>& values, const std::string& key) {
    return find(values, key) != nullptr;
}

void expectMlflowKeys(const std::vector<NamedValue>& values) {
    static const std::regex mlflowKey(R"(^[/\w.\- :]*$)");
    for (const auto& v : values)
        EXPECT_TRUE(std::regex_match(v.key, mlflowKey)) << v.key;
}

/// Local time as nvidia-smi prints it, in seconds since the epoch.
double localSeconds(int y, int mo, int d, int h, int mi, int s, double fraction) {
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

SmiRow parseOurs(const std::string& header, const std::string& row, bool nounits = false) {
    const std::string line = ourQueryLine(header, row, nounits);
    auto parsed = parseSmiLine(line);
    EXPECT_TRUE(parsed) << line;
    if (parsed)
        expectMlflowKeys(parsed->values);
    return parsed ? *parsed : SmiRow{};
}

/// Runs a shell command, returning its stdout and exit status.
std::pair<std::string, int> runCommand(const std::string& command) {
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

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        out.push_back(line);
    return out;
}

std::vector<DcgmiDmonParser::Row> feedAll(DcgmiDmonParser& parser, const std::vector<std::string>& input) {
    std::vector<DcgmiDmonParser::Row> rows;
    for (const auto& line : input)
        if (auto row = parser.feed(line)) {
            expectMlflowKeys(row->values);
            rows.push_back(*row);
        }
    return rows;
}

TegraSample tegra(const std::string& line) {
    auto s = parseTegrastatsLine(line);
    EXPECT_TRUE(s) << line;
    if (s)
        expectMlflowKeys(s->values);
    return s ? *s : TegraSample{};
}

const std::string kFakes = std::string(RADT_SOURCE_DIR) + "/tests/fakes/";

} // namespace

// ================================ nvidia-smi ================================

TEST(SmiParser, QueryFieldsAreTheListenersQuery) {
    EXPECT_STREQ(kSmiQueryFields,
                 "index,timestamp,power.draw,utilization.gpu,utilization.memory,memory.used,pstate");
}

TEST(SmiParser, H100NoMigFullCapture) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_h100_nomig_full.txt");
    ASSERT_EQ(l.size(), 2u);
    for (bool nounits : {false, true}) {
        const SmiRow r = parseOurs(l[0], l[1], nounits);
        EXPECT_EQ(r.gpuIndex, 0);
        EXPECT_EQ(r.values.size(), 6u);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Power Draw"), 631.95);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - GPU Util"), 1.0);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Util"), 0.11);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Used"), 19818);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Performance State"), 0);
        EXPECT_NEAR(valueOf(r.values, "SMI - Timestamp"), localSeconds(2026, 7, 14, 8, 12, 53, 0.353), 1e-6);
    }
    // The capture's own row has 212 columns: not our query's output.
    EXPECT_FALSE(parseSmiLine(l[1]));
    EXPECT_FALSE(parseSmiLine(l[0]));
}

TEST(SmiParser, H100MigUtilizationIsNotAvailable) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_h100-mig_full.txt");
    ASSERT_EQ(l.size(), 2u);
    const SmiRow r = parseOurs(l[0], l[1]);
    EXPECT_TRUE(ourQueryLine(l[0], l[1]).find("[N/A], [N/A]") != std::string::npos);
    EXPECT_FALSE(has(r.values, "SMI - GPU Util")); // [N/A] under MIG: absent, never 0
    EXPECT_FALSE(has(r.values, "SMI - Mem Util"));
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Power Draw"), 433.78);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Used"), 11125);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Performance State"), 0);
    EXPECT_NEAR(valueOf(r.values, "SMI - Timestamp"), localSeconds(2026, 7, 14, 9, 0, 44, 0.579), 1e-6);
    EXPECT_EQ(r.values.size(), 4u);
}

TEST(SmiParser, WindowsRtx2080FullCapture) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_windows_rtx2080_full.txt");
    ASSERT_EQ(l.size(), 2u);
    const SmiRow r = parseOurs(l[0], l[1], true);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Power Draw"), 97.99);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - GPU Util"), 0.07);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Util"), 0.03);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Used"), 1366);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Performance State"), 2);
    EXPECT_NEAR(valueOf(r.values, "SMI - Timestamp"), localSeconds(2026, 6, 24, 10, 17, 56, 0.770), 1e-6);
}

TEST(SmiParser, MultiGpuCapture) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_1_multigpu.txt");
    ASSERT_EQ(l.size(), 4u);
    const double power[] = {107.17, 109.56, 111.50};
    const double ms[] = {0.728, 0.735, 0.740};
    for (int g = 0; g < 3; ++g) {
        const SmiRow r = parseOurs(l[0], l[1 + g]);
        EXPECT_EQ(r.gpuIndex, g);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Power Draw"), power[g]);
        EXPECT_NEAR(valueOf(r.values, "SMI - Timestamp"), localSeconds(2017, 7, 24, 2, 11, 49, ms[g]), 1e-6);
        EXPECT_FALSE(has(r.values, "SMI - GPU Util")); // not in that capture's query
        EXPECT_EQ(r.values.size(), 2u);
        EXPECT_FALSE(parseSmiLine(l[1 + g])); // 6 columns: not our query
    }
}

TEST(SmiParser, TimestampAndPstateCaptures) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_3_timestamp_pstate.txt");
    ASSERT_EQ(l.size(), 9u);
    ASSERT_EQ(l[4], "# ---");
    const double memUtil[] = {0.55, 0.54, 0.55};
    for (int i = 0; i < 3; ++i) {
        const SmiRow r = parseOurs(l[0], l[1 + i]);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Performance State"), 2);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - GPU Util"), 1.0);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Util"), memUtil[i]);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Used"), 9941);
        EXPECT_NEAR(valueOf(r.values, "SMI - Timestamp"),
                    localSeconds(2019, 8, 23, 14, 41, 50 + i, 0.273 + 0.001 * i), 1e-6);
        EXPECT_FALSE(has(r.values, "SMI - Power Draw"));
    }
    const double power[] = {208.36, 249.62, 205.51};
    const double ms[] = {0.307, 0.310, 0.315};
    for (int i = 0; i < 3; ++i) {
        const SmiRow r = parseOurs(l[5], l[6 + i], i == 1);
        EXPECT_EQ(r.gpuIndex, 0);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Power Draw"), power[i]);
        EXPECT_NEAR(valueOf(r.values, "SMI - Timestamp"), localSeconds(2019, 8, 23, 14, 54, 47 + i, ms[i]),
                    1e-6);
        EXPECT_EQ(r.values.size(), 2u);
    }
}

TEST(SmiParser, NetdataP100NoUnits) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_2_netdata_p100_nounits.txt");
    ASSERT_EQ(l.size(), 2u);
    const SmiRow r = parseOurs(l[0], l[1]);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Power Draw"), 28.16);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - GPU Util"), 0);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Util"), 0);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Used"), 0);
    EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Performance State"), 0);
    EXPECT_FALSE(has(r.values, "SMI - Timestamp"));
    EXPECT_EQ(r.values.size(), 5u);
}

TEST(SmiParser, NoHeaderNoUnitsMissingValueSpellings) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_noheader_nounits_1.txt");
    ASSERT_EQ(l.size(), 2u);
    // The header its query would have printed (from the provenance comment).
    const std::string header = "memory.total [MiB], memory.free [MiB], memory.used [MiB], temperature.gpu, "
                               "fan.speed [%], utilization.gpu [%], utilization.memory [%]";
    for (const auto& row : l) {
        const SmiRow r = parseOurs(header, row);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Used"), 0);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - GPU Util"), 0);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Util"), 0);
        EXPECT_EQ(r.values.size(), 3u);
        // The fan column's spelling of "missing" ([N/A] on the newer driver, [Not Supported] on the
        // older one) in our power column: left out, not 0.
        const std::string missing = splitCsv(row)[4];
        auto p = parseSmiLine("0, 2020/01/01 00:00:00.000, " + missing + ", 5, 6, 7, P8");
        ASSERT_TRUE(p) << missing;
        EXPECT_FALSE(has(p->values, "SMI - Power Draw")) << missing;
        EXPECT_DOUBLE_EQ(valueOf(p->values, "SMI - Performance State"), 8);
    }
}

TEST(SmiParser, MissingValuesAreLeftOut) {
    for (const char* missing : {"[N/A]", "[Not Supported]", "N/A", "[Unknown Error]", "", "abc", "nan", "NaN",
                                "inf", "-inf", "1e400", "2e15", "12 V", "0x10", "+5", "5 5"}) {
        const std::string line = std::string("3, 2020/01/01 00:00:00.000, ") + missing + ", " + missing +
                                 ", " + missing + ", " + missing + ", " + missing;
        auto r = parseSmiLine(line);
        ASSERT_TRUE(r) << line;
        EXPECT_EQ(r->gpuIndex, 3);
        ASSERT_EQ(r->values.size(), 1u) << line; // only the timestamp
        EXPECT_EQ(r->values[0].key, "SMI - Timestamp");
    }
    auto r = parseSmiLine("0, 2020/01/01 00:00:00.000, 1e15, 100, 0, 0.5, P0");
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - Power Draw"), 1e15);
}

TEST(SmiParser, NotDataRows) {
    for (const char* line : {"", "   ",
                             "index, timestamp, power.draw [W], utilization.gpu [%], "
                             "utilization.memory [%], memory.used [MiB], pstate",
                             "garbage", "0, 2020/01/01 00:00:00.000, 1, 2, 3, 4", // truncated
                             "0, 2020/01/01 00:00:00.000, 1, 2, 3, 4, P0, 9",     // too many
                             "x, 2020/01/01 00:00:00.000, 1, 2, 3, 4, P0",        // index
                             "0.5, 2020/01/01 00:00:00.000, 1, 2, 3, 4, P0", "-1, t, 1, 2, 3, 4, P0",
                             "99999999999999999999, t, 1, 2, 3, 4, P0", ",,,,,,",
                             "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."})
        EXPECT_FALSE(parseSmiLine(line)) << line;
    EXPECT_FALSE(parseSmiLine(std::string(1 << 20, ',')));
    EXPECT_FALSE(parseSmiLine(std::string(1 << 20, '7')));
    auto crlf = parseSmiLine("1, 2020/01/01 00:00:00.000, 1, 2, 3, 4, P0\r\n");
    ASSERT_TRUE(crlf);
    EXPECT_EQ(crlf->values.size(), 6u);
}

TEST(SmiParser, BadTimestampsAreLeftOut) {
    for (const char* t : {"2020/02/30 00:00:00.000", "2020/13/01 00:00:00.000", "2020-01-01 00:00:00.000",
                          "2020/01/01 24:00:00.000", "2020/01/01 00:00:00.", "2020/01/01 00:00:00.12x",
                          "2020/01/01", "[N/A]", "2020/01/01 00:00:00.0000000000000000001"}) {
        auto r = parseSmiLine(std::string("0, ") + t + ", 1, 2, 3, 4, P0");
        ASSERT_TRUE(r) << t;
        EXPECT_FALSE(has(r->values, "SMI - Timestamp")) << t;
        EXPECT_EQ(r->values.size(), 5u) << t;
    }
    // No milliseconds, and a leap day.
    auto r = parseSmiLine("0, 2020/02/29 23:59:59, 1, 2, 3, 4, P0");
    ASSERT_TRUE(r);
    EXPECT_NEAR(valueOf(r->values, "SMI - Timestamp"), localSeconds(2020, 2, 29, 23, 59, 59, 0), 1e-6);
}

// ================================ dcgmi ================================

TEST(DcgmiParser, FieldSetsFallBackLargestFirst) {
    const auto& sets = dcgmiFieldSets();
    ASSERT_EQ(sets.size(), 3u);
    std::vector<int> full = {155, 156, 200, 201, 203, 204};
    for (int id = 1001; id <= 1012; ++id)
        full.push_back(id);
    EXPECT_EQ(sets[0], full);
    EXPECT_EQ(sets[1], (std::vector<int>{155, 156, 200, 201, 203, 204}));
    EXPECT_EQ(sets[2], (std::vector<int>{155, 203}));
}

TEST(DcgmiParser, KeysForColumns) {
    const std::pair<const char*, const char*> design[] = {
        {"POWER", "Power Usage"},        {"TOTEC", "Total Energy Consumption"},
        {"TXPCI", "PCIE TX Throughput"}, {"RXPCI", "PCIE RX Throughput"},
        {"GPUTL", "GPU Utilization"},    {"MCUTL", "Memory Copy Utilization"},
        {"GRACT", "GR Engine Active"},   {"SMACT", "SM Active"},
        {"SMOCC", "SM Occupancy"},       {"TENSO", "Tensor Active"},
        {"DRAMA", "DRAM Active"},        {"FP64A", "FP64 Active"},
        {"FP32A", "FP32 Active"},        {"FP16A", "FP16 Active"},
        {"PCITX", "PCIE TX Bytes"},      {"PCIRX", "PCIE RX Bytes"},
        {"NVLTX", "NVlink TX Bytes"},    {"NVLRX", "NVlink RX Bytes"},
        {"TMPTR", "GPU Temperature"},    {"FBUSD", "FB Used"},
        {"FBTTL", "FB Total"},           {"FBFRE", "FB Free"},
        {"SMCLK", "SM Clock"},           {"MMCLK", "Memory Clock"},
        {"MMTMP", "Memory Temperature"}, {"POWINST", "Power Usage Instant"},
    };
    std::vector<NamedValue> keys;
    for (const auto& [shortName, name] : design) {
        EXPECT_EQ(dcgmiKeyForColumn(shortName), std::string("DCGMI - ") + name);
        keys.push_back({dcgmiKeyForColumn(shortName), 0});
    }
    EXPECT_EQ(dcgmiKeyForColumn("XYZZY"), "DCGMI - XYZZY");
    EXPECT_EQ(dcgmiKeyForColumn("UUID#"), "DCGMI - UUID_");
    EXPECT_EQ(dcgmiKeyForColumn("A%B"), "DCGMI - A_B");
    keys.push_back({dcgmiKeyForColumn("UUID#"), 0});
    keys.push_back({dcgmiKeyForColumn("A%B(x)"), 0});
    expectMlflowKeys(keys);
}

TEST(DcgmiParser, DocsFixtureOldLayout) {
    DcgmiDmonParser p;
    const auto rows = feedAll(p, fixtureLines("dcgmi_dmon_1_docs.txt"));
    ASSERT_EQ(rows.size(), 15u);
    EXPECT_EQ(p.rows(), 15u);
    EXPECT_EQ(p.skippedLines(), 1u); // the markdown " {#example-1 .section}" tail
    EXPECT_FALSE(p.sawWatchError());
    for (const auto& r : rows) {
        EXPECT_EQ(r.entity, "GPU 0");
        EXPECT_EQ(r.values.size(), 3u);
    }
    EXPECT_DOUBLE_EQ(valueOf(rows[3].values, "DCGMI - GR Engine Active"), 0.552);
    EXPECT_DOUBLE_EQ(valueOf(rows[3].values, "DCGMI - Tensor Active"), 0.527);
    EXPECT_DOUBLE_EQ(valueOf(rows[3].values, "DCGMI - DRAM Active"), 0.0);
    EXPECT_DOUBLE_EQ(valueOf(rows[14].values, "DCGMI - GR Engine Active"), 0.972);
    EXPECT_DOUBLE_EQ(valueOf(rows[14].values, "DCGMI - Tensor Active"), 0.930);
}

TEST(DcgmiParser, DocsFixtureMigEntities) {
    DcgmiDmonParser p;
    const auto rows = feedAll(p, fixtureLines("dcgmi_dmon_2_docs_mig.txt"));
    ASSERT_EQ(rows.size(), 30u);
    EXPECT_EQ(p.skippedLines(), 0u);
    const char* entities[] = {"GPU 0", "GPU-I 0", "GPU-I 1"};
    for (size_t i = 0; i < rows.size(); ++i)
        EXPECT_EQ(rows[i].entity, entities[i % 3]) << i;
    EXPECT_DOUBLE_EQ(valueOf(rows[7].values, "DCGMI - GR Engine Active"), 0.534);
    EXPECT_DOUBLE_EQ(valueOf(rows[7].values, "DCGMI - Tensor Active"), 0.516);
    EXPECT_DOUBLE_EQ(valueOf(rows[6].values, "DCGMI - GR Engine Active"), 0.457);
    EXPECT_DOUBLE_EQ(valueOf(rows[29].values, "DCGMI - Tensor Active"), 0.952);
}

TEST(DcgmiParser, Dcgm3xUnitsLayoutAndNaRow) {
    DcgmiDmonParser p;
    const auto rows = feedAll(p, fixtureLines("dcgmi_dmon_3_dcgm3x_units.txt"));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(p.skippedLines(), 0u);
    EXPECT_EQ(rows[0].entity, "GPU 0");
    EXPECT_EQ(rows[0].values.size(), 7u);
    EXPECT_DOUBLE_EQ(valueOf(rows[0].values, "DCGMI - GPU Utilization"), 75);
    EXPECT_DOUBLE_EQ(valueOf(rows[0].values, "DCGMI - Memory Copy Utilization"), 42);
    EXPECT_DOUBLE_EQ(valueOf(rows[0].values, "DCGMI - Power Usage"), 185.3);
    EXPECT_DOUBLE_EQ(valueOf(rows[0].values, "DCGMI - GPU Temperature"), 68);
    EXPECT_DOUBLE_EQ(valueOf(rows[0].values, "DCGMI - ECC SBE Volatile Total"), 0);
    EXPECT_DOUBLE_EQ(valueOf(rows[0].values, "DCGMI - ECC DBE Volatile Total"), 0);
    EXPECT_DOUBLE_EQ(valueOf(rows[0].values, "DCGMI - FB Used"), 28456);
    EXPECT_EQ(rows[1].entity, "GPU 0");
    EXPECT_TRUE(rows[1].values.empty()); // all N/A: a row, but no values
}

TEST(DcgmiParser, Dcgm4xWideEntityColumnAndLinkEntities) {
    // DCGM 4.x pads the first column to 16; NVLink rows are labelled "GPU 0 LINK 3".
    DcgmiDmonParser p;
    const auto rows = feedAll(p, {"#Entity         POWER             GPUTL             ",
                                  "ID               W                                  ",
                                  "GPU 0           210.500           97                ",
                                  "GPU 0 LINK 3    N/A               12                ",
                                  "GPU-CI 0        N/A               N/A               "});
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_DOUBLE_EQ(valueOf(rows[0].values, "DCGMI - Power Usage"), 210.5);
    EXPECT_EQ(rows[1].entity, "GPU 0 LINK 3");
    EXPECT_EQ(rows[1].values.size(), 1u);
    EXPECT_DOUBLE_EQ(valueOf(rows[1].values, "DCGMI - GPU Utilization"), 12);
    EXPECT_EQ(rows[2].entity, "GPU-CI 0");
    EXPECT_EQ(p.skippedLines(), 0u);
}

TEST(DcgmiParser, RepeatedHeaders) {
    const auto fixture = fixtureLines("dcgmi_dmon_3_dcgm3x_units.txt");
    std::vector<std::string> stream;
    for (int i = 0; i < 30; ++i) {
        if (i % 14 == 0) {
            stream.push_back(fixture[0]);
            stream.push_back(fixture[1]);
        }
        stream.push_back(fixture[2 + i % 2]);
    }
    DcgmiDmonParser p;
    const auto rows = feedAll(p, stream);
    ASSERT_EQ(rows.size(), 30u);
    EXPECT_EQ(p.rows(), 30u);
    EXPECT_EQ(p.skippedLines(), 0u);
    EXPECT_DOUBLE_EQ(valueOf(rows[28].values, "DCGMI - FB Used"), 28456);
    // A new header with other columns takes over.
    auto row = p.feed("# Entity  SMACT");
    EXPECT_FALSE(row);
    row = p.feed("    GPU 0  0.250");
    ASSERT_TRUE(row);
    EXPECT_DOUBLE_EQ(valueOf(row->values, "DCGMI - SM Active"), 0.25);
}

TEST(DcgmiParser, BrokenInput) {
    DcgmiDmonParser p;
    // Rows before any header are counted, not returned.
    EXPECT_FALSE(p.feed("    GPU 0  0.000  0.000  0.000"));
    EXPECT_FALSE(p.feed("GPU 0     75                42"));
    EXPECT_EQ(p.skippedLines(), 2u);
    EXPECT_FALSE(p.feed(""));
    EXPECT_FALSE(p.feed("   \t "));
    EXPECT_FALSE(p.feed("#Entity"));         // header without columns
    EXPECT_FALSE(p.feed("# dcgmi dmon -l")); // a comment, not a header
    EXPECT_EQ(p.skippedLines(), 4u);
    EXPECT_FALSE(p.feed("# Entity  GRACT  TENSO  DRAMA"));
    EXPECT_FALSE(p.feed("      Id"));
    const char* bad[] = {"    GPU 0  0.000  0.000",       // fewer columns than the header (truncated)
                         "    GPU 0",                     // truncated to the label
                         "    GPU 0  0.1  0.2  0.3  0.4", // more columns than the header
                         "    GPU 0  0.1  abc  0.3",      // text in a value column
                         "    GPU 0  1e400  0.2  0.3",    // overflow
                         "    GPU 0  nan  0.2  0.3",
                         "    GPU 0  inf  0.2  0.3",
                         "    0 GPU  0.1  0.2  0.3",  // label without a name first
                         "    GPU GPU 0.1  0.2  0.3", // label without an id
                         "Error: unable to connect to host engine",
                         "garbage garbage garbage garbage garbage"};
    for (const char* line : bad)
        EXPECT_FALSE(p.feed(line)) << line;
    EXPECT_EQ(p.skippedLines(), 4u + std::size(bad));
    const std::string huge(1 << 20, '9');
    EXPECT_FALSE(p.feed("    GPU 0  " + huge + "  0.2  0.3")); // out of range: skipped, no crash
    EXPECT_FALSE(p.feed(huge));
    EXPECT_FALSE(p.feed(std::string(1 << 20, ' ') + "x"));
    EXPECT_EQ(p.skippedLines(), 7u + std::size(bad));
    EXPECT_EQ(p.rows(), 0u);
    EXPECT_FALSE(p.sawWatchError());
    auto ok = p.feed("    GPU 0  0.500  N/A  0.250\r");
    ASSERT_TRUE(ok);
    EXPECT_EQ(ok->values.size(), 2u);
    EXPECT_EQ(p.rows(), 1u);
}

TEST(DcgmiParser, WatchError) {
    DcgmiDmonParser p;
    EXPECT_FALSE(
        p.feed("Error setting watches. Result: Profiling is not supported for this group of GPUs or GPU"));
    EXPECT_TRUE(p.sawWatchError());
    EXPECT_EQ(p.rows(), 0u);
    EXPECT_EQ(p.skippedLines(), 0u);
    DcgmiDmonParser clean;
    feedAll(clean, fixtureLines("dcgmi_dmon_1_docs.txt"));
    EXPECT_FALSE(clean.sawWatchError());
}

TEST(DcgmiParser, FieldListingIsNotData) {
    DcgmiDmonParser p;
    const auto l = fixtureLines("dcgmi_dmon_l_1_partial.txt");
    EXPECT_TRUE(feedAll(p, l).empty());
    EXPECT_EQ(p.rows(), 0u);
    EXPECT_EQ(p.skippedLines(), l.size());
}

TEST(DcgmiParser, GroupId) {
    std::string single, mig;
    for (const auto& l : fixtureLines("dcgmi_group_1_docs.txt"))
        single += l + "\n";
    for (const auto& l : fixtureLines("dcgmi_group_2_docs_mig.txt"))
        mig += l + "\n";
    EXPECT_EQ(parseDcgmiGroupId(single), 1);
    EXPECT_EQ(parseDcgmiGroupId(mig), 8);
    EXPECT_EQ(parseDcgmiGroupId("Successfully created group \"radt\" with a group ID of 42\n"), 42);
    EXPECT_FALSE(parseDcgmiGroupId("Successfully removed group 1"));
    EXPECT_FALSE(parseDcgmiGroupId(""));
    EXPECT_FALSE(parseDcgmiGroupId("Error: unable to establish a connection to the host engine"));
    EXPECT_FALSE(parseDcgmiGroupId("Successfully created group \"x\" with a group ID of "));
    EXPECT_FALSE(
        parseDcgmiGroupId("Successfully created group \"x\" with a group ID of 99999999999999999999"));
    EXPECT_FALSE(parseDcgmiGroupId("with a group ID of 3"));
}

// ================================ tegrastats ================================

TEST(TegraParser, Tx2L4t32) {
    const auto l = fixtureLines("tegrastats_2_tx2_l4t32.txt");
    ASSERT_EQ(l.size(), 1u);
    const TegraSample s = tegra(l[0]);
    EXPECT_EQ(s.skippedTokens, 0u);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - RAM Used MB"), 2020);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - RAM Total MB"), 7852);
    EXPECT_FALSE(has(s.values, "TEGRA - SWAP Used MB"));
    const double util[] = {9, 21, 25, 3, 1, 1};
    for (int i = 0; i < 6; ++i) {
        EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - CPU " + std::to_string(i) + " Util"), util[i]);
        EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - CPU " + std::to_string(i) + " MHz"), 345);
    }
    EXPECT_FALSE(has(s.values, "TEGRA - CPU 6 Util"));
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - EMC Util"), 0);
    EXPECT_FALSE(has(s.values, "TEGRA - EMC MHz")); // non-root: no @freq
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - GPU Util"), 0);
    EXPECT_FALSE(has(s.values, "TEGRA - GPU MHz"));
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp PLL C"), 42.5);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp PMIC C"), 100);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp GPU C"), 41);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp thermal C"), 41.9);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp Tdiode C"), 41.25);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power VDD_SYS_GPU mW"), 153);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power VDD_4V0_WIFI mW"), 633);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power VDD_IN mW"), 3140);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power VDD_SYS_DDR mW"), 557);
    EXPECT_EQ(s.values.size(), 2u + 12 + 2 + 8 + 6);
}

TEST(TegraParser, XavierAndNanoFromJetsonStats) {
    const auto l = fixtureLines("tegrastats_3_nano_and_xavier_jetson_stats.txt");
    ASSERT_EQ(l.size(), 2u);
    const TegraSample x = tegra(l[0]);
    EXPECT_EQ(x.skippedTokens, 0u);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - RAM Used MB"), 4722);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - RAM Total MB"), 7844);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - SWAP Used MB"), 149);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - CPU 0 Util"), 55);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - CPU 1 MHz"), 2034);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - CPU 5 Util"), 45);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - EMC Util"), 2);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - EMC MHz"), 1866);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - GPU Util"), 0);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - GPU MHz"), 1300);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - Temp BCPU C"), -45);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - Temp GPU C"), -51);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - Temp AO C"), 47.5);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - Power VDD_IN mW"), 14025);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - Power VDD_GPU mW"), 6854);
    EXPECT_DOUBLE_EQ(valueOf(x.values, "TEGRA - Power VDD_DDR mW"), 2702);
    EXPECT_FALSE(has(x.values, "TEGRA - Power NVENC mW")); // an engine clock, not a rail
    EXPECT_FALSE(has(x.values, "TEGRA - Power APE mW"));

    const TegraSample n = tegra(l[1]);
    EXPECT_EQ(n.skippedTokens, 0u);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - RAM Used MB"), 1180);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - RAM Total MB"), 3965);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - SWAP Used MB"), 149);
    const double util[] = {30, 33, 28, 26};
    for (int i = 0; i < 4; ++i) {
        EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - CPU " + std::to_string(i) + " Util"), util[i]);
        EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - CPU " + std::to_string(i) + " MHz"), 1036);
    }
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - EMC Util"), 10);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - EMC MHz"), 1600);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - GPU MHz"), 76);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - Temp CPU C"), 60.5);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - Temp thermal C"), 59.75);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - Power POM_5V_IN mW"), 4520);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - Power POM_5V_GPU mW"), 0);
    EXPECT_DOUBLE_EQ(valueOf(n.values, "TEGRA - Power POM_5V_CPU mW"), 1078);
    EXPECT_EQ(n.values.size(), 3u + 8 + 4 + 6 + 3);
}

TEST(TegraParser, Tx1L4t28OldFormat) {
    const auto l = fixtureLines("tegrastats_4_tx1_l4t28.txt");
    ASSERT_EQ(l.size(), 2u);
    const TegraSample a = tegra(l[0]), b = tegra(l[1]);
    EXPECT_EQ(a.skippedTokens, 0u);
    EXPECT_EQ(b.skippedTokens, 0u);
    EXPECT_DOUBLE_EQ(valueOf(a.values, "TEGRA - RAM Used MB"), 3468);
    EXPECT_DOUBLE_EQ(valueOf(a.values, "TEGRA - RAM Total MB"), 3983);
    EXPECT_DOUBLE_EQ(valueOf(a.values, "TEGRA - SWAP Used MB"), 873);
    const double utilA[] = {17, 13, 29, 5}, utilB[] = {17, 11, 65, 0};
    for (int i = 0; i < 4; ++i) {
        EXPECT_DOUBLE_EQ(valueOf(a.values, "TEGRA - CPU " + std::to_string(i) + " Util"), utilA[i]);
        EXPECT_DOUBLE_EQ(valueOf(a.values, "TEGRA - CPU " + std::to_string(i) + " MHz"), 408);
        EXPECT_DOUBLE_EQ(valueOf(b.values, "TEGRA - CPU " + std::to_string(i) + " Util"), utilB[i]);
        EXPECT_DOUBLE_EQ(valueOf(b.values, "TEGRA - CPU " + std::to_string(i) + " MHz"), 1734);
    }
    EXPECT_DOUBLE_EQ(valueOf(a.values, "TEGRA - EMC Util"), 1);
    EXPECT_DOUBLE_EQ(valueOf(a.values, "TEGRA - EMC MHz"), 408);
    EXPECT_DOUBLE_EQ(valueOf(b.values, "TEGRA - EMC MHz"), 1600);
    EXPECT_DOUBLE_EQ(valueOf(a.values, "TEGRA - GPU Util"), 3);
    EXPECT_DOUBLE_EQ(valueOf(b.values, "TEGRA - GPU Util"), 39);
    EXPECT_DOUBLE_EQ(valueOf(b.values, "TEGRA - GPU MHz"), 76);
    EXPECT_EQ(a.values.size(), 3u + 8 + 2 + 2);
}

TEST(TegraParser, XavierJetPack42) {
    const auto l = fixtureLines("tegrastats_5_xavier_jp42.txt");
    ASSERT_EQ(l.size(), 1u);
    const TegraSample s = tegra(l[0]);
    EXPECT_EQ(s.skippedTokens, 0u);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - RAM Used MB"), 14700);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - RAM Total MB"), 15692);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - SWAP Used MB"), 898);
    for (int i = 0; i < 8; ++i) {
        EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - CPU " + std::to_string(i) + " Util"), 0);
        EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - CPU " + std::to_string(i) + " MHz"), 1190);
    }
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp GPU C"), 30.5);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp CPU C"), 31.5);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp AUX C"), 30.5);
    // Rails named like the temperature sensors: GPU 463/463 is power, GPU@30.5C a temperature.
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power GPU mW"), 463);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power CPU mW"), 618);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power SOC mW"), 2936);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power CV mW"), 0);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power VDDRQ mW"), 309);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power SYS5V mW"), 3306);
    EXPECT_EQ(s.values.size(), 3u + 16 + 2 + 8 + 6);
}

TEST(TegraParser, NewerJetPackForms) {
    // The forms newer JetPacks print (leading date, mW units on rails, offline cores, one clock
    // per GPC on Orin), spelled as the tegrastats documentation shows them.
    const TegraSample s = tegra(
        "08-21-2023 10:00:00 RAM 2344/7620MB (lfb 2x4MB) SWAP 0/3810MB (cached 0MB) "
        "CPU [12%@1190,off,off,3%@1190] EMC_FREQ 0%@2133 GR3D_FREQ 5%@[305,305] NVDEC off "
        "VIC_FREQ 0%@115 cpu@50.5C soc2@49.156C tj@51C VDD_IN 5012mW/5012mW VDD_CPU_GPU_CV 504mW/504mW");
    EXPECT_EQ(s.skippedTokens, 0u);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - RAM Used MB"), 2344);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - SWAP Used MB"), 0);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - CPU 0 Util"), 12);
    EXPECT_FALSE(has(s.values, "TEGRA - CPU 1 Util"));
    EXPECT_FALSE(has(s.values, "TEGRA - CPU 2 MHz"));
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - CPU 3 Util"), 3);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - CPU 3 MHz"), 1190);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - EMC MHz"), 2133);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - GPU Util"), 5);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - GPU MHz"), 305);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp soc2 C"), 49.156);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Temp tj C"), 51);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power VDD_IN mW"), 5012);
    EXPECT_DOUBLE_EQ(valueOf(s.values, "TEGRA - Power VDD_CPU_GPU_CV mW"), 504);
    EXPECT_EQ(s.values.size(), 3u + 4 + 2 + 2 + 3 + 2);
    // IRAM and kB units.
    const TegraSample k = tegra("RAM 512/1024kB IRAM 0/252kB(lfb 252kB) SWAP 1/2GB");
    EXPECT_DOUBLE_EQ(valueOf(k.values, "TEGRA - RAM Used MB"), 0.5);
    EXPECT_DOUBLE_EQ(valueOf(k.values, "TEGRA - SWAP Used MB"), 1024);
    EXPECT_EQ(k.skippedTokens, 0u);
}

TEST(TegraParser, BrokenInput) {
    for (const char* line : {"", "   ", "garbage", "RAM", "RAM abc", "RAM 1/", "RAM /2MB",
                             "top - 10:00:00 up 1 day", "CPU [9%@345] GPU@41C VDD_IN 3140/3208"})
        EXPECT_FALSE(parseTegrastatsLine(line)) << line;
    // Truncated mid-line: what was read is kept, the rest counted.
    const TegraSample t = tegra("RAM 2020/7852MB (lfb 1164x4MB) CPU [9%@345,21%");
    EXPECT_DOUBLE_EQ(valueOf(t.values, "TEGRA - CPU 0 Util"), 9);
    EXPECT_DOUBLE_EQ(valueOf(t.values, "TEGRA - CPU 1 Util"), 21);
    const TegraSample u = tegra("RAM 1/2MB CPU [abc,nan%,1e400%] GR3D_FREQ x% ??? GPU@nanC VDD_IN 1e400/1");
    EXPECT_EQ(u.values.size(), 2u);
    EXPECT_EQ(u.skippedTokens, 3u + 2 + 1 + 1 + 2);
    const TegraSample cut = tegra("RAM 1/2MB (lfb 3x4MB");
    EXPECT_EQ(cut.values.size(), 2u);
    const std::string longLine = "RAM 1/2MB " + std::string(1 << 20, '9') + " " + std::string(1 << 20, 'x');
    const TegraSample l = tegra(longLine);
    EXPECT_EQ(l.values.size(), 2u);
    EXPECT_EQ(l.skippedTokens, 2u);
}

// ================================ fakes + parsers ================================

TEST(Fakes, NvidiaSmiQueryParses) {
    test::TempDir dir;
    const std::string log = dir.file("calls.log");
    const auto [out, rc] =
        runCommand("RADT_FAKE_LOG='" + log + "' '" + kFakes + "nvidia-smi' --query-gpu=" + kSmiQueryFields +
                   " --format=csv,noheader,nounits -i 0,1");
    EXPECT_EQ(rc, 0);
    const auto l = lines(out);
    ASSERT_EQ(l.size(), 2u) << out;
    const double now = static_cast<double>(std::time(nullptr));
    for (int g = 0; g < 2; ++g) {
        auto r = parseSmiLine(l[g]);
        ASSERT_TRUE(r) << l[g];
        EXPECT_EQ(r->gpuIndex, g);
        EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - Power Draw"), 631.95);
        EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - GPU Util"), 1.0);
        EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - Mem Used"), 19818);
        EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - Performance State"), 0);
        EXPECT_NEAR(valueOf(r->values, "SMI - Timestamp"), now, 30.0); // the fake's own clock, local time
    }
    EXPECT_EQ(test::readFile(log), std::string("nvidia-smi --query-gpu=") + kSmiQueryFields +
                                       " --format=csv,noheader,nounits -i 0,1\n");
}

TEST(Fakes, NvidiaSmiWithUnitsMigAndLoop) {
    // csv with header and units, MIG capture, streaming at -lms: header skipped, [N/A] left out.
    const auto [out, rc] =
        runCommand("RADT_FAKE_SMI_FIXTURE=nvidia-smi_query-gpu_h100-mig_full.txt '" + kFakes +
                   "nvidia-smi' --query-gpu=" + kSmiQueryFields + " --format=csv -lms 50 | head -n 4");
    EXPECT_EQ(rc, 0);
    const auto l = lines(out);
    ASSERT_EQ(l.size(), 4u) << out;
    EXPECT_FALSE(parseSmiLine(l[0]));
    for (int i = 1; i < 4; ++i) {
        auto r = parseSmiLine(l[i]);
        ASSERT_TRUE(r) << l[i];
        EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - Power Draw"), 433.78);
        EXPECT_FALSE(has(r->values, "SMI - GPU Util"));
    }
}

TEST(Fakes, NvidiaSmiSigtermFailureAndList) {
    const auto [term, termRc] = runCommand("'" + kFakes +
                                           "nvidia-smi' --query-gpu=index --format=csv,noheader "
                                           "-lms 50 & p=$!; sleep 1; kill -TERM $p; wait $p; echo rc=$?");
    EXPECT_NE(term.find("rc=0"), std::string::npos) << term;
    EXPECT_EQ(termRc, 0);
    const auto [fail, failRc] = runCommand("RADT_FAKE_SMI_FAIL=1 '" + kFakes + "nvidia-smi' -L");
    EXPECT_EQ(failRc, 9);
    EXPECT_EQ(fail.rfind("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", 0),
              0u);
    const auto [list, listRc] = runCommand("'" + kFakes + "nvidia-smi' -L");
    EXPECT_EQ(listRc, 0);
    EXPECT_EQ(lines(list).size(), 3u);
    EXPECT_EQ(list.rfind("GPU 0: NVIDIA GeForce RTX 3060 Ti", 0), 0u);
    const auto [q, qRc] = runCommand("'" + kFakes + "nvidia-smi' -q");
    EXPECT_EQ(qRc, 0);
    EXPECT_NE(q.find("==============NVSMI LOG=============="), std::string::npos);
    EXPECT_NE(q.find("NVIDIA H100 80GB HBM3"), std::string::npos);
    EXPECT_NE(q.find("590.48.01"), std::string::npos);
}

TEST(Fakes, DcgmiDmonParses) {
    test::TempDir dir;
    const std::string log = dir.file("calls.log");
    const auto [out, rc] =
        runCommand("RADT_FAKE_LOG='" + log + "' '" + kFakes + "dcgmi' dmon -e 155,203 -g 8 -d 100 -c 3");
    EXPECT_EQ(rc, 0);
    DcgmiDmonParser p;
    const auto rows = feedAll(p, lines(out));
    ASSERT_EQ(rows.size(), 3u) << out;
    EXPECT_EQ(p.skippedLines(), 0u);
    for (const auto& r : rows) {
        EXPECT_EQ(r.entity, "GPU 0");
        EXPECT_DOUBLE_EQ(valueOf(r.values, "DCGMI - Power Usage"), 185.3);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "DCGMI - GPU Utilization"), 75);
    }
    EXPECT_EQ(test::readFile(log), "dcgmi dmon -e 155,203 -g 8 -d 100 -c 3\n");
}

TEST(Fakes, DcgmiFullFieldSetRepeatsHeaders) {
    std::string ids;
    for (int id : dcgmiFieldSets()[0])
        ids += (ids.empty() ? "" : ",") + std::to_string(id);
    const auto [out, rc] = runCommand("'" + kFakes + "dcgmi' dmon -e " + ids + " -g 8 -d 1 -c 20");
    EXPECT_EQ(rc, 0);
    DcgmiDmonParser p;
    const auto rows = feedAll(p, lines(out));
    ASSERT_EQ(rows.size(), 20u);
    EXPECT_EQ(p.skippedLines(), 0u);
    EXPECT_EQ(lines(out).size(), 20u + 2 * 2); // header pair at rows 0 and 14
    for (const auto& r : rows)
        EXPECT_EQ(r.values.size(), 18u);
    // GRACT and TENSO replay the docs capture cyclically.
    EXPECT_DOUBLE_EQ(valueOf(rows[3].values, "DCGMI - GR Engine Active"), 0.552);
    EXPECT_DOUBLE_EQ(valueOf(rows[3].values, "DCGMI - Tensor Active"), 0.527);
    EXPECT_DOUBLE_EQ(valueOf(rows[18].values, "DCGMI - GR Engine Active"), 0.552);
    EXPECT_TRUE(has(rows[0].values, "DCGMI - NVlink RX Bytes"));
    EXPECT_GT(valueOf(rows[1].values, "DCGMI - Total Energy Consumption"),
              valueOf(rows[0].values, "DCGMI - Total Energy Consumption"));
}

TEST(Fakes, DcgmiRefusesProfilingAndGroups) {
    const auto [out, rc] =
        runCommand("RADT_FAKE_DCGMI_REFUSE=1001,1002 '" + kFakes + "dcgmi' dmon -e 155,1001 -g 8 -c 3");
    EXPECT_EQ(rc, 1);
    DcgmiDmonParser p;
    EXPECT_TRUE(feedAll(p, lines(out)).empty());
    EXPECT_TRUE(p.sawWatchError());
    const auto [fallback, fallbackRc] =
        runCommand("RADT_FAKE_DCGMI_REFUSE=1001,1002 '" + kFakes + "dcgmi' dmon -e 155,203 -g 8 -d 1 -c 2");
    EXPECT_EQ(fallbackRc, 0);
    DcgmiDmonParser q;
    EXPECT_EQ(feedAll(q, lines(fallback)).size(), 2u);
    EXPECT_FALSE(q.sawWatchError());

    const auto [created, createdRc] = runCommand("'" + kFakes + "dcgmi' group -c radt-1 -a 0,i:0");
    EXPECT_EQ(createdRc, 0);
    EXPECT_EQ(parseDcgmiGroupId(created), 8);
    EXPECT_NE(created.find("i:0"), std::string::npos);
    const auto [removed, removedRc] = runCommand("'" + kFakes + "dcgmi' group -d 8");
    EXPECT_EQ(removedRc, 0);
    EXPECT_EQ(removed, "Successfully removed group 8\n");
    const auto [bad, badRc] = runCommand("'" + kFakes + "dcgmi' frobnicate 2>&1");
    EXPECT_EQ(badRc, 1);
    EXPECT_NE(bad.find("Usage"), std::string::npos);
}
