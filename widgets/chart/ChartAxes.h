// SPDX-License-Identifier: MIT
#pragma once
// A chart's axes: x as a value axis (time since start, steps, epochs) or a date-time axis (wall
// clock), y as a value or log axis, kept in the chart while they are the right kind. Their
// ranges, ticks on round numbers sized to the plot, titles, and where they put values
// (PlotMapping, what ChartPlotItem draws by).

#include "widgets/chart/engine/ChartLines.h"
#include "widgets/chart/engine/PlotFrame.h"

#include <QSizeF>

#include <cstdint>
#include <utility>

class QObject;

namespace QtCharts {
class QAbstractAxis;
class QChart;
class QDateTimeAxis;
class QLogValueAxis;
class QValueAxis;
} // namespace QtCharts

namespace radt {

class ChartEngine;

class ChartAxes {
public:
    /// Makes the four axes (owned by `owner`) and adds the value axes to `chart`.
    ChartAxes(QtCharts::QChart* chart, QObject* owner);

    QtCharts::QAbstractAxis* x(ChartOptions::XAxis kind) const;
    QtCharts::QAbstractAxis* y(bool logY) const;
    QtCharts::QValueAxis* valueX() const { return m_x; }
    QtCharts::QDateTimeAxis* timeX() const { return m_xTime; }
    QtCharts::QValueAxis* valueY() const { return m_y; }
    QtCharts::QLogValueAxis* logY() const { return m_logY; }

    /// Puts the kinds `options` wants in the chart, removing the others (QtCharts leaves a stale
    /// drawing of an axis behind when one is removed and added again, so a kind that stays, stays).
    void useKinds(const ChartOptions& options);
    /// Shows or hides the axes in use, and titles them.
    void show(const ChartOptions& options, bool hasData, const QString& xTitle, const QString& yTitle);
    /// x over [from, to] (line units): ticks on round numbers, `intervals` of them; a zoom
    /// keeps exactly its range, the whole range widens to round ends.
    void setXRange(const ChartEngine& engine, int64_t from, int64_t to, bool zoomed, int intervals);
    /// y over [yMin, yMax]: the decades spanned on a log axis, round numbers with a tick per
    /// ~30 px of `plot`'s height otherwise.
    void setYRange(bool logY, double yMin, double yMax, const QSizeF& plot);
    /// x's visible range in axis units (seconds, steps or ms since the epoch).
    std::pair<double, double> visibleX(ChartOptions::XAxis kind) const;
    /// Where the axes put values in `plotArea`.
    PlotMapping mapping(const QRectF& plotArea, const ChartOptions& options) const;

private:
    QtCharts::QChart* m_chart;
    QtCharts::QValueAxis* m_x;
    QtCharts::QDateTimeAxis* m_xTime; ///< the wall-clock x axis
    QtCharts::QValueAxis* m_y;
    QtCharts::QLogValueAxis* m_logY;
};

} // namespace radt
