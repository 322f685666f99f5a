#include "ConfigurationInsight.h"

#include "Statistics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

namespace radt {

using nlohmann::json;

const std::vector<std::string> kConfigurationFigures = {"duration_s", "gpu_energy_j", "energy_per_epoch_j",
                                                        "epoch_time_s", "gpu_util_pct"};
const std::vector<std::string> kBookkeepingParams = {"workload", "letter", "manual", "listeners", "devices"};

namespace {

/// The figures compared pairwise (issue 23: duration and energy).
const std::vector<std::string> kComparedFigures = {"duration_s", "gpu_energy_j"};

/// A run's value of a configuration figure from its report entry; unset where it lacks it.
std::optional<double> figureOf(const json& run, const std::string& figure) {
    if (figure == "gpu_energy_j") // what the run is charged with: its share of a shared GPU
        return run["gpu_energy_attributed_j"].is_number()
                   ? std::optional<double>(run["gpu_energy_attributed_j"])
                   : std::nullopt;
    if (figure == "energy_per_epoch_j")
        return run["energy_per_epoch_attributed_j"].is_number()
                   ? std::optional<double>(run["energy_per_epoch_attributed_j"])
                   : std::nullopt;
    if (figure == "gpu_util_pct") {
        for (const char* key : {"DCGMI - GPU Utilization", "SMI - GPU Util"})
            if (const json& u = run["util"].value(key, json()); u.is_object() && u["scale"].get<double>() > 0)
                return u["mean"].get<double>() / u["scale"].get<double>() * 100.0;
        return std::nullopt;
    }
    const json& v = run.value(figure, json());
    return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
}

json summaryJson(const std::vector<double>& values) {
    const auto s = stats::summarise(values);
    if (!s)
        return {{"n", 0}, {"mean", nullptr}, {"sd", nullptr}, {"ci95", nullptr}};
    return {{"n", s->n},
            {"mean", s->mean},
            {"sd", s->sd ? json(*s->sd) : json(nullptr)},
            {"ci95", s->ci95 ? json::array({s->ci95->first, s->ci95->second}) : json(nullptr)}};
}

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

} // namespace

std::string withoutRepeatFlags(const std::string& params, const std::vector<std::string>& repeatParams) {
    const std::vector<std::string> in = words(params);
    std::string out;
    for (size_t i = 0; i < in.size(); ++i) {
        bool repeat = false;
        for (const std::string& name : repeatParams) {
            for (const std::string& flag : {"--" + name, "-" + name, name}) {
                if (in[i] == flag && flag != name) { // "--seed 3": the flag and its value
                    repeat = true;
                    ++i;
                } else if (in[i].rfind(flag + "=", 0) == 0) { // "--seed=3", radT's "seed=3"
                    repeat = true;
                }
                if (repeat)
                    break;
            }
            if (repeat)
                break;
        }
        if (!repeat)
            out += (out.empty() ? "" : " ") + in[i];
    }
    return out;
}

namespace {

/// The param a word of a `params` string sets: "seed" of "--seed", "-seed=3" and radT's
/// "seed=3"; "" for a value ("3", "-1").
std::string flagName(const std::string& word) {
    const size_t dashes = word.find_first_not_of('-');
    if (dashes == std::string::npos || (dashes == 0 && word.find('=') == std::string::npos))
        return {};
    const std::string name = word.substr(dashes, word.find('=', dashes) - dashes);
    return name.empty() || ::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '.' ? std::string()
                                                                                            : name;
}

} // namespace

std::vector<std::string> runParamNames(const std::vector<Run>& runs) {
    std::set<std::string> names;
    for (const Run& run : runs)
        for (const auto& [name, value] : run.params) {
            names.insert(name);
            if (name == "params") // the script's own arguments: what withoutRepeatFlags() can leave out
                for (const std::string& word : words(value))
                    if (std::string flag = flagName(word); !flag.empty())
                        names.insert(std::move(flag));
        }
    return {names.begin(), names.end()};
}

std::vector<std::string> unknownRepeatParams(const std::vector<Run>& runs,
                                             const std::vector<std::string>& repeatParams) {
    const std::vector<std::string> known = runParamNames(runs);
    std::vector<std::string> unknown;
    for (const std::string& name : repeatParams)
        if (!std::binary_search(known.begin(), known.end(), name))
            unknown.push_back(name);
    return unknown;
}

std::map<std::string, std::string>
configurationParams(const Run& run, const std::vector<std::string>& repeatParams, size_t runsPerGpu) {
    std::map<std::string, std::string> key;
    for (const auto& [name, value] : run.params) {
        if (std::count(kBookkeepingParams.begin(), kBookkeepingParams.end(), name) ||
            std::count(repeatParams.begin(), repeatParams.end(), name))
            continue;
        key[name] = name == "params" ? withoutRepeatFlags(value, repeatParams) : value;
    }
    if (key.count("collocation") && key["collocation"].empty())
        key["collocation"] = "-";
    key["runs_per_gpu"] = std::to_string(runsPerGpu);
    return key;
}

void addConfigurations(json& report, const std::vector<Run>& runs, const ConfigurationOptions& options) {
    json& reportRuns = report["runs"];
    // Group in the report's order: the first run of a configuration gives its place.
    std::vector<std::map<std::string, std::string>> keys;
    std::vector<std::vector<size_t>> members;
    for (size_t i = 0; i < runs.size() && i < reportRuns.size(); ++i) {
        const json& collocation = reportRuns[i]["collocation"];
        const size_t perGpu = collocation.is_object() ? collocation["shared_with"].size() + 1 : 1;
        const auto key = configurationParams(runs[i], options.repeatParams, perGpu);
        const auto at = std::find(keys.begin(), keys.end(), key);
        const size_t index = size_t(at - keys.begin());
        if (at == keys.end()) {
            keys.push_back(key);
            members.emplace_back();
        }
        members[index].push_back(i);
        reportRuns[i]["configuration"] = index;
    }

    // Name each configuration by the params that differ between them (all of them when alone).
    std::set<std::string> differing;
    for (const auto& key : keys)
        for (const auto& [name, value] : key)
            for (const auto& other : keys)
                if (!other.count(name) || other.at(name) != value)
                    differing.insert(name);
    json configurations = json::array();
    std::vector<std::map<std::string, std::vector<double>>> values(keys.size());
    for (size_t c = 0; c < keys.size(); ++c) {
        json params = json::object();
        for (const auto& [name, value] : keys[c])
            if (differing.count(name) || keys.size() == 1)
                params[name] = value;
        json uuids = json::array();
        for (const size_t i : members[c]) {
            uuids.push_back(reportRuns[i]["run_uuid"]);
            for (const std::string& figure : kConfigurationFigures)
                if (const auto v = figureOf(reportRuns[i], figure))
                    values[c][figure].push_back(*v);
        }
        json statistics = json::object();
        for (const std::string& figure : kConfigurationFigures)
            statistics[figure] = summaryJson(values[c][figure]);
        configurations.push_back({{"params", params}, {"runs", uuids}, {"stats", statistics}});
    }
    report["configurations"] = configurations;

    // Comparisons: each pair, or each against the baseline's configuration.
    std::optional<size_t> baseline;
    if (!options.baseline.empty() && options.baseline[0] == '#') {
        const size_t k = std::strtoul(options.baseline.c_str() + 1, nullptr, 10);
        if (k < keys.size())
            baseline = k;
    } else if (!options.baseline.empty()) {
        for (size_t i = 0; i < reportRuns.size(); ++i)
            if (reportRuns[i]["run_uuid"].get<std::string>().rfind(options.baseline, 0) == 0)
                baseline = reportRuns[i]["configuration"].get<size_t>();
    }
    json comparisons = json::array();
    auto compare = [&](size_t a, size_t b) {
        for (const std::string& figure : kComparedFigures) {
            const std::vector<double>& va = values[a][figure];
            const std::vector<double>& vb = values[b][figure];
            if (va.empty() || vb.empty())
                continue;
            const double ma = stats::summarise(va)->mean, mb = stats::summarise(vb)->mean;
            const auto w = stats::welchTest(va, vb);
            comparisons.push_back({{"a", a},
                                   {"b", b},
                                   {"figure", figure},
                                   {"n_a", va.size()},
                                   {"n_b", vb.size()},
                                   {"ratio", ma != 0 ? json(mb / ma) : json(nullptr)},
                                   {"welch_t", w ? json(w->t) : json(nullptr)},
                                   {"df", w ? json(w->df) : json(nullptr)},
                                   {"p_value", w ? json(w->p) : json(nullptr)}});
        }
    };
    for (size_t a = 0; a < keys.size(); ++a)
        for (size_t b = a + 1; b < keys.size(); ++b) {
            if (!baseline)
                compare(a, b);
            else if (a == *baseline || b == *baseline)
                compare(*baseline, a == *baseline ? b : a);
        }
    report["comparisons"] = comparisons;

    std::vector<std::optional<std::pair<double, double>>> points;
    for (size_t c = 0; c < keys.size(); ++c) {
        const auto& d = values[c]["duration_s"];
        const auto& e = values[c]["gpu_energy_j"];
        points.push_back(d.empty() || e.empty()
                             ? std::nullopt
                             : std::optional<std::pair<double, double>>(
                                   {stats::summarise(d)->mean, stats::summarise(e)->mean}));
    }
    report["pareto"] = stats::paretoFront(points);
}

} // namespace radt
