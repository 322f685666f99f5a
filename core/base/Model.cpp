// SPDX-License-Identifier: MIT
#include "core/base/Model.h"

#include <chrono>
#include <ctime>

namespace radt {

const char* toString(RunStatus status) {
    switch (status) {
    case RunStatus::Scheduled:
        return "SCHEDULED";
    case RunStatus::Running:
        return "RUNNING";
    case RunStatus::Finished:
        return "FINISHED";
    case RunStatus::Failed:
        return "FAILED";
    case RunStatus::Killed:
        return "KILLED";
    }
    return "UNKNOWN";
}

std::optional<RunStatus> runStatusFromString(const std::string& text) {
    for (RunStatus s : {RunStatus::Scheduled, RunStatus::Running, RunStatus::Finished, RunStatus::Failed,
                        RunStatus::Killed}) {
        if (text == toString(s))
            return s;
    }
    return std::nullopt;
}

std::string Run::param(const std::string& key) const {
    auto it = params.find(key);
    return it == params.end() ? std::string() : it->second;
}

int64_t Run::durationMs(int64_t now) const {
    const int64_t end = endTime ? *endTime : now;
    return end > startTime ? end - startTime : 0;
}

int64_t nowMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

int64_t recordingClockMs() {
    // The wall clock when this process first asked, carried on by CLOCK_BOOTTIME (monotonic, and
    // counting a laptop's suspend): a clock set back or forward by NTP or a person while radt
    // records never makes samples go back in time or overlap (a 30 s step back lost a
    // quarter to half of a run's energy).
    auto bootMs = [] {
        timespec ts{};
        ::clock_gettime(CLOCK_BOOTTIME, &ts);
        return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
    };
    static const int64_t wallAtStart = nowMs();
    static const int64_t bootAtStart = bootMs();
    return wallAtStart + (bootMs() - bootAtStart);
}

} // namespace radt
