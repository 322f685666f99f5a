// SPDX-License-Identifier: MIT
#pragma once
// Basket > Compare Runs: the basket's runs side by side, as MLflow's compare-runs page shows them:
// one column per run; rows of its duration and energy share, params, tags, the charted metrics'
// mean and p95 (from the summary) and the latest values (labelled so: a counter's latest value is
// its total, not its level); the rows whose values differ highlighted, "Only differences" to hide
// the rest. Its Environment tab (EnvironmentPane) sets the runs' recorded environments side by side.

#include "core/artifacts/ArtifactLocation.h"
#include "core/base/Model.h"
#include "widgets/chart/SummaryModel.h"

#include <QDialog>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

class QCheckBox;
class QLabel;
class QTabWidget;
class QTableWidget;

namespace radt {

class EnvironmentPane;

/// One row of the comparison: a param, tag or metric and its value in each run ("" when absent).
struct CompareRow {
    enum class Section { Run, Param, Tag, Summary, Metric };
    Section section;
    QString key;
    QStringList values; ///< one per run, in the runs' order
    bool differs;       ///< not every run has the same value (absence counts as a value)
};

/// What the comparison shows beside params, tags and latest values.
struct CompareExtras {
    std::vector<SummaryRow> summary;          ///< the charted metrics' statistics per run
    std::map<std::string, double> gpuEnergyJ; ///< each run's GPU energy (its share), by uuid
    int64_t nowMs = 0;                        ///< for the duration of a running run
};

/// The rows for `runs`: duration and GPU energy, params, tags (MLflow's own mlflow.* tags last),
/// the summary's mean and p95 per metric, then the latest metric values, each sorted by key.
/// `latest` holds each run's latest metric values by run uuid.
std::vector<CompareRow> compareRows(const std::vector<Run>& runs,
                                    const std::map<std::string, std::map<std::string, LatestMetric>>& latest,
                                    const CompareExtras& extras = {});

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);
    /// Shows `runs` (headers: run name, experiment); metrics come with setLatest. Their
    /// environments are read where `artifacts` says this machine finds their artifact folders.
    void setRuns(const std::vector<Run>& runs, const std::map<int64_t, QString>& experimentNames,
                 const ArtifactContext& artifacts = {});
    void setLatest(const std::map<std::string, std::map<std::string, LatestMetric>>& latest);
    /// The summary's statistics and the Insights view's energy, when they are known.
    void setExtras(CompareExtras extras);
    /// Said in place of the metrics when they could not be read.
    void setError(const QString& error);
    QTableWidget* table() const { return m_table; }
    QCheckBox* onlyDifferencesBox() const { return m_onlyDifferences; }
    QTabWidget* tabs() const { return m_tabs; }
    EnvironmentPane* environment() const { return m_environment; }

private:
    void fill();
    /// A column head per run: its name (or id's start) over its experiment.
    QStringList runHeaders() const;

    std::vector<Run> m_runs;
    std::map<int64_t, QString> m_experimentNames;
    std::map<std::string, std::map<std::string, LatestMetric>> m_latest;
    CompareExtras m_extras;
    QTabWidget* m_tabs;
    QTableWidget* m_table;
    QCheckBox* m_onlyDifferences;
    EnvironmentPane* m_environment;
    QLabel* m_status;
};

} // namespace radt
