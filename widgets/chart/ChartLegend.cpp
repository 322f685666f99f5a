// SPDX-License-Identifier: MIT
#include "widgets/chart/ChartLegend.h"
#include "widgets/chart/engine/ChartDescription.h"

#include "widgets/chart/ChartPlotItem.h"
#include "widgets/chart/engine/ChartEngine.h"
#include "widgets/chart/engine/LineDensity.h"
#include "widgets/common/TableLayout.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

#include <algorithm>
#include <cmath>

using namespace QtCharts;

namespace radt {

ChartLegend::ChartLegend(QChart* chart)
    : m_chart(chart), m_note(new QGraphicsSimpleTextItem(chart)), m_densityKey(new DensityKeyItem(chart)) {
    m_note->setBrush(QColor(90, 90, 90));
    m_note->hide();
    m_densityKey->hide();
}

void ChartLegend::shortenMarkerLabels(const std::vector<QLineSeries*>& series, const QFontMetrics& metrics,
                                      int width) {
    QStringList names;
    for (const QLineSeries* s : series)
        names << s->name();
    const QStringList shown = elideInCommonPrefix(names, metrics, std::max(40, width));
    for (size_t i = 0; i < series.size(); ++i)
        for (QLegendMarker* marker : m_chart->legend()->markers(series[i]))
            if (marker->label() != shown[int(i)])
                marker->setLabel(shown[int(i)]);
}

void ChartLegend::layout(const ChartEngine& engine, const std::vector<QLineSeries*>& series,
                         ChartPlotItem& plot) {
    m_stale = false;
    QLegend* legend = m_chart->legend();
    const QRectF area(QPointF(0, 0), m_chart->size());
    const bool hasLines = !engine.lines().empty() && !series.empty();
    // More names than could fit under the plot even at 7 pt (their widths summed into rows), nor
    // in a column: the legend is not laid out at all. Each layout places every marker (170 ms
    // for 500 lines, on every chart opened).
    bool cannotFit = !hasLines;
    if (hasLines) {
        QFont small = m_chart->font();
        small.setPointSizeF(7);
        const QFontMetricsF metrics(small);
        double widths = 0;
        for (const QLineSeries* s : series)
            widths += metrics.horizontalAdvance(s->name()) + 20; // the marker and the gap
        const double rowHeight = metrics.height() + 2;
        const double rows = std::ceil(widths / std::max(1.0, area.width() - 16));
        cannotFit =
            rows * rowHeight > area.height() * 0.4 && double(series.size()) * rowHeight > area.height() - 16;
    }
    legend->setVisible(hasLines && !cannotFit);
    m_note->setVisible(false);
    m_densityKey->setVisible(false);
    QMargins margins(8, 4, 16, 4); // the plot has the height: a thin frame
    // Lines drawn as their density: the key to its shades above the plot, on the right, and
    // the plot item told the count its shades run to (one count for both). The legend stays
    // where it fits: its entries hide and show lines, and name the colour a hovered line takes.
    const int density = densityLines(engine);
    plot.setDensityTotal(hasLines && density > kDensityAbove ? density : 0);
    qreal keyHeight = 0;
    if (plot.densityTotal() > 0) {
        QFont font = m_chart->font();
        font.setPointSizeF(font.pointSizeF() > 0 ? font.pointSizeF() : 9);
        m_densityKey->setKey(density, engine.options().monochrome, font, true);
        if (m_densityKey->boundingRect().width() > area.width() - 24) // a narrow chart: no caption
            m_densityKey->setKey(density, engine.options().monochrome, font, false);
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
            // Names wider than the column lose the middle of the prefix they share, then their
            // own middle: "iters=60 ru…=1 (N=3)", never QtCharts' "iters=60 runs_per_gpu=1 (…"
            // that hides the N and whatever tells the lines apart at their end.
            shortenMarkerLabels(series, QFontMetrics(font), int(most) - 40);
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
        if (!cannotFit) {
            legend->setAlignment(Qt::AlignTop);
            shortenMarkerLabels(series, QFontMetrics(font), int(area.width()) - 56); // one a row at most
        }
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
            m_note->setFont(font);
            m_note->setText(QChart::tr("%n lines: hover for names", nullptr, int(series.size())));
            height = m_note->boundingRect().height() + 4;
            m_note->setPos(8, area.height() - height - 2);
        }
        m_note->setVisible(!fits);
        margins.setBottom(4 + int(std::ceil(height)));
    }
    if (m_chart->margins() != margins)
        m_chart->setMargins(margins);
}

QString ChartLegend::densityKey() const {
    return m_densityKey->isVisible() ? QStringLiteral("1 … ") + m_densityKey->caption() : QString();
}

QString ChartLegend::note() const {
    return m_note->isVisible() ? m_note->text() : QString();
}

} // namespace radt
