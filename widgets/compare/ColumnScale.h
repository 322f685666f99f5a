// SPDX-License-Identifier: MIT
#pragma once
// One column's scale on a screen axis: linear, log10 (when every value is positive) or ordered
// categories, mapped onto a pixel range; its ticks, in the unit a person reads (kJ, min) for a
// figure. Shared by the parallel coordinates' axes and the scatter's two. No widget.

#include "widgets/compare/CompareTable.h"

#include <QString>

#include <vector>

namespace radt {

struct ScaleTick {
    double value = 0; ///< in the column's values (a category's index)
    QString label;
};

class ColumnScale {
public:
    ColumnScale() = default;
    /// The scale of `column`'s values onto [pixelLow, pixelHigh] (low value at pixelLow: on a
    /// vertical axis the bottom). `log` is ignored where it cannot apply (see canLog).
    ColumnScale(const CompareColumn& column, bool log, double pixelLow, double pixelHigh);

    /// True when the column's values can be drawn on a log scale: numeric, every value > 0.
    static bool canLog(const CompareColumn& column);

    bool isLog() const { return m_log; }
    bool isCategorical() const { return m_categories > 0; }
    /// The pixel of `value` (NaN for NaN, and for a value <= 0 on a log scale).
    double toPixel(double value) const;
    /// The value at `pixel` (the inverse of toPixel; a category's position is fractional).
    double toValue(double pixel) const;
    /// About `count` ticks: nice steps (1, 2, 5 x 10^n) in the unit chosen by the largest value;
    /// on a log scale the powers of ten (and 2 and 5 times them over fewer than 3 decades);
    /// every category.
    std::vector<ScaleTick> ticks(int count = 5) const;
    /// The unit the ticks are written in ("kJ", "min", "%"); "" for params and metrics.
    const QString& tickUnit() const { return m_tickUnit; }
    double low() const { return m_low; }
    double high() const { return m_high; }

private:
    double fraction(double value) const; ///< 0 at the low end of the domain, 1 at the high end
    std::vector<ScaleTick> logTicks() const;

    bool m_log = false;
    int m_categories = 0;
    double m_low = 0, m_high = 1; ///< the domain: values, log10 of values, or category positions
    double m_pixelLow = 0, m_pixelHigh = 1;
    double m_divisor = 1; ///< ticks are value / divisor in m_tickUnit
    QString m_tickUnit;
    QStringList m_labels;
};

} // namespace radt
