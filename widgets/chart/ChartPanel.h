#pragma once
// One chart of the board: a metric over the basket's runs (resources/DESIGN.md §8, §9). Runs of one workload
// are merged into one series named by the workload, as radT's front end does, unless the
// workload's runs are shown one by one. Per chart: EMA smoothing, log y, monochrome, line width,
// x as time since start, step or wall clock, workloads merged or as mean with a min–max band,
// legend clicks hide series, rubber-band x zoom at full resolution with an overview navigator,
// a crosshair reading every line at the cursor, and a detailed tooltip per line.
// Points reach the screen only through a min/max pyramid: at most 2 per pixel column, drawn by
// ChartPlotItem over the QtCharts axes (the QLineSeries stay, empty, for the legend).

#include "widgets/chart/engine/ChartLines.h"
#include "widgets/chart/engine/ChartReads.h"
#include "widgets/chart/engine/LineColours.h"

#include <QImage>
#include <QPointF>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QGraphicsLineItem;
class QPainter;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QGraphicsTextItem;

namespace QtCharts {
class QChart;
class QChartView;
class QDateTimeAxis;
class QValueAxis;
class QLogValueAxis;
class QLineSeries;
class QAbstractAxis;
} // namespace QtCharts

namespace radt {

class ChartNavigator;
class ChartPlotItem;
class DensityKeyItem;

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);
    /// Where its lines' colours come from: a board gives all its charts one, so a run is one
    /// colour in each; a chart on its own keeps its own.
    void setLineColours(std::shared_ptr<LineColours> colours);
    /// The keys its lines are coloured by: "run:<uuid>" for a run, "workload:<key>" for a merge.
    QStringList colourKeys() const;
    ~ChartPanel() override;

    /// A load of `metricKey` has started (off the GUI thread): the chart names it at once and
    /// says so in its title; the lines shown stay until setData replaces them.
    void setLoading(const QString& metricKey);
    bool isLoading() const { return m_loading; }
    /// Shows runs read by readChartRuns (on the GUI thread).
    void setData(std::vector<ChartRunData> runs, const QString& metricKey);
    const std::vector<ChartRunData>& runs() const { return m_runs; }
    /// Shows runs that do not come from the open store (a board file carries its data), with
    /// the board's options and zoom. Such a chart keeps its data when the basket changes.
    void showDetached(std::vector<ChartRunData> runs, const QString& metricKey, const ChartOptions& options,
                      std::optional<std::pair<int64_t, int64_t>> zoom);
    bool isDetached() const { return m_detached; }
    /// Plot width in pixel columns: what readChartRuns' `columns` should be.
    int plotColumns() const;
    /// Removes every line and shows `hint` in their place.
    void clear(const QString& hint = QString());
    /// Follows running runs (recorded by this or another process or machine) in three steps, so
    /// that the store is read off the GUI thread (ChartLoader::requestPoll): what to ask (GUI
    /// thread), the reading (readLivePoll, any thread), and drawing what came (GUI thread).
    /// The running runs and where their confirmed rows end; empty when nothing is followed.
    std::vector<LivePollQuery> livePollQueries() const;
    /// Draws rows read for `metricKey`, keeping a zoom the user chose (otherwise the x range
    /// follows the newest data); a result for another metric, or for a run whose rows moved on
    /// since it was asked, is left out. Returns whether anything changed (rows or a status).
    bool applyLivePoll(const QString& metricKey, const std::vector<LivePollResult>& results);
    /// Points of a run recorded in this process, straight from the live bus (resources/DESIGN.md §8): the
    /// chart's metric among them is appended and drawn at once; the store confirms them later
    /// (applyLivePoll). Returns whether anything was drawn.
    bool appendLive(const std::string& runUuid, const std::vector<MetricPoint>& points);
    /// True while any plotted run is RUNNING.
    bool hasRunningRuns() const;
    /// What a zoom into runs held as envelopes (ChartRunData::reduced) should read again, finer
    /// (ChartPanelDetail.cpp); nullopt when nothing: no zoom, no reduced run, steps or epochs on
    /// x, or a range already read. Each query is a new generation.
    std::optional<ChartDetailQuery> detailQuery();
    /// Splices what readChartDetail read into the runs over their ranges and redraws; a query
    /// older than the newest, or from before the chart's data changed, is ignored.
    void applyDetail(const ChartDetailQuery& query, std::vector<ChartDetail> details);

    const ChartOptions& options() const { return m_options; }
    void setOptions(const ChartOptions& options);
    void setSmoothing(int percent);
    void setLogY(bool on);
    void setMonochrome(bool on);
    void setLineWidth(double width);
    void setXAxis(ChartOptions::XAxis axis);
    void setAggregate(ChartOptions::Aggregate aggregate);
    void setNaming(ChartOptions::Naming naming);
    void setDense(ChartOptions::Dense dense);
    /// Whether line i is drawn as its mean with the min–max range (ChartOptions::Dense) now.
    bool drawnAsRange(size_t i) const;
    /// Shows the runs of a workload one by one (or merged again).
    void setShowRuns(const QString& workloadKey, bool individually);
    void setSeriesHidden(const QString& name, bool hidden);
    /// Workload keys of the plotted runs, and their display names ("1", "7").
    QStringList workloadKeys() const;
    /// "Workload 3", with the experiment's name when the chart shows runs of several.
    QString workloadTitle(const QString& workloadKey) const;

    /// Zooms the x axis to [from, to] (axis units: the seconds, minutes or hours xAxisTitle()
    /// names, steps, epochs) at full resolution.
    void zoomX(double from, double to);
    /// The mouse wheel over the plot: `steps` notches (positive: in) around `axisX`, in axis units.
    void wheelZoom(double axisX, double steps);
    void resetZoom();
    bool isZoomed() const { return m_zoom.has_value(); }
    /// The zoomed x range in line units (ms since start, steps or ms since the epoch).
    std::optional<std::pair<int64_t, int64_t>> zoomRange() const { return m_zoom; }
    /// Another chart's zoom, when boards link their x axes: applied only when this chart has
    /// the same kind of x axis; emits nothing (no echo between linked charts).
    void applyLinkedZoom(ChartOptions::XAxis axis, std::optional<std::pair<int64_t, int64_t>> range);
    /// The x axis' visible range in axis units (seconds, steps or ms since the epoch).
    std::pair<double, double> visibleXRange() const;

    /// Crosshair at an x value (axis units): every visible line's nearest value there, as the
    /// mouse shows it. Returns the text shown; "" when nothing is plotted.
    QString showCrosshairAt(double axisX);
    void hideCrosshair();
    QString crosshairText() const;
    /// Where the crosshair's box is (chart coordinates); empty when it is hidden.
    QRectF crosshairBoxRect() const;
    /// The detailed tooltip of a line: its runs' experiment, model, source, status, params.
    QString seriesTooltip(int series) const;
    /// Lines drawn with a min–max band (Aggregate::MeanBand); the band's two edges (also a dense
    /// line's range, drawnAsRange()).
    bool hasBand(int series) const;
    QVector<QPointF> bandPoints(int series, bool upper) const;
    ChartNavigator* navigator() const { return m_navigator; }

    int seriesCount() const;
    QStringList seriesNames() const;
    /// Points drawn for a series (after smoothing and decimation), in axis units.
    int pointCount(int series) const;
    QVector<QPointF> seriesPoints(int series) const;
    bool seriesVisible(int series) const;
    QString metricKey() const { return m_key; }
    /// The x axis' title as drawn ("time since start (s)", "step", "wall clock").
    QString xAxisTitle() const;
    /// The chart drawn at `size`, whether or not the panel is on screen.
    QImage renderToImage(const QSize& size);
    /// Draws the chart laid out at `size` onto any paint device (image, SVG, PDF) into `target`
    /// (default: the rectangle at the origin of that size). Vector devices get vector output.
    void render(QPainter& painter, const QSize& size, const QRectF& target = QRectF());

    /// The line under a point of the view's viewport (within a few pixels), topmost first; -1
    /// for none. Read from the lines' pyramids at that pixel column, not from what was drawn.
    int lineAt(const QPoint& viewportPos) const;

    QtCharts::QChart* chart() const { return m_chart; }
    /// What stands in for a legend too tall for the chart ("9 lines: hover for names"); empty
    /// while the legend itself is shown.
    QString legendNote() const;
    /// The key above a chart drawn as its density ("1 … 500 lines through a pixel"); empty when
    /// the lines are drawn each in its colour.
    QString densityKey() const;
    /// Why a chart with a metric draws no line ("These runs log no epochs ..."); empty when it
    /// draws one, or has no metric yet. An export of such a chart would be a picture of the message.
    QString whyNothingIsDrawn() const;
    /// The name of the line that draws run `uuid` (its legend entry); empty when none does.
    QString lineOfRun(const std::string& uuid) const;
    ChartPlotItem* plotItem() const { return m_plot; }
    QtCharts::QChartView* chartView() const { return m_view; }

    /// Legend name of a single run (seriesLabelOf: radT's rule).
    static QString seriesLabel(const Run& run) { return seriesLabelOf(run); }

signals:
    void optionsChanged();
    /// The user zoomed or reset the zoom (rubber band, navigator, zoomX, resetZoom).
    void userZoomChanged();
    /// A zoom settled on runs held as envelopes: detailQuery() says what to read (ChartLoader does).
    void detailWanted();

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild(); ///< lines from runs and options
    /// New data: what was read finer is gone, and a detail read under way lands nowhere.
    void forgetDetail() {
        ++m_detailGeneration;
        m_detailedRange.reset();
        m_detailTimer.stop();
    }
    /// Grows the line of m_runs[runIndex] by its points from `from` on, without a rebuild;
    /// false when the line cannot grow in place (merged with other runs, log y, out of order).
    bool extendLine(size_t runIndex, size_t from);
    void redrawAfterAppend(bool rebuildNeeded);
    void requery(); ///< points for the visible range into the QtCharts series
    /// Every line's points for [from, to] at `columns` into the plot item (ChartPanelFetch.cpp);
    /// the visible lines' lowest and highest value.
    std::pair<double, double> fetchLines(int64_t from, int64_t to, int columns);
    /// The visible lines of more than one point: drawn as their density past kDensityAbove.
    int densityLines() const;
    /// A crosshair shown before a zoom reads the new range where the mouse is (or hides).
    void refreshCrosshair();
    void updateNavigator();
    void styleSeries();
    /// The legend under the plot in as many rows as its names need (QtCharts' own legend keeps
    /// one row and cuts every name to "iters…"); the plot gives up that height.
    void layoutLegend();
    /// Intervals between x ticks: fewer in a narrow chart, so labels are never cut to "…".
    int xTickIntervals() const;
    QSizeF plotSize() const; ///< the plot's size for tick counts, also before the first layout
    void updateAxes(double yMin, double yMax);
    /// Tells the plot item where the axes put values (after a range or layout change).
    void syncPlotMapping();
    void setUserZoom(std::optional<std::pair<int64_t, int64_t>> range);
    QtCharts::QAbstractAxis* xAxisObject() const;
    double lineUnitsPerAxisUnit() const;
    double toAxis(int64_t x) const;
    int64_t fromAxis(double x) const;
    QColor lineColour(size_t line) const;
    /// A visible line's value nearest x (line units), none before its first point or after its last.
    std::optional<double> shownValueAt(const ChartLine& line, int64_t x) const;
    /// The crosshair box's top: the top of the plot, or its bottom when fewer lines pass there.
    double crosshairBoxTop(double axisX, double boxLeft, const QSizeF& box) const;
    size_t colourIndex(size_t line) const;
    QString colourKey(size_t line) const;

    std::shared_ptr<LineColours> m_colours; ///< palette slot per run / merged workload
    QtCharts::QChart* m_chart = nullptr;
    bool m_rendering = false;                        ///< render() has laid the chart out at an export's size
    QGraphicsSimpleTextItem* m_legendNote = nullptr; ///< in place of a legend too tall for the chart
    DensityKeyItem* m_densityKey = nullptr;          ///< beside the note: what a density's shades mean
    QtCharts::QChartView* m_view = nullptr;
    QtCharts::QValueAxis* m_x = nullptr;
    QtCharts::QDateTimeAxis* m_xTime = nullptr; ///< the wall-clock x axis
    QtCharts::QValueAxis* m_y = nullptr;
    QtCharts::QLogValueAxis* m_logY = nullptr;
    ChartNavigator* m_navigator = nullptr;
    std::vector<ChartRunData> m_runs;
    /// The chart's title when it draws no line: why (no data, or an epoch axis without epochs).
    QString emptyChartMessage() const; ///< the title of a chart with nothing to draw
    std::vector<ChartLine> m_lines;
    /// One per line, same order: empty, they give the legend its entries and colours.
    std::vector<QtCharts::QLineSeries*> m_series;
    ChartPlotItem* m_plot = nullptr; ///< draws the lines and bands
    int m_hoveredLine = -1;          ///< the line whose tooltip shows
    QGraphicsLineItem* m_crosshairLine = nullptr;
    QGraphicsRectItem* m_crosshairBox = nullptr;
    QGraphicsTextItem* m_crosshairLabel = nullptr; ///< rich text: a colour swatch per line
    QString m_crosshairText;                       ///< what it says, as plain text
    double m_crosshairAxisX = 0;
    ChartOptions m_options;
    QString m_key;
    std::optional<std::pair<int64_t, int64_t>> m_zoom; ///< visible x range, when zoomed
    bool m_updatingAxes = false;
    /// The lines' names changed since the legend was laid out. A zoom or pan frame (requery) lays
    /// it out only then: its layout depends on the names and the chart's size, not the x range.
    bool m_legendStale = true;
    double m_msPerTimeUnit = 1000.0; ///< the time-since-start axis in s, min or h
    bool m_loading = false;
    bool m_detached = false;            ///< data from a board file, not the store
    QTimer m_requeryTimer;              ///< coalesces resizes and zoom steps (~40 ms)
    SeriesPyramid::Envelope m_envelope; ///< scratch for dense lines, kept from frame to frame
    /// fetchLines' scratch per share of the lines, kept from frame to frame: fresh vectors of a
    /// 500-line frame's half a million points were zeroed pages, every frame.
    struct FetchShare {
        std::vector<int64_t> t;
        std::vector<double> v;
        double yMin = 0, yMax = 0;
    };
    std::vector<FetchShare> m_fetchShares;
    std::vector<bool> m_drawnAsRange; ///< per line: drawn as mean and range in the last frame
    QTimer m_detailTimer;             ///< a zoom settles before its range is read again
    uint64_t m_detailGeneration = 0;  ///< queries asked; setData and clear count too
    /// The x range (axis units) last read finer: a pan or zoom within it, not much narrower,
    /// has the points it needs.
    std::optional<std::pair<int64_t, int64_t>> m_detailedRange;
};

} // namespace radt
