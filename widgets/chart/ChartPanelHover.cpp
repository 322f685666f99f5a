// ChartPanel's hover: the crosshair that reads every visible line at the mouse (and keeps to
// what a zoom shows), and the run-details tooltip of a line or legend entry.

#include "widgets/chart/ChartPanel.h"

#include "widgets/chart/ChartPlotItem.h"
#include "widgets/common/Formatting.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>

namespace radt {

using namespace QtCharts;

std::optional<double> ChartPanel::shownValueAt(const ChartLine& line, int64_t x) const {
    // A line says nothing before its first point or after its last (a run that has ended).
    if (m_options.hiddenSeries.count(line.name) || x < line.pyramid.firstTime() ||
        x > line.pyramid.lastTime())
        return std::nullopt;
    if (const auto point = line.pyramid.nearest(x))
        return point->second;
    return std::nullopt;
}

QString ChartPanel::showCrosshairAt(double axisX) {
    if (m_lines.empty()) {
        hideCrosshair();
        return QString();
    }
    const int64_t x = fromAxis(axisX);
    m_crosshairAxisX = axisX;
    QStringList rows, html;
    // Where the crosshair is, as a person says it: "1 h 42 m 44 s" after the start, not "1.7122864 h".
    switch (m_options.xAxis) {
    case ChartOptions::XAxis::WallClock:
        rows << QDateTime::fromMSecsSinceEpoch(x).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
        break;
    case ChartOptions::XAxis::SinceStart:
        rows << tr("%1 after the start").arg(toQString(formatElapsed(x)));
        break;
    case ChartOptions::XAxis::Step:
        rows << tr("step %1").arg(x);
        break;
    case ChartOptions::XAxis::Epoch:
        rows << tr("epoch %1").arg(axisX, 0, 'f', 2);
        break;
    }
    html << rows.front().toHtmlEscaped();
    struct Reading {
        size_t line;
        double value;
        QString row;
    };
    std::vector<Reading> readings;
    for (size_t i = 0; i < m_lines.size(); ++i) {
        const ChartLine& line = m_lines[i];
        if (const auto value = shownValueAt(line, x)) {
            QString row = line.name + QStringLiteral(": ") + toQString(formatReading(*value));
            if (line.bandLow)
                if (auto lo = line.bandLow->nearest(x), hi = line.bandHigh->nearest(x); lo && hi)
                    row +=
                        QStringLiteral("  [%1 – %2]")
                            .arg(toQString(formatReading(lo->second)), toQString(formatReading(hi->second)));
            readings.push_back({i, *value, row});
        }
    }
    // Hundreds of lines would not fit on any screen: as many of the highest and the lowest
    // readings as the plot's height holds (10 and 5 at most), said so.
    const double rowHeight = QFontMetricsF(m_crosshairLabel->font()).lineSpacing();
    const size_t rowsFit =
        size_t(std::clamp(int(m_chart->plotArea().height() / std::max(1.0, rowHeight)) - 4, 6, 15));
    const size_t kHighest = (rowsFit * 2 + 2) / 3, kLowest = rowsFit - kHighest;
    if (readings.size() > kHighest + kLowest + 5) {
        std::stable_sort(readings.begin(), readings.end(),
                         [](const Reading& a, const Reading& b) { return a.value > b.value; });
        const size_t between = readings.size() - kHighest - kLowest;
        readings.erase(readings.begin() + long(kHighest), readings.end() - long(kLowest));
        readings.insert(readings.begin() + long(kHighest),
                        {size_t(-1), 0, tr("… %n lines between", nullptr, int(between))});
        const QString title = tr("%1 lines: the %2 highest and %3 lowest")
                                  .arg(int(between + kHighest + kLowest))
                                  .arg(kHighest)
                                  .arg(kLowest);
        rows << title;
        html << title.toHtmlEscaped();
    }
    for (const Reading& r : readings) {
        rows << r.row;
        html << (r.line == size_t(-1) ? r.row.toHtmlEscaped()
                                      : QStringLiteral("<span style=\"color:%1\">&#9632;</span> %2")
                                            .arg(lineColour(r.line).name(), r.row.toHtmlEscaped()));
    }
    const QString text = rows.join(QLatin1Char('\n'));
    m_crosshairText = text;
    // Draw it: the line across the plot at x, the box beside it (flipped near the right edge).
    const QRectF plot = m_chart->plotArea();
    const QPointF at = m_chart->mapToPosition(QPointF(axisX, 0), m_series.front());
    m_crosshairLine->setLine(at.x(), plot.top(), at.x(), plot.bottom());
    m_crosshairLabel->setHtml(html.join(QStringLiteral("<br>")));
    const QRectF textRect = m_crosshairLabel->boundingRect();
    m_crosshairLabel->setPos(2, 0);
    m_crosshairBox->setRect(0, 0, textRect.width() + 4, textRect.height());
    const double left = at.x() + 12 + m_crosshairBox->rect().width() > plot.right()
                            ? at.x() - 12 - m_crosshairBox->rect().width()
                            : at.x() + 12;
    const double boxLeft = std::max(plot.left(), left);
    m_crosshairBox->setPos(boxLeft, crosshairBoxTop(axisX, boxLeft, m_crosshairBox->rect().size()));
    m_crosshairLine->show();
    m_crosshairBox->show();
    return text;
}

double ChartPanel::crosshairBoxTop(double axisX, double boxLeft, const QSizeF& box) const {
    // At the top of the plot, or at the bottom when fewer lines pass there: where the lines are
    // at the crosshair and across the box's width, in pixels.
    const QRectF plot = m_chart->plotArea();
    const double boxHeight = box.height();
    const double px = m_chart->mapToPosition(QPointF(axisX, 0), m_series.front()).x();
    std::vector<double> ys;
    for (double atPx : {px, boxLeft, boxLeft + box.width() / 2, boxLeft + box.width()}) {
        const double ax = m_chart->mapToValue(QPointF(atPx, plot.center().y()), m_series.front()).x();
        const int64_t t = fromAxis(ax);
        for (const ChartLine& line : m_lines)
            if (const auto value = shownValueAt(line, t)) {
                const double y = m_chart->mapToPosition(QPointF(ax, *value), m_series.front()).y();
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

QRectF ChartPanel::crosshairBoxRect() const {
    return m_crosshairBox->isVisible() ? m_crosshairBox->sceneBoundingRect() : QRectF();
}

void ChartPanel::hideCrosshair() {
    m_crosshairLine->hide();
    m_crosshairBox->hide();
}

QString ChartPanel::crosshairText() const {
    return m_crosshairBox->isVisible() ? m_crosshairText : QString();
}

bool ChartPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport()) {
        if (event->type() == QEvent::MouseMove && !m_lines.empty()) {
            const QPointF inChart =
                m_chart->mapFromScene(m_view->mapToScene(static_cast<QMouseEvent*>(event)->pos()));
            if (m_chart->plotArea().contains(inChart))
                showCrosshairAt(m_chart->mapToValue(inChart, m_series.front()).x());
            else
                hideCrosshair();
            // The run-details tooltip of the line under the mouse, shown once as it is entered.
            const int line = lineAt(static_cast<QMouseEvent*>(event)->pos());
            if (line != m_hoveredLine) {
                m_hoveredLine = line;
                m_plot->setEmphasised(line); // over the density, where a line cannot be told apart
                if (line >= 0)
                    QToolTip::showText(QCursor::pos(), seriesTooltip(line), m_view);
                else
                    QToolTip::hideText();
            }
        } else if (event->type() == QEvent::Wheel && !m_lines.empty()) {
            // The wheel zooms x around the mouse, as in every plotting tool; with Ctrl it goes on
            // to the board, which scrolls (as its scroll bar does).
            auto* wheel = static_cast<QWheelEvent*>(event);
            if (wheel->modifiers() & Qt::ControlModifier)
                return false;
            const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(wheel->position().toPoint()));
            const double at = m_chart->plotArea().contains(inChart)
                                  ? m_chart->mapToValue(inChart, m_series.front()).x()
                                  : (visibleXRange().first + visibleXRange().second) / 2;
            wheelZoom(at, wheel->angleDelta().y() / 120.0);
            // The lines moved under the mouse: the one under it now is the one drawn over a density.
            m_hoveredLine = lineAt(wheel->position().toPoint());
            m_plot->setEmphasised(m_hoveredLine);
            return true;
        } else if (event->type() == QEvent::Leave) {
            hideCrosshair();
            m_hoveredLine = -1;
            m_plot->setEmphasised(-1);
        }
    }
    return QWidget::eventFilter(watched, event);
}

int ChartPanel::lineAt(const QPoint& viewportPos) const {
    if (m_lines.empty())
        return -1;
    const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(viewportPos));
    const ChartPlotItem::Mapping& mapping = m_plot->mapping();
    if (!mapping.plot.contains(inChart) || mapping.xMax <= mapping.xMin)
        return -1;
    // The pixel columns around the mouse, in line units; each line's min and max there come from
    // its pyramid (exact, whatever the zoom), then back to pixels to compare with the mouse.
    constexpr double kReach = 4; // px: a 1 px line is hard to hit exactly
    const double axisPerPixel = (mapping.xMax - mapping.xMin) / mapping.plot.width();
    const double axisX = mapping.xMin + (inChart.x() - mapping.plot.left()) * axisPerPixel;
    const int64_t from = fromAxis(axisX - kReach * axisPerPixel),
                  to = fromAxis(axisX + kReach * axisPerPixel);
    std::vector<int64_t> t;
    std::vector<double> v;
    // The nearest line within reach (lines 3 px apart in a density: the one under the mouse, not
    // the one above it); of lines the mouse is on, the one drawn last, on top.
    int nearest = -1;
    double nearestDistance = kReach;
    for (size_t i = m_lines.size(); i-- > 0;) { // the last line is drawn on top
        if (!std::as_const(*m_plot).lines()[i].visible)
            continue;
        m_lines[i].pyramid.query(from, to, 1, t, v);
        // Where the line crosses the window without a point in it, its neighbours bound it.
        if (t.empty()) {
            const auto before = m_lines[i].pyramid.nearest(from), after = m_lines[i].pyramid.nearest(to);
            if (!before || !after || before->first > from || after->first < to)
                continue;
            v = {before->second, after->second};
        }
        const auto [low, high] = std::minmax_element(v.begin(), v.end());
        const double top = m_plot->toItem(QPointF(axisX, *high)).y();
        const double bottom = m_plot->toItem(QPointF(axisX, *low)).y();
        const double distance = std::max({0.0, top - inChart.y(), inChart.y() - bottom});
        if (distance > kReach || (nearest >= 0 && distance >= nearestDistance))
            continue;
        nearest = int(i);
        nearestDistance = distance;
        if (distance == 0)
            break;
    }
    return nearest;
}

QString ChartPanel::seriesTooltip(int series) const {
    if (series < 0 || series >= seriesCount())
        return QString();
    const ChartLine& line = m_lines[size_t(series)];
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QString html = QStringLiteral("<b>%1</b> — %2").arg(line.name.toHtmlEscaped(), m_key.toHtmlEscaped());
    if (line.bandLow)
        html += tr("<br><i>mean of %1 runs, band from min to max</i>").arg(line.runs.size());
    for (size_t index : line.runs) {
        const Run& run = m_runs[index].run;
        html += QStringLiteral("<hr><b>%1</b>")
                    .arg(toQString(run.name.empty() ? run.uuid : run.name).toHtmlEscaped());
        auto row = [&html](const QString& label, const std::string& value) {
            if (!value.empty())
                html += QStringLiteral("<br>%1: %2").arg(label, toQString(value).toHtmlEscaped());
        };
        row(tr("run"), run.uuid);
        row(tr("radT id"), seriesLabelOf(run).toStdString());
        row(tr("experiment"),
            (m_runs[index].experimentName.empty() ? std::string() : m_runs[index].experimentName + " ") +
                "(" + std::to_string(run.experimentId) + ")");
        row(tr("model"), run.model());
        row(tr("data"), run.data());
        const auto source = run.tags.find("mlflow.source.name");
        row(tr("source"), source == run.tags.end() ? std::string() : source->second);
        row(tr("status"), toString(run.status));
        html += QStringLiteral("<br>%1: %2")
                    .arg(tr("duration"), toQString(formatDuration(run.durationMs(now.toMSecsSinceEpoch()))));
        QStringList params;
        for (const auto& [key, value] : run.params)
            if (key != "workload" && key != "letter" && key != "model" && key != "data")
                params << toQString(key + "=" + value).toHtmlEscaped();
        if (!params.isEmpty())
            html += QStringLiteral("<br>%1: %2").arg(tr("params"), params.join(QStringLiteral(", ")));
    }
    return html;
}

void ChartPanel::refreshCrosshair() {
    // A crosshair shown before a zoom reads the new range where the mouse is, not a stale spot.
    if (m_crosshairBox->isVisible()) {
        const QPointF inChart =
            m_chart->mapFromScene(m_view->mapToScene(m_view->mapFromGlobal(QCursor::pos())));
        if (m_view->underMouse() && m_chart->plotArea().contains(inChart))
            showCrosshairAt(m_chart->mapToValue(inChart, m_series.front()).x());
        else if (m_view->underMouse())
            hideCrosshair();
        else if (const auto [lo, hi] = visibleXRange(); m_crosshairAxisX >= lo && m_crosshairAxisX <= hi)
            showCrosshairAt(m_crosshairAxisX); // set from code (tests, linked charts): same x
        else
            hideCrosshair();
    }
}

} // namespace radt
