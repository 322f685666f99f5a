// SPDX-License-Identifier: MIT
// One interactive frame of the explorer's chart: 8 runs x 1M points in memory, the plot
// 1200 px wide, a zoom or pan to another x window and the view painted, with real Qt rendering
// on the offscreen platform. Two ways of drawing the same decimated points, in the same run:
// * panel: ChartPanel::zoomX as the explorer does it (pyramid query, the lines drawn as cosmetic
//   polylines by its own plot item) and the repaint of its view;
// * qtcharts: the path the explorer used before, rebuilt here from public QtCharts API: the same
//   pyramid queries handed to one QLineSeries per line (replace()), the axis range set, the view
//   repainted. QtCharts then strokes every line and builds its hover shape.
// * raw: the panel drawing each column's extremes joined (ChartOptions::Dense::Raw), as it did
//   before dense lines were drawn as their mean with the min–max range (the default, "panel").
// Frames alternate between them, so drift on a shared machine hits all alike.
// Figures: zoom_frame_ms_p95 (panel), zoom_frame_ms_p95_qtcharts, zoom_frame_speedup (ratio of
// the p95s), zoom_frame_ms_p95_raw and zoom_frame_range_cost (panel p95 / raw p95), the medians.

#include "BenchSupport.h"
#include "ChartBenchRuns.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartLines.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QValueAxis>

#include <benchmark/benchmark.h>

#include <random>

using namespace radt;
using namespace QtCharts;

namespace {

constexpr int kRuns = 8;
constexpr int kPoints = 1000000;
constexpr int kPlotColumns = 1200;
const char* const kKey = "SMI - Power Draw";

std::vector<double> g_panelMs, g_qtchartsMs, g_rawMs;

// Counts the paints of a view's viewport: a frame is measured up to its paint, and only one.
class PaintCounter : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject*, QEvent* event) override {
        paints += event->type() == QEvent::Paint;
        return false;
    }
};

// Lets the event loop run until the view has painted the change, as it would for the screen:
// the scene's pending updates become one paint of the viewport.
void paintFrame(QChartView* view, PaintCounter& counter) {
    const int before = counter.paints;
    for (int turns = 0; counter.paints == before; ++turns) {
        if (turns == 1000) { // nothing was pending: paint anyway, so a frame is never skipped
            view->viewport()->repaint();
            break;
        }
        QApplication::processEvents();
    }
}

// Windows the frames show: half to a tenth of the run, anywhere in it (seconds since start).
struct Windows {
    std::mt19937 random{7};
    std::pair<double, double> next() {
        const double total = kPoints * 0.01;
        const double span = std::uniform_real_distribution<double>(total / 10, total / 2)(random);
        const double from = std::uniform_real_distribution<double>(0, total - span)(random);
        return {from, from + span};
    }
};

// The QtCharts path, as ChartPanel drew before its own plot item: a QLineSeries per line.
class QtChartsPath {
public:
    explicit QtChartsPath(const std::vector<ChartLine>& lines) : m_lines(lines) {
        m_chart->setAnimationOptions(QChart::NoAnimation);
        m_chart->addAxis(m_x, Qt::AlignBottom);
        m_chart->addAxis(m_y, Qt::AlignLeft);
        for (size_t i = 0; i < lines.size(); ++i) {
            auto* series = new QLineSeries;
            m_chart->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
            m_series.push_back(series);
        }
        m_view.setRenderHint(QPainter::Antialiasing, true);
        m_view.resize(1310, 700);
        m_view.show();
        QApplication::processEvents();
    }
    QChartView* view() { return &m_view; }
    int columns() const { return int(m_chart->plotArea().width()); }
    void show(double fromS, double toS) {
        const int64_t from = int64_t(fromS * 1000), to = int64_t(toS * 1000);
        double yMin = 1e300, yMax = -1e300;
        for (size_t i = 0; i < m_lines.size(); ++i) {
            m_lines[i].pyramid.query(from, to, columns(), m_t, m_v);
            QVector<QPointF> points;
            points.reserve(int(m_t.size()));
            for (size_t k = 0; k < m_t.size(); ++k) {
                points.append(QPointF(double(m_t[k]) / 1000.0, m_v[k]));
                yMin = std::min(yMin, m_v[k]);
                yMax = std::max(yMax, m_v[k]);
            }
            m_series[i]->replace(points);
        }
        m_x->setRange(fromS, toS);
        m_y->setRange(yMin, yMax);
        m_y->applyNiceNumbers();
    }

private:
    const std::vector<ChartLine>& m_lines;
    QChart* m_chart = new QChart;
    QValueAxis* m_x = new QValueAxis;
    QValueAxis* m_y = new QValueAxis;
    QChartView m_view{m_chart};
    std::vector<QLineSeries*> m_series;
    std::vector<int64_t> m_t;
    std::vector<double> m_v;
};

void BM_ZoomFrames(benchmark::State& state) {
    ChartPanel panel;
    panel.resize(1310, 700); // a plot area of 1200 px
    panel.show();
    panel.setData(bench::memoryChartRuns(kRuns, kPoints), kKey);
    PaintCounter panelPaints, qtchartsPaints;
    panel.chartView()->viewport()->installEventFilter(&panelPaints);
    paintFrame(panel.chartView(), panelPaints);
    ChartPanel raw;
    raw.resize(1310, 700);
    raw.show();
    raw.setData(bench::memoryChartRuns(kRuns, kPoints), kKey);
    raw.changeOptions([&](ChartOptions& o) { o.dense = ChartOptions::Dense::Raw; });
    PaintCounter rawPaints;
    raw.chartView()->viewport()->installEventFilter(&rawPaints);
    paintFrame(raw.chartView(), rawPaints);
    const std::vector<ChartLine> lines = buildChartLines(panel.engine().runs(), panel.engine().options());
    QtChartsPath qtcharts(lines);
    qtcharts.view()->viewport()->installEventFilter(&qtchartsPaints);
    paintFrame(qtcharts.view(), qtchartsPaints);
    std::printf("plot columns: panel %d, qtcharts %d\n", panel.plotColumns(), qtcharts.columns());
    Windows windows;
    for (auto _ : state) {
        const auto [from, to] = windows.next();
        auto start = std::chrono::steady_clock::now();
        panel.zoomX(from / 60, to / 60); // the panel's axis counts minutes for 10,000 s
        paintFrame(panel.chartView(), panelPaints);
        g_panelMs.push_back(bench::since(start) * 1e3);
        if (!panel.engine().drawnAsRange(0) || panel.seriesPoints(0).size() < kPlotColumns / 2 ||
            panel.seriesPoints(0).size() > panel.plotColumns())
            state.SkipWithError("the panel did not draw a mean per column");

        start = std::chrono::steady_clock::now();
        raw.zoomX(from / 60, to / 60);
        paintFrame(raw.chartView(), rawPaints);
        g_rawMs.push_back(bench::since(start) * 1e3);
        if (raw.seriesPoints(0).size() < kPlotColumns || raw.seriesPoints(0).size() > 2 * raw.plotColumns())
            state.SkipWithError("the raw panel drew the wrong number of points");

        start = std::chrono::steady_clock::now();
        qtcharts.show(from, to);
        paintFrame(qtcharts.view(), qtchartsPaints);
        g_qtchartsMs.push_back(bench::since(start) * 1e3);
    }
    // A second paint in a frame would be measured as part of it: say so if one happened.
    std::printf("paints: panel %d, qtcharts %d, for %zu frames each (plus one before)\n", panelPaints.paints,
                qtchartsPaints.paints, g_panelMs.size());
}

} // namespace

BENCHMARK(BM_ZoomFrames)->Iterations(200)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    bench::Figures figures;
    figures.after("BM_ZoomFrames", 1, [] {
        const double panel95 = bench::percentile(g_panelMs, 0.95),
                     qtcharts95 = bench::percentile(g_qtchartsMs, 0.95);
        std::printf("%zu zoom frames of %d runs x %d points: p50 %.1f ms, p95 %.1f ms; QtCharts series "
                    "p50 %.1f ms, p95 %.1f ms\n",
                    g_panelMs.size(), kRuns, kPoints, bench::percentile(g_panelMs, 0.5), panel95,
                    bench::percentile(g_qtchartsMs, 0.5), qtcharts95);
        bench::figure("zoom_frame_ms_p95", panel95, "ms");
        bench::figure("zoom_frame_ms_p50", bench::percentile(g_panelMs, 0.5), "ms");
        bench::figure("zoom_frame_ms_p95_qtcharts", qtcharts95, "ms");
        bench::figure("zoom_frame_ms_p50_qtcharts", bench::percentile(g_qtchartsMs, 0.5), "ms");
        bench::figure("zoom_frame_speedup", panel95 > 0 ? qtcharts95 / panel95 : 0, "x");
        const double raw95 = bench::percentile(g_rawMs, 0.95);
        bench::figure("zoom_frame_ms_p95_raw", raw95, "ms");
        bench::figure("zoom_frame_range_cost", raw95 > 0 ? panel95 / raw95 : 0, "x");
    });
    return figures.run(argc, argv);
}
