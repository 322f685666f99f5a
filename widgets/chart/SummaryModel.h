// SPDX-License-Identifier: MIT
#pragma once
// The summary table: one row per (run, metric) with the series' statistics, so runs can be
// compared by number rather than by eye, sorted, and pasted into a spreadsheet.

#include "core/base/SeriesMath.h"

#include <QAbstractTableModel>
#include <QModelIndexList>
#include <QSortFilterProxyModel>
#include <QString>

#include <string>
#include <vector>

namespace radt {

/// One (run, metric) of the table: who it is, and its statistics (SeriesMath.h).
struct SummaryRow {
    QString label;      ///< the run's short name: workload and letter ("1 a"), else its name
    QString line;       ///< the line its chart of `metric` draws it in ("seed=1 iters=60"), if any
    QString experiment; ///< experiment name
    QString workload;
    QString letter;
    QString metric;
    std::string runUuid;
    SeriesStats stats;
};

class SummaryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        RunColumn,
        LineColumn, ///< the run's line in the chart: the legend's name for it
        ExperimentColumn,
        WorkloadColumn,
        LetterColumn,
        MetricColumn,
        MinColumn,
        MeanColumn,
        P50Column,
        P95Column,
        MaxColumn,
        LastColumn,
        DurationColumn,
        SamplesColumn,
        NUM_COLUMNS
    };
    enum Roles {
        /// The raw value to sort by: double for the statistics (NaN when there is none),
        /// qlonglong ms for Duration, qulonglong for Samples, QString for the text columns.
        SortRole = Qt::UserRole,
        RunUuidRole, ///< QString
    };

    explicit SummaryModel(QObject* parent = nullptr);

    void setRows(std::vector<SummaryRow> rows);
    const SummaryRow& row(int row) const { return m_rows.at(static_cast<size_t>(row)); }
    const std::vector<SummaryRow>& rows() const { return m_rows; }

    /// The header line and rows as tab-separated text, each line ending in '\n': all rows in model
    /// order when `selection` is empty, else the rows `selection` touches (indexes of this model,
    /// any column), each once, in the order they first appear. Statistics as "%.10g" (empty for
    /// NaN, which spreadsheets read as a missing value), Duration in ms, Samples as an integer.
    QString toTsv(const QModelIndexList& selection = {}) const;

    /// The compact form the table shows: 4 significant digits ("98.12", "0.0012", "1.235e+06"),
    /// "—" for NaN.
    static QString formatValue(double value);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<SummaryRow> m_rows;
};

/// Sorts a SummaryModel by its SortRole: statistics numerically with NaN last in both
/// directions (a run without finite values is never the "best"), text in natural order
/// (case-insensitive, digit runs as numbers) so workload 10 follows workload 9.
class SummarySortProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit SummarySortProxy(QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

} // namespace radt
