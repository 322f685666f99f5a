#include "core/base/Statistics.h"

#include <cmath>
#include <limits>

namespace radt::stats {

namespace {

/// The continued fraction of I_x(a, b), evaluated by the modified Lentz method; converges fast
/// for x < (a + 1) / (a + b + 2), which the caller arranges by symmetry.
double betaContinuedFraction(double a, double b, double x) {
    constexpr int kMaxIterations = 500;
    constexpr double kEpsilon = 1e-15;
    constexpr double kTiny = 1e-300;
    const double qab = a + b, qap = a + 1, qam = a - 1;
    auto awayFromZero = [](double v) { return std::fabs(v) < kTiny ? kTiny : v; };
    double c = 1, d = 1 / awayFromZero(1 - qab * x / qap);
    double h = d;
    for (int m = 1; m <= kMaxIterations; ++m) {
        const double m2 = 2.0 * m;
        // Each iteration takes the fraction's even then its odd term.
        for (const double aa : {m * (b - m) * x / ((qam + m2) * (a + m2)),
                                -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))}) {
            d = 1 / awayFromZero(1 + aa * d);
            c = awayFromZero(1 + aa / c);
            h *= d * c;
        }
        if (std::fabs(d * c - 1) < kEpsilon)
            break;
    }
    return h;
}

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
    const double front =
        std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1 - front * betaContinuedFraction(b, a, 1 - x) / b;
}

double studentTCdf(double t, double df) {
    if (std::isinf(t))
        return t > 0 ? 1 : 0;
    const double tail = 0.5 * incompleteBeta(df / 2, 0.5, df / (df + t * t)); // P(T > |t|)
    return t > 0 ? 1 - tail : tail;
}

double studentTQuantile(double p, double df) {
    if (p == 0.5)
        return 0;
    if (p < 0.5)
        return -studentTQuantile(1 - p, df);
    // The cdf is monotonic: bracket, then bisect to the last bit (a few hundred cdf calls).
    double lo = 0, hi = 1;
    while (studentTCdf(hi, df) < p && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        (studentTCdf(mid, df) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
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
    return w;
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
