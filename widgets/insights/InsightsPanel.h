// SPDX-License-Identifier: MIT
#pragma once
// The explorer's Insights view: `radt report`'s figures for the basket's runs in a
// sortable, copyable table (energy, energy per epoch, CO2e, utilisation, the util/SMACT flag,
// collocation, slowdown), a bar chart comparing runs, and the workloads' energy. Computed on a
// worker thread with its own store connection; followed every 5 s while a run is running.

#include "widgets/insights/InsightTimeChart.h"

#include <QStringList>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace QtCharts {
class QChart;
class QChartView;
} // namespace QtCharts

namespace radt {

class AnswerTableModel;
class InsightRunsModel;
class StoreReadThread;

class InsightsPanel : public QWidget {
    Q_OBJECT
public:
    explicit InsightsPanel(QWidget* parent = nullptr);
    ~InsightsPanel() override;

    /// The store the runs live in (its URI; the worker opens its own connection). Clears the view.
    void setStore(const QString& uri);
    /// The runs to report on (the basket); recomputed when the view is visible.
    void setRuns(const QStringList& uuids);
    /// Recomputes now (also when hidden).
    void refresh();
    /// Grid intensity in g CO2e/kWh (unset: no CO2e) and PUE, as `radt report` takes them.
    void setCarbon(std::optional<double> gridIntensity, double pue);

    /// Tests and headless use: waits (processing events) until no computation is pending.
    bool waitForResult(int timeoutMs);
    const nlohmann::json& report() const { return m_report; }
    /// The text under the table: the workloads' energy, and the runs left out of configurations.
    QString footer() const;
    InsightRunsModel* table() const { return m_views.model; }
    /// The Configurations and Comparisons tabs' tables.
    AnswerTableModel* configurations() const { return m_views.configurations; }
    AnswerTableModel* comparisons() const { return m_views.comparisons; }
    /// The Collocation tab's table: per collocated configuration, then its workloads.
    AnswerTableModel* collocation() const { return m_views.collocation; }
    QtCharts::QChart* chart() const { return m_views.chart; }
    /// The table as tab-separated text, header first (what Copy puts on the clipboard).
    QString tableTsv() const;
    /// The table as CSV and the report as JSON, written atomically; throw naming the file.
    void exportCsv(const QString& path) const;
    void exportJson(const QString& path) const;
    /// The configurations as a LaTeX booktabs table, or as CSV when `path` ends in .csv.
    void exportConfigurations(const QString& path) const;
    /// The collocation verdicts as a LaTeX booktabs table, or as CSV when `path` ends in .csv.
    void exportCollocation(const QString& path) const;
    QString lastError() const { return m_error; }

    static constexpr int kNumberRole =
        Qt::UserRole + 1;                              ///< what a table column sorts by (InsightRunsModel's)
    static constexpr int kUuidRole = Qt::UserRole + 2; ///< the run of a table row

signals:
    void computed();
    void progress(int done, int total);

protected:
    void showEvent(QShowEvent* event) override;

private:
    // The constructor's parts, in the order they run (the order widgets are made is the tab order).
    void setUpSettingsFields(); ///< grid intensity, PUE and repeat params, from QSettings
    void setUpFigureChoice();   ///< the Compare list: the charted figures and the special charts
    QHBoxLayout* toolBar();     ///< the settings fields, the Compare list and the export buttons
    void setUpViews();
    void layOut(QHBoxLayout* bar);
    void connectRecomputes(); ///< what recomputes, follows running runs or redraws the chart

    void compute();
    void present(nlohmann::json report, quint64 generation, const QString& error);
    void fillTable();
    /// Caps the name columns' width (their tooltips hold the whole name).
    void fitNameColumns();
    /// The footer: the workloads' energy and the notes on runs left out of configurations.
    QString workloadsText() const;
    void fillChart();
    /// The selected run's GPU utilisation with its burst periods or input stalls shaded: read on
    /// the worker, drawn when it lands.
    void fillRunChart(TimeChartRequest::Kind kind);
    void exportWithDialog(const QString& format);

    QString m_uri;
    QStringList m_runs;
    std::optional<double> m_gridIntensity;
    double m_pue = 1.0;
    nlohmann::json m_report;
    QString m_error;
    quint64 m_generation = 0;                  ///< a newer request supersedes an older one's result
    quint64 m_shown = 0;                       ///< the generation on screen
    bool m_dirty = false;                      ///< the runs changed while hidden
    std::shared_ptr<StoreReadThread> m_worker; ///< reads and computes off the GUI thread

    /// The tool bar's fields: what the figures are computed with and which one the chart shows.
    struct Inputs {
        QDoubleSpinBox* intensity = nullptr;
        QDoubleSpinBox* pue = nullptr;
        QLineEdit* repeats = nullptr; ///< the repeat params, comma-separated
        QComboBox* figure = nullptr;
        QCheckBox* perRun = nullptr; ///< bars per run where repeats make configurations
    } m_inputs;
    QLabel* m_status = nullptr;
    QLabel* m_workloads = nullptr;
    /// What shows the report: the runs' table, the configurations' and comparisons' tables, the chart.
    struct Views {
        InsightRunsModel* model = nullptr;
        QSortFilterProxyModel* proxy = nullptr;
        QTableView* table = nullptr;
        AnswerTableModel* configurations = nullptr;
        AnswerTableModel* comparisons = nullptr;
        AnswerTableModel* collocation = nullptr;
        QLabel* collocationNote =
            nullptr; ///< above the Collocation tab's table: the verdicts, or why it is empty
        QtCharts::QChart* chart = nullptr;
        QtCharts::QChartView* chartView = nullptr;
    } m_views;
    QTimer* m_follow = nullptr;
    QTimer* m_debounce = nullptr;
    quint64 m_burstGeneration = 0; ///< the newest run chart (bursts, stalls) asked for
    bool m_burstPending = false;   ///< and it has not landed yet
};

} // namespace radt
