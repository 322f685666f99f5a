// SPDX-License-Identifier: MIT
#pragma once
// The writer thread between the sample bus and the store (resources/DESIGN.md §8): a bounded queue, flushed
// every flush interval (plus up to a quarter of it, at random) or 10k samples as one transaction
// per run. A store that refuses writes (locked,
// server gone) keeps the samples queued and retried; the user sees one warning and one recovery
// line. While a StoreWriter runs, it is the only thread that touches the store: other writes
// (params, tags from the metrics channel) are posted to it and run in order.

#include "core/store/Store.h"

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace radt {

struct StoreWriterOptions {
    int flushMs = 250;
    size_t maxBatch = 10000;
    size_t capacity = 2'000'000; ///< queued points in memory; beyond, they go to the spill file
    int retryMs = 500;           ///< pause between attempts while the store refuses writes
    /// Where points beyond `capacity` wait while the store is away (one line per point), read
    /// back once it accepts writes again. Empty: such points are dropped (and counted).
    std::string spillPath;
};

struct StoreWriterStats {
    size_t written = 0;   ///< points committed
    size_t dropped = 0;   ///< points refused because the queue was full and nothing could spill
    size_t spilled = 0;   ///< points that went through the spill file
    size_t unwritten = 0; ///< points not in the store when close() gave up (kept ones included)
    size_t kept = 0;      ///< of those, points kept in the spill file for a later import
    size_t transactions = 0;
};

/// The collector's flush interval for a sampling interval: two intervals, within 250 ms to 2 s;
/// RADT_FLUSH_MS (50 to 10000) overrides it. A bad RADT_FLUSH_MS is described in `warning`.
int flushIntervalMs(double samplingIntervalSeconds, std::string* warning = nullptr);

class StoreWriter {
public:
    StoreWriter(Store& store, std::function<void(const std::string&)> messages,
                StoreWriterOptions options = {});
    ~StoreWriter();
    StoreWriter(const StoreWriter&) = delete;
    StoreWriter& operator=(const StoreWriter&) = delete;

    /// Thread-safe and non-blocking (a SampleBus subscriber).
    void enqueue(const std::string& runUuid, const std::vector<MetricPoint>& points);
    /// Runs `action` on the writer thread, in order with the points queued before it. A StoreError
    /// it throws is retried like a metric batch; any other exception is reported and dropped.
    void post(std::function<void(Store&)> action);
    /// Writes everything queued and stops the thread. It waits as long as the store commits
    /// something in every `retryForMs` (saying how much is left each time), and gives up only after
    /// a window without progress (the store refuses). Idempotent.
    StoreWriterStats close(int retryForMs = 10000);
    /// Blocks until everything queued so far is committed or `timeoutMs` passed; true when drained.
    bool drain(int timeoutMs);

    StoreWriterStats stats() const;

private:
    struct Item {
        std::string runUuid;
        std::vector<MetricPoint> points;
        std::function<void(Store&)> action;
    };
    void loop();
    /// writeSome() with the lock released meanwhile; notes the recovery after a failure.
    bool writeUnlocked(std::unique_lock<std::mutex>& lock, std::deque<Item>& batch);
    /// Writes items from the front; false (with the failed items left in `batch`) on a StoreError.
    bool writeSome(std::deque<Item>& batch);
    void reportFailure(const std::string& error);
    bool appendSpill(const std::string& runUuid, const std::vector<MetricPoint>& points);
    /// Up to `maxPoints` spilled points from the read position; `next` gets the position after them.
    std::deque<Item> readSpill(size_t maxPoints, long& next, size_t& count);
    bool idle() const { return m_queue.empty() && m_spillPending == 0 && !m_inFlight; }

    Store& m_store;
    std::function<void(const std::string&)> m_messages;
    StoreWriterOptions m_options;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_drained;
    std::deque<Item> m_queue;
    size_t m_queuedPoints = 0;
    bool m_inFlight = false;
    bool m_closing = false;
    bool m_giveUp = false;
    std::minstd_rand m_random; ///< the flush jitter (loop thread only)
    bool m_warnedFull = false;
    bool m_failing = false;      ///< touched by the writer thread only
    size_t m_inFlightPoints = 0; ///< points of the round being written (under m_mutex)
    std::FILE* m_spill = nullptr;
    long m_spillRead = 0;      ///< file offset of the first point not yet written
    size_t m_spillPending = 0; ///< points in the file not yet written
    bool m_warnedSpill = false;
    StoreWriterStats m_stats;
    std::thread m_thread;
};

} // namespace radt
