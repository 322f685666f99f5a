// SPDX-License-Identifier: MIT
#include "core/analysis/InsightReport.h"

#include "core/analysis/BurstInsight.h"
#include "core/analysis/CollocationVerdict.h"
#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/ConfigurationLabels.h"
#include "core/analysis/EnergyInsight.h"
#include "core/analysis/EpochInsight.h"
#include "core/analysis/UtilisationInsight.h"
#include "core/base/InsightSeries.h"
#include "core/base/MetricKeys.h"
#include "core/base/TextFormat.h"
#include "core/store/StoreCompaction.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <new>
#include <set>
#include <stdexcept>

namespace radt {

using nlohmann::json;
using namespace insight;

namespace {

bool isDigits(const std::string& s) {
    return !s.empty() && s.size() < 18 && std::all_of(s.begin(), s.end(), ::isdigit);
}

std::string workloadId(const Run& r) {
    return r.workload().empty() ? std::string() : std::to_string(r.experimentId) + "-" + r.workload();
}

std::string firstDevice(const Run& r) {
    const std::string d = r.param("devices").empty() ? "0" : r.param("devices");
    return d.substr(0, d.find('+'));
}

/// A run's series, each read once.
class RunData {
public:
    RunData(Store& store, const Run& run) : m_store(store), m_run(run) {
        keys = store.metricKeys({run.uuid});
        int64_t last = run.startTime;
        for (const auto& [key, latest] : store.latestMetrics(run.uuid))
            last = std::max(last, latest.timestamp);
        to = run.endTime.value_or(last);
        from = run.startTime;
        // Samples outside the run's start and end (an MLflow run ended at once, its points logged
        // afterwards with their own times) are counted: the window is widened to the hardware
        // samples' own span, and the report says so.
        int64_t first = from, end = to;
        for (const std::string& key : keys) {
            if (!isHardwareKey(key))
                continue;
            const Series& s = series(key);
            if (!s.empty()) {
                first = std::min(first, s.t.front());
                end = std::max(end, s.t.back());
            }
        }
        if (first < from || end > to) {
            windowNote =
                "samples lie " +
                (first < from ? formatDuration(from - first) + " before the run's start" : std::string()) +
                (first < from && end > to ? " and " : "") +
                (end > to ? formatDuration(end - to) + " after its end" : std::string()) +
                "; the analysis covers the samples' own span";
            from = first;
            to = end;
        }
    }
    const Series& series(const std::string& key) {
        auto it = m_cache.find(key);
        if (it == m_cache.end())
            it = m_cache.emplace(key, readForAnalysis(m_store, m_run, key)).first; // compacted: re-gridded
        return it->second;
    }
    std::function<Series(const std::string&)> reader() {
        return [this](const std::string& key) { return series(key); };
    }
    std::vector<std::string> keys;
    int64_t from = 0, to = 0;
    std::string windowNote; ///< "" when every sample lies within the run's start and end

private:
    Store& m_store;
    const Run& m_run;
    std::map<std::string, Series> m_cache;
};

json orNull(const std::optional<double>& v) {
    return v && std::isfinite(*v) ? json(*v) : json(nullptr);
}

/// Mean epoch time in seconds of a run, from its epoch spans; unset without epochs.
std::optional<double> meanEpochSeconds(const std::vector<EpochSpan>& spans) {
    if (spans.empty())
        return std::nullopt;
    return double(spans.back().toMs - spans.front().fromMs) / 1000.0 / double(spans.size());
}

struct RunFacts {
    json j;
    std::optional<double> gpuJ, perEpochJ, epochSeconds;
    size_t epochs = 0;
    std::vector<std::pair<std::string, double>> deviceJ;
    int64_t from = 0, to = 0;                   ///< the analysed window
    std::optional<double> attributedJ;          ///< its share of the GPUs it shared (= gpuJ alone)
    std::map<std::string, Series> energySeries; ///< kept for sharedEnergy(): counters and power
};

/// A shared GPU's energy charged to one run: each stretch of the run's time has its energy split
/// equally among the runs active in it, so the shares of the runs on one GPU add up to that GPU's
/// energy over their joint span (a run alone at the end pays for that time alone). From the
/// energy series its analysis kept: nothing is read twice.
std::optional<double> sharedEnergy(const RunFacts& f,
                                   const std::vector<std::pair<int64_t, int64_t>>& windows) {
    std::vector<int64_t> cuts{f.from, f.to};
    for (const auto& [a, b] : windows)
        for (const int64_t t : {a, b})
            if (t > f.from && t < f.to)
                cuts.push_back(t);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<std::pair<int64_t, int64_t>> segments;
    for (size_t i = 0; i + 1 < cuts.size(); ++i)
        segments.emplace_back(cuts[i], cuts[i + 1]);
    std::vector<std::string> keys;
    for (const auto& entry : f.energySeries)
        keys.push_back(entry.first);
    const auto energies = gpuEnergyInWindows(
        keys, [&](const std::string& key) { return f.energySeries.at(key); }, segments);
    std::optional<double> total;
    for (size_t i = 0; i < segments.size(); ++i) {
        if (!energies[i])
            continue;
        const int64_t mid = segments[i].first + (segments[i].second - segments[i].first) / 2;
        size_t active = 0;
        for (const auto& [a, b] : windows)
            active += a <= mid && mid < b;
        total = total.value_or(0) + *energies[i] / double(std::max<size_t>(active, 1));
    }
    return total;
}

/// The run's GPU energy (total, per device, the counter-against-power check) and CPU energy; keeps
/// the energy series for sharedEnergy(). Returns the CPU energy, which the CO2e figure adds.
std::optional<double> addEnergyFacts(RunFacts& f, RunData& data, const EnergyEstimate& gpu) {
    auto read = data.reader();
    json& j = f.j;
    for (const std::string& key : data.keys)
        if (playsRole(key, KeyRole::GpuEnergyCounter) || playsRole(key, KeyRole::GpuPower))
            f.energySeries[key] = read(key);
    f.gpuJ = gpu.joules;
    j["gpu_energy_j"] = orNull(gpu.joules);
    j["gpu_energy_wh"] = gpu.joules ? json(*gpu.joules / 3600.0) : json(nullptr);
    j["gpu_energy_source"] = gpu.source.empty() ? json(nullptr) : json(gpu.source);
    j["energy_coverage"] = gpu.joules ? json(gpu.coverage) : json(nullptr);
    json devices = json::array();
    for (const DeviceEnergy& d : gpu.devices) {
        devices.push_back({{"device", d.device.empty() ? "GPU 0" : d.device.substr(3)},
                           {"energy_j", d.joules},
                           {"source", d.source},
                           {"coverage", d.coverage}});
        f.deviceJ.emplace_back(d.device, d.joules);
    }
    j["gpu_energy_per_device"] = devices;
    // The energy cross-check: counter against integrated power where a device has both.
    if (gpu.checkCounterJoules && *gpu.checkPowerJoules > 0) {
        const double pct =
            std::fabs(*gpu.checkCounterJoules - *gpu.checkPowerJoules) / *gpu.checkPowerJoules * 100;
        j["energy_check"] = {{"counter_j", *gpu.checkCounterJoules},
                             {"power_j", *gpu.checkPowerJoules},
                             {"disagreement_pct", pct}};
        j["energy_check_flag"] = pct > kEnergyCheckFlagPct;
    } else {
        j["energy_check"] = nullptr;
        j["energy_check_flag"] = false;
    }
    j["energy_notes"] = gpu.notes;
    const auto cpu = cpuEnergy(data.keys, read, data.from, data.to);
    j["cpu_energy_j"] = orNull(cpu);
    return cpu;
}

/// The run's epochs: their count, mean time, and each epoch's time and GPU energy.
void addEpochFacts(RunFacts& f, RunData& data) {
    auto read = data.reader();
    json& j = f.j;
    const std::string epochKey = epochMetricKey(data.keys, read);
    const std::vector<EpochSpan> spans =
        epochKey.empty() ? std::vector<EpochSpan>{} : epochSpans(read(epochKey), data.from);
    f.epochs = spans.size();
    f.epochSeconds = meanEpochSeconds(spans);
    j["epoch_metric"] = epochKey.empty() ? json(nullptr) : json(epochKey);
    j["epochs"] = spans.size();
    j["epoch_time_s"] = orNull(f.epochSeconds);
    if (!spans.empty()) {
        const EnergyEstimate inEpochs = gpuEnergy(data.keys, read, spans.front().fromMs, spans.back().toMs);
        if (inEpochs.joules)
            f.perEpochJ = *inEpochs.joules / double(spans.size());
        std::vector<std::pair<int64_t, int64_t>> windows;
        windows.reserve(spans.size());
        for (const EpochSpan& e : spans)
            windows.emplace_back(e.fromMs, e.toMs);
        const auto perEpoch = gpuEnergyInWindows(data.keys, read, windows); // one pass, not one per epoch
        json per = json::array();
        for (size_t i = 0; i < spans.size(); ++i)
            per.push_back({{"epoch", spans[i].step},
                           {"seconds", double(spans[i].toMs - spans[i].fromMs) / 1000.0},
                           {"gpu_energy_j", orNull(perEpoch[i])}});
        j["per_epoch"] = per;
    } else {
        j["per_epoch"] = json::array();
    }
    j["energy_per_epoch_j"] = orNull(f.perEpochJ);
}

/// The run's utilisation profiles, input stalls and util-SMACT gap.
void addUtilisationFacts(json& j, RunData& data, const ReportOptions& options) {
    auto read = data.reader();
    json util = json::object();
    for (const std::string& key : utilisationKeys(data.keys)) {
        const Series s = read(key);
        if (const auto p = utilisationProfile(s, utilisationScale(key, s)))
            util[key] = {{"mean", p->mean},
                         {"p50", p->p50},
                         {"p95", p->p95},
                         {"idle_share", p->idleShare},
                         {"scale", p->fullScale}};
    }
    j["util"] = util;
    const auto stalls = inputStalls(data.keys, read, data.from, data.to, options.stalls);
    j["input_stall_share"] = stalls ? json(stalls->share) : json(nullptr);
    j["input_stall_s"] = stalls ? json(stalls->stalledS) : json(nullptr);
    const auto gap = utilSmactGap(data.keys, read);
    j["util_smact_gap_pp"] = gap ? json(gap->gapPp) : json(nullptr);
    j["util_smact_flag"] = gap ? json(gap->flagged) : json(nullptr);
}

/// The burst/idle analysis of the run's utilisation and network metrics, and of --burst-metric's.
json burstIdleFacts(RunData& data, const ReportOptions& options) {
    auto read = data.reader();
    std::vector<std::string> burstKeys;
    // The whole GPU's and its memory's busy share (not per-SM activity): what bursts and idles.
    const std::vector<std::string> gpu = keysOfRole(KeyRole::GpuUtilisation),
                                   memory = keysOfRole(KeyRole::MemoryUtilisation);
    for (const std::string& key : data.keys) {
        const bool net = key.rfind("NET - ", 0) == 0;
        if (std::count(gpu.begin(), gpu.end(), key) || std::count(memory.begin(), memory.end(), key) || net ||
            std::count(options.burstMetrics.begin(), options.burstMetrics.end(), key))
            burstKeys.push_back(key);
    }
    json bursts = json::object();
    const std::vector<std::string> utilKeys = utilisationKeys(data.keys);
    for (const std::string& key : burstKeys) {
        // Utilisation has an idle floor (5 % of its scale); other metrics (network) none.
        const Series s = read(key);
        const bool isUtil = std::count(utilKeys.begin(), utilKeys.end(), key) > 0;
        const auto b = burstIdle(s, isUtil ? kIdleShareOfScale * utilisationScale(key, s) : 0.0);
        if (b)
            bursts[key] = {
                {"burst_mean", b->burstMean},
                {"idle_mean", b->idleMean},
                {"threshold", b->threshold},
                {"burst_duration_s", {{"mean", b->burstDurationMeanS}, {"p50", b->burstDurationP50S}}},
                {"idle_duration_s", {{"mean", b->idleDurationMeanS}, {"p50", b->idleDurationP50S}}},
                {"patterns", {{"I", b->shareI}, {"B", b->shareB}, {"BIB", b->shareBIB}}},
                {"windows", b->windows}};
    }
    return bursts;
}

RunFacts analyseRun(Store& store, const Run& run, const ReportOptions& options,
                    const std::string& experimentName) {
    RunData data(store, run);
    RunFacts f;
    f.from = data.from;
    f.to = data.to;
    json& j = f.j;
    j["run_uuid"] = run.uuid;
    j["name"] = run.name;
    j["experiment"] = experimentName;
    j["workload"] = workloadId(run).empty() ? json(nullptr) : json(workloadId(run));
    j["letter"] = run.letter().empty() ? json(nullptr) : json(run.letter());
    j["params"] = run.params; // what names the run for people (the chart's rule) and tells repeats apart
    j["status"] = toString(run.status);
    j["duration_s"] = double(data.to - data.from) / 1000.0;
    j["window_note"] = data.windowNote.empty() ? json(nullptr) : json(data.windowNote);

    const EnergyEstimate gpu = gpuEnergy(data.keys, data.reader(), data.from, data.to);
    const std::optional<double> cpu = addEnergyFacts(f, data, gpu);
    addEpochFacts(f, data);
    if (options.gridIntensity && (gpu.joules || cpu))
        j["co2e_g"] =
            co2eGrams(gpu.joules.value_or(0) + cpu.value_or(0), *options.gridIntensity, options.pue);
    else
        j["co2e_g"] = nullptr;
    addUtilisationFacts(j, data, options);
    j["burst_idle"] = burstIdleFacts(data, options);
    return f;
}

/// analyseRun, with an allocation failure named: which run, and why memory ran out.
RunFacts analyse(Store& store, const Run& run, const ReportOptions& options,
                 const std::string& experimentName) {
    try {
        return analyseRun(store, run, options, experimentName);
    } catch (const std::bad_alloc&) {
        throw std::runtime_error(
            "out of memory while analysing run " + run.uuid + " (" + run.name +
            "): its series are read whole, one metric at a time; a run with this many keys "
            "or samples needs more memory than is free");
    }
}

double mean(const std::vector<double>& v) {
    double sum = 0;
    for (const double x : v)
        sum += x;
    return sum / double(v.size());
}

/// Every experiment's name, deleted ones too: a run restored on its own may sit in a deleted
/// experiment (its name was "" in the report).
std::map<int64_t, std::string> experimentNames(Store& store) {
    std::map<int64_t, std::string> names;
    for (const Experiment& e : store.experiments())
        names[e.id] = e.name;
    for (const Experiment& e : store.curation().deletedExperiments())
        names[e.id] = e.name + " (deleted)";
    return names;
}

json reportSettings(const std::vector<Run>& runs, const ReportOptions& options) {
    json settings = {{"grid_intensity_g_per_kwh", orNull(options.gridIntensity)},
                     {"pue", options.pue},
                     {"max_gap_intervals", kMaxGapIntervals},
                     {"idle_below_share_of_scale", kIdleShareOfScale},
                     {"util_smact_flag_pp", kUtilSmactFlagPp},
                     {"burst_window_s", kBurstWindowMs / 1000},
                     {"stall_gpu_below_pct", options.stalls.gpuBelowPct},
                     {"stall_cpu_cores", options.stalls.cpuCores}};
    // A repeat param no run has: radt report refuses it, the Insights view (whose field may hold a
    // typo) says it.
    settings["repeat_params"] = options.repeatParams;
    settings["unknown_repeat_params"] = unknownRepeatParams(runs, options.repeatParams);
    return settings;
}

/// The store's deleted runs, marked so (Run::deleted).
std::vector<Run> deletedRunsOf(Store& store) {
    std::vector<Run> runs = store.curation().deletedRuns();
    for (Run& r : runs)
        r.deleted = true;
    return runs;
}

/// buildReport's state: the store's runs, which of them shared a GPU, and each run's facts,
/// analysed once however many collocated runs or workloads ask for them.
class ReportBuilder {
public:
    ReportBuilder(Store& store, const ReportOptions& options)
        : m_store(store), m_options(options), m_experimentNames(experimentNames(store)), m_all(store.runs()),
          m_deleted(deletedRunsOf(store)) {
        // Which runs shared a GPU: runs of one workload on the same first device. A deleted run
        // still shared it while it ran (it drew power): its partners' shares count it, and say it.
        for (const std::vector<Run>* runs : {&m_all, &m_deleted})
            for (const Run& r : *runs)
                if (!workloadId(r).empty())
                    m_byDevice[{workloadId(r), firstDevice(r)}].push_back(&r);
    }

    void analyseTargets(const std::vector<Run>& runs, const std::function<void(size_t, size_t)>& progress) {
        size_t done = 0;
        for (const Run& run : runs) {
            m_facts[run.uuid] = analyse(m_store, run, m_options, m_experimentNames[run.experimentId]);
            if (progress)
                progress(++done, runs.size());
        }
    }

    /// A target run's entry of "runs": its facts with what sharing a GPU adds (its energy share,
    /// its collocation and slowdown); notes the run under its workload.
    json runEntry(const Run& run) {
        RunFacts& f = m_facts[run.uuid];
        json& j = f.j;
        j["collocation"] = nullptr;
        j["slowdown"] = nullptr;
        const size_t sharing = runsPerGpu(run);
        attributeEnergy(run, f, sharing);
        const bool collocatedByParam = !run.param("collocation").empty() && run.param("collocation") != "-";
        if (!workloadId(run).empty())
            m_workloads[workloadId(run)].push_back(&run);
        if (sharing > 1) {
            const auto& mates = m_byDevice[{workloadId(run), firstDevice(run)}];
            json others = json::array(), deleted = json::array();
            for (const Run* m : mates)
                if (m->uuid != run.uuid)
                    (m->deleted ? deleted : others).push_back(m->uuid);
            for (const json& uuid : deleted)
                others.push_back(uuid);
            // Every run of a shared GPU sees that GPU's whole series: split its energy.
            j["collocation"] = {{"shared_with", others},
                                {"deleted_partners", deleted},
                                {"device", firstDevice(run)},
                                {"energy_share_j", j["gpu_energy_attributed_j"]},
                                {"method", "equal"}};
        }
        if (sharing > 1 || collocatedByParam)
            j["slowdown"] = slowdown(run, f);
        return j;
    }

    /// "workloads": each workload of the target runs, after runEntry() has seen them all.
    json workloadEntries() {
        json out = json::array();
        for (const auto& [id, members] : m_workloads) {
            // Each physical GPU once: the runs' shares of a shared GPU add up to its energy.
            json uuids = json::array();
            std::optional<double> total;
            for (const Run* r : members) {
                uuids.push_back(r->uuid);
                if (const auto& a = m_facts[r->uuid].attributedJ)
                    total = total.value_or(0) + *a;
            }
            out.push_back({{"workload", id},
                           {"gpu_energy_j", orNull(total)},
                           {"runs", uuids},
                           {"collocation_gain", collocationGain(members, total)}});
        }
        return out;
    }

private:
    RunFacts& factsOf(const Run& r) {
        auto it = m_facts.find(r.uuid);
        if (it == m_facts.end())
            it = m_facts.emplace(r.uuid, analyse(m_store, r, m_options, m_experimentNames[r.experimentId]))
                     .first;
        return it->second;
    }

    size_t runsPerGpu(const Run& r) {
        if (workloadId(r).empty())
            return 1;
        return m_byDevice[{workloadId(r), firstDevice(r)}].size();
    }

    /// What the run is charged with: its share of each GPU it shared (equal split), its CO2e and
    /// per-epoch energy scaled to that share.
    void attributeEnergy(const Run& run, RunFacts& f, size_t sharing) {
        json& j = f.j;
        std::optional<double> attributed = f.gpuJ;
        if (sharing > 1 && f.gpuJ) {
            std::vector<std::pair<int64_t, int64_t>> windows;
            for (const Run* m : m_byDevice[{workloadId(run), firstDevice(run)}]) {
                const RunFacts& mf = factsOf(*m);
                windows.emplace_back(mf.from, mf.to);
            }
            attributed = sharedEnergy(f, windows);
        }
        f.attributedJ = attributed;
        j["gpu_energy_device_j"] = orNull(f.gpuJ);
        j["gpu_energy_attributed_j"] = orNull(attributed);
        // Per epoch: the epochs' energy scaled by the run's share of its GPU.
        j["energy_per_epoch_attributed_j"] = f.perEpochJ && attributed && f.gpuJ && *f.gpuJ > 0
                                                 ? json(*f.perEpochJ * *attributed / *f.gpuJ)
                                                 : json(nullptr);
        if (m_options.gridIntensity && sharing > 1 && !j["co2e_g"].is_null())
            j["co2e_g"] =
                co2eGrams(attributed.value_or(0) +
                              (j["cpu_energy_j"].is_number() ? j["cpu_energy_j"].get<double>() : 0.0),
                          *m_options.gridIntensity, m_options.pue);
    }

    // The solo configuration of a collocated run: finished runs of the same params (repeat params
    // aside) that had their GPU alone, without MPS or MIG. Or the --baseline run or configuration.
    std::vector<const Run*> soloBaseline(const Run& run) {
        std::vector<const Run*> out;
        if (!m_options.baseline.empty() && m_options.baseline[0] != '#') {
            for (const Run& r : m_all)
                if (r.uuid.compare(0, m_options.baseline.size(), m_options.baseline) == 0)
                    return {&r};
            return out;
        }
        auto solo = configurationParams(run, m_options.repeatParams, 1);
        if (solo.count("collocation"))
            solo["collocation"] = "-";
        if (m_storeConfigurations.empty()) // each store run's configuration once, not once per collocated run
            for (const Run& r : m_all)
                m_storeConfigurations.push_back(
                    configurationParams(r, m_options.repeatParams, runsPerGpu(r)));
        for (size_t i = 0; i < m_all.size(); ++i)
            if (const Run& r = m_all[i];
                r.uuid != run.uuid && countsAsRepeat(r.status) && m_storeConfigurations[i] == solo)
                out.push_back(&r);
        return out;
    }

    /// A collocated run against its solo baseline: by epoch time when both log epochs, else by
    /// duration (the same params, the same work). Notes the baseline's runs for the workload's gain.
    json slowdown(const Run& run, const RunFacts& f) {
        const std::vector<const Run*> base = soloBaseline(run);
        std::vector<double> epochs, durations;
        for (const Run* b : base) {
            const RunFacts& bf = factsOf(*b);
            if (bf.epochSeconds && *bf.epochSeconds > 0)
                epochs.push_back(*bf.epochSeconds);
            if (bf.j["duration_s"].get<double>() > 0)
                durations.push_back(bf.j["duration_s"].get<double>());
        }
        if (!durations.empty())
            m_soloBaselines[run.uuid] = base;
        json uuids = json::array();
        for (const Run* b : base)
            uuids.push_back(b->uuid);
        json slowdown = {{"baseline_run", base.size() == 1 && !m_options.baseline.empty()
                                              ? json(base.front()->uuid)
                                              : json(nullptr)},
                         {"baseline_runs", uuids},
                         {"basis", nullptr},
                         {"baseline_n", 0},
                         {"factor", nullptr},
                         {"why", nullptr}};
        if (f.epochSeconds && !epochs.empty()) {
            slowdown["basis"] = "epoch";
            slowdown["baseline_n"] = epochs.size();
            slowdown["factor"] = *f.epochSeconds / mean(epochs);
        } else if (!durations.empty()) {
            slowdown["basis"] = "duration";
            slowdown["baseline_n"] = durations.size();
            slowdown["factor"] = f.j["duration_s"].get<double>() / mean(durations);
        } else {
            slowdown["why"] = base.empty() ? "no finished solo run of the same params (repeat params aside) "
                                             "in the store; --baseline names one"
                                           : "the solo runs have no duration";
        }
        return slowdown;
    }

    /// A solo baseline's runs' durations and GPU energies (alone, all of a GPU's energy is its own).
    json soloSummary(const std::vector<const Run*>& base, size_t jobs) {
        std::vector<double> durations, energies;
        json uuids = json::array();
        for (const Run* b : base) {
            const RunFacts& bf = factsOf(*b);
            uuids.push_back(b->uuid);
            if (bf.j["duration_s"].get<double>() > 0)
                durations.push_back(bf.j["duration_s"].get<double>());
            if (bf.gpuJ)
                energies.push_back(*bf.gpuJ);
        }
        return {{"runs", uuids},
                {"jobs", jobs},
                {"duration_s", summaryJson(durations)},
                {"gpu_energy_j", summaryJson(energies)}};
    }

    // Collocation's gain: the runs together against the same runs one
    // after another alone (their solo configurations' means), in time and in energy per job.
    json collocationGain(const std::vector<const Run*>& members, const std::optional<double>& total) {
        const bool collocated = std::any_of(members.begin(), members.end(), [&](const Run* r) {
            return m_facts[r->uuid].j["slowdown"].is_object();
        });
        int64_t from = m_facts[members.front()->uuid].from, to = m_facts[members.front()->uuid].to;
        // A job deleted since: no verdict without it, and the reason said where the verdict was.
        std::string deleted;
        for (const Run* r : members)
            for (const Run* mate : m_byDevice[{workloadId(*r), firstDevice(*r)}])
                if (mate->deleted && deleted.find(mate->uuid) == std::string::npos)
                    deleted += (deleted.empty() ? "" : " ") + mate->uuid;
        if (!deleted.empty() && collocated) {
            for (const Run* r : members) {
                from = std::min(from, m_facts[r->uuid].from);
                to = std::max(to, m_facts[r->uuid].to);
            }
            return {{"jobs", members.size()},
                    {"together_s", double(to - from) / 1000.0},
                    {"together_j", orNull(total)},
                    {"energy_per_job_together_j", nullptr},
                    {"solo", json::array()},
                    {"why", "a job of this workload is deleted, so there is no verdict without it (radt run "
                            "restore " +
                                deleted + ")"}};
        }
        if (members.size() <= 1 || !collocated)
            return nullptr;
        // Jobs of one solo baseline count it once per job: one after another, it runs k times.
        std::vector<std::pair<std::vector<const Run*>, size_t>> baselines;
        std::vector<std::string> without;
        for (const Run* r : members) {
            from = std::min(from, m_facts[r->uuid].from);
            to = std::max(to, m_facts[r->uuid].to);
            const auto it = m_soloBaselines.find(r->uuid);
            if (it == m_soloBaselines.end()) {
                without.push_back(r->letter().empty() ? r->uuid.substr(0, 8) : r->letter());
                continue;
            }
            auto same = std::find_if(baselines.begin(), baselines.end(),
                                     [&](const auto& b) { return b.first == it->second; });
            if (same == baselines.end())
                baselines.emplace_back(it->second, 1);
            else
                ++same->second;
        }
        const size_t jobs = members.size();
        json gain = {{"jobs", jobs},
                     {"together_s", double(to - from) / 1000.0},
                     {"together_j", orNull(total)},
                     {"energy_per_job_together_j", total ? json(*total / double(jobs)) : json(nullptr)},
                     {"solo", json::array()}};
        for (const auto& [base, count] : baselines)
            gain["solo"].push_back(soloSummary(base, count));
        addGainFigures(gain, without);
        return gain;
    }

    Store& m_store;
    const ReportOptions& m_options;
    std::map<int64_t, std::string> m_experimentNames;
    const std::vector<Run> m_all;
    const std::vector<Run> m_deleted; ///< they still shared their GPUs: partners' shares count them
    std::map<std::pair<std::string, std::string>, std::vector<const Run*>> m_byDevice;
    std::map<std::string, RunFacts> m_facts;
    std::vector<std::map<std::string, std::string>> m_storeConfigurations;        ///< by index into m_all
    std::map<std::string, std::vector<const Run*>, NaturalTextOrder> m_workloads; ///< "1-2" before "1-10"
    /// Per collocated run with a solo baseline: its runs, for the workload's gain.
    std::map<std::string, std::vector<const Run*>> m_soloBaselines;
};

} // namespace

std::vector<Run> resolveReportTargets(Store& store, const std::vector<std::string>& targets) {
    if (targets.empty())
        throw std::invalid_argument(
            "radt report needs a run id, a workload <experiment>-<workload> or an experiment");
    const std::vector<Run> all = store.runs();
    const std::vector<Experiment> experiments = store.experiments();
    std::vector<Run> out;
    std::set<std::string> seen;
    auto add = [&](const Run& r) {
        if (seen.insert(r.uuid).second)
            out.push_back(r);
    };
    for (const std::string& target : targets) {
        std::vector<const Run*> matches;
        // A run id or its prefix.
        if (target.size() >= 5 && target.find_first_not_of("0123456789abcdef") == std::string::npos)
            for (const Run& r : all)
                if (r.uuid.compare(0, target.size(), target) == 0)
                    matches.push_back(&r);
        if (matches.size() > 1)
            throw std::invalid_argument("run id prefix '" + target + "' matches " +
                                        std::to_string(matches.size()) + " runs; give more characters");
        if (matches.size() == 1) {
            add(*matches.front());
            continue;
        }
        // A workload "<experiment id>-<workload>".
        if (const auto dash = target.find('-'); dash != std::string::npos &&
                                                isDigits(target.substr(0, dash)) &&
                                                !target.substr(dash + 1).empty()) {
            const int64_t experiment = std::stoll(target.substr(0, dash));
            const std::string workload = target.substr(dash + 1);
            for (const Run& r : all)
                if (r.experimentId == experiment && r.workload() == workload)
                    matches.push_back(&r);
        }
        // An experiment, by name or id (one without runs is a target with nothing to report).
        bool experimentFound = false;
        if (matches.empty())
            for (const Experiment& e : experiments)
                if (e.name == target || (isDigits(target) && e.id == std::stoll(target))) {
                    experimentFound = true;
                    for (const Run& r : all)
                        if (r.experimentId == e.id)
                            matches.push_back(&r);
                }
        if (matches.empty() && !experimentFound)
            throw std::invalid_argument(
                "'" + target + "' names no run, workload or experiment in " + store.displayUri() +
                " (a run id or 5+ character prefix, <experiment id>-<workload>, or an "
                "experiment name or id)");
        for (const Run* r : matches)
            add(*r);
    }
    return out;
}

json buildReport(Store& store, const std::vector<Run>& runs, const ReportOptions& options,
                 const std::function<void(size_t, size_t)>& progress) {
    ReportBuilder builder(store, options);
    json report;
    report["settings"] = reportSettings(runs, options);
    report["runs"] = json::array();
    builder.analyseTargets(runs, progress);
    for (const Run& run : runs)
        report["runs"].push_back(builder.runEntry(run));
    ConfigurationOptions configurationOptions;
    configurationOptions.repeatParams = options.repeatParams;
    configurationOptions.baseline = options.baseline;
    addConfigurations(report, runs, configurationOptions);
    report["workloads"] = builder.workloadEntries();
    addCollocationVerdicts(report);
    return report;
}

} // namespace radt
