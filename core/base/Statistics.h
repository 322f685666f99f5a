// SPDX-License-Identifier: MIT
#pragma once
// Statistics for repeated runs: mean, standard deviation and the
// Student t 95 % confidence interval of a sample, Welch's unequal-variance t test with the
// interval of the difference of means, Holm's adjustment for many comparisons, and the Pareto
// front of (duration, energy) points. The distributions are Boost.Math's; plain doubles, no Qt;
// checked against SciPy in test_statistics.

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace radt::stats {

struct Summary {
    size_t n = 0;
    double mean = 0;
    std::optional<double> sd;                      ///< sample sd (n - 1); unset when n < 2
    std::optional<std::pair<double, double>> ci95; ///< mean -+ t(0.975, n-1) sd/sqrt(n); n >= 2
};

/// Unset for an empty sample.
std::optional<Summary> summarise(const std::vector<double>& sample);

/// The regularised incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1.
double incompleteBeta(double a, double b, double x);
/// P(T <= t) for Student's t with df > 0 degrees of freedom.
double studentTCdf(double t, double df);
/// The t with P(T <= t) = p, 0 < p < 1.
double studentTQuantile(double p, double df);

struct WelchTest {
    double t = 0;  ///< (mean b - mean a) / sqrt(var a / n a + var b / n b)
    double df = 0; ///< Welch-Satterthwaite degrees of freedom
    double p = 1;  ///< two-sided
    /// 95 % interval of mean b - mean a: t(0.975, df) times the same standard error.
    std::pair<double, double> diffCi95;
};
/// Unset when either sample has fewer than 2 values or both have no variance (no test exists).
std::optional<WelchTest> welchTest(const std::vector<double>& a, const std::vector<double>& b);

/// An estimated mean with its standard error and degrees of freedom (n - 1 for a sample's mean):
/// what sums and ratios of means need for their intervals. se 0 with df 0: a measured constant.
struct Estimate {
    double mean = 0;
    double se = 0;
    double df = 0;
};
/// A sample's mean as an Estimate; unset for an empty sample (one value: se 0, df 0).
std::optional<Estimate> estimateOf(const std::vector<double>& sample);

/// The sum of k_i times independent means X_i (the same jobs one after another: a solo
/// configuration's mean once per job): se = sqrt(sum k_i^2 se_i^2), df by Welch-Satterthwaite.
Estimate weightedSum(const std::vector<std::pair<double, Estimate>>& terms);

/// The 95 % interval of a / b for independent estimates, by Fieller's theorem, with t at the
/// Welch-Satterthwaite df of the two relative variances. Unset when neither has a variance to go
/// by (both df 0), or when b's own interval reaches zero (the ratio is then unbounded).
std::optional<std::pair<double, double>> ratioCi95(const Estimate& a, const Estimate& b);

/// Holm-Bonferroni adjusted p-values of one family of tests (the same figure's comparisons):
/// the k-th smallest of m p-values times (m - k + 1), kept monotone, at most 1. Unset p-values
/// (no test) take no part and stay unset.
std::vector<std::optional<double>> holmAdjusted(const std::vector<std::optional<double>>& p);

/// Indices of the points no other point dominates (minimising both coordinates: at most as large
/// in both and smaller in one). Equal points are all on the front. Unset points take no part.
std::vector<size_t> paretoFront(const std::vector<std::optional<std::pair<double, double>>>& points);

} // namespace radt::stats
