// SPDX-License-Identifier: MIT
// Configurations named by their params, in one order, with Holm-adjusted p and the interval of
// each difference: the naming rule on known params, then a batch-size
// sweep reported by the real `radt report` in every format, its figures checked against SciPy and
// a Holm adjustment written out in the test.

#include "InsightTestSupport.h"
#include "RadtProcess.h"
#include "SciPy.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/analysis/ConfigurationLabels.h"
#include "core/analysis/InsightReport.h"
#include "core/base/TextFormat.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace radt;
using nlohmann::json;
using radt::test::TempDir;

namespace {

std::vector<std::string> labelsInOrder(const std::vector<ParamMap>& keys) {
    const ConfigurationNames names = nameConfigurations(keys);
    std::vector<std::string> out;
    for (const size_t i : names.order)
        out.push_back(names.labels[i]);
    return out;
}

} // namespace

TEST(ConfigurationNames, TheFewestParamsThatTellConfigurationsApartInTheOrderOfTheirValues) {
    // Numbers as numbers: 64 < 128 < 256, whatever order the runs came in.
    EXPECT_EQ(labelsInOrder({{{"batch-size", "256"}, {"lr", "0.1"}},
                             {{"batch-size", "64"}, {"lr", "0.1"}},
                             {{"batch-size", "128"}, {"lr", "0.1"}}}),
              (std::vector<std::string>{"batch-size=64", "batch-size=128", "batch-size=256"}))
        << "lr is the same everywhere: it names nothing";
    // A param that moves with another adds nothing ("iters" follows "size"); radT's own params
    // (runs_per_gpu) only where the user's do not tell the configurations apart.
    EXPECT_EQ(labelsInOrder({{{"size", "8192"}, {"iters", "60"}, {"runs_per_gpu", "1"}},
                             {{"size", "4096"}, {"iters", "30"}, {"runs_per_gpu", "1"}},
                             {{"size", "8192"}, {"iters", "60"}, {"runs_per_gpu", "2"}}}),
              (std::vector<std::string>{"iters=30 runs_per_gpu=1", "iters=60 runs_per_gpu=1",
                                        "iters=60 runs_per_gpu=2"}))
        << "iters and size tell the same apart: the first by name is said, the other adds nothing";
    // An unset value is not said, unless the label would be empty without it.
    EXPECT_EQ(labelsInOrder({{{"collocation", "mps"}, {"runs_per_gpu", "2"}},
                             {{"collocation", "-"}, {"runs_per_gpu", "1"}}}),
              (std::vector<std::string>{"collocation=-", "collocation=mps"}))
        << "alone first: unset before any value";
    EXPECT_EQ(labelsInOrder({{{"size", "8"}}}), (std::vector<std::string>{"all runs"}));
    // Text after numbers, text in byte order; a switch is named without a value.
    EXPECT_TRUE(paramValueBefore("9", "10"));
    EXPECT_TRUE(paramValueBefore("1e3", "adam"));
    EXPECT_TRUE(paramValueBefore("adam", "sgd"));
    EXPECT_TRUE(paramValueBefore("-", "0"));
    EXPECT_TRUE(paramValueBefore("10", "10.0")) << "equal as numbers, told apart by their spelling";
    EXPECT_FALSE(paramValueBefore("10.0", "10"));
}

TEST(ConfigurationNames, HostileValuesAndUnsetSpellingsOrderOneWayWhateverTheOrderOfTheRuns) {
    // "nan" compared false both ways (the order followed the runs' order), "0x40" was read as 64 by
    // strtod, and "", "-", "none" and a missing param were all labelled "bs=none".
    std::vector<ParamMap> keys = {{{"bs", "nan"}},    {{"bs", ""}},     {{"bs", "-"}},   {{"bs", "none"}},
                                  {{"bs", "0x40"}},   {{"bs", "64"}},   {{"bs", "inf"}}, {{"bs", "run 10"}},
                                  {{"bs", "run 2"}},  {{"other", "x"}}, {{"bs", "1e2"}}, {{"bs", "100"}},
                                  {{"bs", "-1e308"}}, {{"bs", "1e400"}}};
    const std::vector<std::string> expected = {"bs=\"\"", "bs=-",    "other=x",  "bs=-1e308", "bs=64",
                                               "bs=100",  "bs=1e2",  "bs=0x40",  "bs=1e400",  "bs=inf",
                                               "bs=nan",  "bs=none", "bs=run 2", "bs=run 10"};
    std::vector<size_t> permutation(keys.size());
    std::iota(permutation.begin(), permutation.end(), size_t(0));
    std::mt19937 random(7);
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<ParamMap> shuffled;
        for (const size_t i : permutation)
            shuffled.push_back(keys[i]);
        ASSERT_EQ(labelsInOrder(shuffled), expected) << "trial " << trial;
        std::shuffle(permutation.begin(), permutation.end(), random);
    }
    EXPECT_EQ(labelsInOrder({{{"bs", "none"}}, {{"bs", "-"}}, {}, {{"bs", ""}}}),
              (std::vector<std::string>{"bs unset", "bs=\"\"", "bs=-", "bs=none"}))
        << "a missing param, an empty one, \"-\" and the text none: four labels";
    EXPECT_FALSE(paramValueBefore("nan", "nan"));
    EXPECT_TRUE(paramValueBefore("", "-")) << "two unset spellings, one order";
    EXPECT_TRUE(paramValueBefore("1e3", "0x40")) << "hex is text";
}

TEST(ConfigurationNames, TheScriptsArgumentStringIsReadAsItsFlags) {
    const ParamMap readable = readableParams(
        {{"params", "data/ --batch-size 64 --lr=-0.5 --amp radT=1 --seed -3"}, {"model", "t.py"}});
    EXPECT_EQ(readable, (ParamMap{{"args", "data/"},
                                  {"batch-size", "64"},
                                  {"lr", "-0.5"},
                                  {"amp", "true"},
                                  {"radT", "1"},
                                  {"seed", "-3"},
                                  {"model", "t.py"}}));
    const auto names = nameConfigurations(
        {readableParams({{"params", "--bs 32 --amp"}}), readableParams({{"params", "--bs 32"}})});
    EXPECT_EQ(names.labels, (std::vector<std::string>{"amp=true", "amp unset"}))
        << "a switch is on or not set";
    EXPECT_EQ(names.order, (std::vector<size_t>{1, 0})) << "without the switch first";
}

TEST(ConfigurationNames, ASweepIsNamedAndOrderedByItsParamsInEveryFormatOfTheReport) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("sweep.db");
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        test::addBatchSizeSweep(*store);
    }
    const test::RadtResult out = test::runRadtToEnd(dir, {"report", "--store", uri, "--json", "sweep"});
    ASSERT_EQ(out.rc, 0) << out.err;
    const json report = json::parse(out.out);
    const json& configurations = report["configurations"];
    ASSERT_EQ(configurations.size(), 3u) << configurations.dump(1);
    const std::vector<std::string> labels = {"batch-size=64", "batch-size=128", "batch-size=256"};
    std::map<std::string, std::vector<double>> durations, energies; // by label, from the runs
    for (size_t c = 0; c < 3; ++c) {
        EXPECT_EQ(configurations[c]["label"], labels[c]) << "the params' order, numbers as numbers";
        EXPECT_EQ(configurations[c]["runs"].size(), 4u);
    }
    for (const json& run : report["runs"]) {
        const size_t c = run["configuration"].get<size_t>();
        durations[labels[c]].push_back(run["duration_s"].get<double>());
        energies[labels[c]].push_back(run["gpu_energy_attributed_j"].get<double>());
    }
    std::multiset<double> seen(durations["batch-size=128"].begin(), durations["batch-size=128"].end());
    EXPECT_EQ(seen, std::multiset<double>({19, 20, 21, 23})) << "runs follow their configuration's index";
    // Every pair, per figure; Welch by SciPy, Holm and the difference's interval written out here.
    const json ref = test::scipy("d = " + json(durations).dump() + "\ne = " + json(energies).dump() + R"(
pairs = [("batch-size=64", "batch-size=128"), ("batch-size=64", "batch-size=256"), ("batch-size=128", "batch-size=256")]
out = {}
for name, data in (("duration_s", d), ("gpu_energy_j", e)):
    rows = []
    for a, b in pairs:
        x, y = data[a], data[b]
        r = stats.ttest_ind(y, x, equal_var=False)
        va, vb = stats.tvar(x) / len(x), stats.tvar(y) / len(y)
        df = (va + vb) ** 2 / (va ** 2 / (len(x) - 1) + vb ** 2 / (len(y) - 1))
        diff = sum(y) / len(y) - sum(x) / len(x)
        half = stats.t.ppf(0.975, df) * (va + vb) ** 0.5
        rows.append({"p": r.pvalue, "lo": diff - half, "hi": diff + half})
    m = len(rows)
    order = sorted(range(m), key=lambda i: rows[i]["p"])
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * rows[i]["p"]))
        rows[i]["holm"] = running
    out[name] = rows
print(json.dumps(out))
)");
    ASSERT_FALSE(ref.is_null());
    const json& comparisons = report["comparisons"];
    ASSERT_EQ(comparisons.size(), 6u);
    const std::vector<std::pair<size_t, size_t>> pairs = {{0, 1}, {0, 2}, {1, 2}};
    for (const json& k : comparisons) {
        const auto at =
            std::find(pairs.begin(), pairs.end(), std::make_pair(k["a"].get<size_t>(), k["b"].get<size_t>()));
        ASSERT_NE(at, pairs.end()) << k.dump();
        const json& r = ref[k["figure"].get<std::string>()][size_t(at - pairs.begin())];
        EXPECT_NEAR(k["p_value"].get<double>(), r["p"].get<double>(), 1e-10) << k.dump();
        EXPECT_NEAR(k["p_adjusted"].get<double>(), r["holm"].get<double>(), 1e-10) << k.dump();
        EXPECT_GE(k["p_adjusted"].get<double>(), k["p_value"].get<double>());
        // SciPy's t.ppf is good to about 2e-9 relative; the interval's edges to 1e-7 of the difference.
        const double scale =
            std::fabs(r["hi"].get<double>() - r["lo"].get<double>()) + std::fabs(r["hi"].get<double>());
        EXPECT_NEAR(k["diff_ci95"][0].get<double>(), r["lo"].get<double>(), 1e-7 * scale) << k.dump();
        EXPECT_NEAR(k["diff_ci95"][1].get<double>(), r["hi"].get<double>(), 1e-7 * scale) << k.dump();
    }

    // The terminal, CSV and LaTeX name the configurations alike and in the same order.
    const test::RadtResult table = test::runRadtToEnd(dir, {"report", "--store", uri, "sweep"});
    ASSERT_EQ(table.rc, 0) << table.err;
    EXPECT_LT(table.out.find("#0      4"), table.out.find("batch-size=64\n")) << table.out;
    EXPECT_NE(table.out.find("batch-size=128 vs batch-size=64"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("Holm-Bonferroni"), std::string::npos);
    const test::RadtResult csv = test::runRadtToEnd(dir, {"report", "--store", uri, "--csv", "sweep"});
    ASSERT_EQ(csv.rc, 0) << csv.err;
    EXPECT_EQ(csv.out.substr(0, csv.out.find(',', csv.out.find(',') + 1)), "configuration,label");
    EXPECT_NE(csv.out.find("\n0,batch-size=64,4,"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find("\n2,batch-size=256,4,"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find("p_adjusted_duration_s"), std::string::npos);
    const test::RadtResult latex = test::runRadtToEnd(dir, {"report", "--store", uri, "--latex", "sweep"});
    ASSERT_EQ(latex.rc, 0) << latex.err;
    EXPECT_NE(latex.out.find("0 & {\\raggedright batch-size=64$^{\\dagger}$\\par} & 4 & "), std::string::npos)
        << latex.out;
    EXPECT_NE(latex.out.find("Holm-Bonferroni"), std::string::npos);

    // --baseline takes a label; one that names no configuration is refused, naming the labels.
    const test::RadtResult against = test::runRadtToEnd(
        dir, {"report", "--store", uri, "--json", "--baseline", "batch-size=256", "sweep"});
    ASSERT_EQ(against.rc, 0) << against.err;
    const json againstReport = json::parse(against.out); // a range-for over a temporary's member dangles
    for (const json& k : againstReport["comparisons"])
        EXPECT_EQ(k["a"], 2) << "each comparison is against batch-size=256";
    const test::RadtResult wrong =
        test::runRadtToEnd(dir, {"report", "--store", uri, "--baseline", "batch-size=512", "sweep"});
    EXPECT_EQ(wrong.rc, 2);
    EXPECT_NE(wrong.err.find("'batch-size=64', 'batch-size=128', 'batch-size=256'"), std::string::npos)
        << wrong.err;
    EXPECT_TRUE(wrong.out.empty());
}

TEST(ConfigurationNames, AMeanIsWrittenToThePrecisionOfItsInterval) {
    EXPECT_EQ(formatMeanPlusMinus(1497.61, 52.62, 2), "1498 ± 53");
    EXPECT_EQ(formatMeanPlusMinus(12.0412, 0.6134, 2), "12.04 ± 0.61");
    EXPECT_EQ(formatMeanPlusMinus(4.04031, 0.0612, 2), "4.040 ± 0.061");
    EXPECT_EQ(formatMeanPlusMinus(3.14159, 0.0996, 2), "3.14 ± 0.10")
        << "rounding carries to 0.10, not 0.100";
    EXPECT_EQ(formatMeanPlusMinus(123456.0, 5432.1, 2), "123456 ± 5432") << "no decimals below the units";
    EXPECT_EQ(formatMeanPlusMinus(7.5, 0.0, 2), "7.50 ± 0.00") << "no spread: the fallback decimals";
}

// Workloads sorted as text (1-1, 1-10, 1-11, 1-12, 1-2) in the view and the terminal: the report's
// "workloads", which both show in order, are in natural order.
TEST(ConfigurationNames, WorkloadsAreInNaturalOrder) {
    EXPECT_TRUE(naturalTextBefore("1-2", "1-10"));
    EXPECT_FALSE(naturalTextBefore("1-10", "1-2"));
    EXPECT_TRUE(naturalTextBefore("1-9", "2-1"));
    TempDir dir;
    auto store = openStore("sqlite:///" + dir.file("workloads.db"), OpenMode::CreateIfMissing);
    const int64_t experiment = store->getOrCreateExperiment("many");
    for (const int workload : {12, 1, 10, 2, 11, 3}) {
        const int64_t start = 1'700'000'000'000 + workload * 100'000;
        const radt::Run run = store->createRun({experiment, "w.py", start, "u", "w.py", RunStatus::Running});
        store->logParams(run.uuid, {{"workload", std::to_string(workload)}, {"letter", "0"}});
        store->setRunStatus(run.uuid, RunStatus::Finished, start + 10'000);
    }
    const json report = buildReport(*store, resolveReportTargets(*store, {"many"}), {});
    std::vector<std::string> order;
    for (const json& w : report["workloads"])
        order.push_back(w["workload"].get<std::string>());
    const std::string e = std::to_string(experiment) + "-";
    EXPECT_EQ(order, (std::vector<std::string>{e + "1", e + "2", e + "3", e + "10", e + "11", e + "12"}));
}
