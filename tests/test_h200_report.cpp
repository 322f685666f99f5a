// SPDX-License-Identifier: MIT
// `radt report` over the real H200 experiment (tests/fixtures/runs/h200_matmul_experiment.db):
// repeats grouped into configurations, shared runs charged their share and replicated by workload,
// a deleted partner, --baseline and --verbose, and the LaTeX and CSV tables.

#include "LatexSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/InsightReport.h"
#include "core/report/ReportTables.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>

namespace fs = std::filesystem;
using namespace radt;

// The real H200 experiment (tests/fixtures/runs): three repeats each of size 8192 and 4096 alone,
// and three workloads of two size-8192 runs sharing the GPU.
TEST(InsightReport, TheH200ExperimentGroupsRepeatsAndChargesSharedRunsTheirShare) {
    auto store = openStore(test::fixturePath("runs/h200_matmul_experiment.db"), OpenMode::ReadOnly);
    const std::vector<radt::Run> runs = resolveReportTargets(*store, {"h200-matmul"});
    ASSERT_EQ(runs.size(), 12u);
    const nlohmann::json report = buildReport(*store, runs, {});
    const nlohmann::json& configurations = report["configurations"];
    ASSERT_EQ(configurations.size(), 3u) << configurations.dump(1);
    EXPECT_EQ(configurations[0]["params"]["size"], "8192");
    EXPECT_EQ(configurations[0]["params"]["runs_per_gpu"], "1");
    // In the order of their params, numbers as numbers: iters 60 before 480.
    EXPECT_EQ(configurations[0]["label"], "iters=60 runs_per_gpu=1");
    EXPECT_EQ(configurations[1]["params"]["runs_per_gpu"], "2");
    EXPECT_EQ(configurations[1]["label"], "iters=60 runs_per_gpu=2");
    EXPECT_EQ(configurations[2]["params"]["size"], "4096");
    EXPECT_EQ(configurations[2]["label"], "iters=480 runs_per_gpu=1");
    EXPECT_EQ(configurations[0]["params"].count("seed"), 0u) << "seeds are repeats, not configurations";
    EXPECT_EQ(configurations[1]["runs"].size(), 6u);
    // 6 runs two at a time on a GPU: its replicates are the 3 workloads (their jobs' mean). Values from
    // scipy's t on the runs' durations and energy shares grouped by workload (18.5395, 18.5365, 18.5385 s).
    EXPECT_EQ(configurations[1]["n"], 3);
    EXPECT_EQ(configurations[1]["replicate"], "workload");
    EXPECT_EQ(configurations[0]["replicate"], "run") << "runs alone are their own replicates";
    EXPECT_EQ(configurations[1]["workloads"], nlohmann::json::array({"1-7", "1-8", "1-9"}));
    const nlohmann::json& sharedDuration = configurations[1]["stats"]["duration_s"];
    EXPECT_NEAR(sharedDuration["mean"].get<double>(), 18.538167, 1e-6);
    EXPECT_NEAR(sharedDuration["ci95"][0].get<double>(), 18.534372, 1e-6);
    EXPECT_NEAR(sharedDuration["ci95"][1].get<double>(), 18.541961, 1e-6);
    const nlohmann::json& sharedEnergy = configurations[1]["stats"]["gpu_energy_j"];
    EXPECT_NEAR(sharedEnergy["mean"].get<double>(), 4037.138, 1e-3);
    EXPECT_NEAR(sharedEnergy["ci95"][0].get<double>(), 3966.889, 1e-3);
    EXPECT_NEAR(sharedEnergy["ci95"][1].get<double>(), 4107.388, 1e-3);
    for (const auto& c : configurations) {
        const nlohmann::json& d = c["stats"]["duration_s"];
        EXPECT_EQ(d["n"], configurationN(c));
        ASSERT_TRUE(d["ci95"].is_array());
        EXPECT_LT(d["ci95"][0].get<double>(), d["mean"].get<double>());
        EXPECT_GT(d["ci95"][1].get<double>(), d["mean"].get<double>());
        EXPECT_EQ(c["stats"]["epoch_time_s"]["n"], configurationN(c));
    }
    // Each shared run is charged its share; the shares of a workload add up to its GPU's energy,
    // and that GPU's energy is close to what either run saw of it (each measured it separately).
    std::map<std::string, double> shares, device;
    for (const auto& r : report["runs"]) {
        const double attributed = r["gpu_energy_attributed_j"], whole = r["gpu_energy_device_j"];
        if (r["collocation"].is_null()) {
            EXPECT_DOUBLE_EQ(attributed, whole);
            EXPECT_TRUE(r["slowdown"].is_null());
            continue;
        }
        EXPECT_GT(attributed, 0.45 * whole);
        EXPECT_LT(attributed, 0.55 * whole);
        shares[r["workload"]] += attributed;
        device[r["workload"]] = std::max(device[r["workload"]], whole);
        // Slowdown against the solo size-8192 configuration, by epoch time, with its N.
        const nlohmann::json& slowdown = r["slowdown"];
        EXPECT_EQ(slowdown["basis"], "epoch");
        EXPECT_EQ(slowdown["baseline_n"], 3);
        EXPECT_EQ(slowdown["baseline_runs"].size(), 3u);
        EXPECT_GT(slowdown["factor"].get<double>(), 1.3) << "two runs on one GPU take longer per epoch";
        EXPECT_LT(slowdown["factor"].get<double>(), 2.1);
    }
    ASSERT_EQ(shares.size(), 3u);
    for (const auto& w : report["workloads"]) {
        // Two runs together against the same two one after another alone (solo means): more work
        // per second, less energy.
        const nlohmann::json& gain = w["collocation_gain"];
        if (!shares.count(w["workload"])) {
            EXPECT_TRUE(gain.is_null()) << w.dump();
            continue;
        }
        ASSERT_TRUE(gain.is_object()) << w.dump();
        EXPECT_NEAR(gain["alone_one_after_another_s"].get<double>(),
                    2 * configurations[0]["stats"]["duration_s"]["mean"].get<double>(), 1e-9);
        EXPECT_GT(gain["throughput_gain"].get<double>(), 1.2);
        EXPECT_LT(gain["energy_ratio"].get<double>(), 1.0);
        EXPECT_DOUBLE_EQ(gain["together_j"].get<double>(), w["gpu_energy_j"].get<double>());
    }
    for (const auto& w : report["workloads"])
        if (shares.count(w["workload"])) {
            EXPECT_NEAR(w["gpu_energy_j"].get<double>(), shares[w["workload"]], 1e-6);
            EXPECT_NEAR(shares[w["workload"]], device[w["workload"]], 0.03 * device[w["workload"]]);
        }
    // Comparisons: every pair, both figures; 4096 alone is significantly faster than sharing.
    ASSERT_EQ(report["comparisons"].size(), 6u);
    bool found = false;
    for (const auto& k : report["comparisons"])
        if (k["a"] == 1 && k["b"] == 2 && k["figure"] == "duration_s") {
            found = true;
            EXPECT_LT(k["ratio"].get<double>(), 0.7);
            EXPECT_LT(k["p_value"].get<double>(), 0.001);
            EXPECT_LT(k["p_adjusted"].get<double>(), 0.001);
            EXPECT_LT(k["diff_ci95"][1].get<double>(), 0) << "the whole interval below zero";
            EXPECT_EQ(k["n_a"], 3) << "Welch over the shared configuration's 3 workloads, not its 6 runs";
            EXPECT_EQ(k["n_b"], 3);
        }
    EXPECT_TRUE(found);
    // Sharing was slower but cheaper per run: both it and 4096 alone are on the frontier.
    EXPECT_EQ(report["pareto"], nlohmann::json::array({1, 2}));
    // Naming a configuration as the baseline compares each other one with it alone.
    ReportOptions against;
    against.baseline = "#0";
    const nlohmann::json one = buildReport(*store, runs, against);
    ASSERT_EQ(one["comparisons"].size(), 4u);
    for (const auto& k : one["comparisons"])
        EXPECT_EQ(k["a"], 0);
    // The table a person reads: N, mean and CI, the frontier mark.
    const std::string table = reportTable(report);
    EXPECT_NE(table.find("#1 *    3      18.5382 ± 0.0038         4.037 ± 0.070"), std::string::npos)
        << table;
    EXPECT_NE(table.find("N of #1 (iters=60 runs_per_gpu=2) counts workloads, not runs: its 6 runs shared "
                         "GPUs in 3 workloads"),
              std::string::npos)
        << table;
    EXPECT_EQ(table.rfind("run         configuration             workload  letter", 0), 0u) << table;
    EXPECT_NE(table.find("iters=480 runs_per_gpu=1  1-4       0"), std::string::npos) << "which run is which";
}

// Deleting one run of a shared pair doubled the survivor's GPU energy (15 kJ -> 30 kJ): the deleted
// run still shared the GPU while it ran. Its share is still counted, the partner is named as
// deleted, and the workload's verdict says why there is none, with the way back.
TEST(InsightReport, ADeletedPartnerStillSharedTheGpuAndTheReportSaysItIsDeleted) {
    test::TempDir dir;
    const std::string path = dir.file("h200.db");
    std::filesystem::copy_file(test::fixturePath("runs/h200_matmul_experiment.db"), path);
    auto store = openStore("sqlite:///" + path, OpenMode::OpenExisting);
    const nlohmann::json before = buildReport(*store, resolveReportTargets(*store, {"h200-matmul"}), {});
    std::string survivor, partner;
    double share = 0;
    for (const auto& r : before["runs"])
        if (r["collocation"].is_object() && survivor.empty()) {
            survivor = r["run_uuid"];
            partner = r["collocation"]["shared_with"][0];
            share = r["gpu_energy_attributed_j"];
        }
    ASSERT_FALSE(survivor.empty());
    store->curation().setRunDeleted(partner, true);
    const nlohmann::json after = buildReport(*store, resolveReportTargets(*store, {"h200-matmul"}), {});
    ASSERT_EQ(after["runs"].size(), before["runs"].size() - 1);
    for (const auto& r : after["runs"]) {
        if (r["run_uuid"] != survivor)
            continue;
        EXPECT_DOUBLE_EQ(r["gpu_energy_attributed_j"].get<double>(), share) << "not the whole GPU's";
        ASSERT_TRUE(r["collocation"].is_object()) << "it still shared its GPU";
        EXPECT_EQ(r["collocation"]["deleted_partners"], nlohmann::json::array({partner}));
        EXPECT_TRUE(r["slowdown"].is_object());
    }
    bool said = false;
    for (const auto& w : after["workloads"])
        if (w["runs"] == nlohmann::json::array({survivor})) {
            const std::string why = w["collocation_gain"].value("why", "");
            EXPECT_NE(why.find("is deleted"), std::string::npos) << w.dump();
            EXPECT_NE(why.find("radt run restore " + partner), std::string::npos) << why;
            said = true;
        }
    EXPECT_TRUE(said) << after["workloads"].dump(1);
    const std::string table = reportTable(after);
    EXPECT_NE(table.find("radt run restore " + partner), std::string::npos) << table;
}

TEST(InsightReport, RadtReportNamesABaselineConfigurationThatDoesNotExist) {
    test::TempDir dir;
    const std::string db = dir.file("h200.db");
    fs::copy_file(test::fixturePath("runs/h200_matmul_experiment.db"), db);
    const std::string radt = std::string(RADT_BINARY_DIR) + "/app/radt";
    auto report = [&](const std::string& args) {
        const std::string cmd = "'" + radt + "' report --store '" + db + "' " + args + " >'" +
                                dir.file("out") + "' 2>'" + dir.file("err") + "'";
        const int status = std::system(cmd.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    EXPECT_EQ(report("--baseline '#7' h200-matmul"), 2);
    EXPECT_NE(
        test::readFile(dir.file("err")).find("--baseline #7: the report has 3 configuration(s), #0 to #2"),
        std::string::npos)
        << test::readFile(dir.file("err"));
    EXPECT_EQ(test::readFile(dir.file("out")), "") << "nothing half-printed";
    EXPECT_EQ(report("--baseline '#x' h200-matmul"), 2);
    EXPECT_NE(test::readFile(dir.file("err")).find("a configuration is named #K"), std::string::npos);
    EXPECT_EQ(report("--repeat-param '' h200-matmul"), 2);
    EXPECT_EQ(report("--json --latex h200-matmul"), 2);
    EXPECT_NE(test::readFile(dir.file("err")).find("give one"), std::string::npos);
    EXPECT_EQ(report("--stall-gpu-below 0 h200-matmul"), 2);
    EXPECT_NE(test::readFile(dir.file("err")).find("--stall-gpu-below expects a percentage"),
              std::string::npos);
    EXPECT_EQ(report("--stall-cpu-cores lots h200-matmul"), 2);
    // --verbose: the exact p where the table says <0.001 (scipy's ttest_ind, equal_var=False, on 4096
    // alone against the shared pairs' workload means: p = 7.359e-09); refused beside --json.
    ASSERT_EQ(report("--verbose h200-matmul"), 0) << test::readFile(dir.file("err"));
    const std::string verbose = test::readFile(dir.file("out"));
    EXPECT_NE(verbose.find("duration_s       7.36e-09    2.21e-08   iters=480 runs_per_gpu=1 vs iters=60 "
                           "runs_per_gpu=2"),
              std::string::npos)
        << verbose;
    EXPECT_EQ(report("--verbose --json h200-matmul"), 2) << "--verbose adds to the terminal table";
    // Without seed as a repeat param (iters, a param of these runs, named instead) every run is its
    // own configuration: no CI, no test. (A name no run has is refused: test_report_configurations.)
    ASSERT_EQ(report("--json --repeat-param iters h200-matmul"), 0) << test::readFile(dir.file("err"));
    const auto json = nlohmann::json::parse(test::readFile(dir.file("out")));
    EXPECT_EQ(json["configurations"].size(), 12u);
    EXPECT_TRUE(json["configurations"][0]["stats"]["duration_s"]["ci95"].is_null());
    EXPECT_TRUE(json["comparisons"][0]["p_value"].is_null());
    ASSERT_EQ(report("--baseline '#1' h200-matmul"), 0) << test::readFile(dir.file("err"));
    const std::string against = test::readFile(dir.file("out"));
    EXPECT_NE(against.find("iters=480 runs_per_gpu=1 vs iters=60 runs_per_gpu=2"), std::string::npos)
        << against;
    EXPECT_EQ(against.find("iters=480 runs_per_gpu=1 vs iters=60 runs_per_gpu=1"), std::string::npos)
        << "each against #1 only";
}

// A table a researcher pastes into a paper; it must compile, and say its N.
TEST(InsightReport, TheLatexTableCompilesWithPdflatexAndTheCsvHoldsTheSameFigures) {
    auto store = openStore(test::fixturePath("runs/h200_matmul_experiment.db"), OpenMode::ReadOnly);
    ReportOptions options;
    options.baseline = "#0";
    const nlohmann::json report = buildReport(*store, resolveReportTargets(*store, {"h200-matmul"}), options);
    const std::string latex = configurationsLatex(report);
    EXPECT_NE(latex.find("\\toprule"), std::string::npos);
    EXPECT_NE(latex.find("runs\\_per\\_gpu=2"), std::string::npos) << "underscores escaped: " << latex;
    EXPECT_NE(latex.find("runs\\_per\\_gpu=1$^{\\dagger}$"), std::string::npos) << "the reference: " << latex;
    // Sharing is slower than 8192 alone at p = 0.033 (its 3 workloads against 3 runs), but Holm over
    // the two comparisons of time against the reference makes it 0.066: no mark; its energy no
    // different (none either). Its N counts workloads, marked and said in the caption.
    EXPECT_NE(latex.find("1 & {\\raggedright iters=60 runs\\_per\\_gpu=2\\par} & 3$^{w}$ & "
                         "$18.5382 \\pm 0.0038$ & $4.037 \\pm 0.070$ &"),
              std::string::npos)
        << latex;
    EXPECT_NE(latex.find("$^{w}$: $N$ counts workloads, not runs"), std::string::npos) << latex;
    EXPECT_NE(latex.find("2 & {\\raggedright iters=480 runs\\_per\\_gpu=1\\par} & 3 & $12.044 \\pm 0.011$ &"),
              std::string::npos)
        << "the mean to its interval's precision: " << latex;

    test::TempDir dir;
    ASSERT_TRUE(test::compilesInAnArticle(dir, latex));
    EXPECT_GT(fs::file_size(dir.file("paper.pdf")), 1000u);
    // The table fits an article's text width: its tabular measured by pdflatex itself.
    const auto [tableWidth, lineWidth] = test::tabularWidth(dir, latex);
    EXPECT_EQ(lineWidth, 345.0) << "an article's text width at 10 pt";
    EXPECT_LE(tableWidth, lineWidth) << latex;

    const std::string csv = configurationsCsv(report);
    std::istringstream lines(csv);
    std::string header, row;
    std::getline(lines, header);
    EXPECT_EQ(
        header.rfind("configuration,label,n,replicate,runs,params,duration_s_mean,duration_s_ci95_low", 0),
        0u)
        << header;
    size_t rows = 0, shared = 0;
    while (std::getline(lines, row)) {
        ++rows;
        if (row.rfind("1,iters=60 runs_per_gpu=2,3,workload,6,", 0) == 0) {
            ++shared;
            const double mean = report["configurations"][1]["stats"]["duration_s"]["mean"];
            EXPECT_NE(row.find(std::to_string(mean).substr(0, 6)), std::string::npos) << row;
        }
    }
    EXPECT_EQ(rows, 3u) << csv;
    EXPECT_EQ(shared, 1u) << "3 workloads of its 6 runs: " << csv;
}
