// SPDX-License-Identifier: MIT
#include "core/report/ReportTables.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/base/TextFormat.h"
#include "core/report/LatexText.h"

#include <iomanip>
#include <map>
#include <sstream>

namespace radt {

using nlohmann::json;

namespace {

/// The configuration's label as the report names it (a report from before labels: its handle).
std::string labelOf(const json& configurations, size_t c) {
    return configurations[c].value("label", "#" + std::to_string(c));
}

/// Every param that differs between the configurations, for the CSV.
std::string paramsText(const json& params) {
    std::string text;
    for (const auto& [name, value] : params.items())
        if (name != "params" || params.size() == 1) // the script's own params say it more shortly
            text += (text.empty() ? "" : ", ") + name + "=" + value.get<std::string>();
    return text.empty() ? "all runs" : text;
}

/// The comparisons with one reference, by (the other configuration, figure): looked up per row,
/// once made (a scan per row was quadratic in the configurations).
class ComparisonsWith {
public:
    ComparisonsWith(const json& report, size_t reference) {
        const auto it = report.find("comparisons");
        if (it == report.end() || !it->is_array())
            return;
        for (const json& k : *it) {
            const size_t a = k["a"].get<size_t>(), b = k["b"].get<size_t>();
            if (a == reference || b == reference)
                m_byOther[{a == reference ? b : a, k["figure"].get<std::string>()}] = &k;
        }
    }
    /// The comparison of configuration c with the reference for a figure; null when none.
    json of(size_t c, const std::string& figure) const {
        const auto it = m_byOther.find({c, figure});
        return it == m_byOther.end() ? json(nullptr) : *it->second;
    }

private:
    std::map<std::pair<size_t, std::string>, const json*> m_byOther;
};

/// Marks by the Holm-adjusted p (a report from before Holm: the raw p).
std::string stars(const json& comparison) {
    if (comparison.is_null() || comparison["p_value"].is_null())
        return "";
    const json& adjusted = comparison.value("p_adjusted", comparison["p_value"]);
    const double p = adjusted.is_number() ? adjusted.get<double>() : comparison["p_value"].get<double>();
    return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : "";
}

/// " ($n{=}2$)" where a figure's statistics are over fewer runs than its configuration's N (a run
/// without a power series has no energy); "" where they are over all of them.
std::string latexNMark(const json& stat, size_t configurationN) {
    const size_t n = stat.value("n", size_t(0));
    return n != configurationN && !stat["mean"].is_null() ? " ($n{=}" + std::to_string(n) + "$)" : "";
}

/// "$13.06 \pm 4.39$" (mean alone when n < 2), with its marks and its own N where that differs
/// from the configuration's; "--" without values.
std::string latexCell(const json& stat, double scale, int precision, const std::string& marks,
                      size_t configurationN) {
    if (stat["mean"].is_null())
        return "--";
    // The mean to the precision its interval gives it: "1498 \pm 53", never "1497.61 \pm 52.62".
    const double mean = stat["mean"].get<double>() * scale;
    std::string cell = "$" + formatFixed(mean, precision);
    if (stat["ci95"].is_array()) {
        const double half = (stat["ci95"][1].get<double>() - stat["ci95"][0].get<double>()) / 2 * scale;
        const int decimals = intervalDecimals(half, precision);
        cell = "$" + formatFixed(mean, decimals) + " \\pm " + formatFixed(half, decimals);
    }
    cell += marks.empty() ? "$" : "^{" + marks + "}$";
    return cell + latexNMark(stat, configurationN);
}

/// One row of the LaTeX table: "# & params & N & time & energy & util \\".
std::string latexRow(const json& report, const ComparisonsWith& comparisons, size_t c, size_t reference,
                     const std::string& label) {
    const json& configuration = report["configurations"][c];
    const json& st = configuration["stats"];
    const size_t n = configurationN(configuration);
    const bool isReference = c == reference;
    auto marks = [&](const char* figure) {
        return isReference ? std::string() : stars(comparisons.of(c, figure));
    };
    std::ostringstream row;
    // The name wraps in its column (ragged, not stretched); the group keeps \\ the row's end.
    row << c << " & {\\raggedright " << label << (isReference ? "$^{\\dagger}$" : "") << "\\par} & " << n
        << (configuration.value("replicate", "run") == "workload" ? "$^{w}$" : "") << " & "
        << latexCell(st["duration_s"], 1, 2, marks("duration_s"), n) << " & "
        << latexCell(st["gpu_energy_j"], 1e-3, 3, marks("gpu_energy_j"), n) << " & "
        << latexCell(st["gpu_util_pct"], 1, 1, "", n) << " \\\\\n";
    return row.str();
}

/// Whether any configuration's N counts workloads (its runs shared a GPU).
bool anyReplicatesByWorkload(const json& configurations) {
    for (const json& configuration : configurations)
        if (configuration.value("replicate", "run") == "workload")
            return true;
    return false;
}

/// Whether any figure of any configuration is over fewer runs than its configuration's N.
bool anyFigureOverFewerRuns(const json& configurations) {
    for (const json& configuration : configurations)
        for (const auto& [figure, stat] : configuration["stats"].items())
            if (!stat["mean"].is_null() && stat["n"].get<size_t>() != configurationN(configuration))
                return true;
    return false;
}

} // namespace

size_t referenceConfiguration(const json& report) {
    if (const auto scope = report.find("comparisons_scope"); scope != report.end() && scope->is_object())
        return scope->value("each_against", json(0)).is_number() ? scope->value("each_against", size_t(0))
                                                                 : 0;
    // A report from before comparisons_scope: each against one when every comparison has it as a.
    const json& comparisons = report.value("comparisons", json::array());
    if (comparisons.empty())
        return 0;
    const json first = comparisons.front()["a"];
    for (const json& k : comparisons)
        if (k["a"] != first)
            return 0; // every pair: configuration 0 is the reference
    return first.get<size_t>();
}

std::string configurationsLatex(const json& report) {
    const json& configurations = report.value("configurations", json::array());
    const size_t reference = referenceConfiguration(report);
    const ComparisonsWith comparisons(report, reference);
    // Labels first: what they could not print is said in comments above the table.
    std::string rows, lossComments;
    for (size_t c = 0; c < configurations.size(); ++c) {
        LatexTextLosses losses;
        const std::string label = latexText(labelOf(configurations, c), losses);
        lossComments += latexLossComments(losses, "configuration " + std::to_string(c));
        rows += latexRow(report, comparisons, c, reference, label);
    }
    std::ostringstream out;
    out << "% radt report --latex: needs \\usepackage{booktabs} and nothing else (param text is written "
           "in LaTeX's own commands; what plain pdflatex cannot print is said below)\n"
        << "% Fits an article's \\linewidth: names wrap in their column. Narrower text (two columns)? Use "
           "\\footnotesize for \\small, or wrap the tabular in \\resizebox{\\linewidth}{!}{...} "
           "(\\usepackage{graphicx})\n"
        << lossComments;
    for (const std::string& note : reportNotes(report))
        out << "% " << note << "\n";
    out << "\\begin{table}[t]\n\\centering\n"
        << "\\caption{Configurations: mean $\\pm$ half-width of the 95\\,\\% confidence interval "
           "(Student $t$, $N-1$ degrees of freedom) over $N$ runs; GPU energy is each run's share of the "
           "GPUs it used, utilisation the GPU's. Marks: Welch's two-sided $t$ test against configuration "
        << reference << ", $p$ adjusted by Holm-Bonferroni over each figure's comparisons, $^{*}p<0.05$, "
        << "$^{**}p<0.01$, $^{***}p<0.001$."
        << (anyFigureOverFewerRuns(configurations)
                ? " ($n{=}K$): that figure is over the $K$ of the $N$ runs that have it."
                : "")
        << (anyReplicatesByWorkload(configurations)
                ? " $^{w}$: $N$ counts workloads, not runs: their jobs shared a GPU and ran at the same "
                  "time, so each workload is one replicate (its jobs' mean)."
                : "")
        << " $^{\\dagger}$: the reference.}\n"
        << "\\small\n\\setlength{\\tabcolsep}{4pt}\n"
        << "\\begin{tabular}{rp{0.3\\linewidth}rrrr}\n\\toprule\n"
        << "\\# & Configuration & $N$ & Time (s) & Energy (kJ) & Util.\\ (\\%) \\\\\n\\midrule\n"
        << rows << "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
    return out.str();
}

std::vector<std::string> reportNotes(const json& report) {
    std::vector<std::string> notes;
    for (const std::string& note :
         {leftOutOfConfigurationsNote(report), replicatesNote(report), comparisonsScopeNote(report)}) {
        std::istringstream lines(note);
        for (std::string line; std::getline(lines, line);)
            notes.push_back(line);
    }
    return notes;
}

std::string configurationsCsv(const json& report) {
    const json& configurations = report.value("configurations", json::array());
    const size_t reference = referenceConfiguration(report);
    const ComparisonsWith comparisons(report, reference);
    std::ostringstream out;
    out << "configuration,label,n,replicate,runs,params";
    for (const std::string& figure : kConfigurationFigures)
        out << "," << figure << "_mean," << figure << "_ci95_low," << figure << "_ci95_high," << figure
            << "_n";
    out << ",reference,p_duration_s,p_adjusted_duration_s,p_gpu_energy_j,p_adjusted_gpu_energy_j\n";
    for (size_t c = 0; c < configurations.size(); ++c) {
        const json& st = configurations[c]["stats"];
        out << c << "," << csvField(labelOf(configurations, c)) << "," << configurationN(configurations[c])
            << "," << configurations[c].value("replicate", "run") << "," << configurations[c]["runs"].size()
            << "," << csvField(paramsText(configurations[c]["params"]));
        for (const std::string& figure : kConfigurationFigures) {
            const json& s = st[figure];
            out << "," << (s["mean"].is_null() ? "" : formatFixed(s["mean"].get<double>(), 6));
            for (int i = 0; i < 2; ++i)
                out << "," << (s["ci95"].is_array() ? formatFixed(s["ci95"][i].get<double>(), 6) : "");
            out << "," << s.value("n", size_t(0)); // a run without a power series has no energy: its own N
        }
        out << "," << reference;
        for (const char* figure : {"duration_s", "gpu_energy_j"}) {
            const json k = c == reference ? json() : comparisons.of(c, figure);
            for (const char* which : {"p_value", "p_adjusted"}) {
                std::ostringstream p; // p spans many decades: 6 significant digits, not 6 decimals
                if (!k.is_null() && k.value(which, json()).is_number())
                    p << std::setprecision(6) << k[which].get<double>();
                out << "," << p.str();
            }
        }
        out << "\n";
    }
    return out.str();
}

} // namespace radt
