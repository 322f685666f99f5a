// SPDX-License-Identifier: MIT
#pragma once
// Repeated runs grouped into configurations (resources/DESIGN.md, configurations): runs whose params are
// equal once radT's bookkeeping params and the repeat params (seed) are set aside. Per configuration the
// mean, sd and 95 % confidence interval of each figure; Welch tests between configurations; the
// Pareto front of duration against energy; and the slowdown of collocated runs against the solo
// configuration of the same params. Works on the report JSON that buildReport makes.

#include "core/base/Model.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace radt {

/// The figures summarised per configuration, by their JSON names.
extern const std::vector<std::string> kConfigurationFigures;
/// The params that never tell configurations apart: radT's bookkeeping.
extern const std::vector<std::string> kBookkeepingParams;

/// Every pair of configurations is compared up to this many configurations (1,770 pairs a
/// figure); beyond, each is compared with one reference, so that the tests grow linearly.
extern const size_t kAllPairsUpTo;
/// Comparisons that cannot be tested are listed (with their ratio) up to this many
/// configurations; beyond, they are counted in one line.
extern const size_t kListUntestedUpTo;

/// A run's value of a configuration figure (kConfigurationFigures) from its report entry: energy as
/// what the run is charged with (its share of a shared GPU); unset where it lacks it.
std::optional<double> configurationFigure(const nlohmann::json& run, const std::string& figure);

/// A sample as {"n", "mean", "sd", "ci95"} (Student t; sd and ci95 null under two values, mean
/// null without any).
nlohmann::json summaryJson(const std::vector<double>& values);

/// `params` (the script's argument string) without the repeat flags: "--seed 3", "--seed=3".
std::string withoutRepeatFlags(const std::string& params, const std::vector<std::string>& repeatParams);

/// What makes a run's configuration: its params less bookkeeping and repeat params, `params`
/// without repeat flags, and `runs_per_gpu` (how many runs of its workload shared its GPU).
std::map<std::string, std::string>
configurationParams(const Run& run, const std::vector<std::string>& repeatParams, size_t runsPerGpu);

/// The param names the runs have: their params' names and the flags of their `params` strings
/// ("--seed 3", "seed=3"), sorted. What --repeat-param may name.
std::vector<std::string> runParamNames(const std::vector<Run>& runs);

/// The repeat params no run has (a typo of "seed" would make every run its own configuration).
std::vector<std::string> unknownRepeatParams(const std::vector<Run>& runs,
                                             const std::vector<std::string>& repeatParams);

/// Only a finished run is a repeat of its configuration: a running run's figures are those of
/// part of its work, a failed or killed one's of work cut short. The others are left out of the
/// statistics, comparisons and frontier, and counted.
bool countsAsRepeat(RunStatus status);

/// A configuration's N, what its statistics count: its runs, or where its runs shared a GPU in
/// workloads ("replicate": "workload"), its workloads (each one value per figure: its jobs' mean).
/// A report written before "n" existed counts its runs.
size_t configurationN(const nlohmann::json& configuration);

/// A configuration's replicates, as indexes into the report's runs (`members`): each run alone, or
/// where the runs shared a GPU (`sharedGpus`: runs_per_gpu > 1), the runs of each workload
/// together. The jobs of one workload ran at the same time on the same GPU: they are one trial of
/// the configuration, not independent repeats, so the statistics count the workload (its jobs'
/// mean). A run that shared a GPU outside any workload is a replicate of its own.
std::vector<std::vector<size_t>> replicatesOf(const std::vector<size_t>& members, bool sharedGpus,
                                              const nlohmann::json& reportRuns);

/// Each configuration's replicates in a report that addConfigurations completed: [c][replicate]
/// the indexes of its runs in the report's "runs". For any per-run figure a view summarises per
/// configuration (one value per replicate: its runs' mean).
std::vector<std::vector<std::vector<size_t>>> configurationReplicates(const nlohmann::json& report);

struct ConfigurationOptions {
    std::vector<std::string> repeatParams{"seed"};
    /// A run id (prefix), a configuration's handle ("#2") or its label ("batch-size=64"):
    /// comparisons are each against it.
    std::string baseline;
};

/// Adds "configurations" (each with its "label", its "runs", its "n" and "replicate" ("run", or
/// "workload" with its "workloads" where its runs shared a GPU), in the order of their params:
/// ConfigurationLabels.h), "comparisons" (Welch's p, its Holm-adjusted "p_adjusted" over the same figure's
/// comparisons, and "diff_ci95" of mean b - mean a), "comparisons_scope" ({"each_against": the reference or
/// null for every pair, "why": "all pairs", "baseline" or "first", "untested": how many pairs could not be
/// tested, "untested_listed"}), "pareto" and "left_out_of_configurations" ({status: count} of
/// the runs that are not repeats) to `report`, and "configuration" (null for a run left out) to
/// each of its runs. `runs` are the report's runs, in its order.
void addConfigurations(nlohmann::json& report, const std::vector<Run>& runs,
                       const ConfigurationOptions& options);

/// "left out of configurations: 1 running, 1 failed (...why)", from the report's
/// "left_out_of_configurations"; "" when every run counted. Every output of the report says it.
std::string leftOutOfConfigurationsNote(const nlohmann::json& report);

/// "N of #2 (iters=60 runs_per_gpu=2) counts workloads, not runs: ...", a line per configuration
/// that replicates by workload; "" when every configuration's N counts its runs.
std::string replicatesNote(const nlohmann::json& report);

/// What the comparisons leave out, a line each: "each configuration is compared with #0 only..."
/// past kAllPairsUpTo configurations, "N comparisons could not be tested..." when they are not
/// listed; "" when the comparisons are every pair and every one listed.
std::string comparisonsScopeNote(const nlohmann::json& report);

} // namespace radt
