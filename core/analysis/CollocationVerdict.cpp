// SPDX-License-Identifier: MIT
#include "core/analysis/CollocationVerdict.h"

#include "core/base/Statistics.h"
#include "core/base/TextFormat.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace radt {

using nlohmann::json;

namespace {

/// A summary ({"n", "mean", "sd"}) as an estimate of its mean; unset without values.
std::optional<stats::Estimate> estimateOf(const json& summary) {
    const size_t n = summary.value("n", size_t(0));
    if (n == 0 || !summary["mean"].is_number())
        return std::nullopt;
    const double sd = summary["sd"].is_number() ? summary["sd"].get<double>() : 0.0;
    return stats::Estimate{summary["mean"].get<double>(), sd / std::sqrt(double(n)), double(n - 1)};
}

/// The solo baselines one after another: each baseline's mean `figure` once per job it stands for.
std::optional<stats::Estimate> aloneEstimate(const json& solo, const char* figure) {
    std::vector<std::pair<double, stats::Estimate>> terms;
    for (const json& baseline : solo) {
        const auto e = estimateOf(baseline[figure]);
        if (!e)
            return std::nullopt;
        terms.emplace_back(baseline["jobs"].get<double>(), *e);
    }
    if (terms.empty())
        return std::nullopt;
    return stats::weightedSum(terms);
}

/// A ratio's interval: both sides are positive quantities (times, energies), so the ratio cannot
/// be negative; where Fieller's interval reaches below 0 (a side that varies a lot), it starts at 0.
json ratioIntervalJson(const std::optional<std::pair<double, double>>& ci) {
    return ci ? json::array({std::max(0.0, ci->first), std::max(0.0, ci->second)}) : json(nullptr);
}

/// The 95 % interval of an estimate's mean; null without a spread to go by.
json intervalJson(const stats::Estimate& e) {
    if (e.df <= 0)
        return nullptr;
    const double half = stats::studentTQuantile(0.975, e.df) * e.se;
    return json::array({e.mean - half, e.mean + half});
}

stats::Estimate scaled(stats::Estimate e, double by) {
    e.mean *= by;
    e.se *= by;
    return e;
}

/// A measured value taken as exact (one workload's time together): no spread of its own.
stats::Estimate exactly(double value) {
    return {value, 0, 0};
}

json estimateJson(const std::optional<stats::Estimate>& e) {
    return e ? json{{"mean", e->mean}, {"ci95", intervalJson(*e)}}
             : json{{"mean", nullptr}, {"ci95", nullptr}};
}

json ratioJson(const std::optional<stats::Estimate>& a, const std::optional<stats::Estimate>& b) {
    if (!a || !b || b->mean == 0)
        return {{"mean", nullptr}, {"ci95", nullptr}};
    return {{"mean", a->mean / b->mean}, {"ci95", ratioIntervalJson(stats::ratioCi95(*a, *b))}};
}

/// A collocated configuration: the workloads whose jobs are runs of the same configurations.
struct Collocated {
    std::vector<size_t> configurations; ///< its jobs' configurations, sorted (a repeat is the same)
    std::vector<const json*> workloads;
};

std::vector<Collocated> collocatedConfigurations(const json& report) {
    std::map<std::string, std::optional<size_t>> configurationOf;
    for (const json& run : report["runs"])
        configurationOf[run["run_uuid"].get<std::string>()] =
            run["configuration"].is_number() ? std::optional<size_t>(run["configuration"].get<size_t>())
                                             : std::nullopt;
    std::vector<Collocated> out;
    for (const json& w : report["workloads"]) {
        if (!w["collocation_gain"].is_object())
            continue;
        std::vector<size_t> key;
        for (const json& uuid : w["runs"])
            if (const auto c = configurationOf[uuid.get<std::string>()])
                key.push_back(*c);
        if (key.size() != w["runs"].size())
            continue; // a job that did not finish is no repeat: its workload stays on its own
        std::sort(key.begin(), key.end());
        auto same = std::find_if(out.begin(), out.end(),
                                 [&](const Collocated& c) { return c.configurations == key; });
        if (same == out.end())
            same = out.insert(out.end(), Collocated{key, {}});
        same->workloads.push_back(&w);
    }
    return out;
}

/// "a + b": the distinct labels of the configurations the jobs are runs of.
std::string labelOf(const Collocated& c, const json& configurations) {
    std::string label;
    std::set<size_t> said;
    for (const size_t k : c.configurations)
        if (said.insert(k).second)
            label += (label.empty() ? "" : " + ") + configurations[k].value("label", "#" + std::to_string(k));
    return label;
}

json verdictOf(const Collocated& c, const json& configurations) {
    std::vector<double> together, perJob;
    json ids = json::array();
    json why = nullptr;
    for (const json* w : c.workloads) {
        const json& gain = (*w)["collocation_gain"];
        ids.push_back((*w)["workload"]);
        together.push_back(gain["together_s"].get<double>());
        if (gain["energy_per_job_together_j"].is_number())
            perJob.push_back(gain["energy_per_job_together_j"].get<double>());
        if (why.is_null() && gain["why"].is_string())
            why = gain["why"];
    }
    const size_t jobs = c.configurations.size();
    // The workloads of one collocated configuration share their jobs' solo baselines.
    const json& solo = c.workloads.front()->at("collocation_gain")["solo"];
    std::set<std::string> soloRuns;
    for (const json& baseline : solo)
        for (const json& uuid : baseline["runs"])
            soloRuns.insert(uuid.get<std::string>());
    const auto aloneS = why.is_null() ? aloneEstimate(solo, "duration_s") : std::nullopt;
    const auto aloneJ = why.is_null() ? aloneEstimate(solo, "gpu_energy_j") : std::nullopt;
    const auto togetherS = stats::estimateOf(together);
    // Energy per job together only where every workload measured it.
    const auto togetherJ = perJob.size() == together.size() ? stats::estimateOf(perJob) : std::nullopt;
    const auto aloneJPerJob =
        aloneJ ? std::optional<stats::Estimate>(scaled(*aloneJ, 1.0 / double(jobs))) : std::nullopt;
    return {{"label", labelOf(c, configurations)},
            {"configurations", c.configurations},
            {"workloads", ids},
            {"n", c.workloads.size()},
            {"jobs", jobs},
            {"solo_runs", soloRuns.size()},
            // One workload has no spread of its own: its intervals are the solo runs' alone.
            {"ci_covers", c.workloads.size() > 1 ? "workloads and solo runs" : "solo runs only"},
            {"together_s", estimateJson(togetherS)},
            {"alone_one_after_another_s", estimateJson(aloneS)},
            {"throughput_gain", ratioJson(aloneS, togetherS)},
            {"energy_per_job_together_j", estimateJson(togetherJ)},
            {"energy_per_job_alone_j", estimateJson(aloneJPerJob)},
            {"energy_ratio", ratioJson(togetherJ, aloneJPerJob)},
            {"why", why}};
}

/// "x1.70 [1.52, 1.90]" at the interval's precision; "x1.70" without one.
std::string ratioWords(const json& ratio) {
    const double mean = ratio["mean"].get<double>();
    if (!ratio["ci95"].is_array())
        return "x" + formatFixed(mean, 2);
    const double low = ratio["ci95"][0].get<double>(), high = ratio["ci95"][1].get<double>();
    const int decimals = ratioDecimals(low, high);
    return "x" + formatFixed(mean, decimals) + " [" + formatFixed(low, decimals) + ", " +
           formatFixed(high, decimals) + "]";
}

/// Which side of 1 a ratio is on, by its interval where it has one (else its mean): 1 above,
/// -1 below, 0 where the interval holds 1.
int sideOfOne(const json& ratio) {
    if (!ratio["ci95"].is_array())
        return ratio["mean"].get<double>() > 1 ? 1 : ratio["mean"].get<double>() < 1 ? -1 : 0;
    if (ratio["ci95"][0].get<double>() > 1)
        return 1;
    return ratio["ci95"][1].get<double>() < 1 ? -1 : 0;
}

} // namespace

void addGainFigures(json& gain, const std::vector<std::string>& withoutBaseline) {
    for (const char* key : {"alone_one_after_another_s", "throughput_gain", "alone_one_after_another_j",
                            "energy_per_job_alone_j", "energy_ratio"}) {
        gain[key] = nullptr;
        gain[std::string(key) + "_ci95"] = nullptr;
    }
    gain["why"] = nullptr;
    if (!withoutBaseline.empty()) {
        std::string jobs;
        for (const std::string& job : withoutBaseline)
            jobs += (jobs.empty() ? "" : ", ") + job;
        gain["why"] = "no solo baseline for " + jobs +
                      ": no finished run of the same params alone (repeat params aside) in the store; "
                      "--baseline names one";
        return;
    }
    const json& solo = gain["solo"];
    const auto aloneS = aloneEstimate(solo, "duration_s");
    const double together = gain["together_s"].get<double>();
    if (!aloneS || together <= 0) {
        gain["why"] = aloneS ? "the jobs together took no time" : "the solo runs have no duration";
        return;
    }
    gain["alone_one_after_another_s"] = aloneS->mean;
    gain["alone_one_after_another_s_ci95"] = intervalJson(*aloneS);
    gain["throughput_gain"] = aloneS->mean / together;
    gain["throughput_gain_ci95"] = ratioIntervalJson(stats::ratioCi95(*aloneS, exactly(together)));
    const auto aloneJ = aloneEstimate(solo, "gpu_energy_j");
    if (!aloneJ || !gain["together_j"].is_number() || aloneJ->mean <= 0)
        return;
    const double jobs = gain["jobs"].get<double>(), togetherJ = gain["together_j"].get<double>();
    gain["alone_one_after_another_j"] = aloneJ->mean;
    gain["alone_one_after_another_j_ci95"] = intervalJson(*aloneJ);
    gain["energy_per_job_alone_j"] = aloneJ->mean / jobs;
    gain["energy_per_job_alone_j_ci95"] = intervalJson(scaled(*aloneJ, 1.0 / jobs));
    gain["energy_ratio"] = togetherJ / aloneJ->mean;
    gain["energy_ratio_ci95"] = ratioIntervalJson(stats::ratioCi95(exactly(togetherJ), *aloneJ));
}

void addCollocationVerdicts(json& report) {
    json verdicts = json::array();
    for (const Collocated& c : collocatedConfigurations(report)) {
        json v = verdictOf(c, report["configurations"]);
        v["sentence"] = collocationSentence(v);
        verdicts.push_back(v);
    }
    report["collocation"] = verdicts;
}

std::string collocationSentence(const json& v) {
    if (v["why"].is_string())
        return "No verdict: " + v["why"].get<std::string>();
    const json& gain = v["throughput_gain"];
    const json& energy = v["energy_ratio"];
    if (!gain["mean"].is_number())
        return "No verdict: the solo runs have no duration";
    const int faster = sideOfOne(gain);
    const int costlier = energy["mean"].is_number() ? sideOfOne(energy) : 0;
    std::string sentence = "Sharing the GPU did " + ratioWords(gain) + " the work per hour";
    if (energy["mean"].is_number())
        sentence += " at " + ratioWords(energy) + " the energy per job";
    const bool intervals = gain["ci95"].is_array();
    if (faster > 0 && costlier <= 0)
        sentence += ": it paid off";
    else if (faster < 0 || (costlier > 0 && faster == 0))
        sentence += ": it did not pay off";
    else if (faster > 0 && costlier > 0)
        sentence += ": more work per hour, but more energy per job";
    else if (costlier < 0)
        sentence += ": less energy per job, no clear difference in work per hour";
    else
        sentence += ": no clear difference from running the jobs alone";
    if (!intervals)
        sentence += " (no interval: neither the workloads nor the solo runs repeat)";
    else if (v.value("n", size_t(0)) == 1)
        sentence += "; one workload, so the intervals cover only the solo runs' spread (repeat the "
                    "workload for its own)";
    return sentence;
}

} // namespace radt
