// SPDX-License-Identifier: MIT
#pragma once
// What every insight analysis (resources/DESIGN.md §12) needs from a stored series: which values count, the
// sampling interval a gap is measured against, and which keys hold one metric per device.

#include "core/base/Model.h"

#include <map>
#include <string>
#include <vector>

namespace radt::insight {

/// Gaps longer than this many sampling intervals are not bridged (integrals, time weights).
inline constexpr int kMaxGapIntervals = 5;

/// A value an analysis can use: finite and not MLflow's ±DBL_MAX stand-in for ±inf.
bool usable(double v);

/// The series without unusable values.
Series usablePoints(const Series& s);

/// The typical sampling interval: the median of the positive time steps; 0 with fewer than 2.
int64_t typicalIntervalMs(const Series& s);

/// The longest step between two samples that still counts as continuous sampling.
int64_t maxGapMs(const Series& s);

/// The keys of `base` per device among `keys`: "" for the first GPU (radT's plain key), and the
/// listener's suffix (" - GPU 1", " - GPU-I 2") for the others. Ordered by device label.
std::map<std::string, std::string> perDeviceKeys(const std::vector<std::string>& keys,
                                                 const std::string& base);

/// A key a listener writes (SMI -, DCGMI -, TOP -, PS -, PROC -, NET -, TEGRA -, RAPL -, iostat),
/// as opposed to a software metric the script logs.
bool isHardwareKey(const std::string& key);

/// Percentile (0..1) of already sorted values, linear between neighbours; NaN when empty.
double sortedPercentile(const std::vector<double>& sorted, double q);

/// The same percentile of unsorted values in linear time (reorders `values`).
double percentile(std::vector<double>& values, double q);

} // namespace radt::insight
