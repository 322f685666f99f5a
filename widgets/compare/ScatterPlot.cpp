// SPDX-License-Identifier: MIT
#include "widgets/compare/ScatterPlot.h"

#include "widgets/compare/ComparePainting.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace radt {

namespace {

constexpr double kPointRadius = 4.5;
constexpr double kPointHoverReach = 8;

/// "Duration (min, log)": a column's title with the unit its ticks are in.
QString axisTitle(const CompareColumn& column, const ColumnScale& scale) {
    QStringList parts;
    if (!scale.tickUnit().isEmpty())
        parts << scale.tickUnit();
    if (scale.isLog())
        parts << QStringLiteral("log");
    return parts.isEmpty() ? column.title
                           : QStringLiteral("%1 (%2)").arg(column.title, parts.join(QStringLiteral(", ")));
}

} // namespace

ScatterPlot::ScatterPlot(ScatterEngine& engine, QWidget* parent) : QWidget(parent), m_engine(engine) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ScatterPlot::layOut(const QSize& size) {
    const QFontMetricsF metrics(font());
    const double line = metrics.height();
    double tickWidth = 30;
    if (m_engine.isReady())
        for (const ScaleTick& t : m_engine.yScale().ticks())
            tickWidth =
                std::max(tickWidth, std::min(metrics.horizontalAdvance(t.label), size.width() * 0.25));
    const double legend = colourLegendWidth(m_engine.source().colours(), metrics);
    const double left = tickWidth + line + 16, right = std::max(20.0, legend + 16);
    m_engine.setPlotRect(QRectF(left, line + 10, std::max(10.0, size.width() - left - right),
                                std::max(10.0, size.height() - line * 4 - 24)));
}

void ScatterPlot::paintTo(QPainter& painter, const QSize& size) {
    painter.save();
    painter.setFont(font());
    layOut(size);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetricsF metrics(painter.font());
    if (!m_engine.isReady()) {
        painter.setPen(QColor(90, 90, 90));
        painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, tr("Choose what goes on x and on y"));
    } else {
        paintAxes(painter);
        paintPoints(painter);
    }
    const double legendWidth = colourLegendWidth(m_engine.source().colours(), metrics);
    const QRectF plot = m_engine.plotRect();
    drawColourLegend(
        painter, m_engine.source().colours(),
        QRectF(size.width() - legendWidth - 4, plot.top(), legendWidth, std::min(plot.height(), 260.0)));
    const size_t runs = m_engine.source().runCount();
    QString footer = (runs == 1 ? tr("%1 of 1 run shown") : tr("%1 of %2 runs shown").arg(runs))
                         .arg(m_engine.shownCount());
    if (m_engine.source().hasBrush())
        footer += tr(", %1 brushed").arg(m_engine.source().selectedRuns().size());
    painter.setPen(QColor(60, 60, 60));
    painter.drawText(QRectF(8, size.height() - metrics.height() - 4, size.width() - 16, metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, footer);
    painter.restore();
    if (size != this->size())
        layOut(this->size());
}

void ScatterPlot::paintAxes(QPainter& painter) const {
    const QRectF plot = m_engine.plotRect();
    const QFontMetricsF metrics(painter.font());
    const double line = metrics.height();
    painter.setPen(QPen(QColor(70, 70, 70), 1));
    painter.drawRect(plot);
    const QColor grid(230, 230, 230);
    double lastRight = -HUGE_VAL;
    for (const ScaleTick& t : m_engine.xScale().ticks()) {
        const double x = m_engine.xScale().toPixel(t.value);
        painter.setPen(grid);
        painter.drawLine(QPointF(x, plot.top() + 1), QPointF(x, plot.bottom() - 1));
        painter.setPen(QColor(70, 70, 70));
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        const double w = std::min(metrics.horizontalAdvance(t.label), 140.0);
        if (x - w / 2 < lastRight + 6)
            continue; // labels that would overlap: every other one says it
        lastRight = x + w / 2;
        painter.drawText(QRectF(x - w / 2 - 2, plot.bottom() + 6, w + 4, line), Qt::AlignCenter,
                         metrics.elidedText(t.label, Qt::ElideMiddle, w));
    }
    double lastY = HUGE_VAL;
    for (const ScaleTick& t : m_engine.yScale().ticks()) {
        const double y = m_engine.yScale().toPixel(t.value);
        painter.setPen(grid);
        painter.drawLine(QPointF(plot.left() + 1, y), QPointF(plot.right() - 1, y));
        painter.setPen(QColor(70, 70, 70));
        painter.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y));
        if (std::fabs(lastY - y) < line * 0.9)
            continue;
        lastY = y;
        const double room = plot.left() - line - 14;
        painter.drawText(QRectF(plot.left() - 8 - room, y - line / 2, room, line),
                         Qt::AlignRight | Qt::AlignVCenter,
                         metrics.elidedText(t.label, Qt::ElideMiddle, room));
    }
    QFont bold = painter.font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(QColor(30, 30, 30));
    painter.drawText(QRectF(plot.left(), plot.bottom() + line + 10, plot.width(), line), Qt::AlignCenter,
                     axisTitle(m_engine.xColumn(), m_engine.xScale()));
    painter.save();
    painter.translate(4, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), line), Qt::AlignCenter,
                     axisTitle(m_engine.yColumn(), m_engine.yScale()));
    painter.restore();
    painter.setFont(font());
}

void ScatterPlot::paintPoints(QPainter& painter) const {
    const ParallelEngine& source = m_engine.source();
    const size_t n = source.runCount();
    const bool brushed = source.hasBrush();
    for (int pass = 0; pass < 2; ++pass)
        for (size_t run = 0; run < n; ++run) {
            const bool selected = !brushed || source.isSelected(run);
            if (selected != (pass == 1))
                continue;
            const QPointF p = m_engine.point(run);
            if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
                continue;
            painter.setPen(selected ? QPen(QColor(40, 40, 40, 160), 0.8) : Qt::NoPen);
            painter.setBrush(lineColour(source.colourOf(run), selected, n));
            painter.drawEllipse(p, kPointRadius, kPointRadius);
        }
    if (m_hovered >= 0 && size_t(m_hovered) < n) {
        painter.setPen(QPen(QColor(20, 20, 20), 2));
        painter.setBrush(source.colourOf(size_t(m_hovered)));
        painter.drawEllipse(m_engine.point(size_t(m_hovered)), kPointRadius + 2, kPointRadius + 2);
    }
    painter.setBrush(Qt::NoBrush);
}

void ScatterPlot::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintTo(painter, size());
}

void ScatterPlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layOut(size());
}

void ScatterPlot::mouseMoveEvent(QMouseEvent* event) {
    const int run = m_engine.runAt(event->pos(), kPointHoverReach);
    if (run != m_hovered) {
        m_hovered = run;
        update();
    }
    if (run >= 0)
        QToolTip::showText(event->globalPos(),
                           m_engine.source().describeRun(size_t(run), {m_engine.xId(), m_engine.yId()}),
                           this);
    else
        QToolTip::hideText();
}

void ScatterPlot::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    if (m_hovered >= 0) {
        m_hovered = -1;
        update();
    }
}

} // namespace radt
