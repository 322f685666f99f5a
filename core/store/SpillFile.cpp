// SPDX-License-Identifier: MIT
#include "core/store/SpillFile.h"

#include "core/base/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace radt {

bool appendSpillPoints(std::FILE* file, const std::string& runUuid, const std::vector<MetricPoint>& points) {
    for (const MetricPoint& p : points) // keys never hold tabs or newlines (MLflow's key rule)
        std::fprintf(file, "%s\t%lld\t%lld\t%.17g\t%s\n", runUuid.c_str(),
                     static_cast<long long>(p.timestamp), static_cast<long long>(p.step), p.value,
                     p.key.c_str());
    return std::fflush(file) == 0 && !std::ferror(file);
}

bool parseSpillLine(const std::string& line, std::string& runUuid, MetricPoint& point) {
    std::istringstream in(line);
    std::string timestamp, step, value;
    if (!std::getline(in, runUuid, '\t') || !std::getline(in, timestamp, '\t') ||
        !std::getline(in, step, '\t') || !std::getline(in, value, '\t') || !std::getline(in, point.key) ||
        runUuid.empty() || point.key.empty())
        return false;
    char* end = nullptr;
    point.timestamp = std::strtoll(timestamp.c_str(), &end, 10);
    if (end == timestamp.c_str() || *end)
        return false;
    point.step = std::strtoll(step.c_str(), &end, 10);
    if (end == step.c_str() || *end)
        return false;
    point.value = std::strtod(value.c_str(), &end);
    return end != value.c_str() && !*end;
}

size_t importSpillFile(Store& store, const std::string& path) {
    std::ifstream in(path);
    std::map<std::string, std::vector<MetricPoint>> byRun;
    size_t total = 0;
    auto flush = [&] {
        for (auto& [run, points] : byRun)
            if (!points.empty())
                store.logMetrics(run, points);
        byRun.clear();
    };
    std::string line, run;
    size_t pending = 0;
    while (std::getline(in, line)) {
        MetricPoint p;
        if (!parseSpillLine(line, run, p))
            continue;
        byRun[run].push_back(std::move(p));
        ++total;
        if (++pending == 10000) {
            flush();
            pending = 0;
        }
    }
    flush();
    return total;
}

void writePendingClose(const std::string& dir, const PendingClose& close) {
    nlohmann::json j;
    j["status"] = toString(close.status);
    j["end_time"] = close.endTime;
    for (const auto& [k, v] : close.tags)
        j["tags"][k] = v;
    writeFileAtomically(dir + "/" + kPendingCloseFileName, j.dump(2) + "\n");
}

bool readPendingClose(const std::string& dir, PendingClose& close) {
    std::ifstream in(dir + "/" + kPendingCloseFileName);
    if (!in)
        return false;
    try {
        const nlohmann::json j = nlohmann::json::parse(in);
        const auto status = runStatusFromString(j.at("status").get<std::string>());
        if (!status)
            return false;
        close.status = *status;
        close.endTime = j.at("end_time").get<int64_t>();
        close.tags.clear();
        if (j.contains("tags"))
            for (const auto& [k, v] : j.at("tags").items())
                close.tags.emplace_back(k, v.get<std::string>());
        return true;
    } catch (const std::exception&) {
        return false; // torn or edited by hand: the run is then reconciled like any orphan
    }
}

} // namespace radt
