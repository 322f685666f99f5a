// SPDX-License-Identifier: MIT
#include "widgets/compare/ColumnScale.h"

#include "widgets/common/Formatting.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace radt {

namespace {

/// A label for `value` with the decimals `step` needs, trailing zeros of 1.50 kept (ticks align).
QString tickLabel(double value, double step) {
    if (std::fabs(value) < step * 1e-9)
        value = 0; // -0.0 and 1e-17 read as 0
    // Past a million, or steps finer than 1e-4, in 4 significant digits: 1e308 in fixed notation
    // is a label 309 digits wide.
    if (std::max(std::fabs(value), step) >= 1e6 || (step < 1e-4 && value != 0))
        return QString::number(value, 'g', 4);
    return QString::number(value, 'f', tickDecimals(step));
}

/// "1e-05", "0.001", "100", "1e+06": a power of ten (times 2 or 5) as short as it reads.
QString logLabel(double value) {
    const double a = std::fabs(value);
    if (a >= 1e-3 && a < 1e6)
        return QString::number(value, 'g', 6);
    return QString::number(value, 'g', 2);
}

} // namespace

bool ColumnScale::canLog(const CompareColumn& column) {
    if (column.isCategorical() || column.present() == 0)
        return false;
    return std::all_of(column.values.begin(), column.values.end(),
                       [](double v) { return !std::isfinite(v) || v > 0; });
}

ColumnScale::ColumnScale(const CompareColumn& column, bool log, double pixelLow, double pixelHigh)
    : m_pixelLow(pixelLow), m_pixelHigh(pixelHigh) {
    if (column.isCategorical()) {
        // Each category in the middle of its own band: a single one sits in the middle.
        m_categories = std::max<int>(1, int(column.categories.size()));
        m_labels = column.categories;
        m_low = -0.5;
        m_high = m_categories - 0.5;
        return;
    }
    m_log = log && canLog(column);
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (double v : column.values)
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    const insight::AxisScale unit = insight::axisScale(std::max(std::fabs(lo), std::fabs(hi)), column.unit);
    m_divisor = unit.divisor;
    m_tickUnit = QString::fromStdString(unit.symbol);
    if (m_log) {
        if (column.unit == insight::Unit::Seconds) { // 1.67 min reads worse than 100 s
            m_divisor = 1;
            m_tickUnit = QStringLiteral("s");
        }
        lo = std::log10(lo);
        hi = std::log10(hi);
    }
    // A little room at both ends so the extremes do not sit on the axis' ends; equal values in
    // the middle.
    // Halves first: the span of -1e308 to 1e308 is more than a double holds; the ends stay finite.
    const double halfSpan = hi / 2 - lo / 2;
    const double pad = halfSpan > 0
                           ? halfSpan * 0.08
                           : (m_log ? 0.5 : std::min(std::max(std::fabs(lo) * 0.1, 1.0), DBL_MAX / 4));
    m_low = std::max(lo - pad, -DBL_MAX);
    m_high = std::min(hi + pad, DBL_MAX);
}

double ColumnScale::fraction(double value) const {
    if (!std::isfinite(value))
        return value;
    if (m_log) {
        if (value <= 0)
            return std::numeric_limits<double>::quiet_NaN();
        value = std::log10(value);
    }
    return (value / 2 - m_low / 2) / (m_high / 2 - m_low / 2);
}

double ColumnScale::toPixel(double value) const {
    return m_pixelLow + fraction(value) * (m_pixelHigh - m_pixelLow);
}

double ColumnScale::toValue(double pixel) const {
    const double f = (pixel - m_pixelLow) / (m_pixelHigh - m_pixelLow);
    const double v = m_low + f * (m_high - m_low);
    return m_log ? std::pow(10.0, v) : v;
}

std::vector<ScaleTick> ColumnScale::ticks(int count) const {
    std::vector<ScaleTick> out;
    if (isCategorical()) {
        for (int i = 0; i < m_categories; ++i)
            out.push_back({double(i), m_labels.value(i)});
        return out;
    }
    if (m_log)
        return logTicks();
    const double lo = m_low / m_divisor, hi = m_high / m_divisor;
    const double step = niceTickStep(hi - lo, count);
    if (!std::isfinite(hi - lo) || step <= 0) {
        // A range wider than a double (-1e308 to 1e308): its ends only, each said in 4 digits.
        for (const double end : {lo, hi})
            if (std::isfinite(end))
                out.push_back({end * m_divisor, QString::number(end, 'g', 4)});
        return out;
    }
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9 && out.size() < 4 * size_t(count) + 4;
         t += step) {
        out.push_back({t * m_divisor, tickLabel(t, step)});
        if (t + step == t)
            break; // a step below the values' precision (1e308 + 1)
    }
    return out;
}

std::vector<ScaleTick> ColumnScale::logTicks() const {
    std::vector<ScaleTick> out;
    const bool fewDecades = m_high - m_low < 3;
    for (int e = int(std::floor(m_low)); e <= int(std::ceil(m_high)); ++e)
        for (double m : {1.0, 2.0, 5.0}) {
            if (m != 1.0 && !fewDecades)
                continue;
            const double v = m * std::pow(10.0, e);
            const double l = std::log10(v);
            if (l >= m_low && l <= m_high)
                out.push_back({v, logLabel(v / m_divisor)});
        }
    return out;
}

} // namespace radt
