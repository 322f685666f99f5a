// SPDX-License-Identifier: MIT
#include "widgets/board/BoardIo.h"

#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartOptionsJson.h"
#include "widgets/common/Formatting.h"

#include <algorithm>
#include <cmath>

namespace radt {

using nlohmann::json;

namespace {

// radT's run object as the explorer's Run: radT folds the experiment into the workload id
// ("1-3") and names the model and data params; everything else it knows is in "params".
Run runFromBoard(const BoardRun& b) {
    Run run;
    run.uuid = b.uuid;
    run.experimentId = b.experimentId.value_or(0);
    run.status =
        b.status ? runStatusFromString(*b.status).value_or(RunStatus::Finished) : RunStatus::Finished;
    run.startTime = b.startTime.value_or(0);
    if (b.startTime && b.duration)
        run.endTime = *b.startTime + *b.duration;
    if (b.params.is_object()) {
        for (const auto& [key, value] : b.params.items())
            if (!value.is_null())
                run.params[key] = value.is_string() ? value.get<std::string>() : value.dump();
    } else if (b.params.is_string()) {
        run.params["params"] = b.params.get<std::string>(); // older radT: the raw argument string
    }
    if (b.workload) {
        const std::string prefix = std::to_string(run.experimentId) + "-";
        const std::string workload =
            b.workload->rfind(prefix, 0) == 0 ? b.workload->substr(prefix.size()) : *b.workload;
        if (workload != "null") // radT's "<experiment>-null": a run outside any workload, drawn alone
            run.params["workload"] = workload;
    }
    if (b.letter)
        run.params["letter"] = *b.letter;
    if (b.model)
        run.params["model"] = *b.model;
    if (b.source)
        run.params["data"] = *b.source;
    return run;
}

BoardRun boardRunFromStore(const ChartRunData& r, const std::map<int64_t, QString>& experimentNames,
                           int64_t now) {
    const Run& run = r.run;
    BoardRun b;
    b.uuid = run.uuid;
    b.experimentId = run.experimentId;
    if (auto it = experimentNames.find(run.experimentId); it != experimentNames.end())
        b.experimentName = it->second.toStdString();
    if (!run.workload().empty())
        b.workload = workloadKeyOf(run).toStdString();
    auto optionalParam = [&run](const char* key) -> std::optional<std::string> {
        const std::string v = run.param(key);
        return v.empty() ? std::nullopt : std::optional<std::string>(v);
    };
    b.letter = optionalParam("letter");
    b.model = optionalParam("model");
    b.source = optionalParam("data");
    b.params = json::object();
    for (const auto& [key, value] : run.params)
        b.params[key] = value;
    b.status = toString(run.status);
    b.startTime = run.startTime;
    b.duration = run.durationMs(now);
    return b;
}

} // namespace

BoardChartView viewFromBoard(const BoardChart& chart, int chartIndex, const std::string& sourceName,
                             std::vector<BoardProblem>& problems) {
    BoardChartView view;
    view.metric = toQString(chart.metric);
    for (const BoardRun& b : chart.runs) {
        ChartRunData r;
        r.run = runFromBoard(b);
        r.experimentName = b.experimentName.value_or("");
        r.series = b.points;
        auto meta = std::make_shared<BoardRun>(b);
        meta->points = Series(); // the points live in r.series only
        r.boardRun = std::move(meta);
        view.runs.push_back(std::move(r));
    }
    ChartOptions& o = view.options;
    o.smoothing = std::clamp(chart.smoothing, 0, 99);
    o.shownRuns = {};
    for (const std::string& w : chart.shownRuns)
        o.shownRuns.insert(toQString(w));
    for (const std::string& s : chart.hiddenSeries)
        o.hiddenSeries.insert(toQString(s));
    if (chart.rangeMax > chart.rangeMin && std::isfinite(chart.rangeMin) && std::isfinite(chart.rangeMax))
        view.zoom = std::make_pair(static_cast<int64_t>(std::llround(chart.rangeMin)),
                                   static_cast<int64_t>(std::llround(chart.rangeMax)));

    // A radT board (or one saved before these settings existed) keeps radT's series names, which
    // its hidden series refer to, and radT's literal merge.
    o.naming = ChartOptions::Naming::RadtIds;
    o.aggregate = ChartOptions::Aggregate::Merge;
    // The explorer's own keys: anything unexpected is named and left at its default.
    const auto found = chart.extra.find("explorer");
    if (found == chart.extra.end() || found->is_null())
        return view;
    const std::string where =
        sourceName + ": chart " + std::to_string(chartIndex + 1) + " (\"" + chart.metric + "\"): explorer";
    auto problem = [&](const std::string& key, const std::string& what) {
        problems.push_back({chartIndex, where + (key.empty() ? "" : "." + key) + ": " + what});
    };
    if (!found->is_object()) {
        problem("", "expected an object; the explorer's settings are left at their defaults");
        return view;
    }
    const json& e = *found;
    chartOptionsFromJson(e, o, problem);
    // A zoom on another axis than time since start lives here; radT's range is in ms since start.
    if (auto it = e.find("zoom"); it != e.end() && !it->is_null()) {
        if (it->is_array() && it->size() == 2 && (*it)[0].is_number_integer() &&
            (*it)[1].is_number_integer() && (*it)[1].get<int64_t>() > (*it)[0].get<int64_t>())
            view.zoom = std::make_pair((*it)[0].get<int64_t>(), (*it)[1].get<int64_t>());
        else
            problem("zoom", "expected [from, to] with from < to, got " + it->dump());
    } else if (o.xAxis != ChartOptions::XAxis::SinceStart) {
        view.zoom.reset(); // radT's range means nothing on a step or wall-clock axis
    }
    return view;
}

BoardChart boardFromChart(const ChartPanel& chart, int64_t id,
                          const std::map<int64_t, QString>& experimentNames) {
    BoardChart b;
    b.id = id;
    b.metric = chart.engine().metricKey().toStdString();
    const int64_t now = nowMs();
    for (const ChartRunData& r : chart.engine().runs()) {
        BoardRun run = r.boardRun ? *r.boardRun : boardRunFromStore(r, experimentNames, now);
        run.points = fullSeries(r);
        b.runs.push_back(std::move(run));
    }
    const ChartOptions& o = chart.engine().options();
    b.smoothing = o.smoothing;
    for (const QString& w : o.shownRuns)
        b.shownRuns.push_back(w.toStdString());
    for (const QString& s : o.hiddenSeries)
        b.hiddenSeries.push_back(s.toStdString());
    json explorer = chartOptionsToJson(o, false);
    if (const auto zoom = chart.engine().zoom()) {
        if (o.xAxis == ChartOptions::XAxis::SinceStart) {
            b.rangeMin = double(zoom->first);
            b.rangeMax = double(zoom->second);
        } else {
            explorer["zoom"] = {zoom->first, zoom->second};
        }
    }
    b.extra["explorer"] = std::move(explorer);
    return b;
}

} // namespace radt
