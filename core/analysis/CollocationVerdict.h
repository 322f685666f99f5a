// SPDX-License-Identifier: MIT
#pragma once
// Did collocation pay off? The jobs of a collocated workload together
// against the same jobs one after another, each alone (its solo configuration's mean): time,
// throughput gain, energy per job and its ratio to alone. Per workload, and per collocated
// configuration (workloads whose jobs are the same configurations) with 95 % intervals where the
// workloads or the solo runs repeat. Works on the report JSON that buildReport makes.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace radt {

/// Completes a workload's "collocation_gain" from what it has measured ("jobs", "together_s",
/// "together_j", "solo": each solo baseline's runs, its job count and its duration and energy
/// summaries): "alone_one_after_another_s" and "_j", "throughput_gain", "energy_per_job_alone_j"
/// and "energy_ratio", each with a "_ci95" from the solo runs' spread (null when they do not
/// repeat); "why" says what is missing when `withoutBaseline` (the jobs with no solo run) is not
/// empty: then those figures are null.
void addGainFigures(nlohmann::json& gain, const std::vector<std::string>& withoutBaseline);

/// Adds "collocation" to the report: one verdict per collocated configuration, the workloads
/// whose jobs are runs of the same configurations (labelled by theirs: "a + b"), each with its
/// workloads, N, time together and one after another alone, throughput gain, energy per job
/// together and alone and their ratio, each as {"mean", "ci95"}; "why" where there is no verdict.
/// Needs the report's "configurations", its runs' "configuration" and its "workloads".
/// Each verdict also has its "sentence" (collocationSentence).
void addCollocationVerdicts(nlohmann::json& report);

/// The verdict in one sentence: "Sharing the GPU did x1.70 [1.52, 1.90] the work per
/// hour at x0.81 [0.74, 0.89] the energy per job: it paid off; one workload, so the intervals
/// cover only the solo runs' spread ...". "Paid off": more work per hour (the interval above 1)
/// at no more energy per job; judged by the intervals where there are any, else by the means.
std::string collocationSentence(const nlohmann::json& verdict);

} // namespace radt
