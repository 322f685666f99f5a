// SPDX-License-Identifier: MIT
#pragma once
// Per-run envelopes kept beside MLflow's tables (table radt_envelopes, resources/DESIGN.md §4): a
// finished run's long series reduced to a fixed number of time slices, per slice its lowest and
// highest point (Store::seriesEnvelope's reduction), so that a chart of hundreds of runs reads a
// few thousand points per run instead of every row. Written when a run finishes and by
// `radt store compact`; a chart that finds one missing, stale or of another version reads the
// run whole and writes it again. MLflow never reads the table. Fresh is proved by the run's change
// count, which triggers on metrics keep for whichever client writes (EnvelopeCache::envelopeChangeCount).

#include "core/base/Model.h"
#include "core/base/SeriesMath.h"
#include "core/store/EnvelopeRows.h"

#include <map>
#include <string>
#include <vector>

namespace radt {

class Store;

/// The resolutions kept (time slices per run and metric), coarse to fine.
const std::vector<int>& envelopeLevels();
/// The resolution a chart of `columns` pixel columns reads: the coarsest with a slice per column.
int envelopeLevelFor(int columns);
/// A series longer than this has envelopes; a shorter one is read whole (no cheaper to keep).
int64_t envelopeMinPoints();

/// The envelopes of one series at every level it is long enough for, made from the series as it
/// was when the run's change count was `changeCount`.
std::vector<StoredEnvelope> envelopesOf(const std::string& key, const Series& series,
                                        const LatestMetric& latest, int64_t changeCount);
/// Reads the long series of a finished run (the server reduces them where it can) and saves their
/// envelopes, and every series' summary statistics (a stats entry), replacing older ones. Returns
/// how many envelopes were saved (stats entries not counted); 0 on a read-only store.
size_t writeRunEnvelopes(Store& store, const std::string& runUuid);

/// The stats entry (buckets kStatsBuckets; pointCount: the usable samples). Its six points hold
/// the fields: t is the field's number, step the integer fields, v the real ones.
StoredEnvelope statsEntry(const std::string& key, const SeriesStats& stats, const LatestMetric& latest,
                          int64_t changeCount);
/// The statistics a stats entry holds; throws StoreError naming `what` on an entry of another shape.
SeriesStats statsOfEntry(const StoredEnvelope& entry, const std::string& what);

/// seriesStats(readForAnalysis(store, run, key)) for each of `runs` that has samples of `key`, by
/// run uuid, read the cheap way: a finished run's fresh stats entry; else computed (by the server
/// where it can, for a run that is not compacted) and, for a finished run of a long series, the
/// entry saved through `keep` (a cache: a store that cannot keep it is summarised all the same).
std::map<std::string, SeriesStats> runsSeriesStats(Store& store, const std::vector<Run>& runs,
                                                   const std::string& key, Store* keep);

/// The bytes a stored envelope's points are kept as (little-endian t, step, value per point), and
/// back. decode throws StoreError naming `what` on a blob of the wrong size.
std::string encodeEnvelopePoints(const Series& series);
Series decodeEnvelopePoints(const void* data, size_t size, const std::string& what);

} // namespace radt
