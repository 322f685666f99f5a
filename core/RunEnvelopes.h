#pragma once
// Per-run envelopes kept beside MLflow's tables (table radt_envelopes, resources/DESIGN.md §4): a
// finished run's long series reduced to a fixed number of time slices, per slice its lowest and
// highest point (Store::seriesEnvelope's reduction), so that a chart of hundreds of runs reads a
// few thousand points per run instead of every row. Written when a run finishes and by
// `radt store compact`; a chart that finds one missing, stale or of another version reads the
// run whole and writes it again. MLflow never reads the table.

#include "Model.h"

#include <string>
#include <vector>

namespace radt {

class Store;

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
    Series series;
};

/// The resolutions kept (time slices per run and metric), coarse to fine.
const std::vector<int>& envelopeLevels();
/// The resolution a chart of `columns` pixel columns reads: the coarsest with a slice per column.
int envelopeLevelFor(int columns);
/// A series longer than this has envelopes; a shorter one is read whole (no cheaper to keep).
int64_t envelopeMinPoints();

/// The envelopes of one series at every level it is long enough for.
std::vector<StoredEnvelope> envelopesOf(const std::string& key, const Series& series,
                                        const LatestMetric& latest);
/// Reads the long series of a finished run (the server reduces them where it can) and saves their
/// envelopes, replacing older ones. Returns how many were saved; 0 on a read-only store.
size_t writeRunEnvelopes(Store& store, const std::string& runUuid);

/// The bytes a stored envelope's points are kept as (little-endian t, step, value per point), and
/// back. decode throws StoreError naming `what` on a blob of the wrong size.
std::string encodeEnvelopePoints(const Series& series);
Series decodeEnvelopePoints(const void* data, size_t size, const std::string& what);

} // namespace radt
