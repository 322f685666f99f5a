// SPDX-License-Identifier: MIT
#include "widgets/compare/ParallelPlot.h"

#include "widgets/compare/ComparePainting.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace radt {

namespace {

constexpr double kAxisGrab = 14;      ///< how far from an axis a press still brushes it (px)
constexpr double kLineHoverReach = 6; ///< how far from a line the mouse still names its run (px)
constexpr double kBrushWidth = 14;    ///< a brush's drawn width
constexpr int kDragThreshold = 3;     ///< a press that moves less is a click
/// Above this many runs the screen draws the lines aliased: antialiased, 500 lines across the view
/// took most of a frame's 50 to 90 ms; aliased, under 10 (bench_parallel_frame). Exports (PNG,
/// SVG, PDF) always draw them antialiased.
constexpr size_t kAntialiasedLines = 200;

/// A run's line: cosmetic, one pixel wide. A wider pen is stroked as a filled outline, which for
/// 500 lines across the view cost seconds a frame (bench_parallel_frame); a cosmetic one is drawn
/// by the fast line rasteriser, as the charts draw theirs (resources/DESIGN.md §8).
QPen linePen(const QColor& colour, bool unfinished) {
    QPen pen(colour, 1.0);
    pen.setCosmetic(true);
    if (unfinished) // a failed or running run: in no configuration's figures, drawn apart
        pen.setStyle(Qt::DashLine);
    return pen;
}

/// The widest tick label of an axis.
double tickWidth(const ColumnScale& scale, const QFontMetricsF& metrics) {
    double widest = 0;
    for (const ScaleTick& t : scale.ticks())
        widest = std::max(widest, metrics.horizontalAdvance(t.label));
    return widest;
}

/// The second line of an axis' title: its unit and "log" ("kJ, log"), or "".
QString unitLine(const ColumnScale& scale) {
    QStringList parts;
    if (!scale.tickUnit().isEmpty())
        parts << scale.tickUnit();
    if (scale.isLog())
        parts << QStringLiteral("log");
    return parts.isEmpty() ? QString() : QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

} // namespace

ParallelPlot::ParallelPlot(ParallelEngine& engine, QWidget* parent) : QWidget(parent), m_engine(engine) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::ClickFocus);
}

void ParallelPlot::layOut(const QSize& size) {
    const QFontMetricsF metrics(font());
    const double line = metrics.height();
    const double legend = colourLegendWidth(m_engine.colours(), metrics);
    // Room left of the first axis for its tick labels (and half a title); the legend on the right.
    double left = 12;
    if (m_engine.axisCount() > 0)
        left = std::max(12.0, std::min(tickWidth(m_engine.scale(0), metrics), size.width() * 0.2) + 10);
    const double right = std::max(24.0, legend + 16);
    const QRectF rect(left, line * 2 + 14, std::max(10.0, size.width() - left - right),
                      std::max(10.0, size.height() - line * 4.5 - 14));
    m_engine.setPlotRect(rect);
    // The first axis' tick labels sized the margin: once its scale is known, measure again.
    if (m_engine.axisCount() > 0) {
        const double needed = std::min(tickWidth(m_engine.scale(0), metrics), size.width() * 0.2) + 10;
        if (needed > left + 0.5)
            m_engine.setPlotRect(rect.adjusted(needed - left, 0, 0, 0));
    }
}

void ParallelPlot::paintTo(QPainter& painter, const QSize& size) {
    painter.save();
    painter.setFont(font());
    layOut(size);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    painter.setRenderHint(QPainter::Antialiasing, true);
    if (m_engine.axisCount() == 0) {
        painter.setPen(QColor(90, 90, 90));
        painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter,
                         m_engine.runCount() == 0 ? tr("No runs to compare: put runs in the basket")
                                                  : tr("No axes: choose params and figures under Axes"));
    } else {
        const bool screen = painter.device() == this;
        painter.setRenderHint(QPainter::Antialiasing, !screen || m_engine.runCount() <= kAntialiasedLines);
        paintLines(painter);
        painter.setRenderHint(QPainter::Antialiasing, true);
        paintAxes(painter, size.width());
    }
    const QFontMetricsF metrics(painter.font());
    const double legendWidth = colourLegendWidth(m_engine.colours(), metrics);
    const QRectF plot = m_engine.plotRect();
    drawColourLegend(
        painter, m_engine.colours(),
        QRectF(size.width() - legendWidth - 4, plot.top(), legendWidth, std::min(plot.height(), 260.0)));
    paintFooter(painter, size);
    painter.restore();
    if (size != this->size())
        layOut(this->size());
}

void ParallelPlot::paintLines(QPainter& painter) const {
    const size_t n = m_engine.runCount();
    const bool brushed = m_engine.hasBrush();
    QPolygonF polyline;
    // Dimmed lines first, the brushed ones over them, the hovered one last and thicker.
    for (int pass = 0; pass < 2; ++pass)
        for (size_t run = 0; run < n; ++run) {
            const bool selected = !brushed || m_engine.isSelected(run);
            if (selected != (pass == 1) || int(run) == m_hovered)
                continue;
            painter.setPen(linePen(lineColour(m_engine.colourOf(run), selected, n),
                                   !m_engine.table().runs[run].countsAsRepeat()));
            polyline.clear();
            for (int axis = 0; axis < m_engine.axisCount(); ++axis) {
                const QPointF p = m_engine.point(run, axis);
                if (std::isfinite(p.y())) {
                    polyline << p;
                    continue;
                }
                painter.drawPolyline(polyline); // a run without a value there: the line breaks
                polyline.clear();
            }
            painter.drawPolyline(polyline);
        }
    if (m_hovered >= 0 && size_t(m_hovered) < n) {
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(QColor(20, 20, 20), 3.2));
        QPolygonF p;
        for (int axis = 0; axis < m_engine.axisCount(); ++axis)
            if (std::isfinite(m_engine.point(size_t(m_hovered), axis).y()))
                p << m_engine.point(size_t(m_hovered), axis);
        painter.drawPolyline(p);
        painter.setPen(QPen(m_engine.colourOf(size_t(m_hovered)), 1.8));
        painter.drawPolyline(p);
    }
}

void ParallelPlot::paintAxes(QPainter& painter, double width) const {
    const int n = m_engine.axisCount();
    const double spacing = n > 1 ? m_engine.axisX(1) - m_engine.axisX(0) : m_engine.plotRect().width();
    for (int axis = 0; axis < n; ++axis)
        paintAxis(painter, axis, spacing, width);
}

void ParallelPlot::paintAxis(QPainter& painter, int axis, double room, double width) const {
    const QRectF plot = m_engine.plotRect();
    const QFontMetricsF metrics(painter.font());
    const double x = m_engine.axisX(axis), line = metrics.height();
    const ColumnScale& scale = m_engine.scale(axis);
    painter.setPen(QPen(QColor(70, 70, 70), 1.2));
    painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    // Ticks and their labels left of the axis, on a halo over the lines.
    const double labelRoom = std::max(24.0, std::min(room * 0.48, 160.0));
    QFont small = painter.font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    painter.setFont(small);
    const QFontMetricsF smallMetrics(small);
    double lastY = HUGE_VAL;
    for (const ScaleTick& tick : scale.ticks()) {
        const double y = scale.toPixel(tick.value);
        painter.drawLine(QPointF(x - 4, y), QPointF(x, y));
        if (std::fabs(lastY - y) < smallMetrics.height() * 0.9)
            continue; // ticks too close for their labels: every other one says it
        lastY = y;
        drawHaloText(painter, QRectF(x - 6 - labelRoom, y - line / 2, labelRoom, line),
                     Qt::AlignRight | Qt::AlignVCenter,
                     smallMetrics.elidedText(tick.label, Qt::ElideMiddle, labelRoom));
    }
    painter.setFont(small);
    // The brush: a band over the axis.
    if (const auto& brush = m_engine.brush(axis)) {
        const double a = scale.toPixel(brush->low), b = scale.toPixel(brush->high);
        const QRectF band(x - kBrushWidth / 2, std::max(plot.top() - 2, std::min(a, b)), kBrushWidth,
                          std::min(plot.bottom() + 2, std::max(a, b)) -
                              std::max(plot.top() - 2, std::min(a, b)));
        painter.setPen(QPen(QColor(30, 30, 30), 1));
        painter.setBrush(QColor(40, 40, 40, 60));
        painter.drawRect(band);
        painter.setBrush(Qt::NoBrush);
    }
    // The title over the axis (two lines: the name, then the unit), within the room it has.
    const CompareColumn& column = m_engine.axisColumn(axis);
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(QColor(30, 30, 30));
    const double titleWidth = std::max(50.0, room - 8);
    const double titleLeft = std::max(2.0, std::min(x - titleWidth / 2, width - titleWidth - 2));
    const QRectF title(titleLeft, plot.top() - line * 2 - 10, titleWidth, line);
    painter.drawText(title, Qt::AlignHCenter | Qt::AlignBottom,
                     QFontMetricsF(bold).elidedText(column.title, Qt::ElideMiddle, titleWidth));
    painter.setFont(small);
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(title.translated(0, line), Qt::AlignHCenter | Qt::AlignBottom, unitLine(scale));
    // Runs without a value here: said under the axis.
    const size_t missing = m_engine.runCount() - column.present();
    if (missing > 0)
        painter.drawText(QRectF(x - titleWidth / 2, plot.bottom() + 4, titleWidth, line),
                         Qt::AlignHCenter | Qt::AlignTop, tr("%1 n/a").arg(missing));
    painter.setFont(font());
}

void ParallelPlot::paintFooter(QPainter& painter, const QSize& size) const {
    const QFontMetricsF metrics(painter.font());
    QString text = m_engine.runCount() == 1 ? tr("1 run") : tr("%1 runs").arg(m_engine.runCount());
    if (m_engine.hasBrush())
        text += tr(", %1 brushed").arg(m_engine.selectedRuns().size());
    const auto& runs = m_engine.table().runs;
    if (const auto unfinished =
            std::count_if(runs.begin(), runs.end(), [](const CompareRun& r) { return !r.countsAsRepeat(); }))
        text += tr(", %1 dashed: not finished, in no configuration's figures").arg(unfinished);
    painter.setPen(QColor(60, 60, 60));
    painter.drawText(QRectF(8, size.height() - metrics.height() - 4, size.width() - 16, metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, text);
}

void ParallelPlot::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintTo(painter, size());
}

void ParallelPlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layOut(size());
}

int ParallelPlot::brushableAxisAt(const QPoint& pos) const {
    const QRectF plot = m_engine.plotRect();
    if (pos.y() < plot.top() - 10 || pos.y() > plot.bottom() + 10)
        return -1;
    return m_engine.axisNear(pos.x(), kAxisGrab);
}

void ParallelPlot::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragAxis = brushableAxisAt(event->pos());
    m_dragStart =
        std::clamp(double(event->pos().y()), m_engine.plotRect().top(), m_engine.plotRect().bottom());
    m_dragged = false;
}

void ParallelPlot::dragTo(const QPoint& pos) {
    const double y = std::clamp(double(pos.y()), m_engine.plotRect().top(), m_engine.plotRect().bottom());
    if (!m_dragged && std::fabs(y - m_dragStart) < kDragThreshold)
        return;
    m_dragged = true;
    m_engine.brushPixels(m_dragAxis, m_dragStart, y);
    update();
    emit selectionChanged();
}

void ParallelPlot::mouseMoveEvent(QMouseEvent* event) {
    // Between a press on an axis and its release, whatever buttons the event says: some
    // platforms send moves without them.
    if (m_dragAxis >= 0)
        return dragTo(event->pos());
    hover(event->pos(), event->globalPos());
}

void ParallelPlot::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || m_dragAxis < 0)
        return QWidget::mouseReleaseEvent(event);
    dragTo(event->pos()); // where the drag ended, also when no move was seen on the way
    const int axis = m_dragAxis;
    m_dragAxis = -1;
    if (!m_dragged && m_engine.brush(axis)) { // a click on an axis clears its brush
        m_engine.clearBrush(axis);
        update();
        emit selectionChanged();
    }
}

void ParallelPlot::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    if (m_hovered >= 0) {
        m_hovered = -1;
        update();
    }
}

void ParallelPlot::hover(const QPoint& pos, const QPoint& global) {
    const int run = m_engine.runAt(pos, kLineHoverReach);
    if (run != m_hovered) {
        m_hovered = run;
        update();
    }
    if (run >= 0)
        QToolTip::showText(global, m_engine.describeRun(size_t(run)), this);
    else
        QToolTip::hideText();
}

void ParallelPlot::contextMenuEvent(QContextMenuEvent* event) {
    const int axis = m_engine.axisNear(event->pos().x(), kAxisGrab * 2);
    if (axis < 0)
        return;
    QMenu menu(this);
    QAction* log = menu.addAction(tr("Log Scale"));
    log->setCheckable(true);
    log->setChecked(m_engine.isLog(axis));
    log->setEnabled(m_engine.canLog(axis));
    QAction* clear = menu.addAction(tr("Clear Brush"));
    clear->setEnabled(m_engine.brush(axis).has_value());
    QAction* colour = menu.addAction(tr("Colour Lines by %1").arg(m_engine.axisColumn(axis).title));
    QAction* left = menu.addAction(tr("Move Left"));
    left->setEnabled(axis > 0);
    QAction* right = menu.addAction(tr("Move Right"));
    right->setEnabled(axis + 1 < m_engine.axisCount());
    QAction* remove = menu.addAction(tr("Remove Axis"));
    QAction* chosen = menu.exec(event->globalPos());
    if (!chosen)
        return;
    if (chosen == clear) {
        m_engine.clearBrush(axis);
        emit selectionChanged();
    } else if (chosen == log) {
        m_engine.setLog(axis, log->isChecked());
    } else if (chosen == colour) {
        m_engine.setColourBy(m_engine.axisColumn(axis).id);
    } else if (chosen == left || chosen == right) {
        m_engine.moveAxis(axis, chosen == left ? axis - 1 : axis + 1);
    } else if (chosen == remove) {
        QStringList ids = m_engine.axisIds();
        ids.removeAt(axis);
        m_engine.setAxes(ids);
        emit selectionChanged();
    }
    layOut(size());
    update();
    emit axesChanged();
}

} // namespace radt
