#include "RunReconciler.h"

#include <fstream>
#include <sstream>
#include <unistd.h>

namespace radt {

namespace {

std::string hostName() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0)
        return "localhost";
    return buf;
}

/// Field 22 (starttime) of /proc/<pid>/stat; empty when the process does not exist.
std::string startTicksOf(long pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return {};
    std::istringstream fields(text.substr(close + 1));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i)
        if (i == 22)
            return field;
    return {};
}

} // namespace

std::vector<std::pair<std::string, std::string>> collectorTags() {
    const long pid = static_cast<long>(::getpid());
    return {{kCollectorHostTag, hostName()},
            {kCollectorPidTag, std::to_string(pid)},
            {kCollectorStartTag, startTicksOf(pid)}};
}

bool collectorAlive(long pid, const std::string& startTicks) {
    const std::string now = startTicksOf(pid);
    return !now.empty() && (startTicks.empty() || now == startTicks);
}

size_t reconcileOrphanedRuns(Store& store, const std::function<void(const std::string&)>& message) {
    const std::string host = hostName();
    size_t fixed = 0;
    for (const Run& run : store.runs()) {
        if (run.status != RunStatus::Running)
            continue;
        auto tag = [&](const char* key) {
            auto it = run.tags.find(key);
            return it == run.tags.end() ? std::string() : it->second;
        };
        if (tag(kCollectorHostTag) != host || tag(kCollectorPidTag).empty())
            continue;
        long pid = 0;
        try {
            pid = std::stol(tag(kCollectorPidTag));
        } catch (...) {
            continue;
        }
        if (collectorAlive(pid, tag(kCollectorStartTag)))
            continue;
        int64_t end = run.startTime;
        for (const auto& [key, latest] : store.latestMetrics(run.uuid))
            end = std::max(end, latest.timestamp);
        const std::string why = "collector (pid " + std::to_string(pid) + " on " + host +
                                ") ended without closing the run";
        store.setTags(run.uuid, {{kFailureTag, why}});
        store.setRunStatus(run.uuid, RunStatus::Failed, end);
        ++fixed;
        if (message)
            message("run " + run.uuid + " '" + run.name + "' marked FAILED: its " + why);
    }
    return fixed;
}

} // namespace radt
