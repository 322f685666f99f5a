// SPDX-License-Identifier: MIT
#include "widgets/chart/engine/ChartOptionsJson.h"

#include "core/base/TextFormat.h"
#include "widgets/common/Formatting.h"

#include <QDateTime>
#include <QObject>

#include <cmath>

namespace radt {

using nlohmann::json;

const std::vector<OptionName<ChartOptions::XAxis>>& xAxisNames() {
    using X = ChartOptions::XAxis;
    // In the order of the chart's x-axis box.
    static const std::vector<OptionName<X>> all = {
        {X::SinceStart, "time", "time"},
        {X::Step, "step", "step"},
        {X::WallClock, "wallclock", "wall clock"},
        {X::Epoch, "epoch", "epoch",
         "Hardware samples placed by the epoch in progress, from the run's stepped software metric"},
    };
    return all;
}

const std::vector<XAxisMode>& xAxisModes() {
    using X = ChartOptions::XAxis;
    const auto sameUnits = [](double) { return 1.0; };
    static const std::vector<XAxisMode> all = {
        // Line x is ms since the start; the axis shows seconds, minutes or hours by the runs' length.
        {X::SinceStart, [](double msPerTimeUnit) { return msPerTimeUnit; },
         [](double msPerTimeUnit, const QString&) {
             return msPerTimeUnit >= 3600000.0 ? QObject::tr("time since start (h)")
                    : msPerTimeUnit >= 60000.0 ? QObject::tr("time since start (min)")
                                               : QObject::tr("time since start (s)");
         },
         [](int64_t x, double) {
             return QObject::tr("%1 after the start").arg(toQString(formatElapsed(x)));
         }},
        {X::Step, sameUnits, [](double, const QString&) { return QObject::tr("step"); },
         [](int64_t x, double) { return QObject::tr("step %1").arg(x); }},
        {X::WallClock, sameUnits, [](double, const QString&) { return QObject::tr("wall clock"); },
         [](int64_t x, double) {
             return QDateTime::fromMSecsSinceEpoch(x).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
         }},
        // Line x is thousandths of an epoch.
        {X::Epoch, [](double) { return 1000.0; },
         [](double, const QString& epochKey) {
             return epochKey.isEmpty() ? QObject::tr("epoch (these runs log no stepped software metric)")
                                       : QObject::tr("epoch (from %1)").arg(displayName(epochKey));
         },
         [](int64_t, double axisX) { return QObject::tr("epoch %1").arg(axisX, 0, 'f', 2); }},
    };
    return all;
}

const XAxisMode& xAxisMode(ChartOptions::XAxis value) {
    for (const XAxisMode& mode : xAxisModes())
        if (mode.value == value)
            return mode;
    return xAxisModes().front(); // every mode has its row (test_chart_engine checks)
}

const std::vector<OptionName<ChartOptions::Aggregate>>& aggregateNames() {
    using A = ChartOptions::Aggregate;
    static const std::vector<OptionName<A>> all = {
        {A::Auto, "auto", "Automatic: merged if run together, else mean with band"},
        {A::Merge, "merge", "Merged into one line (radT)"},
        {A::MeanBand, "meanband", "Mean with a band"},
    };
    return all;
}

const std::vector<OptionName<ChartOptions::Grouping>>& groupingNames() {
    using G = ChartOptions::Grouping;
    static const std::vector<OptionName<G>> all = {
        {G::Workload, "workload", "Per workload (radT)"},
        {G::None, "none", "No grouping: every run its own line"},
        {G::Configuration, "configuration", "Per configuration (params less seed)",
         "The runs whose params are equal once radT's bookkeeping and the seed are set aside: their mean "
         "with a band"},
        {G::Params, "params", "By params…",
         "The runs that share the params you pick: their mean with a band"},
    };
    return all;
}

const std::vector<OptionName<ChartOptions::Band>>& bandNames() {
    using B = ChartOptions::Band;
    static const std::vector<OptionName<B>> all = {
        {B::Ci95, "ci95", "95 % CI of the mean", "Student t over the runs with data at each x"},
        {B::Sd, "sd", "Standard deviation"},
        {B::MinMax, "minmax", "Min to max"},
    };
    return all;
}

const std::vector<OptionName<ChartOptions::Naming>>& namingNames() {
    using N = ChartOptions::Naming;
    static const std::vector<OptionName<N>> all = {
        {N::Readable, "readable", "Readable names (what differs between the runs)"},
        {N::RadtIds, "radt", "radT's ids (1-3 0_A)"},
    };
    return all;
}

const std::vector<OptionName<ChartOptions::Dense>>& denseNames() {
    using D = ChartOptions::Dense;
    static const std::vector<OptionName<D>> all = {
        {D::Range, "range", "Mean per pixel with the min–max range behind it"},
        {D::Raw, "raw", "Every pixel's extremes joined (no averaging)"},
    };
    return all;
}

json chartOptionsToJson(const ChartOptions& o, bool withRadtKeys) {
    json j = {{"logY", o.logY},
              {"monochrome", o.monochrome},
              {"lineWidth", o.lineWidth},
              {"xAxis", optionName(xAxisNames(), o.xAxis)},
              {"aggregate", optionName(aggregateNames(), o.aggregate)},
              {"seriesNames", optionName(namingNames(), o.naming)},
              {"dense", optionName(denseNames(), o.dense)},
              {"grouping", optionName(groupingNames(), o.grouping)},
              {"groupParams", o.groupParams},
              {"band", optionName(bandNames(), o.band)}};
    if (withRadtKeys) {
        j["smoothing"] = o.smoothing;
        j["shownRuns"] = json::array();
        for (const QString& w : o.shownRuns)
            j["shownRuns"].push_back(w.toStdString());
        j["hiddenSeries"] = json::array();
        for (const QString& s : o.hiddenSeries)
            j["hiddenSeries"].push_back(s.toStdString());
    }
    return j;
}

namespace {

template <typename E>
void readEnum(const json& j, const char* key, const std::vector<OptionName<E>>& table, E& out,
              const std::function<void(const std::string&, const std::string&)>& problem) {
    const auto it = j.find(key);
    if (it == j.end())
        return;
    if (it->is_string())
        for (const OptionName<E>& n : table)
            if (it->get<std::string>() == n.name) {
                out = n.value;
                return;
            }
    if (it->is_number_integer()) // a session written before the names: the enum's value
        for (const OptionName<E>& n : table)
            if (it->get<int64_t>() == int64_t(n.value)) {
                out = n.value;
                return;
            }
    std::string expected;
    for (size_t i = 0; i < table.size(); ++i)
        expected += std::string(i == 0                  ? ""
                                : i + 1 == table.size() ? " or "
                                                        : ", ") +
                    "\"" + table[i].name + "\"";
    problem(key, "expected " + expected + ", got " + it->dump());
}

void readNames(const json& j, const char* key, std::set<QString>& out,
               const std::function<void(const std::string&, const std::string&)>& problem) {
    const auto it = j.find(key);
    if (it == j.end())
        return;
    if (!it->is_array()) {
        problem(key, "expected a list of names, got " + it->dump());
        return;
    }
    std::set<QString> names;
    for (const json& v : *it) {
        if (!v.is_string()) {
            problem(key, "expected a list of names, got " + it->dump());
            return;
        }
        names.insert(QString::fromStdString(v.get<std::string>()));
    }
    out = std::move(names);
}

} // namespace

void chartOptionsFromJson(
    const json& j, ChartOptions& o,
    const std::function<void(const std::string& key, const std::string& what)>& problem) {
    auto boolean = [&](const char* key, bool& out) {
        if (auto it = j.find(key); it != j.end()) {
            if (it->is_boolean())
                out = it->get<bool>();
            else
                problem(key, "expected true or false, got " + it->dump());
        }
    };
    boolean("logY", o.logY);
    boolean("monochrome", o.monochrome);
    if (auto it = j.find("lineWidth"); it != j.end()) {
        if (it->is_number() && std::isfinite(it->get<double>()) && it->get<double>() >= 0.5 &&
            it->get<double>() <= 8)
            o.lineWidth = it->get<double>();
        else
            problem("lineWidth", "expected a number from 0.5 to 8, got " + it->dump());
    }
    readEnum(j, "xAxis", xAxisNames(), o.xAxis, problem);
    readEnum(j, "aggregate", aggregateNames(), o.aggregate, problem);
    readEnum(j, "seriesNames", namingNames(), o.naming, problem);
    readEnum(j, "dense", denseNames(), o.dense, problem);
    readEnum(j, "grouping", groupingNames(), o.grouping, problem);
    // Before bands had a choice a mean's band was min to max: such files keep it.
    o.band =
        j.is_object() && !j.contains("band") && j.contains("aggregate") ? ChartOptions::Band::MinMax : o.band;
    readEnum(j, "band", bandNames(), o.band, problem);
    if (auto it = j.find("groupParams"); it != j.end()) {
        std::vector<std::string> names;
        for (const json& v : it->is_array() ? *it : json::array())
            if (v.is_string() && !v.get<std::string>().empty())
                names.push_back(v.get<std::string>());
        if (!it->is_array() || names.size() != it->size())
            problem("groupParams", "expected a list of param names, got " + it->dump());
        else
            o.groupParams = std::move(names);
    }
    readEnum(j, "naming", namingNames(), o.naming, problem); // sessions before the names
    if (auto it = j.find("smoothing"); it != j.end()) {
        if (it->is_number_integer() && it->get<int64_t>() >= 0 && it->get<int64_t>() <= 99)
            o.smoothing = int(it->get<int64_t>());
        else
            problem("smoothing", "expected a whole number from 0 to 99, got " + it->dump());
    }
    readNames(j, "shownRuns", o.shownRuns, problem);
    readNames(j, "hiddenSeries", o.hiddenSeries, problem);
}

} // namespace radt
