// SPDX-License-Identifier: MIT
#pragma once
// The efficiency frontier of a report's configurations on a QChart: each
// configuration at (mean duration, mean attributed GPU energy) with its 95 % CI as whiskers, the
// Pareto front drawn through the configurations on it, and each point naming its params and N
// on hover.

#include <nlohmann/json.hpp>

#include <QString>

namespace QtCharts {
class QChart;
}

namespace radt {

/// A configuration's label ("batch-size=64": the fewest params that tell it apart, as the report
/// names it); a report from before labels gets configurationParams().
QString configurationLabel(const nlohmann::json& configuration);
/// "size=8192, runs_per_gpu=2" from a configuration's differing params ("all runs" when none).
QString configurationParams(const nlohmann::json& configuration);

/// Replaces what `chart` shows. Configurations without both means are left out and counted in
/// the title.
void drawFrontierChart(QtCharts::QChart* chart, const nlohmann::json& report);

} // namespace radt
