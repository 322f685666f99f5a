// SPDX-License-Identifier: MIT
#pragma once
// The lines of a ChartPanel, drawn by one graphics item over the chart's plot area: per line a
// polyline of its decimated points (at most 2 per pixel column), a min–max band as a filled
// polygon, a single point as a dot. QtCharts' QLineSeries rebuilt a path and a stroked hover
// shape per line on every zoom step (57-98 ms a frame for 8 dense lines); this maps the points
// to pixels and hands them to the painter, so a frame costs what painting them costs. The
// painter decides the output: a view or image gets pixels, an SVG or PDF export vector lines.
// The QtCharts axes, grid and legend stay; the item reads the axes' ranges to place points.

#include "widgets/chart/engine/LineDensity.h"
#include "widgets/chart/engine/PlotFrame.h"

#include <QGraphicsItem>
#include <QImage>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QVector>

#include <vector>

namespace radt {

class ChartPlotItem : public QGraphicsItem {
public:
    static constexpr int kDensityAbove = radt::kDensityAbove; ///< PlotFrame.h
    using Line = PlotLine;
    using Mapping = PlotMapping;

    explicit ChartPlotItem(QGraphicsItem* parent = nullptr);

    void setLines(std::vector<Line> lines);
    const std::vector<Line>& lines() const { return m_lines; }
    /// For changing the lines in place (then linesChanged()): the density is drawn again.
    std::vector<Line>& lines() {
        m_densityFresh = false;
        return m_lines;
    }
    /// Call after changing lines() in place: repaints.
    void linesChanged() {
        m_densityFresh = false;
        update();
    }
    void setMapping(const Mapping& mapping);
    const Mapping& mapping() const { return m_mapping; }
    /// An axis point in item coordinates.
    QPointF toItem(const QPointF& axisPoint) const;
    /// The line drawn over the density (the one under the mouse); -1 for none.
    void setEmphasised(int line);
    int emphasised() const { return m_emphasised; }
    /// Greys instead of blues for the density (the chart's monochrome option).
    void setMonochrome(bool monochrome);
    /// Draws the lines as their density, its shades running to `lines` lines (the chart's
    /// visible lines, as its key says); 0: each line in its colour.
    void setDensityTotal(int lines);
    int densityTotal() const { return m_densityTotal; }
    bool drawsDensity() const { return m_densityTotal > 0; }
    /// The most lines through one pixel in the last density frame painted (0 before any).
    int densest() const { return m_densities.empty() ? 0 : m_densities.front().densest(); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    /// Maps `points` into `out` (reused between lines and frames: no allocation per frame).
    void mapPoints(const QVector<QPointF>& points, QPolygonF& out) const;
    /// The visible lines' density over the plot, at the painter's device resolution.
    void paintDensity(QPainter* painter);

    std::vector<Line> m_lines;
    Mapping m_mapping;
    QPolygonF m_scratch, m_scratchLow;
    int m_emphasised = -1;
    int m_densityTotal = 0;
    bool m_monochrome = false;
    // One raster per share of the lines (FrameShares.h), kept between frames: no allocation per frame.
    std::vector<LineDensity> m_densities;
    std::vector<QPolygonF> m_shareScratch;
    QImage m_densityImage;
    // What m_densityImage was drawn for: a repaint with nothing changed (the crosshair moving,
    // the hovered line) draws it again as it is.
    bool m_densityFresh = false;
    QSize m_densitySize;
    QPointF m_densityOffset; ///< the plot's part-pixel offset on the device: a scroll by whole pixels keeps
                             ///< the raster
};

} // namespace radt
