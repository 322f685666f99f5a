// SPDX-License-Identifier: MIT
#include "core/store/StoreListing.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace radt {

namespace {

// Workloads in numeric order when they are numbers ("2" before "10"), the unsorted bucket last.
struct WorkloadOrder {
    bool operator()(const std::string& a, const std::string& b) const {
        if (a.empty() != b.empty())
            return b.empty();
        const bool na = !a.empty() && a.find_first_not_of("0123456789") == std::string::npos && a.size() < 18;
        const bool nb = !b.empty() && b.find_first_not_of("0123456789") == std::string::npos && b.size() < 18;
        if (na && nb)
            return std::stoll(a) < std::stoll(b);
        if (na != nb)
            return na;
        return a < b;
    }
};

using Grouped = std::map<int64_t, std::map<std::string, std::vector<const Run*>, WorkloadOrder>>;

Grouped group(const std::vector<Run>& runs) {
    Grouped g;
    for (const Run& r : runs)
        g[r.experimentId][r.workload()].push_back(&r);
    return g;
}

std::string formatValue(double v) {
    if (std::isnan(v))
        return "NaN";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

} // namespace

nlohmann::json storeListingJson(Store& store, const std::vector<RunCondition>& filter,
                                const std::string& filterText) {
    const bool filtered = !filterText.empty();
    const std::vector<Run> runs = filtered ? store.searchRuns(filter) : store.runs();
    const Grouped grouped = group(runs);
    nlohmann::json experiments = nlohmann::json::array();
    for (const Experiment& e : store.experiments()) {
        nlohmann::json workloads = nlohmann::json::array();
        auto it = grouped.find(e.id);
        if (filtered && it == grouped.end())
            continue; // an experiment none of whose runs matched
        if (it != grouped.end()) {
            for (const auto& [workload, list] : it->second) {
                nlohmann::json jruns = nlohmann::json::array();
                for (const Run* r : list) {
                    nlohmann::json latest = nlohmann::json::object();
                    for (const auto& [key, m] : store.latestMetrics(r->uuid))
                        latest[key] = std::isfinite(m.value) ? nlohmann::json(m.value) : nlohmann::json();
                    jruns.push_back(
                        {{"run_uuid", r->uuid},
                         {"name", r->name},
                         {"status", toString(r->status)},
                         {"letter",
                          r->params.count("letter") ? nlohmann::json(r->letter()) : nlohmann::json()},
                         {"start_time", r->startTime},
                         {"end_time", r->endTime ? nlohmann::json(*r->endTime) : nlohmann::json()},
                         {"params", r->params},
                         {"latest_metrics", latest}});
                }
                workloads.push_back({{"id", workload.empty() ? nlohmann::json() : nlohmann::json(workload)},
                                     {"runs", jruns}});
            }
        }
        experiments.push_back({{"id", e.id}, {"name", e.name}, {"workloads", workloads}});
    }
    nlohmann::json listing = {{"store", store.displayUri()}, {"experiments", experiments}};
    if (filtered)
        listing["filter"] = filterText;
    return listing;
}

std::string storeListingText(Store& store, const std::vector<RunCondition>& filter,
                             const std::string& filterText) {
    std::ostringstream out;
    const bool filtered = !filterText.empty();
    const std::vector<Run> runs = filtered ? store.searchRuns(filter) : store.runs();
    const Grouped grouped = group(runs);
    const int64_t now = nowMs();
    out << "store " << store.displayUri() << "\n";
    if (filtered)
        out << runs.size() << (runs.size() == 1 ? " run matches " : " runs match ") << filterText << "\n";
    for (const Experiment& e : store.experiments()) {
        auto it = grouped.find(e.id);
        if (filtered && it == grouped.end())
            continue; // an experiment none of whose runs matched
        const size_t count = it == grouped.end() ? 0 : it->second.size();
        out << "experiment " << e.id << " \"" << e.name << "\"" << (count ? "" : "  (no runs)") << "\n";
        if (it == grouped.end())
            continue;
        for (const auto& [workload, list] : it->second) {
            out << "  workload " << (workload.empty() ? "(unsorted)" : workload) << "\n";
            for (const Run* r : list) {
                out << "    " << r->uuid << "  " << r->name << "  " << toString(r->status);
                if (!r->letter().empty())
                    out << "  letter " << r->letter();
                out << "  start " << formatLocalTime(r->startTime) << "  duration "
                    << formatDuration(r->durationMs(now)) << "\n";
                if (!r->param("params").empty())
                    out << "      params: " << r->param("params") << "\n";
                for (const auto& [key, m] : store.latestMetrics(r->uuid))
                    out << "      " << key << " = " << formatValue(m.value) << "\n";
            }
        }
    }
    return out.str();
}

} // namespace radt
