// SPDX-License-Identifier: MIT
#include "core/report/EnvironmentReport.h"

#include "core/store/StoreUri.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <unistd.h>

namespace radt {

using nlohmann::json;

ArtifactContext artifactContextOfStore(const std::string& storeUri) {
    ArtifactContext context;
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0)
        context.thisHost = host;
    try {
        const StoreUri uri = parseStoreUri(storeUri);
        context.storeOnServer = uri.kind == StoreUri::Kind::Postgres;
        if (uri.kind == StoreUri::Kind::Sqlite)
            context.relativeBase = std::filesystem::absolute(uri.path).parent_path().string();
    } catch (const std::exception&) {
        // not a store URI: artifacts are looked for as the run's paths say
    }
    return context;
}

void addEnvironmentDiffs(json& report, const std::vector<Run>& runs, const ArtifactContext& context) {
    if (!report.is_object() || !report["configurations"].is_array())
        return;
    std::map<std::string, const Run*> byUuid;
    for (const Run& run : runs)
        byUuid[run.uuid] = &run;
    std::map<std::string, RunEnvironment> read; // each run once, however many configurations
    for (json& configuration : report["configurations"]) {
        std::vector<std::string> uuids;
        std::vector<RunEnvironment> environments;
        for (const json& u : configuration.value("runs", json::array())) {
            const auto run = byUuid.find(u.get<std::string>());
            if (run == byUuid.end())
                continue;
            auto it = read.find(run->first);
            if (it == read.end())
                it = read.emplace(run->first, readRunEnvironment(*run->second, context)).first;
            uuids.push_back(run->first);
            environments.push_back(it->second);
        }
        json differs = json::array();
        if (environments.size() >= 2)
            for (const EnvironmentRow& row : differingRows(diffEnvironments(environments))) {
                json values = json::object();
                for (size_t r = 0; r < uuids.size(); ++r)
                    values[uuids[r]] = row.values[r];
                differs.push_back({{"item", row.item}, {"values", values}});
            }
        // Lines of the captures not understood: the package they name shows as "(absent)", so the
        // command line says them as the explorer's tab does.
        json problems = json::object();
        for (size_t r = 0; r < uuids.size(); ++r)
            if (!environments[r].problems.empty())
                problems[uuids[r]] = environments[r].problems;
        configuration["environment"] = {{"differs", differs}, {"not_understood", problems}};
    }
}

std::vector<std::string> differingEnvironmentItems(const json& configuration) {
    std::vector<std::string> items;
    if (!configuration.is_object() || !configuration.contains("environment"))
        return items;
    for (const json& d : configuration["environment"].value("differs", json::array()))
        items.push_back(d.value("item", std::string()));
    return items;
}

namespace {

/// `text` cut to `width` bytes ("..." at its end when cut), padded to it.
std::string cell(const std::string& text, size_t width) {
    std::string out = text.size() > width ? text.substr(0, width - 3) + "..." : text;
    return out + std::string(width - std::min(width, out.size()), ' ');
}

/// "  not understood, run 1a2b3c4d: pip.txt line 3: ...", a line each.
void writeNotUnderstood(std::ostringstream& out, const json& configuration) {
    const json notUnderstood =
        configuration.value("environment", json::object()).value("not_understood", json::object());
    for (const auto& [uuid, lines] : notUnderstood.items())
        for (const json& line : lines)
            out << "  not understood, run " << uuid.substr(0, 8) << ": " << line.get<std::string>() << "\n";
}

void writeConfigurationDiffs(std::ostringstream& out, size_t index, const json& configuration) {
    const std::vector<std::string> uuids = configuration.value("runs", std::vector<std::string>());
    out << "#" << index << " " << configuration.value("label", std::string()) << " (" << uuids.size()
        << (uuids.size() == 1 ? " run" : " runs") << "): ";
    const json& differs = configuration["environment"].value("differs", json::array());
    if (uuids.size() < 2) {
        out << "one run, nothing to compare\n";
        return;
    }
    if (differs.empty()) {
        out << "its runs share one environment\n";
        return;
    }
    out << differs.size() << (differs.size() == 1 ? " item differs" : " items differ") << "\n";
    constexpr size_t kMaxWidth = 40;
    size_t itemWidth = 4;
    for (const json& d : differs)
        itemWidth = std::min(kMaxWidth, std::max(itemWidth, d["item"].get<std::string>().size()));
    std::vector<size_t> widths;
    for (const std::string& uuid : uuids) {
        size_t w = 8; // the run's id as a column head
        for (const json& d : differs)
            w = std::max(w, d["values"].value(uuid, std::string()).size());
        widths.push_back(std::min(kMaxWidth, w));
    }
    out << "  " << cell("item", itemWidth);
    for (size_t r = 0; r < uuids.size(); ++r)
        out << "  " << cell(uuids[r].substr(0, 8), widths[r]);
    out << "\n";
    for (const json& d : differs) {
        std::string line = "  " + cell(d["item"].get<std::string>(), itemWidth);
        for (size_t r = 0; r < uuids.size(); ++r)
            line += "  " + cell(d["values"].value(uuids[r], std::string()), widths[r]);
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << "\n";
    }
}

void writeConfiguration(std::ostringstream& out, size_t index, const json& configuration) {
    writeConfigurationDiffs(out, index, configuration);
    writeNotUnderstood(out, configuration);
}

} // namespace

std::string environmentDiffTable(const json& report) {
    std::ostringstream out;
    const json& configurations = report.value("configurations", json::array());
    out << "What each configuration's runs ran on, where they differ (pip.txt, conda.txt, smi.txt, radt.* "
           "tags)\n";
    if (configurations.empty())
        out << "No configurations: no finished runs among those named.\n";
    for (size_t c = 0; c < configurations.size(); ++c)
        writeConfiguration(out, c, configurations[c]);
    return out.str();
}

} // namespace radt
