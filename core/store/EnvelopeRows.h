// SPDX-License-Identifier: MIT
#pragma once
// What radt_envelopes keeps per run and metric (resources/DESIGN.md §4): the types a store reads
// and writes. How envelopes are made and used is core/store/RunEnvelopes.h, which works on a Store.

#include "core/base/Model.h"

#include <cstdint>
#include <string>

namespace radt {

/// Bumped when what a stored envelope holds or how it is cut changes: rows of another version
/// are ignored and written again.
constexpr int kEnvelopeVersion = 1;

/// One run's envelope of one metric at one resolution.
struct StoredEnvelope {
    std::string key;
    int buckets = 0;
    int64_t pointCount = 0; ///< points of the series it reduces
    /// latest_metrics' row of the key when it was made: a run that gets later points has
    /// another latest row, and its envelope is stale.
    int64_t latestTimestamp = 0;
    int64_t latestStep = 0;
    /// The run's change count (EnvelopeCache::envelopeChangeCount) taken before the series was read: any
    /// change to the run's samples since, by any client, counts one more and makes it stale.
    int64_t changeCount = -1;
    Series series;
};

/// A row of radt_envelopes with this many slices holds no envelope but the series' summary
/// statistics (SeriesStats: what the summary table shows), under the same freshness rule: a
/// summary of hundreds of runs reads a row per run and metric instead of every sample.
constexpr int kStatsBuckets = 0;

} // namespace radt
