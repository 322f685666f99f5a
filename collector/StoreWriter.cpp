#include "StoreWriter.h"

#include <chrono>
#include <map>
#include <set>

namespace radt {

StoreWriter::StoreWriter(Store& store, std::function<void(const std::string&)> messages,
                         StoreWriterOptions options)
    : m_store(store), m_messages(std::move(messages)), m_options(options) {
    m_thread = std::thread([this] { loop(); });
}

StoreWriter::~StoreWriter() {
    close(0);
}

void StoreWriter::enqueue(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    if (points.empty())
        return;
    bool warn = false;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_closing && m_giveUp)
            return;
        if (m_queuedPoints + points.size() > m_options.capacity) {
            m_stats.dropped += points.size();
            warn = !m_warnedFull;
            m_warnedFull = true;
        } else {
            const bool wasEmpty = m_queue.empty();
            m_queue.push_back({runUuid, points, {}});
            m_queuedPoints += points.size();
            // Wake the writer to start the flush timer, or to write a full batch at once.
            if (wasEmpty || m_queuedPoints >= m_options.maxBatch)
                m_wake.notify_one();
        }
    }
    if (warn)
        m_messages("the store has not accepted samples for a while and " +
                   std::to_string(m_options.capacity) +
                   " are queued; newer samples are dropped until it catches up");
}

void StoreWriter::post(std::function<void(Store&)> action) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_queue.push_back({{}, {}, std::move(action)});
    m_wake.notify_one();
}

bool StoreWriter::drain(int timeoutMs) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_wake.notify_one();
    return m_drained.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                              [this] { return m_queue.empty() && !m_inFlight; });
}

StoreWriterStats StoreWriter::close(int retryForMs) {
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (!m_thread.joinable())
            return m_stats;
        m_closing = true;
        m_wake.notify_all();
        if (!m_drained.wait_for(lock, std::chrono::milliseconds(retryForMs),
                                [this] { return m_queue.empty() && !m_inFlight; })) {
            m_giveUp = true;
            m_wake.notify_all();
        }
    }
    m_thread.join();
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stats.unwritten = m_queuedPoints;
    return m_stats;
}

StoreWriterStats StoreWriter::stats() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_stats;
}

void StoreWriter::loop() {
    std::unique_lock<std::mutex> lock(m_mutex);
    while (true) {
        if (m_giveUp)
            break;
        if (m_queue.empty()) {
            m_drained.notify_all();
            if (m_closing)
                break;
            m_wake.wait(lock, [this] { return !m_queue.empty() || m_closing; });
            continue;
        }
        // Let a batch build up for at most one flush interval: fewer, larger transactions.
        if (!m_closing && m_queuedPoints < m_options.maxBatch)
            m_wake.wait_for(lock, std::chrono::milliseconds(m_options.flushMs),
                            [this] { return m_closing || m_queuedPoints >= m_options.maxBatch; });
        std::deque<Item> batch;
        batch.swap(m_queue);
        m_queuedPoints = 0;
        m_inFlight = true;
        lock.unlock();
        const bool ok = writeSome(batch);
        lock.lock();
        m_inFlight = false;
        if (ok) {
            if (m_failing)
                m_messages("the store accepts writes again; queued samples written");
            m_failing = false;
            continue;
        }
        // Put what failed back in front of anything that arrived meanwhile, in order.
        size_t points = 0;
        for (const Item& item : batch)
            points += item.points.size();
        m_queue.insert(m_queue.begin(), std::make_move_iterator(batch.begin()),
                       std::make_move_iterator(batch.end()));
        m_queuedPoints += points;
        m_drained.notify_all();
        m_wake.wait_for(lock, std::chrono::milliseconds(m_options.retryMs), [this] { return m_giveUp; });
    }
    m_drained.notify_all();
}

bool StoreWriter::writeSome(std::deque<Item>& batch) {
    while (!batch.empty()) {
        if (batch.front().action) {
            try {
                batch.front().action(m_store);
            } catch (const StoreError& e) {
                reportFailure(e.what());
                return false;
            } catch (const std::exception& e) {
                m_messages(e.what());
            }
            batch.pop_front();
            continue;
        }
        // Metric items up to the next action: one transaction per run.
        auto end = batch.begin();
        std::map<std::string, std::vector<MetricPoint>> byRun;
        while (end != batch.end() && !end->action) {
            auto& points = byRun[end->runUuid];
            points.insert(points.end(), end->points.begin(), end->points.end());
            ++end;
        }
        std::set<std::string> committed;
        bool failed = false;
        for (const auto& [run, points] : byRun) {
            try {
                m_store.logMetrics(run, points);
            } catch (const StoreError& e) {
                reportFailure(e.what());
                failed = true;
                break;
            }
            committed.insert(run);
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stats.written += points.size();
            ++m_stats.transactions;
        }
        if (!failed) {
            batch.erase(batch.begin(), end);
            continue;
        }
        // Keep only the runs whose transaction failed (each run's batch is all or nothing).
        std::deque<Item> rest;
        for (auto it = batch.begin(); it != batch.end(); ++it)
            if (it->action || !committed.count(it->runUuid))
                rest.push_back(std::move(*it));
        batch.swap(rest);
        return false;
    }
    return true;
}

void StoreWriter::reportFailure(const std::string& error) {
    if (m_failing)
        return;
    m_failing = true;
    m_messages("cannot write to the store yet (samples are kept and retried): " + error);
}

} // namespace radt
