// SPDX-License-Identifier: MIT
#pragma once
// `radt report --env-diff` and the Insights view's "mixed environments" flag: per configuration of
// a report, the environment items (packages, driver, CUDA, GPU, host, CPU, cores, radt version)
// its runs disagree on, read from their recorded artifacts and tags (core/artifacts/RunEnvironment).
// A configuration whose mean mixes environments is one to look at before trusting the mean.

#include "core/artifacts/RunEnvironment.h"
#include "core/base/Model.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace radt {

/// Where this machine finds the artifacts of a store's runs: this host's name, whether the store
/// is a server other hosts record into (PostgreSQL), and a SQLite store's folder for relative paths.
ArtifactContext artifactContextOfStore(const std::string& storeUri);

/// Sets each configuration's "environment" to {"differs": [{"item", "values": {run_uuid: value}}]}
/// (empty when its runs share one environment), reading each run of `runs` once.
void addEnvironmentDiffs(nlohmann::json& report, const std::vector<Run>& runs,
                         const ArtifactContext& context);

/// The "environment" items of a configuration that differ, by name ("pip: torch", "driver").
std::vector<std::string> differingEnvironmentItems(const nlohmann::json& configuration);

/// The report's environment differences as a table for a terminal: per configuration its label,
/// then each differing item with every run's value; one line for a configuration whose runs
/// share one environment.
std::string environmentDiffTable(const nlohmann::json& report);

} // namespace radt
