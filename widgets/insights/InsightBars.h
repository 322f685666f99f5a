// SPDX-License-Identifier: MIT
#pragma once
// The Insights bar chart: a figure of the basket's runs as bars. Where
// repeats make configurations (some has N >= 2), one bar per configuration: its mean with a 95 %
// CI whisker, labelled by its params and N, in radt report's order; else, or on request, one bar
// per run, named as the chart's legend names lines ("batch-size=64 seed=2").

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <utility>
#include <vector>

namespace QtCharts {
class QChart;
}

namespace radt {

namespace insight {
struct RunFigure;
}

/// A configuration's bar: the mean of `figure` over its runs that have it, and its interval.
struct ConfigurationBar {
    QString label;   ///< the configuration's label (radt report's)
    size_t runs = 0; ///< its N
    size_t n = 0;    ///< the runs that have the figure (a run without power has no energy)
    std::optional<double> mean;
    std::optional<std::pair<double, double>> ci95; ///< Student t; unset when n < 2
};

/// The report's configurations, in its order, with `figure`'s statistics over their runs.
std::vector<ConfigurationBar> configurationBars(const nlohmann::json& report,
                                                const insight::RunFigure& figure);

/// Whether bars per configuration say more than bars per run: some configuration has N >= 2.
bool repeatsMakeConfigurations(const nlohmann::json& report);

/// The report's runs named as the chart's legend names lines drawn one per run: the fewest params
/// that tell them apart ("batch-size=64 seed=2"), else their names; never two alike.
QStringList legendNamesOfRuns(const nlohmann::json& report);

/// Draws `figure` into `chart` (emptied by the caller): per configuration when `perConfiguration`,
/// else per run.
void drawInsightBars(QtCharts::QChart* chart, const nlohmann::json& report, const insight::RunFigure& figure,
                     bool perConfiguration);

} // namespace radt
