// SPDX-License-Identifier: MIT
#pragma once
// The runs table's model (resources/DESIGN.md §8, the runs table): one row per run a search found,
// a column per attribute (name, status, start, duration, the judgement radt recorded when the run
// finished, the figures `radt report` computes, experiment, host), per param, per tag and
// per metric's latest value, headed by the key the search syntax names it by ("params.batch_size").
// Cells are made when the view asks for them, never all up front; a column sorts numbers as
// numbers and puts blanks last (RunsSortProxy).

#include "core/base/Model.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

namespace radt {

/// A run of the table with what its cells show besides the run itself.
struct RunsTableRow {
    Run run;
    QString experiment;                   ///< its experiment's name
    std::map<std::string, double> latest; ///< its metrics' latest values
};

class RunsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole + 1, ///< a double for a number, a QString otherwise, invalid when blank
        RunUuidRole,
    };
    using QAbstractTableModel::QAbstractTableModel;

    /// The rows of a search; the columns become the attributes and the keys the rows have.
    void setRows(std::vector<RunsTableRow> rows, int64_t nowMs);
    /// The basket's runs, shown in bold with a mark.
    void setBasket(const QSet<QString>& uuids);
    /// The figures `radt report` computes (kTableFigures: GPU energy, energy per epoch, GPU
    /// utilisation) by run uuid, for the runs they were computed for (blank for the others).
    void setFigures(std::map<std::string, std::map<std::string, double>> figures);
    /// The report figures the table shows, by their JSON names, with their headers.
    static const std::vector<std::pair<std::string, QString>>& tableFigures();
    /// Columns a reader needs least, hidden until chosen: params with one value in every row
    /// (they tell no run apart) and radT's bookkeeping, every tag, hardware metrics.
    QStringList hiddenByDefault() const;
    const std::vector<RunsTableRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Column {
        enum Kind {
            Name,
            Status,
            Start,
            Duration,
            Judged,
            Figure,
            Experiment,
            Host,
            Param,
            Tag,
            Metric
        } kind;
        std::string key; ///< the param, tag or metric key
        QString header;
    };
    QVariant sortValue(const RunsTableRow& row, const Column& column) const;
    QString text(const RunsTableRow& row, const Column& column) const;

    std::vector<RunsTableRow> m_rows;
    std::map<std::string, std::map<std::string, double>> m_figures; ///< run uuid -> figure -> value
    std::vector<Column> m_columns;
    QStringList m_hidden;
    QSet<QString> m_basket;
    int64_t m_nowMs = 0;
};

/// Sorts by RunsTableModel::SortRole: numbers before text and by value, text in its natural order
/// ("run 2" before "run 10"), blanks last whichever way the column is sorted.
class RunsSortProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunsSortProxy(QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

} // namespace radt
