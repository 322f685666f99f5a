// SPDX-License-Identifier: MIT
#include "widgets/chart/ChartAxes.h"

#include "widgets/chart/engine/ChartEngine.h"
#include "widgets/common/Formatting.h"

#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

using namespace QtCharts;

namespace radt {

ChartAxes::ChartAxes(QChart* chart, QObject* owner)
    : m_chart(chart), m_x(new QValueAxis(owner)), m_xTime(new QDateTimeAxis(owner)),
      m_y(new QValueAxis(owner)), m_logY(new QLogValueAxis(owner)) {
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_xTime->setFormat(QStringLiteral("HH:mm:ss"));
    m_xTime->setTitleText(QChart::tr("wall clock"));
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_logY->setLabelFormat(QStringLiteral("%g"));
    m_logY->setBase(10);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
}

QAbstractAxis* ChartAxes::x(ChartOptions::XAxis kind) const {
    return kind == ChartOptions::XAxis::WallClock ? static_cast<QAbstractAxis*>(m_xTime) : m_x;
}

QAbstractAxis* ChartAxes::y(bool logY) const {
    return logY ? static_cast<QAbstractAxis*>(m_logY) : m_y;
}

void ChartAxes::useKinds(const ChartOptions& options) {
    QAbstractAxis* xAxis = x(options.xAxis);
    QAbstractAxis* yAxis = y(options.logY);
    for (QAbstractAxis* axis : m_chart->axes())
        if (axis != xAxis && axis != yAxis)
            m_chart->removeAxis(axis);
    if (!m_chart->axes(Qt::Horizontal).contains(xAxis))
        m_chart->addAxis(xAxis, Qt::AlignBottom);
    if (!m_chart->axes(Qt::Vertical).contains(yAxis))
        m_chart->addAxis(yAxis, Qt::AlignLeft);
}

void ChartAxes::show(const ChartOptions& options, bool hasData, const QString& xTitle,
                     const QString& yTitle) {
    x(options.xAxis)->setVisible(hasData);
    y(options.logY)->setVisible(hasData);
    m_x->setTitleText(xTitle);
    m_y->setTitleText(yTitle);
    m_logY->setTitleText(yTitle);
}

void ChartAxes::setXRange(const ChartEngine& engine, int64_t from, int64_t to, bool zoomed, int intervals) {
    if (engine.options().xAxis == ChartOptions::XAxis::WallClock) {
        m_xTime->setRange(QDateTime::fromMSecsSinceEpoch(from),
                          QDateTime::fromMSecsSinceEpoch(to > from ? to : from + 1000));
        m_xTime->setTickCount(intervals + 1);
        // The time of day to the second (hh:mm:ss), with the date instead beyond two days.
        const int64_t span = to - from;
        m_xTime->setFormat(span > 2 * 86400000LL ? QStringLiteral("MM-dd HH:mm")
                                                 : QStringLiteral("HH:mm:ss"));
        return;
    }
    const double x0 = engine.toAxis(from), x1 = to > from ? engine.toAxis(to) : engine.toAxis(from) + 1;
    // The new step before the new range: a deep zoom's step over the whole range would have
    // QtCharts lay out a hundred thousand tick labels.
    m_x->setTickInterval(niceTickStep(x1 - x0, intervals));
    m_x->setRange(x0, x1);
    if (!zoomed) {
        m_x->setTickCount(intervals + 1);
        m_x->applyNiceNumbers(); // the whole range widens to round ends
    }
    // Ticks on round numbers (1-2-5 steps) with as many decimals as the step needs: a zoomed
    // range stays exactly what the user chose and still reads 3, 4, 5 (not 3.004), and 0..100
    // reads 0, 20, 40 (not 16.6667).
    const double step = niceTickStep(m_x->max() - m_x->min(), intervals);
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(0);
    m_x->setTickInterval(step);
    m_x->setLabelFormat(QStringLiteral("%.") + QString::number(tickDecimals(step)) + QStringLiteral("f"));
}

void ChartAxes::setYRange(bool logY, double yMin, double yMax, const QSizeF& plot) {
    if (logY) {
        // The decades the data spans, no more: 40..100 is drawn on 10..100, not 10..1000.
        const double lo = yMin > 0 ? yMin : 1e-3;
        const double low = std::pow(10, std::floor(std::log10(lo)));
        double high = std::pow(10, std::ceil(std::log10(std::max(yMax, lo))));
        if (high <= low)
            high = low * 10;
        m_logY->setRange(low, high);
        return;
    }
    if (yMax <= yMin) {
        const double pad = yMin == 0 ? 1 : std::abs(yMin) * 0.1;
        yMin -= pad;
        yMax += pad;
    }
    m_y->setRange(yMin, yMax);
    // About 30 px per label of the plot's height: a short plot has fewer, never labels cut to "…".
    m_y->setTickCount(std::clamp(int(plot.height() / 30), 2, 5) + 1);
    m_y->applyNiceNumbers();
}

std::pair<double, double> ChartAxes::visibleX(ChartOptions::XAxis kind) const {
    if (kind == ChartOptions::XAxis::WallClock)
        return {double(m_xTime->min().toMSecsSinceEpoch()), double(m_xTime->max().toMSecsSinceEpoch())};
    return {m_x->min(), m_x->max()};
}

PlotMapping ChartAxes::mapping(const QRectF& plotArea, const ChartOptions& options) const {
    PlotMapping mapping;
    mapping.plot = plotArea;
    std::tie(mapping.xMin, mapping.xMax) = visibleX(options.xAxis);
    mapping.logY = options.logY;
    mapping.yMin = options.logY ? m_logY->min() : m_y->min();
    mapping.yMax = options.logY ? m_logY->max() : m_y->max();
    return mapping;
}

} // namespace radt
