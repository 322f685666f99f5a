// SPDX-License-Identifier: MIT
#pragma once
// The configurations of a `radt report` as tables for a paper: a booktabs LaTeX
// table (mean ± 95 % CI with N, significance marks against a reference configuration) and the
// same figures as CSV; and its collocation verdicts the same two ways.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace radt {

/// The configuration the marks compare with: --baseline's when the report was made against one
/// (every comparison shares its "a"), else configuration 0.
size_t referenceConfiguration(const nlohmann::json& report);

/// A table environment that compiles with a plain article and \usepackage{booktabs} whatever the
/// params hold (their text goes through latexText; what it could not print is named in comment
/// lines above the table, as are the runs left out of the configurations). A figure over fewer
/// runs than its configuration's N is marked with its own: ($n{=}2$). Rows are named by the
/// configurations' labels; marks use the Holm-adjusted p; means are written to the precision of
/// their interval.
std::string configurationsLatex(const nlohmann::json& report);

/// One row per configuration: index, label, N, params, then mean, ci95 low and high and n (the runs
/// the figure is over) per figure, then the Welch p of time and energy against the reference, each
/// followed by its Holm-adjusted p (RFC 4180 quoting). Nothing but the header and the rows: a
/// comment line would be taken as the header by Python's csv module and pandas' defaults; what the
/// configurations leave out is in reportNotes() (radt prints it on stderr) and the JSON.
std::string configurationsCsv(const nlohmann::json& report);

/// What the configurations and comparisons leave out (unfinished runs, untested pairs), a line
/// each: the LaTeX tables' comments, and radt report --csv's stderr.
std::vector<std::string> reportNotes(const nlohmann::json& report);

/// The report's "collocation" verdicts as a booktabs table: per collocated configuration N, time
/// together and one after another alone (mean ± CI half-width), throughput gain and energy per job's
/// ratio to alone with their intervals; a configuration without a verdict says why in a comment.
std::string collocationLatex(const nlohmann::json& report);

/// The same, one row per collocated configuration: label, N, jobs, workloads, solo runs, what the
/// intervals cover, then each figure's mean and interval, then why there is no verdict.
std::string collocationCsv(const nlohmann::json& report);

} // namespace radt
