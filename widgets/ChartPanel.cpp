#include "ChartPanel.h"

#include "Formatting.h"
#include "Store.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

using namespace QtCharts;

namespace radt {

namespace {

QString workloadKeyOf(const Run& run) {
    // Runs without a workload are their own group: nothing to merge them with.
    if (run.workload().empty())
        return QStringLiteral("run:") + toQString(run.uuid);
    return QString::number(run.experimentId) + QLatin1Char('-') + toQString(run.workload());
}

// Tableau's ten categorical colours: distinct on screen and in print.
const QRgb kPalette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                         0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};

const Qt::PenStyle kMonochromeStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                          Qt::DashDotDotLine};

} // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent), m_chart(new QChart), m_x(new QValueAxis(this)), m_y(new QValueAxis(this)),
      m_logY(new QLogValueAxis(this)) {
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setVisible(true);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setMargins(QMargins(8, 8, 16, 8));
    m_chart->setBackgroundRoundness(0);

    m_x->setLabelFormat(QStringLiteral("%g"));
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_logY->setLabelFormat(QStringLiteral("%g"));
    m_logY->setBase(10);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing, true);
    m_view->setMinimumSize(320, 240);
    m_view->setRubberBand(QChartView::HorizontalRubberBand);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);

    // The rubber band (and right-click zoom out) move the x axis: fetch that range at full
    // resolution, once the user has stopped (~40 ms), not on every intermediate step.
    connect(m_x, &QValueAxis::rangeChanged, this, [this](qreal min, qreal max) {
        if (m_updatingAxes || m_lines.empty())
            return;
        m_zoom = std::make_pair(fromAxis(min), fromAxis(max));
        m_requeryTimer.start();
    });
    m_requeryTimer.setSingleShot(true);
    m_requeryTimer.setInterval(40);
    connect(&m_requeryTimer, &QTimer::timeout, this, [this] { requery(); });
    clear();
}

ChartPanel::~ChartPanel() = default;

QString ChartPanel::seriesLabel(const Run& run) {
    if (run.workload().empty())
        return run.name.empty() ? toQString(run.uuid.substr(0, 8)) : toQString(run.name);
    QString label = toQString(run.workload());
    if (!run.letter().empty())
        label += QLatin1Char(' ') + toQString(run.letter());
    return label;
}

void ChartPanel::plot(Store& store, const std::vector<Run>& runs, const std::string& metricKey) {
    // Read everything first so that a store error leaves the chart as it was.
    std::vector<RunData> data;
    for (const Run& run : runs) {
        // A server store reduces large series where they are (DESIGN §8); generous resolution,
        // so a wider window or a moderate zoom still has real points.
        Series series = store.prefersEnvelopes()
                            ? store.seriesEnvelope(run.uuid, metricKey, std::nullopt, 4 * plotColumns())
                            : store.series(run.uuid, metricKey);
        // A running run stays even before its first sample of this metric: it is followed.
        if (!series.empty() || run.status == RunStatus::Running)
            data.push_back({run, std::move(series)});
    }
    m_runs = std::move(data);
    m_key = toQString(metricKey);
    m_zoom.reset();
    rebuild();
}

bool ChartPanel::hasRunningRuns() const {
    return std::any_of(m_runs.begin(), m_runs.end(),
                       [](const RunData& r) { return r.run.status == RunStatus::Running; });
}

bool ChartPanel::pollNewData(Store& store) {
    if (m_key.isEmpty())
        return false;
    bool changed = false;
    const std::string key = m_key.toStdString();
    for (RunData& r : m_runs) {
        if (r.run.status != RunStatus::Running)
            continue;
        const int64_t after = r.series.t.empty() ? std::numeric_limits<int64_t>::min() : r.series.t.back() + 1;
        const Series fresh = store.seriesRange(r.run.uuid, key, after, std::numeric_limits<int64_t>::max());
        if (!fresh.empty()) {
            r.series.t.insert(r.series.t.end(), fresh.t.begin(), fresh.t.end());
            r.series.step.insert(r.series.step.end(), fresh.step.begin(), fresh.step.end());
            r.series.v.insert(r.series.v.end(), fresh.v.begin(), fresh.v.end());
            changed = true;
        }
        if (auto now = store.run(r.run.uuid); now && now->status != RunStatus::Running) {
            r.run.status = now->status; // finished: no more polling for it
            r.run.endTime = now->endTime;
            changed = true;
        }
    }
    if (changed)
        rebuild(); // a user's zoom (m_zoom) survives; otherwise the range grows with the data
    return changed;
}

void ChartPanel::clear(const QString& hint) {
    m_runs.clear();
    m_key.clear();
    m_zoom.reset();
    rebuild();
    m_chart->setTitle(hint.isEmpty() ? tr("Add runs to the basket and choose a metric") : hint);
}

void ChartPanel::setOptions(const ChartOptions& options) {
    m_options = options;
    m_options.smoothing = std::clamp(m_options.smoothing, 0, 99);
    rebuild();
    emit optionsChanged();
}

void ChartPanel::setSmoothing(int percent) {
    ChartOptions o = m_options;
    o.smoothing = percent;
    setOptions(o);
}

void ChartPanel::setLogY(bool on) {
    ChartOptions o = m_options;
    o.logY = on;
    setOptions(o);
}

void ChartPanel::setMonochrome(bool on) {
    m_options.monochrome = on;
    styleSeries();
    emit optionsChanged();
}

void ChartPanel::setLineWidth(double width) {
    m_options.lineWidth = std::clamp(width, 0.5, 8.0);
    styleSeries();
    emit optionsChanged();
}

void ChartPanel::setXAxis(ChartOptions::XAxis axis) {
    ChartOptions o = m_options;
    o.xAxis = axis;
    m_zoom.reset(); // a time range means nothing in steps
    setOptions(o);
}

void ChartPanel::setShowRuns(const QString& workloadKey, bool individually) {
    ChartOptions o = m_options;
    if (individually)
        o.shownRuns.insert(workloadKey);
    else
        o.shownRuns.erase(workloadKey);
    setOptions(o);
}

void ChartPanel::setSeriesHidden(const QString& name, bool hidden) {
    if (hidden)
        m_options.hiddenSeries.insert(name);
    else
        m_options.hiddenSeries.erase(name);
    styleSeries();
    emit optionsChanged();
}

QStringList ChartPanel::workloadKeys() const {
    std::set<QString> keys;
    for (const RunData& r : m_runs)
        if (!r.run.workload().empty())
            keys.insert(workloadKeyOf(r.run));
    return QStringList(keys.begin(), keys.end());
}

double ChartPanel::toAxis(int64_t x) const {
    return m_options.xAxis == ChartOptions::XAxis::SinceStart ? double(x) / 1000.0 : double(x);
}

int64_t ChartPanel::fromAxis(double x) const {
    return static_cast<int64_t>(std::llround(m_options.xAxis == ChartOptions::XAxis::SinceStart ? x * 1000.0 : x));
}

void ChartPanel::rebuild() {
    // Group the runs into lines: one per workload, or per run where shown individually.
    struct Group {
        QString name;
        QString workloadKey;
        std::vector<const RunData*> runs;
    };
    std::vector<Group> groups;
    std::map<QString, size_t> byKey;
    for (const RunData& r : m_runs) {
        const QString key = workloadKeyOf(r.run);
        const bool merged = !r.run.workload().empty() && !m_options.shownRuns.count(key);
        const QString groupKey = merged ? key : key + QLatin1Char('/') + toQString(r.run.uuid);
        auto it = byKey.find(groupKey);
        if (it == byKey.end()) {
            it = byKey.emplace(groupKey, groups.size()).first;
            groups.push_back({merged ? toQString(r.run.workload()) : seriesLabel(r.run), key, {}});
        }
        groups[it->second].runs.push_back(&r);
    }
    // Two groups named alike (the same workload id in two experiments) must stay apart.
    std::map<QString, int> uses;
    for (const Group& g : groups)
        ++uses[g.name];

    m_lines.clear();
    const bool bySteps = m_options.xAxis == ChartOptions::XAxis::Step;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        const Group& g = groups[gi];
        std::vector<std::pair<int64_t, double>> points;
        for (const RunData* r : g.runs) {
            const Series& s = r->series;
            if (s.empty())
                continue;
            const int64_t origin = r->run.startTime > 0 ? r->run.startTime : s.t.front();
            for (size_t i = 0; i < s.size(); ++i) {
                // MLflow stores +-inf as +-DBL_MAX: missing, like NaN, or the y axis collapses.
                if (!std::isfinite(s.v[i]) || std::fabs(s.v[i]) >= DBL_MAX)
                    continue;
                points.emplace_back(bySteps ? s.step[i] : s.t[i] - origin, s.v[i]);
            }
        }
        std::stable_sort(points.begin(), points.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<int64_t> x;
        std::vector<double> y;
        x.reserve(points.size());
        y.reserve(points.size());
        for (const auto& [px, py] : points) {
            x.push_back(px);
            y.push_back(py);
        }
        // Smoothing runs on full resolution, before any decimation (DESIGN §8).
        y = emaSmooth(y, m_options.smoothing);
        if (m_options.logY) { // a log axis has no place for zero or negative values
            size_t kept = 0;
            for (size_t i = 0; i < y.size(); ++i)
                if (y[i] > 0) {
                    x[kept] = x[i];
                    y[kept++] = y[i];
                }
            x.resize(kept);
            y.resize(kept);
        }
        if (x.empty())
            continue;
        QString name = g.name;
        if (uses[name] > 1)
            name += QStringLiteral(" #%1").arg(gi + 1);
        m_lines.push_back({name, g.workloadKey, SeriesPyramid(std::move(x), std::move(y))});
    }

    // Adding and attaching series makes QtCharts re-range the axes: that is not the user zooming.
    m_updatingAxes = true;
    m_chart->removeAllSeries();
    m_series.clear();
    for (QAbstractAxis* axis : m_chart->axes(Qt::Vertical))
        m_chart->removeAxis(axis);
    QAbstractAxis* yAxis = m_options.logY ? static_cast<QAbstractAxis*>(m_logY) : m_y;
    m_chart->addAxis(yAxis, Qt::AlignLeft);
    for (const Line& line : m_lines) {
        auto* series = new QLineSeries;
        series->setName(line.name);
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(yAxis);
        m_series.push_back(series);
    }
    // Legend clicks hide and show a series; the marker stays, dimmed, to bring it back.
    for (QLegendMarker* marker : m_chart->legend()->markers()) {
        connect(marker, &QLegendMarker::clicked, this, [this, marker] {
            const QString name = marker->series()->name();
            setSeriesHidden(name, !m_options.hiddenSeries.count(name));
        });
    }
    m_updatingAxes = false;
    m_x->setTitleText(bySteps ? tr("step") : tr("time since start (s)"));
    m_chart->setTitle(m_lines.empty() && !m_key.isEmpty() ? tr("No data for \"%1\" in the basket's runs").arg(m_key)
                                                          : QString());
    styleSeries();
    requery();
}

void ChartPanel::styleSeries() {
    const auto markers = m_chart->legend()->markers();
    for (size_t i = 0; i < m_series.size(); ++i) {
        QLineSeries* series = m_series[i];
        QColor colour = m_options.monochrome ? QColor(Qt::black) : QColor(kPalette[i % 10]);
        const bool hidden = m_options.hiddenSeries.count(series->name()) > 0;
        // A hidden series is drawn transparent rather than setVisible(false): QtCharts would
        // drop its legend marker too, and the marker is how the user brings it back.
        QPen pen = series->pen();
        QColor line = colour;
        line.setAlphaF(hidden ? 0.0 : 1.0);
        pen.setColor(line);
        pen.setStyle(m_options.monochrome ? kMonochromeStyles[i % 5] : Qt::SolidLine);
        pen.setWidthF(m_options.lineWidth);
        series->setPen(pen);
        for (QLegendMarker* marker : markers)
            if (marker->series() == series) {
                QColor faded = colour;
                faded.setAlphaF(hidden ? 0.25 : 1.0);
                marker->setBrush(faded);
                QColor label = marker->labelBrush().color();
                label.setAlphaF(hidden ? 0.4 : 1.0);
                marker->setLabelBrush(label);
            }
    }
}

void ChartPanel::requery() {
    const bool hasData = !m_lines.empty();
    m_x->setVisible(hasData);
    (m_options.logY ? static_cast<QAbstractAxis*>(m_logY) : m_y)->setVisible(hasData);
    m_chart->legend()->setVisible(hasData);
    m_y->setTitleText(m_key);
    m_logY->setTitleText(m_key);
    if (!hasData)
        return;
    int64_t from = std::numeric_limits<int64_t>::max(), to = std::numeric_limits<int64_t>::min();
    for (const Line& line : m_lines) {
        from = std::min(from, line.pyramid.firstTime());
        to = std::max(to, line.pyramid.lastTime());
    }
    if (m_zoom) {
        from = m_zoom->first;
        to = m_zoom->second;
    }
    const int columns = plotColumns();
    double yMin = std::numeric_limits<double>::max(), yMax = std::numeric_limits<double>::lowest();
    std::vector<int64_t> t;
    std::vector<double> v;
    for (size_t i = 0; i < m_lines.size(); ++i) {
        m_lines[i].pyramid.query(from, to, columns, t, v);
        QVector<QPointF> points;
        points.reserve(static_cast<int>(t.size()));
        for (size_t k = 0; k < t.size(); ++k) {
            points.append(QPointF(toAxis(t[k]), v[k]));
            if (!m_options.hiddenSeries.count(m_lines[i].name)) {
                yMin = std::min(yMin, v[k]);
                yMax = std::max(yMax, v[k]);
            }
        }
        m_series[i]->replace(points); // one replace per series, never per-point appends
    }
    if (yMin > yMax) // everything hidden or nothing in range
        yMin = yMax = 0;
    m_updatingAxes = true;
    const double x0 = toAxis(from), x1 = to > from ? toAxis(to) : toAxis(from) + 1;
    m_x->setRange(x0, x1);
    m_x->setTickCount(7);
    if (!m_zoom)
        m_x->applyNiceNumbers(); // a zoomed range stays exactly what the user chose
    updateAxes(yMin, yMax);
    m_updatingAxes = false;
}

void ChartPanel::updateAxes(double yMin, double yMax) {
    if (m_options.logY) {
        const double lo = yMin > 0 ? yMin : 1e-3;
        m_logY->setRange(std::pow(10, std::floor(std::log10(lo))), std::pow(10, std::ceil(std::log10(std::max(yMax, lo * 10)))));
        return;
    }
    if (yMax <= yMin) {
        const double pad = yMin == 0 ? 1 : std::abs(yMin) * 0.1;
        yMin -= pad;
        yMax += pad;
    }
    m_y->setRange(yMin, yMax);
    m_y->setTickCount(6);
    m_y->applyNiceNumbers();
}

void ChartPanel::zoomX(double from, double to) {
    if (m_lines.empty() || !(to > from))
        return;
    m_zoom = std::make_pair(fromAxis(from), fromAxis(to));
    requery();
}

void ChartPanel::resetZoom() {
    m_zoom.reset();
    requery();
}

int ChartPanel::plotColumns() const {
    const int plotWidth = static_cast<int>(m_chart->plotArea().width());
    // Before the first layout the plot area is empty: estimate it from the view.
    const int width = plotWidth > 50 ? plotWidth : m_view->width() - 80;
    return std::max(width, 200);
}

int ChartPanel::seriesCount() const {
    return static_cast<int>(m_series.size());
}

QStringList ChartPanel::seriesNames() const {
    QStringList names;
    for (const QLineSeries* series : m_series)
        names.append(series->name());
    return names;
}

int ChartPanel::pointCount(int series) const {
    return series >= 0 && series < seriesCount() ? m_series[series]->count() : 0;
}

QVector<QPointF> ChartPanel::seriesPoints(int series) const {
    return series >= 0 && series < seriesCount() ? m_series[series]->pointsVector() : QVector<QPointF>();
}

bool ChartPanel::seriesVisible(int series) const {
    return series >= 0 && series < seriesCount() && !m_options.hiddenSeries.count(m_series[series]->name());
}

QImage ChartPanel::renderToImage(const QSize& size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    // Lay the chart out at the requested size inside its scene, draw it, then put it back, so
    // the same code serves a hidden panel (tests, exports) and one on screen.
    const QSizeF oldSize = m_chart->size();
    m_chart->resize(size);
    m_chart->layout()->activate();
    requery();
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setRenderHint(QPainter::TextAntialiasing, true);
        m_chart->scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(m_chart->pos(), size));
    }
    m_chart->resize(oldSize);
    m_chart->layout()->activate();
    requery();
    return image;
}

void ChartPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!m_lines.empty())
        m_requeryTimer.start(); // a resize re-decimates once the user stops dragging
}

} // namespace radt
