#pragma once
// One chart of the board: a metric over the basket's runs (DESIGN §8, §9). Runs of one workload
// are merged into one series named by the workload, as radT's front end does, unless the
// workload's runs are shown one by one. Per chart: EMA smoothing, log y, monochrome, line width,
// x as time since start or step, legend clicks hide series, rubber-band x zoom at full resolution.
// Points reach QtCharts only through a min/max pyramid: at most 2 per pixel column.

#include "Model.h"
#include "SeriesMath.h"

#include <QImage>
#include <QPointF>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace QtCharts {
class QChart;
class QChartView;
class QValueAxis;
class QLogValueAxis;
class QLineSeries;
} // namespace QtCharts

namespace radt {

class Store;

struct ChartOptions {
    enum class XAxis { SinceStart, Step };
    int smoothing = 0; ///< radT's EMA slider, 0..99
    bool logY = false;
    bool monochrome = false; ///< black lines told apart by dash patterns
    double lineWidth = 1.5;
    XAxis xAxis = XAxis::SinceStart;
    std::set<QString> shownRuns;    ///< workload keys ("<experiment>-<workload>") drawn run by run
    std::set<QString> hiddenSeries; ///< series names hidden through the legend
};

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);
    ~ChartPanel() override;

    /// Reads the metric of every run. Throws StoreError; the chart is unchanged then.
    void plot(Store& store, const std::vector<Run>& runs, const std::string& metricKey);
    /// Removes every line and shows `hint` in their place.
    void clear(const QString& hint = QString());
    /// Follows running runs (recorded by this or another process or machine): reads the rows
    /// newer than the last one seen, and each run's status. Redraws when something changed,
    /// keeping a zoom the user chose (otherwise the x range follows the newest data). Returns
    /// whether anything changed. Throws StoreError.
    bool pollNewData(Store& store);
    /// True while any plotted run is RUNNING.
    bool hasRunningRuns() const;

    const ChartOptions& options() const { return m_options; }
    void setOptions(const ChartOptions& options);
    void setSmoothing(int percent);
    void setLogY(bool on);
    void setMonochrome(bool on);
    void setLineWidth(double width);
    void setXAxis(ChartOptions::XAxis axis);
    /// Shows the runs of a workload one by one (or merged again).
    void setShowRuns(const QString& workloadKey, bool individually);
    void setSeriesHidden(const QString& name, bool hidden);
    /// Workload keys of the plotted runs, and their display names ("1", "7").
    QStringList workloadKeys() const;

    /// Zooms the x axis to [from, to] (axis units: seconds or steps) at full resolution.
    void zoomX(double from, double to);
    void resetZoom();
    bool isZoomed() const { return m_zoom.has_value(); }

    int seriesCount() const;
    QStringList seriesNames() const;
    /// Points handed to QtCharts for a series (after smoothing and decimation).
    int pointCount(int series) const;
    QVector<QPointF> seriesPoints(int series) const;
    bool seriesVisible(int series) const;
    QString metricKey() const { return m_key; }
    /// The chart drawn at `size`, whether or not the panel is on screen.
    QImage renderToImage(const QSize& size);

    QtCharts::QChart* chart() const { return m_chart; }
    QtCharts::QChartView* chartView() const { return m_view; }

    /// Legend name of a single run: "<workload> <letter>", or its name when it has no workload.
    static QString seriesLabel(const Run& run);

signals:
    void optionsChanged();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    struct RunData {
        Run run;
        Series series;
    };
    struct Line {
        QString name;
        QString workloadKey;
        SeriesPyramid pyramid; ///< x in ms since start (or steps), y smoothed, NaN-free
    };

    void rebuild();  ///< lines from runs and options
    void requery();  ///< points for the visible range into the QtCharts series
    void styleSeries();
    void updateAxes(double yMin, double yMax);
    int plotColumns() const;
    double toAxis(int64_t x) const;
    int64_t fromAxis(double x) const;

    QtCharts::QChart* m_chart = nullptr;
    QtCharts::QChartView* m_view = nullptr;
    QtCharts::QValueAxis* m_x = nullptr;
    QtCharts::QValueAxis* m_y = nullptr;
    QtCharts::QLogValueAxis* m_logY = nullptr;
    std::vector<RunData> m_runs;
    std::vector<Line> m_lines;
    std::vector<QtCharts::QLineSeries*> m_series; ///< one per line, same order
    ChartOptions m_options;
    QString m_key;
    std::optional<std::pair<int64_t, int64_t>> m_zoom; ///< visible x range, when zoomed
    bool m_updatingAxes = false;
    QTimer m_requeryTimer; ///< coalesces resizes and zoom steps (~40 ms)
};

} // namespace radt
