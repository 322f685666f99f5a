// SPDX-License-Identifier: MIT
#include "widgets/insights/ConfigurationTables.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/InsightFigures.h"
#include "core/base/TextFormat.h"
#include "core/report/EnvironmentReport.h"
#include "widgets/common/TableLayout.h"
#include "widgets/insights/FrontierChart.h"

#include <QHeaderView>
#include <QObject>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <map>

namespace radt {

using nlohmann::json;

namespace {

/// The configuration figures shown, with the run figure that gives their unit and title.
struct StatColumn {
    const char* stat;   ///< its key in a configuration's "stats"
    const char* figure; ///< the run figure it summarises (unit, decimals)
    const char* title;
};

const StatColumn kStatColumns[] = {{"duration_s", "duration_s", "Duration"},
                                   {"gpu_energy_j", "gpu_energy_j", "GPU energy"},
                                   {"energy_per_epoch_j", "energy_per_epoch_j", "Energy / epoch"},
                                   {"epoch_time_s", "duration_s", "Epoch time"},
                                   {"gpu_util_pct", "gpu_util_pct", "GPU util %"}};

QString figureTitle(const std::string& key) {
    for (const StatColumn& c : kStatColumns)
        if (key == c.stat)
            return QObject::tr(c.title);
    return QString::fromStdString(key);
}

} // namespace

AnswerCell answerTextCell(const QString& text, const QString& tip) {
    AnswerCell cell;
    cell.text = text;
    cell.toolTip = tip;
    cell.sortValue = text;
    return cell;
}

AnswerCell answerNumberCell(const QString& text, double sortBy) {
    AnswerCell cell = answerTextCell(text);
    cell.sortValue = sortBy;
    cell.alignment = Qt::AlignRight | Qt::AlignVCenter;
    return cell;
}

namespace {

std::vector<AnswerHeader> headersOf(const QStringList& titles) {
    std::vector<AnswerHeader> headers;
    for (const QString& title : titles)
        headers.push_back({title, QString()});
    return headers;
}

} // namespace

namespace {

/// "⚠ mixed environments" where a configuration's runs differ in what they ran on (its tooltip
/// names the items); "" where they share one or it was not read.
AnswerCell environmentCell(const json& configuration) {
    const std::vector<std::string> items = differingEnvironmentItems(configuration);
    if (items.empty())
        return answerTextCell(QString());
    QStringList names;
    for (size_t i = 0; i < items.size() && i < 12; ++i)
        names << QString::fromStdString(items[i]);
    if (items.size() > 12)
        names << QObject::tr("and %n more", nullptr, int(items.size() - 12));
    return answerTextCell(QObject::tr("⚠ mixed"), // short: the column must fit beside the chart
                          QObject::tr("Its runs differ in %1: its mean mixes environments (Basket > Compare "
                                      "Runs > Environment, or radt report --env-diff, shows how)")
                              .arg(names.join(QStringLiteral(", "))));
}

} // namespace

void fillConfigurationsModel(AnswerTableModel* model, const json& report) {
    // The name first: it is the column that stays in view while the figures scroll sideways.
    QStringList headers{QObject::tr("Configuration"), QObject::tr("#"), QObject::tr("Params"),
                        QObject::tr("N")};
    for (const StatColumn& c : kStatColumns)
        headers << QObject::tr("%1\nmean ± CI95").arg(QObject::tr(c.title)); // two lines: narrower
    headers << QObject::tr("Frontier") << QObject::tr("Environment");
    std::vector<AnswerTableModel::Row> rows;
    if (!report.is_object()) {
        model->setTable(headersOf(headers), {});
        return;
    }
    const json& pareto = report.value("pareto", json::array());
    const json& all = report.value("configurations", json::array());
    for (size_t c = 0; c < all.size(); ++c) {
        const json& configuration = all[c];
        AnswerTableModel::Row row;
        const QString params = configurationParams(configuration);
        // Sorted by the params' own order (numbers as numbers), which is the report's.
        row << answerNumberCell(configurationLabel(configuration), double(c));
        row.back().alignment = Qt::AlignLeft | Qt::AlignVCenter;
        row.back().toolTip = QStringLiteral("#%1: %2").arg(c).arg(params);
        row << answerNumberCell(QStringLiteral("#%1").arg(c), double(c));
        row << answerTextCell(params, params);
        const size_t n = configurationN(configuration);
        if (configuration.value("replicate", "run") == "workload") {
            const QString workloads = n == 1 ? QObject::tr("1 workload") : QObject::tr("%1 workloads").arg(n);
            row << answerNumberCell(workloads, double(n));
            row.back().toolTip =
                QObject::tr("N counts workloads, not runs: its %1 runs shared GPUs in %2, whose "
                            "jobs ran at the same time, so each workload is one replicate (its jobs' mean). "
                            "The means, intervals and Welch tests count workloads.")
                    .arg(configuration["runs"].size())
                    .arg(workloads);
        } else {
            row << answerNumberCell(QString::number(n), double(n));
        }
        for (const StatColumn& column : kStatColumns) {
            const json& stat = configuration["stats"].value(column.stat, json());
            const insight::RunFigure& figure = insight::runFigure(column.figure);
            if (!stat.is_object() || stat["mean"].is_null()) {
                row << answerTextCell(QStringLiteral("–"), QObject::tr("none of its runs has this figure"));
                continue;
            }
            const double mean = stat["mean"].get<double>();
            double half = 0;
            const bool ci = stat["ci95"].is_array();
            if (ci)
                half = (stat["ci95"][1].get<double>() - stat["ci95"][0].get<double>()) / 2;
            const insight::AxisScale scale = insight::tableScale(figure.unit); // as the terminal's, LaTeX's
            QString text = QString::fromStdString(insight::formatMeanAndHalfWidth(
                mean, ci ? &half : nullptr, figure.unit, figure.decimals, &scale));
            if (stat["n"].get<size_t>() != n) // over fewer runs: its own N
                text += QStringLiteral(" (n=%1)").arg(stat["n"].get<int>());
            AnswerCell cell = answerNumberCell(text, mean);
            cell.toolTip =
                ci ? QObject::tr("N=%1, sd %2, 95 % CI [%3, %4] (Student t, %5 degrees of freedom)")
                         .arg(stat["n"].get<int>())
                         .arg(stat["sd"].get<double>(), 0, 'g', 4)
                         .arg(stat["ci95"][0].get<double>(), 0, 'g', 5)
                         .arg(stat["ci95"][1].get<double>(), 0, 'g', 5)
                         .arg(stat["n"].get<int>() - 1)
                   : QObject::tr("N=%1: no CI from fewer than two runs").arg(stat["n"].get<int>());
            row << cell;
        }
        const bool front = std::find(pareto.begin(), pareto.end(), json(c)) != pareto.end();
        row << answerTextCell(
            front ? QObject::tr("yes") : QString(),
            front ? QObject::tr("No other configuration is both faster and cheaper in energy") : QString());
        row << environmentCell(configuration);
        rows.push_back(std::move(row));
    }
    model->setTable(headersOf(headers), std::move(rows));
}

namespace {

/// "*", "**", "***" for a p-value under 0.05, 0.01, 0.001.
QString significanceMarks(double p) {
    return p < 0.001  ? QStringLiteral(" ***")
           : p < 0.01 ? QStringLiteral(" **")
           : p < 0.05 ? QStringLiteral(" *")
                      : QString();
}

QString pText(double p) {
    return p < 0.001 ? QStringLiteral("< 0.001") : QString::number(p, 'f', 3);
}

/// "+4.2 [1.1, 7.3] s": mean b - mean a and its 95 % interval, in the figure's table scale (kJ
/// for energy, as the Configurations tab and the terminal say it).
QString differenceText(const json& k) {
    const insight::RunFigure& figure = insight::runFigure(k["figure"].get<std::string>());
    const insight::AxisScale scale = insight::tableScale(figure.unit);
    const QString unit = QString::fromStdString(scale.symbol);
    const double diff = k.value("diff", 0.0) / scale.divisor;
    const json& ci = k.value("diff_ci95", json());
    if (!ci.is_array()) // no interval (n < 2): the difference alone, still with its unit
        return QStringLiteral("%1%2%3")
            .arg(diff > 0 ? QStringLiteral("+") : QString())
            .arg(diff, 0, 'f', 2)
            .arg(unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
    const double lo = ci[0].get<double>() / scale.divisor, hi = ci[1].get<double>() / scale.divisor;
    const int decimals = intervalDecimals((hi - lo) / 2, 2);
    return QStringLiteral("%1%2 [%3, %4]%5")
        .arg(diff > 0 ? QStringLiteral("+") : QString())
        .arg(diff, 0, 'f', decimals)
        .arg(lo, 0, 'f', decimals)
        .arg(hi, 0, 'f', decimals)
        .arg(unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
}

} // namespace

void fillComparisonsModel(AnswerTableModel* model, const json& report) {
    const std::vector<AnswerHeader> headers =
        headersOf({QObject::tr("Compared"), QObject::tr("Figure"), QObject::tr("Ratio\nb / a"),
                   QObject::tr("Difference b - a\n[95 % CI]"), QObject::tr("Welch t"), QObject::tr("df"),
                   QObject::tr("p"), QObject::tr("p (Holm)"), QObject::tr("N a / b")});
    std::vector<AnswerTableModel::Row> rows;
    if (!report.is_object()) {
        model->setTable(headers, {});
        return;
    }
    const json& all = report.value("configurations", json::array());
    std::map<std::string, int> family; // each figure's tested comparisons: what Holm adjusts over
    for (const json& k : report.value("comparisons", json::array()))
        family[k["figure"].get<std::string>()] += !k["p_value"].is_null();
    for (const json& k : report.value("comparisons", json::array())) {
        AnswerTableModel::Row row;
        const size_t a = k["a"].get<size_t>(), b = k["b"].get<size_t>();
        if (b < all.size() && a < all.size())
            row << answerTextCell(
                QObject::tr("%1 vs %2").arg(configurationLabel(all[b]), configurationLabel(all[a])),
                QStringLiteral("b = #%1: %2\na = #%3: %4")
                    .arg(b)
                    .arg(configurationParams(all[b]))
                    .arg(a)
                    .arg(configurationParams(all[a])));
        else
            row << answerTextCell(QStringLiteral("#%1 vs #%2").arg(b).arg(a));
        row << answerTextCell(figureTitle(k["figure"].get<std::string>()));
        row << (k["ratio"].is_null() ? answerTextCell(QStringLiteral("–"))
                                     : answerNumberCell(QString::number(k["ratio"].get<double>(), 'f', 3),
                                                        k["ratio"].get<double>()));
        row << answerNumberCell(differenceText(k), k.value("diff", 0.0));
        row.back().toolTip = QObject::tr("Mean b - mean a; 95 % interval by Welch (Welch-Satterthwaite df)");
        if (k["p_value"].is_null()) {
            const QString why = QObject::tr("No test: a configuration with one run (no significance from "
                                            "n < 2) or no spread");
            for (int i = 0; i < 3; ++i)
                row << answerTextCell(QStringLiteral("–"), why);
            row << answerTextCell(QObject::tr("no test"), why);
        } else {
            const double p = k["p_value"].get<double>();
            const double adjusted = k.value("p_adjusted", json(p)).get<double>();
            row << answerNumberCell(QString::number(k["welch_t"].get<double>(), 'f', 2),
                                    k["welch_t"].get<double>())
                << answerNumberCell(QString::number(k["df"].get<double>(), 'f', 1), k["df"].get<double>())
                << answerNumberCell(pText(p), p)
                << answerNumberCell(pText(adjusted) + significanceMarks(adjusted), adjusted);
            const QString how = QObject::tr(
                "Welch's two-sided t test. p (Holm): adjusted by Holm-Bonferroni over the %1 comparisons of "
                "this figure; the marks (* p < 0.05, ** p < 0.01, *** p < 0.001) use it");
            const int tested = family[k["figure"].get<std::string>()];
            // The cell says "< 0.001"; the exact p (3 significant digits) is one hover away.
            row[row.size() - 2].toolTip = QObject::tr("p = %1\n").arg(p, 0, 'g', 3) + how.arg(tested);
            row.back().toolTip = QObject::tr("p (Holm) = %1\n").arg(adjusted, 0, 'g', 3) + how.arg(tested);
        }
        row << answerTextCell(QStringLiteral("%1 / %2").arg(k["n_a"].get<int>()).arg(k["n_b"].get<int>()));
        rows.push_back(std::move(row));
    }
    model->setTable(headers, std::move(rows));
}

QStringList configurationNotes(const json& report) {
    QStringList lines;
    if (!report.is_object())
        return lines;
    // Said where the eye is, not in a tooltip: a run that is no repeat, and a Repeats name no run
    // has (a typo of seed would make every run its own configuration).
    if (const QString leftOut = QString::fromStdString(leftOutOfConfigurationsNote(report));
        !leftOut.isEmpty())
        lines << leftOut.left(1).toUpper() + leftOut.mid(1);
    for (const QString& scope : QString::fromStdString(comparisonsScopeNote(report)).split(QLatin1Char('\n')))
        if (!scope.isEmpty())
            lines << scope.left(1).toUpper() + scope.mid(1);
    for (const json& name : report["settings"].value("unknown_repeat_params", json::array()))
        if (name != "seed") // the default: runs without seeds are common
            lines << QObject::tr("Repeats: '%1' is not a param of these runs, so it tells no repeats apart")
                         .arg(QString::fromStdString(name.get<std::string>()));
    return lines;
}

QTableView* answerTable(AnswerTableModel* model, QWidget* parent, const QString& name,
                        const QStringList& hiddenByDefault) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(kConfigurationSortRole);
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    view->verticalHeader()->setVisible(false);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setTextElideMode(Qt::ElideMiddle);
    view->setWordWrap(true); // a long name wraps at its spaces in a column kept narrow
    // The name stays in view while the figures scroll; the columns a reader needs least wait in
    // the header's menu, so the table fits beside its chart in a 1024 px window.
    installColumnChooser(view, name, hiddenByDefault);
    freezeFirstColumn(view);
    // Sized once after a fill (the model is reset with every report), after the view has its rows.
    auto* resize = new QTimer(view);
    resize->setSingleShot(true);
    resize->setInterval(0);
    QObject::connect(resize, &QTimer::timeout, view, [view] {
        view->resizeColumnsToContents();
        view->setColumnWidth(0, std::min(view->columnWidth(0), 170));
        view->resizeRowsToContents();
    });
    QObject::connect(model, &QAbstractItemModel::modelReset, resize, qOverload<>(&QTimer::start));
    return view;
}

} // namespace radt
