// SPDX-License-Identifier: MIT
#include "widgets/insights/CompareDialog.h"

#include "core/analysis/InsightFigures.h"
#include "core/base/TextFormat.h"
#include "widgets/common/Formatting.h"
#include "widgets/insights/EnvironmentPane.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace radt {

namespace {

QString sectionName(CompareRow::Section section) {
    switch (section) {
    case CompareRow::Section::Run:
        return QObject::tr("run");
    case CompareRow::Section::Param:
        return QObject::tr("param");
    case CompareRow::Section::Tag:
        return QObject::tr("tag");
    case CompareRow::Section::Summary:
        return QObject::tr("summary");
    case CompareRow::Section::Metric:
        break;
    }
    return QObject::tr("latest");
}

template <typename ValueOf>
void addRows(std::vector<CompareRow>& rows, CompareRow::Section section, const std::vector<std::string>& keys,
             size_t runCount, ValueOf valueOf) {
    for (const std::string& key : keys) {
        CompareRow row{section, toQString(key), {}, false};
        for (size_t r = 0; r < runCount; ++r)
            row.values << valueOf(r, key);
        row.differs = std::any_of(row.values.begin(), row.values.end(),
                                  [&](const QString& v) { return v != row.values.front(); });
        rows.push_back(std::move(row));
    }
}

} // namespace

std::vector<CompareRow> compareRows(const std::vector<Run>& runs,
                                    const std::map<std::string, std::map<std::string, LatestMetric>>& latest,
                                    const CompareExtras& extras) {
    std::set<std::string> params, tags, metrics;
    for (const Run& run : runs) {
        for (const auto& [key, value] : run.params)
            params.insert(key);
        for (const auto& [key, value] : run.tags)
            tags.insert(key);
        if (const auto it = latest.find(run.uuid); it != latest.end())
            for (const auto& [key, value] : it->second)
                metrics.insert(key);
    }
    std::vector<std::string> tagOrder(tags.begin(), tags.end());
    // The user's tags first; MLflow's bookkeeping (mlflow.user, mlflow.source.name ...) after.
    std::stable_partition(tagOrder.begin(), tagOrder.end(),
                          [](const std::string& k) { return k.rfind("mlflow.", 0) != 0; });
    std::vector<CompareRow> rows;
    // What a comparison is usually about first: how long, and at what energy.
    addRows(rows, CompareRow::Section::Run, {"duration"}, runs.size(), [&](size_t r, const std::string&) {
        return runs[r].endTime || extras.nowMs ? toQString(formatElapsed(runs[r].durationMs(extras.nowMs)))
                                               : QString();
    });
    if (!extras.gpuEnergyJ.empty())
        addRows(rows, CompareRow::Section::Run, {"GPU energy (its share)"}, runs.size(),
                [&](size_t r, const std::string&) {
                    const auto it = extras.gpuEnergyJ.find(runs[r].uuid);
                    return it == extras.gpuEnergyJ.end()
                               ? QString()
                               : toQString(insight::formatForPeople(it->second, insight::Unit::Joules, 1));
                });
    addRows(rows, CompareRow::Section::Param, {params.begin(), params.end()}, runs.size(),
            [&](size_t r, const std::string& key) {
                const auto it = runs[r].params.find(key);
                return it == runs[r].params.end() ? QString() : toQString(it->second);
            });
    addRows(rows, CompareRow::Section::Tag, tagOrder, runs.size(), [&](size_t r, const std::string& key) {
        const auto it = runs[r].tags.find(key);
        return it == runs[r].tags.end() ? QString() : toQString(it->second);
    });
    // The charted metrics' mean and p95 over each run (latest values mislead for a counter).
    std::vector<std::string> summarised;
    for (const SummaryRow& s : extras.summary)
        for (const char* statistic : {"mean", "p95"}) {
            const std::string key = s.metric.toStdString() + " " + statistic;
            if (std::find(summarised.begin(), summarised.end(), key) == summarised.end())
                summarised.push_back(key);
        }
    addRows(rows, CompareRow::Section::Summary, summarised, runs.size(),
            [&](size_t r, const std::string& key) {
                for (const SummaryRow& s : extras.summary)
                    if (s.runUuid == runs[r].uuid && s.stats.samples > 0) {
                        const std::string metric = s.metric.toStdString();
                        if (key == metric + " mean")
                            return toQString(formatReading(s.stats.mean));
                        if (key == metric + " p95")
                            return toQString(formatReading(s.stats.p95));
                    }
                return QString();
            });
    addRows(rows, CompareRow::Section::Metric, {metrics.begin(), metrics.end()}, runs.size(),
            [&](size_t r, const std::string& key) {
                const auto run = latest.find(runs[r].uuid);
                if (run == latest.end())
                    return QString();
                const auto it = run->second.find(key);
                return it == run->second.end() ? QString() : toQString(formatReading(it->second.value));
            });
    return rows;
}

CompareDialog::CompareDialog(QWidget* parent)
    : QDialog(parent), m_tabs(new QTabWidget(this)), m_table(new QTableWidget(this)),
      m_onlyDifferences(new QCheckBox(tr("Only differences"), this)),
      m_environment(new EnvironmentPane(this)), m_status(new QLabel(this)) {
    setWindowTitle(tr("Compare Runs"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setWordWrap(false);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setDefaultSectionSize(160);
    m_onlyDifferences->setToolTip(tr("Hide the params, tags and metrics every run has alike"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* runsPage = new QWidget(this);
    auto* runsLayout = new QVBoxLayout(runsPage);
    runsLayout->addWidget(m_onlyDifferences);
    runsLayout->addWidget(m_table, 1);
    runsLayout->addWidget(m_status);
    m_tabs->addTab(runsPage, tr("&Runs"));
    m_tabs->setTabToolTip(0, tr("Duration, energy, params, tags and metrics side by side"));
    m_tabs->addTab(m_environment, tr("&Environment"));
    m_tabs->setTabToolTip(1,
                          tr("What the runs ran on: packages, driver, CUDA, GPU, host, CPU, radt version"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_onlyDifferences, &QCheckBox::toggled, this, &CompareDialog::fill);
    resize(900, 560);
}

void CompareDialog::setRuns(const std::vector<Run>& runs, const std::map<int64_t, QString>& experimentNames,
                            const ArtifactContext& artifacts) {
    m_runs = runs;
    m_experimentNames = experimentNames;
    m_latest.clear();
    m_status->setText(tr("Reading the latest metric values…"));
    fill();
    m_environment->setRuns(runs, runHeaders(), artifacts);
}

void CompareDialog::setLatest(const std::map<std::string, std::map<std::string, LatestMetric>>& latest) {
    m_latest = latest;
    m_status->setText(tr("%1 runs; rows that differ are highlighted").arg(m_runs.size()));
    fill();
}

void CompareDialog::setExtras(CompareExtras extras) {
    m_extras = std::move(extras);
    fill();
}

void CompareDialog::setError(const QString& error) {
    m_status->setText(tr("Cannot read the latest metric values: %1").arg(error));
}

QStringList CompareDialog::runHeaders() const {
    QStringList headers;
    for (const Run& run : m_runs) {
        const auto experiment = m_experimentNames.find(run.experimentId);
        const QString name = run.name.empty() ? toQString(run.uuid.substr(0, 8)) : toQString(run.name);
        headers << name + QLatin1Char('\n') +
                       (experiment == m_experimentNames.end() ? tr("experiment %1").arg(run.experimentId)
                                                              : experiment->second);
    }
    return headers;
}

void CompareDialog::fill() {
    const std::vector<CompareRow> rows = compareRows(m_runs, m_latest, m_extras);
    m_table->clear();
    m_table->setColumnCount(int(m_runs.size()) + 1);
    m_table->setHorizontalHeaderLabels(QStringList{tr("Key")} + runHeaders());
    for (int c = 1; c < m_table->columnCount(); ++c)
        m_table->horizontalHeaderItem(c)->setToolTip(toQString(m_runs[size_t(c - 1)].uuid));
    const bool onlyDifferences = m_onlyDifferences->isChecked();
    int shown = 0;
    m_table->setRowCount(int(rows.size()));
    const QColor highlight(255, 236, 179); // amber: "look here"
    for (const CompareRow& row : rows) {
        if (onlyDifferences && !row.differs)
            continue;
        auto* key = new QTableWidgetItem(sectionName(row.section) + QStringLiteral(": ") + row.key);
        key->setToolTip(row.key);
        m_table->setItem(shown, 0, key);
        for (int r = 0; r < row.values.size(); ++r) {
            auto* item = new QTableWidgetItem(row.values[r].isEmpty() ? QStringLiteral("—") : row.values[r]);
            item->setToolTip(row.values[r]);
            if (row.differs) {
                item->setBackground(highlight);
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_table->setItem(shown, r + 1, item);
        }
        if (row.differs)
            key->setBackground(highlight);
        ++shown;
    }
    m_table->setRowCount(shown);
    // Every column as wide as its values (up to 320 px, the rest in the tooltip); many runs
    // scroll sideways instead of squeezing a column.
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_table->columnCount(); ++c)
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 320));
}

} // namespace radt
