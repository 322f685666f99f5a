// SPDX-License-Identifier: MIT
#pragma once
// `radt store compact`: finished runs' hardware series thinned by dead-band compaction
// (SeriesCompaction.h) inside MLflow's schema, so MLflow and radT still read the store. The run
// gets a radt.compacted tag (tolerance, sampling intervals, rows before and after), from which
// analyses put its series back on their sampling grid (CompactedSeries.h).

#include "core/base/Model.h"
#include "core/store/CompactedSeries.h"
#include "core/store/Store.h"

#include <functional>
#include <string>
#include <vector>

namespace radt {

struct CompactionOptions {
    double tolerance = 0.5;
    bool relative = true; ///< tolerance in % of each series' range (max - min); else in its unit
    bool dryRun = false;  ///< count what would go, change nothing
    std::string text;     ///< as the user wrote it ("1%"), for the run's tag
};

/// "0.5%" (of each series' range) or "2" (in the metric's unit), greater than 0 and, as a
/// percentage, at most 50. Throws std::invalid_argument naming the value.
CompactionOptions parseTolerance(const std::string& text);

struct CompactionStats {
    size_t runs = 0, series = 0;
    size_t rowsBefore = 0, rowsAfter = 0;
    int64_t bytesBefore = -1,
            bytesAfter = -1;          ///< the store's metric storage (StoreMaintenance::storageBytes)
    std::vector<std::string> skipped; ///< "<run id>: why", one per run left as it was
    std::string reclaimError;  ///< why the space was not given back (the runs are compacted all the same)
    size_t envelopes = 0;      ///< chart envelopes written (RunEnvelopes.h), compacted or not
    std::string envelopeError; ///< the first run whose envelopes could not be written, and why
};

/// Whether radt (or radT) recorded the run, so that its hardware-named metrics are listener samples
/// (the `listeners` param both write); an MLflow run's "SMI - ..." metric may be anything.
bool recordedByRadt(const Run& run);

/// Compacts the hardware series of `runs`; running, already compacted and not radt-recorded runs
/// are skipped (said in `skipped`). Each run is one transaction (StoreMaintenance::applyCompaction): killed
/// or out of disk at any point, a run is either wholly compacted and tagged or as it was, so a
/// re-run never thins a series twice; a run another compaction tagged meanwhile is skipped. The
/// space is given back at the end (SQLite shrinks its file). `progress(done, total)` after each
/// run. A store failure names the run left as it was.
CompactionStats compactRuns(Store& store, const std::vector<Run>& runs, const CompactionOptions& options,
                            const std::function<void(size_t, size_t)>& progress = {});

} // namespace radt
