// SPDX-License-Identifier: MIT
#pragma once
// One chart of the board: a metric over the basket's runs (resources/DESIGN.md §8, §9), as a
// widget around its ChartEngine (widgets/chart/engine: the runs, lines, zoom, frames and hit
// testing, without a widget). The widget holds what is on screen: QtCharts' chart and view, its
// axes (ChartAxes), legend (ChartLegend), crosshair (ChartCrosshair), the plot item that paints
// each frame (ChartPlotItem) and the overview navigator; it turns mouse, wheel and resize into
// engine calls and paints what they give. Per chart: EMA smoothing, log y, monochrome, line width,
// x as time since start, step, wall clock or epoch, workloads merged or as mean with a min–max
// band, legend clicks hide series, rubber-band and wheel x zoom at full resolution, a crosshair
// reading every line at the cursor, and a detailed tooltip per line.

#include "widgets/chart/engine/ChartDescription.h" // what the chart says about its lines
#include "widgets/chart/engine/ChartEngine.h"

#include <QImage>
#include <QPointF>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QPainter;

namespace QtCharts {
class QChart;
class QChartView;
class QLineSeries;
} // namespace QtCharts

namespace radt {

class ChartAxes;
class ChartCrosshair;
class ChartLegend;
class ChartNavigator;
class ChartPlotItem;

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);
    ~ChartPanel() override;

    /// What the chart shows and computes: runs, lines, options, zoom, names, tooltips.
    const ChartEngine& engine() const { return m_engine; }
    /// Where its lines' colours come from: a board gives all its charts one, so a run is one
    /// colour in each; a chart on its own keeps its own.
    void setLineColours(std::shared_ptr<LineColours> colours);

    /// A load of `metricKey` has started (off the GUI thread): the chart names it at once and
    /// says so in its title; the lines shown stay until setData replaces them.
    void setLoading(const QString& metricKey);
    /// Shows runs read by readChartRuns (on the GUI thread).
    void setData(std::vector<ChartRunData> runs, const QString& metricKey);
    /// Shows runs that do not come from the open store (a board file carries its data), with
    /// the board's options and zoom. Such a chart keeps its data when the basket changes.
    void showDetached(std::vector<ChartRunData> runs, const QString& metricKey, const ChartOptions& options,
                      std::optional<LineRange> zoom);
    /// Removes every line and shows `hint` in their place.
    void clear(const QString& hint = QString());
    /// Plot width in pixel columns: what readChartRuns' `columns` should be.
    int plotColumns() const;

    /// Follows running runs (recorded by this or another process or machine) in three steps, so
    /// that the store is read off the GUI thread (ChartLoader::requestPoll): what to ask
    /// (engine().livePollQueries()), the reading (readLivePoll, any thread), and drawing what
    /// came: rows read for `metricKey`, keeping a zoom the user chose (otherwise the x range
    /// follows the newest data). Returns whether anything changed (rows or a status).
    bool applyLivePoll(const QString& metricKey, const std::vector<LivePollResult>& results);
    /// Points of a run recorded in this process, straight from the live bus (resources/DESIGN.md §8):
    /// the chart's metric among them is drawn at once; the store confirms them later
    /// (applyLivePoll). Returns whether anything was drawn.
    bool appendLive(const std::string& runUuid, const std::vector<MetricPoint>& points);
    /// What a settled zoom into runs held as envelopes should read again, finer; nullopt when
    /// nothing (ChartEngine::detailQuery at this plot's width).
    std::optional<ChartDetailQuery> detailQuery();
    /// Splices what readChartDetail read into the runs over their ranges and redraws.
    void applyDetail(const ChartDetailQuery& query, std::vector<ChartDetail> details);

    /// Changes some options (the options bar, the legend, a board): the lines are made again
    /// when what they are changed, only restyled for monochrome, line width and hidden series. New
    /// options as a whole: `changeOptions([&](ChartOptions& o) { o = options; })`.
    void changeOptions(const std::function<void(ChartOptions&)>& change);

    /// Zooms the x axis to [from, to] (axis units: the seconds, minutes or hours the x axis'
    /// title names, steps, epochs) at full resolution.
    void zoomX(double from, double to);
    void resetZoom();
    /// Another chart's zoom, when boards link their x axes: applied only when this chart has
    /// the same kind of x axis; emits nothing (no echo between linked charts).
    void applyLinkedZoom(ChartOptions::XAxis axis, std::optional<LineRange> range);
    /// The x axis' visible range in axis units (seconds, steps or ms since the epoch).
    std::pair<double, double> visibleXRange() const;

    /// Crosshair at an x value (axis units): every visible line's nearest value there, as the
    /// mouse shows it. Returns the text shown; "" when nothing is plotted.
    QString showCrosshairAt(double axisX);
    ChartCrosshair& crosshair() const { return *m_crosshair; }
    /// The legend, or what stands in for it (a note, a density's key).
    const ChartLegend& legend() const { return *m_legend; }

    /// Points drawn for a series in the last frame (after smoothing and decimation), axis units.
    QVector<QPointF> seriesPoints(int series) const;
    /// Draws the chart laid out at `size` onto any paint device (image, SVG, PDF) into `target`
    /// (default: the rectangle at the origin of that size). Vector devices get vector output.
    void render(QPainter& painter, const QSize& size, const QRectF& target = QRectF());
    /// The line under a point of the view's viewport (within a few pixels), topmost first; -1
    /// for none. Read from the lines' pyramids at that pixel column, not from what was drawn.
    int lineAt(const QPoint& viewportPos) const;
    /// The runs a right-click at a point of the viewport offers Details of: those of the legend
    /// entry the mouse is over, else of the line under the point; empty for neither.
    QStringList runUuidsAt(const QPoint& viewportPos) const;

    QtCharts::QChart* chart() const { return m_chart; }
    QtCharts::QChartView* chartView() const { return m_view; }
    ChartPlotItem* plotItem() const { return m_plot; }
    ChartNavigator* navigator() const { return m_navigator; }

signals:
    void optionsChanged();
    /// The user zoomed or reset the zoom (rubber band, navigator, wheel, zoomX, resetZoom).
    void userZoomChanged();
    /// A zoom settled on runs held as envelopes: detailQuery() says what to read (ChartLoader does).
    void detailWanted();
    /// Details in the context menu of a legend entry or a line: show that run's details.
    void detailsRequested(const QString& runUuid);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The engine's lines onto the chart: legend entries, axes of the right kind, style, a frame.
    void showLines();
    /// Colours, dashes, widths and hidden lines into the legend and the plot item.
    void styleSeries();
    /// A frame: every line's points for the visible range into the plot item, the axes ranged.
    void requery();
    void setUserZoom(std::optional<LineRange> range);
    /// A crosshair shown before a zoom reads the new range where the mouse is (or hides).
    void refreshCrosshair();
    QSizeF plotSize() const; ///< the plot's size for tick counts, also before the first layout

    ChartEngine m_engine;
    QtCharts::QChart* m_chart = nullptr;
    QtCharts::QChartView* m_view = nullptr;
    std::unique_ptr<ChartAxes> m_axes;
    std::unique_ptr<ChartLegend> m_legend;
    std::unique_ptr<ChartCrosshair> m_crosshair;
    ChartNavigator* m_navigator = nullptr;
    /// One per line, same order: empty, they give the legend its entries and colours.
    std::vector<QtCharts::QLineSeries*> m_series;
    ChartPlotItem* m_plot = nullptr; ///< draws the lines and bands
    int m_hoveredLine = -1;          ///< the line whose tooltip shows
    int m_hoveredEntry = -1;         ///< the line whose legend entry the mouse is over
    bool m_rendering = false;        ///< render() has laid the chart out at an export's size
    bool m_updatingAxes = false;     ///< QtCharts re-ranging the axes is not the user zooming
    QTimer m_requeryTimer;           ///< coalesces resizes and zoom steps (~40 ms)
    QTimer m_detailTimer;            ///< a zoom settles before its range is read again
};

/// The chart drawn at `size`, whether or not the panel is on screen.
QImage renderToImage(ChartPanel& panel, const QSize& size);

} // namespace radt
