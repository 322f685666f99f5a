// SPDX-License-Identifier: MIT
#pragma once
// Crash safety (resources/DESIGN.md §8): a collector killed with SIGKILL cannot close its run. Each run
// records its collector's host, pid and process start time as tags; the next radt invocation, or the explorer
// opening the store, marks RUNNING runs whose collector is gone as FAILED, with the time of their last sample
// as end time, instead of leaving them RUNNING forever.

#include "core/store/Store.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace radt {

inline constexpr const char* kCollectorHostTag = "radt.collector.host";
inline constexpr const char* kCollectorPidTag = "radt.collector.pid";
inline constexpr const char* kCollectorStartTag = "radt.collector.start";
inline constexpr const char* kFailureTag = "radt.failure";

/// The tags that identify this process as a run's collector.
std::vector<std::pair<std::string, std::string>> collectorTags();

/// True when a process `pid` runs on this machine and started at `startTicks` (field 22 of
/// /proc/<pid>/stat), so a recycled pid does not count as alive.
bool collectorAlive(long pid, const std::string& startTicks);

/// Marks this host's orphaned RUNNING runs FAILED; returns how many. Runs recorded on other hosts
/// are left alone (their collector may well be running). Each fixed run is reported through
/// `message` when given.
size_t reconcileOrphanedRuns(Store& store, const std::function<void(const std::string&)>& message = {});

} // namespace radt
