// SPDX-License-Identifier: MIT
#pragma once
// A chart's legend and what stands in for it: the names in rows under the plot, in a column
// beside a wide one, or a note ("500 lines: hover for names") when they do not fit; and, for
// lines drawn as their density, the key to its shades above the plot. The plot gives up the room
// they take (the chart's margins).

#include <QString>

#include <vector>

class QFontMetrics;
class QGraphicsSimpleTextItem;

namespace QtCharts {
class QChart;
class QLineSeries;
} // namespace QtCharts

namespace radt {

class ChartEngine;
class ChartPlotItem;
class DensityKeyItem;

class ChartLegend {
public:
    /// Its note and density key, children of `chart`, hidden.
    explicit ChartLegend(QtCharts::QChart* chart);

    /// Lays the legend out for the engine's lines (`series`: their legend entries) at the
    /// chart's size, and tells `plot` the count a density's shades run to.
    void layout(const ChartEngine& engine, const std::vector<QtCharts::QLineSeries*>& series,
                ChartPlotItem& plot);
    /// The lines' names changed since the last layout (a zoom frame lays out only then).
    void markStale() { m_stale = true; }
    bool isStale() const { return m_stale; }
    /// What stands in for a legend too tall for the chart; empty while the legend is shown.
    QString note() const;
    /// The key above a chart drawn as its density ("1 … 500 lines through a pixel"); empty otherwise.
    QString densityKey() const;

private:
    /// Each line's legend entry says its name in `width` pixels at most (elideInCommonPrefix).
    void shortenMarkerLabels(const std::vector<QtCharts::QLineSeries*>& series, const QFontMetrics& metrics,
                             int width);

    QtCharts::QChart* m_chart;
    QGraphicsSimpleTextItem* m_note; ///< in place of a legend too tall for the chart
    DensityKeyItem* m_densityKey;    ///< beside the note: what a density's shades mean
    bool m_stale = true;
};

} // namespace radt
