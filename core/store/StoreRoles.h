// SPDX-License-Identifier: MIT
#pragma once
// The roles of a tracking store (resources/DESIGN.md §4), each what one kind of caller uses:
// reading runs and series (charts, insights, reports), writing a run (the collector), curation
// (rename, delete, restore: the explorer's and `radt runs`'s), maintenance (store copy, compaction,
// reclaiming space) and the per-run envelope cache. Store (Store.h) is a reader and a writer and
// hands out the other three; each backend implements every role in a class of its own.

#include "core/base/Model.h"
#include "core/base/RunFilter.h"
#include "core/base/SeriesMath.h"
#include "core/store/EnvelopeRows.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace radt {

/// Every store failure: the message names the store, the table or field, and what was expected.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What a collector supplies to create a run.
struct NewRun {
    int64_t experimentId = 0;
    std::string name;
    int64_t startTime = 0; ///< ms since epoch; 0 means now
    std::string userId;
    std::string sourceName;
    RunStatus status = RunStatus::Running;
};

/// Reading runs and series: what every view, insight and report needs.
class StoreReader {
public:
    virtual ~StoreReader() = default;

    virtual std::vector<Experiment> experiments() = 0;
    /// The experiment with this id, deleted ones included (lifecycleStage says which); by default
    /// only active ones are known.
    virtual std::optional<Experiment> experimentById(int64_t id);
    /// Active runs with params and tags; all experiments when experimentId is unset.
    virtual std::vector<Run> runs(std::optional<int64_t> experimentId = std::nullopt) = 0;
    virtual std::optional<Run> run(const std::string& runUuid) = 0;
    /// The active runs (of `experimentId`, else of every experiment) that meet `conditions`, MLflow's
    /// search syntax (core/base/RunFilter), in start order. SQLite and PostgreSQL find them in SQL
    /// (RunFilterSql); this fallback reads every run and its latest metrics.
    virtual std::vector<Run> searchRuns(const std::vector<RunCondition>& conditions,
                                        std::optional<int64_t> experimentId = std::nullopt);
    /// Sorted union of the metric keys the given runs have.
    virtual std::vector<std::string> metricKeys(const std::vector<std::string>& runUuids) = 0;
    /// Latest value per key of a run (derived from metrics on stores without latest_metrics).
    virtual std::map<std::string, LatestMetric> latestMetrics(const std::string& runUuid) = 0;
    /// Whole series of (run, key), sorted by time then step.
    virtual Series series(const std::string& runUuid, const std::string& key) = 0;
    /// Points with fromMs <= timestamp <= toMs.
    virtual Series seriesRange(const std::string& runUuid, const std::string& key, int64_t fromMs,
                               int64_t toMs) = 0;
    /// What a chart of `buckets` pixel columns needs: the range (whole series when unset) cut into
    /// `buckets` equal time slices, and per slice its lowest and highest point, in time order, so
    /// peaks survive. NaN samples are left out. This default reduces the range here; a server store
    /// reduces it where the data is, so a million points never cross the network for 1000 pixels.
    virtual Series seriesEnvelope(const std::string& runUuid, const std::string& key,
                                  std::optional<std::pair<int64_t, int64_t>> range, int buckets);
    /// True for a remote store, where charts should ask for envelopes rather than whole series.
    virtual bool prefersEnvelopes() const { return false; }
    /// How many points each metric key of a run has.
    virtual std::map<std::string, int64_t> pointCounts(const std::string& runUuid);
    /// The summary statistics of each metric of a run (of `onlyKey` alone when it is given) over
    /// every stored sample, as seriesStats() computes them from series(). This default reads each
    /// series; a server store computes them where the data is.
    virtual std::map<std::string, SeriesStats> seriesStatsOfRun(const std::string& runUuid,
                                                                const std::string& onlyKey = {});
};

/// Writing a run: what the collector does while a workload trains.
class RunWriter {
public:
    virtual ~RunWriter() = default;

    /// The experiment's id, creating it (active, default artifact location) when it does not exist.
    virtual int64_t getOrCreateExperiment(const std::string& name) = 0;
    /// Creates a run with a fresh 32-hex uuid and returns it (artifact dir recorded in artifact_uri).
    virtual Run createRun(const NewRun& spec) = 0;
    virtual void setRunStatus(const std::string& runUuid, RunStatus status,
                              std::optional<int64_t> endTime) = 0;
    /// Params are immutable as in MLflow: logging the same key with another value is an error.
    virtual void logParams(const std::string& runUuid,
                           const std::vector<std::pair<std::string, std::string>>& params) = 0;
    virtual void setTags(const std::string& runUuid,
                         const std::vector<std::pair<std::string, std::string>>& tags) = 0;
    /// One transaction: the points and latest_metrics. Exact duplicates are ignored like MLflow.
    virtual void logMetrics(const std::string& runUuid, const std::vector<MetricPoint>& points) = 0;
};

/// Curation of runs and experiments, writing the rows MLflow's own client writes for each.
class StoreCuration {
public:
    virtual ~StoreCuration() = default;

    /// Renames a run (running ones too): runs.name and its mlflow.runName tag, in one transaction.
    /// Throws StoreError for an unknown or deleted run, or a name MLflow refuses.
    virtual void renameRun(const std::string& runUuid, const std::string& name) = 0;
    /// Removes tags of a run, all or none: a key it does not have is an error naming it.
    virtual void deleteTags(const std::string& runUuid, const std::vector<std::string>& keys) = 0;
    /// MLflow's soft delete: lifecycle_stage 'deleted' and deleted_time now (where the schema has
    /// it), or back to 'active' with deleted_time cleared. A deleted run leaves runs() and run(),
    /// and so every view, chart and report. Several runs in one transaction: all or none, an
    /// unknown run an error naming it. A run already as asked (deleted by another client
    /// meanwhile, or named twice) is left as it is, as MLflow's client does; the runs actually
    /// changed are returned, in the order given.
    virtual std::vector<std::string> setRunsDeleted(const std::vector<std::string>& runUuids,
                                                    bool deleted) = 0;
    /// One run; deleting a deleted run or restoring an active one is an error that says so.
    void setRunDeleted(const std::string& runUuid, bool deleted);
    /// The deleted runs, with params and tags: what can be restored.
    virtual std::vector<Run> deletedRuns() = 0;
    /// MLflow's rename_experiment: experiments.name (and last_update_time where the schema has it).
    /// Throws for an unknown or deleted experiment, or a name another experiment, deleted or not,
    /// already has (MLflow's names are unique).
    virtual void renameExperiment(int64_t experimentId, const std::string& name) = 0;
    /// MLflow's delete_experiment and restore_experiment: each experiment's lifecycle_stage (and
    /// last_update_time), and with it every one of its runs marked deleted (deleted_time now) or
    /// active again, runs deleted on their own before included, as MLflow's client does. Several
    /// experiments in one transaction: all or none, an unknown one an error naming it. One already
    /// as asked (another client's change meanwhile, or named twice) is left as it is, its runs
    /// too; the experiments actually changed are returned, in the order given.
    virtual std::vector<int64_t> setExperimentsDeleted(const std::vector<int64_t>& experimentIds,
                                                       bool deleted) = 0;
    /// One experiment; deleting a deleted one or restoring an active one is an error that says so.
    void setExperimentDeleted(int64_t experimentId, bool deleted);
    /// The deleted experiments: what can be restored.
    virtual std::vector<Experiment> deletedExperiments() = 0;

protected:
    /// The store, password masked, as the errors of setRunDeleted and setExperimentDeleted name it.
    virtual std::string curatedUri() const = 0;
};

/// Maintenance: store copy, compaction and giving space back.
class StoreMaintenance {
public:
    virtual ~StoreMaintenance() = default;

    /// Adds a run recorded elsewhere under its own uuid (store copy); when it exists already, only
    /// its status and end time follow `run`. Params, tags and metrics are logged separately.
    virtual void importRun(const Run& run) = 0;
    /// One run's compaction, all or nothing: deletes `removals` (per metric key, these points,
    /// matched by timestamp, step and value; points that are not there are ignored) and sets the
    /// tag `tag`, in one transaction. When the run already has a tag of that key (another
    /// compaction got there first: checked under the write lock), nothing changes and the answer is
    /// false. latest_metrics stays as it is: the caller never removes a key's latest point.
    virtual bool applyCompaction(const std::string& runUuid,
                                 const std::vector<std::pair<std::string, Series>>& removals,
                                 const std::pair<std::string, std::string>& tag) = 0;
    /// Gives the space of deleted rows back: SQLite rewrites the file (VACUUM: it shrinks; needs
    /// free disk space for a copy), PostgreSQL marks the metrics table's dead rows reusable.
    virtual void reclaimSpace() = 0;
    /// What the metric samples take on disk: the SQLite file (after a WAL checkpoint), or the
    /// metrics table with its indexes on PostgreSQL.
    virtual int64_t storageBytes() = 0;
};

/// The per-run envelopes (RunEnvelopes.h), in radt_envelopes beside MLflow's tables. This base
/// keeps none: a store without the table, a read-only one, or one of the 2019 schema.
class EnvelopeCache {
public:
    virtual ~EnvelopeCache() = default;

    /// The fresh stored envelopes of `key` at `buckets` slices for these runs, by run uuid;
    /// missing, stale (the run's change count moved since it was made, or the key's
    /// latest_metrics row) or other-version ones are left out. None on a store without the table,
    /// without latest_metrics, or whose change count is not kept (its triggers dropped, as
    /// MLflow's migrations drop them with the table they rebuild): nothing there proves fresh.
    virtual std::map<std::string, StoredEnvelope>
    storedEnvelopes(const std::vector<std::string>& /*runUuids*/, const std::string& /*key*/,
                    int /*buckets*/) {
        return {};
    }
    /// Starts keeping a run's envelopes: makes sure the store counts every change to its samples
    /// from now on, whoever writes them (triggers on metrics, resources/DESIGN.md §4), and returns
    /// the count so far. Entries made from what is read after this call carry it (changeCount).
    /// Where the triggers were missing they are made, and every kept entry is dropped: nothing
    /// tells what changed while nothing counted. nullopt where this store keeps no envelopes
    /// (read-only, 2019 schema, a role that may not add triggers to metrics).
    virtual std::optional<int64_t> envelopeChangeCount(const std::string& /*runUuid*/) {
        return std::nullopt;
    }
    /// Saves a run's envelopes in one transaction, replacing those of the same key and resolution
    /// (the table is made on first use), each fresh while the run's change count is still its
    /// changeCount. False when this store keeps none (read-only, 2019 schema).
    virtual bool saveEnvelopes(const std::string& /*runUuid*/,
                               const std::vector<StoredEnvelope>& /*envelopes*/) {
        return false;
    }
};

} // namespace radt
