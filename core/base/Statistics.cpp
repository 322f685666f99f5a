// SPDX-License-Identifier: MIT
#include "core/base/Statistics.h"

#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>

#include <algorithm>
#include <cmath>

namespace radt::stats {

namespace {

// Boost.Math's default policy throws on domain errors and overflow; our callers pass checked
// arguments, and a quiet NaN is what the figures carry where a value cannot exist.
using Policy =
    boost::math::policies::policy<boost::math::policies::domain_error<boost::math::policies::ignore_error>,
                                  boost::math::policies::overflow_error<boost::math::policies::ignore_error>>;
constexpr Policy kPolicy{};

double variance(const std::vector<double>& xs, double mean) {
    double sum = 0;
    for (const double x : xs)
        sum += (x - mean) * (x - mean);
    return sum / double(xs.size() - 1);
}

double meanOf(const std::vector<double>& xs) {
    double sum = 0;
    for (const double x : xs)
        sum += x;
    return sum / double(xs.size());
}

} // namespace

double incompleteBeta(double a, double b, double x) {
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    return boost::math::ibeta(a, b, x, kPolicy);
}

double studentTCdf(double t, double df) {
    if (std::isinf(t))
        return t > 0 ? 1 : 0;
    return boost::math::cdf(boost::math::students_t_distribution<double, Policy>(df), t);
}

double studentTQuantile(double p, double df) {
    return boost::math::quantile(boost::math::students_t_distribution<double, Policy>(df), p);
}

std::optional<Summary> summarise(const std::vector<double>& sample) {
    if (sample.empty())
        return std::nullopt;
    Summary s;
    s.n = sample.size();
    s.mean = meanOf(sample);
    if (s.n >= 2) {
        s.sd = std::sqrt(variance(sample, s.mean));
        const double half = studentTQuantile(0.975, double(s.n - 1)) * *s.sd / std::sqrt(double(s.n));
        s.ci95 = std::make_pair(s.mean - half, s.mean + half);
    }
    return s;
}

std::optional<WelchTest> welchTest(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() < 2 || b.size() < 2)
        return std::nullopt;
    const double ma = meanOf(a), mb = meanOf(b);
    const double va = variance(a, ma) / double(a.size()), vb = variance(b, mb) / double(b.size());
    if (va + vb <= 0)
        return std::nullopt;
    WelchTest w;
    w.t = (mb - ma) / std::sqrt(va + vb);
    w.df = (va + vb) * (va + vb) / (va * va / double(a.size() - 1) + vb * vb / double(b.size() - 1));
    w.p = incompleteBeta(w.df / 2, 0.5, w.df / (w.df + w.t * w.t));
    const double half = studentTQuantile(0.975, w.df) * std::sqrt(va + vb);
    w.diffCi95 = {mb - ma - half, mb - ma + half};
    return w;
}

std::optional<Estimate> estimateOf(const std::vector<double>& sample) {
    const auto s = summarise(sample);
    if (!s)
        return std::nullopt;
    return Estimate{s->mean, s->sd ? *s->sd / std::sqrt(double(s->n)) : 0.0, double(s->n - 1)};
}

Estimate weightedSum(const std::vector<std::pair<double, Estimate>>& terms) {
    Estimate sum;
    double variance = 0, dfDenominator = 0;
    for (const auto& [k, x] : terms) {
        sum.mean += k * x.mean;
        const double v = k * k * x.se * x.se;
        variance += v;
        if (v > 0)
            dfDenominator += v * v / x.df;
    }
    sum.se = std::sqrt(variance);
    sum.df = dfDenominator > 0 ? variance * variance / dfDenominator : 0;
    return sum;
}

std::optional<std::pair<double, double>> ratioCi95(const Estimate& a, const Estimate& b) {
    if (b.mean == 0 || (a.df <= 0 && b.df <= 0))
        return std::nullopt;
    const double r = a.mean / b.mean;
    // Relative variances; their Welch-Satterthwaite df is the t's.
    const double ua = a.mean != 0 ? (a.se / a.mean) * (a.se / a.mean) : 0,
                 ub = (b.se / b.mean) * (b.se / b.mean);
    if (ua + ub <= 0)
        return std::make_pair(r, r); // repeats that did not vary: the ratio is what was measured
    const double df =
        (ua + ub) * (ua + ub) / ((a.df > 0 ? ua * ua / a.df : 0) + (b.df > 0 ? ub * ub / b.df : 0));
    const double t = studentTQuantile(0.975, df);
    const double g = t * t * b.se * b.se / (b.mean * b.mean);
    if (g >= 1)
        return std::nullopt;
    const double half = t / std::abs(b.mean) * std::sqrt(a.se * a.se * (1 - g) + r * r * b.se * b.se);
    return std::make_pair((r - half) / (1 - g), (r + half) / (1 - g));
}

std::vector<std::optional<double>> holmAdjusted(const std::vector<std::optional<double>>& p) {
    std::vector<size_t> order;
    for (size_t i = 0; i < p.size(); ++i)
        if (p[i])
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&p](size_t a, size_t b) { return *p[a] < *p[b]; });
    std::vector<std::optional<double>> adjusted(p.size());
    const double m = double(order.size());
    double running = 0; // step-down: an adjusted p is never below the one before it
    for (size_t k = 0; k < order.size(); ++k) {
        running = std::max(running, std::min(1.0, (m - double(k)) * *p[order[k]]));
        adjusted[order[k]] = running;
    }
    return adjusted;
}

std::vector<size_t> paretoFront(const std::vector<std::optional<std::pair<double, double>>>& points) {
    std::vector<size_t> front;
    for (size_t i = 0; i < points.size(); ++i) {
        if (!points[i])
            continue;
        bool dominated = false;
        for (size_t j = 0; j < points.size() && !dominated; ++j)
            dominated = j != i && points[j] && points[j]->first <= points[i]->first &&
                        points[j]->second <= points[i]->second &&
                        (points[j]->first < points[i]->first || points[j]->second < points[i]->second);
        if (!dominated)
            front.push_back(i);
    }
    return front;
}

} // namespace radt::stats
