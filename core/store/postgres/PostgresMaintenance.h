// SPDX-License-Identifier: MIT
#pragma once
// Keeping a shared PostgreSQL store in shape as it grows (resources/DESIGN.md §4, "Partitions"):
// `radt store partition` turns an existing store's metrics table into time partitions in place,
// and `radt store archive` moves finished runs out to another store, dropping the partitions
// they emptied. Both are resumable and lose nothing: every run is counted and checksummed
// before anything of it is dropped.

#include "core/store/Store.h"
#include "core/store/postgres/LockPatience.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace radt {

struct PartitionOutcome {
    bool converted = false;    ///< false: metrics was partitioned already (only the period was set)
    bool resumed = false;      ///< an interrupted conversion was carried on
    size_t runs = 0;           ///< runs whose samples were copied (this time)
    size_t recopied = 0;       ///< runs copied again after they changed during the copy
    size_t recopiedLocked = 0; ///< of those, changed since the catch-up: copied with writers held back
    int64_t samples = 0;       ///< samples in the table when the conversion finished
    int partitions = 0;        ///< bounded partitions the table has now
    std::string period;        ///< "day" or "week": what partitions made from now on span
    int64_t heldMs = 0;        ///< writers held back by the swap: its lock request to its commit
    int lockTries = 0;         ///< tries the swap took (1: its lock came at once)
    int64_t failedHeldMs = 0;  ///< writers held back by the tries that timed out, in all
};

/// `progress(runsDone, runsTotal, samplesCopied)` after each run copied. `period` is "day" or
/// "week". Throws StoreError (a store that is not PostgreSQL, a run whose copy does not match, the
/// swap's lock not had within `patience.limit`: the table then is as it was, the copies kept).
PartitionOutcome partitionStore(const std::string& uri, const std::string& period,
                                const std::function<void(size_t, size_t, int64_t)>& progress = {},
                                const LockPatience& patience = {});

struct ArchiveOutcome {
    size_t runs = 0;                  ///< runs copied to the archive and removed from the store
    int64_t samples = 0;              ///< their samples
    std::vector<std::string> dropped; ///< partitions dropped whole
    std::vector<std::string> kept; ///< runs left in the store, each with why (changed meanwhile, referenced)
    /// Of `kept`, the runs whose copy in the archive is not whole (left SCHEDULED there), with why.
    std::vector<std::string> incomplete;
    int64_t heldMs = 0;       ///< writers held back by the removal (partitions dropped): lock to commit
    int lockTries = 0;        ///< tries the removal took (1: its locks came at once)
    int64_t failedHeldMs = 0; ///< writers held back by the tries that timed out, in all
};

/// Opens a store by URI (a backend cannot name the others: core/StoreFactory.h chooses).
using StoreOpener = std::function<std::unique_ptr<Store>(const std::string& uri, OpenMode mode)>;

/// Copies every finished run that ended before `beforeMs` (and is not RUNNING or SCHEDULED) to
/// the store `toUri` (opened by `open`, which is core/StoreFactory.h's openStore outside tests;
/// created when missing; not the store itself, however spelt), then in one
/// transaction locks those runs, checks each against its copy as it is now (status, params,
/// tags, samples per key), deletes the ones that match, and drops the partitions that ended
/// before `beforeMs` and are empty then. A run whose rows other tables hold (MLflow 3's logged
/// models, inputs...) or that changed meanwhile stays, said in `kept`. Copying again after an
/// interruption completes the copy. `progress(runsDone, runsTotal, samples)` per run copied.
ArchiveOutcome archiveStore(const std::string& uri, int64_t beforeMs, const std::string& toUri,
                            const StoreOpener& open,
                            const std::function<void(size_t, size_t, size_t)>& progress = {},
                            const LockPatience& patience = {});

} // namespace radt
