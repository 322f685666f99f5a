#pragma once
// Basket > Compare Runs: the basket's runs side by side, as MLflow's compare-runs page shows them:
// one column per run, rows of params, tags and latest metric values, the rows whose values differ
// highlighted, and "Only differences" to hide the rest.

#include "Model.h"

#include <QDialog>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

class QCheckBox;
class QLabel;
class QTableWidget;

namespace radt {

/// One row of the comparison: a param, tag or metric and its value in each run ("" when absent).
struct CompareRow {
    enum class Section { Param, Tag, Metric };
    Section section;
    QString key;
    QStringList values; ///< one per run, in the runs' order
    bool differs;       ///< not every run has the same value (absence counts as a value)
};

/// The rows for `runs`: params, then tags (MLflow's own mlflow.* tags last), then metrics, each
/// sorted by key. `latest` holds each run's latest metric values by run uuid.
std::vector<CompareRow> compareRows(const std::vector<Run>& runs,
                                    const std::map<std::string, std::map<std::string, LatestMetric>>& latest);

class CompareDialog : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);
    /// Shows `runs` (headers: run name, experiment); metrics come with setLatest.
    void setRuns(const std::vector<Run>& runs, const std::map<int64_t, QString>& experimentNames);
    void setLatest(const std::map<std::string, std::map<std::string, LatestMetric>>& latest);
    /// Said in place of the metrics when they could not be read.
    void setError(const QString& error);
    QTableWidget* table() const { return m_table; }
    QCheckBox* onlyDifferencesBox() const { return m_onlyDifferences; }

private:
    void fill();

    std::vector<Run> m_runs;
    std::map<int64_t, QString> m_experimentNames;
    std::map<std::string, std::map<std::string, LatestMetric>> m_latest;
    QTableWidget* m_table;
    QCheckBox* m_onlyDifferences;
    QLabel* m_status;
};

} // namespace radt
