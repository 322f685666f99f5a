// SPDX-License-Identifier: MIT
#include "widgets/insights/InsightBars.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/InsightFigures.h"
#include "core/base/Statistics.h"
#include "widgets/chart/engine/ChartLines.h"
#include "widgets/common/TableLayout.h"

#include <QCursor>
#include <QFontMetrics>
#include <QObject>
#include <QPen>
#include <QSet>
#include <QToolTip>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <map>

using namespace QtCharts;

namespace radt {

using nlohmann::json;

namespace {

/// A name of at most `chars` characters, cut in the middle: run names share their starts and
/// ends ("resnet50-bs256-seed1-mps"), the middle is what a reader can best do without.
QString elideMiddle(const QString& name, int chars) {
    if (name.size() <= chars)
        return name;
    const int head = (chars - 1) / 2, tail = chars - 1 - head;
    return name.left(head) + QStringLiteral("…") + name.right(tail);
}

/// Names for the category axis: short, and distinct (QBarCategoryAxis drops a repeated one). A
/// name's lines ("<br>": the axis draws rich text) are cut each on its own.
QStringList axisNames(const QStringList& full) {
    const auto cut = [](const QString& name, int chars) {
        QStringList lines = name.split(QStringLiteral("<br>"));
        for (QString& line : lines)
            line = elideMiddle(line, chars);
        return lines.join(QStringLiteral("<br>"));
    };
    QStringList names;
    for (const QString& name : full) {
        QString shortName = cut(name, 24);
        for (int k = 2; names.contains(shortName); ++k)
            shortName = cut(name, 18) + QStringLiteral(" (%1)").arg(k);
        names << shortName;
    }
    return names;
}

/// The axis under the bars: each name on one line, upright, where the names fit under their bars
/// (in a smaller font if need be; "runs_per_gpu=1 (N=2)"); else on their side a param a line
/// (`stacked`: QtCharts draws only the first line of an upright name). Names too long upright
/// lose the middle of the prefix they share, never the part that tells them apart.
QBarCategoryAxis* categoryAxis(QChart* chart, const QStringList& upright, const QStringList& stacked) {
    auto* axis = new QBarCategoryAxis;
    axis->append(stacked);
    axis->setLabelsAngle(-90); // until the plot's width says the names fit flat
    // QtCharts cuts a name to "…" unless it fits the bar's width less ~15 px (upright) or its line
    // height does (on its side): a dozen upright names all read "…", three long ones "batch-siz…".
    const int bars = int(stacked.size());
    QObject::connect(
        chart, &QChart::plotAreaChanged, axis, [axis, upright, stacked, bars](const QRectF& plot) {
            const int room = int(plot.width() / bars) - 15;
            QFont font = axis->labelsFont();
            QStringList names = stacked;
            int sharedPrefix = upright.size() > 1 ? int(upright.front().size()) : 0;
            for (const QString& name : upright)
                while (sharedPrefix > 0 && !name.startsWith(upright.front().left(sharedPrefix)))
                    --sharedPrefix;
            int angle = -90;
            for (int px = 12; px >= 9 && angle != 0; --px) {
                font.setPixelSize(px);
                const QFontMetrics metrics(font);
                // Shortened only in the prefix they share: each keeps the part that tells it apart.
                const QStringList shortened = elideInCommonPrefix(upright, metrics, room);
                bool fits = true;
                for (int i = 0; i < shortened.size() && fits; ++i)
                    fits = metrics.horizontalAdvance(shortened[i]) <= room &&
                           shortened[i].endsWith(upright[i].mid(sharedPrefix));
                if (fits && QSet<QString>(shortened.begin(), shortened.end()).size() == shortened.size()) {
                    angle = 0;
                    names = shortened;
                }
            }
            if (angle != 0)
                font.setPixelSize(std::clamp(room, 7, 12));
            if (font != axis->labelsFont())
                axis->setLabelsFont(font);
            if (axis->categories() != names) {
                axis->clear();
                axis->append(names);
            }
            if (axis->labelsAngle() != angle)
                axis->setLabelsAngle(angle);
            axis->setLabelsVisible(room >= 7);
            axis->setTitleText(room >= 7 ? QString() : QObject::tr("hover a bar for its name"));
        });
    return axis;
}

/// The bars of `values` under `names`, on a value axis scaled to the largest (or to `top`).
QBarSeries* addBars(QChart* chart, const QString& title, const std::vector<double>& values,
                    const QStringList& upright, const QStringList& names, const QStringList& tips, double top,
                    const insight::AxisScale& scale) {
    auto* set = new QBarSet(title);
    for (double v : values)
        *set << v / scale.divisor;
    auto* series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    if (names.size() > 6) // narrow bars: "4001.8" across one would be cut to "00"
        series->setLabelsAngle(-90);
    QObject::connect(series, &QBarSeries::hovered, chart, [tips](bool on, int index) {
        if (on && index >= 0 && index < tips.size())
            QToolTip::showText(QCursor::pos(), tips[index]);
        else
            QToolTip::hideText();
    });
    chart->addSeries(series);
    QBarCategoryAxis* categories = categoryAxis(chart, upright, names);
    auto* axis = new QValueAxis;
    axis->setRange(0, top > 0 ? top / scale.divisor * 1.15 : 1);
    axis->applyNiceNumbers();
    chart->addAxis(categories, Qt::AlignBottom);
    chart->addAxis(axis, Qt::AlignLeft);
    series->attachAxis(categories);
    series->attachAxis(axis);
    return series;
}

QString figureTitle(const insight::RunFigure& figure, const insight::AxisScale& scale) {
    return scale.symbol.empty() ? QObject::tr(figure.title)
                                : QStringLiteral("%1 (%2)").arg(QObject::tr(figure.title),
                                                                QString::fromStdString(scale.symbol));
}

QString formatted(double value, const insight::RunFigure& figure) {
    return QString::fromStdString(insight::formatForPeople(value, figure.unit, figure.decimals));
}

/// A whisker from the interval's low to its high end at bar `index`, capped at both ends.
void addWhisker(QChart* chart, int index, double low, double high, QBarSeries* bars) {
    auto* whisker = new QLineSeries;
    constexpr double kCap = 0.12; // of a category's width
    const double x = index;
    whisker->append(
        {{x - kCap, low}, {x + kCap, low}, {x, low}, {x, high}, {x - kCap, high}, {x + kCap, high}});
    QPen pen(QColor(40, 40, 40));
    pen.setWidthF(1.5);
    whisker->setPen(pen);
    chart->addSeries(whisker);
    for (QAbstractAxis* axis : bars->attachedAxes())
        whisker->attachAxis(axis);
}

void drawConfigurationBars(QChart* chart, const json& report, const insight::RunFigure& figure) {
    const std::vector<ConfigurationBar> bars = configurationBars(report, figure);
    std::vector<double> means;
    QStringList full, upright, tips;
    double top = 0;
    for (const ConfigurationBar& b : bars) {
        means.push_back(b.mean.value_or(0));
        top = std::max(top, b.ci95 ? b.ci95->second : b.mean.value_or(0));
        // A param a line: upright labels fit under narrower bars.
        full << QString(b.label).replace(QLatin1Char(' '), QStringLiteral("<br>")) +
                    QStringLiteral("<br>N=%1").arg(b.runs);
        upright << QStringLiteral("%1 (N=%2)").arg(b.label).arg(b.runs);
        QString tip = QStringLiteral("%1\nN=%2").arg(b.label).arg(b.runs);
        if (b.n != b.runs)
            tip += QObject::tr(", %1 with this figure").arg(b.n);
        if (!b.mean)
            tip += QObject::tr("\nnone of its runs has this figure");
        else if (b.ci95)
            tip += QObject::tr("\nmean %1, 95 % CI [%2, %3] (Student t, %4 degrees of freedom)")
                       .arg(formatted(*b.mean, figure), formatted(b.ci95->first, figure),
                            formatted(b.ci95->second, figure))
                       .arg(b.n - 1);
        else
            tip += QObject::tr("\n%1: no interval from one run").arg(formatted(*b.mean, figure));
        tips << tip;
    }
    const insight::AxisScale scale = insight::axisScale(top, figure.unit);
    const QString title = figureTitle(figure, scale);
    size_t leftOut = 0;
    for (const json& r : report["runs"])
        leftOut += r["configuration"].is_null();
    chart->setTitle(
        QObject::tr("%1: mean and 95 % CI per configuration").arg(title) +
        (leftOut ? QObject::tr(" (%n unfinished run(s) left out)", nullptr, int(leftOut)) : QString()));
    QBarSeries* series = addBars(chart, title, means, upright, axisNames(full), tips, top, scale);
    for (size_t i = 0; i < bars.size(); ++i)
        if (bars[i].ci95)
            addWhisker(chart, int(i), bars[i].ci95->first / scale.divisor,
                       bars[i].ci95->second / scale.divisor, series);
}

void drawRunBars(QChart* chart, const json& report, const insight::RunFigure& figure) {
    std::vector<double> values;
    const QStringList full = legendNamesOfRuns(report);
    QStringList tips;
    size_t i = 0;
    for (const json& r : report["runs"]) {
        const json v = figure.value(r);
        values.push_back(v.is_number() ? v.get<double>() : 0);
        tips << full[int(i++)] + QLatin1Char('\n') +
                    QString::fromStdString(r["run_uuid"].get<std::string>()) +
                    (v.is_number() ? QLatin1Char('\n') + formatted(v.get<double>(), figure) : QString());
    }
    const double top = *std::max_element(values.begin(), values.end());
    const insight::AxisScale scale = insight::axisScale(top, figure.unit);
    chart->setTitle(figureTitle(figure, scale));
    addBars(chart, figureTitle(figure, scale), values, full, axisNames(full), tips, top, scale);
}

} // namespace

std::vector<ConfigurationBar> configurationBars(const json& report, const insight::RunFigure& figure) {
    const json& configurations = report["configurations"];
    const json& runs = report["runs"];
    // One value per replicate: a run's, or where the runs shared a GPU, a workload's jobs' mean.
    std::vector<std::vector<double>> values(configurations.size());
    const auto replicates = configurationReplicates(report);
    for (size_t c = 0; c < replicates.size(); ++c)
        for (const std::vector<size_t>& replicate : replicates[c]) {
            std::vector<double> jobs;
            for (const size_t i : replicate)
                if (const json v = figure.value(runs[i]); v.is_number())
                    jobs.push_back(v.get<double>());
            if (const auto s = stats::summarise(jobs))
                values[c].push_back(s->mean);
        }
    std::vector<ConfigurationBar> bars;
    for (size_t c = 0; c < configurations.size(); ++c) {
        ConfigurationBar bar;
        bar.label = QString::fromStdString(configurations[c].value("label", "#" + std::to_string(c)));
        bar.runs = configurationN(configurations[c]);
        if (const auto s = stats::summarise(values[c])) {
            bar.n = s->n;
            bar.mean = s->mean;
            bar.ci95 = s->ci95;
        }
        bars.push_back(bar);
    }
    return bars;
}

bool repeatsMakeConfigurations(const json& report) {
    if (!report.is_object())
        return false;
    for (const json& c : report.value("configurations", json::array()))
        if (configurationN(c) >= 2)
            return true;
    return false;
}

QStringList legendNamesOfRuns(const json& report) {
    std::vector<ChartRunData> runs;
    std::map<std::string, int64_t> experiments;
    for (const json& r : report["runs"]) {
        ChartRunData data;
        data.run.uuid = r["run_uuid"].get<std::string>();
        data.run.name = r.value("name", std::string());
        const json params = r.value("params", json::object()); // items() of a temporary would dangle
        for (const auto& [key, value] : params.items())
            if (value.is_string())
                data.run.params[key] = value.get<std::string>();
        data.experimentName = r.value("experiment", std::string());
        data.run.experimentId =
            experiments.emplace(data.experimentName, int64_t(experiments.size())).first->second;
        runs.push_back(std::move(data));
    }
    ChartOptions options; // each run its own line, named readably: what the legend says
    options.grouping = ChartOptions::Grouping::None;
    QStringList names;
    for (const ChartLineGroup& g : groupChartRuns(runs, options))
        names << g.name;
    return names;
}

void drawInsightBars(QChart* chart, const json& report, const insight::RunFigure& figure,
                     bool perConfiguration) {
    const json& runs = report["runs"];
    if (std::none_of(runs.begin(), runs.end(), [&](const json& r) { return figure.value(r).is_number(); })) {
        // Empty axes would read as zeros: say that there is nothing, and why (the first run's reason).
        chart->setTitle(QObject::tr("%1: none of these runs has it (%2)")
                            .arg(QObject::tr(figure.title),
                                 QString::fromStdString(insight::whyBlank(figure, runs.front()))));
        return;
    }
    perConfiguration ? drawConfigurationBars(chart, report, figure) : drawRunBars(chart, report, figure);
}

} // namespace radt
