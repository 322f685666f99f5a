// SPDX-License-Identifier: MIT
#pragma once
// The tracking store interface (resources/DESIGN.md §4): an MLflow tracking database behind one API, so the
// collector, the CLI and the explorer never see SQL. Its roles are in StoreRoles.h.

#include "core/store/StoreRoles.h"

#include <string>

namespace radt {

/// A tracking store: a reader and a run writer, and the store's curation, maintenance and envelope
/// cache, each a role of its own (StoreRoles.h) that callers ask for where they need it.
class Store : public StoreReader, public RunWriter {
public:
    /// The URI the store was opened with, password masked.
    virtual std::string displayUri() const = 0;
    /// What opening the store changed in it, said once by the caller (stderr, status bar): the
    /// read index added to a store another tool owns. "" when nothing.
    virtual std::string openNotice() const { return {}; }
    /// "" while the store is still where it was opened; else what happened to it ("… was deleted",
    /// "… was replaced by another file"). A SQLite file deleted or replaced under an open store
    /// takes every write into a file nobody can open again, silently: callers that wrote ask this
    /// before they call the writes done.
    virtual std::string fileProblem() const { return {}; }
    /// True when nothing can be written: opened ReadOnly, a file or folder this process may not
    /// write, or a database role that may only read. Callers then skip their fixes (orphaned runs).
    virtual bool isReadOnly() const { return false; }

    /// Rename, delete and restore runs and experiments, as MLflow's client does.
    virtual StoreCuration& curation() = 0;
    /// Store copy, compaction, reclaiming space.
    virtual StoreMaintenance& maintenance() = 0;
    /// The per-run envelopes this store keeps; by default none (EnvelopeCache's own answers).
    virtual EnvelopeCache& envelopes();
};

/// The Run a store creates for `spec`: a fresh uuid, the start time (now when unset), and the
/// artifact directory under `artifactRoot`. Shared by the stores so they create runs alike.
Run newRunFor(const NewRun& spec, const std::string& artifactRoot);
/// The tags MLflow itself sets on a new run (mlflow.runName, mlflow.user, mlflow.source.*).
std::vector<std::pair<std::string, std::string>> mlflowRunTags(const NewRun& spec);

/// Store::seriesEnvelope's reduction of an in-memory series over [fromMs, toMs].
Series envelopeOf(const Series& series, int64_t fromMs, int64_t toMs, int buckets);

enum class OpenMode {
    OpenExisting,    ///< the store must exist and be an MLflow tracking database
    CreateIfMissing, ///< a missing file (in an existing directory) becomes a fresh store
    ReadOnly,        ///< an existing store, opened so that nothing is written (no read index either)
};

} // namespace radt
