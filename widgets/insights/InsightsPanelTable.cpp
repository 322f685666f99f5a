// SPDX-License-Identifier: MIT
// InsightsPanel's table of runs: one row a run, one column a figure of runFigures() that is in the
// view, its tooltips and caveat marks; and the table as copied and exported.
#include "widgets/insights/InsightsPanel.h"

#include "core/analysis/ConfigurationLabels.h"
#include "core/analysis/InsightFigures.h"
#include "core/base/AtomicFile.h"
#include "core/base/TextFormat.h"
#include "widgets/insights/CollocationTable.h"
#include "widgets/insights/ConfigurationTables.h"

#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>

#include <algorithm>
#include <map>

using nlohmann::json;

namespace radt {

namespace {

constexpr int kRawRole = Qt::UserRole + 3; ///< a number in its raw unit, as exports write it

/// The table's columns, in its order: the run's name, the params that tell the runs apart, then
/// the figures of runFigures() that are in the view.
std::vector<RunTableColumn> runTableColumns(const json& report) {
    std::vector<RunTableColumn> out;
    for (const insight::RunFigure& f : insight::runFigures()) {
        if (!f.inView)
            continue;
        out.push_back({&f, QString()});
        if (out.size() == 1 && report.is_object())
            for (const json& name : report.value("telling_params", json::array()))
                out.push_back({nullptr, QString::fromStdString(name.get<std::string>())});
    }
    return out;
}

/// "GPU energy J": how the view and the exports name a figure's column: one unit down a column,
/// said once in its header, as `radt report`'s per-run table and the CSV (s and J, never
/// "0:00:18.5" beside "1.2 h").
QString exportHeader(const insight::RunFigure& f) {
    const QString title = QString::fromUtf8(f.title), unit = QString::fromUtf8(insight::unitSymbol(f.unit));
    return unit.isEmpty() || title.endsWith(unit) ? title : title + QLatin1Char(' ') + unit;
}

/// A run's cell of one figure: its text for the eye, its number to sort by and export, ⚠ when flagged.
QStandardItem* figureItem(const insight::RunFigure& f, const json& r) {
    const json v = f.value(r);
    auto* item = new QStandardItem;
    item->setEditable(false);
    if (v.is_null()) {
        item->setText(QStringLiteral("–"));
        item->setToolTip(QString::fromStdString(insight::whyBlank(f, r)));
        item->setData(f.unit == insight::Unit::Text ? QVariant(QString()) : QVariant(-1e300),
                      InsightsPanel::kNumberRole);
    } else if (v.is_string()) {
        item->setText(QString::fromStdString(v.get<std::string>()));
        item->setData(item->text(), InsightsPanel::kNumberRole);
    } else {
        const double d = v.get<double>();
        item->setText(QString::number(d, 'f', f.decimals));
        item->setData(d, InsightsPanel::kNumberRole);
        item->setData(d, kRawRole);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (insight::scaledByMagnitude(f.unit)) // the magnitude a person says, one hover away
            item->setToolTip(QString::fromStdString(insight::formatForPeople(d, f.unit, f.decimals)));
    }
    if (f.flagged && f.flagged(r)) {
        item->setText(QStringLiteral("⚠ ") + item->text());
        item->setBackground(QColor(255, 236, 179));
    }
    return item;
}

/// A run's value of a telling param ("–" where unset), sorted by `rank`: its place among the
/// param's values in the report's order of params (paramValueBefore: numbers as numbers).
QStandardItem* paramItem(const QString& name, const std::string& value, double rank) {
    auto* item = new QStandardItem(value.empty() ? QStringLiteral("–") : QString::fromStdString(value));
    item->setEditable(false);
    item->setData(rank, InsightsPanel::kNumberRole);
    item->setToolTip(value.empty() ? QObject::tr("%1 is not set for this run").arg(name)
                                   : QStringLiteral("%1=%2").arg(name, item->text()));
    return item;
}

/// Each telling param's values, ranked in the order configurations are (what its column sorts by).
std::map<std::string, std::map<std::string, double>> paramRanks(const json& report) {
    std::map<std::string, std::map<std::string, double>> ranks;
    for (const json& name : report.value("telling_params", json::array())) {
        std::vector<std::string> values;
        for (const json& r : report["runs"])
            values.push_back(
                r.value("telling", json::object()).value(name.get<std::string>(), std::string()));
        std::sort(values.begin(), values.end(), paramValueBefore);
        auto& rank = ranks[name.get<std::string>()];
        for (const std::string& v : values)
            rank.emplace(v, double(rank.size()));
    }
    return ranks;
}

QString csvCell(const QString& text) {
    return QString::fromStdString(csvField(text.toStdString()));
}

} // namespace

void InsightsPanel::markEnergyCaveats(const json& r, QStandardItem* energy) {
    // What a reader of the energy figure must know: the cross-check when it is off,
    // readings left out, a counter replaced by power, a window wider than the run.
    QStringList caveats;
    const json check = r.value("energy_check", json());
    if (r.value("energy_check_flag", false) && check.is_object())
        caveats << tr("The energy counter says %1 J, integrated power %2 J: %3 % apart.")
                       .arg(check["counter_j"].get<double>(), 0, 'f', 0)
                       .arg(check["power_j"].get<double>(), 0, 'f', 0)
                       .arg(check["disagreement_pct"].get<double>(), 0, 'f', 1);
    for (const json& note : r.value("energy_notes", json::array()))
        caveats << QString::fromStdString(note.get<std::string>());
    if (const json note = r.value("window_note", json()); note.is_string())
        caveats << QString::fromStdString(note.get<std::string>());
    if (caveats.isEmpty())
        return;
    const QString source =
        r["gpu_energy_source"].is_string()
            ? tr("Source: %1.").arg(QString::fromStdString(r["gpu_energy_source"].get<std::string>()))
            : QString();
    energy->setText(QStringLiteral("⚠ ") + energy->text());
    energy->setBackground(QColor(255, 236, 179));
    const QString before = energy->toolTip();
    energy->setToolTip((QStringList{before, source} + caveats).join(QLatin1Char('\n')).trimmed());
}

void InsightsPanel::fillTable() {
    m_views.model->clear();
    m_workloads->clear(); // never the footer of another basket or store
    fillConfigurationsModel(m_views.configurations, m_report);
    fillComparisonsModel(m_views.comparisons, m_report);
    fillCollocationModel(m_views.collocation, m_report);
    m_views.collocationNote->setText(collocationNote(m_report));
    m_views.collocationNote->setVisible(!m_views.collocationNote->text().isEmpty());
    const std::vector<RunTableColumn> columns = runTableColumns(m_report);
    setTableHeaders(columns);
    if (!m_report.is_object())
        return;
    const auto ranks = paramRanks(m_report);
    for (const json& r : m_report["runs"])
        m_views.model->appendRow(runRow(r, columns, ranks));
    fitNameColumns();
    m_workloads->setText(workloadsText());
}

void InsightsPanel::setTableHeaders(const std::vector<RunTableColumn>& columns) {
    QStringList headers;
    for (const RunTableColumn& c : columns)
        headers << (c.figure ? tr(exportHeader(*c.figure).toUtf8().constData()) : c.param);
    m_views.model->setHorizontalHeaderLabels(headers);
    for (int i = 0; i < int(columns.size()); ++i) {
        const insight::RunFigure* f = columns[size_t(i)].figure;
        m_views.model->horizontalHeaderItem(i)->setToolTip(
            f ? tr("Exported and copied as \"%1\", in %2")
                    .arg(exportHeader(*f), f->unit == insight::Unit::Text
                                               ? tr("text")
                                               : QString::fromUtf8(insight::unitSymbol(f->unit)))
              : tr("The param %1: one of those that tell these runs apart").arg(columns[size_t(i)].param));
    }
}

int InsightsPanel::figureColumn(const char* key) const {
    const int c = insight::viewColumn(key);
    return c > 0 && m_report.is_object() && m_report.contains("telling_params")
               ? c + int(m_report["telling_params"].size())
               : c;
}

QList<QStandardItem*>
InsightsPanel::runRow(const json& r, const std::vector<RunTableColumn>& columns,
                      const std::map<std::string, std::map<std::string, double>>& ranks) {
    QList<QStandardItem*> row;
    static const json kNone = json::object();
    const json& telling = r.contains("telling") ? r["telling"] : kNone;
    for (const RunTableColumn& c : columns) {
        if (c.figure) {
            row << figureItem(*c.figure, r);
            continue;
        }
        const std::string value = telling.value(c.param.toStdString(), std::string());
        row << paramItem(c.param, value, ranks.at(c.param.toStdString()).at(value));
    }
    const QString uuid = QString::fromStdString(r["run_uuid"].get<std::string>());
    row[0]->setToolTip(row[0]->text() + QLatin1Char('\n') + uuid);
    row[0]->setData(uuid, kUuidRole);
    if (r["util_smact_flag"].is_boolean() && r["util_smact_flag"].get<bool>())
        row[figureColumn("util_smact_gap_pp")]->setToolTip(
            tr("GPU utilisation is %1 percentage points above SM activity: the GPU looked busy, "
               "but most of its SMs were idle.")
                .arg(r["util_smact_gap_pp"].get<double>(), 0, 'f', 0));
    const int energyColumn = figureColumn("gpu_energy_j");
    if (r["collocation"].is_object() && r["gpu_energy_device_j"].is_number())
        row[energyColumn]->setToolTip(
            tr("Its share of GPU %1, which it shared with %n other run(s): each moment's energy split "
               "equally among the runs active then. The whole GPU used %2 J over this run's time.",
               nullptr, int(r["collocation"]["shared_with"].size()))
                .arg(QString::fromStdString(r["collocation"]["device"].get<std::string>()))
                .arg(r["gpu_energy_device_j"].get<double>(), 0, 'f', 1));
    markEnergyCaveats(r, row[energyColumn]);
    return row;
}

void InsightsPanel::fitNameColumns() {
    m_views.table->resizeColumnsToContents();
    // Long run and experiment names are cut in the middle (the whole name is the tooltip): the
    // figures, not the names, must fit a laptop's window.
    for (const char* key : {"name", "experiment", "shared_with"})
        if (const int c = figureColumn(key); m_views.table->columnWidth(c) > 180)
            m_views.table->setColumnWidth(c, 180);
    for (int r = 0; r < m_views.model->rowCount(); ++r)
        if (QStandardItem* experiment = m_views.model->item(r, figureColumn("experiment")))
            experiment->setToolTip(experiment->text());
}

QString InsightsPanel::workloadsText() const {
    QStringList workloads;
    for (const json& w : m_report["workloads"])
        workloads << tr("%1: %2 over %n run(s)", nullptr, int(w["runs"].size()))
                         .arg(QString::fromStdString(w["workload"].get<std::string>()))
                         .arg(w["gpu_energy_j"].is_null()
                                  ? QStringLiteral("–")
                                  : QString::fromStdString(insight::formatForPeople(
                                        w["gpu_energy_j"].get<double>(), insight::Unit::Joules, 1)));
    QString text =
        workloads.isEmpty()
            ? QString()
            : tr("Workloads (each GPU counted once): %1").arg(workloads.join(QStringLiteral("; ")));
    return (QStringList{text} + configurationNotes(m_report)).join(QLatin1Char('\n')).trimmed();
}

QString InsightsPanel::tableTsv() const {
    // Numbers in their raw unit (the header names it) at the figure's decimals: what the eye reads
    // as "4.04 kJ" a spreadsheet gets as 4040.3, under "GPU energy J".
    const std::vector<RunTableColumn> columns = runTableColumns(m_report);
    QStringList lines;
    QStringList header;
    for (const RunTableColumn& c : columns)
        header << (c.figure ? exportHeader(*c.figure) : c.param);
    lines << header.join(QLatin1Char('\t'));
    for (int r = 0; r < m_views.proxy->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_views.proxy->columnCount() && c < int(columns.size()); ++c) {
            const QModelIndex index = m_views.proxy->index(r, c);
            const QVariant raw = index.data(kRawRole);
            const insight::RunFigure* f = columns[size_t(c)].figure;
            QString text = raw.isValid() && f ? QString::number(raw.toDouble(), 'f', f->decimals)
                                              : index.data().toString();
            if (text.startsWith(QStringLiteral("⚠ "))) // the mark is for the eye
                text.remove(0, 2);
            cells << text;
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void InsightsPanel::exportCsv(const QString& path) const {
    QString text;
    for (const QString& line : tableTsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        QStringList cells;
        for (const QString& cell : line.split(QLatin1Char('\t')))
            cells << csvCell(cell == QStringLiteral("–") ? QString() : cell);
        text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    writeFileAtomically(path.toStdString(), text.toStdString());
}

} // namespace radt
