// SPDX-License-Identifier: MIT
#pragma once
// What a store holds, experiment -> workload -> run, as the stable JSON of `radt ls --json`
// (documented in resources/doc/recording.md) and as readable text.

#include "core/base/TextFormat.h"
#include "core/store/Store.h"

#include <nlohmann/json.hpp>
#include <string>

namespace radt {

/// {"store", "experiments": [{"id", "name", "workloads": [{"id", "runs": [...]}]}]}; runs without
/// a workload param sit under workload id null. With `filter` (MLflow's search syntax, parsed),
/// only the runs the store finds for it, and only the experiments that have one; "filter" says it.
nlohmann::json storeListingJson(Store& store, const std::vector<RunCondition>& filter = {},
                                const std::string& filterText = {});
/// The same content as an indented tree for people.
std::string storeListingText(Store& store, const std::vector<RunCondition>& filter = {},
                             const std::string& filterText = {});

} // namespace radt
