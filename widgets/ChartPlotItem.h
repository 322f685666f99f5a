#pragma once
// The lines of a ChartPanel, drawn by one graphics item over the chart's plot area: per line a
// polyline of its decimated points (at most 2 per pixel column), a min–max band as a filled
// polygon, a single point as a dot. QtCharts' QLineSeries rebuilt a path and a stroked hover
// shape per line on every zoom step (57-98 ms a frame for 8 dense lines); this maps the points
// to pixels and hands them to the painter, so a frame costs what painting them costs. The
// painter decides the output: a view or image gets pixels, an SVG or PDF export vector lines.
// The QtCharts axes, grid and legend stay; the item reads the axes' ranges to place points.

#include <QGraphicsItem>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QVector>

#include <vector>

namespace radt {

class ChartPlotItem : public QGraphicsItem {
public:
    /// From this many visible lines on, lines are drawn one pixel wide and aliased (paint()).
    static constexpr int kThinLinesFrom = 64;
    struct Line {
        QVector<QPointF> points; ///< axis units, x ascending
        QPen pen;
        bool visible = true;
        /// A min–max band under the line (empty when it has none), axis units.
        QVector<QPointF> bandHigh, bandLow;
        QColor bandFill;
    };
    /// Where axis values land in the item's (the chart's) coordinates.
    struct Mapping {
        QRectF plot;
        double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
        bool logY = false; ///< y is placed by log10 (the range must be positive)
    };

    explicit ChartPlotItem(QGraphicsItem* parent = nullptr);

    void setLines(std::vector<Line> lines);
    const std::vector<Line>& lines() const { return m_lines; }
    std::vector<Line>& lines() { return m_lines; }
    /// Call after changing lines() in place: repaints.
    void linesChanged() { update(); }
    void setMapping(const Mapping& mapping);
    const Mapping& mapping() const { return m_mapping; }
    /// An axis point in item coordinates.
    QPointF toItem(const QPointF& axisPoint) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    /// Maps `points` into `out` (reused between lines and frames: no allocation per frame).
    void mapPoints(const QVector<QPointF>& points, QPolygonF& out) const;

    std::vector<Line> m_lines;
    Mapping m_mapping;
    QPolygonF m_scratch, m_scratchLow;
};

} // namespace radt
