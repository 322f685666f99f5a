// SPDX-License-Identifier: MIT
#pragma once
// The summary table on screen: statistics of every (run, metric) shown, sortable by any column,
// and "Copy as TSV" for a spreadsheet.

#include "core/base/Model.h"
#include "widgets/chart/SummaryModel.h"

#include <QString>
#include <QWidget>

#include <map>
#include <string>
#include <vector>

class QPushButton;
class QTableView;

namespace radt {

class Store;
class ChartEngine;

class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);

    void setRows(std::vector<SummaryRow> rows);
    /// The panel's height showing `rows` rows of the table under its header, with the
    /// horizontal scroll bar its many columns need.
    int heightForRows(int rows) const;
    SummaryModel* model() const { return m_model; }
    /// The view shows the model through a SummarySortProxy.
    QTableView* view() const { return m_view; }
    SummarySortProxy* proxy() const { return m_proxy; }

    /// Puts the selected rows (all rows when none is selected) on the clipboard as TSV, in the
    /// order the table shows them, and returns that text.
    QString copyToClipboard();

    /// The rows for `metrics` x `runs`, metric by metric so one metric's runs sit together; a run
    /// without a metric gets no row for it. Finished runs' kept statistics where fresh, else
    /// computed (runsSeriesStats) and kept through `keep`; StoreError propagates so the caller can
    /// keep the table as it was.
    static std::vector<SummaryRow> rowsFor(Store& store, const std::vector<Run>& runs,
                                           const std::vector<std::string>& metrics,
                                           const std::map<int64_t, QString>& experimentNames,
                                           Store* keep = nullptr);
    /// A series the table summarises without the store: a board file's run that the open store
    /// does not hold, with the points the file carries.
    struct HeldSeries {
        Run run;
        QString experiment; ///< its name, or its id when the file does not name it
        std::string metric;
        Series series;
    };
    /// One row: the statistics of `series`, the run named as the charts name it.
    static SummaryRow rowOf(const Run& run, const QString& experiment, const std::string& metric,
                            const Series& series);
    static SummaryRow rowOf(const Run& run, const QString& experiment, const std::string& metric,
                            const SeriesStats& stats);
    /// One row per group the chart draws as a mean: the statistics of the mean line
    /// where at least two of its runs have data, named "mean of N" in the line's name.
    static std::vector<SummaryRow> groupRows(const ChartEngine& engine);

private:
    SummaryModel* m_model;
    SummarySortProxy* m_proxy;
    QTableView* m_view;
    QPushButton* m_copy;
};

} // namespace radt
