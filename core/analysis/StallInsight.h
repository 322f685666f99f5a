// SPDX-License-Identifier: MIT
#pragma once
// Input stalls: the share of a run's time in which its GPU waited for the host,
// i.e. GPU utilisation was low while the run's own processes kept a CPU core busy (data loading,
// preprocessing, a Python loop between kernels). Both thresholds are settings, documented with
// `radt report`.

#include "core/base/Model.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace radt::insight {

inline constexpr double kStallGpuBelowPct = 10; ///< GPU utilisation under this (percent) is waiting
inline constexpr double kStallCpuCores = 0.8;   ///< ... while the run's processes use this many cores

struct StallThresholds {
    double gpuBelowPct = kStallGpuBelowPct;
    double cpuCores = kStallCpuCores;
};

struct InputStalls {
    double share = 0; ///< stalled time over the time both series cover
    double stalledS = 0;
    double coveredS = 0;
    std::string gpuKey, cpuKey;
    std::vector<std::pair<int64_t, int64_t>> periods; ///< the stalled stretches [from, to), merged
};

/// From GPU utilisation (DCGMI - GPU Utilization, else SMI - GPU Util; the first GPU) and the
/// run's process CPU utilisation (PROC - CPU Utilization, 100 = one core), each sample held until
/// the next; a step longer than kMaxGapIntervals sampling intervals is not bridged (the sample
/// holds one interval, then nothing is known). Unset without both series or without overlap.
std::optional<InputStalls> inputStalls(const std::vector<std::string>& keys,
                                       const std::function<Series(const std::string&)>& series,
                                       int64_t fromMs, int64_t toMs, const StallThresholds& thresholds = {});

} // namespace radt::insight
