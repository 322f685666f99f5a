// SPDX-License-Identifier: MIT
#include "collector/RunRecorder.h"

#include "collector/RunValidation.h"
#include "core/base/TextFormat.h"

#include <algorithm>
#include <chrono>
#include <poll.h>
#include <unistd.h>

namespace radt {

void waitForAny(const std::vector<int>& fds, const std::vector<int>& drainFds, int timeoutMs) {
    std::vector<pollfd> polled;
    for (int fd : fds)
        if (fd >= 0)
            polled.push_back({fd, POLLIN, 0});
    ::poll(polled.data(), polled.size(), timeoutMs);
    char drain[64];
    for (int fd : drainFds)
        if (fd >= 0)
            while (::read(fd, drain, sizeof drain) > 0) {
            }
}

RunRecorder::RunRecorder(Store& store, RunOptions options, std::function<void(const std::string&)> messages,
                         SampleBus* bus)
    : m_store(store), m_options(std::move(options)), m_messages(std::move(messages)),
      m_bus(bus ? bus : &m_ownBus) {}

RunOutcome RunRecorder::record(const volatile std::sig_atomic_t& stopSignal) {
    RunSession session(m_store, m_options, m_messages, *m_bus);
    session.prepare();
    m_messages("recording run " + session.run().uuid + " '" + session.run().name + "' (experiment " +
               std::to_string(session.run().experimentId) + ", workload " + session.run().workload() +
               ") into " + m_store.displayUri());
    session.release();

    // Sleep until the workload exits, a signal arrives (it writes the wake fd or interrupts
    // poll), the script asks for --manual listeners, or the time limit: no periodic wake-ups.
    const auto started = std::chrono::steady_clock::now();
    const auto limit = std::chrono::milliseconds(static_cast<int64_t>(m_options.maxTimeMinutes * 60000));
    while (!session.poll()) {
        if (stopSignal) {
            m_messages("stopping the workload (SIGTERM to its process group)");
            session.stop(false);
            break;
        }
        int timeoutMs = session.exitFd() >= 0 ? -1 : 200; // without pidfd (Linux < 5.3): poll waitpid
        if (m_options.maxTimeMinutes > 0) {
            const auto left = limit - (std::chrono::steady_clock::now() - started);
            if (left <= std::chrono::steady_clock::duration::zero()) {
                m_messages("time limit of " + formatDuration(limit.count()) +
                           " reached; stopping the workload");
                session.stop(true);
                break;
            }
            const int ms = pollTimeoutMs(std::chrono::duration_cast<std::chrono::milliseconds>(left).count());
            timeoutMs = timeoutMs < 0 ? ms : std::min(timeoutMs, ms);
        }
        session.followManualControl();
        waitForAny({session.exitFd(), session.controlFd(), m_wakeFd}, {session.controlFd(), m_wakeFd},
                   timeoutMs);
    }
    return session.finish();
}

} // namespace radt
