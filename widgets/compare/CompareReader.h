// SPDX-License-Identifier: MIT
#pragma once
// What the comparison views read from a store, off the GUI thread: the runs (the
// basket's, or every run of the basket's experiments), their Insights figures (buildReport, as
// the Insights view computes them) and the last, mean, min and max of chosen metrics
// (Store::seriesStatsOfRun). A worker thread with its own read-only connection; a newer read
// supersedes one not yet started, and a superseded answer is dropped. No widget.

#include "core/store/Store.h"

#include <QPointer>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

class QObject;

namespace radt {

class StoreReadThread;

struct CompareRequest {
    std::string uri;
    std::vector<std::string> uuids;      ///< the basket
    bool wholeExperiments = false;       ///< every run of the experiments the basket's runs are in
    std::vector<std::string> metricKeys; ///< whose stats are read
    bool preferredMetric = true;         ///< also the stats of preferredMetric(keys)
    /// What an earlier read of the same runs got: not read again (null / empty: read them).
    nlohmann::json report;
    std::map<QString, std::vector<SeriesStats>> stats;
};

struct CompareResult {
    std::vector<Run> runs;
    nlohmann::json report;
    std::map<QString, std::vector<SeriesStats>> stats; ///< metric key -> one per run
    QStringList metricKeys;                            ///< every key the runs have
    QString preferredMetric;                           ///< "" when none
    QString error;                                     ///< the read failed: why
};

/// The metric a comparison shows first: the first key naming accuracy ("accuracy", "val_acc"),
/// else one naming loss; "" when neither.
QString preferredMetric(const QStringList& keys);

/// The read itself, on the caller's thread: `progress(done, total)` after each run's figures and
/// each metric read. Throws StoreError.
CompareResult readComparison(Store& store, const CompareRequest& request,
                             const std::function<void(size_t, size_t)>& progress = {});

class CompareReader {
public:
    CompareReader();
    ~CompareReader();
    CompareReader(const CompareReader&) = delete;
    CompareReader& operator=(const CompareReader&) = delete;

    /// Reads on the worker; `done` runs on `receiver`'s thread unless `receiver` is gone or a newer
    /// read was asked for. `progress` likewise, now and then.
    void read(CompareRequest request, QObject* receiver, std::function<void(CompareResult)> done,
              std::function<void(int, int)> progress = {});
    /// True from read() until its answer was handed over (or dropped for a newer one).
    bool isBusy() const { return m_pending; }

private:
    std::shared_ptr<StoreReadThread> m_worker; ///< its own thread and connection
    quint64 m_generation = 0;
    bool m_pending = false;
};

} // namespace radt
