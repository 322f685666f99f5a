#include "ChartPlotItem.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace radt {

namespace {
// Far outside any plot, still well inside what the rasteriser clips exactly: a point of a deep
// zoom's old decimation (shown until the full-resolution query lands) may map millions of
// pixels away.
constexpr double kFar = 1e7;
} // namespace

ChartPlotItem::ChartPlotItem(QGraphicsItem* parent) : QGraphicsItem(parent) {
    setFlag(ItemHasNoContents, false);
    setAcceptedMouseButtons(Qt::NoButton); // the view's rubber band and crosshair get the mouse
    setAcceptHoverEvents(false);
}

void ChartPlotItem::setLines(std::vector<Line> lines) {
    m_lines = std::move(lines);
    update();
}

void ChartPlotItem::setMapping(const Mapping& mapping) {
    if (mapping.plot != m_mapping.plot)
        prepareGeometryChange();
    m_mapping = mapping;
    update();
}

QRectF ChartPlotItem::boundingRect() const {
    // A dot of a single point may reach a little past the plot's edge.
    return m_mapping.plot.adjusted(-4, -4, 4, 4);
}

QPointF ChartPlotItem::toItem(const QPointF& p) const {
    const Mapping& m = m_mapping;
    const QRectF& r = m.plot;
    const double xSpan = m.xMax - m.xMin;
    const double x = r.left() + (xSpan > 0 ? (p.x() - m.xMin) / xSpan * r.width() : 0);
    double y;
    if (m.logY) {
        const double lo = std::log10(m.yMin), hi = std::log10(m.yMax);
        y = p.y() > 0 && hi > lo ? r.bottom() - (std::log10(p.y()) - lo) / (hi - lo) * r.height()
                                 : r.bottom();
    } else {
        const double ySpan = m.yMax - m.yMin;
        y = r.bottom() - (ySpan > 0 ? (p.y() - m.yMin) / ySpan * r.height() : r.height() / 2);
    }
    return QPointF(std::clamp(x, -kFar, kFar), std::clamp(y, -kFar, kFar));
}

void ChartPlotItem::mapPoints(const QVector<QPointF>& points, QPolygonF& out) const {
    out.resize(points.size());
    for (int i = 0; i < points.size(); ++i)
        out[i] = toItem(points[i]);
}

void ChartPlotItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (m_mapping.plot.isEmpty())
        return;
    painter->save();
    painter->setClipRect(m_mapping.plot);
    // Bands first, so that every line is drawn over every band.
    painter->setPen(Qt::NoPen);
    for (const Line& line : m_lines) {
        if (!line.visible || line.bandHigh.isEmpty() || line.bandLow.isEmpty())
            continue;
        mapPoints(line.bandHigh, m_scratch);
        mapPoints(line.bandLow, m_scratchLow);
        std::reverse(m_scratchLow.begin(), m_scratchLow.end());
        m_scratch += m_scratchLow;
        painter->setBrush(line.bandFill);
        painter->drawPolygon(m_scratch);
    }
    painter->setBrush(Qt::NoBrush);
    const bool antialias = painter->testRenderHint(QPainter::Antialiasing);
    const int denseFrom = int(m_mapping.plot.width());
    // Hundreds of lines overlaid (a chart of a cluster's runs) are drawn one pixel wide and
    // aliased: Qt's cosmetic pen takes a fast path, where a wide or smooth stroke is outlined and
    // filled per segment (500 lines, bench_many_runs: a zoom frame's p95 130-180 ms, against
    // 430 ms with the chart's 1 px antialiased pens). They are a texture then, not lines one
    // follows; the hover still names each.
    const int visibleLines = int(std::count_if(
        m_lines.begin(), m_lines.end(), [](const Line& l) { return l.visible && l.points.size() > 1; }));
    const bool thin = visibleLines > kThinLinesFrom;
    for (const Line& line : m_lines) {
        if (!line.visible || line.points.isEmpty())
            continue;
        if (line.points.size() == 1) {
            // A metric logged once (an MLflow final accuracy) is a dot: a polyline of one point
            // draws nothing.
            painter->setPen(Qt::NoPen);
            painter->setBrush(line.pen.color());
            painter->drawEllipse(toItem(line.points.front()), 3.5, 3.5);
            painter->setBrush(Qt::NoBrush);
            continue;
        }
        mapPoints(line.points, m_scratch);
        painter->setRenderHint(QPainter::Antialiasing, antialias && !thin && line.points.size() < denseFrom);
        if (thin) {
            QPen pen = line.pen;
            pen.setWidth(0); // cosmetic: one pixel whatever the transform
            painter->setPen(pen);
        } else {
            painter->setPen(line.pen);
        }
        painter->drawPolyline(m_scratch);
    }
    painter->restore();
}

} // namespace radt
