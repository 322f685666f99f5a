// SPDX-License-Identifier: MIT
#include "widgets/chart/ChartCrosshair.h"
#include "widgets/chart/engine/ChartDescription.h"

#include "widgets/chart/engine/ChartEngine.h"

#include <QBrush>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QPen>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace QtCharts;

namespace radt {

ChartCrosshair::ChartCrosshair(QChart* chart)
    : m_chart(chart), m_line(new QGraphicsLineItem(chart)), m_box(new QGraphicsRectItem(chart)),
      m_label(new QGraphicsTextItem(m_box)) {
    m_line->setPen(QPen(QColor(80, 80, 80, 160), 1, Qt::DashLine));
    // See-through, so the lines under the box stay visible.
    m_box->setBrush(QColor(255, 255, 255, 170));
    m_box->setPen(QPen(QColor(160, 160, 160, 200)));
    for (QGraphicsItem* item : {static_cast<QGraphicsItem*>(m_line), static_cast<QGraphicsItem*>(m_box)}) {
        item->setZValue(1000); // over the lines (5) and the legend
        item->hide();
    }
}

QString ChartCrosshair::showAt(const ChartEngine& engine, QLineSeries* mapped, double axisX) {
    if (engine.lines().empty() || !mapped) {
        hide();
        return QString();
    }
    m_axisX = axisX;
    QStringList rows, html;
    rows << crosshairPlace(engine, axisX);
    html << rows.front().toHtmlEscaped();
    // As many of the highest and lowest readings as the plot's height holds (10 and 5 at most).
    const double rowHeight = QFontMetricsF(m_label->font()).lineSpacing();
    const size_t rowsFit =
        size_t(std::clamp(int(m_chart->plotArea().height() / std::max(1.0, rowHeight)) - 4, 6, 15));
    QString title;
    const std::vector<CrosshairReading> readings = crosshairReadings(engine, axisX, rowsFit, &title);
    if (!title.isEmpty()) {
        rows << title;
        html << title.toHtmlEscaped();
    }
    for (const CrosshairReading& r : readings) {
        rows << r.row;
        html << (r.line == size_t(-1) ? r.row.toHtmlEscaped()
                                      : QStringLiteral("<span style=\"color:%1\">&#9632;</span> %2")
                                            .arg(engine.lineColour(r.line).name(), r.row.toHtmlEscaped()));
    }
    m_text = rows.join(QLatin1Char('\n'));
    // Draw it: the line across the plot at x, the box beside it (flipped near the right edge).
    const QRectF plot = m_chart->plotArea();
    const QPointF at = m_chart->mapToPosition(QPointF(axisX, 0), mapped);
    m_line->setLine(at.x(), plot.top(), at.x(), plot.bottom());
    m_label->setHtml(html.join(QStringLiteral("<br>")));
    const QRectF textRect = m_label->boundingRect();
    m_label->setPos(2, 0);
    m_box->setRect(0, 0, textRect.width() + 4, textRect.height());
    const double left = at.x() + 12 + m_box->rect().width() > plot.right()
                            ? at.x() - 12 - m_box->rect().width()
                            : at.x() + 12;
    const double boxLeft = std::max(plot.left(), left);
    m_box->setPos(boxLeft, boxTop(engine, mapped, axisX, boxLeft, m_box->rect().size()));
    m_line->show();
    m_box->show();
    return m_text;
}

double ChartCrosshair::boxTop(const ChartEngine& engine, QLineSeries* mapped, double axisX, double boxLeft,
                              const QSizeF& box) const {
    // At the top of the plot, or at the bottom when fewer lines pass there: where the lines are
    // at the crosshair and across the box's width, in pixels.
    const QRectF plot = m_chart->plotArea();
    const double boxHeight = box.height();
    const double px = m_chart->mapToPosition(QPointF(axisX, 0), mapped).x();
    std::vector<double> ys;
    for (double atPx : {px, boxLeft, boxLeft + box.width() / 2, boxLeft + box.width()}) {
        const double ax = m_chart->mapToValue(QPointF(atPx, plot.center().y()), mapped).x();
        const int64_t t = engine.fromAxis(ax);
        for (const ChartLine& line : engine.lines())
            if (const auto value = shownValueAt(engine, line, t)) {
                const double y = m_chart->mapToPosition(QPointF(ax, *value), mapped).y();
                if (std::isfinite(y))
                    ys.push_back(y);
            }
    }
    const double top = plot.top() + 4, bottom = plot.bottom() - 4 - boxHeight;
    auto covered = [&](double from) {
        return std::count_if(ys.begin(), ys.end(),
                             [&](double y) { return y >= from - 3 && y <= from + boxHeight + 3; });
    };
    return bottom > top && covered(bottom) < covered(top) ? bottom : top;
}

void ChartCrosshair::hide() {
    m_line->hide();
    m_box->hide();
}

void ChartCrosshair::showAgain() {
    m_box->show();
    m_line->show();
}

bool ChartCrosshair::isVisible() const {
    return m_box->isVisible();
}

QString ChartCrosshair::text() const {
    return m_box->isVisible() ? m_text : QString();
}

QRectF ChartCrosshair::boxRect() const {
    return m_box->isVisible() ? m_box->sceneBoundingRect() : QRectF();
}

} // namespace radt
