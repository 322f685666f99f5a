// SPDX-License-Identifier: MIT
#pragma once
// Dead-band compaction of hardware series, as process historians store their tags: a
// sample that the straight line between its kept neighbours reproduces within a tolerance is
// dropped. Kept: the first and last sample, the series' highest and lowest, every value a chart
// or analysis cannot use (NaN, MLflow's ±inf stand-ins) with its neighbours, and the ends of every
// gap. No kept span is longer than kMaxGapIntervals sampling intervals, so an analysis tells a
// compacted span from a real gap, and expandCompacted() restores the sampling grid.

#include "core/base/Model.h"

#include <cstdint>
#include <vector>

namespace radt {

/// Which samples of `s` (time-sorted) to keep so that every dropped sample lies within
/// `tolerance` (absolute, in the metric's unit) of the line between the kept samples around it,
/// with no kept span longer than `maxSpanMs`. keep[i] for each sample.
std::vector<bool> deadBandKeep(const Series& s, double tolerance, int64_t maxSpanMs);

/// The samples of `s` where keep is true / false.
Series selectSamples(const Series& s, const std::vector<bool>& keep, bool kept);

/// A compacted series back on its sampling grid: each span between kept samples no longer than
/// `maxSpanMs` is filled every `intervalMs` by the straight line; longer spans (real gaps) stay.
/// Every value is then within the compaction's tolerance of the recorded signal at that time.
Series expandCompacted(const Series& s, int64_t intervalMs, int64_t maxSpanMs);

} // namespace radt
