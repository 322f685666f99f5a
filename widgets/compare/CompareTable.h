// SPDX-License-Identifier: MIT
#pragma once
// What the parallel coordinates and the scatter compare: the runs, and per run one
// value in each column. A column is a param (categorical: its values as ordered ticks, numbers
// compared as numbers, 64 < 128 < 256), an Insights figure (duration, GPU energy, energy per
// epoch...: InsightFigures' rows, read from the report JSON buildReport makes) or a metric's last,
// mean, min or max (the store's SeriesStats). No widget: built and tested alone.

#include "core/analysis/InsightFigures.h"
#include "core/base/Model.h"
#include "core/base/SeriesMath.h"

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace radt {

enum class ColumnKind { Numeric, Categorical };
enum class MetricStat { Last, Mean, Min, Max };

/// One column: a value per run (NaN: the run has none). A categorical column's values are indexes
/// into `categories`, which are in order.
struct CompareColumn {
    QString id;    ///< "param:batch-size", "figure:duration_s", "metric:last:accuracy"
    QString title; ///< for people, without the unit ("Duration", "accuracy (last)")
    insight::Unit unit = insight::Unit::Count; ///< a figure's unit; Count for params and metrics
    ColumnKind kind = ColumnKind::Numeric;
    std::vector<double> values;
    QStringList categories;

    static constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
    bool isCategorical() const { return kind == ColumnKind::Categorical; }
    /// The unit's symbol in SI ("s", "J", "%"), "" for params and metrics.
    QString unitSymbol() const;
    /// "Duration (s)", "batch-size": a header that carries the unit.
    QString header() const;
    /// Run `run`'s value as text: a category, or the number with its unit by magnitude.
    QString text(size_t run) const;
    /// The run's value as a CSV cell: a category, or the raw number in the header's unit; "" none.
    QString csvCell(size_t run) const;
    /// Finite values count.
    size_t present() const;
};

struct CompareRun {
    QString uuid; ///< a run's id, or "config:K" for configuration K of the report
    QString name;
    int64_t experimentId = 0;
    std::map<std::string, std::string> params;
    QStringList members; ///< a configuration's row: its runs' ids (empty for a run)
    /// A run's status: one that did not finish is in no configuration's figures (countsAsRepeat,
    /// the report's rule), and its line says so. A configuration's row is Finished.
    RunStatus status = RunStatus::Finished;
    /// The run counts in its configuration's figures (finished).
    bool countsAsRepeat() const;
};

/// The runs and every column that can be shown (params that differ, figures, read metric stats).
struct CompareTable {
    std::vector<CompareRun> runs;
    std::vector<CompareColumn> columns;

    /// The column with this id, or -1.
    int column(const QString& id) const;
    /// "batch-size=64, seed=1": the run's values of the categorical columns (its name when none),
    /// then "(FAILED: not in its configuration's figures)" for a run that did not finish.
    QString runLabel(size_t run) const;
};

/// Params whose values are not the same in every run (a run without the param counts as a value),
/// less radT's bookkeeping (workload, letter, devices...) and `params` (the raw argument string,
/// whose flags are params of their own). Sorted by name.
std::vector<std::string> differingParams(const std::vector<Run>& runs);

/// True when `a` comes before `b` among a param's values: the report's order (paramValueBefore),
/// "(none)" (a run without the param) first with the unset values.
bool categoryLess(const QString& a, const QString& b);

/// A categorical column of `param`; a run without it has "(none)".
CompareColumn paramColumn(const std::vector<Run>& runs, const std::string& param);
/// The numeric figures a column can show: InsightFigures' rows that are numbers.
std::vector<const insight::RunFigure*> numericFigures();
/// The figure `key` of each run, from the report's runs (matched by run_uuid).
CompareColumn figureColumn(const std::vector<Run>& runs, const nlohmann::json& report,
                           const std::string& key);
QString metricColumnId(const QString& key, MetricStat stat);
/// The stat of a metric per run, from each run's SeriesStats of the metric (NaN where it has none).
CompareColumn metricColumn(const QString& key, MetricStat stat, const std::vector<SeriesStats>& stats);
/// "last", "mean", "min", "max".
QString statName(MetricStat stat);

/// The table of `runs`: a column per differing param, per numeric figure the report has for at
/// least one run, and per metric stat of `metricStats` (key -> one SeriesStats per run).
CompareTable buildCompareTable(const std::vector<Run>& runs, const nlohmann::json& report,
                               const std::map<QString, std::vector<SeriesStats>>& metricStats);

/// The same table a row per configuration of `report` (its runs equal but for the repeat params,
/// in the report's order): named "label (N=n)", each numeric column the mean of its runs' values
/// (missing where none has one), each param column kept only where every configuration's runs
/// agree on it (the seed a sweep repeats over goes). Runs in no configuration (unfinished) are in
/// no row.
CompareTable configurationTable(const CompareTable& runs, const nlohmann::json& report);

} // namespace radt
