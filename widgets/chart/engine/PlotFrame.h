// SPDX-License-Identifier: MIT
#pragma once
// What one frame of a chart draws (ChartEngine::fetchLines writes it, ChartPlotItem paints it):
// per line its decimated points in axis units, its pen and band, and where axis values land in
// the chart's coordinates. Plain data and arithmetic, so the engine and its tests need no widget.

#include <QColor>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QVector>

namespace radt {

/// Past this many visible lines, the lines are drawn as their density (LineDensity): each pixel
/// shaded by how many pass through it, the hovered line stroked over it.
constexpr int kDensityAbove = 64;

struct PlotLine {
    QVector<QPointF> points; ///< axis units, x ascending
    QPen pen;
    bool visible = true;
    /// A min–max band under the line (empty when it has none), axis units.
    QVector<QPointF> bandHigh, bandLow;
    QColor bandFill;
};

/// Where axis values land in the chart's coordinates.
struct PlotMapping {
    QRectF plot;
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    bool logY = false; ///< y is placed by log10 (the range must be positive)

    /// An axis point in chart coordinates (kept within a few million pixels of the plot).
    QPointF toItem(const QPointF& axisPoint) const;
    /// The axis x at a chart coordinate's x.
    double axisXAt(double chartX) const;
};

} // namespace radt
