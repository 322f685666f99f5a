// SPDX-License-Identifier: MIT
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartDescription.h"

#include "widgets/chart/ChartAxes.h"
#include "widgets/chart/ChartCrosshair.h"
#include "widgets/chart/ChartLegend.h"
#include "widgets/chart/ChartNavigator.h"
#include "widgets/chart/ChartPlotItem.h"
#include "widgets/common/Formatting.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <utility>

using namespace QtCharts;

namespace radt {

namespace {

const Qt::PenStyle kMonochromeStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                          Qt::DashDotDotLine};

/// Intervals between x ticks: about 80 px per label ("00:00:00", "12.5k" and a gap), so a
/// narrow chart has fewer and labels are never cut to "…".
int xTickIntervals(const QSizeF& plot) {
    return std::clamp(int(plot.width() / 80), 2, 6);
}

/// The navigator's overview: every visible line over the whole data range, and the zoom's window.
void showOverview(ChartNavigator& navigator, const ChartEngine& engine) {
    std::vector<ChartNavigator::Line> lines;
    const auto [from, to] = engine.dataRange().value_or(LineRange{0, 1});
    const int columns = std::max(100, navigator.width());
    std::vector<int64_t> t;
    std::vector<double> v;
    for (size_t i = 0; i < engine.lines().size(); ++i) {
        if (!engine.seriesVisible(int(i)))
            continue;
        engine.lines()[i].pyramid.query(from, to, columns, t, v);
        ChartNavigator::Line line{engine.lineColour(i), {}};
        line.points.reserve(int(t.size()));
        for (size_t k = 0; k < t.size(); ++k)
            line.points.append(QPointF(double(t[k]), v[k]));
        lines.push_back(std::move(line));
    }
    navigator.setLines(std::move(lines), from, to, engine.options().monochrome);
    navigator.setWindow(engine.zoom());
}

} // namespace

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent), m_chart(new QChart) {
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setVisible(true);
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->legend()->setShowToolTips(true); // a name the legend shortens is whole on hover
    // Detached, QtCharts lays markers out in rows; ChartLegend places it under the plot.
    m_chart->legend()->detachFromChart();
    m_chart->legend()->setBackgroundVisible(false);
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setMargins(QMargins(8, 4, 16, 4));
    m_chart->setBackgroundRoundness(0);
    m_legend = std::make_unique<ChartLegend>(m_chart);
    connect(m_chart, &QGraphicsWidget::geometryChanged, this,
            [this] { m_legend->layout(m_engine, m_series, *m_plot); });
    m_axes = std::make_unique<ChartAxes>(m_chart, this);

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

    m_crosshair = std::make_unique<ChartCrosshair>(m_chart);
    // The lines: over the grid and axes, under the legend and the crosshair.
    m_plot = new ChartPlotItem(m_chart);
    m_plot->setZValue(5);

    // The rubber band (and right-click zoom out) move the x axis: fetch that range at full
    // resolution, once the user has stopped (~40 ms), not on every intermediate step.
    auto syncPlot = [this] { m_plot->setMapping(m_axes->mapping(m_chart->plotArea(), m_engine.options())); };
    auto onAxisMoved = [this, syncPlot](double min, double max) {
        if (m_updatingAxes || m_engine.lines().empty())
            return;
        m_engine.setZoom(std::make_pair(m_engine.fromAxis(min), m_engine.fromAxis(max)));
        syncPlot(); // this frame: the points held, stretched; the requery refines them
        m_requeryTimer.start();
        emit userZoomChanged();
    };
    connect(m_axes->valueX(), &QValueAxis::rangeChanged, this, onAxisMoved);
    connect(m_axes->timeX(), &QDateTimeAxis::rangeChanged, this,
            [onAxisMoved](const QDateTime& min, const QDateTime& max) {
                onAxisMoved(double(min.toMSecsSinceEpoch()), double(max.toMSecsSinceEpoch()));
            });
    // The lines follow the axes whoever moves them: requery, QtCharts' zoom, a resize.
    connect(m_chart, &QChart::plotAreaChanged, this, syncPlot);
    connect(m_axes->valueY(), &QValueAxis::rangeChanged, this, syncPlot);
    connect(m_axes->logY(), &QLogValueAxis::rangeChanged, this, syncPlot);
    m_requeryTimer.setSingleShot(true);
    m_requeryTimer.setInterval(40);
    connect(&m_requeryTimer, &QTimer::timeout, this, [this] { requery(); });
    m_detailTimer.setSingleShot(true);
    m_detailTimer.setInterval(250);
    connect(&m_detailTimer, &QTimer::timeout, this, [this] {
        if (m_engine.holdsReducedRuns())
            emit detailWanted();
    });
    clear();
}

ChartPanel::~ChartPanel() {
    // A hovered legend entry says it is left when the chart deletes it, after this panel's
    // members are gone: its slots must not run then.
    for (QLegendMarker* marker : m_chart->legend()->markers())
        marker->disconnect(this);
}

void ChartPanel::setLineColours(std::shared_ptr<LineColours> colours) {
    m_engine.setLineColours(std::move(colours));
    m_engine.rebuildLines();
    showLines();
}

void ChartPanel::setLoading(const QString& metricKey) {
    m_engine.setLoading(metricKey);
    m_chart->setTitle(tr("Loading %1…").arg(displayName(metricKey)));
}

void ChartPanel::setData(std::vector<ChartRunData> runs, const QString& metricKey) {
    m_engine.setData(std::move(runs), metricKey);
    m_detailTimer.stop();
    showLines();
}

void ChartPanel::showDetached(std::vector<ChartRunData> runs, const QString& metricKey,
                              const ChartOptions& options, std::optional<LineRange> zoom) {
    m_engine.showDetached(std::move(runs), metricKey, options, zoom);
    m_detailTimer.stop();
    showLines();
    emit optionsChanged();
}

void ChartPanel::clear(const QString& hint) {
    m_engine.clear();
    m_detailTimer.stop();
    showLines();
    m_chart->setTitle(hint.isEmpty() ? tr("Add runs to the basket and choose a metric") : hint);
}

void ChartPanel::changeOptions(const std::function<void(ChartOptions&)>& change) {
    ChartOptions options = m_engine.options();
    change(options);
    if (m_engine.setOptions(std::move(options))) {
        m_engine.rebuildLines();
        showLines();
    } else {
        styleSeries();
    }
    emit optionsChanged();
}

void ChartPanel::showLines() {
    m_legend->markStale();
    // Adding and attaching series makes QtCharts re-range the axes: that is not the user zooming.
    m_updatingAxes = true;
    m_chart->removeAllSeries();
    m_series.clear();
    m_hoveredLine = -1;
    m_plot->setEmphasised(-1);
    m_axes->useKinds(m_engine.options());
    QAbstractAxis* xAxis = m_axes->x(m_engine.options().xAxis);
    QAbstractAxis* yAxis = m_axes->y(m_engine.options().logY);
    // The series hold no points (m_plot draws them): they make the legend, and tie the axes to
    // QtCharts' zoom (rubber band, right-click zoom out).
    for (const ChartLine& line : m_engine.lines()) {
        auto* series = new QLineSeries;
        series->setName(line.name);
        m_chart->addSeries(series);
        series->attachAxis(xAxis);
        series->attachAxis(yAxis);
        m_series.push_back(series);
    }
    m_plot->setLines(std::vector<PlotLine>(m_engine.lines().size()));
    m_hoveredEntry = -1; // the markers are new
    // Legend clicks hide and show a series; the marker stays, dimmed, to bring it back.
    for (QLegendMarker* marker : m_chart->legend()->markers()) {
        connect(marker, &QLegendMarker::clicked, this, [this, marker] {
            const QString name = marker->series()->name();
            changeOptions([&name](ChartOptions& o) {
                if (!o.hiddenSeries.erase(name))
                    o.hiddenSeries.insert(name);
            });
        });
        // A legend entry is easy to point at (a 1 px line is not): it shows the line's runs.
        connect(marker, &QLegendMarker::hovered, this, [this, marker](bool over) {
            const auto it = std::find(m_series.begin(), m_series.end(), marker->series());
            m_hoveredEntry = over && it != m_series.end() ? int(it - m_series.begin()) : -1;
            if (over && it != m_series.end())
                QToolTip::showText(QCursor::pos(), seriesTooltip(m_engine, int(it - m_series.begin())),
                                   m_view);
            else
                QToolTip::hideText();
        });
    }
    m_updatingAxes = false;
    m_chart->setTitle(whyNothingIsDrawn(m_engine));
    m_crosshair->hide();
    styleSeries();
    requery();
    showOverview(*m_navigator, m_engine);
}

void ChartPanel::styleSeries() {
    const ChartOptions& options = m_engine.options();
    const auto markers = m_chart->legend()->markers();
    std::vector<PlotLine>& drawn = m_plot->lines();
    for (size_t i = 0; i < m_series.size(); ++i) {
        QLineSeries* series = m_series[i];
        const QColor colour = m_engine.lineColour(i);
        const bool hidden = options.hiddenSeries.count(series->name()) > 0;
        // A hidden series is drawn transparent rather than setVisible(false): QtCharts would
        // drop its legend marker too, and the marker is how the user brings it back.
        QPen pen = series->pen();
        QColor line = colour;
        line.setAlphaF(hidden ? 0.0 : 1.0);
        pen.setColor(line);
        pen.setStyle(options.monochrome ? kMonochromeStyles[i % 5] : Qt::SolidLine);
        pen.setWidthF(options.lineWidth);
        series->setPen(pen);
        QColor fill = options.monochrome ? QColor(Qt::gray) : colour;
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
    m_plot->setMonochrome(options.monochrome);
    m_plot->linesChanged();
    showOverview(*m_navigator, m_engine);
    m_legend->layout(m_engine, m_series, *m_plot);
}

void ChartPanel::requery() {
    const bool hasData = !m_engine.lines().empty();
    m_axes->show(m_engine.options(), hasData, m_engine.xAxisTitle(), displayName(m_engine.yAxisTitle()));
    // Shows the legend with data, and only where its names fit; again when lines (live ones
    // growing past one point) bring the chart to or from its density.
    const int density = densityLines(m_engine);
    if (m_legend->isStale() || (density > kDensityAbove ? density : 0) != m_plot->densityTotal())
        m_legend->layout(m_engine, m_series, *m_plot);
    m_navigator->setVisible(hasData);
    if (!hasData)
        return;
    const auto [from, to] = m_engine.shownRange();
    auto [yMin, yMax] = m_engine.fetchLines(from, to, plotColumns(), m_plot->lines());
    if (yMin > yMax) // everything hidden or nothing in range
        yMin = yMax = 0;
    m_updatingAxes = true;
    m_axes->setXRange(m_engine, from, to, m_engine.zoom().has_value(), xTickIntervals(plotSize()));
    m_axes->setYRange(m_engine.options().logY, yMin, yMax, plotSize());
    m_updatingAxes = false;
    // Lay the axes out for their new labels now: QtCharts would do it in a posted event after
    // the frame was painted, and paint every zoom step twice.
    m_chart->layout()->activate();
    m_plot->setMapping(m_axes->mapping(m_chart->plotArea(), m_engine.options()));
    m_navigator->setWindow(m_engine.zoom());
    refreshCrosshair();
}

void ChartPanel::setUserZoom(std::optional<LineRange> range) {
    if (m_engine.lines().empty() || (range && range->second <= range->first))
        return;
    m_engine.setZoom(range);
    requery();
    m_detailTimer.start();
    emit userZoomChanged();
}

void ChartPanel::zoomX(double from, double to) {
    if (to > from)
        setUserZoom(std::make_pair(m_engine.fromAxis(from), m_engine.fromAxis(to)));
}

void ChartPanel::resetZoom() {
    if (m_engine.lines().empty()) {
        m_engine.setZoom(std::nullopt);
        return;
    }
    setUserZoom(std::nullopt);
}

void ChartPanel::applyLinkedZoom(ChartOptions::XAxis axis, std::optional<LineRange> range) {
    if (axis != m_engine.options().xAxis || range == m_engine.zoom() || m_engine.lines().empty())
        return;
    m_engine.setZoom(range);
    requery();
    m_detailTimer.start();
}

std::pair<double, double> ChartPanel::visibleXRange() const {
    return m_axes->visibleX(m_engine.options().xAxis);
}

bool ChartPanel::appendLive(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    const ChartChange change = m_engine.appendLive(runUuid, points);
    if (change == ChartChange::Rebuilt)
        showLines(); // a user's zoom survives; otherwise the range grows with the data
    else if (change == ChartChange::Grown) {
        requery();
        showOverview(*m_navigator, m_engine);
    }
    return change != ChartChange::None;
}

bool ChartPanel::applyLivePoll(const QString& metricKey, const std::vector<LivePollResult>& results) {
    bool changed = false;
    const ChartChange change = m_engine.applyLivePoll(metricKey, results, &changed);
    if (change == ChartChange::Rebuilt)
        showLines();
    else if (change == ChartChange::Grown) {
        requery();
        showOverview(*m_navigator, m_engine);
    }
    return changed;
}

std::optional<ChartDetailQuery> ChartPanel::detailQuery() {
    return m_engine.detailQuery(plotColumns());
}

void ChartPanel::applyDetail(const ChartDetailQuery& query, std::vector<ChartDetail> details) {
    if (m_engine.applyDetail(query, std::move(details)))
        showLines(); // the user's zoom stays
}

QVector<QPointF> ChartPanel::seriesPoints(int series) const {
    return series >= 0 && series < int(m_series.size())
               ? std::as_const(*m_plot).lines()[size_t(series)].points
               : QVector<QPointF>();
}

int ChartPanel::plotColumns() const {
    const int plotWidth = static_cast<int>(m_chart->plotArea().width());
    // Before the first layout the plot area is empty: estimate it from the view.
    const int width = plotWidth > 50 ? plotWidth : m_view->width() - 80;
    return std::max(width, 200);
}

QSizeF ChartPanel::plotSize() const {
    // A panel never shown has had no layout: its own size, less the axes' and legend's usual room.
    if (!isVisible() && !m_rendering)
        return QSizeF(std::max(100, width() - 90), std::max(100, height() - 120));
    return m_chart->plotArea().size();
}

void ChartPanel::render(QPainter& painter, const QSize& size, const QRectF& target) {
    // Lay the chart out at the requested size inside its scene, draw it, then put it back, so
    // the same code serves a hidden panel (tests, exports) and one on screen, and every paint
    // device (image, SVG, PDF) gets the same drawing.
    const QSizeF oldSize = m_chart->size();
    const bool crosshair = m_crosshair->isVisible();
    m_crosshair->hide();
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
    if (crosshair)
        m_crosshair->showAgain();
}

void ChartPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!m_engine.lines().empty())
        m_requeryTimer.start(); // a resize re-decimates once the user stops dragging
}

QImage renderToImage(ChartPanel& panel, const QSize& size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    panel.render(painter, size);
    return image;
}

} // namespace radt
