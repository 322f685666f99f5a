#include "ReportTables.h"

#include "ConfigurationInsight.h"
#include "TextFormat.h"

#include <iomanip>
#include <sstream>

namespace radt {

using nlohmann::json;

namespace {

std::string latexEscaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '\\':
            out += "\\textbackslash{}";
            break;
        case '~':
            out += "\\textasciitilde{}";
            break;
        case '^':
            out += "\\textasciicircum{}";
            break;
        case '&':
        case '%':
        case '$':
        case '#':
        case '_':
        case '{':
        case '}':
            out += '\\';
            out += c;
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string fixed(double v, int precision) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(precision) << v;
    return s.str();
}

std::string paramsLabel(const json& params) {
    std::string label;
    for (const auto& [name, value] : params.items())
        if (name != "params" || params.size() == 1) // the script's own params say it more shortly
            label += (label.empty() ? "" : ", ") + name + "=" + value.get<std::string>();
    return label.empty() ? "all runs" : label;
}

/// The comparison of configuration c with the reference for a figure; null when none.
json comparisonWith(const json& report, size_t reference, size_t c, const std::string& figure) {
    for (const json& k : report.value("comparisons", json::array()))
        if (k["figure"] == figure &&
            ((k["a"] == reference && k["b"] == c) || (k["b"] == reference && k["a"] == c)))
            return k;
    return nullptr;
}

std::string stars(const json& comparison) {
    if (comparison.is_null() || comparison["p_value"].is_null())
        return "";
    const double p = comparison["p_value"];
    return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : "";
}

/// "$13.06 \pm 4.39$" (mean alone when n < 2), with its marks; "--" without values.
std::string latexCell(const json& stat, double scale, int precision, const std::string& marks) {
    if (stat["mean"].is_null())
        return "--";
    std::string cell = "$" + fixed(stat["mean"].get<double>() * scale, precision);
    if (stat["ci95"].is_array())
        cell += " \\pm " +
                fixed((stat["ci95"][1].get<double>() - stat["ci95"][0].get<double>()) / 2 * scale, precision);
    cell += marks.empty() ? "$" : "^{" + marks + "}$";
    return cell;
}

} // namespace

size_t referenceConfiguration(const json& report) {
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
    std::ostringstream out;
    out << "% radt report --latex: needs \\usepackage{booktabs}\n"
        << "\\begin{table}[t]\n\\centering\n"
        << "\\caption{Configurations: mean $\\pm$ half-width of the 95\\,\\% confidence interval "
           "(Student $t$, $N-1$ degrees of freedom) over $N$ runs; GPU energy is each run's share of the "
           "GPUs it used. Marks: Welch's two-sided $t$ test against configuration "
        << reference << ", $^{*}p<0.05$, $^{**}p<0.01$, $^{***}p<0.001$.}\n"
        << "\\begin{tabular}{rlrrrr}\n\\toprule\n"
        << "\\# & Configuration & $N$ & Time (s) & GPU energy (kJ) & GPU util (\\%) \\\\\n\\midrule\n";
    for (size_t c = 0; c < configurations.size(); ++c) {
        const json& st = configurations[c]["stats"];
        const bool isReference = c == reference;
        out << c << " & " << latexEscaped(paramsLabel(configurations[c]["params"]))
            << (isReference ? " (reference)" : "") << " & " << configurations[c]["runs"].size() << " & "
            << latexCell(st["duration_s"], 1, 2,
                         isReference ? "" : stars(comparisonWith(report, reference, c, "duration_s")))
            << " & "
            << latexCell(st["gpu_energy_j"], 1e-3, 3,
                         isReference ? "" : stars(comparisonWith(report, reference, c, "gpu_energy_j")))
            << " & " << latexCell(st["gpu_util_pct"], 1, 1, "") << " \\\\\n";
    }
    out << "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
    return out.str();
}

std::string configurationsCsv(const json& report) {
    const json& configurations = report.value("configurations", json::array());
    const size_t reference = referenceConfiguration(report);
    std::ostringstream out;
    out << "configuration,n,params";
    for (const std::string& figure : kConfigurationFigures)
        out << "," << figure << "_mean," << figure << "_ci95_low," << figure << "_ci95_high";
    out << ",reference,p_duration_s,p_gpu_energy_j\n";
    for (size_t c = 0; c < configurations.size(); ++c) {
        const json& st = configurations[c]["stats"];
        out << c << "," << configurations[c]["runs"].size() << ","
            << csvField(paramsLabel(configurations[c]["params"]));
        for (const std::string& figure : kConfigurationFigures) {
            const json& s = st[figure];
            out << "," << (s["mean"].is_null() ? "" : fixed(s["mean"].get<double>(), 6));
            for (int i = 0; i < 2; ++i)
                out << "," << (s["ci95"].is_array() ? fixed(s["ci95"][i].get<double>(), 6) : "");
        }
        out << "," << reference;
        for (const char* figure : {"duration_s", "gpu_energy_j"}) {
            const json k = c == reference ? json() : comparisonWith(report, reference, c, figure);
            std::ostringstream p; // p spans many decades: 6 significant digits, not 6 decimals
            if (!k.is_null() && !k["p_value"].is_null())
                p << std::setprecision(6) << k["p_value"].get<double>();
            out << "," << p.str();
        }
        out << "\n";
    }
    return out.str();
}

} // namespace radt
