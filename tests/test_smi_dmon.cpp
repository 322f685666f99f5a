// SPDX-License-Identifier: MIT
// The dmon listener (nvidia-smi dmon): its parser over real H100/H200 output and broken input, the
// real radt recording it through the fake nvidia-smi, and what the insights make of it on a run
// recorded on a real H100 (tests/fixtures/runs/h100_matmul_dmon.db).

#include "GpuTestSupport.h"
#include "RadtProcess.h"
#include "collector/listeners/ListenerTable.h"
#include "core/StoreFactory.h"
#include "core/analysis/EnergyInsight.h"
#include "core/analysis/UtilisationInsight.h"
#include "core/base/InsightSeries.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

using namespace radt;
using namespace radt::test;
using namespace radt::insight;

namespace {

std::vector<SmiDmonParser::Row> parseAll(const std::vector<std::string>& lines, SmiDmonParser& parser) {
    std::vector<SmiDmonParser::Row> rows;
    for (const std::string& line : lines)
        if (auto row = parser.feed(line))
            rows.push_back(std::move(*row));
    return rows;
}

std::map<std::string, double> valuesOf(const SmiDmonParser::Row& row) {
    std::map<std::string, double> out;
    for (const NamedValue& v : row.values)
        out[v.key] = v.value;
    return out;
}

} // namespace

TEST(SmiDmonParser, ReadsTheListenersOwnColumnsOnARealH100UnderLoad) {
    SmiDmonParser parser;
    const auto rows = parseAll(fixtureLines("nvidia-smi_dmon_h100_puctv_load.txt"), parser);
    ASSERT_EQ(rows.size(), 12u);
    EXPECT_EQ(parser.skippedLines(), 0u);
    const auto idle = valuesOf(rows.front());
    EXPECT_EQ(idle.size(), 15u) << "16 columns, the gpu index is not a metric";
    EXPECT_EQ(idle.at("DMON - Power Draw"), 73);
    EXPECT_EQ(idle.at("DMON - SM Clock MHz"), 780);
    EXPECT_EQ(idle.at("DMON - SM Util"), 0);
    const auto busy = valuesOf(rows[9]); // "0 676 57 46 100 9 ... 1980 0 0 0 0"
    EXPECT_EQ(busy.at("DMON - Power Draw"), 676);
    EXPECT_EQ(busy.at("DMON - SM Util"), 100) << "percent, as the tool prints it";
    EXPECT_EQ(busy.at("DMON - Mem Util"), 9);
    EXPECT_EQ(busy.at("DMON - GPU Temp C"), 57);
    EXPECT_EQ(busy.at("DMON - Memory Temp C"), 46);
    EXPECT_EQ(busy.at("DMON - SM Clock MHz"), 1980);
    EXPECT_EQ(busy.at("DMON - Memory Clock MHz"), 2619);
    for (const char* key : {"DMON - PCIe RX MB/s", "DMON - Power Violation", "DMON - Thermal Violation"})
        EXPECT_EQ(busy.count(key), 1u) << key;
    for (const NamedValue& v : rows.front().values)
        EXPECT_TRUE(isHardwareKey(v.key)) << v.key << ": the insights must not take it for a training metric";
}

TEST(SmiDmonParser, EveryGroupWithDateAndTimeColumns) {
    SmiDmonParser parser;
    const auto rows = parseAll(fixtureLines("nvidia-smi_dmon_h100_pucvmet_DT.txt"), parser);
    ASSERT_EQ(rows.size(), 3u);
    const auto v = valuesOf(rows[0]);
    EXPECT_EQ(v.size(), 21u) << "24 columns less Date, Time and gpu";
    EXPECT_EQ(v.at("DMON - BAR1 Used MB"), 1);
    EXPECT_EQ(v.at("DMON - ECC Double Bit Errors"), 0);
    EXPECT_EQ(v.at("DMON - PCIe Replay Errors"), 0);
    EXPECT_EQ(v.at("DMON - Power Draw"), 72);
    for (const auto& [key, value] : v)
        EXPECT_EQ(key.find("Date"), std::string::npos) << key;
}

TEST(SmiDmonParser, DashesOnMigGpusAreLeftOutNotZero) {
    SmiDmonParser parser;
    const auto rows = parseAll(fixtureLines("nvidia-smi_dmon_1.txt"), parser); // H100 with MIG
    ASSERT_EQ(rows.size(), 5u);
    const auto v = valuesOf(rows[0]);
    EXPECT_EQ(v.count("DMON - SM Util"), 0u) << "'-': no utilisation on a MIG GPU";
    EXPECT_EQ(v.at("DMON - Power Draw"), 438);
    EXPECT_EQ(v.size(), 5u) << "pwr, gtemp, mtemp, mclk, pclk";
}

TEST(SmiDmonParser, BrokenInputIsSkippedAndCounted) {
    SmiDmonParser parser;
    EXPECT_FALSE(parser.feed("    0     76     33"));      // a row before any header
    EXPECT_FALSE(parser.feed("# gpu    pwr  frobs"));      // header with a new column
    EXPECT_FALSE(parser.feed("# Idx      W  Gb/s"));       // and its unit
    EXPECT_FALSE(parser.feed(""));                         // blank: not counted
    EXPECT_FALSE(parser.feed("    0     76"));             // truncated
    EXPECT_FALSE(parser.feed("    x     76    3"));        // not a GPU index
    EXPECT_FALSE(parser.feed("\x1b[2J\xff garbage \x9b")); // a terminal's garbage
    EXPECT_FALSE(parser.feed("Failed to initialize NVML: Driver/library version mismatch"));
    EXPECT_EQ(parser.skippedLines(), 5u);
    const auto row = parser.feed("    1     76  nan");
    ASSERT_TRUE(row);
    EXPECT_EQ(row->gpuIndex, 1);
    ASSERT_EQ(row->values.size(), 1u) << "'nan' is not a value";
    EXPECT_EQ(row->values[0].key, "DMON - Power Draw");
    const auto next = parser.feed("    1     80  2.5");
    ASSERT_TRUE(next);
    ASSERT_EQ(next->values.size(), 2u);
    EXPECT_EQ(next->values[1].key, "DMON - frobs Gb/s") << "an unknown column keeps its name and unit";
    EXPECT_EQ(next->values[1].value, 2.5);
}

TEST(SmiDmonListener, IsListedAndNamesItsTool) {
    EXPECT_NE(listenerUsage().find("dmon (nvidia-smi)"), std::string::npos) << listenerUsage();
    EXPECT_EQ(parseListeners("smi+dmon"), (std::vector<std::string>{"smi", "dmon"}));
}

TEST(SmiDmonListener, RadtRecordsEveryGpuThroughTheToolsOwnOutput) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("dmon.db");
    Radt r = startRadt(dir, {"--store", uri, "-l", "dmon", "-d", "0+1", "sleep", "3.5"}, fakeEnv(dir));
    ASSERT_EQ(r.wait(), 0) << r.err();
    EXPECT_NE(readFile(dir.file("fake.log")).find("nvidia-smi dmon -s puctv -d 1 -i 0,1"), std::string::npos)
        << readFile(dir.file("fake.log"));
    auto store = openStore(uri, OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    const Series rx = store->series(run.uuid, "DMON - PCIe RX MB/s");
    const Series rx1 = store->series(run.uuid, "DMON - PCIe RX MB/s - GPU 1");
    EXPECT_GE(rx.v.size(), 2u) << r.err();
    EXPECT_EQ(rx.v.size(), rx1.v.size()) << "a row per GPU per second";
    const Series power = store->series(run.uuid, "DMON - Power Draw");
    ASSERT_FALSE(power.v.empty());
    EXPECT_EQ(power.v[0], 73) << "the H100 capture's first row";
}

TEST(SmiDmonListener, AGpuThatIsNotThereIsSaidOnceAndTheRunGoesOn) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("dmon.db");
    Radt r = startRadt(dir, {"--store", uri, "-l", "dmon+top", "-d", "7", "sleep", "1.5"}, fakeEnv(dir));
    ASSERT_EQ(r.wait(), 0) << r.err();
    EXPECT_NE(r.err().find("listener 'dmon': nvidia-smi exited with code 6: No devices were found"),
              std::string::npos)
        << r.err();
    auto store = openStore(uri, OpenMode::OpenExisting);
    EXPECT_FALSE(store->series(store->runs().at(0).uuid, "TOP - CPU Utilization").v.empty());
}

TEST(SmiDmonInsights, EnergyFromDmonPowerAgreesWithNvidiaSmisOnARealH100Run) {
    auto store = openStore("sqlite:///" + fixturePath("runs/h100_matmul_dmon.db"), OpenMode::ReadOnly);
    const radt::Run run = store->runs().at(0);
    const auto read = [&](const std::string& key) { return store->series(run.uuid, key); };
    const Series smi = read("SMI - Power Draw");
    ASSERT_GT(smi.t.size(), 10u);
    const int64_t from = smi.t.front(), to = smi.t.back();
    const auto fromSmi = gpuEnergy({"SMI - Power Draw"}, read, from, to);
    const auto fromDmon = gpuEnergy({"DMON - Power Draw"}, read, from, to);
    ASSERT_TRUE(fromSmi.joules && fromDmon.joules) << "a run with dmon alone has its energy too";
    // The two tools read the same sensor a second apart: the 17 s run's energy agrees within 5 %.
    EXPECT_NEAR(*fromDmon.joules / *fromSmi.joules, 1.0, 0.05)
        << *fromDmon.joules << " J against " << *fromSmi.joules << " J";
    EXPECT_GT(*fromSmi.joules, 5000) << "~4 x 2.6 s at ~670 W plus idle";
    const auto both = gpuEnergy({"SMI - Power Draw", "DMON - Power Draw"}, read, from, to);
    EXPECT_EQ(*both.joules, *fromSmi.joules) << "nvidia-smi's reading is preferred, never added";
    const Series rx = read("DMON - PCIe RX MB/s");
    ASSERT_FALSE(rx.v.empty());
    EXPECT_GT(*std::max_element(rx.v.begin(), rx.v.end()), 0) << "the matrices went over PCIe";
    const Series sm = read("DMON - SM Util");
    EXPECT_EQ(utilisationScale("DMON - SM Util", sm), 100.0) << "dmon prints percent";
}
