// SPDX-License-Identifier: MIT
// The fake nvidia-smi / dcgmi (tests/fakes) replay output our parsers read: fakes and parsers agree.

#include "GpuTestSupport.h"

using namespace radt;
using namespace radt::test;

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

// The fake replays any capture with a header row: here the real H200's.
TEST(Fakes, NvidiaSmiReplaysTheH200Capture) {
    const auto [out, rc] =
        runCommand("RADT_FAKE_SMI_FIXTURE=nvidia-smi_query-gpu_h200_header_units.txt '" + kFakes +
                   "nvidia-smi' --query-gpu=" + kSmiQueryFields + " --format=csv,noheader,nounits");
    EXPECT_EQ(rc, 0);
    const auto l = lines(out);
    ASSERT_EQ(l.size(), 1u) << out;
    const auto r = parseSmiLine(l[0]);
    ASSERT_TRUE(r) << l[0];
    EXPECT_DOUBLE_EQ(valueOf(r->values, "SMI - Power Draw"), 80.40);
    // The 580 driver has no energy counter field: what it says is what the fake says.
    const auto [energy, energyRc] =
        runCommand("RADT_FAKE_SMI_FIXTURE=nvidia-smi_query-gpu_h200_header_units.txt '" + kFakes +
                   "nvidia-smi' --query-gpu=index,total_energy_consumption "
                   "--format=csv");
    EXPECT_EQ(energyRc, 2);
    const std::string real =
        test::readFile(fixturePath("tools/nvidia-smi_query-gpu_h200_unknown_energy_field.txt"));
    EXPECT_EQ(energy, real.substr(real.find('\n') + 1)) << "the capture less its # source line";
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
    // SIGTERM once the fake has printed a row (its handler is set by then): a fixed second was not
    // enough for Python to start on a loaded CI machine.
    const auto [term, termRc] =
        runCommand("t=$(mktemp); '" + kFakes +
                   "nvidia-smi' --query-gpu=index --format=csv,noheader -lms 50 >$t & "
                   "p=$!; i=0; while [ ! -s $t ] && [ $i -lt 600 ]; do sleep 0.05; "
                   "i=$((i+1)); done; kill -TERM $p; wait $p; echo rc=$?; rm -f $t");
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
