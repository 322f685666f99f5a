// SPDX-License-Identifier: MIT
#include "widgets/insights/FrontierChart.h"

#include "widgets/common/TableLayout.h"

#include <QCursor>
#include <QFontMetrics>
#include <QObject>
#include <QToolTip>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace radt {

using nlohmann::json;
using namespace QtCharts;

QString configurationLabel(const json& configuration) {
    if (const json& label = configuration.value("label", json()); label.is_string())
        return QString::fromStdString(label.get<std::string>());
    return configurationParams(configuration); // a report from before labels (a shared file)
}

QString configurationParams(const json& configuration) {
    QStringList parts;
    const json& params = configuration["params"];
    for (const auto& [name, value] : params.items())
        if (name != "params" || params.size() == 1) // the script's own params say it more shortly
            parts << QString::fromStdString(name + "=" + value.get<std::string>());
    return parts.isEmpty() ? QObject::tr("all runs") : parts.join(QStringLiteral(", "));
}

namespace {

/// More configurations than this: the legend would take the chart's room; hovering names them.
constexpr size_t kMaxLegendEntries = 12;

struct Point {
    size_t index;
    double x, y;               ///< mean duration s, mean energy kJ
    double xLo, xHi, yLo, yHi; ///< the CIs, or the mean where there is none (n < 2)
    size_t n;
    QString label;  ///< the fewest params that tell it apart ("batch-size=64")
    QString params; ///< every param that differs between the configurations
};

void addWhisker(QChart* chart, QValueAxis* xAxis, QValueAxis* yAxis, QPointF a, QPointF b,
                const QColor& color) {
    auto* line = new QLineSeries;
    line->append(a);
    line->append(b);
    line->setPen(QPen(color, 1.5));
    chart->addSeries(line);
    line->attachAxis(xAxis);
    line->attachAxis(yAxis);
}

/// The configurations with both a mean duration and a mean GPU energy; counts the others.
std::vector<Point> frontierPoints(const json& configurations, size_t& leftOut) {
    std::vector<Point> points;
    for (size_t c = 0; c < configurations.size(); ++c) {
        const json& d = configurations[c]["stats"]["duration_s"];
        const json& e = configurations[c]["stats"]["gpu_energy_j"];
        if (d["mean"].is_null() || e["mean"].is_null()) {
            ++leftOut;
            continue;
        }
        Point p{c,
                d["mean"],
                e["mean"].get<double>() / 1000,
                0,
                0,
                0,
                0,
                size_t(d["n"]),
                configurationLabel(configurations[c]),
                configurationParams(configurations[c])};
        p.xLo = d["ci95"].is_array() ? d["ci95"][0].get<double>() : p.x;
        p.xHi = d["ci95"].is_array() ? d["ci95"][1].get<double>() : p.x;
        p.yLo = e["ci95"].is_array() ? e["ci95"][0].get<double>() / 1000 : p.y;
        p.yHi = e["ci95"].is_array() ? e["ci95"][1].get<double>() / 1000 : p.y;
        points.push_back(p);
    }
    return points;
}

/// The time and energy axes, padded around every point's CI.
std::pair<QValueAxis*, QValueAxis*> addFrontierAxes(QChart* chart, const std::vector<Point>& points) {
    double xMin = std::numeric_limits<double>::max(), xMax = 0, yMin = xMin, yMax = 0;
    for (const Point& p : points) {
        xMin = std::min(xMin, p.xLo);
        xMax = std::max(xMax, p.xHi);
        yMin = std::min(yMin, p.yLo);
        yMax = std::max(yMax, p.yHi);
    }
    const double xPad = std::max((xMax - xMin) * 0.1, 0.05 * std::max(xMax, 1e-9));
    const double yPad = std::max((yMax - yMin) * 0.1, 0.05 * std::max(yMax, 1e-9));
    auto* xAxis = new QValueAxis;
    xAxis->setTitleText(QObject::tr("Time per run (s)"));
    xAxis->setRange(std::max(0.0, xMin - xPad), xMax + xPad);
    xAxis->applyNiceNumbers();
    auto* yAxis = new QValueAxis;
    // A shared GPU's energy is split among its runs: the figure is each run's share.
    yAxis->setTitleText(QObject::tr("GPU energy per run (kJ)"));
    yAxis->setRange(std::max(0.0, yMin - yPad), yMax + yPad);
    yAxis->applyNiceNumbers();
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    return {xAxis, yAxis};
}

/// The front, by increasing time: each step is cheaper in energy, paid for in time.
void addFrontLine(QChart* chart, QValueAxis* xAxis, QValueAxis* yAxis, const std::vector<Point>& points,
                  const std::set<size_t>& front) {
    std::vector<const Point*> onTheFront;
    for (const Point& p : points)
        if (front.count(p.index))
            onTheFront.push_back(&p);
    std::sort(onTheFront.begin(), onTheFront.end(),
              [](const Point* a, const Point* b) { return a->x < b->x; });
    if (onTheFront.size() > 1) {
        auto* line = new QLineSeries;
        for (const Point* p : onTheFront)
            line->append(p->x, p->y);
        line->setPen(QPen(QColor(0x55, 0x55, 0x55), 1.5, Qt::DashLine));
        chart->addSeries(line);
        line->attachAxis(xAxis);
        line->attachAxis(yAxis);
    }
}

// One series per configuration: the legend names it, the theme tells them apart, and its
// whiskers take its colour. On the frontier: a larger marker and "frontier" in its name.
void addConfigurationPoint(QChart* chart, QValueAxis* xAxis, QValueAxis* yAxis, const Point& p, bool onIt) {
    auto* scatter = new QScatterSeries;
    // Named by its label in the legend; beside the point too while that stays short, else by its
    // handle ("#2"), which the legend and the tables also show. Hover names every param.
    scatter->setName(QObject::tr("%1 (N=%2)").arg(p.label).arg(p.n) +
                     (onIt ? QObject::tr(", frontier") : QString()));
    scatter->setMarkerSize(onIt ? 13 : 9);
    scatter->append(p.x, p.y);
    constexpr int kLongestPointLabel = 24;
    scatter->setPointLabelsFormat(p.label.size() <= kLongestPointLabel ? p.label // a literal: one point each
                                                                       : QStringLiteral("#%1").arg(p.index));
    scatter->setPointLabelsVisible(true);
    scatter->setPointLabelsClipping(false);
    chart->addSeries(scatter);
    scatter->attachAxis(xAxis);
    scatter->attachAxis(yAxis);
    const QColor color = scatter->color();
    if (p.xHi > p.xLo)
        addWhisker(chart, xAxis, yAxis, {p.xLo, p.y}, {p.xHi, p.y}, color);
    if (p.yHi > p.yLo)
        addWhisker(chart, xAxis, yAxis, {p.x, p.yLo}, {p.x, p.yHi}, color);
    const QString tip = QObject::tr("#%1 %2\n%3\nN=%4: %5 s, %6 kJ per run%7")
                            .arg(p.index)
                            .arg(p.label)
                            .arg(p.params)
                            .arg(p.n)
                            .arg(p.x, 0, 'f', 2)
                            .arg(p.y, 0, 'f', 3)
                            .arg(onIt ? QObject::tr("\non the efficiency frontier") : QString());
    QObject::connect(scatter, &QScatterSeries::hovered, scatter, [tip](const QPointF&, bool state) {
        if (state)
            QToolTip::showText(QCursor::pos(), tip);
        else
            QToolTip::hideText();
    });
}

} // namespace

void drawFrontierChart(QChart* chart, const json& report) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis);
    std::set<size_t> front;
    for (const json& i : report.value("pareto", json::array()))
        front.insert(i.get<size_t>());
    size_t leftOut = 0;
    const std::vector<Point> points = frontierPoints(report.value("configurations", json::array()), leftOut);
    chart->setTitle(
        points.empty()
            ? QObject::tr("Efficiency frontier: no configuration has both a duration and a GPU energy")
            : QObject::tr("Efficiency frontier of %n configuration(s): mean, 95 % CI", nullptr,
                          int(points.size())) +
                  (leftOut ? QObject::tr(" (%n without energy left out)", nullptr, int(leftOut))
                           : QString()));
    chart->legend()->setVisible(!points.empty() && points.size() <= kMaxLegendEntries);
    chart->legend()->setAlignment(Qt::AlignBottom);
    if (points.empty())
        return;
    const auto [xAxis, yAxis] = addFrontierAxes(chart, points);
    addFrontLine(chart, xAxis, yAxis, points, front);
    for (const Point& p : points)
        addConfigurationPoint(chart, xAxis, yAxis, p, front.count(p.index) > 0);
    // Only the configurations belong in the legend, not their whiskers or the front's line.
    QList<QLegendMarker*> entries;
    QStringList names;
    for (QAbstractSeries* s : chart->series())
        for (auto* marker : chart->legend()->markers(s)) {
            marker->setVisible(qobject_cast<QScatterSeries*>(s) != nullptr);
            if (marker->isVisible()) {
                entries << marker;
                names << s->name();
            }
        }
    // The legend's entries share its row: each gets its share of the width, shortened in the
    // prefix the names share ("batch-…=64 (N=4)"), where QtCharts would cut "batch-size=64" at its end.
    if (entries.isEmpty())
        return;
    // In the context of a series: a redraw deletes the series, their markers and this connection.
    QObject::connect(chart, &QChart::plotAreaChanged, entries.front()->series(), [chart, entries, names] {
        const int room = int(chart->size().width() - 20) / std::max(1, int(entries.size())) - 30;
        const QStringList shown = elideInCommonPrefix(names, QFontMetrics(chart->legend()->font()), room);
        for (int i = 0; i < entries.size(); ++i)
            if (entries[i]->label() != shown[i])
                entries[i]->setLabel(shown[i]);
    });
}

} // namespace radt
