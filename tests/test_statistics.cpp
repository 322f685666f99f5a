// SPDX-License-Identifier: MIT
// Statistics for repeated runs against SciPy (python3-scipy, installed by
// resources/install-deps.sh) computing the same figures on the same numbers in a real process.

#include "SciPy.h"
#include "TempDir.h"
#include "core/analysis/ConfigurationInsight.h"
#include "core/base/Statistics.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

using namespace radt;
using nlohmann::json;
using radt::test::scipy;

namespace {

// The run durations (s, end - start) of the H200 matmul experiment
// (tests/fixtures/runs/h200_matmul_experiment.db): size 8192 alone (seeds 1-3), size 4096 alone,
// and size 8192 sharing the GPU with another run (workloads 7-9).
const std::vector<double> kAlone8192 = {15.094, 12.038, 12.034};
const std::vector<double> kAlone4096 = {12.044, 12.04, 12.049};
const std::vector<double> kShared8192 = {18.039, 19.04, 18.035, 19.038, 18.037, 19.04};

std::string list(const std::vector<double>& v) {
    return json(v).dump();
}

} // namespace

TEST(Statistics, StudentTAndIncompleteBetaMatchScipy) {
    const json ref = scipy(R"(
dfs = [1, 2, 3, 4, 5, 7.5, 10, 30, 100, 1000]
print(json.dumps({
  "q975": [stats.t.ppf(0.975, df) for df in dfs],
  "q995": [stats.t.ppf(0.995, df) for df in dfs],
  "cdf": [[stats.t.cdf(t, df) for t in (-4.5, -1.0, 0.3, 2.0, 12.0)] for df in dfs],
  "beta": [special.betainc(a, b, x) for a, b, x in [(0.5, 0.5, 0.3), (2, 3, 0.9), (50, 0.5, 0.99), (3.7, 1.2, 0.05)]],
}))
)");
    ASSERT_FALSE(ref.is_null());
    const std::vector<double> dfs = {1, 2, 3, 4, 5, 7.5, 10, 30, 100, 1000};
    const std::vector<double> ts = {-4.5, -1.0, 0.3, 2.0, 12.0};
    for (size_t i = 0; i < dfs.size(); ++i) {
        // SciPy's t.ppf is good to about 2e-9 relative (its t.cdf at its own 0.995 quantile of
        // df 3 gives 0.99499999997604): ours is checked against it to 1e-8, and by its own cdf.
        const double q = ref["q975"][i];
        EXPECT_NEAR(stats::studentTQuantile(0.975, dfs[i]), q, 1e-8 * q) << "df " << dfs[i];
        const double q2 = ref["q995"][i];
        EXPECT_NEAR(stats::studentTQuantile(0.995, dfs[i]), q2, 1e-8 * q2) << "df " << dfs[i];
        EXPECT_NEAR(stats::studentTQuantile(0.025, dfs[i]), -q, 1e-8 * q);
        EXPECT_NEAR(stats::studentTCdf(stats::studentTQuantile(0.995, dfs[i]), dfs[i]), 0.995, 1e-14);
        for (size_t k = 0; k < ts.size(); ++k)
            EXPECT_NEAR(stats::studentTCdf(ts[k], dfs[i]), ref["cdf"][i][k].get<double>(), 1e-12)
                << "t " << ts[k] << " df " << dfs[i];
    }
    EXPECT_NEAR(stats::studentTQuantile(0.975, 1), 12.706204736174703, 1e-9) << "the textbook table";
    const std::vector<std::vector<double>> betas = {
        {0.5, 0.5, 0.3}, {2, 3, 0.9}, {50, 0.5, 0.99}, {3.7, 1.2, 0.05}};
    for (size_t i = 0; i < betas.size(); ++i)
        EXPECT_NEAR(stats::incompleteBeta(betas[i][0], betas[i][1], betas[i][2]),
                    ref["beta"][i].get<double>(), 1e-12);
}

TEST(Statistics, MeanSdAndConfidenceIntervalMatchScipy) {
    const json ref =
        scipy("samples = [" + list(kAlone8192) + ", " + list(kShared8192) + ", [4.0, 6.0]]\n" + R"(
out = []
for s in samples:
    m = sum(s) / len(s)
    sem = stats.sem(s)
    out.append({"mean": m, "sd": stats.tstd(s), "ci": list(stats.t.interval(0.95, len(s) - 1, loc=m, scale=sem))})
print(json.dumps(out))
)");
    ASSERT_FALSE(ref.is_null());
    const std::vector<std::vector<double>> samples = {kAlone8192, kShared8192, {4.0, 6.0}};
    for (size_t i = 0; i < samples.size(); ++i) {
        const auto s = stats::summarise(samples[i]);
        ASSERT_TRUE(s);
        EXPECT_EQ(s->n, samples[i].size());
        EXPECT_NEAR(s->mean, ref[i]["mean"].get<double>(), 1e-12);
        ASSERT_TRUE(s->sd && s->ci95);
        EXPECT_NEAR(*s->sd, ref[i]["sd"].get<double>(), 1e-12);
        EXPECT_NEAR(s->ci95->first, ref[i]["ci"][0].get<double>(), 1e-9);
        EXPECT_NEAR(s->ci95->second, ref[i]["ci"][1].get<double>(), 1e-9);
    }
    // One run: a mean, no spread and no interval (never a CI from n = 1).
    const auto one = stats::summarise({42.0});
    ASSERT_TRUE(one);
    EXPECT_EQ(one->n, 1u);
    EXPECT_DOUBLE_EQ(one->mean, 42.0);
    EXPECT_FALSE(one->sd);
    EXPECT_FALSE(one->ci95);
    EXPECT_FALSE(stats::summarise({}));
}

TEST(Statistics, WelchTestMatchesScipy) {
    const json ref =
        scipy("pairs = [(" + list(kAlone8192) + ", " + list(kShared8192) + "), (" + list(kAlone8192) + ", " +
              list(kAlone4096) + "), ([1.0, 2.0, 3.0, 4.0], [1.5, 2.5])]\n" + R"(
out = []
for a, b in pairs:
    r = stats.ttest_ind(b, a, equal_var=False)
    va, vb = stats.tvar(a) / len(a), stats.tvar(b) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    out.append({"t": r.statistic, "p": r.pvalue, "df": df})
print(json.dumps(out))
)");
    ASSERT_FALSE(ref.is_null());
    const std::vector<std::pair<std::vector<double>, std::vector<double>>> pairs = {
        {kAlone8192, kShared8192}, {kAlone8192, kAlone4096}, {{1, 2, 3, 4}, {1.5, 2.5}}};
    for (size_t i = 0; i < pairs.size(); ++i) {
        const auto w = stats::welchTest(pairs[i].first, pairs[i].second);
        ASSERT_TRUE(w);
        EXPECT_NEAR(w->t, ref[i]["t"].get<double>(), 1e-9 * std::fabs(ref[i]["t"].get<double>()));
        EXPECT_NEAR(w->df, ref[i]["df"].get<double>(), 1e-9 * ref[i]["df"].get<double>());
        EXPECT_NEAR(w->p, ref[i]["p"].get<double>(), 1e-10);
    }
    EXPECT_FALSE(stats::welchTest({1.0}, {2.0, 3.0})) << "no test from one run";
    EXPECT_FALSE(stats::welchTest({5.0, 5.0}, {5.0, 5.0})) << "no variance on either side: no test exists";
}

TEST(Statistics, TheParetoFrontKeepsTiesAndSinglePointsAndSkipsMissingOnes) {
    using P = std::optional<std::pair<double, double>>;
    EXPECT_EQ(stats::paretoFront({P({1, 1})}), std::vector<size_t>({0}));
    EXPECT_TRUE(stats::paretoFront({}).empty());
    EXPECT_EQ(stats::paretoFront({P({1, 5}), P({2, 2}), P({5, 1}), P({3, 3}), std::nullopt, P({2, 2})}),
              std::vector<size_t>({0, 1, 2, 5}))
        << "(3,3) is beaten by (2,2); the two equal (2,2) both stay";
    EXPECT_EQ(stats::paretoFront({P({1, 1}), P({1, 2}), P({2, 1})}), std::vector<size_t>({0}))
        << "equal in one coordinate and worse in the other is dominated";
}

TEST(Configurations, RepeatFlagsAndBookkeepingParamsDoNotTellConfigurationsApart) {
    EXPECT_EQ(withoutRepeatFlags("--size 8192 --seed 3 --epochs 4", {"seed"}), "--size 8192 --epochs 4");
    EXPECT_EQ(withoutRepeatFlags("--seed=3 --size 8192", {"seed"}), "--size 8192");
    EXPECT_EQ(withoutRepeatFlags("batch-size=128 seed=7", {"seed"}), "batch-size=128") << "radT's older form";
    EXPECT_EQ(withoutRepeatFlags("--seeds 3", {"seed"}), "--seeds 3") << "another flag";
    EXPECT_EQ(withoutRepeatFlags("--seed 3 --trial 2", {"seed", "trial"}), "");
    radt::Run a, b;
    a.params = {{"workload", "1"},    {"letter", "0"},     {"devices", "0"},
                {"listeners", "smi"}, {"seed", "1"},       {"params", "--size 8192 --seed 1"},
                {"model", "m.py"},    {"collocation", "-"}};
    b.params = a.params;
    b.params["workload"] = "7";
    b.params["letter"] = "0_A";
    b.params["devices"] = "1";
    b.params["seed"] = "2";
    b.params["params"] = "--size 8192 --seed 2";
    EXPECT_EQ(configurationParams(a, {"seed"}, 1), configurationParams(b, {"seed"}, 1));
    EXPECT_NE(configurationParams(a, {"seed"}, 1), configurationParams(b, {"seed"}, 2))
        << "a run that shared its GPU is another configuration";
    b.params["params"] = "--size 4096 --seed 2";
    EXPECT_NE(configurationParams(a, {"seed"}, 1), configurationParams(b, {"seed"}, 1));
}
