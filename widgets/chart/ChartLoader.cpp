// SPDX-License-Identifier: MIT
#include "widgets/chart/ChartLoader.h"

#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/SummaryPanel.h"
#include "widgets/common/StoreReadThread.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

namespace radt {

namespace {

/// Hands `job` to the GUI thread: the application object lives there for as long as any view, so
/// a job finished after its loader went still lands somewhere, and finds the loader gone there.
template <typename Job> void landOnGuiThread(Job&& job) {
    QMetaObject::invokeMethod(QCoreApplication::instance(), std::forward<Job>(job), Qt::QueuedConnection);
}

} // namespace

struct ChartLoader::Shared {
    std::mutex mutex;
    std::string uri;                        ///< what the reads should read
    bool mayWrite = false;                  ///< the window opened it writable (envelopeKeeper)
    std::map<ChartPanel*, uint64_t> latest; ///< newest request per chart
    uint64_t latestSummary = 0;
    uint64_t next = 0;
    // The read thread only: the URI its connection and the keeper are for, and the keeper.
    std::string openedUri;
    std::unique_ptr<Store> keeper;
    bool keeperFailed = false;

    bool current(ChartPanel* chart, uint64_t generation) {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = latest.find(chart);
        return it != latest.end() && it->second == generation;
    }
    bool currentSummary(uint64_t generation) {
        std::lock_guard<std::mutex> lock(mutex);
        return latestSummary == generation;
    }
    /// The read thread's connection to the window's store, reopened when the window switched
    /// stores (read-only: a reader never writes, nor adds an index). Throws StoreError.
    Store& connection(StoreReadThread& thread) {
        std::string wanted;
        {
            std::lock_guard<std::mutex> lock(mutex);
            wanted = uri;
        }
        if (wanted.empty())
            throw StoreError("no store is open");
        if (openedUri != wanted) {
            keeper.reset();
            keeperFailed = false;
            openedUri = wanted;
        }
        return thread.connection(wanted);
    }
    /// Where charts keep the envelopes they made: a writable connection to the same store, or
    /// nullptr (the window opened it read-only, or it cannot be opened for writing). After
    /// connection().
    Store* envelopeKeeper() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (!mayWrite)
                return nullptr;
        }
        if (!keeper && !keeperFailed) {
            try {
                keeper = openStore(openedUri, OpenMode::OpenExisting);
            } catch (const StoreError&) {
                keeperFailed = true; // charts read such runs whole: slower, never wrong
            }
        }
        return keeper.get();
    }
};

ChartLoader::ChartLoader(QObject* parent)
    : QObject(parent), m_reads(StoreReadThread::start(QStringLiteral("radt chart loader"))),
      m_shared(std::make_shared<Shared>()) {}

ChartLoader::~ChartLoader() {
    {
        std::lock_guard<std::mutex> lock(m_shared->mutex);
        m_shared->latest.clear(); // queued jobs see themselves stale and return at once
        m_shared->latestSummary = ~uint64_t(0);
    }
    // The job that runs finishes before the loader goes, and nothing after it starts, as when the
    // loader had a thread of its own: left running, a read went on past the loader into the
    // program's exit (test_explorer_gui crashed after its last test in 3 runs of 15; 0 of 30 with
    // this). The keeper's connection closes here, on this thread, the reads' one with m_reads.
    m_reads->finish();
    m_shared->keeper.reset();
}

void ChartLoader::setStoreUri(const std::string& uri, bool mayWrite) {
    std::lock_guard<std::mutex> lock(m_shared->mutex);
    m_shared->uri = uri;
    m_shared->mayWrite = mayWrite;
}

void ChartLoader::finishOne() {
    if (--m_pending == 0)
        emit idle();
}

void ChartLoader::requestChart(ChartPanel* chart, const std::vector<Run>& runs, const QString& key) {
    uint64_t generation;
    {
        std::lock_guard<std::mutex> lock(m_shared->mutex);
        generation = ++m_shared->next;
        m_shared->latest[chart] = generation;
    }
    ++m_pending;
    chart->setLoading(key);
    connect(chart, &ChartPanel::detailWanted, this, &ChartLoader::onDetailWanted, Qt::UniqueConnection);
    const int columns = chart->plotColumns();
    QPointer<ChartPanel> target(chart);
    std::shared_ptr<Shared> shared = m_shared;
    QPointer<ChartLoader> self(this);
    m_reads->post([=](StoreReadThread& thread) {
        auto deliver = [](auto&& job) { landOnGuiThread(std::forward<decltype(job)>(job)); };
        if (!shared->current(chart, generation)) { // superseded before it started
            deliver([self] {
                if (self)
                    self->finishOne();
            });
            return;
        }
        try {
            Store& store = shared->connection(thread);
            auto data = std::make_shared<std::vector<ChartRunData>>(readChartRuns(
                store, runs, key.toStdString(), columns,
                [&](size_t done, size_t total) {
                    deliver([self, key, done, total] {
                        if (self)
                            emit self->progress(key, int(done), int(total));
                    });
                },
                shared->envelopeKeeper()));
            deliver([self, target, data, key, shared, chart, generation] {
                if (!self)
                    return;
                // Only the newest request lands, and only on a chart that still exists.
                if (target && shared->current(chart, generation)) {
                    target->setData(std::move(*data), key);
                    emit self->chartLoaded(target);
                }
                self->finishOne();
            });
        } catch (const std::exception& e) {
            const QString error = QString::fromStdString(e.what());
            deliver([self, target, key, error, shared, chart, generation] {
                if (!self)
                    return;
                if (target && shared->current(chart, generation))
                    emit self->chartFailed(target, key, error);
                self->finishOne();
            });
        }
    });
}

void ChartLoader::cancelChart(ChartPanel* chart) {
    std::lock_guard<std::mutex> lock(m_shared->mutex);
    m_shared->latest.erase(chart);
}

void ChartLoader::requestSummary(const std::vector<Run>& runs, const std::vector<std::string>& metrics,
                                 const std::map<int64_t, QString>& experimentNames,
                                 std::vector<SummaryPanel::HeldSeries> held) {
    uint64_t generation;
    {
        std::lock_guard<std::mutex> lock(m_shared->mutex);
        generation = ++m_shared->next;
        m_shared->latestSummary = generation;
    }
    ++m_pending;
    std::shared_ptr<Shared> shared = m_shared;
    QPointer<ChartLoader> self(this);
    auto heldSeries = std::make_shared<const std::vector<SummaryPanel::HeldSeries>>(std::move(held));
    m_reads->post([=](StoreReadThread& thread) {
        std::shared_ptr<std::vector<SummaryRow>> rows;
        QString error;
        if (shared->currentSummary(generation)) {
            try {
                rows = std::make_shared<std::vector<SummaryRow>>();
                if (!runs.empty() && !metrics.empty()) {       // else nothing to read, no store needed
                    Store& store = shared->connection(thread); // first: the keeper opens the same URI
                    *rows = SummaryPanel::rowsFor(store, runs, metrics, experimentNames,
                                                  shared->envelopeKeeper());
                }
                for (const SummaryPanel::HeldSeries& h : *heldSeries)
                    if (!h.series.empty())
                        rows->push_back(SummaryPanel::rowOf(h.run, h.experiment, h.metric, h.series));
            } catch (const std::exception& e) {
                rows.reset();
                error = QString::fromStdString(e.what());
            }
        }
        landOnGuiThread([self, rows, error, shared, generation] {
            if (!self)
                return;
            if (shared->currentSummary(generation)) {
                if (rows)
                    emit self->summaryReady(*rows);
                else if (!error.isEmpty())
                    emit self->summaryFailed(error);
            }
            self->finishOne();
        });
    });
}

void ChartLoader::readThenLand(std::function<void(Store& store)> read,
                               std::function<void(const QString& error)> land) {
    std::shared_ptr<Shared> shared = m_shared;
    postThenLand(
        [shared, read = std::move(read)](StoreReadThread& thread) { read(shared->connection(thread)); },
        std::move(land));
}

void ChartLoader::workThenLand(std::function<void()> work, std::function<void(const QString& error)> land) {
    postThenLand([work = std::move(work)](StoreReadThread&) { work(); }, std::move(land));
}

void ChartLoader::postThenLand(std::function<void(StoreReadThread& thread)> work,
                               std::function<void(const QString& error)> land) {
    ++m_pending;
    QPointer<ChartLoader> self(this);
    m_reads->post([self, work = std::move(work), land = std::move(land)](StoreReadThread& thread) {
        QString error;
        try {
            work(thread);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        landOnGuiThread([self, land, error] {
            if (!self)
                return;
            land(error);
            self->finishOne();
        });
    });
}

void ChartLoader::requestLatestMetrics(
    const std::vector<Run>& runs, std::function<void(const LatestByRun& latest, const QString& error)> done) {
    auto latest = std::make_shared<LatestByRun>();
    readThenLand(
        [runs, latest](Store& store) {
            for (const Run& run : runs)
                (*latest)[run.uuid] = store.latestMetrics(run.uuid);
        },
        [latest, done = std::move(done)](const QString& error) { done(*latest, error); });
}

bool ChartLoader::requestPoll(ChartPanel* chart,
                              std::function<void(bool changed, const QString& error)> done) {
    const std::vector<LivePollQuery> queries = chart->engine().livePollQueries();
    if (queries.empty() || m_polling.count(chart))
        return false;
    m_polling.insert(chart);
    const QString key = chart->engine().metricKey();
    QPointer<ChartPanel> target(chart);
    auto results = std::make_shared<std::vector<LivePollResult>>();
    readThenLand(
        [key, queries, results](Store& store) { *results = readLivePoll(store, key.toStdString(), queries); },
        [this, target, chart, key, results, done = std::move(done)](const QString& error) {
            m_polling.erase(chart);
            const bool changed = target && error.isEmpty() && target->applyLivePoll(key, *results);
            if (target)
                done(changed, error);
        });
    return true;
}

void ChartLoader::onDetailWanted() {
    if (auto* chart = qobject_cast<ChartPanel*>(sender()))
        requestDetail(chart);
}

void ChartLoader::requestDetail(ChartPanel* chart) {
    const std::optional<ChartDetailQuery> query = chart->detailQuery();
    if (!query)
        return;
    QPointer<ChartPanel> target(chart);
    auto details = std::make_shared<std::vector<ChartDetail>>();
    readThenLand([query, details](Store& store) { *details = readChartDetail(store, *query); },
                 [this, target, query, details](const QString& error) {
                     if (!target)
                         return;
                     if (error.isEmpty())
                         target->applyDetail(*query, std::move(*details));
                     else
                         emit detailFailed(target, QString::fromStdString(query->metricKey), error);
                 });
}

void ChartLoader::requestTree(
    std::function<void(std::vector<Experiment> experiments, std::vector<Run> runs, const QString& error)>
        done,
    bool withDeleted) {
    auto experiments = std::make_shared<std::vector<Experiment>>();
    auto runs = std::make_shared<std::vector<Run>>();
    readThenLand(
        [experiments, runs, withDeleted](Store& store) {
            *experiments = store.experiments();
            *runs = store.runs();
            if (!withDeleted)
                return;
            for (Experiment& e : store.curation().deletedExperiments())
                experiments->push_back(std::move(e));
            for (Run& r : store.curation().deletedRuns()) {
                r.deleted = true;
                runs->push_back(std::move(r));
            }
        },
        [experiments, runs, done = std::move(done)](const QString& error) {
            done(std::move(*experiments), std::move(*runs), error);
        });
}

void ChartLoader::requestMetricKeys(
    const std::vector<std::string>& runUuids,
    std::function<void(const std::vector<std::string>& keys, const QString& error)> done) {
    auto keys = std::make_shared<std::vector<std::string>>();
    readThenLand([runUuids, keys](Store& store) { *keys = store.metricKeys(runUuids); },
                 [keys, done = std::move(done)](const QString& error) { done(*keys, error); });
}

bool ChartLoader::waitIdle(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (m_pending > 0) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(1);
    }
    return true;
}

} // namespace radt
