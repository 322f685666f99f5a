#pragma once
// What a store holds, experiment -> workload -> run, as the stable JSON of `radt ls --json`
// (documented in README) and as readable text.

#include "Store.h"

#include <nlohmann/json.hpp>
#include <string>

namespace radt {

/// {"store", "experiments": [{"id", "name", "workloads": [{"id", "runs": [...]}]}]}; runs without
/// a workload param sit under workload id null.
nlohmann::json storeListingJson(Store& store);
/// The same content as an indented tree for people.
std::string storeListingText(Store& store);

/// "1h 02m", "3m 07s", "12.5s"
std::string formatDuration(int64_t ms);
/// Local time "YYYY-MM-DD HH:MM:SS"
std::string formatLocalTime(int64_t msSinceEpoch);

} // namespace radt
