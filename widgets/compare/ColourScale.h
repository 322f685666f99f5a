// SPDX-License-Identifier: MIT
#pragma once
// The colour of each run by a chosen column: a numeric one on a sequential scale (viridis, dark
// low to yellow high; log when its axis is), a categorical one in a qualitative palette (a colour
// per value, in the values' order). A run without a value is grey. No widget.

#include "widgets/compare/ColumnScale.h"

#include <QColor>
#include <QString>

#include <vector>

namespace radt {

class ColourScale {
public:
    ColourScale() = default;
    ColourScale(const CompareColumn& column, bool log);

    bool isValid() const { return m_valid; }
    bool isCategorical() const { return m_scale.isCategorical(); }
    QColor colourOf(double value) const;
    /// The colour at `fraction` (0..1) of the sequential scale.
    static QColor sequential(double fraction);
    /// The i-th colour of the qualitative palette (it repeats after 10).
    static QColor qualitative(int i);
    static QColor missing() { return QColor(160, 160, 160); }
    /// Where each tick of the legend sits, as a fraction of the scale (0 low .. 1 high), with its
    /// label; a categorical legend lists its categories with fractions i / (n - 1).
    std::vector<std::pair<double, QString>> legend() const;
    const QString& title() const { return m_title; }

private:
    bool m_valid = false;
    ColumnScale m_scale; ///< onto 0..1
    QString m_title;
};

} // namespace radt
