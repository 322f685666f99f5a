// SPDX-License-Identifier: MIT
#pragma once
// Reading a compacted run's series as it was sampled: `radt store compact` thins a
// finished run's hardware series and tags the run; every analysis, summary and envelope reads the
// series back through here, on the sampling grid the tag records.

#include "core/base/Model.h"
#include "core/store/Store.h"

#include <string>

namespace radt {

/// The tag a compacted run carries: tolerance, sampling intervals, rows before and after (JSON).
inline constexpr const char* kCompactedTag = "radt.compacted";

/// A run's series as analyses should see it: a compacted hardware series expanded back onto its
/// sampling grid (within the compaction's tolerance everywhere), anything else as stored.
Series readForAnalysis(Store& store, const Run& run, const std::string& key);

} // namespace radt
