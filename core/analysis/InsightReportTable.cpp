// SPDX-License-Identifier: MIT
// reportTable(): `radt report`'s JSON as a table for a terminal, section by section.
#include "core/analysis/InsightReport.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/InsightFigures.h"
#include "core/base/TextFormat.h"

#include <algorithm>
#include <iomanip>
#include <set>
#include <sstream>

namespace radt {

using nlohmann::json;

namespace {

/// "12.0 ± 1.3" (the CI's half-width) or the mean alone when n < 2, with "(n=2)" where the figure
/// is over fewer runs than its configuration's N; "-" without values.
std::string meanAndCi(const json& stat, double scale, int precision, size_t configurationN) {
    if (stat["mean"].is_null())
        return "-";
    std::ostringstream s;
    const double mean = stat["mean"].get<double>() * scale;
    if (stat["ci95"].is_array()) // the mean to the precision its interval gives it
        s << formatMeanPlusMinus(
            mean, (stat["ci95"][1].get<double>() - stat["ci95"][0].get<double>()) / 2 * scale, precision);
    else
        s << formatFixed(mean, precision);
    if (stat["n"].get<size_t>() != configurationN)
        s << " (n=" << stat["n"].get<size_t>() << ")";
    return s.str();
}

std::string labelOf(const json& configurations, size_t c) {
    return c < configurations.size() ? configurations[c].value("label", "#" + std::to_string(c))
                                     : "#" + std::to_string(c);
}

std::string pText(const json& p) {
    return p.is_null()               ? std::string("-")
           : p.get<double>() < 0.001 ? std::string("<0.001")
                                     : formatFixed(p.get<double>(), 3);
}

/// "+4.2 [1.1, 7.3]": mean b - mean a and its 95 % interval, at the interval's precision.
std::string differenceText(const json& k, double scale) {
    const json& ci = k.value("diff_ci95", json());
    if (!ci.is_array()) { // no interval (n < 2): the difference alone, as the explorer shows it
        if (!k.value("diff", json()).is_number())
            return "-";
        const double diff = k["diff"].get<double>() * scale;
        return (diff > 0 ? "+" : "") + formatFixed(diff, 2);
    }
    const double lo = ci[0].get<double>() * scale, hi = ci[1].get<double>() * scale;
    const double diff = k["diff"].get<double>() * scale;
    const int decimals = intervalDecimals((hi - lo) / 2, 2);
    return (diff > 0 ? "+" : "") + formatFixed(diff, decimals) + " [" + formatFixed(lo, decimals) + ", " +
           formatFixed(hi, decimals) + "]";
}

void comparisonTable(std::ostream& out, const json& report) {
    const json& configurations = report.value("configurations", json::array());
    const json& comparisons = report.value("comparisons", json::array());
    const std::string scope = comparisonsScopeNote(report);
    if (comparisons.empty()) {
        if (!scope.empty())
            out << "\n" << scope << "\n";
        return;
    }
    out << "\nfigure          ratio b/a   diff b-a [95 % CI]          Welch t       p  p Holm   N a/b   "
           "compared (b vs a)\n";
    for (const json& k : comparisons) {
        const bool energy = k["figure"] == "gpu_energy_j";
        std::ostringstream t;
        if (!k["welch_t"].is_null())
            t << std::fixed << std::setprecision(2) << k["welch_t"].get<double>();
        std::ostringstream n;
        n << k["n_a"].get<size_t>() << "/" << k["n_b"].get<size_t>();
        out << std::left << std::setw(16) << (energy ? "gpu_energy_kj" : k["figure"].get<std::string>())
            << std::right << std::setw(9)
            << (k["ratio"].is_null() ? std::string("-") : formatFixed(k["ratio"].get<double>(), 3)) << "   "
            << std::left << std::setw(26) << differenceText(k, energy ? 1e-3 : 1) << std::right
            << std::setw(8) << (t.str().empty() ? "-" : t.str()) << std::setw(8) << pText(k["p_value"])
            << std::setw(8) << pText(k.value("p_adjusted", json())) << std::setw(8) << n.str() << "   "
            << labelOf(configurations, k["b"].get<size_t>()) << " vs "
            << labelOf(configurations, k["a"].get<size_t>()) << "\n";
    }
    if (std::any_of(comparisons.begin(), comparisons.end(),
                    [](const json& k) { return k["p_value"].is_null(); }))
        out << "-: no test where a configuration has one replicate (no significance from n < 2) or no "
               "spread\n";
    out << "p Holm: Welch's p adjusted by Holm-Bonferroni over the comparisons of the same figure\n";
    if (!scope.empty())
        out << scope << "\n";
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
    out << "\n#      N   time s (mean ± CI95)   GPU kJ (mean ± CI95)     GPU util %   configuration\n";
    for (size_t c = 0; c < configurations.size(); ++c) {
        const json& st = configurations[c]["stats"];
        const size_t n = configurationN(configurations[c]);
        std::ostringstream index;
        index << "#" << c << (pareto.count(c) ? " *" : "");
        out << std::left << std::setw(6) << index.str() << std::right << std::setw(3) << n << std::setw(23)
            << meanAndCi(st["duration_s"], 1, 2, n) << std::setw(23)
            << meanAndCi(st["gpu_energy_j"], 1e-3, 3, n) << std::setw(15)
            << meanAndCi(st["gpu_util_pct"], 1, 1, n) << "   " << labelOf(configurations, c) << "\n";
    }
    out << "* on the efficiency frontier (no other configuration is both faster and cheaper in energy)\n";
    if (!leftOut.empty())
        out << leftOut << "\n";
    if (const std::string replicates = replicatesNote(report); !replicates.empty())
        out << replicates << "\n";
    comparisonTable(out, report);
    return out.str();
}

std::string num(const json& v, int precision, const char* unit = "") {
    if (v.is_null())
        return "-";
    std::ostringstream s;
    s << std::fixed << std::setprecision(precision) << v.get<double>() << unit;
    return s.str();
}

/// The per-run table: the figures that runFigures() puts in the terminal, in its order.
void runTable(std::ostream& out, const json& report) {
    // Right after the run's id, its configuration's label: the params that tell the runs apart
    // ("batch-size=64"), so a reader knows which row is which; "-" for a run left out of them.
    const json& configurations = report.value("configurations", json::array());
    const auto configurationOf = [&configurations](const json& r) {
        const json& c = r.value("configuration", json());
        return c.is_number() && c.get<size_t>() < configurations.size()
                   ? configurations[c.get<size_t>()].value("label", std::string("-"))
                   : std::string("-");
    };
    size_t labelWidth = std::string("configuration").size();
    for (const json& r : report.at("runs"))
        labelWidth = std::max(labelWidth, configurationOf(r).size());
    const auto afterRunId = [&](const insight::RunFigure& f, const std::string& text) {
        if (std::string(f.key) == "run_id")
            out << std::left << std::setw(int(labelWidth) + 2) << text;
    };
    for (const insight::RunFigure& f : insight::runFigures())
        if (f.terminal) {
            out << (f.terminalWidth < 0 ? std::left : std::right) << std::setw(std::abs(f.terminalWidth))
                << f.terminal;
            afterRunId(f, "configuration");
        }
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
            afterRunId(f, configurationOf(r));
        }
        out << "\n";
    }
}

/// Each run's energy check, energy notes and window note.
void runNotes(std::ostream& out, const json& report) {
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
}

/// Each run's utilisation profiles, input stalls and burst/idle patterns.
void utilisationSections(std::ostream& out, const json& report) {
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
}

/// "41.2 ± 0.3 s" / "2.01 kJ": an estimate ({"mean", "ci95"}) in its unit, ± its interval's half-width.
std::string estimateText(const json& e, insight::Unit unit, int decimals) {
    if (!e["mean"].is_number())
        return "-";
    const double mean = e["mean"].get<double>();
    if (!e["ci95"].is_array())
        return insight::formatMeanAndHalfWidth(mean, nullptr, unit, decimals);
    const double half = (e["ci95"][1].get<double>() - e["ci95"][0].get<double>()) / 2;
    return insight::formatMeanAndHalfWidth(mean, &half, unit, decimals);
}

/// "x1.58 [1.52, 1.64]": a ratio and its (asymmetric) interval, at the interval's precision.
std::string ratioText(const json& value, const json& ci) {
    if (!value.is_number())
        return "-";
    if (!ci.is_array())
        return "x" + formatFixed(value.get<double>(), 2);
    const int decimals = ratioDecimals(ci[0].get<double>(), ci[1].get<double>());
    return "x" + formatFixed(value.get<double>(), decimals) + " [" +
           formatFixed(ci[0].get<double>(), decimals) + ", " + formatFixed(ci[1].get<double>(), decimals) +
           "]";
}

/// Did collocation pay off: per collocated configuration, its jobs together against the same jobs
/// one after another alone.
void collocationVerdicts(std::ostream& out, const json& report) {
    const json& verdicts = report.value("collocation", json::array());
    if (verdicts.empty())
        return;
    out << "\ncollocation: the jobs together against the same jobs one after another, each alone "
           "(its solo runs' mean)\n";
    for (const json& v : verdicts) {
        std::string ids;
        for (const json& w : v["workloads"])
            ids += (ids.empty() ? "" : ", ") + w.get<std::string>();
        out << "  " << v["label"].get<std::string>() << ": " << v["n"].get<size_t>() << " workload"
            << (v["n"].get<size_t>() == 1 ? "" : "s") << " of " << v["jobs"].get<size_t>() << " jobs (" << ids
            << ")";
        if (v["why"].is_string()) {
            out << "\n    " << v["why"].get<std::string>() << "\n";
            continue;
        }
        out << ", solo baseline " << v["solo_runs"].get<size_t>() << " run"
            << (v["solo_runs"].get<size_t>() == 1 ? "" : "s") << "\n    time:       together "
            << estimateText(v["together_s"], insight::Unit::Seconds, 1) << ", one after another alone "
            << estimateText(v["alone_one_after_another_s"], insight::Unit::Seconds, 1)
            << "\n    throughput: " << ratioText(v["throughput_gain"]["mean"], v["throughput_gain"]["ci95"])
            << "\n    energy/job: together "
            << estimateText(v["energy_per_job_together_j"], insight::Unit::Joules, 0) << ", alone "
            << estimateText(v["energy_per_job_alone_j"], insight::Unit::Joules, 0) << ": "
            << ratioText(v["energy_ratio"]["mean"], v["energy_ratio"]["ci95"]) << "\n";
        if (v.value("sentence", json()).is_string())
            out << "    verdict:    " << v["sentence"].get<std::string>() << "\n";
    }
}

void workloadTable(std::ostream& out, const json& report) {
    if (report.at("workloads").empty())
        return;
    out << "\nworkload    GPU J (each GPU once)  runs   together vs one after another alone\n";
    for (const json& w : report.at("workloads")) {
        out << std::left << std::setw(12) << w["workload"].get<std::string>() << std::right << std::setw(21)
            << num(w["gpu_energy_j"], 1) << "  " << std::setw(4) << w["runs"].size();
        if (const json& g = w.value("collocation_gain", json());
            g.is_object() && g.value("why", json()).is_string())
            out << "   " << num(g["together_s"], 1, "s") << "; " << g["why"].get<std::string>();
        else if (g.is_object())
            out << "   " << num(g["together_s"], 1, "s") << " vs "
                << num(g["alone_one_after_another_s"], 1, "s") << " ("
                << ratioText(g["throughput_gain"], g.value("throughput_gain_ci95", json()))
                << " throughput), energy "
                << ratioText(g["energy_ratio"], g.value("energy_ratio_ci95", json()));
        out << "\n";
    }
}

/// The closing line: the settings the figures depend on, and how to read them.
void settingsFooter(std::ostream& out, const json& report) {
    const json& s = report.at("settings");
    out << "\nGaps over " << s["max_gap_intervals"] << " sampling intervals are not bridged; idle below "
        << num(json(s["idle_below_share_of_scale"].get<double>() * 100), 0, "%")
        << " of a metric's scale; '!' marks a "
        << "util-SMACT gap of " << num(s["util_smact_flag_pp"], 0)
        << " pp or more; GPU J of runs that shared a GPU is their share (each moment's energy split "
           "equally among the runs then active); CI95: Student t, n-1 degrees of freedom; p: Welch's "
           "two-sided t test, its interval of the difference of means by Welch-Satterthwaite df; p Holm: "
           "Holm-Bonferroni over each figure's comparisons.";
    if (!s["grid_intensity_g_per_kwh"].is_null())
        out << " CO2e at " << num(s["grid_intensity_g_per_kwh"], 0) << " g/kWh, PUE " << num(s["pue"], 2)
            << ".";
    out << "\n";
}

} // namespace

std::string exactPValues(const json& report) {
    const json& configurations = report.value("configurations", json::array());
    const auto threeDigits = [](const json& p) {
        std::ostringstream text;
        if (p.is_number())
            text << std::setprecision(3) << p.get<double>();
        return p.is_number() ? text.str() : std::string("-");
    };
    std::ostringstream out;
    for (const json& k : report.value("comparisons", json::array())) {
        if (!k["p_value"].is_number())
            continue;
        if (out.tellp() == 0)
            out << "\nexact p (Welch's two-sided t test) and p Holm (adjusted over the figure's "
                   "comparisons):\n"
                << "figure                  p      p Holm   compared (b vs a)\n";
        out << std::left << std::setw(14) << k["figure"].get<std::string>() << std::right << std::setw(11)
            << threeDigits(k["p_value"]) << std::setw(12) << threeDigits(k.value("p_adjusted", json()));
        out << "   " << labelOf(configurations, k["b"].get<size_t>()) << " vs "
            << labelOf(configurations, k["a"].get<size_t>()) << "\n";
    }
    return out.str();
}

std::string reportTable(const json& report) {
    std::ostringstream out;
    runTable(out, report);
    runNotes(out, report);
    utilisationSections(out, report);
    out << configurationTable(report);
    workloadTable(out, report);
    collocationVerdicts(out, report);
    settingsFooter(out, report);
    return out.str();
}

} // namespace radt
