// SPDX-License-Identifier: MIT
#pragma once
// `radt report`: the insight analyses over runs of a store, as one JSON document of a
// fixed shape for scripts and as a readable table. Thin: each figure comes from its analysis
// module (EnergyInsight, UtilisationInsight, BurstInsight, EpochInsight).

#include "core/analysis/StallInsight.h"
#include "core/store/Store.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace radt {

struct ReportOptions {
    std::optional<double> gridIntensity; ///< g CO2e per kWh; no CO2e figures without it
    double pue = 1.0;                    ///< the data centre's power usage effectiveness
    /// A run (id or prefix) or a configuration ("#2") to compare with; "" = the solo configuration
    /// of the same params for slowdowns, every pair of configurations for comparisons.
    std::string baseline;
    std::vector<std::string> repeatParams{"seed"}; ///< params that tell repeats apart, not configurations
    std::vector<std::string> burstMetrics;         ///< extra metrics for the burst/idle analysis
    insight::StallThresholds stalls;               ///< when the GPU counts as waiting for the host
};

/// The runs TARGETs name: a run id or a unique prefix of at least 5 characters, a workload
/// "<experiment id>-<workload>", or an experiment name or id. Throws std::invalid_argument naming
/// the first target that names nothing (or too much).
std::vector<Run> resolveReportTargets(Store& store, const std::vector<std::string>& targets);

/// {"runs": [...], "configurations": [...], "comparisons": [...], "pareto": [...],
/// "workloads": [...], "settings": {...}} as resources/doc/report.md documents it;
/// null where a run lacks the data. `progress(done, total)` after each run.
nlohmann::json buildReport(Store& store, const std::vector<Run>& runs, const ReportOptions& options,
                           const std::function<void(size_t, size_t)>& progress = {});

/// The report as a table for a terminal.
std::string reportTable(const nlohmann::json& report);

/// `radt report --verbose`: each tested comparison's exact p and Holm's p to 3 significant digits
/// (the table's cells say "<0.001" below that); "" without a tested comparison.
std::string exactPValues(const nlohmann::json& report);

} // namespace radt
