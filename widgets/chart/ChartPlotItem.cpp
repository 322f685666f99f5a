// SPDX-License-Identifier: MIT
#include "widgets/chart/ChartPlotItem.h"

#include "widgets/chart/engine/FrameShares.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace radt {

ChartPlotItem::ChartPlotItem(QGraphicsItem* parent) : QGraphicsItem(parent) {
    setFlag(ItemHasNoContents, false);
    setAcceptedMouseButtons(Qt::NoButton); // the view's rubber band and crosshair get the mouse
    setAcceptHoverEvents(false);
}

void ChartPlotItem::setLines(std::vector<Line> lines) {
    m_lines = std::move(lines);
    m_densityFresh = false;
    update();
}

void ChartPlotItem::setMapping(const Mapping& mapping) {
    if (mapping.plot != m_mapping.plot)
        prepareGeometryChange();
    const Mapping& was = m_mapping;
    if (mapping.plot != was.plot || mapping.xMin != was.xMin || mapping.xMax != was.xMax ||
        mapping.yMin != was.yMin || mapping.yMax != was.yMax || mapping.logY != was.logY)
        m_densityFresh = false;
    m_mapping = mapping;
    update();
}

QRectF ChartPlotItem::boundingRect() const {
    // A dot of a single point may reach a little past the plot's edge.
    return m_mapping.plot.adjusted(-4, -4, 4, 4);
}

QPointF ChartPlotItem::toItem(const QPointF& axisPoint) const {
    return m_mapping.toItem(axisPoint);
}

void ChartPlotItem::mapPoints(const QVector<QPointF>& points, QPolygonF& out) const {
    out.resize(points.size());
    for (int i = 0; i < points.size(); ++i)
        out[i] = toItem(points[i]);
}

void ChartPlotItem::setEmphasised(int line) {
    if (line == m_emphasised)
        return;
    m_emphasised = line;
    if (drawsDensity()) // only drawn over a density
        update();
}

void ChartPlotItem::setMonochrome(bool monochrome) {
    if (monochrome == m_monochrome)
        return;
    m_monochrome = monochrome;
    m_densityFresh = false;
    update();
}

void ChartPlotItem::setDensityTotal(int lines) {
    lines = std::max(0, lines);
    if (lines == m_densityTotal)
        return;
    m_densityTotal = lines;
    m_densityFresh = false;
    update();
}

void ChartPlotItem::paintDensity(QPainter* painter) {
    // One raster pixel per device pixel: a view's (times its pixel ratio), an export's at its
    // resolution (an SVG or PDF gets the raster as an image, as plotting tools rasterise dense
    // layers), within a size any device takes.
    const QRectF& plot = m_mapping.plot;
    // The raster on whole device pixels (the clip trims the part-pixel beyond the plot): drawn
    // 1:1, not resampled, in a tenth of the time.
    const QTransform device = painter->deviceTransform();
    const QRectF onDevice = device.mapRect(plot);
    const QRect pixels = onDevice.toAlignedRect(); // whole device pixels
    const QRectF target = device.inverted().mapRect(QRectF(pixels));
    const int width = std::clamp(pixels.width(), 1, 4096), height = std::clamp(pixels.height(), 1, 4096);
    const double kx = width / target.width(), ky = height / target.height();
    const QPointF offset(onDevice.left() - std::floor(onDevice.left()),
                         onDevice.top() - std::floor(onDevice.top()));
    if (m_densityFresh && pixels.size() == m_densitySize && offset == m_densityOffset) {
        painter->drawImage(target, m_densityImage);
        return;
    }
    // Axis units straight to raster pixels (toItem's placement, scaled) as the density reads
    // them: a million points a frame are not copied on the way.
    const Mapping& m = m_mapping;
    const double xSpan = m.xMax - m.xMin, ySpan = m.yMax - m.yMin;
    LineDensity::Placement at;
    at.scaleX = xSpan > 0 ? plot.width() / xSpan * kx : 0;
    at.offsetX = (plot.left() - target.left()) * kx - m.xMin * at.scaleX;
    at.scaleY = ySpan > 0 ? -plot.height() / ySpan * ky : 0;
    at.offsetY = ySpan > 0 ? (plot.bottom() - target.top()) * ky - m.yMin * at.scaleY
                           : (plot.center().y() - target.top()) * ky;
    // The lines over the cores, a few at a time, one raster per thread, added up.
    std::vector<const Line*> drawn;
    size_t points = 0;
    for (const Line& line : m_lines)
        if (line.visible && line.points.size() > 1) {
            drawn.push_back(&line);
            points += size_t(line.points.size());
        }
    // One raster per thread, added up: at most 16 MB of them beyond the first (an export's
    // 4096 px raster is 67 MB: one thread draws it).
    const size_t rasterBytes = size_t(width) * size_t(height + 1) * sizeof(int32_t);
    const int shares =
        std::clamp(int(size_t{16} * 1024 * 1024 / rasterBytes) + 1, 1, frameShares(points, 50000));
    m_densities.resize(size_t(shares));
    m_shareScratch.resize(size_t(shares));
    for (LineDensity& density : m_densities)
        density.reset(width, height);
    runItemsInShares(shares, drawn.size(), 8, [&](int share, size_t i) {
        LineDensity& density = m_densities[size_t(share)];
        const Line& line = *drawn[i];
        if (!m.logY) {
            density.addLine(line.points.constData(), line.points.size(), at);
            return;
        }
        QPolygonF& scratch = m_shareScratch[size_t(share)];
        mapPoints(line.points, scratch);
        density.addLine(scratch.constData(), scratch.size(),
                        {kx, -target.left() * kx, ky, -target.top() * ky});
    });
    for (int share = 1; share < shares; ++share)
        m_densities.front().add(m_densities[size_t(share)]);
    m_densities.front().paintInto(m_densityImage, m_densityTotal, m_monochrome);
    m_densityFresh = true;
    m_densitySize = pixels.size();
    m_densityOffset = offset;
    painter->drawImage(target, m_densityImage);
}

void ChartPlotItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (m_mapping.plot.isEmpty())
        return;
    painter->save();
    painter->setClipRect(m_mapping.plot);
    // Bands first, so that every line is drawn over every band; none under a density (hundreds
    // of translucent bands over one another cost seconds a frame and show nothing one could read).
    painter->setPen(Qt::NoPen);
    for (const Line& line : m_lines) {
        if (!line.visible || line.bandHigh.isEmpty() || line.bandLow.isEmpty() || drawsDensity())
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
    const bool density = drawsDensity();
    if (density)
        paintDensity(painter);
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
        if (density)
            continue;
        mapPoints(line.points, m_scratch);
        painter->setRenderHint(QPainter::Antialiasing, antialias && line.points.size() < denseFrom);
        painter->setPen(line.pen);
        painter->drawPolyline(m_scratch);
    }
    if (density && m_emphasised >= 0 && size_t(m_emphasised) < m_lines.size()) {
        // The line under the mouse, over the density in its own colour, on a white halo so that
        // it reads over the darkest shade.
        const Line& line = m_lines[size_t(m_emphasised)];
        if (line.visible && line.points.size() > 1) {
            mapPoints(line.points, m_scratch);
            painter->setRenderHint(QPainter::Antialiasing, antialias);
            painter->setPen(QPen(QColor(255, 255, 255, 220), 4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
            painter->drawPolyline(m_scratch);
            QPen pen = line.pen;
            pen.setWidthF(2);
            pen.setStyle(Qt::SolidLine);
            painter->setPen(pen);
            painter->drawPolyline(m_scratch);
        }
    }
    painter->restore();
}

} // namespace radt
