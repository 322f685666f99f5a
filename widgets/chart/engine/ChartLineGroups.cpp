// SPDX-License-Identifier: MIT
// The series rules (resources/DESIGN.md §9): which runs of a chart make which line, and the line's
// name. Runs of a workload merge into one line unless it is shown run by run (radT's rule); the
// user may instead group lines by configuration or by params they pick, each group
// drawn as its mean with a band and named by what tells the groups apart.
#include "widgets/chart/engine/ChartLines.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/ConfigurationLabels.h"
#include "widgets/common/Formatting.h"

#include <algorithm>
#include <map>
#include <set>

#include <QObject>
#include <QStringList>

namespace radt {

bool ranTogether(const std::vector<ChartRunData>& runs, const std::vector<size_t>& which) {
    if (which.size() < 2)
        return true;
    // A run's span: start to end (or its last sample while it has no end).
    auto span = [&runs](size_t i) {
        const ChartRunData& r = runs[i];
        const int64_t lastSample = r.series.empty() ? r.run.startTime : r.series.t.back();
        const int64_t start = r.run.startTime > 0 ? r.run.startTime
                              : r.series.empty()  ? 0
                                                  : r.series.t.front();
        return std::make_pair(start, std::max(r.run.endTime.value_or(lastSample), start));
    };
    const auto first = span(which.front());
    return std::all_of(which.begin() + 1, which.end(), [&](size_t i) {
        const auto other = span(i);
        return other.first < first.second && first.first < other.second;
    });
}

namespace {

// Params that say nothing about what differs between lines: radT's bookkeeping.
bool namesNothing(const std::string& key) {
    return key == "workload" || key == "letter" || key == "params" || key == "manual" || key == "listeners";
}

QString experimentLabel(const ChartRunData& r) {
    return r.experimentName.empty() ? QObject::tr("experiment %1").arg(r.run.experimentId)
                                    : toQString(r.experimentName);
}

// Names for people: what tells the lines apart. The params every run of a line shares, where
// lines differ in them ("batch-size=128"); else the run's name, or the workload for merged runs;
// the experiment first when the runs come from several.
void nameReadably(std::vector<ChartLineGroup>& groups, const std::vector<ChartRunData>& runs) {
    // Each run's params as people name them: the script's flags count ("--batch-size 64").
    std::vector<ParamMap> readable;
    readable.reserve(runs.size());
    for (const ChartRunData& r : runs)
        readable.push_back(readableParams(r.run.params));
    std::vector<ParamMap> shared(groups.size());
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        const auto& members = groups[gi].runs;
        for (const auto& [key, value] : readable[members.front()]) {
            if (namesNothing(key))
                continue;
            // Init-captures: C++17 lambdas cannot capture structured bindings (clang rejects it).
            const bool same = std::all_of(members.begin(), members.end(),
                                          [&readable, &key = key, &value = value](size_t r) {
                                              const auto it = readable[r].find(key);
                                              return it != readable[r].end() && it->second == value;
                                          });
            if (same)
                shared[gi][key] = value;
        }
    }
    // The rule configurations are named by (ConfigurationLabels): one rule for lines and labels.
    const std::vector<std::string> differing = tellingParams(shared);
    std::set<int64_t> experiments;
    for (const ChartRunData& r : runs)
        experiments.insert(r.run.experimentId);
    constexpr size_t kMostParams = 3;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        ChartLineGroup& g = groups[gi];
        const ChartRunData& first = runs[g.runs.front()];
        QStringList said;
        for (const std::string& key : differing) {
            if (said.size() == int(kMostParams))
                break;
            if (const auto it = shared[gi].find(key);
                it != shared[gi].end() && !it->second.empty() && it->second != "-")
                said << toQString(key) + QLatin1Char('=') + displayName(toQString(it->second), 24);
        }
        QString name = said.join(QLatin1Char(' '));
        if (name.isEmpty())
            name = g.merged                 ? QObject::tr("workload %1").arg(toQString(first.run.workload()))
                   : first.run.name.empty() ? seriesLabelOf(first.run)
                                            : toQString(first.run.name);
        if (experiments.size() > 1)
            name = experimentLabel(first) + QStringLiteral(": ") + name;
        g.name = name;
    }
    // Lines still named alike are told apart by radT's id of the line.
    std::map<QString, int> uses;
    for (const ChartLineGroup& g : groups)
        ++uses[g.name];
    for (ChartLineGroup& g : groups) {
        if (uses[g.name] < 2)
            continue;
        const Run& run = runs[g.runs.front()].run;
        g.name += QStringLiteral(" (") +
                  (g.merged                 ? g.workloadKey
                   : run.workload().empty() ? toQString(run.uuid.substr(0, 5))
                                            : seriesLabelOf(run)) +
                  QLatin1Char(')');
    }
}

} // namespace

namespace {

/// How many of the chart's runs share each run's GPU in its workload (radT's collocation: runs of
/// one workload on one device), by run index; 1 for a run without a workload.
std::vector<size_t> runsPerGpu(const std::vector<ChartRunData>& runs) {
    auto gpuOf = [](const Run& run) {
        const std::string devices = run.param("devices").empty() ? "0" : run.param("devices");
        return std::make_pair(workloadKeyOf(run), devices.substr(0, devices.find('+')));
    };
    std::map<std::pair<QString, std::string>, size_t> sharing;
    for (const ChartRunData& r : runs)
        if (!r.run.workload().empty())
            ++sharing[gpuOf(r.run)];
    std::vector<size_t> out;
    out.reserve(runs.size());
    for (const ChartRunData& r : runs)
        out.push_back(r.run.workload().empty() ? 1 : sharing[gpuOf(r.run)]);
    return out;
}

/// The params a run's group is told by: its configuration (params less radT's bookkeeping and the
/// repeat param seed, the script's argument string read as its flags, and how many runs shared
/// its GPU, as `radt report` keys configurations: two jobs of an MPS pair are not repeats of a run
/// alone), or the params picked.
ParamMap groupParamsOf(const Run& run, const ChartOptions& options, size_t sharingItsGpu) {
    if (options.grouping == ChartOptions::Grouping::Configuration)
        return readableParams(configurationParams(run, {"seed"}, sharingItsGpu));
    const ParamMap all = readableParams(run.params);
    ParamMap picked;
    for (const std::string& name : options.groupParams) {
        const auto it = all.find(name);
        picked[name] = it == all.end() ? std::string("-") : it->second;
    }
    return picked;
}

/// Runs grouped by configuration or by picked params: each group one line, its mean with a band
/// once it has two runs, named by the fewest params that tell the groups apart and its N, in the
/// order of those params (numbers as numbers), as `radt report` orders configurations. Only
/// finished runs are in a mean and its N, by the report's rule (countsAsRepeat): a running,
/// failed or killed run is drawn as a line of its own after its group's, saying why, as is a run
/// set apart (ChartOptions::apartRuns: "this run" over its history's mean and band).
std::vector<ChartLineGroup> groupByParams(const std::vector<ChartRunData>& runs,
                                          const ChartOptions& options) {
    std::vector<ParamMap> keys;
    std::map<ParamMap, size_t> indexOf;
    std::vector<std::vector<size_t>> members, unfinished;
    const std::vector<size_t> sharing = runsPerGpu(runs);
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto [at, added] =
            indexOf.emplace(groupParamsOf(runs[i].run, options, sharing[i]), keys.size());
        if (added) {
            keys.push_back(at->first);
            members.emplace_back();
            unfinished.emplace_back();
        }
        const bool apart = options.apartRuns.count(toQString(runs[i].run.uuid)) > 0;
        (countsAsRepeat(runs[i].run.status) && !apart ? members : unfinished)[at->second].push_back(i);
    }
    const ConfigurationNames names = nameConfigurations(keys);
    std::vector<ChartLineGroup> groups;
    for (const size_t k : names.order) {
        const QString label = toQString(names.labels[k]);
        if (!members[k].empty()) {
            ChartLineGroup g;
            // Jobs that shared a GPU in one workload are one trial, as `radt report` counts them:
            // the line's N counts its workloads, as the Insights view's N does ("runs_per_gpu=2
            // (N=3)" over 6 runs: a longer "N=3 workloads" lost its params in a 1024 px legend).
            // (Runs of one workload on GPUs of their own are repeats each, as in replicatesOf.)
            std::set<std::pair<int64_t, std::string>> workloads;
            for (const size_t i : members[k])
                workloads.insert({runs[i].run.experimentId, sharing[i] > 1 && !runs[i].run.workload().empty()
                                                                ? runs[i].run.workload()
                                                                : runs[i].run.uuid});
            g.name = label + QStringLiteral(" (N=%1)").arg(std::min(workloads.size(), members[k].size()));
            g.workloadKey = QStringLiteral("group:") + label;
            g.merged = true;
            g.runs = members[k];
            g.band = g.runs.size() > 1;
            g.grouped = true;
            groups.push_back(std::move(g));
        }
        for (const size_t i : unfinished[k]) {
            const Run& run = runs[i].run;
            ChartLineGroup g;
            const bool apart = countsAsRepeat(run.status); // set apart: the run judged against the others
            // Alone in the chart, a run set apart needs no group's name before its own.
            g.name = apart && keys.size() == 1
                         ? QStringLiteral("this run: %1 (not in N)").arg(seriesLabelOf(run))
                         : QStringLiteral("%1: %2 (%3, not in N)")
                               .arg(label, seriesLabelOf(run),
                                    apart ? QStringLiteral("this run")
                                          : toQString(toString(run.status)).toLower());
            g.workloadKey = QStringLiteral("group:") + label + QLatin1Char('/') + toQString(run.uuid);
            g.merged = false;
            g.runs = {i};
            groups.push_back(std::move(g));
        }
    }
    return groups;
}

} // namespace

std::vector<ChartLineGroup> groupChartRuns(const std::vector<ChartRunData>& runs,
                                           const ChartOptions& options) {
    using G = ChartOptions::Grouping;
    if (options.grouping == G::Configuration ||
        (options.grouping == G::Params && !options.groupParams.empty()))
        return groupByParams(runs, options);
    std::vector<ChartLineGroup> groups;
    std::map<QString, size_t> byKey;
    for (size_t i = 0; i < runs.size(); ++i) {
        const Run& run = runs[i].run;
        const QString key = workloadKeyOf(run);
        const bool merged =
            options.grouping == G::Workload && !run.workload().empty() && !options.shownRuns.count(key);
        const QString groupKey = merged ? key : key + QLatin1Char('/') + toQString(run.uuid);
        auto it = byKey.find(groupKey);
        if (it == byKey.end()) {
            it = byKey.emplace(groupKey, groups.size()).first;
            // Merged runs are named by the workload id, as radT names them ("1-3").
            groups.push_back({merged ? key : seriesLabelOf(run), key, merged, {}});
        }
        groups[it->second].runs.push_back(i);
    }
    for (ChartLineGroup& g : groups)
        g.band = g.merged && g.runs.size() > 1 &&
                 (options.aggregate == ChartOptions::Aggregate::MeanBand ||
                  (options.aggregate == ChartOptions::Aggregate::Auto && !ranTogether(runs, g.runs)));
    if (options.naming == ChartOptions::Naming::Readable && !groups.empty()) {
        nameReadably(groups, runs);
        return groups;
    }
    // Two groups named alike (the same workload id in two experiments) must stay apart.
    std::map<QString, int> uses;
    for (const ChartLineGroup& g : groups)
        ++uses[g.name];
    for (size_t gi = 0; gi < groups.size(); ++gi)
        if (uses[groups[gi].name] > 1)
            groups[gi].name += QStringLiteral(" #%1").arg(gi + 1);
    return groups;
}

} // namespace radt
