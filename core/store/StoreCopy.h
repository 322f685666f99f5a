// SPDX-License-Identifier: MIT
#pragma once
// `radt store copy SRC DEST`: a whole store moved between backends (publish a laptop's SQLite
// experiments to the lab's PostgreSQL server, or take a server's runs home). Runs keep their
// uuids, so copying again adds only what is new: idempotent.

#include "core/store/Store.h"

#include <functional>
#include <map>
#include <string>

namespace radt {

struct StoreCopyStats {
    size_t experiments = 0;
    size_t runs = 0;    ///< runs copied whole (each with its own status)
    size_t samples = 0; ///< metric points read from the source (duplicates in DEST are skipped)
    /// Runs that could not be copied whole (a key or value MLflow's rules reject, fewer samples
    /// there than read here): left SCHEDULED in the destination. run uuid -> why.
    std::map<std::string, std::string> incomplete;
};

/// `progress(runsDone, runsTotal, samplesSoFar)` after each run. Each run is SCHEDULED in
/// `destination` until all its params, tags and samples are there, then takes its own status and
/// end time: an interrupted copy leaves the run it was at SCHEDULED, and copying again completes it.
/// A run whose every key (those of its samples, not only latest_metrics') does not arrive with as
/// many samples as were read, or that holds a key or value MLflow's rules reject (another client
/// wrote it straight into the database), keeps SCHEDULED there with the rest of it copied, and is
/// named in `incomplete`.
/// With `include`, only the runs it accepts are copied, and only their experiments are made.
StoreCopyStats copyStore(Store& source, Store& destination,
                         const std::function<void(size_t, size_t, size_t)>& progress = {},
                         const std::function<bool(const Run&)>& include = {});

} // namespace radt
