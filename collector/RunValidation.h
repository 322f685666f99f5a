// SPDX-License-Identifier: MIT
#pragma once
// One place that checks what a run is asked to do: the CLI, experiment files, the
// explorer's Launch dialog and --dry-run all get the same answer, before anything is written.

#include "collector/RunOptions.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace radt {

/// The longest --time a run takes: a year. Longer ones are typos (1e12) and would overflow the
/// millisecond clocks the limit is kept in.
constexpr double kMaxTimeLimitMinutes = 365.0 * 24 * 60;

/// Throws std::invalid_argument naming the option and what it expects: interval, grace, epoch,
/// time limit, listeners, devices, collocation and the command. Touches no store or file.
void validateRunOptions(const RunOptions& options);

/// Throws std::invalid_argument when a param radt would record breaks MLflow's limits (a value
/// over 6000 characters, a bad key): MLflow's tools could not store it, so no run starts.
void validateRunParams(const std::vector<std::pair<std::string, std::string>>& params);

/// Milliseconds to wait for the rest of a time limit, clamped to what poll() takes.
int pollTimeoutMs(int64_t leftMs);

} // namespace radt
