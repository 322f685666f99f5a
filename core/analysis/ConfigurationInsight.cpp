// SPDX-License-Identifier: MIT
#include "core/analysis/ConfigurationInsight.h"

#include "core/analysis/ConfigurationLabels.h"
#include "core/base/MetricKeys.h"
#include "core/base/Statistics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>

namespace radt {

using nlohmann::json;

const std::vector<std::string> kConfigurationFigures = {"duration_s", "gpu_energy_j", "energy_per_epoch_j",
                                                        "epoch_time_s", "gpu_util_pct"};
const std::vector<std::string> kBookkeepingParams = {"workload", "letter", "manual", "listeners", "devices"};
const size_t kAllPairsUpTo = 60;
const size_t kListUntestedUpTo = 20;

namespace {

/// The figures compared pairwise: duration and energy.
const std::vector<std::string> kComparedFigures = {"duration_s", "gpu_energy_j"};

} // namespace

std::optional<double> configurationFigure(const json& run, const std::string& figure) {
    if (figure == "gpu_energy_j") // what the run is charged with: its share of a shared GPU
        return run["gpu_energy_attributed_j"].is_number()
                   ? std::optional<double>(run["gpu_energy_attributed_j"])
                   : std::nullopt;
    if (figure == "energy_per_epoch_j")
        return run["energy_per_epoch_attributed_j"].is_number()
                   ? std::optional<double>(run["energy_per_epoch_attributed_j"])
                   : std::nullopt;
    if (figure == "gpu_util_pct") {
        for (const std::string& key : keysOfRole(KeyRole::GpuUtilisation))
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

std::string withoutRepeatFlags(const std::string& params, const std::vector<std::string>& repeatParams) {
    const std::vector<std::string> in = paramWords(params);
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

std::vector<std::string> runParamNames(const std::vector<Run>& runs) {
    std::set<std::string> names;
    for (const Run& run : runs)
        for (const auto& [name, value] : run.params) {
            names.insert(name);
            if (name == "params") // the script's own arguments: what withoutRepeatFlags() can leave out
                for (const auto& flag : readableParams({{name, value}}))
                    if (flag.first != "args")
                        names.insert(flag.first);
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

std::vector<std::vector<size_t>> replicatesOf(const std::vector<size_t>& members, bool sharedGpus,
                                              const json& reportRuns) {
    std::vector<std::vector<size_t>> replicates;
    std::map<std::string, size_t> indexOf; // workload id -> replicate, in the order first seen
    for (const size_t i : members) {
        const json& workload = reportRuns[i].value("workload", json());
        if (!sharedGpus || !workload.is_string()) { // a run alone, or shared outside any workload
            replicates.push_back({i});
            continue;
        }
        const auto [at, added] = indexOf.emplace(workload.get<std::string>(), replicates.size());
        if (added)
            replicates.emplace_back();
        replicates[at->second].push_back(i);
    }
    return replicates;
}

std::vector<std::vector<std::vector<size_t>>> configurationReplicates(const json& report) {
    const json& configurations = report.value("configurations", json::array());
    const json& runs = report.value("runs", json::array());
    std::vector<std::vector<size_t>> members(configurations.size());
    for (size_t i = 0; i < runs.size(); ++i)
        if (const json& c = runs[i].value("configuration", json());
            c.is_number() && c.get<size_t>() < members.size())
            members[c.get<size_t>()].push_back(i);
    std::vector<std::vector<std::vector<size_t>>> out;
    for (size_t c = 0; c < configurations.size(); ++c)
        out.push_back(
            replicatesOf(members[c], configurations[c].value("replicate", "run") == "workload", runs));
    return out;
}

namespace {

/// Runs grouped into configurations, in the order of their params (nameConfigurations), whatever
/// the order of the runs.
struct Grouping {
    std::vector<std::map<std::string, std::string>> keys;
    std::vector<std::vector<size_t>> members; ///< indexes into the report's runs
    std::vector<std::string> labels;
};

/// Puts the configurations in their common order and names them; the runs' indexes follow.
void orderAndName(Grouping& g, json& reportRuns) {
    std::vector<ParamMap> readable;
    for (const auto& key : g.keys)
        readable.push_back(readableParams(key));
    const ConfigurationNames names = nameConfigurations(readable);
    Grouping ordered;
    for (const size_t from : names.order) {
        ordered.keys.push_back(g.keys[from]);
        ordered.members.push_back(g.members[from]);
        ordered.labels.push_back(names.labels[from]);
        for (const size_t i : g.members[from])
            reportRuns[i]["configuration"] = ordered.keys.size() - 1;
    }
    g = std::move(ordered);
}

/// The params that tell the configurations apart ("telling_params", most telling first), and each
/// run's values of them ("telling", "" where unset): the columns a per-run table leads with, so a
/// reader sees which row is batch size 64. A failed run, in no configuration, gets its values too.
void nameTellingParams(json& report, const std::vector<Run>& runs, const ConfigurationOptions& options) {
    json& reportRuns = report["runs"];
    std::vector<ParamMap> readable;
    std::set<ParamMap> seen;
    for (size_t i = 0; i < runs.size() && i < reportRuns.size(); ++i) {
        const json& collocation = reportRuns[i]["collocation"];
        const size_t perGpu = collocation.is_object() ? collocation["shared_with"].size() + 1 : 1;
        readable.push_back(readableParams(configurationParams(runs[i], options.repeatParams, perGpu)));
    }
    std::vector<ParamMap> distinct;
    for (const ParamMap& key : readable)
        if (seen.insert(key).second)
            distinct.push_back(key);
    const std::vector<std::string> telling =
        distinct.size() > 1 ? tellingParams(distinct) : std::vector<std::string>{};
    report["telling_params"] = telling;
    for (size_t i = 0; i < readable.size(); ++i) {
        json values = json::object();
        for (const std::string& name : telling) {
            const auto it = readable[i].find(name);
            values[name] = it == readable[i].end() || it->second == "-" ? "" : it->second;
        }
        reportRuns[i]["telling"] = values;
    }
}

/// Groups the finished runs; the others get a null "configuration" and are counted, by status, in
/// the report's "left_out_of_configurations".
Grouping groupRuns(json& report, const std::vector<Run>& runs, const ConfigurationOptions& options) {
    json& reportRuns = report["runs"];
    Grouping g;
    std::map<std::map<std::string, std::string>, size_t> indexOf;
    json leftOut = json::object();
    for (size_t i = 0; i < runs.size() && i < reportRuns.size(); ++i) {
        if (!countsAsRepeat(runs[i].status)) {
            std::string status = toString(runs[i].status);
            std::transform(status.begin(), status.end(), status.begin(), ::tolower);
            leftOut[status] = leftOut.value(status, 0) + 1;
            reportRuns[i]["configuration"] = nullptr;
            continue;
        }
        const json& collocation = reportRuns[i]["collocation"];
        const size_t perGpu = collocation.is_object() ? collocation["shared_with"].size() + 1 : 1;
        const auto key = configurationParams(runs[i], options.repeatParams, perGpu);
        const auto [at, added] =
            indexOf.emplace(key, g.keys.size()); // a lookup, not a scan: 5,000 configurations
        const size_t index = at->second;
        if (added) {
            g.keys.push_back(key);
            g.members.emplace_back();
        }
        g.members[index].push_back(i);
        reportRuns[i]["configuration"] = index;
    }
    report["left_out_of_configurations"] = leftOut;
    orderAndName(g, reportRuns);
    nameTellingParams(report, runs, options);
    return g;
}

/// Each configuration's figures, replicate by replicate (a run, or a workload's jobs' mean):
/// values[c][figure].
using FigureValues = std::vector<std::map<std::string, std::vector<double>>>;

/// The configurations as JSON, named by the params that differ between them (all when alone).
json configurationsJson(const Grouping& g, const json& reportRuns, FigureValues& values) {
    // A param differs when some configuration lacks it or has another value: its values and how
    // many configurations have it, in one pass (a pass per pair was quadratic).
    std::map<std::string, std::pair<std::set<std::string>, size_t>> seen;
    for (const auto& key : g.keys)
        for (const auto& [name, value] : key) {
            seen[name].first.insert(value);
            ++seen[name].second;
        }
    std::set<std::string> differing;
    for (const auto& [name, valuesAndCount] : seen)
        if (valuesAndCount.first.size() > 1 || valuesAndCount.second < g.keys.size())
            differing.insert(name);
    json configurations = json::array();
    values.assign(g.keys.size(), {});
    for (size_t c = 0; c < g.keys.size(); ++c) {
        json params = json::object();
        for (const auto& [name, value] : g.keys[c])
            if (differing.count(name) || g.keys.size() == 1)
                params[name] = value;
        json uuids = json::array();
        for (const size_t i : g.members[c])
            uuids.push_back(reportRuns[i]["run_uuid"]);
        const auto perGpu = g.keys[c].find("runs_per_gpu");
        const bool shared = perGpu != g.keys[c].end() && perGpu->second != "1";
        const std::vector<std::vector<size_t>> replicates = replicatesOf(g.members[c], shared, reportRuns);
        const bool byWorkload = replicates.size() < g.members[c].size();
        json workloads = json::array();
        for (const std::vector<size_t>& replicate : replicates) {
            if (byWorkload)
                workloads.push_back(reportRuns[replicate.front()]["workload"]);
            for (const std::string& figure : kConfigurationFigures) {
                std::vector<double> jobs;
                for (const size_t i : replicate)
                    if (const auto v = configurationFigure(reportRuns[i], figure))
                        jobs.push_back(*v);
                if (!jobs.empty())
                    values[c][figure].push_back(stats::summarise(jobs)->mean);
            }
        }
        json statistics = json::object();
        for (const std::string& figure : kConfigurationFigures)
            statistics[figure] = summaryJson(values[c][figure]);
        json configuration = {{"label", g.labels[c]},
                              {"params", params},
                              {"runs", uuids},
                              {"n", replicates.size()},
                              {"replicate", byWorkload ? "workload" : "run"},
                              {"stats", statistics}};
        if (byWorkload)
            configuration["workloads"] = workloads;
        configurations.push_back(configuration);
    }
    return configurations;
}

/// The configuration --baseline names: "#K", its label, or the configuration of the run it names
/// (none when that run is not a repeat of any: running, failed, killed, or not reported).
std::optional<size_t> baselineConfiguration(const std::string& baseline, const json& reportRuns,
                                            const std::vector<std::string>& labels) {
    const size_t count = labels.size();
    if (const auto it = std::find(labels.begin(), labels.end(), baseline); it != labels.end())
        return size_t(it - labels.begin());
    if (!baseline.empty() && baseline[0] == '#') {
        const size_t k = std::strtoul(baseline.c_str() + 1, nullptr, 10);
        return k < count ? std::optional<size_t>(k) : std::nullopt;
    }
    std::optional<size_t> found;
    if (!baseline.empty())
        for (const json& run : reportRuns)
            if (run["run_uuid"].get<std::string>().rfind(baseline, 0) == 0 &&
                run["configuration"].is_number())
                found = run["configuration"].get<size_t>();
    return found;
}

/// Welch's test of configuration b against a for each compared figure both have. A pair that
/// cannot be tested (a side with one run, or no spread) is listed only when `listUntested`, and
/// counted in `untested` either way.
void compareConfigurations(const FigureValues& values, size_t a, size_t b, bool listUntested,
                           json& comparisons, size_t& untested) {
    for (const std::string& figure : kComparedFigures) {
        const auto ia = values[a].find(figure), ib = values[b].find(figure);
        if (ia == values[a].end() || ib == values[b].end() || ia->second.empty() || ib->second.empty())
            continue;
        const std::vector<double>& va = ia->second;
        const std::vector<double>& vb = ib->second;
        const auto w = stats::welchTest(va, vb);
        if (!w) {
            ++untested;
            if (!listUntested)
                continue;
        }
        const double ma = stats::summarise(va)->mean, mb = stats::summarise(vb)->mean;
        comparisons.push_back(
            {{"a", a},
             {"b", b},
             {"figure", figure},
             {"n_a", va.size()},
             {"n_b", vb.size()},
             {"ratio", ma != 0 ? json(mb / ma) : json(nullptr)},
             {"welch_t", w ? json(w->t) : json(nullptr)},
             {"df", w ? json(w->df) : json(nullptr)},
             {"p_value", w ? json(w->p) : json(nullptr)},
             {"diff", mb - ma},
             {"diff_ci95", w ? json::array({w->diffCi95.first, w->diffCi95.second}) : json(nullptr)}});
    }
}

/// Each comparison's Holm-adjusted p over the comparisons of the same figure (one family per
/// figure: duration's tests do not dilute energy's).
void adjustForManyComparisons(json& comparisons) {
    for (const std::string& figure : kComparedFigures) {
        std::vector<size_t> family;
        std::vector<std::optional<double>> p;
        for (size_t k = 0; k < comparisons.size(); ++k)
            if (comparisons[k]["figure"] == figure) {
                family.push_back(k);
                const json& raw = comparisons[k]["p_value"];
                p.push_back(raw.is_number() ? std::optional<double>(raw.get<double>()) : std::nullopt);
            }
        const auto adjusted = stats::holmAdjusted(p);
        for (size_t i = 0; i < family.size(); ++i)
            comparisons[family[i]]["p_adjusted"] = adjusted[i] ? json(*adjusted[i]) : json(nullptr);
    }
}

/// The configurations on the front of mean duration against mean energy.
json paretoOf(const FigureValues& values) {
    std::vector<std::optional<std::pair<double, double>>> points;
    for (const auto& figures : values) {
        const auto d = figures.find("duration_s"), e = figures.find("gpu_energy_j");
        const bool both =
            d != figures.end() && e != figures.end() && !d->second.empty() && !e->second.empty();
        points.push_back(both ? std::optional<std::pair<double, double>>(
                                    {stats::summarise(d->second)->mean, stats::summarise(e->second)->mean})
                              : std::nullopt);
    }
    return stats::paretoFront(points);
}

} // namespace

size_t configurationN(const json& configuration) {
    return configuration.value("n", configuration.value("runs", json::array()).size());
}

bool countsAsRepeat(RunStatus status) {
    return status == RunStatus::Finished;
}

void addConfigurations(json& report, const std::vector<Run>& runs, const ConfigurationOptions& options) {
    const Grouping g = groupRuns(report, runs, options);
    FigureValues values;
    report["configurations"] = configurationsJson(g, report["runs"], values);
    // Comparisons: each pair, or each against one reference (the baseline's configuration, or the
    // first when there are too many for every pair): the work and the output grow linearly.
    const size_t count = g.keys.size();
    std::optional<size_t> reference = baselineConfiguration(options.baseline, report["runs"], g.labels);
    std::string scope = reference ? "baseline" : "all pairs";
    if (!reference && count > kAllPairsUpTo) {
        reference = 0;
        scope = "first";
    }
    const bool listUntested = count <= kListUntestedUpTo;
    size_t untested = 0;
    json comparisons = json::array();
    if (reference) {
        for (size_t c = 0; c < count; ++c)
            if (c != *reference)
                compareConfigurations(values, *reference, c, listUntested, comparisons, untested);
    } else {
        for (size_t a = 0; a < count; ++a)
            for (size_t b = a + 1; b < count; ++b)
                compareConfigurations(values, a, b, listUntested, comparisons, untested);
    }
    adjustForManyComparisons(comparisons);
    report["comparisons"] = comparisons;
    report["comparisons_scope"] = {{"each_against", reference ? json(*reference) : json(nullptr)},
                                   {"why", scope},
                                   {"untested", untested},
                                   {"untested_listed", listUntested}};
    report["pareto"] = paretoOf(values);
}

std::string leftOutOfConfigurationsNote(const json& report) {
    std::string counts;
    const json leftOut = report.value("left_out_of_configurations", json::object());
    for (const auto& [status, count] : leftOut.items())
        counts += (counts.empty() ? "" : ", ") + std::to_string(count.get<size_t>()) + " " + status;
    if (counts.empty())
        return {};
    return "left out of configurations: " + counts +
           " (only finished runs are repeats: a running run has done part of its work, a failed or "
           "killed one stopped short)";
}

std::string replicatesNote(const json& report) {
    std::string note;
    const json& configurations = report.value("configurations", json::array());
    for (size_t c = 0; c < configurations.size(); ++c) {
        const json& configuration = configurations[c];
        if (configuration.value("replicate", "run") != "workload")
            continue;
        note += (note.empty() ? "" : "\n") + std::string("N of #") + std::to_string(c) + " (" +
                configuration.value("label", "") + ") counts workloads, not runs: its " +
                std::to_string(configuration["runs"].size()) + " runs shared GPUs in " +
                std::to_string(configurationN(configuration)) +
                (configurationN(configuration) == 1 ? " workload" : " workloads") +
                ", whose jobs ran at the same time; each workload is one replicate (its jobs' mean)";
    }
    return note;
}

std::string comparisonsScopeNote(const json& report) {
    const json scope = report.value("comparisons_scope", json::object());
    std::string note;
    if (scope.value("why", "") == "first")
        note = "each configuration is compared with #0 only: every pair is compared up to " +
               std::to_string(kAllPairsUpTo) + " configurations (--baseline K chooses the reference)";
    const size_t untested = scope.value("untested", size_t(0));
    if (untested > 0 && !scope.value("untested_listed", true))
        note += (note.empty() ? "" : "\n") + std::to_string(untested) +
                " comparisons could not be tested (a configuration with one run, or no spread) and are "
                "not listed: they are listed up to " +
                std::to_string(kListUntestedUpTo) + " configurations";
    return note;
}

} // namespace radt
