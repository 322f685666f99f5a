#include "core/analysis/InsightReport.h"

#include "core/analysis/InsightFigures.h"

#include "core/analysis/BurstInsight.h"
#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/EnergyInsight.h"
#include "core/analysis/EpochInsight.h"
#include "core/analysis/UtilisationInsight.h"
#include "core/base/InsightSeries.h"
#include "core/base/TextFormat.h"
#include "core/store/StoreCompaction.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <new>
#include <set>
#include <sstream>
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

RunFacts analyseRun(Store& store, const Run& run, const ReportOptions& options,
                    const std::string& experimentName) {
    RunData data(store, run);
    auto read = data.reader();
    RunFacts f;
    f.from = data.from;
    f.to = data.to;
    json& j = f.j;
    j["run_uuid"] = run.uuid;
    j["name"] = run.name;
    j["experiment"] = experimentName;
    j["workload"] = workloadId(run).empty() ? json(nullptr) : json(workloadId(run));
    j["letter"] = run.letter().empty() ? json(nullptr) : json(run.letter());
    j["status"] = toString(run.status);
    j["duration_s"] = double(data.to - data.from) / 1000.0;
    j["window_note"] = data.windowNote.empty() ? json(nullptr) : json(data.windowNote);

    const EnergyEstimate gpu = gpuEnergy(data.keys, read, data.from, data.to);
    for (const std::string& key : data.keys)
        for (const char* base : {kEnergyCounterKey, kDcgmiPowerKey, kSmiPowerKey, kSmiDmonPowerKey})
            if (key.rfind(base, 0) == 0)
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
    // The energy cross-check (issue 23 §1): counter against integrated power where a device has both.
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
    if (options.gridIntensity && (gpu.joules || cpu))
        j["co2e_g"] =
            co2eGrams(gpu.joules.value_or(0) + cpu.value_or(0), *options.gridIntensity, options.pue);
    else
        j["co2e_g"] = nullptr;

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

    std::vector<std::string> burstKeys;
    for (const std::string& key : data.keys) {
        const bool net = key.rfind("NET - ", 0) == 0;
        if (key == "DCGMI - GPU Utilization" || key == "SMI - GPU Util" || key == "SMI - Mem Util" ||
            key == "DCGMI - Memory Copy Utilization" || net ||
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
    j["burst_idle"] = bursts;
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
    std::map<int64_t, std::string> experimentNames;
    for (const Experiment& e : store.experiments())
        experimentNames[e.id] = e.name;
    const std::vector<Run> all = store.runs();

    // Which runs shared a GPU: runs of one workload on the same first device.
    std::map<std::pair<std::string, std::string>, std::vector<const Run*>> byDevice;
    for (const Run& r : all)
        if (!workloadId(r).empty())
            byDevice[{workloadId(r), firstDevice(r)}].push_back(&r);

    json report;
    report["settings"] = {{"grid_intensity_g_per_kwh", orNull(options.gridIntensity)},
                          {"pue", options.pue},
                          {"max_gap_intervals", kMaxGapIntervals},
                          {"idle_below_share_of_scale", kIdleShareOfScale},
                          {"util_smact_flag_pp", kUtilSmactFlagPp},
                          {"burst_window_s", kBurstWindowMs / 1000},
                          {"stall_gpu_below_pct", options.stalls.gpuBelowPct},
                          {"stall_cpu_cores", options.stalls.cpuCores}};
    // A repeat param no run has: radt report refuses it, the Insights view (whose field may hold a
    // typo) says it.
    report["settings"]["repeat_params"] = options.repeatParams;
    report["settings"]["unknown_repeat_params"] = unknownRepeatParams(runs, options.repeatParams);
    report["runs"] = json::array();
    std::map<std::string, RunFacts> facts;
    size_t done = 0;
    for (const Run& run : runs) {
        facts[run.uuid] = analyse(store, run, options, experimentNames[run.experimentId]);
        if (progress)
            progress(++done, runs.size());
    }

    auto factsOf = [&](const Run& r) -> RunFacts& {
        auto it = facts.find(r.uuid);
        if (it == facts.end())
            it = facts.emplace(r.uuid, analyse(store, r, options, experimentNames[r.experimentId])).first;
        return it->second;
    };
    auto runsPerGpu = [&](const Run& r) -> size_t {
        if (workloadId(r).empty())
            return 1;
        return byDevice[{workloadId(r), firstDevice(r)}].size();
    };
    // The solo configuration of a collocated run: finished runs of the same params (repeat params
    // aside) that had their GPU alone, without MPS or MIG. Or the --baseline run or configuration.
    std::vector<std::map<std::string, std::string>> storeConfigurations; // by index into `all`
    auto soloBaseline = [&](const Run& run) -> std::vector<const Run*> {
        std::vector<const Run*> out;
        if (!options.baseline.empty() && options.baseline[0] != '#') {
            for (const Run& r : all)
                if (r.uuid.compare(0, options.baseline.size(), options.baseline) == 0)
                    return {&r};
            return out;
        }
        auto solo = configurationParams(run, options.repeatParams, 1);
        if (solo.count("collocation"))
            solo["collocation"] = "-";
        if (storeConfigurations.empty()) // each store run's configuration once, not once per collocated run
            for (const Run& r : all)
                storeConfigurations.push_back(configurationParams(r, options.repeatParams, runsPerGpu(r)));
        for (size_t i = 0; i < all.size(); ++i)
            if (const Run& r = all[i];
                r.uuid != run.uuid && countsAsRepeat(r.status) && storeConfigurations[i] == solo)
                out.push_back(&r);
        return out;
    };
    auto mean = [](const std::vector<double>& v) {
        double sum = 0;
        for (const double x : v)
            sum += x;
        return sum / double(v.size());
    };

    std::map<std::string, std::vector<const Run*>> workloads;
    // Per collocated run: its solo configuration's mean duration and energy, for the workload's gain.
    std::map<std::string, std::pair<double, std::optional<double>>> soloMeans;
    for (const Run& run : runs) {
        RunFacts& f = facts[run.uuid];
        json& j = f.j;
        j["collocation"] = nullptr;
        j["slowdown"] = nullptr;
        // What the run is charged with: its share of each GPU it shared (equal split).
        const size_t sharing = runsPerGpu(run);
        std::optional<double> attributed = f.gpuJ;
        if (sharing > 1 && f.gpuJ) {
            std::vector<std::pair<int64_t, int64_t>> windows;
            for (const Run* m : byDevice[{workloadId(run), firstDevice(run)}]) {
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
        if (options.gridIntensity && sharing > 1 && !j["co2e_g"].is_null())
            j["co2e_g"] =
                co2eGrams(attributed.value_or(0) +
                              (j["cpu_energy_j"].is_number() ? j["cpu_energy_j"].get<double>() : 0.0),
                          *options.gridIntensity, options.pue);
        const bool collocatedByParam = !run.param("collocation").empty() && run.param("collocation") != "-";
        if (!workloadId(run).empty())
            workloads[workloadId(run)].push_back(&run);
        if (sharing > 1) {
            const auto& mates = byDevice[{workloadId(run), firstDevice(run)}];
            json others = json::array();
            for (const Run* m : mates)
                if (m->uuid != run.uuid)
                    others.push_back(m->uuid);
            // Every run of a shared GPU sees that GPU's whole series: split its energy.
            j["collocation"] = {{"shared_with", others},
                                {"device", firstDevice(run)},
                                {"energy_share_j", j["gpu_energy_attributed_j"]},
                                {"method", "equal"}};
        }
        if (sharing > 1 || collocatedByParam) {
            // By epoch time when both log epochs, else by duration: the same params, the same work.
            const std::vector<const Run*> base = soloBaseline(run);
            std::vector<double> epochs, durations, energies;
            for (const Run* b : base) {
                const RunFacts& bf = factsOf(*b);
                if (bf.epochSeconds && *bf.epochSeconds > 0)
                    epochs.push_back(*bf.epochSeconds);
                if (bf.j["duration_s"].get<double>() > 0)
                    durations.push_back(bf.j["duration_s"].get<double>());
                if (bf.gpuJ) // alone: all of its GPU's energy is its own
                    energies.push_back(*bf.gpuJ);
            }
            if (!durations.empty())
                soloMeans[run.uuid] = {
                    mean(durations), energies.empty() ? std::nullopt : std::optional<double>(mean(energies))};
            json uuids = json::array();
            for (const Run* b : base)
                uuids.push_back(b->uuid);
            json slowdown = {{"baseline_run", base.size() == 1 && !options.baseline.empty()
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
                slowdown["factor"] = j["duration_s"].get<double>() / mean(durations);
            } else {
                slowdown["why"] = base.empty()
                                      ? "no finished solo run of the same params (repeat params aside) "
                                        "in the store; --baseline names one"
                                      : "the solo runs have no duration";
            }
            j["slowdown"] = slowdown;
        }
        report["runs"].push_back(j);
    }
    ConfigurationOptions configurationOptions;
    configurationOptions.repeatParams = options.repeatParams;
    configurationOptions.baseline = options.baseline;
    addConfigurations(report, runs, configurationOptions);

    report["workloads"] = json::array();
    for (const auto& [id, members] : workloads) {
        // Each physical GPU once: the runs' shares of a shared GPU add up to its energy.
        json uuids = json::array();
        std::optional<double> total;
        for (const Run* r : members) {
            uuids.push_back(r->uuid);
            if (const auto& a = facts[r->uuid].attributedJ)
                total = total.value_or(0) + *a;
        }
        // Collocation's gain (issue 23 §3): the runs together against the same runs one after
        // another alone (their solo configurations' means), in time and in energy.
        json gain = nullptr;
        if (members.size() > 1 && std::all_of(members.begin(), members.end(),
                                              [&](const Run* r) { return soloMeans.count(r->uuid); })) {
            int64_t from = facts[members.front()->uuid].from, to = facts[members.front()->uuid].to;
            double aloneS = 0, aloneJ = 0;
            bool energyKnown = total.has_value();
            for (const Run* r : members) {
                from = std::min(from, facts[r->uuid].from);
                to = std::max(to, facts[r->uuid].to);
                aloneS += soloMeans[r->uuid].first;
                energyKnown = energyKnown && soloMeans[r->uuid].second;
                aloneJ += soloMeans[r->uuid].second.value_or(0);
            }
            const double togetherS = double(to - from) / 1000.0;
            gain = {{"together_s", togetherS},
                    {"alone_one_after_another_s", aloneS},
                    {"throughput_gain", togetherS > 0 ? json(aloneS / togetherS) : json(nullptr)},
                    {"together_j", orNull(total)},
                    {"alone_one_after_another_j", energyKnown ? json(aloneJ) : json(nullptr)},
                    {"energy_ratio", energyKnown && aloneJ > 0 ? json(*total / aloneJ) : json(nullptr)}};
        }
        report["workloads"].push_back(
            {{"workload", id}, {"gpu_energy_j", orNull(total)}, {"runs", uuids}, {"collocation_gain", gain}});
    }
    return report;
}

namespace {

std::string fixed(double v, int precision) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(precision) << v;
    return s.str();
}

/// "12.0 ± 1.3" (the CI's half-width) or the mean alone when n < 2, with "(n=2)" where the figure
/// is over fewer runs than its configuration's N; "-" without values.
std::string meanAndCi(const json& stat, double scale, int precision, size_t configurationN) {
    if (stat["mean"].is_null())
        return "-";
    std::ostringstream s;
    s << std::fixed << std::setprecision(precision) << stat["mean"].get<double>() * scale;
    if (stat["ci95"].is_array())
        s << " ± " << (stat["ci95"][1].get<double>() - stat["ci95"][0].get<double>()) / 2 * scale;
    if (stat["n"].get<size_t>() != configurationN)
        s << " (n=" << stat["n"].get<size_t>() << ")";
    return s.str();
}

std::string configurationLabel(const json& params) {
    std::string label;
    for (const auto& [name, value] : params.items())
        label += (label.empty() ? "" : ", ") + name + "=" + value.get<std::string>();
    return label.empty() ? "all runs" : label;
}

std::string configurationTable(const json& report) {
    const json& configurations = report.value("configurations", json::array());
    const std::string leftOut = leftOutOfConfigurationsNote(report);
    if (configurations.empty())
        return leftOut.empty() ? std::string() : "\n" + leftOut + "\n";
    std::ostringstream out;
    std::set<size_t> pareto;
    for (const json& i : report.value("pareto", json::array()))
        pareto.insert(i.get<size_t>());
    out << "\nconfiguration  N   time s (mean ± CI95)   GPU kJ (mean ± CI95)     GPU util %   params\n";
    for (size_t c = 0; c < configurations.size(); ++c) {
        const json& st = configurations[c]["stats"];
        const size_t n = configurations[c]["runs"].size();
        std::ostringstream index;
        index << "#" << c << (pareto.count(c) ? " *" : "");
        out << std::left << std::setw(15) << index.str() << std::right << std::setw(2) << n << std::setw(23)
            << meanAndCi(st["duration_s"], 1, 2, n) << std::setw(23)
            << meanAndCi(st["gpu_energy_j"], 1e-3, 3, n) << std::setw(15)
            << meanAndCi(st["gpu_util_pct"], 1, 1, n) << "   "
            << configurationLabel(configurations[c]["params"]) << "\n";
    }
    out << "* on the efficiency frontier (no other configuration is both faster and cheaper in energy)\n";
    if (!leftOut.empty())
        out << leftOut << "\n";
    const json& comparisons = report.value("comparisons", json::array());
    if (!comparisons.empty()) {
        out << "\ncomparison   figure          ratio b/a   Welch t       p   N a/b\n";
        for (const json& k : comparisons) {
            std::ostringstream pair, p, t;
            pair << "#" << k["b"].get<size_t>() << " vs #" << k["a"].get<size_t>();
            if (k["p_value"].is_null()) {
                p << "-";
                t << "-";
            } else {
                const double pv = k["p_value"].get<double>();
                p << (pv < 0.001 ? "<0.001" : fixed(pv, 3));
                t << std::fixed << std::setprecision(2) << k["welch_t"].get<double>();
            }
            out << std::left << std::setw(13) << pair.str() << std::setw(16) << k["figure"].get<std::string>()
                << std::right << std::setw(9)
                << (k["ratio"].is_null() ? std::string("-") : fixed(k["ratio"].get<double>(), 3))
                << std::setw(10) << t.str() << std::setw(8) << p.str() << "   " << k["n_a"].get<size_t>()
                << "/" << k["n_b"].get<size_t>() << "\n";
        }
        if (std::any_of(comparisons.begin(), comparisons.end(),
                        [](const json& k) { return k["p_value"].is_null(); }))
            out << "-: no test where a configuration has one run (no significance from n < 2) or no spread\n";
    }
    return out.str();
}

} // namespace

std::string reportTable(const json& report) {
    std::ostringstream out;
    auto num = [](const json& v, int precision, const char* unit = "") -> std::string {
        if (v.is_null())
            return "-";
        std::ostringstream s;
        s << std::fixed << std::setprecision(precision) << v.get<double>() << unit;
        return s.str();
    };
    // The per-run table: the figures that runFigures() puts in the terminal, in its order.
    for (const insight::RunFigure& f : insight::runFigures())
        if (f.terminal)
            out << (f.terminalWidth < 0 ? std::left : std::right) << std::setw(std::abs(f.terminalWidth))
                << f.terminal;
    out << "\n";
    for (const json& r : report.at("runs")) {
        for (const insight::RunFigure& f : insight::runFigures()) {
            if (!f.terminal)
                continue;
            const json v = f.value(r);
            std::string cell = v.is_null()     ? std::string("-")
                               : v.is_string() ? v.get<std::string>()
                                               : num(v, f.decimals);
            using insight::Unit; // J and pp are in the headers
            if (v.is_number() && (f.unit == Unit::Seconds || f.unit == Unit::Percent ||
                                  f.unit == Unit::Grams || f.unit == Unit::Factor))
                cell += insight::unitSymbol(f.unit);
            if (f.flagged && f.flagged(r))
                cell += "!";
            out << (f.terminalWidth < 0 ? std::left : std::right) << std::setw(std::abs(f.terminalWidth))
                << cell;
        }
        out << "\n";
    }
    bool noted = false; // a blank line after the notes, only when there are notes
    for (const json& r : report.at("runs")) {
        const std::string run = r["run_uuid"].get<std::string>().substr(0, 10);
        if (const json& check = r.value("energy_check", json());
            !check.is_null() && r.value("energy_check_flag", false))
            out << "\n"
                << run << " energy check: counter " << num(check["counter_j"], 1) << " J, integrated power "
                << num(check["power_j"], 1) << " J (" << num(check["disagreement_pct"], 1) << " % apart)";
        for (const json& note : r.value("energy_notes", json::array()))
            out << "\n" << run << " energy: " << note.get<std::string>();
        if (const json& note = r.value("window_note", json()); note.is_string())
            out << "\n" << run << " window: " << note.get<std::string>();
        noted = noted || r.value("energy_check_flag", false) ||
                !r.value("energy_notes", json::array()).empty() || r.value("window_note", json()).is_string();
    }
    if (noted)
        out << "\n";
    for (const json& r : report.at("runs")) {
        if (r["util"].empty())
            continue;
        out << "\n"
            << r["run_uuid"].get<std::string>().substr(0, 10) << " utilisation (mean / p50 / p95 / idle):\n";
        for (const auto& [key, p] : r["util"].items())
            out << "  " << std::left << std::setw(34) << key << std::right << std::setw(9)
                << num(p["mean"], 2) << std::setw(9) << num(p["p50"], 2) << std::setw(9) << num(p["p95"], 2)
                << std::setw(8) << num(json(p["idle_share"].get<double>() * 100), 0, "%") << "\n";
        if (const json& share = r.value("input_stall_share", json()); share.is_number())
            out << "  input stalls: " << num(json(share.get<double>() * 100), 1, "%") << " of the time ("
                << num(r["input_stall_s"], 1, "s") << ": GPU under "
                << num(report["settings"]["stall_gpu_below_pct"], 0, "%")
                << " while the run's processes used " << num(report["settings"]["stall_cpu_cores"], 1)
                << "+ cores)\n";
        for (const auto& [key, b] : r["burst_idle"].items())
            out << "  burst/idle " << key << ": burst " << num(b["burst_mean"], 2) << " for "
                << num(b["burst_duration_s"]["mean"], 1, "s") << ", idle " << num(b["idle_mean"], 2)
                << " for " << num(b["idle_duration_s"]["mean"], 1, "s") << "; windows I "
                << num(json(b["patterns"]["I"].get<double>() * 100), 0, "%") << " B "
                << num(json(b["patterns"]["B"].get<double>() * 100), 0, "%") << " BIB "
                << num(json(b["patterns"]["BIB"].get<double>() * 100), 0, "%") << "\n";
    }
    out << configurationTable(report);
    if (!report.at("workloads").empty()) {
        out << "\nworkload    GPU J (each GPU once)  runs   together vs one after another alone\n";
        for (const json& w : report.at("workloads")) {
            out << std::left << std::setw(12) << w["workload"].get<std::string>() << std::right
                << std::setw(21) << num(w["gpu_energy_j"], 1) << "  " << std::setw(4) << w["runs"].size();
            if (const json& g = w.value("collocation_gain", json()); g.is_object())
                out << "   " << num(g["together_s"], 1, "s") << " vs "
                    << num(g["alone_one_after_another_s"], 1, "s") << " ("
                    << num(g["throughput_gain"], 2, "x throughput") << "), energy x"
                    << num(g["energy_ratio"], 2);
            out << "\n";
        }
    }
    const json& s = report.at("settings");
    out << "\nGaps over " << s["max_gap_intervals"] << " sampling intervals are not bridged; idle below "
        << num(json(s["idle_below_share_of_scale"].get<double>() * 100), 0, "%")
        << " of a metric's scale; '!' marks a "
        << "util-SMACT gap of " << num(s["util_smact_flag_pp"], 0)
        << " pp or more; GPU J of runs that shared a GPU is their share (each moment's energy split "
           "equally among the runs then active); CI95: Student t, n-1 degrees of freedom; p: Welch's "
           "two-sided t test.";
    if (!s["grid_intensity_g_per_kwh"].is_null())
        out << " CO2e at " << num(s["grid_intensity_g_per_kwh"], 0) << " g/kWh, PUE " << num(s["pue"], 2)
            << ".";
    out << "\n";
    return out.str();
}

} // namespace radt
