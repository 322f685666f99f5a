// SPDX-License-Identifier: MIT
#include "core/report/RunJudgement.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/InsightReport.h"
#include "core/base/RunFilter.h"
#include "core/base/Statistics.h"
#include "core/base/TextFormat.h"
#include "core/report/EnvironmentReport.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace radt {

using nlohmann::json;

const std::vector<JudgedFigure> kJudgedFigures = {
    {"duration_s", "duration", "duration", "s", "slower", "faster", "it has no end time"},
    {"gpu_energy_j", "gpu_energy", "GPU energy", "J", "more GPU energy", "less GPU energy",
     "no GPU power or energy was recorded"},
    {"energy_per_epoch_j", "energy_per_epoch", "energy per epoch", "J", "more energy per epoch",
     "less energy per epoch", "it has no GPU energy or logs no epochs"},
    {"throughput_epochs_per_h", "throughput", "throughput", "epochs/h", "higher throughput",
     "lower throughput", "it logs no epochs (a metric at two steps or more)"},
};

namespace {

constexpr double kLevel = 0.95;

/// A run's value of a judged figure from its report entry: throughput is epochs per hour (the
/// inverse of the mean epoch time), the others as configurations count them.
std::optional<double> judgedValue(const json& reportRun, const std::string& figure) {
    if (figure == "throughput_epochs_per_h") {
        const json& epoch = reportRun.value("epoch_time_s", json());
        return epoch.is_number() && epoch.get<double>() > 0
                   ? std::optional<double>(3600.0 / epoch.get<double>())
                   : std::nullopt;
    }
    return configurationFigure(reportRun, figure);
}

/// The runs that may be the run's history: finished runs of its experiment with the same values
/// of the params that make configurations (found by the store's search, not by reading every run),
/// started before it and not in its workload (its partners ran beside it, not before), the latest
/// `maxHistory` of them, oldest first.
std::vector<Run> historyCandidates(Store& store, const Run& run, const JudgeOptions& options) {
    std::vector<RunCondition> conditions;
    RunCondition finished;
    finished.entity = RunCondition::Entity::Attribute;
    finished.key = "status";
    finished.op = "=";
    finished.values = {"FINISHED"};
    conditions.push_back(finished);
    for (const auto& [key, value] : run.params) {
        const bool setAside = key == "params" ||
                              std::count(kBookkeepingParams.begin(), kBookkeepingParams.end(), key) ||
                              std::count(options.repeatParams.begin(), options.repeatParams.end(), key);
        if (setAside)
            continue;
        RunCondition same;
        same.key = key;
        same.op = "=";
        same.values = {value};
        conditions.push_back(same);
    }
    std::vector<Run> candidates;
    for (Run& r : store.searchRuns(conditions, run.experimentId)) {
        const bool partner = !run.workload().empty() && r.workload() == run.workload();
        if (r.uuid != run.uuid && r.startTime < run.startTime && !partner)
            candidates.push_back(std::move(r));
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Run& a, const Run& b) { return a.startTime > b.startTime; });
    if (candidates.size() > options.maxHistory)
        candidates.resize(options.maxHistory);
    std::reverse(candidates.begin(), candidates.end());
    return candidates;
}

std::string ratioWords(double ratio) {
    return formatFixed(ratio, ratio >= 10 ? 1 : 2) + "x";
}

std::string earlierRuns(size_t n) {
    return "its " + std::to_string(n) + " earlier run" + (n == 1 ? "" : "s");
}

/// The judgement of one figure, from the run's value and its history's values.
json judgeFigure(const JudgedFigure& figure, std::optional<double> value, const std::vector<double>& history,
                 const JudgeOptions& options) {
    const size_t needed = options.minHistory;
    json j = {{"figure", figure.name}, {"label", figure.label},
              {"unit", figure.unit},   {"value", value ? json(*value) : json(nullptr)},
              {"n", history.size()},   {"mean", nullptr},
              {"sd", nullptr},         {"interval", nullptr},
              {"ratio", nullptr},      {"verdict", "not judged"},
              {"words", ""},           {"why", nullptr}};
    const auto summary = stats::summarise(history);
    if (summary) {
        j["mean"] = summary->mean;
        j["sd"] = summary->sd ? json(*summary->sd) : json(nullptr);
    }
    if (!value) {
        j["why"] = std::string("the run has no ") + figure.label + ": " + figure.missing;
        return j;
    }
    if (history.size() < needed) {
        j["why"] = std::to_string(history.size()) + " earlier run" +
                   (history.size() == 1 ? " has" : "s have") + " a " + figure.label + "; " +
                   std::to_string(needed) + " are needed to judge it";
        return j;
    }
    const double n = double(history.size());
    const double half =
        stats::studentTQuantile(0.5 + kLevel / 2, n - 1) * *summary->sd * std::sqrt(1 + 1 / n);
    const double low = summary->mean - half, high = summary->mean + half;
    j["interval"] = {low, high};
    const std::optional<double> ratio =
        summary->mean != 0 ? std::optional<double>(*value / summary->mean) : std::nullopt;
    j["ratio"] = ratio ? json(*ratio) : json(nullptr);
    const std::string ratioText = ratio ? ratioWords(*ratio) : std::string("mean 0");
    const bool outside = *value > high || *value < low;
    const bool small = ratio && std::abs(*ratio - 1) < options.minChange;
    if (outside && !small) {
        const bool above = *value > high;
        j["verdict"] = above ? "above" : "below";
        j["words"] = std::string(above ? figure.above : figure.below) + " than " +
                     earlierRuns(history.size()) + ": " + ratioText +
                     ", outside the 95 % prediction interval";
    } else {
        j["verdict"] = "normal";
        j["words"] = "normal: " + ratioText + " the mean of " + earlierRuns(history.size()) +
                     (outside ? ", outside the 95 % prediction interval but within " +
                                    formatReading(options.minChange * 100) + " % of the mean"
                              : ", within the 95 % prediction interval");
    }
    return j;
}

/// A configuration by its params ("epochs=3 runs_per_gpu=1"): alone in the report, its label
/// would say "all runs".
std::string configurationWords(const json& configuration) {
    std::string out;
    const json params = configuration.value("params", json::object()); // items() of a temporary dangle
    for (const auto& [name, value] : params.items())
        if (name != "params" || params.size() == 1) // the argument string repeats the flags' params
            out += (out.empty() ? "" : " ") + name + "=" + value.get<std::string>();
    return out.empty() ? configuration.value("label", std::string()) : out;
}

/// The environment items the run's configuration differs in among the run and its history.
json environmentOf(json& report, const std::vector<Run>& runs, size_t configuration,
                   const ArtifactContext& context) {
    addEnvironmentDiffs(report, runs, context);
    const json& c = report["configurations"][configuration];
    return c.value("environment", json{{"differs", json::array()}});
}

/// A figure's value in its unit, to 4 significant digits.
std::string valueText(const json& v, const std::string& unit) {
    return v.is_number() ? formatReading(v.get<double>()) + " " + unit : std::string("-");
}

/// "0 earlier finished runs of its configuration; 3 are needed to judge it"
std::string tooFewWhy(size_t history, size_t needed) {
    return std::to_string(history) + " earlier finished run" + (history == 1 ? "" : "s") +
           " of its configuration; " + std::to_string(needed) + " are needed to judge it";
}

json judgeAgainst(Store& store, const Run& run, std::vector<Run> runs, const JudgeOptions& options) {
    runs.push_back(run);
    ReportOptions reportOptions;
    reportOptions.repeatParams = options.repeatParams;
    json report = buildReport(store, runs, reportOptions);
    const json& reportRuns = report["runs"];
    const json& judged = reportRuns.back();
    json j = {{"run_uuid", run.uuid},
              {"run_name", run.name},
              {"configuration", nullptr},
              {"history",
               {{"n", 0},
                {"runs", json::array()},
                {"needed", options.minHistory},
                {"at_most", options.maxHistory}}},
              {"judged", false},
              {"why", nullptr},
              {"figures", json::array()},
              {"outside", json::array()},
              {"verdict", "not judged"},
              {"sentence", ""},
              {"environment", nullptr},
              {"level", kLevel},
              {"min_change", options.minChange}};
    if (!judged["configuration"].is_number()) {
        j["why"] = std::string("the run is ") + toString(run.status) + ": only a finished run is judged";
        j["sentence"] = "not judged: " + j["why"].get<std::string>();
        return j;
    }
    const size_t c = judged["configuration"].get<size_t>();
    j["configuration"] = configurationWords(report["configurations"][c]);
    std::vector<size_t> history;
    for (size_t i = 0; i + 1 < reportRuns.size(); ++i)
        if (reportRuns[i]["configuration"] == c) {
            history.push_back(i);
            j["history"]["runs"].push_back(reportRuns[i]["run_uuid"]);
        }
    j["history"]["n"] = history.size();
    for (const JudgedFigure& figure : kJudgedFigures) {
        std::vector<double> values;
        for (const size_t i : history)
            if (const auto v = judgedValue(reportRuns[i], figure.name))
                values.push_back(*v);
        j["figures"].push_back(judgeFigure(figure, judgedValue(judged, figure.name), values, options));
    }
    if (options.environment)
        j["environment"] = environmentOf(report, runs, c, *options.environment);
    if (history.size() < options.minHistory) {
        j["why"] = tooFewWhy(history.size(), options.minHistory);
        j["sentence"] = "not judged: " + j["why"].get<std::string>();
        return j;
    }
    j["judged"] = true;
    // "slower than its 6 earlier runs: 1.12x; more GPU energy: 1.10x, each outside the 95 %
    // prediction interval": the history said once, each figure by its ratio.
    std::string outsideWords;
    for (const json& f : j["figures"])
        if (f["verdict"] == "above" || f["verdict"] == "below") {
            const JudgedFigure& figure =
                *std::find_if(kJudgedFigures.begin(), kJudgedFigures.end(),
                              [&](const JudgedFigure& k) { return f["figure"] == k.name; });
            const std::string ratio =
                f["ratio"].is_number() ? ratioWords(f["ratio"].get<double>()) : "mean 0";
            outsideWords += outsideWords.empty()
                                ? (f["verdict"] == "above" ? figure.above : figure.below) +
                                      std::string(" than ") + earlierRuns(history.size()) + ": " + ratio
                                : "; " + std::string(f["verdict"] == "above" ? figure.above : figure.below) +
                                      ": " + ratio;
            j["outside"].push_back(f["figure"]);
        }
    j["verdict"] = j["outside"].empty() ? "normal" : "outside";
    j["sentence"] = j["outside"].empty()
                        ? "normal for its configuration: within the 95 % prediction interval of " +
                              earlierRuns(history.size()) + " on every figure it has"
                        : outsideWords + (j["outside"].size() > 1 ? ", each" : ",") +
                              " outside the 95 % prediction interval";
    return j;
}

} // namespace

json judgeRun(Store& store, const Run& run, const JudgeOptions& options) {
    return judgeAgainst(store, run, historyCandidates(store, run, options), options);
}

std::string judgeFinishedRun(Store& store, const Run& run, const std::string& storeUri) {
    try {
        JudgeOptions options;
        std::vector<Run> candidates = historyCandidates(store, run, options);
        std::string sentence, tag;
        if (candidates.empty() && countsAsRepeat(run.status)) {
            // The first run of its kind: nothing to compare, said without a report of the run
            // (~2 ms at the end of every such run; the words judgeRun would give).
            sentence = tag = "not judged: " + tooFewWhy(0, options.minHistory);
        } else {
            options.environment = artifactContextOfStore(storeUri);
            const json j = judgeAgainst(store, run, std::move(candidates), options);
            sentence = j["sentence"];
            tag = j["verdict"] == "outside" ? "outside: " + sentence : sentence;
        }
        // Kept on the run, as the history stood when it finished: the explorer marks it by this.
        store.setTags(run.uuid, {{kRunJudgementTag, tag}});
        return sentence;
    } catch (const std::exception& e) {
        return std::string("not judged against its history: ") + e.what();
    }
}

std::string judgementText(const json& judgement) {
    std::ostringstream out;
    out << "run " << judgement["run_uuid"].get<std::string>() << " ("
        << judgement["run_name"].get<std::string>() << ")";
    if (judgement["configuration"].is_string())
        out << ", configuration " << judgement["configuration"].get<std::string>();
    out << "\n" << judgement["sentence"].get<std::string>() << "\n";
    if (!judgement["figures"].empty()) {
        char line[256];
        std::snprintf(line, sizeof line, "  %-18s %14s %16s  %-30s %7s  %s\n", "figure", "this run",
                      "history mean", "95 % prediction interval", "ratio", "verdict");
        out << line;
        for (const json& f : judgement["figures"]) {
            const std::string unit = f["unit"];
            const std::string interval = f["interval"].is_array()
                                             ? formatReading(f["interval"][0].get<double>()) + " to " +
                                                   formatReading(f["interval"][1].get<double>()) + " " + unit
                                             : std::string("-");
            const std::string verdict = f["verdict"] == "above"   ? "outside, " + std::string("above")
                                        : f["verdict"] == "below" ? "outside, " + std::string("below")
                                        : f["verdict"] == "normal"
                                            ? std::string("normal")
                                            : "not judged: " + f.value("why", json("")).get<std::string>();
            std::snprintf(line, sizeof line, "  %-18s %14s %16s  %-30s %7s  %s\n",
                          f["label"].get<std::string>().c_str(), valueText(f["value"], unit).c_str(),
                          valueText(f["mean"], unit).c_str(), interval.c_str(),
                          f["ratio"].is_number() ? ratioWords(f["ratio"].get<double>()).c_str() : "-",
                          verdict.c_str());
            out << line;
        }
        out << "  history: N = " << judgement["history"]["n"].get<size_t>()
            << " earlier finished runs of the configuration (the latest "
            << judgement["history"].value("at_most", size_t(0))
            << " at most); outside the interval by less than "
            << formatReading(judgement.value("min_change", 0.0) * 100) << " % of the mean is normal\n";
    }
    const json& environment = judgement["environment"];
    if (environment.is_object() && !environment.value("differs", json::array()).empty()) {
        out << "environment differs between the run and its history:";
        for (const json& d : environment["differs"])
            out << " " << d.value("item", std::string());
        out << " (radt report --env-diff tells each run's value)\n";
    }
    return out.str();
}

std::vector<std::string> figuresOutside(const json& judgement, const std::vector<std::string>& on) {
    std::vector<std::string> out;
    for (const json& f : judgement["figures"]) {
        const std::string name = f["figure"];
        const bool asked = on.empty() || std::find(on.begin(), on.end(), name) != on.end();
        if (asked && (f["verdict"] == "above" || f["verdict"] == "below"))
            out.push_back(name);
    }
    return out;
}

std::vector<std::string> judgedFigureNames(const std::string& commaSeparated) {
    std::vector<std::string> out;
    std::istringstream in(commaSeparated);
    std::string item;
    while (std::getline(in, item, ',')) {
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        std::string found;
        std::string known;
        for (const JudgedFigure& f : kJudgedFigures) {
            if (item == f.name || item == f.brief)
                found = f.name;
            known += (known.empty() ? "" : ", ") + std::string(f.brief);
        }
        if (found.empty())
            throw std::invalid_argument("--on: '" + item + "' is no figure a run is judged on (they are " +
                                        known + ", or their JSON names: duration_s, gpu_energy_j, ...)");
        out.push_back(found);
    }
    if (out.empty())
        throw std::invalid_argument("--on expects figures separated by commas, e.g. duration,gpu_energy");
    return out;
}

} // namespace radt
