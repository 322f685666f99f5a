// SPDX-License-Identifier: MIT
#include "widgets/chart/engine/ChartDescription.h"

#include "core/base/InsightSeries.h"
#include "widgets/chart/engine/ChartOptionsJson.h"
#include "widgets/common/Formatting.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <set>

namespace radt {

namespace {

/// The texts are the chart's, translated in ChartPanel's context as before the engine's split.
QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("ChartPanel", text, disambiguation, n);
}

} // namespace

QStringList seriesNames(const ChartEngine& engine) {
    QStringList names;
    for (const ChartLine& line : engine.lines())
        names.append(line.name);
    return names;
}

int densityLines(const ChartEngine& engine) {
    return int(std::count_if(engine.lines().begin(), engine.lines().end(), [&engine](const ChartLine& line) {
        return !engine.options().hiddenSeries.count(line.name) && line.pyramid.size() > 1;
    }));
}

QStringList workloadKeys(const ChartEngine& engine) {
    std::set<QString> keys;
    for (const ChartRunData& r : engine.runs())
        if (!r.run.workload().empty())
            keys.insert(workloadKeyOf(r.run));
    QStringList sorted(keys.begin(), keys.end());
    std::sort(sorted.begin(), sorted.end(), naturalLess);
    return sorted;
}

QString workloadTitle(const ChartEngine& engine, const QString& workloadKey) {
    std::set<int64_t> experiments;
    const ChartRunData* first = nullptr;
    for (const ChartRunData& r : engine.runs()) {
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

QString lineOfRun(const ChartEngine& engine, const std::string& uuid) {
    for (const ChartLine& line : engine.lines())
        for (size_t r : line.runs)
            if (r < engine.runs().size() && engine.runs()[r].run.uuid == uuid)
                return line.name;
    return QString();
}

QString seriesTooltip(const ChartEngine& engine, int series) {
    if (series < 0 || series >= engine.seriesCount())
        return QString();
    const ChartLine& line = engine.lines()[size_t(series)];
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QString html =
        QStringLiteral("<b>%1</b> — %2").arg(line.name.toHtmlEscaped(), engine.metricKey().toHtmlEscaped());
    if (line.bandLow) {
        const ChartOptions::Band band = engine.options().band;
        const QString what = band == ChartOptions::Band::Ci95 ? tr("95 % CI of the mean (Student t)")
                             : band == ChartOptions::Band::Sd ? tr("± one standard deviation")
                                                              : tr("min to max");
        html += tr("<br><i>mean of %1 runs where at least two have data; band: %2</i>")
                    .arg(line.runs.size())
                    .arg(what);
        if (line.bandNarrowed)
            html +=
                tr("<br><i>the band is drawn only where at least %1 runs have data: with two, Student's t "
                   "is 12.7 and the interval says only that N is small (the mean goes on alone)</i>")
                    .arg(kFewestRunsForCi);
        if (line.bandClipped) {
            const ValueRange range = engine.valueRange();
            html += tr("<br><i>the band is cut at %1, where %2 can go no further</i>")
                        .arg(std::isfinite(range.high) ? tr("%1 and %2").arg(range.low).arg(range.high)
                                                       : QString::number(range.low),
                             engine.metricKey().toHtmlEscaped());
        }
        html += tr("<br><i>the y axis fits the means and the runs' own values; a band beyond them is cut "
                   "at the plot's edge</i>");
    }
    for (size_t index : line.runs) {
        const Run& run = engine.runs()[index].run;
        html += QStringLiteral("<hr><b>%1</b>")
                    .arg(toQString(run.name.empty() ? run.uuid : run.name).toHtmlEscaped());
        auto row = [&html](const QString& label, const std::string& value) {
            if (!value.empty())
                html += QStringLiteral("<br>%1: %2").arg(label, toQString(value).toHtmlEscaped());
        };
        row(tr("run"), run.uuid);
        row(tr("radT id"), seriesLabelOf(run).toStdString());
        row(tr("experiment"),
            (engine.runs()[index].experimentName.empty() ? std::string()
                                                         : engine.runs()[index].experimentName + " ") +
                "(" + std::to_string(run.experimentId) + ")");
        row(tr("model"), run.model());
        row(tr("data"), run.data());
        const auto source = run.tags.find("mlflow.source.name");
        row(tr("source"), source == run.tags.end() ? std::string() : source->second);
        row(tr("status"), toString(run.status));
        html += QStringLiteral("<br>%1: %2")
                    .arg(tr("duration"), toQString(formatDuration(run.durationMs(now.toMSecsSinceEpoch()))));
        QStringList params;
        for (const auto& [key, value] : run.params)
            if (key != "workload" && key != "letter" && key != "model" && key != "data")
                params << toQString(key + "=" + value).toHtmlEscaped();
        if (!params.isEmpty())
            html += QStringLiteral("<br>%1: %2").arg(tr("params"), params.join(QStringLiteral(", ")));
    }
    return html;
}

QString whyNothingIsDrawn(const ChartEngine& engine) {
    return engine.lines().empty() && !engine.metricKey().isEmpty() ? emptyChartMessage(engine) : QString();
}

QString emptyChartMessage(const ChartEngine& engine) {
    const bool hasPoints = std::any_of(engine.runs().begin(), engine.runs().end(),
                                       [](const ChartRunData& r) { return !r.series.empty(); });
    if (hasPoints && engine.options().xAxis == ChartOptions::XAxis::Epoch) {
        // The points are there; the epoch axis cannot place them. Say why, and what to do.
        if (!insight::isHardwareKey(engine.metricKey().toStdString()))
            return tr("\"%1\" is logged by step: the epoch axis places hardware samples; choose the step "
                      "axis")
                .arg(displayName(engine.metricKey(), 60));
        return tr("These runs log no epochs (no stepped software metric such as loss): choose the time or "
                  "step axis");
    }
    return tr("No data for \"%1\" in the basket's runs").arg(displayName(engine.metricKey()));
}

bool hasRunningRuns(const ChartEngine& engine) {
    return !engine.isDetached() &&
           std::any_of(engine.runs().begin(), engine.runs().end(),
                       [](const ChartRunData& r) { return r.run.status == RunStatus::Running; });
}

std::optional<double> shownValueAt(const ChartEngine& engine, const ChartLine& line, int64_t x) {
    // A line says nothing before its first point or after its last (a run that has ended).
    if (engine.options().hiddenSeries.count(line.name) || x < line.pyramid.firstTime() ||
        x > line.pyramid.lastTime())
        return std::nullopt;
    if (const auto point = line.pyramid.nearest(x))
        return point->second;
    return std::nullopt;
}

QString crosshairPlace(const ChartEngine& engine, double axisX) {
    // As a person says it: "1 h 42 m 44 s" after the start, not "1.7122864 h".
    return xAxisMode(engine.options().xAxis).place(engine.fromAxis(axisX), axisX);
}

std::vector<CrosshairReading> crosshairReadings(const ChartEngine& engine, double axisX, size_t rowsFit,
                                                QString* title) {
    const int64_t x = engine.fromAxis(axisX);
    std::vector<CrosshairReading> readings;
    for (size_t i = 0; i < engine.lines().size(); ++i) {
        const ChartLine& line = engine.lines()[i];
        if (const auto value = shownValueAt(engine, line, x)) {
            // With its unit ("212 W"), as the axis title says it.
            const QString unit =
                engine.unitSymbol().isEmpty() ? QString() : QLatin1Char(' ') + engine.unitSymbol();
            QString row = line.name + QStringLiteral(": ") + toQString(formatReading(*value)) + unit;
            if (line.bandLow)
                if (auto lo = line.bandLow->nearest(x), hi = line.bandHigh->nearest(x); lo && hi)
                    row += QStringLiteral("  [%1 – %2]%3")
                               .arg(toQString(formatReading(lo->second)),
                                    toQString(formatReading(hi->second)), unit);
            readings.push_back({i, *value, row});
        }
    }
    // Hundreds of lines would not fit on any screen: as many of the highest and the lowest
    // readings as the plot's height holds, said so.
    const size_t kHighest = (rowsFit * 2 + 2) / 3, kLowest = rowsFit - kHighest;
    if (readings.size() > kHighest + kLowest + 5) {
        std::stable_sort(
            readings.begin(), readings.end(),
            [](const CrosshairReading& a, const CrosshairReading& b) { return a.value > b.value; });
        const size_t between = readings.size() - kHighest - kLowest;
        readings.erase(readings.begin() + long(kHighest), readings.end() - long(kLowest));
        readings.insert(readings.begin() + long(kHighest),
                        {size_t(-1), 0, tr("… %n lines between", nullptr, int(between))});
        if (title)
            *title = tr("%1 lines: the %2 highest and %3 lowest")
                         .arg(int(between + kHighest + kLowest))
                         .arg(kHighest)
                         .arg(kLowest);
    }
    return readings;
}

} // namespace radt
