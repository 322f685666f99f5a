// SPDX-License-Identifier: MIT
// Did collocation pay off? The verdict per collocated configuration on the real
// H100 MPS recording and the real H200 experiment: time together against the same jobs one after
// another alone, throughput gain and energy per job with their 95 % intervals (Fieller's theorem,
// written out independently in Python with SciPy's t), "no solo baseline" where the solo runs are
// gone, and the same verdict in the terminal, --csv and --latex of the real `radt report`.

#include "InsightTestSupport.h"
#include "LatexSupport.h"
#include "RadtProcess.h"
#include "SciPy.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/analysis/CollocationVerdict.h"
#include "core/analysis/InsightReport.h"
#include "core/base/Statistics.h"
#include "core/report/ReportTables.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace radt;
using nlohmann::json;
using radt::test::TempDir;

namespace {

/// Fieller's interval of mean(a) * ka / mean(b) * kb for independent samples, written out in Python:
/// the reference the report's intervals are checked against.
const char* kFiellerPython = R"(
def est(xs, k=1.0):
    n = len(xs); m = sum(xs) / n
    if n < 2: return (k * m, 0.0, 0.0)
    sd = (sum((x - m) ** 2 for x in xs) / (n - 1)) ** 0.5
    return (k * m, k * sd / n ** 0.5, n - 1.0)
def fieller(a, b):
    r = a[0] / b[0]
    ua = (a[1] / a[0]) ** 2; ub = (b[1] / b[0]) ** 2
    df = (ua + ub) ** 2 / ((ua ** 2 / a[2] if a[2] > 0 else 0) + (ub ** 2 / b[2] if b[2] > 0 else 0))
    t = stats.t.ppf(0.975, df)
    g = t * t * b[1] ** 2 / b[0] ** 2
    half = t / abs(b[0]) * (a[1] ** 2 * (1 - g) + r * r * b[1] ** 2) ** 0.5
    return [(r - half) / (1 - g), (r + half) / (1 - g)]
)";

std::string list(const std::vector<double>& v) {
    return json(v).dump();
}

const json& verdictLabelled(const json& report, const std::string& label) {
    for (const json& v : report["collocation"])
        if (v["label"] == label)
            return v;
    static const json none;
    ADD_FAILURE() << "no verdict '" << label << "' in " << report["collocation"].dump(1);
    return none;
}

} // namespace

TEST(CollocationVerdict, RatioIntervalsAreFiellersAndSumsAddTheirVariances) {
    const std::vector<double> alone{18.049, 18.051, 18.3}, together{28.1, 27.6, 28.9};
    const auto a = stats::weightedSum({{2.0, *stats::estimateOf(alone)}});
    const auto b = *stats::estimateOf(together);
    EXPECT_DOUBLE_EQ(a.mean, 2 * (18.049 + 18.051 + 18.3) / 3);
    const auto ci = stats::ratioCi95(a, b);
    ASSERT_TRUE(ci.has_value());
    const json ref = test::scipy(std::string(kFiellerPython) + "print(json.dumps(fieller(est(" + list(alone) +
                                 ", 2.0), est(" + list(together) + "))))");
    ASSERT_TRUE(ref.is_array());
    EXPECT_NEAR(ci->first, ref[0].get<double>(), 1e-9);
    EXPECT_NEAR(ci->second, ref[1].get<double>(), 1e-9);
    EXPECT_LT(ci->first, a.mean / b.mean);
    EXPECT_GT(ci->second, a.mean / b.mean);
    // A denominator measured once: the interval is the numerator's, scaled.
    const auto one = stats::ratioCi95(a, {28.1, 0, 0});
    const double half = stats::studentTQuantile(0.975, 2) * a.se / 28.1;
    ASSERT_TRUE(one.has_value());
    EXPECT_NEAR(one->second - one->first, 2 * half, 1e-12);
    // Nothing to go by: no interval; a denominator whose own interval reaches zero: unbounded.
    EXPECT_FALSE(stats::ratioCi95({2, 0, 0}, {1, 0, 0}).has_value());
    EXPECT_FALSE(stats::ratioCi95({2, 0.1, 2}, {0.5, 0.4, 2}).has_value());
    // Two solo configurations one after another: variances add, Welch-Satterthwaite df.
    const auto sum = stats::weightedSum({{1.0, {10, 1, 4}}, {1.0, {20, 2, 9}}});
    EXPECT_DOUBLE_EQ(sum.mean, 30);
    EXPECT_DOUBLE_EQ(sum.se, std::sqrt(5.0));
    EXPECT_DOUBLE_EQ(sum.df, 25.0 / (1.0 / 4 + 16.0 / 9));
}

// Two solo runs of 1 s and 19 s (t(1) = 12.7): Fieller's interval of the throughput gain reaches
// below 0, which a ratio of two durations cannot. It starts at 0, and the sentence says no clear
// difference rather than a negative gain.
TEST(CollocationVerdict, ARatioIntervalNeverGoesBelowZero) {
    json gain = {{"jobs", 2},
                 {"together_s", 20.0},
                 {"together_j", 8000.0},
                 {"solo", json::array({{{"jobs", 2},
                                        {"duration_s", {{"n", 2}, {"mean", 10.0}, {"sd", 12.7279}}},
                                        {"gpu_energy_j", {{"n", 2}, {"mean", 4000.0}, {"sd", 100.0}}}}})}};
    addGainFigures(gain, {});
    ASSERT_TRUE(gain["throughput_gain_ci95"].is_array()) << gain.dump();
    EXPECT_EQ(gain["throughput_gain_ci95"][0].get<double>(), 0.0) << gain.dump();
    EXPECT_GT(gain["throughput_gain_ci95"][1].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(gain["throughput_gain"].get<double>(), 1.0);
    ASSERT_TRUE(gain["energy_ratio_ci95"].is_array()) << "the energy ratio has its interval too";
    EXPECT_GE(gain["energy_ratio_ci95"][0].get<double>(), 0.0);
    EXPECT_LT(gain["energy_ratio_ci95"][0].get<double>(), 1.0);
}

// The one sentence per verdict: which side of 1 each ratio's interval is on decides the words.
TEST(CollocationVerdict, TheSentenceFollowsTheIntervalsOfBothRatios) {
    const auto verdict = [](double gain, double low, double high, double energy, double elow, double ehigh,
                            size_t n) {
        return json{{"n", n},
                    {"why", nullptr},
                    {"throughput_gain", {{"mean", gain}, {"ci95", {low, high}}}},
                    {"energy_ratio", {{"mean", energy}, {"ci95", {elow, ehigh}}}}};
    };
    EXPECT_EQ(collocationSentence(verdict(1.7, 1.52, 1.9, 0.81, 0.74, 0.89, 3)),
              "Sharing the GPU did x1.70 [1.52, 1.90] the work per hour at x0.810 [0.740, 0.890] the energy "
              "per job: it paid off");
    EXPECT_EQ(collocationSentence(verdict(0.8, 0.7, 0.9, 1.2, 1.1, 1.3, 2)),
              "Sharing the GPU did x0.80 [0.70, 0.90] the work per hour at x1.20 [1.10, 1.30] the energy "
              "per job: it did not pay off");
    EXPECT_NE(collocationSentence(verdict(1.3, 1.2, 1.4, 1.2, 1.1, 1.3, 2))
                  .find("energy per job: more work per hour, but more energy per job"),
              std::string::npos);
    EXPECT_NE(collocationSentence(verdict(1.0, 0.8, 1.2, 0.9, 0.85, 0.95, 2))
                  .find(": less energy per job, no clear difference in work per hour"),
              std::string::npos);
    EXPECT_NE(collocationSentence(verdict(1.0, 0.0, 2.0, 1.0, 0.9, 1.1, 1))
                  .find(": no clear difference from running the jobs alone; one workload, so the intervals "
                        "cover only the solo runs' spread"),
              std::string::npos);
    json bare = verdict(1.5, 0, 0, 0.9, 0, 0, 1);
    bare["throughput_gain"]["ci95"] = nullptr;
    bare["energy_ratio"]["ci95"] = nullptr;
    EXPECT_EQ(collocationSentence(bare),
              "Sharing the GPU did x1.50 the work per hour at x0.90 the energy per "
              "job: it paid off (no interval: neither the workloads nor the solo "
              "runs repeat)");
    json none = bare;
    none["why"] = "no solo baseline for 0_A: ...";
    EXPECT_EQ(collocationSentence(none), "No verdict: no solo baseline for 0_A: ...");
}

TEST(CollocationVerdict, MpsPaysOffMoreThanTimeSlicingWithIntervalsFromTheRepeats) {
    auto store = openStore(test::fixturePath("runs/h100_mps_experiment.db"), OpenMode::ReadOnly);
    const json report = buildReport(*store, resolveReportTargets(*store, {"h100-mps"}), {});
    ASSERT_EQ(report["collocation"].size(), 2u) << report["collocation"].dump(1);
    const json& sliced = verdictLabelled(report, "runs_per_gpu=2");
    const json& mps = verdictLabelled(report, "collocation=MPS runs_per_gpu=2");
    EXPECT_EQ(sliced["n"], 1);
    EXPECT_EQ(sliced["ci_covers"], "solo runs only");
    EXPECT_EQ(mps["n"], 2);
    EXPECT_EQ(mps["workloads"], json::array({"1-4", "1-5"}));
    EXPECT_EQ(mps["jobs"], 2);
    EXPECT_EQ(mps["solo_runs"], 2);
    EXPECT_TRUE(mps["why"].is_null());
    EXPECT_GT(mps["throughput_gain"]["mean"].get<double>(),
              sliced["throughput_gain"]["mean"].get<double>() + 0.05);
    EXPECT_GT(mps["throughput_gain"]["ci95"][0].get<double>(), 1.0) << "MPS did more work per second, surely";

    // The same from the raw figures: the solo runs' durations and energies, the workloads' times.
    std::vector<double> soloS, soloJ, togetherS, perJobJ;
    for (const json& r : report["runs"])
        if (r["collocation"].is_null()) {
            soloS.push_back(r["duration_s"]);
            soloJ.push_back(r["gpu_energy_attributed_j"]);
        }
    for (const json& w : report["workloads"])
        if (w["workload"] == "1-4" || w["workload"] == "1-5") {
            togetherS.push_back(w["collocation_gain"]["together_s"]);
            perJobJ.push_back(w["gpu_energy_j"].get<double>() / 2);
        }
    ASSERT_EQ(soloS.size(), 2u);
    ASSERT_EQ(togetherS.size(), 2u);
    EXPECT_NEAR(mps["alone_one_after_another_s"]["mean"].get<double>(), soloS[0] + soloS[1], 1e-9);
    const json ref = test::scipy(std::string(kFiellerPython) + "print(json.dumps([fieller(est(" +
                                 list(soloS) + ", 2.0), est(" + list(togetherS) + ")), fieller(est(" +
                                 list(perJobJ) + "), est(" + list(soloJ) + "))]))");
    ASSERT_TRUE(ref.is_array());
    EXPECT_NEAR(mps["throughput_gain"]["ci95"][0].get<double>(), ref[0][0].get<double>(), 1e-9);
    EXPECT_NEAR(mps["throughput_gain"]["ci95"][1].get<double>(), ref[0][1].get<double>(), 1e-9);
    EXPECT_NEAR(mps["energy_ratio"]["ci95"][0].get<double>(), ref[1][0].get<double>(), 1e-9);
    EXPECT_NEAR(mps["energy_ratio"]["ci95"][1].get<double>(), ref[1][1].get<double>(), 1e-9);
    EXPECT_NEAR(mps["energy_per_job_together_j"]["mean"].get<double>(), (perJobJ[0] + perJobJ[1]) / 2, 1e-6);

    // The terminal says it per configuration, with N and the intervals.
    const std::string table = reportTable(report);
    EXPECT_NE(
        table.find("collocation=MPS runs_per_gpu=2: 2 workloads of 2 jobs (1-4, 1-5), solo baseline 2 runs"),
        std::string::npos)
        << table;
    EXPECT_NE(table.find("throughput: x1.284 [1.256, 1.314]"), std::string::npos) << table;
    // The verdict in one sentence per configuration; a single workload's caveat in it, not only in
    // a tooltip.
    EXPECT_NE(table.find("verdict:    Sharing the GPU did x1.284 [1.256, 1.314] the work per hour at x0.971 "
                         "[0.948, 0.994] the energy per job: it paid off\n"),
              std::string::npos)
        << table;
    EXPECT_NE(
        table.find("it paid off; one workload, so the intervals cover only the solo runs' spread (repeat "
                   "the workload for its own)"),
        std::string::npos)
        << table;
}

TEST(CollocationVerdict, TheH200PairsGainIsNotSureWhenTheSoloRunsSpreadThatMuch) {
    auto store = openStore(test::fixturePath("runs/h200_matmul_experiment.db"), OpenMode::ReadOnly);
    const json report = buildReport(*store, resolveReportTargets(*store, {"h200-matmul"}), {});
    ASSERT_EQ(report["collocation"].size(), 1u);
    const json& v = report["collocation"][0];
    EXPECT_EQ(v["label"], "iters=60 runs_per_gpu=2");
    EXPECT_EQ(v["n"], 3);
    EXPECT_EQ(v["solo_runs"], 3);
    // The three solo runs of size 8192 took 12.0, 12.0 and 15.1 s: the gain's interval spans 1.
    const json& gain = v["throughput_gain"];
    EXPECT_GT(gain["mean"].get<double>(), 1.2);
    EXPECT_LT(gain["ci95"][0].get<double>(), 1.0);
    EXPECT_GT(gain["ci95"][1].get<double>(), 1.5);
    for (const json& w : report["workloads"])
        if (w["collocation_gain"].is_object()) {
            EXPECT_EQ(w["collocation_gain"]["jobs"], 2);
            EXPECT_NEAR(w["collocation_gain"]["energy_per_job_together_j"].get<double>(),
                        w["gpu_energy_j"].get<double>() / 2, 1e-9);
        }
}

TEST(CollocationVerdict, WithoutSoloRunsTheVerdictSaysSoEverywhere) {
    TempDir dir;
    const std::string db = dir.file("mps.db");
    std::filesystem::copy_file(test::fixturePath("runs/h100_mps_experiment.db"), db);
    {
        auto store = openStore(db, OpenMode::OpenExisting);
        for (const radt::Run& r : store->runs())
            if (r.param("runs_per_gpu") == "1" || r.workload() == "1" || r.workload() == "2")
                store->curation().setRunDeleted(r.uuid, true); // MLflow's soft delete: gone from every report
    }
    auto store = openStore(db, OpenMode::ReadOnly);
    const json report = buildReport(*store, resolveReportTargets(*store, {"h100-mps"}), {});
    ASSERT_EQ(report["collocation"].size(), 2u) << report.dump(1);
    for (const json& v : report["collocation"]) {
        ASSERT_TRUE(v["why"].is_string()) << v.dump(1);
        EXPECT_EQ(v["why"].get<std::string>().rfind("no solo baseline for 0_A", 0), 0u) << v["why"];
        EXPECT_TRUE(v["throughput_gain"]["mean"].is_null());
        EXPECT_FALSE(v["together_s"]["mean"].is_null()) << "the time together is still measured";
    }
    EXPECT_NE(reportTable(report).find("no solo baseline for 0_A, 0_B"), std::string::npos);
    EXPECT_NE(collocationLatex(report).find("\\multicolumn{5}{l}{no solo baseline}"), std::string::npos);
    EXPECT_NE(collocationCsv(report).find("\"no solo baseline for 0_A, 0_B:"), std::string::npos)
        << collocationCsv(report);
}

TEST(CollocationVerdict, RadtReportPrintsItAsCsvAndAsAPaperTable) {
    TempDir dir;
    const std::string db = test::fixturePath("runs/h100_mps_experiment.db");
    const test::RadtResult csv = test::runRadtToEnd(
        dir, {"report", "--store", db, "--read-only", "--csv", "--table", "collocation", "h100-mps"});
    ASSERT_EQ(csv.rc, 0) << csv.err;
    std::istringstream lines(csv.out);
    std::string header, first, second, extra;
    std::getline(lines, header);
    std::getline(lines, first);
    std::getline(lines, second);
    EXPECT_FALSE(std::getline(lines, extra)) << "one row per collocated configuration: " << csv.out;
    EXPECT_EQ(header.rfind("label,n,jobs,workloads,solo_runs,ci_covers,together_s,", 0), 0u) << header;
    EXPECT_EQ(second.rfind("collocation=MPS runs_per_gpu=2,2,2,1-4 1-5,2,workloads and solo runs,28.1055", 0),
              0u)
        << second;
    EXPECT_NE(second.find(",\"Sharing the GPU did x1.284 [1.256, 1.314] the work per hour at x0.971 [0.948, "
                          "0.994] the energy per job: it paid off\","),
              std::string::npos)
        << "the verdict's sentence in its own column: " << second;
    test::writeFile(dir.file("collocation.csv"), csv.out);
    const std::string columns = std::to_string(std::count(header.begin(), header.end(), ',') + 1);
    EXPECT_EQ(test::readByPythonCsvReaders(dir.file("collocation.csv")),
              "csv 2 " + columns + " label\npandas 2 " + columns + " label")
        << "what a researcher's script reads, with the readers' defaults";

    const test::RadtResult latex = test::runRadtToEnd(
        dir, {"report", "--store", db, "--read-only", "--latex", "--table", "collocation", "h100-mps"});
    ASSERT_EQ(latex.rc, 0) << latex.err;
    EXPECT_NE(latex.out.find("$1.284$\\\\\\scriptsize$[1.256, 1.314]$"), std::string::npos) << latex.out;
    EXPECT_NE(latex.out.find("$1.163$\\\\\\scriptsize$[1.162, 1.164]$"), std::string::npos)
        << "a ratio to 0.1 % at most: " << latex.out;
    ASSERT_TRUE(test::compilesInAnArticle(dir, latex.out));
    const auto [tableWidth, lineWidth] = test::tabularWidth(dir, latex.out);
    EXPECT_LE(tableWidth, lineWidth) << latex.out;

    // --table means nothing without a table format, and takes only what it knows.
    const test::RadtResult alone = test::runRadtToEnd(
        dir, {"report", "--store", db, "--read-only", "--table", "collocation", "h100-mps"});
    EXPECT_EQ(alone.rc, 2);
    EXPECT_NE(alone.err.find("--table chooses what --latex or --csv prints"), std::string::npos) << alone.err;
    const test::RadtResult wrong = test::runRadtToEnd(
        dir, {"report", "--store", db, "--read-only", "--csv", "--table", "colloc", "h100-mps"});
    EXPECT_EQ(wrong.rc, 2);
    EXPECT_NE(wrong.err.find("--table: colloc not in {configurations,collocation}"), std::string::npos)
        << wrong.err;
}
