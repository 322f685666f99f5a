// SPDX-License-Identifier: MIT
#include "widgets/insights/CollocationTable.h"

#include "core/analysis/InsightFigures.h"
#include "core/base/TextFormat.h"
#include "widgets/insights/ConfigurationTables.h"

#include <QObject>
#include <QRegularExpression>

#include <map>

namespace radt {

using nlohmann::json;

namespace {

/// A figure in its unit, ± its interval's half-width where it has one.
AnswerCell estimateCell(const json& mean, const json& ci, insight::Unit unit, int decimals) {
    if (!mean.is_number())
        return answerTextCell(QStringLiteral("–"));
    double half = 0;
    if (ci.is_array())
        half = (ci[1].get<double>() - ci[0].get<double>()) / 2;
    const insight::AxisScale scale = insight::tableScale(unit); // one unit down the column
    return answerNumberCell(QString::fromStdString(insight::formatMeanAndHalfWidth(
                                mean.get<double>(), ci.is_array() ? &half : nullptr, unit, decimals, &scale)),
                            mean.get<double>());
}

/// "×1.28 [1.26, 1.31]": a ratio and its interval (not symmetric about it), at its precision.
AnswerCell ratioCell(const json& mean, const json& ci, const QString& how) {
    if (!mean.is_number())
        return answerTextCell(QStringLiteral("–"));
    const double value = mean.get<double>();
    QString text = QStringLiteral("×%1").arg(value, 0, 'f', 2);
    if (ci.is_array()) {
        const double lo = ci[0].get<double>(), hi = ci[1].get<double>();
        const int decimals = ratioDecimals(lo, hi);
        text = QStringLiteral("×%1 [%2, %3]")
                   .arg(value, 0, 'f', decimals)
                   .arg(lo, 0, 'f', decimals)
                   .arg(hi, 0, 'f', decimals);
    }
    AnswerCell cell = answerNumberCell(text, value);
    cell.toolTip = how;
    return cell;
}

/// The cells after the name and N: no verdict, said in the throughput column, why in its tooltip.
void appendWhy(AnswerTableModel::Row& row, const QString& why) {
    const bool noBaseline = why.startsWith(QLatin1String("no solo baseline"));
    row << answerTextCell(QStringLiteral("–")) << answerTextCell(QStringLiteral("–"))
        << answerTextCell(noBaseline ? QObject::tr("no solo baseline") : QObject::tr("no verdict"), why);
    row.back().foreground = QColor(Qt::darkRed);
    for (int i = 0; i < 3; ++i)
        row << answerTextCell(QStringLiteral("–"), why);
}

AnswerTableModel::Row verdictRow(const json& v) {
    QStringList workloads;
    for (const json& w : v["workloads"])
        workloads << QString::fromStdString(w.get<std::string>());
    AnswerTableModel::Row row;
    const QString label = QString::fromStdString(v["label"].get<std::string>());
    row << answerTextCell(
        label, QObject::tr("%1\n%n workload(s) of %2 jobs sharing a GPU: %3", nullptr, v["n"].get<int>())
                   .arg(label)
                   .arg(v["jobs"].get<int>())
                   .arg(workloads.join(QStringLiteral(", "))));
    row.back().bold = true;
    // One workload: its intervals are the solo runs' spread alone. Marked here, said under the table.
    row << answerNumberCell(v["n"].get<int>() == 1 && !v["why"].is_string()
                                ? QStringLiteral("1 *")
                                : QString::number(v["n"].get<int>()),
                            v["n"].get<double>());
    if (v["why"].is_string()) {
        appendWhy(row, QString::fromStdString(v["why"].get<std::string>()));
        return row;
    }
    const QString how =
        QObject::tr("95 % interval by Fieller's theorem over %1 (%2 solo run(s))")
            .arg(v["n"].get<int>() > 1
                     ? QObject::tr("%1 workloads and the solo runs").arg(v["n"].get<int>())
                     : QObject::tr("the solo runs only: one workload has no spread of its own"))
            .arg(v["solo_runs"].get<int>());
    row << estimateCell(v["together_s"]["mean"], v["together_s"]["ci95"], insight::Unit::Seconds, 1)
        << estimateCell(v["alone_one_after_another_s"]["mean"], v["alone_one_after_another_s"]["ci95"],
                        insight::Unit::Seconds, 1)
        << ratioCell(
               v["throughput_gain"]["mean"], v["throughput_gain"]["ci95"],
               QObject::tr("Time one after another alone / time together: above 1, collocation did more "
                           "work per second. ") +
                   how)
        << estimateCell(v["energy_per_job_together_j"]["mean"], v["energy_per_job_together_j"]["ci95"],
                        insight::Unit::Joules, 0)
        << estimateCell(v["energy_per_job_alone_j"]["mean"], v["energy_per_job_alone_j"]["ci95"],
                        insight::Unit::Joules, 0)
        << ratioCell(v["energy_ratio"]["mean"], v["energy_ratio"]["ci95"],
                     QObject::tr("Energy per job together / alone: below 1, collocation saved energy. ") +
                         how);
    return row;
}

AnswerTableModel::Row workloadRow(const std::string& id, const json& g) {
    AnswerTableModel::Row row;
    row << answerTextCell(QObject::tr("    workload %1").arg(QString::fromStdString(id)))
        << answerNumberCell(QStringLiteral("1"), 1);
    if (g["why"].is_string()) {
        appendWhy(row, QString::fromStdString(g["why"].get<std::string>()));
        return row;
    }
    const QString how = QObject::tr("95 % interval from the solo runs' spread (one workload)");
    row << estimateCell(g["together_s"], json(), insight::Unit::Seconds, 1)
        << estimateCell(g["alone_one_after_another_s"], g.value("alone_one_after_another_s_ci95", json()),
                        insight::Unit::Seconds, 1)
        << ratioCell(g["throughput_gain"], g.value("throughput_gain_ci95", json()), how)
        << estimateCell(g["energy_per_job_together_j"], json(), insight::Unit::Joules, 0)
        << estimateCell(g["energy_per_job_alone_j"], g.value("energy_per_job_alone_j_ci95", json()),
                        insight::Unit::Joules, 0)
        << ratioCell(g["energy_ratio"], g.value("energy_ratio_ci95", json()), how);
    return row;
}

} // namespace

void fillCollocationModel(AnswerTableModel* model, const json& report) {
    // Short heads (the table shares a 1024 px screen with the chart); their tooltips say it all.
    const std::pair<const char*, const char*> heads[] = {
        {"Collocated", "The jobs' configurations, then each workload of them"},
        {"N", "Workloads of these jobs that shared a GPU"},
        {"Together", "The time the jobs took together: first start to last end"},
        {"Alone", "The same jobs one after another, each alone: its solo runs' mean duration, once per job"},
        {"Throughput", "Alone / together, with its 95 % interval: above 1, sharing did more work per second"},
        {"Energy/job", "GPU energy per job together (each GPU once)"},
        {"Energy/job alone", "A job's GPU energy alone: its solo runs' mean"},
        {"Energy vs alone",
         "Energy per job together / alone, with its 95 % interval: below 1, sharing saved energy"}};
    std::vector<AnswerHeader> headers;
    for (const auto& [title, tip] : heads)
        headers.push_back({QObject::tr(title), QObject::tr(tip)});
    std::vector<AnswerTableModel::Row> rows;
    if (!report.is_object()) {
        model->setTable(std::move(headers), {});
        return;
    }
    // Pointers into the report itself (value() would hand out a temporary copy).
    const json none = json::array();
    std::map<std::string, const json*> gains;
    for (const json& w : report.contains("workloads") ? report["workloads"] : none)
        if (w["collocation_gain"].is_object())
            gains[w["workload"].get<std::string>()] = &w["collocation_gain"];
    for (const json& v : report.value("collocation", json::array())) {
        rows.push_back(verdictRow(v));
        if (v["n"].get<int>() > 1)
            for (const json& id : v["workloads"])
                if (const auto it = gains.find(id.get<std::string>()); it != gains.end())
                    rows.push_back(workloadRow(it->first, *it->second));
    }
    model->setTable(std::move(headers), std::move(rows));
}

QString collocationNote(const json& report) {
    if (!report.is_object() || report["runs"].empty())
        return {};
    const json& verdicts = report.value("collocation", json::array());
    if (verdicts.empty())
        return QObject::tr("No workload in the basket ran jobs together on one GPU: add collocated runs "
                           "and the solo runs of the same params to see whether sharing paid off.");
    // The verdicts in a sentence each, above the table that backs them.
    QStringList lines;
    bool single = false;
    for (const json& v : verdicts) {
        lines << QStringLiteral("<b>%1</b>: %2")
                     .arg(QString::fromStdString(v.value("label", "")).toHtmlEscaped(),
                          // The terminal's "x1.28" as the table beside it writes a ratio: "×1.28".
                          QString::fromStdString(v.value("sentence", ""))
                              .replace(QRegularExpression(QStringLiteral("\\bx(?=\\d)")), QStringLiteral("×"))
                              .toHtmlEscaped());
        single = single || (v.value("n", 0) == 1 && !v["why"].is_string());
    }
    if (single)
        lines << QObject::tr("* one workload: its intervals cover only the solo runs' spread, not the "
                             "workload's own (repeat the workload to measure it).");
    return lines.join(QStringLiteral("<br>"));
}

} // namespace radt
