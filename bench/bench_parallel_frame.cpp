// SPDX-License-Identifier: MIT
// The parallel coordinates stay responsive with 500 runs: 500 runs x 8 axes (two
// params as categories, six figures), the view 1200 x 600, with real Qt rendering on the offscreen
// platform. Measured in the same run:
// * frame: a repaint of the shown ParallelPlot (QWidget::repaint: the engine laid out, axes,
//   ticks, titles, 500 coloured polylines, brushes, the colour legend, the count), as the screen
//   gets it;
// * baseline: the same 500 polylines alone, drawn the plain way (antialiased QPainter::drawPolyline
//   into an image of the same size); parallel_frame_ratio = frame p95 / baseline p95;
// * brush: a drag step on an axis (ParallelEngine::brushPixels: every run tested against every
//   brush) and the frame that shows it, the dimmed lines under the brushed ones;
// * scatter: the scatter of two columns painted, 500 points.
// Figures, each printed as soon as measured: parallel_frame_ms_p50/_p95, parallel_baseline_ms_p95,
// parallel_frame_ratio, parallel_brush_update_us, parallel_brush_frame_ms_p95, scatter_frame_ms_p95.

#include "BenchSupport.h"
#include "widgets/compare/CompareTable.h"
#include "widgets/compare/ParallelEngine.h"
#include "widgets/compare/ParallelPlot.h"
#include "widgets/compare/ScatterEngine.h"
#include "widgets/compare/ScatterPlot.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include <memory>
#include <random>

using namespace radt;

namespace {

constexpr int kRuns = 500;
const QSize kSize(1200, 600);

double msSince(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
}

CompareColumn categorical(const char* name, const QStringList& values, std::mt19937& random) {
    CompareColumn c;
    c.id = QStringLiteral("param:") + QLatin1String(name);
    c.title = QLatin1String(name);
    c.kind = ColumnKind::Categorical;
    c.categories = values;
    std::uniform_int_distribution<int> pick(0, int(values.size()) - 1);
    for (int run = 0; run < kRuns; ++run)
        c.values.push_back(pick(random));
    return c;
}

CompareColumn numeric(const char* id, const char* title, insight::Unit unit, double low, double high,
                      std::mt19937& random) {
    CompareColumn c;
    c.id = QLatin1String(id);
    c.title = QLatin1String(title);
    c.unit = unit;
    std::uniform_real_distribution<double> value(low, high);
    for (int run = 0; run < kRuns; ++run)
        c.values.push_back(value(random));
    return c;
}

/// 500 runs: batch size and learning rate as params, duration, energy, energy per epoch and the
/// accuracy's last, mean and max as figures (one run in 50 without energy, as runs without power).
CompareTable sweepTable() {
    std::mt19937 random(39);
    CompareTable table;
    for (int run = 0; run < kRuns; ++run)
        table.runs.push_back({QStringLiteral("%1").arg(run, 32, 16, QLatin1Char('0')),
                              QStringLiteral("(%1 0) train.py").arg(run),
                              1,
                              {},
                              {}});
    table.columns.push_back(categorical("batch-size", {"32", "64", "128", "256", "512"}, random));
    table.columns.push_back(categorical("lr", {"0.0001", "0.0003", "0.001", "0.003"}, random));
    table.columns.push_back(
        numeric("figure:duration_s", "Duration", insight::Unit::Seconds, 600, 7200, random));
    table.columns.push_back(
        numeric("figure:gpu_energy_j", "GPU energy", insight::Unit::Joules, 1e5, 3e6, random));
    table.columns.push_back(
        numeric("figure:energy_per_epoch_j", "Energy / epoch", insight::Unit::Joules, 1e4, 3e5, random));
    for (const char* stat : {"last", "mean", "max"})
        table.columns.push_back(numeric(stat, stat, insight::Unit::Count, 0.4, 0.95, random));
    for (int run = 0; run < kRuns; run += 50)
        table.columns[3].values[size_t(run)] = CompareColumn::kMissing;
    return table;
}

struct View {
    ParallelEngine engine;
    ParallelPlot plot{engine};
    QImage image{kSize, QImage::Format_ARGB32_Premultiplied};
    View() {
        engine.setTable(sweepTable());
        QStringList ids;
        for (const CompareColumn& c : engine.table().columns)
            ids << c.id;
        engine.setAxes(ids);
        engine.setColourBy(QStringLiteral("last"));
        plot.resize(kSize);
        plot.show();
        QApplication::processEvents();
    }
    /// One repaint of the view on screen (its backing store on the offscreen platform).
    double frame() {
        QElapsedTimer timer;
        timer.start();
        plot.repaint();
        return msSince(timer);
    }
};

// Made on first use and destroyed by main() while the QApplication still exists: a function-local
// static outlived it, and its widget's destructor crashed the program after its last figure.
std::unique_ptr<View> g_view;

View& view() {
    if (!g_view)
        g_view = std::make_unique<View>();
    return *g_view;
}

/// The same polylines as the view draws, and nothing else.
double baselineFrame(View& v) {
    QElapsedTimer timer;
    timer.start();
    QPainter painter(&v.image);
    painter.fillRect(QRect(QPoint(0, 0), kSize), Qt::white);
    painter.setRenderHint(QPainter::Antialiasing, true);
    QPolygonF line;
    for (size_t run = 0; run < v.engine.runCount(); ++run) {
        QPen pen(v.engine.colourOf(run), 1.0);
        pen.setCosmetic(true);
        painter.setPen(pen);
        line.clear();
        for (int axis = 0; axis < v.engine.axisCount(); ++axis)
            if (std::isfinite(v.engine.point(run, axis).y()))
                line << v.engine.point(run, axis);
        painter.drawPolyline(line);
    }
    painter.end();
    return msSince(timer);
}

void BM_Frame(benchmark::State& state) {
    View& v = view();
    std::vector<double> frames, baselines;
    for (auto _ : state) {
        frames.push_back(v.frame()); // alternating, so drift on a shared machine hits both alike
        baselines.push_back(baselineFrame(v));
    }
    const double p95 = bench::percentile(frames, 0.95), base95 = bench::percentile(baselines, 0.95);
    std::printf("%zu frames of %d runs x %d axes at %dx%d: p50 %.1f ms, p95 %.1f ms; the polylines alone "
                "p95 %.1f ms\n",
                frames.size(), kRuns, v.engine.axisCount(), kSize.width(), kSize.height(),
                bench::percentile(frames, 0.5), p95, base95);
    bench::figure("parallel_frame_ms_p50", bench::percentile(frames, 0.5), "ms");
    bench::figure("parallel_frame_ms_p95", p95, "ms");
    bench::figure("parallel_baseline_ms_p95", base95, "ms");
    bench::figure("parallel_frame_ratio", base95 > 0 ? p95 / base95 : 0, "x");
}

void BM_Brush(benchmark::State& state) {
    View& v = view();
    v.engine.clearBrushes();
    v.engine.setBrush(0, {0.5, 3.5}); // batch sizes 64 to 256
    std::mt19937 random(7);
    std::uniform_real_distribution<double> y(v.engine.plotRect().top(), v.engine.plotRect().bottom());
    std::vector<double> updatesUs, frames;
    for (auto _ : state) {
        // A drag step on the duration axis: the brush, then the frame that shows it.
        QElapsedTimer timer;
        timer.start();
        v.engine.brushPixels(2, y(random), y(random));
        updatesUs.push_back(msSince(timer) * 1000);
        frames.push_back(v.frame());
        benchmark::DoNotOptimize(v.engine.selectedRuns().size());
    }
    std::printf("%zu brush steps: update p95 %.1f us, the frame with it p95 %.1f ms\n", updatesUs.size(),
                bench::percentile(updatesUs, 0.95), bench::percentile(frames, 0.95));
    bench::figure("parallel_brush_update_us", bench::percentile(updatesUs, 0.95), "us");
    bench::figure("parallel_brush_frame_ms_p95", bench::percentile(frames, 0.95), "ms");
    v.engine.clearBrushes();
}

void BM_Scatter(benchmark::State& state) {
    View& v = view();
    ScatterEngine engine(v.engine);
    ScatterPlot plot(engine);
    engine.setColumns(QStringLiteral("figure:duration_s"), QStringLiteral("last"));
    plot.resize(kSize);
    std::vector<double> frames;
    for (auto _ : state) {
        QElapsedTimer timer;
        timer.start();
        QPainter painter(&v.image);
        plot.paintTo(painter, kSize);
        painter.end();
        frames.push_back(msSince(timer));
    }
    bench::figure("scatter_frame_ms_p95", bench::percentile(frames, 0.95), "ms");
}

} // namespace

BENCHMARK(BM_Frame)->Iterations(60)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Brush)->Iterations(60)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scatter)->Iterations(30)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    g_view.reset();
    return 0;
}
