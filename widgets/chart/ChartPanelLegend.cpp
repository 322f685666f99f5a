// A chart's furniture: its legend's place (rows under the plot, a column beside a wide one, or a
// note when the names do not fit), its axes' titles, ranges and tick counts, and what it says when
// it draws nothing. The rest of ChartPanel is in ChartPanel.cpp.

#include "widgets/chart/ChartPanel.h"

#include "core/base/InsightSeries.h"
#include "widgets/chart/ChartPlotItem.h"
#include "widgets/chart/engine/LineDensity.h"
#include "widgets/common/Formatting.h"

#include <QChart>
#include <QDateTimeAxis>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

using namespace QtCharts;

namespace radt {

QString ChartPanel::xAxisTitle() const {
    switch (m_options.xAxis) {
    case ChartOptions::XAxis::Step:
        return tr("step");
    case ChartOptions::XAxis::WallClock:
        return tr("wall clock");
    case ChartOptions::XAxis::Epoch:
        for (const ChartRunData& r : m_runs)
            if (!r.epochKey.empty())
                return tr("epoch (from %1)").arg(displayName(toQString(r.epochKey)));
        return tr("epoch (these runs log no stepped software metric)");
    case ChartOptions::XAxis::SinceStart:
        break;
    }
    return m_msPerTimeUnit >= 3600000.0 ? tr("time since start (h)")
           : m_msPerTimeUnit >= 60000.0 ? tr("time since start (min)")
                                        : tr("time since start (s)");
}

QString ChartPanel::emptyChartMessage() const {
    const bool hasPoints =
        std::any_of(m_runs.begin(), m_runs.end(), [](const ChartRunData& r) { return !r.series.empty(); });
    if (hasPoints && m_options.xAxis == ChartOptions::XAxis::Epoch) {
        // The points are there; the epoch axis cannot place them. Say why, and what to do.
        if (!insight::isHardwareKey(m_key.toStdString()))
            return tr("\"%1\" is logged by step: the epoch axis places hardware samples; choose the step "
                      "axis")
                .arg(displayName(m_key, 60));
        return tr("These runs log no epochs (no stepped software metric such as loss): choose the time or "
                  "step axis");
    }
    return tr("No data for \"%1\" in the basket's runs").arg(displayName(m_key));
}

void ChartPanel::layoutLegend() {
    m_legendStale = false;
    QLegend* legend = m_chart->legend();
    const QRectF area(QPointF(0, 0), m_chart->size());
    const bool hasLines = !m_lines.empty() && !m_series.empty();
    // More names than could fit under the plot even at 7 pt (their widths summed into rows), nor
    // in a column: the legend is not laid out at all. Each layout places every marker (170 ms
    // for 500 lines, on every chart opened).
    bool cannotFit = !hasLines;
    if (hasLines) {
        QFont small = m_chart->font();
        small.setPointSizeF(7);
        const QFontMetricsF metrics(small);
        double widths = 0;
        for (const QLineSeries* series : m_series)
            widths += metrics.horizontalAdvance(series->name()) + 20; // the marker and the gap
        const double rowHeight = metrics.height() + 2;
        const double rows = std::ceil(widths / std::max(1.0, area.width() - 16));
        cannotFit = rows * rowHeight > area.height() * 0.4 &&
                    double(m_series.size()) * rowHeight > area.height() - 16;
    }
    legend->setVisible(hasLines && !cannotFit);
    m_legendNote->setVisible(false);
    m_densityKey->setVisible(false);
    QMargins margins(8, 4, 16, 4); // the plot has the height: a thin frame
    // Lines drawn as their density: the key to its shades above the plot, on the right, and
    // the plot item told the count its shades run to (one count for both). The legend stays
    // where it fits: its entries hide and show lines, and name the colour a hovered line takes.
    const int density = densityLines();
    m_plot->setDensityTotal(hasLines && density > ChartPlotItem::kDensityAbove ? density : 0);
    qreal keyHeight = 0;
    if (m_plot->densityTotal() > 0) {
        QFont font = m_chart->font();
        font.setPointSizeF(font.pointSizeF() > 0 ? font.pointSizeF() : 9);
        m_densityKey->setKey(density, m_options.monochrome, font, true);
        if (m_densityKey->boundingRect().width() > area.width() - 24) // a narrow chart: no caption
            m_densityKey->setKey(density, m_options.monochrome, font, false);
        keyHeight = m_densityKey->boundingRect().height() + 4;
        m_densityKey->setPos(std::max(8.0, area.width() - 16 - m_densityKey->boundingRect().width()), 4);
        m_densityKey->setVisible(true);
        margins.setTop(4 + int(std::ceil(keyHeight)));
    }
    if (hasLines && area.width() > 40) {
        // The markers' extent once laid out in `rect`: the room the names need.
        auto used = [&](const QRectF& rect) {
            legend->setGeometry(rect);
            if (QGraphicsLayout* layout = legend->layout()) {
                layout->invalidate(); // a new font or alignment, the same geometry: lay out again, now
                layout->activate();
            }
            QRectF extent;
            for (QGraphicsItem* child : legend->childItems())
                if (child->isVisible())
                    extent |= child->mapRectToParent(child->childrenBoundingRect());
            return extent.size() + QSizeF(2, 2);
        };
        QFont font = m_chart->font();
        const qreal full = font.pointSizeF() > 0 ? font.pointSizeF() : 9;
        font.setPointSizeF(full);
        if (!cannotFit)
            legend->setFont(font);
        // A wide chart (one board column) keeps its height for the plot: the names in a column on
        // the right, where width is cheap, if they fit in a third of it.
        if (!cannotFit && area.width() >= 560 && area.width() >= 2.2 * area.height()) {
            legend->setAlignment(Qt::AlignRight);
            const qreal most = area.width() / 3, tall = area.height() - 16 - keyHeight;
            const QSizeF need = used(QRectF(area.width() - most - 8, 8 + keyHeight, most, tall));
            if (need.width() <= most && need.height() <= tall) {
                // A few pixels more than the names took: laid out again at exactly their width,
                // QtCharts would cut them to "seed=1 iters…".
                const qreal width = std::min(most, need.width() + 40);
                legend->setGeometry(QRectF(area.width() - width - 8, 8 + keyHeight, width, tall));
                margins.setRight(16 + int(std::ceil(width)));
                if (m_chart->margins() != margins)
                    m_chart->setMargins(margins);
                return;
            }
        }
        // Under the plot in rows; a narrow chart with many lines first tries a smaller font
        // before the plot gives up more than a third.
        if (!cannotFit)
            legend->setAlignment(Qt::AlignTop);
        const qreal width = area.width() - 16;
        qreal height = 0;
        for (qreal size = full; !cannotFit && size >= std::min(full, 7.0); size -= 1) {
            font.setPointSizeF(size);
            legend->setFont(font);
            height = used(QRectF(8, 0, width, area.height())).height();
            if (height <= area.height() / 3)
                break;
        }
        // Still too many: a legend showing some names would hide which are missing. One line says
        // where the names are; the plot keeps its room.
        const bool fits = !cannotFit && height <= area.height() * 0.4;
        if (!cannotFit)
            legend->setGeometry(QRectF(8, area.height() - height - 4, width, height));
        legend->setVisible(fits);
        if (!fits) {
            m_legendNote->setFont(font);
            m_legendNote->setText(tr("%n lines: hover for names", nullptr, int(m_series.size())));
            height = m_legendNote->boundingRect().height() + 4;
            m_legendNote->setPos(8, area.height() - height - 2);
        }
        m_legendNote->setVisible(!fits);
        margins.setBottom(4 + int(std::ceil(height)));
    }
    if (m_chart->margins() != margins)
        m_chart->setMargins(margins);
}

QString ChartPanel::whyNothingIsDrawn() const {
    return m_lines.empty() && !m_key.isEmpty() ? emptyChartMessage() : QString();
}

QString ChartPanel::lineOfRun(const std::string& uuid) const {
    for (const ChartLine& line : m_lines)
        for (size_t r : line.runs)
            if (r < m_runs.size() && m_runs[r].run.uuid == uuid)
                return line.name;
    return QString();
}

int ChartPanel::densityLines() const {
    return int(std::count_if(m_lines.begin(), m_lines.end(), [this](const ChartLine& line) {
        return !m_options.hiddenSeries.count(line.name) && line.pyramid.size() > 1;
    }));
}

QString ChartPanel::densityKey() const {
    return m_densityKey->isVisible() ? QStringLiteral("1 … ") + m_densityKey->caption() : QString();
}

QString ChartPanel::legendNote() const {
    return m_legendNote->isVisible() ? m_legendNote->text() : QString();
}

QSizeF ChartPanel::plotSize() const {
    // A panel never shown has had no layout: its own size, less the axes' and legend's usual room.
    if (!isVisible() && !m_rendering)
        return QSizeF(std::max(100, width() - 90), std::max(100, height() - 120));
    return m_chart->plotArea().size();
}

int ChartPanel::xTickIntervals() const {
    // About 80 px per label ("00:00:00", "12.5k" and a gap) of the plot's width.
    const qreal width = plotSize().width();
    return std::clamp(int(width / 80), 2, 6);
}

void ChartPanel::updateAxes(double yMin, double yMax) {
    if (m_options.logY) {
        // The decades the data spans, no more: 40..100 is drawn on 10..100, not 10..1000.
        const double lo = yMin > 0 ? yMin : 1e-3;
        const double low = std::pow(10, std::floor(std::log10(lo)));
        double high = std::pow(10, std::ceil(std::log10(std::max(yMax, lo))));
        if (high <= low)
            high = low * 10;
        m_logY->setRange(low, high);
        return;
    }
    if (yMax <= yMin) {
        const double pad = yMin == 0 ? 1 : std::abs(yMin) * 0.1;
        yMin -= pad;
        yMax += pad;
    }
    m_y->setRange(yMin, yMax);
    // About 30 px per label of the plot's height: a short plot has fewer, never labels cut to "…".
    m_y->setTickCount(std::clamp(int(plotSize().height() / 30), 2, 5) + 1);
    m_y->applyNiceNumbers();
}

} // namespace radt
