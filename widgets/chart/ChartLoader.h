// SPDX-License-Identifier: MIT
#pragma once
// Reads chart data and summary statistics off the GUI thread (the window stays responsive while
// 8 x 1M points load), on a StoreReadThread of its own (widgets/common/StoreReadThread.h, the
// views' one way to read a store off the GUI thread) with its own connection to the open store,
// so reads never wait on the GUI thread's connection; requests for a chart that has asked again
// are dropped before and after reading, so only the newest view lands.

#include "widgets/chart/SummaryModel.h"
#include "widgets/chart/SummaryPanel.h"
#include "widgets/chart/engine/ChartLines.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace radt {

class ChartPanel;
class Store;
class StoreReadThread;

class ChartLoader : public QObject {
    Q_OBJECT
public:
    explicit ChartLoader(QObject* parent = nullptr);
    ~ChartLoader() override;

    /// The store the worker reads (its own read-only connection, opened on first use); "" closes
    /// it. `mayWrite`: the window opened it writable, so a chart may keep the envelopes it had to
    /// make (RunEnvelopes.h) through a second connection, opened when first needed.
    void setStoreUri(const std::string& uri, bool mayWrite = false);
    /// Reads `key` of `runs` and hands it to chart->setData on the GUI thread.
    void requestChart(ChartPanel* chart, const std::vector<Run>& runs, const QString& key);
    /// Drops what is pending for the chart (it is being cleared or reused).
    void cancelChart(ChartPanel* chart);
    /// Computes summary rows, of `metrics` x `runs` from the store, then of `held` (series the
    /// window holds, a board file's runs); summaryReady carries them (only the newest request's).
    void requestSummary(const std::vector<Run>& runs, const std::vector<std::string>& metrics,
                        const std::map<int64_t, QString>& experimentNames,
                        std::vector<SummaryPanel::HeldSeries> held = {});
    /// Each run's latest metric values (one query per run); `done` gets them on the GUI thread,
    /// or an error message. Not delivered when the loader is gone.
    using LatestByRun = std::map<std::string, std::map<std::string, LatestMetric>>;
    void requestLatestMetrics(const std::vector<Run>& runs,
                              std::function<void(const LatestByRun& latest, const QString& error)> done);
    /// Follows the chart's running runs: reads their new rows and statuses on the worker, draws
    /// them on the GUI thread, then calls `done` (whether the chart changed, or an error). At most
    /// one poll per chart is under way: false (and nothing asked) while one is.
    bool requestPoll(ChartPanel* chart, std::function<void(bool changed, const QString& error)> done);
    /// Reads again, finer, what a zoom into the chart's runs held as envelopes asks
    /// (ChartPanel::detailQuery) and hands it to chart->applyDetail. Every chart the loader loads
    /// asks by itself (its detailWanted signal); a failed read leaves the envelope and says why.
    void requestDetail(ChartPanel* chart);
    /// The store's experiments and runs (the run tree's contents), with its deleted experiments
    /// (lifecycleStage "deleted") and runs (Run::deleted) after them when `withDeleted`; `done` gets them on
    /// the GUI thread, or an error.
    void requestTree(
        std::function<void(std::vector<Experiment> experiments, std::vector<Run> runs, const QString& error)>
            done,
        bool withDeleted = false);
    /// The metric keys any of these runs has in the store (sorted, each once).
    void
    requestMetricKeys(const std::vector<std::string>& runUuids,
                      std::function<void(const std::vector<std::string>& keys, const QString& error)> done);
    /// Runs `work` on the loader's thread, then `land` on the GUI thread with the error it threw
    /// ("" when none); pending until then. Not landed when the loader is gone. For work that
    /// needs no connection of the loader's (opening another store).
    void workThenLand(std::function<void()> work, std::function<void(const QString& error)> land);
    /// Requests not finished yet (charts and summary).
    int pending() const { return m_pending; }
    /// Processes events until every request has landed; false on timeout.
    bool waitIdle(int timeoutMs);

signals:
    /// A chart request is being read: `done` of `total` runs.
    void progress(const QString& key, int done, int total);
    void chartLoaded(ChartPanel* chart);
    void chartFailed(ChartPanel* chart, const QString& key, const QString& error);
    /// A zoom's finer read failed: the chart keeps what it shows.
    void detailFailed(ChartPanel* chart, const QString& key, const QString& error);
    void summaryReady(const std::vector<SummaryRow>& rows);
    void summaryFailed(const QString& error);
    void idle();

private slots:
    void onDetailWanted();

private:
    struct Shared; // what the worker and the GUI thread both touch, under its mutex
    void finishOne();
    /// Runs `read` on the worker with its connection, then `land` on the GUI thread with the
    /// error read threw ("" when none); pending until then. Not landed when the loader is gone.
    void readThenLand(std::function<void(Store& store)> read, std::function<void(const QString& error)> land);
    /// The same for work that is given the thread (and may open its connection, or not).
    void postThenLand(std::function<void(StoreReadThread& thread)> work,
                      std::function<void(const QString& error)> land);

    std::shared_ptr<StoreReadThread> m_reads; ///< the thread the jobs run on, with its connection
    std::shared_ptr<Shared> m_shared;
    int m_pending = 0;
    std::set<ChartPanel*> m_polling; ///< charts with a poll under way (GUI thread only)
};

} // namespace radt
