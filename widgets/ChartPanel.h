#pragma once
// One QtCharts panel: a metric of the basket's runs over time since each run's start.

#include "Model.h"

#include <QImage>
#include <QPointF>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <string>
#include <vector>

namespace QtCharts {
class QChart;
class QChartView;
class QValueAxis;
} // namespace QtCharts

namespace radt {

class Store;

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);

    /// One line per run that has the metric. Throws StoreError; the chart is unchanged then.
    void plot(Store& store, const std::vector<Run>& runs, const std::string& metricKey);
    /// Removes every line and shows `hint` in their place.
    void clear(const QString& hint = QString());

    int seriesCount() const;
    QStringList seriesNames() const;
    /// Points handed to QtCharts for a series (after decimation).
    int pointCount(int series) const;
    QString metricKey() const { return m_key; }
    /// The chart drawn at `size`, whether or not the panel is on screen.
    QImage renderToImage(const QSize& size);

    QtCharts::QChart* chart() const { return m_chart; }
    QtCharts::QChartView* chartView() const { return m_view; }

    /// Legend name of a run: "<workload> <letter>", or its name when it has no workload.
    static QString seriesLabel(const Run& run);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Line {
        QString name;
        QVector<QPointF> points; ///< full resolution, NaN-free
    };

    void rebuild();
    void redecimate();
    void updateAxes();
    int plotColumns() const;

    QtCharts::QChart* m_chart = nullptr;
    QtCharts::QChartView* m_view = nullptr;
    QtCharts::QValueAxis* m_x = nullptr;
    QtCharts::QValueAxis* m_y = nullptr;
    std::vector<Line> m_lines;
    QString m_key;
    int m_columns = 0; ///< the pixel columns the shown points were decimated for
    QTimer m_resizeTimer;
};

} // namespace radt
