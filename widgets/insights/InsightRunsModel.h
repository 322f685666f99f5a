// SPDX-License-Identifier: MIT
#pragma once
// The Insights view's table of runs as an item model: a row per run of the report, a column for
// the run's name, then the params that tell the runs apart, then each figure of runFigures() in
// the view. Each cell is made when the view asks for it, from the report (as SummaryModel makes
// its cells from its rows): its text, the number it sorts and exports by, its tooltip and its ⚠.

#include <QAbstractTableModel>
#include <QString>

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace radt {

namespace insight {
struct RunFigure;
}

/// A column of the Insights runs table: a figure of runFigures(), or one of the params that tell
/// the runs apart (right after the run's name).
struct RunTableColumn {
    const insight::RunFigure* figure = nullptr; ///< null for a param column
    QString param;
};

class InsightRunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles {
        SortRole = Qt::UserRole + 1, ///< what a column sorts by: the number, a param's rank, or text
        UuidRole = Qt::UserRole + 2, ///< the run's uuid, on every cell of its row
        RawRole = Qt::UserRole + 3,  ///< a number in its raw unit, as the exports write it
    };

    explicit InsightRunsModel(QObject* parent = nullptr);

    /// The report's runs (a copy: the model answers from it until the next report).
    void setReport(const nlohmann::json& report);
    const std::vector<RunTableColumn>& columns() const { return m_columns; }
    /// The column of the figure named `key` (after the param columns), -1 when it is not shown.
    int figureColumn(const char* key) const;
    /// "GPU energy J": how the view and the exports name a figure's column (one unit a column).
    static QString exportHeader(const insight::RunFigure& figure);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant figureData(const nlohmann::json& run, const RunTableColumn& column, int role) const;
    QVariant paramData(const nlohmann::json& run, const QString& param, int role) const;
    /// What a cell's tooltip says beyond its own figure: the run's uuid on its name, the SM gap,
    /// the energy's share of a shared GPU and its caveats.
    QString extraToolTip(const nlohmann::json& run, int column, const QString& own) const;
    /// Whether the run's energy cell carries caveats a reader must see (⚠ and their tooltip).
    static QStringList energyCaveats(const nlohmann::json& run);

    nlohmann::json m_runs = nlohmann::json::array();
    std::vector<RunTableColumn> m_columns;
    /// Each telling param's values ranked in the order configurations are (what its column sorts by).
    std::map<std::string, std::map<std::string, double>> m_paramRanks;
    size_t m_tellingParams = 0;
};

} // namespace radt
