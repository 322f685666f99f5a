// SPDX-License-Identifier: MIT
#include "core/store/RunReconciler.h"

#include "core/store/SpillFile.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace radt {

namespace fs = std::filesystem;

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

namespace {

/// Writes what a run's collector kept in its spill file; the tag then says how many are still
/// missing. Returns false (file kept, nothing changed) when the store refuses.
bool importKeptSamples(Store& store, const Run& run, const std::string& spill,
                       const std::function<void(const std::string&)>& message) {
    std::error_code ec;
    if (spill.empty() || !fs::is_regular_file(spill, ec))
        return true;
    size_t imported = 0;
    try {
        imported = importSpillFile(store, spill);
        std::vector<std::pair<std::string, std::string>> tags;
        if (auto it = run.tags.find(kUnwrittenSamplesTag); it != run.tags.end())
            tags.emplace_back(kUnwrittenSamplesTag,
                              std::to_string(std::max(0LL, std::atoll(it->second.c_str()) -
                                                               static_cast<long long>(imported))));
        if (imported)
            tags.emplace_back(kSpillFileTag,
                              "written by a later radt: " + std::to_string(imported) + " samples");
        if (!tags.empty())
            store.setTags(run.uuid, tags);
    } catch (const StoreError& e) {
        if (message)
            message("run " + run.uuid + ": the samples kept in " + spill +
                    " could not be written yet: " + e.what());
        return false;
    }
    fs::remove(spill, ec);
    if (message && imported)
        message("run " + run.uuid + " '" + run.name + "': " + std::to_string(imported) +
                " samples its collector could not store were written from " + spill);
    return true;
}

size_t reconcileRuns(Store& store, const std::function<void(const std::string&)>& message);

} // namespace

size_t reconcileOrphanedRuns(Store& store, const std::function<void(const std::string&)>& message) {
    try {
        return reconcileRuns(store, message);
    } catch (const StoreError& e) {
        // A store we can read but not write (read-only file or folder): looking stays possible.
        if (message)
            message("runs left RUNNING by a dead collector are not marked FAILED: " + std::string(e.what()));
        return 0;
    }
}

namespace {

size_t reconcileRuns(Store& store, const std::function<void(const std::string&)>& message) {
    const std::string host = hostName();
    size_t fixed = 0;
    for (const Run& run : store.runs()) {
        auto tag = [&](const char* key) {
            auto it = run.tags.find(key);
            return it == run.tags.end() ? std::string() : it->second;
        };
        if (run.status != RunStatus::Running) {
            // Closed, but its samples waited on disk (the store took the ending, not the samples).
            importKeptSamples(store, run, tag(kSpillFileTag), message);
            continue;
        }
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
        const std::string dir = run.artifactUri;
        PendingClose pending;
        const bool hasPending = !dir.empty() && readPendingClose(dir, pending);
        Run withPending = run; // the loss count its collector meant to tag, for the import's tag
        for (const auto& [k, v] : pending.tags)
            withPending.tags[k] = v;
        if (!importKeptSamples(store, withPending, dir.empty() ? "" : dir + "/" + kSpillFileName, message))
            continue; // the store still refuses: the next one tries again, nothing is decided yet
        if (hasPending) {
            // Its collector ended it but could not write that: the ending it left, not FAILED.
            std::vector<std::pair<std::string, std::string>> tags;
            for (auto& t : pending.tags)
                if (t.first != kSpillFileTag && t.first != kUnwrittenSamplesTag) // the import set those
                    tags.push_back(t);
            if (!tags.empty())
                store.setTags(run.uuid, tags);
            store.setRunStatus(run.uuid, pending.status, pending.endTime);
            std::error_code ec;
            fs::remove(dir + "/" + kPendingCloseFileName, ec);
            ++fixed;
            if (message)
                message("run " + run.uuid + " '" + run.name + "' closed " + toString(pending.status) +
                        " as its collector (pid " + std::to_string(pid) + ") left it");
            continue;
        }
        int64_t end = run.startTime;
        for (const auto& [key, latest] : store.latestMetrics(run.uuid))
            end = std::max(end, latest.timestamp);
        const std::string why =
            "collector (pid " + std::to_string(pid) + " on " + host + ") ended without closing the run";
        store.setTags(run.uuid, {{kFailureTag, why}});
        store.setRunStatus(run.uuid, RunStatus::Failed, end);
        ++fixed;
        if (message)
            message("run " + run.uuid + " '" + run.name + "' marked FAILED: its " + why);
    }
    return fixed;
}

} // namespace

} // namespace radt
