// SPDX-License-Identifier: MIT
#include "widgets/compare/ParallelEngine.h"

#include <algorithm>
#include <cmath>

namespace radt {

namespace {

/// The distance from `p` to the segment a-b.
double segmentDistance(const QPointF& p, const QPointF& a, const QPointF& b) {
    const QPointF d = b - a;
    const double length2 = QPointF::dotProduct(d, d);
    const double t = length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, d) / length2, 0.0, 1.0) : 0.0;
    const QPointF nearest = a + t * d;
    return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

} // namespace

void ParallelEngine::setTable(CompareTable table) {
    std::vector<Axis> kept;
    for (const Axis& axis : m_axes) {
        const int column = table.column(m_table.columns[size_t(axis.column)].id);
        if (column < 0)
            continue;
        Axis moved = axis;
        moved.column = column;
        kept.push_back(moved);
    }
    m_table = std::move(table);
    m_axes = std::move(kept);
    for (Axis& axis : m_axes)
        rescale(axis);
    if (m_table.column(m_colourBy) < 0)
        m_colourBy.clear();
    layOut();
    recolour();
    reselect();
}

void ParallelEngine::setAxes(const QStringList& ids) {
    std::vector<Axis> axes;
    for (const QString& id : ids) {
        const int column = m_table.column(id);
        if (column < 0)
            continue;
        const auto old =
            std::find_if(m_axes.begin(), m_axes.end(), [&](const Axis& a) { return a.column == column; });
        Axis axis = old != m_axes.end() ? *old : Axis{};
        axis.column = column;
        axes.push_back(axis);
    }
    m_axes = std::move(axes);
    for (Axis& axis : m_axes)
        rescale(axis);
    layOut();
    recolour();
    reselect();
}

QStringList ParallelEngine::axisIds() const {
    QStringList ids;
    for (const Axis& axis : m_axes)
        ids << m_table.columns[size_t(axis.column)].id;
    return ids;
}

const CompareColumn& ParallelEngine::axisColumn(int axis) const {
    return m_table.columns.at(size_t(m_axes.at(size_t(axis)).column));
}

void ParallelEngine::moveAxis(int from, int to) {
    if (from < 0 || from >= axisCount() || to < 0 || to >= axisCount() || from == to)
        return;
    Axis axis = m_axes[size_t(from)];
    m_axes.erase(m_axes.begin() + from);
    m_axes.insert(m_axes.begin() + to, axis);
    layOut();
}

bool ParallelEngine::canLog(int axis) const {
    return ColumnScale::canLog(axisColumn(axis));
}

bool ParallelEngine::setLog(int axis, bool on) {
    if (on && !canLog(axis))
        return false;
    Axis& a = m_axes.at(size_t(axis));
    a.log = on;
    rescale(a);
    recolour();
    return true;
}

void ParallelEngine::setColourBy(const QString& id) {
    m_colourBy = m_table.column(id) >= 0 ? id : QString();
    recolour();
}

QColor ParallelEngine::colourOf(size_t run) const {
    const int column = m_table.column(m_colourBy);
    if (column < 0)
        return ColourScale::qualitative(0);
    return m_colours.colourOf(m_table.columns[size_t(column)].values.at(run));
}

void ParallelEngine::setPlotRect(const QRectF& rect) {
    m_rect = rect;
    for (Axis& axis : m_axes)
        rescale(axis);
    layOut();
}

QPointF ParallelEngine::point(size_t run, int axis) const {
    const Axis& a = m_axes.at(size_t(axis));
    return {a.x, a.scale.toPixel(m_table.columns[size_t(a.column)].values.at(run))};
}

int ParallelEngine::axisNear(double x, double tolerance) const {
    int best = -1;
    double bestDistance = tolerance;
    for (int i = 0; i < axisCount(); ++i) {
        const double d = std::fabs(m_axes[size_t(i)].x - x);
        if (d <= bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    return best;
}

int ParallelEngine::runAt(const QPointF& pos, double tolerance) const {
    int best = -1;
    double bestDistance = tolerance;
    bool bestSelected = false;
    for (size_t run = 0; run < runCount(); ++run) {
        double distance = HUGE_VAL;
        for (int i = 0; i + 1 < axisCount(); ++i) {
            if (pos.x() < axisX(i) - tolerance || pos.x() > axisX(i + 1) + tolerance)
                continue;
            const QPointF a = point(run, i), b = point(run, i + 1);
            if (std::isfinite(a.y()) && std::isfinite(b.y()))
                distance = std::min(distance, segmentDistance(pos, a, b));
        }
        if (axisCount() == 1 && std::isfinite(point(run, 0).y()))
            distance = std::hypot(pos.x() - point(run, 0).x(), pos.y() - point(run, 0).y());
        const bool selected = isSelected(run) || !hasBrush();
        if (distance < bestDistance || (distance == bestDistance && selected && !bestSelected)) {
            best = int(run);
            bestDistance = distance;
            bestSelected = selected;
        }
    }
    return best;
}

void ParallelEngine::brushPixels(int axis, double y0, double y1) {
    const ColumnScale& s = scale(axis);
    const double a = s.toValue(y0), b = s.toValue(y1);
    setBrush(axis, {std::min(a, b), std::max(a, b)});
}

void ParallelEngine::setBrush(int axis, const AxisBrush& brush) {
    m_axes.at(size_t(axis)).brush = brush;
    reselect();
}

void ParallelEngine::clearBrush(int axis) {
    m_axes.at(size_t(axis)).brush.reset();
    reselect();
}

void ParallelEngine::clearBrushes() {
    for (Axis& axis : m_axes)
        axis.brush.reset();
    reselect();
}

bool ParallelEngine::hasBrush() const {
    return std::any_of(m_axes.begin(), m_axes.end(), [](const Axis& a) { return a.brush.has_value(); });
}

std::vector<size_t> ParallelEngine::selectedRuns() const {
    std::vector<size_t> out;
    for (size_t run = 0; run < runCount(); ++run)
        if (isSelected(run))
            out.push_back(run);
    return out;
}

QStringList ParallelEngine::selectedUuids() const {
    QStringList out;
    for (size_t run : selectedRuns())
        out << m_table.runs[run].uuid;
    return out;
}

QString ParallelEngine::describeRun(size_t run, const QStringList& extra) const {
    QStringList lines{m_table.runs.at(run).name.isEmpty() ? m_table.runs[run].uuid.left(10)
                                                          : m_table.runs[run].name,
                      m_table.runLabel(run)};
    QStringList ids = axisIds();
    ids << extra << m_colourBy;
    ids.removeDuplicates();
    for (const QString& id : ids) {
        if (m_table.column(id) < 0)
            continue;
        const CompareColumn& c = m_table.columns[size_t(m_table.column(id))];
        if (!c.isCategorical())
            lines << QStringLiteral("%1: %2").arg(c.title, c.text(run));
    }
    lines.removeDuplicates();
    return lines.join(QLatin1Char('\n'));
}

void ParallelEngine::rescale(Axis& axis) const {
    const CompareColumn& column = m_table.columns[size_t(axis.column)];
    axis.log = axis.log && ColumnScale::canLog(column);
    axis.scale = ColumnScale(column, axis.log, m_rect.bottom(), m_rect.top());
}

void ParallelEngine::layOut() {
    const int n = axisCount();
    for (int i = 0; i < n; ++i)
        m_axes[size_t(i)].x =
            n == 1 ? m_rect.center().x() : m_rect.left() + m_rect.width() * double(i) / double(n - 1);
}

void ParallelEngine::reselect() {
    m_selected.assign(runCount(), 1);
    for (const Axis& axis : m_axes) {
        if (!axis.brush)
            continue;
        const std::vector<double>& values = m_table.columns[size_t(axis.column)].values;
        for (size_t run = 0; run < runCount(); ++run)
            if (!(std::isfinite(values[run]) && axis.brush->contains(values[run])))
                m_selected[run] = 0;
    }
}

void ParallelEngine::recolour() {
    const int column = m_table.column(m_colourBy);
    if (column < 0) {
        m_colours = ColourScale();
        return;
    }
    // Log when the column's axis is log: the colours then spread as the axis does.
    bool log = false;
    for (const Axis& axis : m_axes)
        if (axis.column == column)
            log = axis.log;
    m_colours = ColourScale(m_table.columns[size_t(column)], log);
}

} // namespace radt
