// SPDX-License-Identifier: MIT
// InsightsPanel's table of runs (InsightRunsModel): filled from the report, its name columns
// fitted; and the table as copied and exported.
#include "widgets/insights/InsightsPanel.h"

#include "core/analysis/InsightFigures.h"
#include "core/base/AtomicFile.h"
#include "core/base/TextFormat.h"
#include "widgets/insights/CollocationTable.h"
#include "widgets/insights/ConfigurationTables.h"
#include "widgets/insights/InsightRunsModel.h"

#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>

using nlohmann::json;

namespace radt {

namespace {

QString csvCell(const QString& text) {
    return QString::fromStdString(csvField(text.toStdString()));
}

} // namespace

void InsightsPanel::fillTable() {
    m_workloads->clear(); // never the footer of another basket or store
    fillConfigurationsModel(m_views.configurations, m_report);
    fillComparisonsModel(m_views.comparisons, m_report);
    fillCollocationModel(m_views.collocation, m_report);
    m_views.collocationNote->setText(collocationNote(m_report));
    m_views.collocationNote->setVisible(!m_views.collocationNote->text().isEmpty());
    m_views.model->setReport(m_report);
    if (!m_report.is_object())
        return;
    fitNameColumns();
    m_workloads->setText(workloadsText());
}

void InsightsPanel::fitNameColumns() {
    m_views.table->resizeColumnsToContents();
    // Long run and experiment names are cut in the middle (the whole name is the tooltip): the
    // figures, not the names, must fit a laptop's window.
    for (const char* key : {"name", "experiment", "shared_with"})
        if (const int c = m_views.model->figureColumn(key); c >= 0 && m_views.table->columnWidth(c) > 180)
            m_views.table->setColumnWidth(c, 180);
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
    const std::vector<RunTableColumn>& columns = m_views.model->columns();
    QStringList lines;
    QStringList header;
    for (const RunTableColumn& c : columns)
        header << (c.figure ? InsightRunsModel::exportHeader(*c.figure) : c.param);
    lines << header.join(QLatin1Char('\t'));
    for (int r = 0; r < m_views.proxy->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_views.proxy->columnCount() && c < int(columns.size()); ++c) {
            const QModelIndex index = m_views.proxy->index(r, c);
            const QVariant raw = index.data(InsightRunsModel::RawRole);
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
