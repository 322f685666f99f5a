// SPDX-License-Identifier: MIT
// The collocation verdicts of a `radt report` as a booktabs LaTeX table and as CSV:
// per collocated configuration, the jobs together against the same jobs one after another alone.
#include "core/report/ReportTables.h"

#include "core/base/TextFormat.h"
#include "core/report/LatexText.h"

#include <sstream>

namespace radt {

using nlohmann::json;

namespace {

/// A value over its interval, both right-aligned in one cell (the interval smaller): a row of
/// seven figures with their intervals fits an article's width only stacked.
std::string stacked(const std::string& value, const std::string& interval) {
    return "\\begin{tabular}[t]{@{}r@{}}$" + value + "$\\\\\\scriptsize$" + interval + "$\\end{tabular}";
}

/// "28.11" over "±0.63" (the mean alone without an interval), scaled; "--" without a value.
std::string latexEstimate(const json& e, double scale, int precision) {
    if (!e["mean"].is_number())
        return "--";
    const double mean = e["mean"].get<double>() * scale;
    if (!e["ci95"].is_array())
        return "$" + formatFixed(mean, precision) + "$";
    const double half = (e["ci95"][1].get<double>() - e["ci95"][0].get<double>()) / 2 * scale;
    const int decimals = intervalDecimals(half, precision);
    return stacked(formatFixed(mean, decimals), "\\pm " + formatFixed(half, decimals));
}

/// "1.284" over "[1.256, 1.314]": a ratio with its interval (not symmetric about it), to 0.1 % at
/// most; "--" without one.
std::string latexRatio(const json& e) {
    if (!e["mean"].is_number())
        return "--";
    if (!e["ci95"].is_array())
        return "$" + formatFixed(e["mean"].get<double>(), 2) + "$";
    const int decimals = ratioDecimals(e["ci95"][0].get<double>(), e["ci95"][1].get<double>());
    return stacked(formatFixed(e["mean"].get<double>(), decimals),
                   "[" + formatFixed(e["ci95"][0].get<double>(), decimals) + ", " +
                       formatFixed(e["ci95"][1].get<double>(), decimals) + "]");
}

/// "% text\n", its line breaks and other control characters (from params) made spaces: a comment
/// line stays one line.
std::string oneCommentLine(std::string text) {
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    return "% " + text + "\n";
}

/// A column's head on two lines, set on the row's foot.
std::string head(const char* first, const char* second) {
    return std::string("\\begin{tabular}[b]{@{}r@{}}") + first + "\\\\" + second + "\\end{tabular}";
}

std::string csvNumber(const json& v) {
    return v.is_number() ? formatFixed(v.get<double>(), 6) : std::string();
}

} // namespace

std::string collocationLatex(const json& report) {
    const json& verdicts = report.value("collocation", json::array());
    std::string rows, lossComments, notes;
    bool single = false;
    for (size_t k = 0; k < verdicts.size(); ++k) {
        const json& v = verdicts[k];
        LatexTextLosses losses;
        const std::string label = latexText(v["label"].get<std::string>(), losses);
        lossComments += latexLossComments(losses, "collocated configuration " + std::to_string(k));
        if (k > 0)
            rows += "\\addlinespace\n"; // stacked cells: rows apart
        if (v["why"].is_string()) {
            notes += oneCommentLine(v["label"].get<std::string>() + ": " + v["why"].get<std::string>());
            rows +=
                "{\\raggedright " + label + "\\par} & " + std::to_string(v["n"].get<size_t>()) +
                " & \\multicolumn{5}{l}{" +
                (v["why"].get<std::string>().rfind("no solo baseline", 0) == 0 ? "no solo baseline"
                                                                               : "no verdict: see above") +
                "} \\\\\n";
            continue;
        }
        single = single || v["n"].get<size_t>() == 1;
        rows += "{\\raggedright " + label + "\\par} & " + std::to_string(v["n"].get<size_t>()) + " & " +
                latexEstimate(v["together_s"], 1, 1) + " & " +
                latexEstimate(v["alone_one_after_another_s"], 1, 1) + " & " +
                latexRatio(v["throughput_gain"]) + " & " +
                latexEstimate(v["energy_per_job_together_j"], 1e-3, 2) + " & " +
                latexRatio(v["energy_ratio"]) + " \\\\\n";
    }
    std::ostringstream out;
    out << "% radt report --latex --table collocation: needs \\usepackage{booktabs} and nothing else\n"
        << "% Narrower text (two columns)? Use \\footnotesize for \\small, or wrap the tabular in "
           "\\resizebox{\\linewidth}{!}{...} (\\usepackage{graphicx})\n"
        << lossComments << notes;
    out << "\\begin{table}[t]\n\\centering\n"
        << "\\caption{Collocation: $N$ workloads of jobs sharing a GPU; the time they took together, and "
           "alone: "
           "the same jobs one after another, each alone (its solo runs' mean). Throughput gain: alone time "
           "over together time; energy per job: GPU energy over the jobs, and its ratio to alone. Mean "
           "$\\pm$ "
           "half-width of the 95\\,\\% confidence interval (Student $t$); ratios with their 95\\,\\% "
           "interval by Fieller's theorem over the workloads and the solo runs."
        << (single ? " A single workload's intervals cover the solo runs' spread only." : "") << "}\n"
        << "\\small\n\\setlength{\\tabcolsep}{4pt}\n"
        << "\\begin{tabular}{p{0.2\\linewidth}rrrrrr}\n\\toprule\n"
        << "Collocated & $N$ & " << head("Together", "(s)") << " & " << head("Alone", "(s)") << " & "
        << head("Throughput", "gain") << " & " << head("Energy per", "job (kJ)") << " & "
        << head("Energy", "vs alone") << " \\\\\n\\midrule\n"
        << rows << "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
    return out.str();
}

std::string collocationCsv(const json& report) {
    std::ostringstream out;
    out << "label,n,jobs,workloads,solo_runs,ci_covers";
    const char* figures[] = {"together_s",
                             "alone_one_after_another_s",
                             "throughput_gain",
                             "energy_per_job_together_j",
                             "energy_per_job_alone_j",
                             "energy_ratio"};
    for (const char* figure : figures)
        out << "," << figure << "," << figure << "_ci95_low," << figure << "_ci95_high";
    out << ",verdict,why\n";
    for (const json& v : report.value("collocation", json::array())) {
        std::string workloads;
        for (const json& w : v["workloads"])
            workloads += (workloads.empty() ? "" : " ") + w.get<std::string>();
        out << csvField(v["label"].get<std::string>()) << "," << v["n"] << "," << v["jobs"] << ","
            << csvField(workloads) << "," << v["solo_runs"] << ","
            << csvField(v["ci_covers"].get<std::string>());
        for (const char* figure : figures) {
            const json& e = v[figure];
            out << "," << csvNumber(e["mean"]);
            for (int i = 0; i < 2; ++i)
                out << "," << (e["ci95"].is_array() ? csvNumber(e["ci95"][i]) : std::string());
        }
        out << "," << csvField(v.value("sentence", ""));
        out << "," << (v["why"].is_string() ? csvField(v["why"].get<std::string>()) : std::string()) << "\n";
    }
    return out.str();
}

} // namespace radt
