// SPDX-License-Identifier: MIT
#include "widgets/chart/engine/ChartEngine.h"

#include "core/base/InsightSeries.h"
#include "core/base/MetricUnits.h"
#include "widgets/chart/engine/ChartOptionsJson.h"
#include "widgets/common/Formatting.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace radt {

namespace {

// Tableau's ten categorical colours: distinct on screen and in print.
const QRgb kPalette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                         0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};

} // namespace

ChartEngine::ChartEngine() : m_colours(std::make_shared<LineColours>()) {}

void ChartEngine::setLoading(const QString& metricKey) {
    m_loading = true;
    m_key = metricKey;
}

void ChartEngine::setData(std::vector<ChartRunData> runs, const QString& metricKey) {
    m_loading = false;
    m_detached = false;
    m_runs = std::move(runs);
    for (ChartRunData& r : m_runs)
        compactSteps(r);
    m_key = metricKey;
    m_zoom.reset();
    forgetDetail();
    rebuildLines();
}

void ChartEngine::showDetached(std::vector<ChartRunData> runs, const QString& metricKey,
                               const ChartOptions& options, std::optional<LineRange> zoom) {
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
    rebuildLines();
}

void ChartEngine::clear() {
    m_loading = false;
    m_detached = false;
    m_runs.clear();
    forgetDetail();
    m_key.clear();
    m_zoom.reset();
    rebuildLines();
}

bool ChartEngine::setOptions(ChartOptions options) {
    options.smoothing = std::clamp(options.smoothing, 0, 99);
    options.lineWidth = std::clamp(options.lineWidth, 0.5, 8.0);
    if (options.xAxis != m_options.xAxis)
        m_zoom.reset(); // a time range means nothing in steps
    // Monochrome, line width and hidden series change how lines look, not what they are.
    const ChartOptions& o = m_options;
    const bool linesChange =
        options.smoothing != o.smoothing || options.logY != o.logY || options.xAxis != o.xAxis ||
        options.aggregate != o.aggregate || options.naming != o.naming || options.dense != o.dense ||
        options.shownRuns != o.shownRuns || options.grouping != o.grouping ||
        options.groupParams != o.groupParams || options.band != o.band || options.apartRuns != o.apartRuns;
    m_options = std::move(options);
    return linesChange;
}

ValueRange ChartEngine::valueRange() const {
    const std::optional<MetricUnit> unit = unitOfKey(m_key.toStdString());
    return unit ? ValueRange{unit->low, unit->high} : ValueRange{};
}

QString ChartEngine::unitSymbol() const {
    const std::optional<MetricUnit> unit = unitOfKey(m_key.toStdString());
    return unit ? QString::fromStdString(unit->symbol) : QString();
}

QString ChartEngine::yAxisTitle() const {
    return QString::fromStdString(keyWithUnit(m_key.toStdString()));
}

void ChartEngine::rebuildLines() {
    m_lines = buildChartLines(m_runs, m_options, valueRange());
    // Time since start in the unit that gives readable ticks for the whole length: 0-600 s,
    // 10-180 min, then hours (a zoom keeps the unit, so the axis does not change under the user).
    int64_t longest = 0;
    for (const ChartLine& line : m_lines)
        longest = std::max(longest, line.pyramid.lastTime());
    m_msPerTimeUnit = longest > 3 * 3600000LL ? 3600000.0 : longest > 600000LL ? 60000.0 : 1000.0;
}

QColor ChartEngine::lineColour(size_t line) const {
    return m_options.monochrome ? QColor(Qt::black)
                                : QColor(kPalette[colourIndex(line) % LineColours::kSlots]);
}

size_t ChartEngine::colourIndex(size_t line) const {
    // A run or merged workload keeps the colour it first got on the board, whatever else is
    // shown, hidden or split into runs later: colours follow what a line is, not its position.
    return m_colours->slotOf(colourKey(line));
}

QString ChartEngine::colourKey(size_t line) const {
    const ChartLine& l = m_lines.at(line);
    return l.runs.size() == 1 && l.runs.front() < m_runs.size()
               ? QStringLiteral("run:") + toQString(m_runs[l.runs.front()].run.uuid)
               : QStringLiteral("workload:") + l.workloadKey;
}

QStringList ChartEngine::colourKeys() const {
    QStringList keys;
    for (size_t i = 0; i < m_lines.size(); ++i)
        keys.append(colourKey(i));
    return keys;
}

bool ChartEngine::seriesVisible(int series) const {
    return series >= 0 && series < seriesCount() &&
           !m_options.hiddenSeries.count(m_lines[size_t(series)].name);
}

bool ChartEngine::hasBand(int series) const {
    return series >= 0 && series < seriesCount() && m_lines[size_t(series)].bandLow.has_value();
}

QString ChartEngine::xAxisTitle() const {
    QString epochKey;
    for (const ChartRunData& r : m_runs)
        if (epochKey.isEmpty() && !r.epochKey.empty())
            epochKey = toQString(r.epochKey);
    return xAxisMode(m_options.xAxis).title(m_msPerTimeUnit, epochKey);
}

double ChartEngine::lineUnitsPerAxisUnit() const {
    return xAxisMode(m_options.xAxis).lineUnitsPerAxisUnit(m_msPerTimeUnit);
}

int64_t ChartEngine::fromAxis(double x) const {
    return static_cast<int64_t>(std::llround(x * lineUnitsPerAxisUnit()));
}

std::optional<LineRange> ChartEngine::dataRange() const {
    if (m_lines.empty())
        return std::nullopt;
    int64_t from = std::numeric_limits<int64_t>::max(), to = std::numeric_limits<int64_t>::min();
    for (const ChartLine& line : m_lines) {
        from = std::min(from, line.pyramid.firstTime());
        to = std::max(to, line.pyramid.lastTime());
    }
    return LineRange{from, to};
}

LineRange ChartEngine::shownRange() const {
    if (m_zoom)
        return *m_zoom;
    auto [from, to] = dataRange().value_or(LineRange{0, 1});
    if (to <= from) {
        // A lone point (one sample, one epoch) sits in the middle, not half-clipped on the edge.
        const int64_t pad = m_options.xAxis == ChartOptions::XAxis::Step ? 1 : 1000;
        from -= pad;
        to += pad;
    }
    return {from, to};
}

std::optional<std::optional<LineRange>> ChartEngine::wheelZoom(double axisX, double steps) const {
    const auto data = dataRange();
    if (!data)
        return std::nullopt;
    const auto [first, last] = *data;
    const auto [from, to] = m_zoom.value_or(*data);
    // Each notch shows 80 % (in) or 125 % (out) of the range, the point under the mouse staying put.
    const double factor = std::pow(0.8, steps);
    const double at = double(std::clamp(fromAxis(axisX), from, to));
    const auto lo = static_cast<int64_t>(std::llround(at - (at - double(from)) * factor));
    const auto hi = static_cast<int64_t>(std::llround(at + (double(to) - at) * factor));
    if (lo <= first && hi >= last)
        return std::optional<LineRange>(); // zoomed out to everything: not a zoom any more
    if (hi - lo >= 10)
        return std::optional<LineRange>(LineRange{std::max(lo, first), std::min(hi, last)});
    return std::nullopt;
}

int ChartEngine::lineAt(const QPointF& at, const PlotMapping& mapping, const std::vector<PlotLine>& drawn,
                        double reach) const {
    if (m_lines.empty() || !mapping.plot.contains(at) || mapping.xMax <= mapping.xMin)
        return -1;
    // The pixel columns around the point, in line units; each line's min and max there come from
    // its pyramid (exact, whatever the zoom), then back to pixels to compare with the point.
    const double axisPerPixel = (mapping.xMax - mapping.xMin) / mapping.plot.width();
    const double axisX = mapping.axisXAt(at.x());
    const int64_t from = fromAxis(axisX - reach * axisPerPixel), to = fromAxis(axisX + reach * axisPerPixel);
    std::vector<int64_t> t;
    std::vector<double> v;
    // The nearest line within reach (lines 3 px apart in a density: the one under the mouse, not
    // the one above it); of lines the mouse is on, the one drawn last, on top.
    int nearest = -1;
    double nearestDistance = reach;
    for (size_t i = m_lines.size(); i-- > 0;) { // the last line is drawn on top
        if (i < drawn.size() && !drawn[i].visible)
            continue;
        m_lines[i].pyramid.query(from, to, 1, t, v);
        // Where the line crosses the window without a point in it, its neighbours bound it.
        if (t.empty()) {
            const auto before = m_lines[i].pyramid.nearest(from), after = m_lines[i].pyramid.nearest(to);
            if (!before || !after || before->first > from || after->first < to)
                continue;
            v = {before->second, after->second};
        }
        const auto [low, high] = std::minmax_element(v.begin(), v.end());
        const double top = mapping.toItem(QPointF(axisX, *high)).y();
        const double bottom = mapping.toItem(QPointF(axisX, *low)).y();
        const double distance = std::max({0.0, top - at.y(), at.y() - bottom});
        if (distance > reach || (nearest >= 0 && distance >= nearestDistance))
            continue;
        nearest = int(i);
        nearestDistance = distance;
        if (distance == 0)
            break;
    }
    return nearest;
}

} // namespace radt
