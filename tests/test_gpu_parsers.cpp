// SPDX-License-Identifier: MIT
// nvidia-smi and dcgmi dmon parsers against every recorded fixture and broken input.

#include "GpuTestSupport.h"
#include "core/store/MlflowLimits.h"

using namespace radt;
using namespace radt::test;

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

// The listener's own command on a real H200 (idle, 100 ms loop), every row as printed.
TEST(SmiParser, H200CaptureOfTheListenersCommand) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_h200_radt_lms100.txt");
    ASSERT_EQ(l.size(), 50u);
    double previous = 0;
    for (const std::string& line : l) {
        const auto r = parseSmiLine(line);
        ASSERT_TRUE(r) << line;
        EXPECT_EQ(r->gpuIndex, 0);
        ASSERT_EQ(r->values.size(), 6u) << line;
        EXPECT_GE(valueOf(r->values, "SMI - Power Draw"), 76.40) << line;
        EXPECT_LE(valueOf(r->values, "SMI - Power Draw"), 76.60) << line;
        EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - GPU Util"), 0.0);
        EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - Mem Used"), 0.0);
        EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - Performance State"), 0.0);
        const double t = valueOf(r->values, "SMI - Timestamp");
        if (previous > 0) { // -lms 100: rows 100 ms apart, give or take the driver's jitter
            EXPECT_GT(t - previous, 0.08) << line;
            EXPECT_LT(t - previous, 0.12) << line;
        }
        previous = t;
    }
    const auto first = parseSmiLine(l.front());
    EXPECT_DOUBLE_EQ(valueOf(first->values, "SMI - Power Draw"), 76.50);
    EXPECT_NEAR(valueOf(first->values, "SMI - Timestamp"), localSeconds(2026, 11, 26, 2, 53, 35, 0.521),
                1e-6);
}

// A real H200's header-and-units answer (driver 580): the listener's fields among others, the
// clocks named clocks.current.* in the header, temperature without a unit.
TEST(SmiParser, H200HeaderAndUnitsCapture) {
    const auto l = fixtureLines("nvidia-smi_query-gpu_h200_header_units.txt");
    ASSERT_EQ(l.size(), 2u);
    for (bool nounits : {false, true}) {
        const SmiRow r = parseOurs(l[0], l[1], nounits);
        EXPECT_EQ(r.gpuIndex, 0);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Power Draw"), 80.40);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - GPU Util"), 0.0);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Mem Used"), 0.0);
        EXPECT_DOUBLE_EQ(valueOf(r.values, "SMI - Performance State"), 0.0);
    }
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

// Found by fuzz_dcgmi: an error line glued to a row, or a control byte in the label, passed as an
// entity, and a second entity's keys ("<key> - <entity>") then broke MLflow's key rules.
TEST(DcgmiParser, EntityLabelIsKeySafe) {
    DcgmiDmonParser p;
    EXPECT_FALSE(p.feed("# Entity  GRACT  TENSO"));
    const std::string bad[] = {
        "Specified entity ID is valid but unknown: i:1. ParsedResult: ParsedGpu(i:1   GPU 0  0.000  0.000",
        std::string("    G\0 0  0.000  0.000", 22), "    GPU(1) 0  0.1  0.2", "    GPU 0 LINK: 3  0.1  0.2"};
    for (const std::string& line : bad)
        EXPECT_FALSE(p.feed(line)) << line;
    EXPECT_EQ(p.skippedLines(), std::size(bad));
    for (const char* good : {"  GPU-I 1  0.1  0.2", "    GPU 0 LINK 3  0.1  0.2", "  GPU-CI 0  0.1  0.2"}) {
        const auto row = p.feed(good);
        ASSERT_TRUE(row) << good;
        for (const NamedValue& v : row->values)
            EXPECT_TRUE(mlflow::isValidKey(v.key + " - " + row->entity)) << row->entity;
    }
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
