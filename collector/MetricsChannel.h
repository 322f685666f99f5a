// SPDX-License-Identifier: MIT
#pragma once
// The metrics channel (resources/DESIGN.md §7): a pipe whose write end the workload inherits as
// RADT_METRICS_FD. One JSON object per line:
//   {"metric": "loss", "value": 0.31, "step": 3}   (optional "timestamp" in ms)
//   {"param": "k", "value": "v"}   {"tag": "k", "value": "v"}   {"artifact": "path"}
//   {"control": "start" | "stop"}   (listeners of a --manual run)
// Malformed lines are counted and reported at the end, never fatal.

#include "core/base/Model.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace radt {

struct ChannelHandlers {
    std::function<void(MetricPoint&& point)> metric;
    std::function<void(const std::string& key, const std::string& value)> param;
    std::function<void(const std::string& key, const std::string& value)> tag;
    std::function<void(const std::string& path)> artifact;
    std::function<void(const std::string& command)> control;
};

/// Validates and dispatches one line; false with `error` set when the line is malformed (then no
/// handler was called). Keys and values are checked against MLflow's limits here, so a bad line
/// never reaches the store. `nowMs` stamps a metric without a timestamp; `clockOffsetMs` is added
/// to one with a timestamp (the recording clock minus the wall clock the workload read).
bool dispatchChannelLine(const std::string& line, const ChannelHandlers& handlers, int64_t nowMs,
                         std::string& error, int64_t clockOffsetMs = 0);

class MetricsChannel {
public:
    /// Creates the pipe; throws std::runtime_error when the system refuses.
    explicit MetricsChannel(ChannelHandlers handlers);
    ~MetricsChannel();
    MetricsChannel(const MetricsChannel&) = delete;
    MetricsChannel& operator=(const MetricsChannel&) = delete;

    /// The write end, for the child to inherit under this number.
    int childFd() const { return m_writeFd; }
    /// Call after the child started: closes our copy of the write end and starts reading.
    void start();
    /// Reads until every writer closed the pipe or `timeoutMs` passed, then stops.
    void finish(int timeoutMs);

    size_t lines() const { return m_lines; }
    size_t malformed() const { return m_malformed; }
    /// "line 3: expected ..." for the first malformed line; empty when none.
    std::string firstError() const;

private:
    void readLoop();
    void handleLine(const std::string& line, bool overlong = false);

    ChannelHandlers m_handlers;
    int m_readFd = -1;
    int m_writeFd = -1;
    int m_wakeFds[2] = {-1, -1}; ///< written by finish() to end the reader's poll
    std::thread m_reader;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_eof{false};
    std::atomic<size_t> m_lines{0};
    std::atomic<size_t> m_malformed{0};
    mutable std::mutex m_errorMutex;
    std::string m_firstError;
};

} // namespace radt
