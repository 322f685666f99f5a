// SPDX-License-Identifier: MIT
#include "widgets/insights/InsightTimeChart.h"

#include "core/analysis/BurstInsight.h"
#include "core/base/InsightSeries.h"
#include "core/base/SeriesMath.h"
#include "core/store/Store.h"
#include "core/store/StoreCompaction.h"

#include <QCoreApplication>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <limits>
#include <map>

using namespace QtCharts;

namespace radt {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("InsightTimeChart", text);
}

/// The usable points of `series`, reduced to about 600 columns (min and max per column keep peaks).
void reduceInto(const Series& series, TimeChartData& out) {
    std::vector<int64_t> t;
    std::vector<double> v;
    for (size_t i = 0; i < series.size(); ++i)
        if (insight::usable(series.v[i])) {
            t.push_back(series.t[i]);
            v.push_back(series.v[i]);
        }
    if (t.empty())
        return;
    out.origin = t.front();
    out.end = series.t.back();
    const double top = *std::max_element(v.begin(), v.end());
    out.top = top > 0 ? top * 1.1 : 1;
    SeriesPyramid(std::move(t), std::move(v)).query(out.origin, out.end, 600, out.t, out.v);
}

} // namespace

TimeChartData readTimeChart(Store& store, const TimeChartRequest& request) {
    TimeChartData data;
    try {
        if (request.kind == TimeChartRequest::Kind::Bursts) {
            data.key = request.key;
            const Series series = store.series(request.runUuid, request.key);
            reduceInto(series, data);
            if (!data.t.empty())
                data.periods = insight::burstPeriods(series, request.threshold);
            return data;
        }
        const auto run = store.run(request.runUuid);
        if (!run) {
            data.error = tr("the run is no longer in the store");
            return data;
        }
        std::map<std::string, Series> read; // each series once, as the report reads it
        auto series = [&](const std::string& key) -> Series {
            auto it = read.find(key);
            if (it == read.end())
                it = read.emplace(key, readForAnalysis(store, *run, key)).first;
            return it->second;
        };
        const auto stalls = insight::inputStalls(store.metricKeys({request.runUuid}), series,
                                                 std::numeric_limits<int64_t>::min(),
                                                 std::numeric_limits<int64_t>::max(), request.stalls);
        if (!stalls) {
            data.error = tr("it needs the run's GPU utilisation and its processes' CPU utilisation "
                            "(PROC - CPU Utilization) over the same time");
            return data;
        }
        data.key = stalls->gpuKey;
        data.share = stalls->share;
        data.periods = stalls->periods;
        reduceInto(series(stalls->gpuKey), data);
    } catch (const std::exception& e) {
        data.error = QString::fromStdString(e.what());
    }
    return data;
}

void drawTimeChart(QChart* chart, const TimeChartData& data, const TimeChartRequest& request) {
    const bool bursts = request.kind == TimeChartRequest::Kind::Bursts;
    const QString what = bursts ? tr("Burst periods") : tr("Input stalls");
    const QString key = QString::fromStdString(data.key);
    if (!data.error.isEmpty()) {
        chart->setTitle(QStringLiteral("%1: %2").arg(what, data.error));
        return;
    }
    if (data.t.empty()) {
        chart->setTitle(tr("%1: %2 has no values").arg(what, key));
        return;
    }
    // Seconds, minutes or hours on x: 0, 20, 40 min reads, 0, 1200, 2400 s does not.
    const double spanS = double(data.end - data.origin) / 1000.0;
    const auto [unitS, unitName] = spanS > 7200  ? std::make_pair(3600.0, tr("h"))
                                   : spanS > 600 ? std::make_pair(60.0, tr("min"))
                                                 : std::make_pair(1.0, tr("s"));
    const double msPerUnit = unitS * 1000.0;
    auto* line = new QLineSeries;
    QVector<QPointF> points;
    for (size_t i = 0; i < data.t.size(); ++i)
        points.append(QPointF(double(data.t[i] - data.origin) / msPerUnit, data.v[i]));
    line->replace(points);
    line->setName(key);
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    for (const auto& [from, to] : data.periods) {
        const double a = double(from - data.origin) / msPerUnit, b = double(to - data.origin) / msPerUnit;
        *upper << QPointF(a, 0) << QPointF(a, data.top) << QPointF(b, data.top) << QPointF(b, 0);
        *lower << QPointF(a, 0) << QPointF(b, 0);
    }
    auto* shade = new QAreaSeries(upper, lower);
    shade->setName(bursts ? tr("burst (≥ %1)").arg(request.threshold, 0, 'g', 3) : tr("input stall"));
    shade->setColor(bursts ? QColor(255, 152, 0, 70) : QColor(211, 47, 47, 70));
    shade->setBorderColor(Qt::transparent);
    chart->addSeries(shade);
    chart->addSeries(line);
    auto* x = new QValueAxis;
    x->setTitleText(tr("time since the first sample (%1)").arg(unitName));
    x->setRange(0, spanS / unitS);
    auto* y = new QValueAxis;
    y->setRange(0, data.top);
    for (QValueAxis* axis : {x, y}) { // round ticks (0, 5, 10), labels without trailing zeros
        axis->applyNiceNumbers();
        axis->setLabelFormat(QStringLiteral("%g"));
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(shade), static_cast<QAbstractSeries*>(line)}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    const QString label = QString::fromStdString(request.label);
    if (bursts) {
        chart->setTitle(tr("%1: %2 burst period(s) of %3").arg(label).arg(data.periods.size()).arg(key));
        return;
    }
    // The title says how much, the legend what counted (the thresholds are the report's settings).
    chart->setTitle(tr("%1: input stalls %2 % of the time").arg(label).arg(data.share * 100, 0, 'f', 1));
    shade->setName(tr("stall: GPU under %1 %, CPU ≥ %2 cores") // no "<": legends read HTML
                       .arg(request.stalls.gpuBelowPct, 0, 'g', 3)
                       .arg(request.stalls.cpuCores, 0, 'g', 3));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->show();
}

} // namespace radt
