// SPDX-License-Identifier: MIT
#include "core/analysis/InsightFigures.h"

#include "core/base/MetricKeys.h"
#include "core/base/TextFormat.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

using nlohmann::json;

namespace radt::insight {

namespace {

json field(const json& run, const char* key) {
    return run.value(key, json());
}

/// Mean of the first utilisation metric of the role the run has (in the role's order of
/// preference), in percent of its scale.
json utilisationPct(const json& run, KeyRole role) {
    const json util = run.value("util", json::object());
    for (const std::string& key : keysOfRole(role))
        if (util.contains(key) && util[key]["mean"].is_number() && util[key]["scale"].is_number())
            return util[key]["mean"].get<double>() * 100 / util[key]["scale"].get<double>();
    return json();
}

json percent(const json& share) {
    return share.is_number() ? json(share.get<double>() * 100) : json();
}

/// What the run is charged with: its share of a GPU it shared, else the whole.
json chargedEnergy(const json& r) {
    const json attributed = field(r, "gpu_energy_attributed_j");
    return attributed.is_null() ? field(r, "gpu_energy_j") : attributed;
}

std::string noGpuEnergy(const json& r) {
    for (const json& note : r.value("energy_notes", json::array()))
        if (note.is_string())
            return note.get<std::string>();
    return "no GPU energy counter or power series was recorded for this run";
}

// The figures' values and blanks that take more than a line (runFigures() is a table).

json chargedWattHours(const json& r) {
    const json j = chargedEnergy(r);
    return j.is_number() ? json(j.get<double>() / 3600.0) : json();
}

json chargedEnergyPerEpoch(const json& r) {
    const json attributed = field(r, "energy_per_epoch_attributed_j");
    return attributed.is_null() ? field(r, "energy_per_epoch_j") : attributed;
}

std::string whyNoEnergyPerEpoch(const json& r) {
    return r.value("epochs", json(0)) == 0 ? std::string("the run logs no epochs (no epoch metric)")
                                           : noGpuEnergy(r);
}

std::string whyNoCo2e(const json& r) {
    return chargedEnergy(r).is_null() ? noGpuEnergy(r)
                                      : std::string("no grid carbon intensity is set (g/kWh)");
}

std::string whyNoSlowdown(const json& r) {
    const json s = r.value("slowdown", json());
    if (s.is_object() && s["why"].is_string())
        return s["why"].get<std::string>();
    return std::string("it ran alone: a slowdown is measured for runs that shared a GPU, against "
                       "the solo runs of the same params");
}

/// The runs it shared its GPU with, by the first 7 characters of their ids.
json sharedWithShortIds(const json& r) {
    if (!r.value("collocation", json()).is_object())
        return json();
    std::string s;
    for (const json& u : r["collocation"]["shared_with"])
        s += (s.empty() ? "" : " ") + u.get<std::string>().substr(0, 7);
    return json(s);
}

std::string printf3(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

/// 3 significant digits: 4.04, 40.4, 404.
std::string significant3(double v) {
    const double a = std::fabs(v);
    const char* format = a >= 99.95 ? "%.0f" : a >= 9.995 ? "%.1f" : a >= 0.9995 ? "%.2f" : "%.3g";
    return printf3(format, v);
}

struct Prefix {
    double factor;
    const char* symbol;
};

const std::vector<Prefix>& prefixes(Unit unit) {
    static const std::vector<Prefix> joules = {{1, "J"}, {1e3, "kJ"}, {1e6, "MJ"}, {1e9, "GJ"}};
    static const std::vector<Prefix> wattHours = {{1, "Wh"}, {1e3, "kWh"}, {1e6, "MWh"}};
    static const std::vector<Prefix> grams = {{1, "g"}, {1e3, "kg"}, {1e6, "t"}};
    static const std::vector<Prefix> seconds = {{1, "s"}, {60, "min"}, {3600, "h"}};
    static const std::vector<Prefix> none = {{1, ""}};
    switch (unit) {
    case Unit::Joules:
        return joules;
    case Unit::WattHours:
        return wattHours;
    case Unit::Grams:
        return grams;
    case Unit::Seconds:
        return seconds;
    default:
        return none;
    }
}

/// The largest prefix that keeps `magnitude` at 1 or more (the first one below 1).
const Prefix& prefixFor(double magnitude, Unit unit) {
    const auto& all = prefixes(unit);
    const Prefix* chosen = &all.front();
    for (const Prefix& p : all)
        if (std::fabs(magnitude) >= p.factor)
            chosen = &p;
    return *chosen;
}

} // namespace

const std::vector<RunFigure>& runFigures() {
    // clang-format off
    static const std::vector<RunFigure> all = {
        {"name", "Run", Unit::Text, 0, true, false, nullptr, 0,
         [](const json& r) { return field(r, "name"); }, nullptr},
        {"run_id", "Run id", Unit::Text, 0, false, false, "run", -12,
         [](const json& r) { return json(r["run_uuid"].get<std::string>().substr(0, 10)); }, nullptr},
        {"experiment", "Experiment", Unit::Text, 0, true, false, nullptr, 0,
         [](const json& r) { return field(r, "experiment"); }, nullptr},
        {"workload", "Workload", Unit::Text, 0, true, false, "workload", -10,
         [](const json& r) { return field(r, "workload"); }, nullptr},
        {"letter", "Letter", Unit::Text, 0, true, false, "letter", -14,
         [](const json& r) { return field(r, "letter"); }, nullptr},
        // In the terminal too: a run that is not FINISHED is no repeat of its configuration.
        {"status", "Status", Unit::Text, 0, true, false, "status", -10,
         [](const json& r) { return field(r, "status"); }, nullptr},
        {"duration_s", "Duration", Unit::Seconds, 1, true, true, "time", 10,
         [](const json& r) { return field(r, "duration_s"); }, nullptr},
        {"gpu_energy_j", "GPU energy", Unit::Joules, 1, true, true, "GPU J", 12, chargedEnergy, nullptr, noGpuEnergy},
        {"gpu_energy_wh", "Energy in Wh", Unit::WattHours, 3, true, false, nullptr, 0, chargedWattHours, nullptr},
        {"gpu_energy_source", "Source", Unit::Text, 0, true, false, "source", 9,
         [](const json& r) { return field(r, "gpu_energy_source"); }, nullptr},
        {"energy_coverage_pct", "Coverage", Unit::Percent, 0, true, false, "cover", 7,
         [](const json& r) { return percent(field(r, "energy_coverage")); }, nullptr},
        {"cpu_energy_j", "CPU energy", Unit::Joules, 1, true, false, "CPU J", 10,
         [](const json& r) { return field(r, "cpu_energy_j"); }, nullptr,
         [](const json&) { return std::string("no RAPL energy series (RAPL - ...) was recorded for this run"); }},
        {"epochs", "Epochs", Unit::Count, 0, true, false, "epochs", 8,
         [](const json& r) { return field(r, "epochs"); }, nullptr},
        {"energy_per_epoch_j", "Energy / epoch", Unit::Joules, 1, true, true, "J/epoch", 11,
         chargedEnergyPerEpoch, nullptr, whyNoEnergyPerEpoch},
        {"co2e_g", "CO2e", Unit::Grams, 3, true, true, "CO2e", 10,
         [](const json& r) { return field(r, "co2e_g"); }, nullptr, whyNoCo2e},
        {"gpu_util_pct", "GPU util", Unit::Percent, 1, true, true, nullptr, 0,
         [](const json& r) { return utilisationPct(r, KeyRole::GpuUtilisation); }, nullptr,
         [](const json&) { return "no GPU utilisation series (" + roleKeysText(KeyRole::GpuUtilisation) + ")"; }},
        {"sm_active_pct", "SM active", Unit::Percent, 1, true, true, nullptr, 0,
         [](const json& r) { return utilisationPct(r, KeyRole::SmActivity); }, nullptr,
         [](const json&) { return std::string("SM activity comes from DCGM (dcgmi listener); not recorded here"); }},
        {"util_smact_gap_pp", "Util − SMACT", Unit::PercentPoints, 1, true, false, "gap pp", 10,
         [](const json& r) { return field(r, "util_smact_gap_pp"); },
         [](const json& r) { return r.value("util_smact_flag", json()).is_boolean() && r["util_smact_flag"].get<bool>(); },
         [](const json&) { return std::string("needs DCGM's GPU utilisation and SM activity over the same time"); }},
        {"input_stall_pct", "Input stalls", Unit::Percent, 1, true, true, nullptr, 0,
         [](const json& r) { return percent(field(r, "input_stall_share")); }, nullptr,
         [](const json&) {
             return std::string("needs the GPU's utilisation and the run's processes' CPU utilisation (PROC - CPU "
                                "Utilization) over the same time");
         }},
        {"slowdown", "Slowdown", Unit::Factor, 2, true, true, "slowdown", 10,
         [](const json& r) { return r.value("slowdown", json()).is_object() ? r["slowdown"]["factor"] : json(); },
         nullptr, whyNoSlowdown},
        {"shared_with", "Shared GPU with", Unit::Text, 0, true, false, nullptr, 0, sharedWithShortIds, nullptr},
    };
    // clang-format on
    return all;
}

const RunFigure& runFigure(std::string_view key) {
    for (const RunFigure& f : runFigures())
        if (key == f.key)
            return f;
    throw std::out_of_range("no report figure named '" + std::string(key) + "'");
}

std::string whyBlank(const RunFigure& figure, const json& run) {
    return figure.whyBlank ? figure.whyBlank(run) : "not recorded for this run";
}

int viewColumn(std::string_view key) {
    int column = 0;
    for (const RunFigure& f : runFigures()) {
        if (!f.inView)
            continue;
        if (key == f.key)
            return column;
        ++column;
    }
    return -1;
}

const char* unitSymbol(Unit unit) {
    switch (unit) {
    case Unit::Seconds:
        return "s";
    case Unit::Joules:
        return "J";
    case Unit::WattHours:
        return "Wh";
    case Unit::Grams:
        return "g";
    case Unit::Percent:
        return "%";
    case Unit::PercentPoints:
        return "pp";
    case Unit::Factor:
        return "x";
    case Unit::Text:
    case Unit::Count:
        break;
    }
    return "";
}

bool scaledByMagnitude(Unit unit) {
    return unit == Unit::Seconds || unit == Unit::Joules || unit == Unit::WattHours || unit == Unit::Grams;
}

std::string formatForPeople(double value, Unit unit, int decimals) {
    if (!std::isfinite(value))
        return "–";
    if (unit == Unit::Seconds) {
        const bool tenths = std::fabs(value) < 600;
        const double rounded = tenths ? std::round(std::fabs(value) * 10) / 10 : std::round(std::fabs(value));
        const auto whole = static_cast<long long>(rounded);
        const long long h = whole / 3600, m = whole / 60 % 60;
        char buffer[64];
        if (tenths)
            std::snprintf(buffer, sizeof buffer, "%s%lld:%02lld:%04.1f", value < 0 ? "-" : "", h, m,
                          rounded - double(h * 3600 + m * 60));
        else
            std::snprintf(buffer, sizeof buffer, "%s%lld:%02lld:%02lld", value < 0 ? "-" : "", h, m,
                          whole % 60);
        return buffer;
    }
    if (scaledByMagnitude(unit)) {
        const Prefix& p = prefixFor(value, unit);
        return significant3(value / p.factor) + " " + p.symbol;
    }
    return printf3(("%." + std::to_string(std::max(decimals, 0)) + "f").c_str(), value);
}

std::string formatMeanAndHalfWidth(double mean, const double* halfWidth, Unit unit, int decimals,
                                   const AxisScale* scale) {
    if (scale && scaledByMagnitude(unit)) {
        const std::string symbol = scale->symbol.empty() ? std::string() : " " + scale->symbol;
        if (halfWidth)
            return formatMeanPlusMinus(mean / scale->divisor, *halfWidth / scale->divisor, 2) + symbol;
        return significant3(mean / scale->divisor) + symbol;
    }
    if (!scaledByMagnitude(unit)) {
        if (halfWidth) // the mean to the precision its interval gives it: "1498 ± 53"
            return formatMeanPlusMinus(mean, *halfWidth, std::max(decimals, 0));
        const std::string format = "%." + std::to_string(std::max(decimals, 0)) + "f";
        return printf3(format.c_str(), mean);
    }
    const Prefix& p = prefixFor(mean, unit);
    if (halfWidth) // "4.040 ± 0.061 kJ": both to the interval's two significant digits
        return formatMeanPlusMinus(mean / p.factor, *halfWidth / p.factor, 2) + " " + p.symbol;
    return significant3(mean / p.factor) + " " + p.symbol;
}

AxisScale axisScale(double top, Unit unit) {
    if (!scaledByMagnitude(unit))
        return {1, unitSymbol(unit)};
    const Prefix& p = prefixFor(top, unit);
    return {p.factor, p.symbol};
}

AxisScale tableScale(Unit unit) {
    if (unit == Unit::Joules)
        return {1e3, "kJ"};
    return {1, unitSymbol(unit)};
}

} // namespace radt::insight
