// SPDX-License-Identifier: MIT
#include "widgets/chart/ChartNavigator.h"

#include "widgets/chart/ChartPlotItem.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace radt {

ChartNavigator::ChartNavigator(QWidget* parent) : QWidget(parent) {
    setFixedHeight(34); // the lines' shape, not their detail: the plot above needs the height more
    setCursor(Qt::CrossCursor);
    setToolTip(tr("Overview: drag to zoom to a range, click to move the window, double-click to show all"));
}

void ChartNavigator::setLines(std::vector<Line> lines, int64_t from, int64_t to, bool monochrome) {
    m_lines = std::move(lines);
    m_monochrome = monochrome;
    m_from = from;
    m_to = std::max(to, from + 1);
    m_yMin = std::numeric_limits<double>::max();
    m_yMax = std::numeric_limits<double>::lowest();
    for (const Line& line : m_lines)
        for (const QPointF& p : line.points) {
            m_yMin = std::min(m_yMin, p.y());
            m_yMax = std::max(m_yMax, p.y());
        }
    if (m_yMin > m_yMax)
        m_yMin = m_yMax = 0;
    if (m_yMax - m_yMin <= 0) {
        m_yMin -= 1;
        m_yMax += 1;
    }
    m_linesPixmap = QPixmap();
    update();
}

void ChartNavigator::setWindow(std::optional<std::pair<int64_t, int64_t>> window) {
    m_window = window;
    update();
}

QRectF ChartNavigator::plotRect() const {
    return QRectF(rect()).adjusted(4, 3, -4, -3);
}

int64_t ChartNavigator::valueAt(double px) const {
    const QRectF r = plotRect();
    const double f = std::clamp((px - r.left()) / std::max(1.0, r.width()), 0.0, 1.0);
    return m_from + static_cast<int64_t>(std::llround(f * double(m_to - m_from)));
}

double ChartNavigator::pixelOf(int64_t x) const {
    const QRectF r = plotRect();
    return r.left() + double(x - m_from) / double(m_to - m_from) * r.width();
}

const QPixmap& ChartNavigator::linesPixmap() {
    const qreal ratio = devicePixelRatioF();
    const QSize pixels = (QSizeF(size()) * ratio).toSize();
    if (!m_linesPixmap.isNull() && m_linesPixmap.size() == pixels)
        return m_linesPixmap;
    m_linesPixmap = QPixmap(pixels);
    m_linesPixmap.setDevicePixelRatio(ratio);
    QPainter painter(&m_linesPixmap);
    const QRectF r = plotRect();
    painter.fillRect(rect(), palette().base());
    painter.setPen(QPen(palette().mid().color(), 1));
    painter.drawRect(r);
    QPolygonF polyline;
    auto toPixels = [&](const Line& line, double left, double top, double scale) {
        polyline.resize(line.points.size());
        for (int i = 0; i < line.points.size(); ++i)
            polyline[i] = QPointF(
                (pixelOf(static_cast<int64_t>(line.points[i].x())) - left) * scale,
                (r.bottom() - top - (line.points[i].y() - m_yMin) / (m_yMax - m_yMin) * r.height()) * scale);
    };
    if (int(m_lines.size()) > ChartPlotItem::kDensityAbove) {
        // As the chart above draws them: their density, in device pixels.
        LineDensity density;
        density.reset(int(std::ceil(r.width() * ratio)), int(std::ceil(r.height() * ratio)));
        for (const Line& line : m_lines) {
            toPixels(line, r.left(), r.top(), ratio);
            density.addLine(polyline.constData(), polyline.size());
        }
        QImage image;
        density.paintInto(image, int(m_lines.size()), m_monochrome);
        painter.drawImage(r, image);
        return m_linesPixmap;
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const Line& line : m_lines) {
        toPixels(line, 0, 0, 1);
        painter.setPen(QPen(line.colour, 0)); // cosmetic: Qt's fast path for 1 px lines
        painter.drawPolyline(polyline);
    }
    return m_linesPixmap;
}

void ChartNavigator::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    m_linesPixmap = QPixmap();
}

void ChartNavigator::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.drawPixmap(0, 0, linesPixmap());
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QRectF r = plotRect();
    // Dim what lies outside the window, frame the window itself.
    std::optional<std::pair<double, double>> band;
    if (m_pressX && std::abs(m_dragX - *m_pressX) > 3)
        band = std::make_pair(std::min(*m_pressX, m_dragX), std::max(*m_pressX, m_dragX));
    else if (m_window)
        band = std::make_pair(pixelOf(m_window->first), pixelOf(m_window->second));
    if (band) {
        const double a = std::clamp(band->first, r.left(), r.right());
        const double b = std::clamp(band->second, r.left(), r.right());
        const QColor shade(0, 0, 0, 40);
        painter.fillRect(QRectF(r.left(), r.top(), a - r.left(), r.height()), shade);
        painter.fillRect(QRectF(b, r.top(), r.right() - b, r.height()), shade);
        painter.setPen(QPen(palette().highlight().color(), 1.5));
        painter.drawRect(QRectF(a, r.top(), std::max(1.0, b - a), r.height()));
    }
}

void ChartNavigator::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || m_lines.empty())
        return;
    m_pressX = event->localPos().x();
    m_dragX = *m_pressX;
}

void ChartNavigator::mouseMoveEvent(QMouseEvent* event) {
    if (!m_pressX)
        return;
    m_dragX = event->localPos().x();
    update();
}

void ChartNavigator::mouseReleaseEvent(QMouseEvent* event) {
    if (!m_pressX || event->button() != Qt::LeftButton)
        return;
    const double a = *m_pressX, b = event->localPos().x();
    m_pressX.reset();
    if (std::abs(b - a) > 3) { // a drag: zoom to what it covered
        const int64_t from = valueAt(std::min(a, b)), to = valueAt(std::max(a, b));
        if (to > from)
            emit windowChosen(from, to);
    } else if (m_window) { // a click: the same window, centred where the user clicked
        const int64_t width = m_window->second - m_window->first;
        int64_t from = valueAt(a) - width / 2;
        from = std::clamp(from, m_from, std::max(m_from, m_to - width));
        emit windowChosen(from, from + width);
    }
    update();
}

void ChartNavigator::mouseDoubleClickEvent(QMouseEvent*) {
    m_pressX.reset();
    emit resetRequested();
}

} // namespace radt
