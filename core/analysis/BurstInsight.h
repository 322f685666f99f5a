// SPDX-License-Identifier: MIT
#pragma once
// Burst/idle characterisation of a series, after Driple (resources/DESIGN.md §12): samples split
// into burst and idle by 1-D 2-means, the amounts and durations of each, and the share of fixed windows whose
// pattern is idle (I), burst (B) or burst-idle-burst (BIB).

#include "core/base/Model.h"

#include <optional>
#include <utility>
#include <vector>

namespace radt::insight {

inline constexpr int64_t kBurstWindowMs = 10000;

struct BurstIdle {
    double threshold = 0; ///< values >= threshold are burst
    double burstMean = 0; ///< mean value of burst samples (the "burst amount")
    double idleMean = 0;  ///< mean value of idle samples
    double burstDurationMeanS = 0, burstDurationP50S = 0;
    double idleDurationMeanS = 0, idleDurationP50S = 0;
    double shareI = 0, shareB = 0, shareBIB = 0; ///< of the windows
    size_t windows = 0;
    size_t samples = 0;
};

/// Unset without usable samples. Values below `idleBelow` are always idle (a quiet series has no
/// bursts just because 2-means splits it); a constant series is all burst or all idle by that.
std::optional<BurstIdle> burstIdle(const Series& raw, double idleBelow = 0,
                                   int64_t windowMs = kBurstWindowMs);

/// The burst periods of a series at `threshold` (from burstIdle()): [first burst sample, next
/// sample's time) per run of burst samples, the last to its last sample plus one interval.
std::vector<std::pair<int64_t, int64_t>> burstPeriods(const Series& raw, double threshold);

/// The 1-D 2-means split of `values`: the smallest value of the upper cluster (exact: the split
/// of the sorted values with the least within-cluster sum of squares); unset when all are equal.
std::optional<double> twoMeansThreshold(std::vector<double> values);

} // namespace radt::insight
