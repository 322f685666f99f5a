#include "widgets/chart/ChartPanel.h"

#include "core/base/InsightSeries.h"
#include "core/store/Store.h"
#include "widgets/chart/ChartNavigator.h"
#include "widgets/chart/ChartPlotItem.h"
#include "widgets/chart/engine/LineDensity.h"
#include "widgets/common/Formatting.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

using namespace QtCharts;

namespace radt {

namespace {

// Tableau's ten categorical colours: distinct on screen and in print.
const QRgb kPalette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                         0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};

const Qt::PenStyle kMonochromeStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                          Qt::DashDotDotLine};

} // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent), m_colours(std::make_shared<LineColours>()), m_chart(new QChart),
      m_x(new QValueAxis(this)), m_xTime(new QDateTimeAxis(this)), m_y(new QValueAxis(this)),
      m_logY(new QLogValueAxis(this)) {
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setVisible(true);
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->legend()->setShowToolTips(true); // a name the legend shortens is whole on hover
    // Detached, QtCharts lays markers out in rows; layoutLegend() places it under the plot.
    m_chart->legend()->detachFromChart();
    m_chart->legend()->setBackgroundVisible(false);
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setMargins(QMargins(8, 4, 16, 4));
    m_legendNote = new QGraphicsSimpleTextItem(m_chart);
    m_legendNote->setBrush(QColor(90, 90, 90));
    m_legendNote->hide();
    m_densityKey = new DensityKeyItem(m_chart);
    m_densityKey->hide();
    connect(m_chart, &QGraphicsWidget::geometryChanged, this, [this] { layoutLegend(); });
    m_chart->setBackgroundRoundness(0);

    m_x->setLabelFormat(QStringLiteral("%g"));
    m_xTime->setFormat(QStringLiteral("HH:mm:ss"));
    m_xTime->setTitleText(tr("wall clock"));
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_logY->setLabelFormat(QStringLiteral("%g"));
    m_logY->setBase(10);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing, true);
    m_view->setMinimumSize(200, 240); // three board columns fit a 1024 px window
    m_view->setRubberBand(QChartView::HorizontalRubberBand);
    m_view->setMouseTracking(true);
    m_view->viewport()->installEventFilter(this);
    m_navigator = new ChartNavigator(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_navigator);
    connect(m_navigator, &ChartNavigator::windowChosen, this,
            [this](int64_t from, int64_t to) { setUserZoom(std::make_pair(from, to)); });
    connect(m_navigator, &ChartNavigator::resetRequested, this, [this] { resetZoom(); });

    // The crosshair: a vertical line and a box listing each line's value, drawn over the plot.
    m_crosshairLine = new QGraphicsLineItem(m_chart);
    m_crosshairLine->setPen(QPen(QColor(80, 80, 80, 160), 1, Qt::DashLine));
    m_crosshairBox = new QGraphicsRectItem(m_chart);
    // See-through, so the lines under the box stay visible.
    m_crosshairBox->setBrush(QColor(255, 255, 255, 170));
    m_crosshairBox->setPen(QPen(QColor(160, 160, 160, 200)));
    m_crosshairLabel = new QGraphicsTextItem(m_crosshairBox);
    // The lines: over the grid and axes, under the legend and the crosshair.
    m_plot = new ChartPlotItem(m_chart);
    m_plot->setZValue(5);
    for (QGraphicsItem* item :
         {static_cast<QGraphicsItem*>(m_crosshairLine), static_cast<QGraphicsItem*>(m_crosshairBox)}) {
        item->setZValue(1000);
        item->hide();
    }

    // The rubber band (and right-click zoom out) move the x axis: fetch that range at full
    // resolution, once the user has stopped (~40 ms), not on every intermediate step.
    auto onAxisMoved = [this](double min, double max) {
        if (m_updatingAxes || m_lines.empty())
            return;
        m_zoom = std::make_pair(fromAxis(min), fromAxis(max));
        syncPlotMapping(); // this frame: the points held, stretched; the requery refines them
        m_requeryTimer.start();
        emit userZoomChanged();
    };
    connect(m_x, &QValueAxis::rangeChanged, this, onAxisMoved);
    connect(m_xTime, &QDateTimeAxis::rangeChanged, this,
            [onAxisMoved](const QDateTime& min, const QDateTime& max) {
                onAxisMoved(double(min.toMSecsSinceEpoch()), double(max.toMSecsSinceEpoch()));
            });
    // The lines follow the axes whoever moves them: requery, QtCharts' zoom, a resize.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { syncPlotMapping(); });
    connect(m_y, &QValueAxis::rangeChanged, this, [this] { syncPlotMapping(); });
    connect(m_logY, &QLogValueAxis::rangeChanged, this, [this] { syncPlotMapping(); });
    m_requeryTimer.setSingleShot(true);
    m_requeryTimer.setInterval(40);
    connect(&m_requeryTimer, &QTimer::timeout, this, [this] { requery(); });
    m_detailTimer.setSingleShot(true);
    m_detailTimer.setInterval(250);
    connect(&m_detailTimer, &QTimer::timeout, this, [this] {
        if (std::any_of(m_runs.begin(), m_runs.end(), [](const ChartRunData& r) { return r.reduced; }))
            emit detailWanted();
    });
    clear();
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::setLoading(const QString& metricKey) {
    m_loading = true;
    m_key = metricKey;
    m_chart->setTitle(tr("Loading %1…").arg(displayName(metricKey)));
}

void ChartPanel::setData(std::vector<ChartRunData> runs, const QString& metricKey) {
    m_loading = false;
    m_detached = false;
    m_runs = std::move(runs);
    for (ChartRunData& r : m_runs)
        compactSteps(r);
    m_key = metricKey;
    m_zoom.reset();
    forgetDetail();
    rebuild();
}

void ChartPanel::showDetached(std::vector<ChartRunData> runs, const QString& metricKey,
                              const ChartOptions& options, std::optional<std::pair<int64_t, int64_t>> zoom) {
    m_loading = false;
    m_detached = true;
    m_runs = std::move(runs);
    for (ChartRunData& r : m_runs)
        compactSteps(r);
    m_key = metricKey;
    m_options = options;
    m_options.smoothing = std::clamp(m_options.smoothing, 0, 99);
    m_zoom = zoom;
    forgetDetail();
    rebuild();
    emit optionsChanged();
}

void ChartPanel::clear(const QString& hint) {
    m_loading = false;
    m_detached = false;
    m_runs.clear();
    forgetDetail();
    m_key.clear();
    m_zoom.reset();
    rebuild();
    m_chart->setTitle(hint.isEmpty() ? tr("Add runs to the basket and choose a metric") : hint);
}

void ChartPanel::setOptions(const ChartOptions& options) {
    if (options.xAxis != m_options.xAxis)
        m_zoom.reset(); // a time range means nothing in steps
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
    setOptions(o);
}

void ChartPanel::setAggregate(ChartOptions::Aggregate aggregate) {
    ChartOptions o = m_options;
    o.aggregate = aggregate;
    setOptions(o);
}

void ChartPanel::setNaming(ChartOptions::Naming naming) {
    ChartOptions o = m_options;
    o.naming = naming;
    setOptions(o);
}

void ChartPanel::setDense(ChartOptions::Dense dense) {
    ChartOptions o = m_options;
    o.dense = dense;
    setOptions(o);
}

bool ChartPanel::drawnAsRange(size_t i) const {
    return i < m_drawnAsRange.size() && m_drawnAsRange[i];
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
    for (const ChartRunData& r : m_runs)
        if (!r.run.workload().empty())
            keys.insert(workloadKeyOf(r.run));
    QStringList sorted(keys.begin(), keys.end());
    std::sort(sorted.begin(), sorted.end(), naturalLess);
    return sorted;
}

QString ChartPanel::workloadTitle(const QString& workloadKey) const {
    std::set<int64_t> experiments;
    const ChartRunData* first = nullptr;
    for (const ChartRunData& r : m_runs) {
        experiments.insert(r.run.experimentId);
        if (!first && workloadKeyOf(r.run) == workloadKey)
            first = &r;
    }
    if (!first)
        return workloadKey;
    QString title = tr("Workload %1").arg(toQString(first->run.workload()));
    if (experiments.size() > 1) // "Workload 0" alone would be listed once per experiment
        title += QStringLiteral(" (%1)").arg(first->experimentName.empty()
                                                 ? tr("experiment %1").arg(first->run.experimentId)
                                                 : toQString(first->experimentName));
    return title;
}

double ChartPanel::lineUnitsPerAxisUnit() const {
    // Line x is in ms since start or thousandths of an epoch; the axis shows seconds, minutes or
    // hours (by the runs' length), or epochs.
    switch (m_options.xAxis) {
    case ChartOptions::XAxis::SinceStart:
        return m_msPerTimeUnit;
    case ChartOptions::XAxis::Epoch:
        return 1000.0;
    case ChartOptions::XAxis::Step:
    case ChartOptions::XAxis::WallClock:
        break;
    }
    return 1.0;
}

double ChartPanel::toAxis(int64_t x) const {
    return double(x) / lineUnitsPerAxisUnit();
}

int64_t ChartPanel::fromAxis(double x) const {
    return static_cast<int64_t>(std::llround(x * lineUnitsPerAxisUnit()));
}

QAbstractAxis* ChartPanel::xAxisObject() const {
    return m_options.xAxis == ChartOptions::XAxis::WallClock ? static_cast<QAbstractAxis*>(m_xTime) : m_x;
}

QColor ChartPanel::lineColour(size_t line) const {
    return m_options.monochrome ? QColor(Qt::black)
                                : QColor(kPalette[colourIndex(line) % LineColours::kSlots]);
}

size_t ChartPanel::colourIndex(size_t line) const {
    // A run or merged workload keeps the colour it first got on the board, whatever else is
    // shown, hidden or split into runs later: colours follow what a line is, not its position.
    return m_colours->slotOf(colourKey(line));
}

QString ChartPanel::colourKey(size_t line) const {
    const ChartLine& l = m_lines.at(line);
    return l.runs.size() == 1 && l.runs.front() < m_runs.size()
               ? QStringLiteral("run:") + toQString(m_runs[l.runs.front()].run.uuid)
               : QStringLiteral("workload:") + l.workloadKey;
}

QStringList ChartPanel::colourKeys() const {
    QStringList keys;
    for (size_t i = 0; i < m_lines.size(); ++i)
        keys.append(colourKey(i));
    return keys;
}

void ChartPanel::setLineColours(std::shared_ptr<LineColours> colours) {
    m_colours = std::move(colours);
    rebuild();
}

void ChartPanel::rebuild() {
    m_lines = buildChartLines(m_runs, m_options);
    m_legendStale = true;
    // Time since start in the unit that gives readable ticks for the whole length: 0-600 s,
    // 10-180 min, then hours (a zoom keeps the unit, so the axis does not change under the user).
    int64_t longest = 0;
    for (const ChartLine& line : m_lines)
        longest = std::max(longest, line.pyramid.lastTime());
    m_msPerTimeUnit = longest > 3 * 3600000LL ? 3600000.0 : longest > 600000LL ? 60000.0 : 1000.0;

    // Adding and attaching series makes QtCharts re-range the axes: that is not the user zooming.
    m_updatingAxes = true;
    m_chart->removeAllSeries();
    m_series.clear();
    m_hoveredLine = -1;
    m_plot->setEmphasised(-1);
    // Axes stay in the chart while they are the right kind: QtCharts leaves a stale drawing of
    // an axis behind (in the corner, laid out at zero size) when one is removed and added again.
    QAbstractAxis* xAxis = xAxisObject();
    QAbstractAxis* yAxis = m_options.logY ? static_cast<QAbstractAxis*>(m_logY) : m_y;
    for (QAbstractAxis* axis : m_chart->axes())
        if (axis != xAxis && axis != yAxis)
            m_chart->removeAxis(axis);
    if (!m_chart->axes(Qt::Horizontal).contains(xAxis))
        m_chart->addAxis(xAxis, Qt::AlignBottom);
    if (!m_chart->axes(Qt::Vertical).contains(yAxis))
        m_chart->addAxis(yAxis, Qt::AlignLeft);
    // The series hold no points (m_plot draws them): they make the legend, and tie the axes to
    // QtCharts' zoom (rubber band, right-click zoom out).
    std::vector<ChartPlotItem::Line> plotLines(m_lines.size());
    for (size_t i = 0; i < m_lines.size(); ++i) {
        auto* series = new QLineSeries;
        series->setName(m_lines[i].name);
        m_chart->addSeries(series);
        series->attachAxis(xAxis);
        series->attachAxis(yAxis);
        m_series.push_back(series);
    }
    m_plot->setLines(std::move(plotLines));
    // Legend clicks hide and show a series; the marker stays, dimmed, to bring it back.
    for (QLegendMarker* marker : m_chart->legend()->markers()) {
        connect(marker, &QLegendMarker::clicked, this, [this, marker] {
            const QString name = marker->series()->name();
            setSeriesHidden(name, !m_options.hiddenSeries.count(name));
        });
        // A legend entry is easy to point at (a 1 px line is not): it shows the line's runs.
        connect(marker, &QLegendMarker::hovered, this, [this, marker](bool over) {
            const auto it = std::find(m_series.begin(), m_series.end(), marker->series());
            if (over && it != m_series.end())
                QToolTip::showText(QCursor::pos(), seriesTooltip(int(it - m_series.begin())), m_view);
            else
                QToolTip::hideText();
        });
    }
    m_updatingAxes = false;
    m_x->setTitleText(xAxisTitle());
    m_chart->setTitle(m_lines.empty() && !m_key.isEmpty() ? emptyChartMessage() : QString());
    hideCrosshair();
    styleSeries();
    requery();
    updateNavigator();
}

void ChartPanel::styleSeries() {
    const auto markers = m_chart->legend()->markers();
    std::vector<ChartPlotItem::Line>& drawn = m_plot->lines();
    for (size_t i = 0; i < m_series.size(); ++i) {
        QLineSeries* series = m_series[i];
        const QColor colour = lineColour(i);
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
        QColor fill = m_options.monochrome ? QColor(Qt::gray) : colour;
        fill.setAlphaF(0.22);
        drawn[i].pen = pen;
        drawn[i].bandFill = fill;
        drawn[i].visible = !hidden;
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
    m_plot->setMonochrome(m_options.monochrome);
    m_plot->linesChanged();
    updateNavigator();
    layoutLegend();
}

void ChartPanel::requery() {
    const bool hasData = !m_lines.empty();
    xAxisObject()->setVisible(hasData);
    (m_options.logY ? static_cast<QAbstractAxis*>(m_logY) : m_y)->setVisible(hasData);
    // Shows the legend with data, and only where its names fit; again when lines (live ones
    // growing past one point) bring the chart to or from its density.
    const int density = densityLines();
    if (m_legendStale || (density > ChartPlotItem::kDensityAbove ? density : 0) != m_plot->densityTotal())
        layoutLegend();
    m_navigator->setVisible(hasData);
    m_y->setTitleText(displayName(m_key));
    m_logY->setTitleText(displayName(m_key));
    if (!hasData)
        return;
    int64_t from = std::numeric_limits<int64_t>::max(), to = std::numeric_limits<int64_t>::min();
    for (const ChartLine& line : m_lines) {
        from = std::min(from, line.pyramid.firstTime());
        to = std::max(to, line.pyramid.lastTime());
    }
    if (m_zoom) {
        from = m_zoom->first;
        to = m_zoom->second;
    } else if (to <= from) {
        // A lone point (one sample, one epoch) sits in the middle, not half-clipped on the edge.
        const int64_t pad = m_options.xAxis == ChartOptions::XAxis::Step ? 1 : 1000;
        from -= pad;
        to += pad;
    }
    const int columns = plotColumns();
    auto [yMin, yMax] = fetchLines(from, to, columns);
    if (yMin > yMax) // everything hidden or nothing in range
        yMin = yMax = 0;
    m_updatingAxes = true;
    if (m_options.xAxis == ChartOptions::XAxis::WallClock) {
        m_xTime->setRange(QDateTime::fromMSecsSinceEpoch(from),
                          QDateTime::fromMSecsSinceEpoch(to > from ? to : from + 1000));
        m_xTime->setTickCount(xTickIntervals() + 1);
        // The time of day to the second (hh:mm:ss), with the date instead beyond two days.
        const int64_t span = to - from;
        m_xTime->setFormat(span > 2 * 86400000LL ? QStringLiteral("MM-dd HH:mm")
                                                 : QStringLiteral("HH:mm:ss"));
    } else {
        const double x0 = toAxis(from), x1 = to > from ? toAxis(to) : toAxis(from) + 1;
        // The new step before the new range: a deep zoom's step over the whole range would have
        // QtCharts lay out a hundred thousand tick labels.
        m_x->setTickInterval(niceTickStep(x1 - x0, xTickIntervals()));
        m_x->setRange(x0, x1);
        if (!m_zoom) {
            m_x->setTickCount(xTickIntervals() + 1);
            m_x->applyNiceNumbers(); // the whole range widens to round ends
        }
        {
            // Ticks on round numbers (1-2-5 steps) with as many decimals as the step needs: a
            // zoomed range stays exactly what the user chose and still reads 3, 4, 5 (not
            // 3.004), and 0..100 reads 0, 20, 40 (not 16.6667).
            const double step = niceTickStep(m_x->max() - m_x->min(), xTickIntervals());
            m_x->setTickType(QValueAxis::TicksDynamic);
            m_x->setTickAnchor(0);
            m_x->setTickInterval(step);
            m_x->setLabelFormat(QStringLiteral("%.") + QString::number(tickDecimals(step)) +
                                QStringLiteral("f"));
        }
    }
    updateAxes(yMin, yMax);
    m_updatingAxes = false;
    // Lay the axes out for their new labels now: QtCharts would do it in a posted event after
    // the frame was painted, and paint every zoom step twice.
    m_chart->layout()->activate();
    syncPlotMapping();
    m_navigator->setWindow(m_zoom);
    refreshCrosshair();
}

void ChartPanel::updateNavigator() {
    std::vector<ChartNavigator::Line> lines;
    int64_t from = std::numeric_limits<int64_t>::max(), to = std::numeric_limits<int64_t>::min();
    for (const ChartLine& line : m_lines) {
        from = std::min(from, line.pyramid.firstTime());
        to = std::max(to, line.pyramid.lastTime());
    }
    const int columns = std::max(100, m_navigator->width());
    std::vector<int64_t> t;
    std::vector<double> v;
    for (size_t i = 0; i < m_lines.size(); ++i) {
        if (m_options.hiddenSeries.count(m_lines[i].name))
            continue;
        m_lines[i].pyramid.query(from, to, columns, t, v);
        ChartNavigator::Line line{lineColour(i), {}};
        line.points.reserve(int(t.size()));
        for (size_t k = 0; k < t.size(); ++k)
            line.points.append(QPointF(double(t[k]), v[k]));
        lines.push_back(std::move(line));
    }
    m_navigator->setLines(std::move(lines), m_lines.empty() ? 0 : from, m_lines.empty() ? 1 : to,
                          m_options.monochrome);
    m_navigator->setWindow(m_zoom);
}

void ChartPanel::syncPlotMapping() {
    ChartPlotItem::Mapping mapping;
    mapping.plot = m_chart->plotArea();
    if (m_options.xAxis == ChartOptions::XAxis::WallClock) {
        mapping.xMin = double(m_xTime->min().toMSecsSinceEpoch());
        mapping.xMax = double(m_xTime->max().toMSecsSinceEpoch());
    } else {
        mapping.xMin = m_x->min();
        mapping.xMax = m_x->max();
    }
    mapping.logY = m_options.logY;
    mapping.yMin = m_options.logY ? m_logY->min() : m_y->min();
    mapping.yMax = m_options.logY ? m_logY->max() : m_y->max();
    m_plot->setMapping(mapping);
}

void ChartPanel::setUserZoom(std::optional<std::pair<int64_t, int64_t>> range) {
    if (m_lines.empty() || (range && range->second <= range->first))
        return;
    m_zoom = range;
    requery();
    m_detailTimer.start();
    emit userZoomChanged();
}

void ChartPanel::wheelZoom(double axisX, double steps) {
    if (m_lines.empty())
        return;
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    for (const ChartLine& line : m_lines) {
        first = std::min(first, line.pyramid.firstTime());
        last = std::max(last, line.pyramid.lastTime());
    }
    const auto [from, to] = m_zoom.value_or(std::make_pair(first, last));
    // Each notch shows 80 % (in) or 125 % (out) of the range, the point under the mouse staying put.
    const double factor = std::pow(0.8, steps);
    const double at = double(std::clamp(fromAxis(axisX), from, to));
    const auto lo = static_cast<int64_t>(std::llround(at - (at - double(from)) * factor));
    const auto hi = static_cast<int64_t>(std::llround(at + (double(to) - at) * factor));
    if (lo <= first && hi >= last)
        setUserZoom(std::nullopt); // zoomed out to everything: not a zoom any more
    else if (hi - lo >= 10)
        setUserZoom(std::make_pair(std::max(lo, first), std::min(hi, last)));
}

void ChartPanel::zoomX(double from, double to) {
    if (to > from)
        setUserZoom(std::make_pair(fromAxis(from), fromAxis(to)));
}

void ChartPanel::resetZoom() {
    if (m_lines.empty()) {
        m_zoom.reset();
        return;
    }
    setUserZoom(std::nullopt);
}

void ChartPanel::applyLinkedZoom(ChartOptions::XAxis axis, std::optional<std::pair<int64_t, int64_t>> range) {
    if (axis != m_options.xAxis || range == m_zoom || m_lines.empty())
        return;
    m_zoom = range;
    requery();
    m_detailTimer.start();
}

std::pair<double, double> ChartPanel::visibleXRange() const {
    if (m_options.xAxis == ChartOptions::XAxis::WallClock)
        return {double(m_xTime->min().toMSecsSinceEpoch()), double(m_xTime->max().toMSecsSinceEpoch())};
    return {m_x->min(), m_x->max()};
}

bool ChartPanel::hasBand(int series) const {
    return series >= 0 && series < seriesCount() && m_lines[size_t(series)].bandLow.has_value();
}

QVector<QPointF> ChartPanel::bandPoints(int series, bool upper) const {
    if (!hasBand(series) && !(series >= 0 && drawnAsRange(size_t(series))))
        return {};
    const ChartPlotItem::Line& line = std::as_const(*m_plot).lines()[size_t(series)];
    return upper ? line.bandHigh : line.bandLow;
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
    return int(seriesPoints(series).size());
}

QVector<QPointF> ChartPanel::seriesPoints(int series) const {
    return series >= 0 && series < seriesCount() ? std::as_const(*m_plot).lines()[size_t(series)].points
                                                 : QVector<QPointF>();
}

bool ChartPanel::seriesVisible(int series) const {
    return series >= 0 && series < seriesCount() && !m_options.hiddenSeries.count(m_series[series]->name());
}

QImage ChartPanel::renderToImage(const QSize& size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    render(painter, size);
    return image;
}

void ChartPanel::render(QPainter& painter, const QSize& size, const QRectF& target) {
    // Lay the chart out at the requested size inside its scene, draw it, then put it back, so
    // the same code serves a hidden panel (tests, exports) and one on screen, and every paint
    // device (image, SVG, PDF) gets the same drawing.
    const QSizeF oldSize = m_chart->size();
    const bool crosshair = m_crosshairBox->isVisible();
    hideCrosshair();
    m_rendering = true;
    m_chart->resize(size);
    m_chart->layout()->activate();
    requery();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    m_chart->scene()->render(&painter, target.isNull() ? QRectF(QPointF(0, 0), size) : target,
                             QRectF(m_chart->pos(), size));
    m_rendering = false;
    m_chart->resize(oldSize);
    m_chart->layout()->activate();
    requery();
    if (crosshair) {
        m_crosshairBox->show();
        m_crosshairLine->show();
    }
}

void ChartPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!m_lines.empty())
        m_requeryTimer.start(); // a resize re-decimates once the user stops dragging
}

} // namespace radt
