// SPDX-License-Identifier: MIT
// tegrastats parser against every Jetson generation in the fixtures and broken input.

#include "GpuTestSupport.h"

using namespace radt;
using namespace radt::test;

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
