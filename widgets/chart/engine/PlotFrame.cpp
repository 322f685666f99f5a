// SPDX-License-Identifier: MIT
#include "widgets/chart/engine/PlotFrame.h"

#include <algorithm>
#include <cmath>

namespace radt {

namespace {
// Far outside any plot, still well inside what the rasteriser clips exactly: a point of a deep
// zoom's old decimation (shown until the full-resolution query lands) may map millions of
// pixels away.
constexpr double kFar = 1e7;
} // namespace

QPointF PlotMapping::toItem(const QPointF& axisPoint) const {
    const PlotMapping& m = *this;
    const QRectF& r = m.plot;
    const double xSpan = m.xMax - m.xMin;
    const double x = r.left() + (xSpan > 0 ? (axisPoint.x() - m.xMin) / xSpan * r.width() : 0);
    double y;
    if (m.logY) {
        const double lo = std::log10(m.yMin), hi = std::log10(m.yMax);
        y = axisPoint.y() > 0 && hi > lo
                ? r.bottom() - (std::log10(axisPoint.y()) - lo) / (hi - lo) * r.height()
                : r.bottom();
    } else {
        const double ySpan = m.yMax - m.yMin;
        y = r.bottom() - (ySpan > 0 ? (axisPoint.y() - m.yMin) / ySpan * r.height() : r.height() / 2);
    }
    return QPointF(std::clamp(x, -kFar, kFar), std::clamp(y, -kFar, kFar));
}

double PlotMapping::axisXAt(double chartX) const {
    return plot.width() > 0 ? xMin + (chartX - plot.left()) * (xMax - xMin) / plot.width() : xMin;
}

} // namespace radt
