// SPDX-License-Identifier: MIT
#include "collector/StoreWriter.h"

#include "core/store/SpillFile.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>

namespace radt {

int flushIntervalMs(double samplingIntervalSeconds, std::string* warning) {
    if (const char* text = std::getenv("RADT_FLUSH_MS")) {
        char* end = nullptr;
        const long ms = std::strtol(text, &end, 10);
        if (end != text && *end == '\0' && ms >= 50 && ms <= 10000)
            return static_cast<int>(ms);
        if (warning)
            *warning = "RADT_FLUSH_MS='" + std::string(text) + "' is not 50 to 10000 ms; ignored";
    }
    const double ms = 2 * samplingIntervalSeconds * 1000;
    return ms < 250 ? 250 : ms > 2000 ? 2000 : static_cast<int>(ms);
}

StoreWriter::StoreWriter(Store& store, std::function<void(const std::string&)> messages,
                         StoreWriterOptions options)
    : m_store(store), m_messages(std::move(messages)), m_options(std::move(options)),
      m_random(std::random_device{}()) {
    m_thread = std::thread([this] { loop(); });
}

StoreWriter::~StoreWriter() {
    close(0);
    if (m_spill)
        std::fclose(m_spill);
}

void StoreWriter::enqueue(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    if (points.empty())
        return;
    bool warn = false, warnSpill = false;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_closing && m_giveUp)
            return;
        // Once spilling, keep spilling until the file is drained: memory stays bounded and the
        // file is read back in order.
        if (m_queuedPoints + points.size() > m_options.capacity || m_spillPending > 0) {
            if (appendSpill(runUuid, points)) {
                m_spillPending += points.size();
                m_stats.spilled += points.size();
                warnSpill = !m_warnedSpill;
                m_warnedSpill = true;
                m_wake.notify_one();
            } else {
                m_stats.dropped += points.size();
                warn = !m_warnedFull;
                m_warnedFull = true;
            }
        } else {
            const bool wasEmpty = m_queue.empty();
            m_queue.push_back({runUuid, points, {}});
            m_queuedPoints += points.size();
            // Wake the writer to start the flush timer, or to write a full batch at once.
            if (wasEmpty || m_queuedPoints >= m_options.maxBatch)
                m_wake.notify_one();
        }
    }
    if (warnSpill)
        m_messages(std::to_string(m_options.capacity) +
                   " samples are waiting in memory for the store; newer ones wait in " + m_options.spillPath +
                   " until it is back");
    if (warn)
        m_messages("the store has not accepted samples for a while and " +
                   std::to_string(m_options.capacity) +
                   " are queued; newer samples are dropped until it catches up");
}

bool StoreWriter::appendSpill(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    if (m_options.spillPath.empty())
        return false;
    if (!m_spill && !(m_spill = std::fopen(m_options.spillPath.c_str(), "w+be")))
        return false;
    std::fseek(m_spill, 0, SEEK_END);
    return appendSpillPoints(m_spill, runUuid, points);
}

std::deque<StoreWriter::Item> StoreWriter::readSpill(size_t maxPoints, long& next, size_t& count) {
    std::deque<Item> items;
    count = 0;
    next = m_spillRead;
    if (!m_spill || std::fseek(m_spill, m_spillRead, SEEK_SET) != 0)
        return items;
    char line[1024];
    std::string run;
    while (count < maxPoints && std::fgets(line, sizeof line, m_spill)) {
        ++count;
        std::string text(line);
        if (!text.empty() && text.back() == '\n')
            text.pop_back();
        MetricPoint p;
        if (!parseSpillLine(text, run, p))
            continue; // a line torn by a crash mid-write: nothing to recover from it
        if (items.empty() || items.back().runUuid != run)
            items.push_back({run, {}, {}});
        items.back().points.push_back(std::move(p));
    }
    next = std::ftell(m_spill);
    return items;
}

void StoreWriter::post(std::function<void(Store&)> action) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_queue.push_back({{}, {}, std::move(action)});
    m_wake.notify_one();
}

bool StoreWriter::drain(int timeoutMs) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_wake.notify_one();
    return m_drained.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return idle(); });
}

StoreWriterStats StoreWriter::close(int retryForMs) {
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (!m_thread.joinable())
            return m_stats;
        m_closing = true;
        m_wake.notify_all();
        // A store that takes writes is waited for however much is queued (a burst of millions of
        // lines takes longer than any fixed window), saying how far it got; only a window in which
        // nothing was committed ends the wait.
        size_t before = m_stats.written;
        while (!m_drained.wait_for(lock, std::chrono::milliseconds(retryForMs), [this] { return idle(); })) {
            if (m_stats.written == before) {
                m_giveUp = true;
                m_wake.notify_all();
                break;
            }
            before = m_stats.written;
            m_messages("still writing to the store: " +
                       std::to_string(m_queuedPoints + m_spillPending + m_inFlightPoints) +
                       " samples to go, " + std::to_string(m_stats.written) + " written");
        }
    }
    m_thread.join();
    std::lock_guard<std::mutex> lock(m_mutex);
    // What the store never took is kept on disk for the next radt to write (RunReconciler),
    // behind what already waits there; only what cannot even be kept there is lost.
    for (Item& item : m_queue) {
        if (item.points.empty() || !appendSpill(item.runUuid, item.points))
            continue;
        m_spillPending += item.points.size();
        m_queuedPoints -= std::min(m_queuedPoints, item.points.size());
    }
    m_queue.clear();
    m_stats.unwritten = m_queuedPoints + m_spillPending;
    m_stats.kept = m_spillPending;
    if (m_spillPending)
        m_messages(std::to_string(m_spillPending) + " samples the store did not take are kept in " +
                   m_options.spillPath);
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
        if (m_queue.empty() && m_spillPending > 0) {
            // Memory is written; now what waited on disk, a batch at a time.
            long next = 0;
            size_t count = 0;
            std::deque<Item> batch = readSpill(m_options.maxBatch, next, count);
            if (writeUnlocked(lock, batch)) {
                m_spillRead = next;
                m_spillPending -= std::min(m_spillPending, count);
                if (m_spillPending == 0 || count == 0) {
                    std::fclose(m_spill);
                    m_spill = nullptr;
                    std::remove(m_options.spillPath.c_str());
                    m_spillRead = 0;
                    m_spillPending = 0;
                    m_warnedSpill = false;
                }
            } else {
                m_wake.wait_for(lock, std::chrono::milliseconds(m_options.retryMs),
                                [this] { return m_giveUp; });
            }
            continue;
        }
        if (m_queue.empty()) {
            m_drained.notify_all();
            if (m_closing)
                break;
            m_wake.wait(lock, [this] { return !m_queue.empty() || m_spillPending > 0 || m_closing; });
            continue;
        }
        // Let a batch build up for at most one flush interval: fewer, larger transactions. Plus
        // a random part of a quarter interval, drawn each time: collectors started together (a
        // cluster job) would otherwise write in the same instant every interval, and a shared
        // server answers 64 writes at once in ~0.7 s instead of ~0.1 s (bench_pg_scale).
        const int jitterMs =
            std::uniform_int_distribution<int>(0, std::max(0, m_options.flushMs / 4))(m_random);
        if (!m_closing && m_queuedPoints < m_options.maxBatch)
            m_wake.wait_for(lock, std::chrono::milliseconds(m_options.flushMs + jitterMs),
                            [this] { return m_closing || m_queuedPoints >= m_options.maxBatch; });
        // At most maxBatch points per round (one item at least): a backlog of millions is written
        // as many transactions, so close() sees progress instead of one commit it cannot watch.
        std::deque<Item> batch;
        size_t taken = 0;
        while (!m_queue.empty() &&
               (batch.empty() || taken + m_queue.front().points.size() <= m_options.maxBatch)) {
            taken += m_queue.front().points.size();
            batch.push_back(std::move(m_queue.front()));
            m_queue.pop_front();
        }
        m_queuedPoints -= std::min(m_queuedPoints, taken);
        m_inFlightPoints = taken;
        const bool written = writeUnlocked(lock, batch);
        m_inFlightPoints = 0;
        if (written)
            continue;
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

bool StoreWriter::writeUnlocked(std::unique_lock<std::mutex>& lock, std::deque<Item>& batch) {
    m_inFlight = true;
    lock.unlock();
    const bool ok = writeSome(batch);
    lock.lock();
    m_inFlight = false;
    if (ok && m_failing)
        m_messages("the store accepts writes again; queued samples written");
    if (ok)
        m_failing = false;
    return ok;
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
        for (Item& item : batch)
            if (item.action || !committed.count(item.runUuid))
                rest.push_back(std::move(item));
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
