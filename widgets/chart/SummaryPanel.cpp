// SPDX-License-Identifier: MIT
#include "widgets/chart/SummaryPanel.h"

#include "core/store/RunEnvelopes.h"
#include "core/store/Store.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/common/Formatting.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace radt {

SummaryPanel::SummaryPanel(QWidget* parent)
    : QWidget(parent), m_model(new SummaryModel(this)), m_proxy(new SummarySortProxy(this)),
      m_view(new QTableView(this)), m_copy(new QPushButton(tr("Copy as TSV"), this)) {
    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->setVisible(false);
    // Rows as tall as their text, as in a spreadsheet: the style's default (30 px here) showed
    // one row of a 500-run summary in the room the workspace gives it.
    m_view->verticalHeader()->setMinimumSectionSize(m_view->fontMetrics().height() + 4);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // Unsorted until the user clicks a header: rows first read metric by metric, as rowsFor built them.
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_copy->setToolTip(tr("Copy the selected rows, or all rows when none is selected, as "
                          "tab-separated text (Ctrl+C)"));

    // The button beside the table, not under it: under the board the height is what is short.
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_copy, 0, Qt::AlignTop);

    // Ctrl+C in the table copies whole rows as TSV rather than one cell's display text.
    auto* copyAction = new QAction(tr("Copy as TSV"), m_view);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetShortcut);
    m_view->addAction(copyAction);
    connect(copyAction, &QAction::triggered, this, [this] { copyToClipboard(); });
    connect(m_copy, &QPushButton::clicked, this, [this] { copyToClipboard(); });
}

int SummaryPanel::heightForRows(int rows) const {
    return m_view->horizontalHeader()->sizeHint().height() +
           rows * m_view->verticalHeader()->defaultSectionSize() +
           m_view->horizontalScrollBar()->sizeHint().height() + 2 * m_view->frameWidth();
}

void SummaryPanel::setRows(std::vector<SummaryRow> rows) {
    m_model->setRows(std::move(rows));
    m_copy->setEnabled(m_model->rowCount() > 0);
    m_view->resizeColumnsToContents();
}

QString SummaryPanel::copyToClipboard() {
    // Proxy rows in ascending order are the rows as the table shows them; a cell selection
    // counts for its whole row.
    std::set<int> proxyRows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedIndexes())
        proxyRows.insert(index.row());
    if (proxyRows.empty()) {
        for (int row = 0; row < m_proxy->rowCount(); ++row)
            proxyRows.insert(row);
    }
    QModelIndexList rows;
    for (int row : proxyRows)
        rows.append(m_proxy->mapToSource(m_proxy->index(row, 0)));
    // An empty table still copies its header, not every row of an empty selection.
    QString tsv = rows.isEmpty() ? m_model->toTsv() : m_model->toTsv(rows);
    QApplication::clipboard()->setText(tsv);
    return tsv;
}

std::vector<SummaryRow> SummaryPanel::rowsFor(Store& store, const std::vector<Run>& runs,
                                              const std::vector<std::string>& metrics,
                                              const std::map<int64_t, QString>& experimentNames,
                                              Store* keep) {
    std::vector<SummaryRow> rows;
    for (const std::string& metric : metrics) {
        // A compacted run's samples back on their grid: mean and count as recorded. A basket of
        // 500 finished runs reads 500 kept rows, not 50M samples.
        const std::map<std::string, SeriesStats> stats = runsSeriesStats(store, runs, metric, keep);
        for (const Run& run : runs) {
            const auto found = stats.find(run.uuid);
            if (found == stats.end())
                continue;
            const auto name = experimentNames.find(run.experimentId);
            rows.push_back(
                rowOf(run, name != experimentNames.end() ? name->second : QString::number(run.experimentId),
                      metric, found->second));
        }
    }
    return rows;
}

std::vector<SummaryRow> SummaryPanel::groupRows(const ChartEngine& engine) {
    std::vector<SummaryRow> rows;
    for (const ChartLine& line : engine.lines()) {
        if (!line.grouped || !line.isMeanLine())
            continue;
        Series mean;
        for (const BandRow& point :
             bandRows(engine.runs(), line.runs, engine.options(), engine.valueRange())) {
            mean.t.push_back(point.x);
            mean.step.push_back(0);
            mean.v.push_back(point.mean);
        }
        SummaryRow row;
        row.label = tr("mean of %1").arg(line.runs.size());
        row.line = line.name;
        row.metric = engine.metricKey();
        row.stats = seriesStats(mean);
        rows.push_back(std::move(row));
    }
    return rows;
}

SummaryRow SummaryPanel::rowOf(const Run& run, const QString& experiment, const std::string& metric,
                               const Series& series) {
    return rowOf(run, experiment, metric, seriesStats(series));
}

SummaryRow SummaryPanel::rowOf(const Run& run, const QString& experiment, const std::string& metric,
                               const SeriesStats& stats) {
    SummaryRow row;
    // Experiment, workload and letter have their own columns: the run's short name suffices.
    row.label = run.workload().empty()
                    ? toQString(run.name.empty() ? run.uuid.substr(0, 8) : run.name)
                    : toQString(run.workload() + (run.letter().empty() ? "" : " " + run.letter()));
    row.experiment = experiment;
    row.workload = toQString(run.workload());
    row.letter = toQString(run.letter());
    row.metric = toQString(metric);
    row.runUuid = run.uuid;
    row.stats = stats;
    return row;
}

} // namespace radt
