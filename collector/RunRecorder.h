// SPDX-License-Identifier: MIT
#pragma once
// Records one run from start to end (`radt script.py`): a RunSession prepared, released at once,
// and waited for until the workload ends, the time limit passes or a stop signal arrives.

#include "collector/RunSession.h"

#include <csignal>

namespace radt {

class RunRecorder {
public:
    /// `messages` receives one-line notices for stderr. `bus`, when given, is where samples are
    /// published (so an embedding GUI can subscribe); otherwise the recorder uses its own.
    RunRecorder(Store& store, RunOptions options, std::function<void(const std::string&)> messages,
                SampleBus* bus = nullptr);

    /// Validates, creates the run, and records until the workload ends, the time limit passes,
    /// or `stopSignal` becomes non-zero (then the workload is terminated and the run is KILLED).
    /// Throws std::exception for problems found before the run is created (nothing is written).
    RunOutcome record(const volatile std::sig_atomic_t& stopSignal);

    /// A non-blocking fd whose readability wakes record() to look at `stopSignal` at once (the
    /// read end of a pipe a signal handler writes to). Without it a signal still interrupts the
    /// wait when it lands on the recording thread.
    void setWakeFd(int fd) { m_wakeFd = fd; }

private:
    Store& m_store;
    RunOptions m_options;
    std::function<void(const std::string&)> m_messages;
    SampleBus m_ownBus;
    SampleBus* m_bus;
    int m_wakeFd = -1;
};

/// Sleeps until one of `fds` (entries < 0 are ignored) is readable or `timeoutMs` passes (-1:
/// no timeout), then drains the pipes among them (`drainFds`). Used by the recorder and the
/// experiment scheduler to wait for workloads without periodic wake-ups.
void waitForAny(const std::vector<int>& fds, const std::vector<int>& drainFds, int timeoutMs);

} // namespace radt
