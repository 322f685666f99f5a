#pragma once
// The configurations of a `radt report` as tables for a paper (issue 23 §5): a booktabs LaTeX
// table (mean ± 95 % CI with N, significance marks against a reference configuration) and the
// same figures as CSV.

#include <nlohmann/json.hpp>

#include <string>

namespace radt {

/// The configuration the marks compare with: --baseline's when the report was made against one
/// (every comparison shares its "a"), else configuration 0.
size_t referenceConfiguration(const nlohmann::json& report);

/// A table environment that compiles with \usepackage{booktabs}; text is escaped for LaTeX.
std::string configurationsLatex(const nlohmann::json& report);

/// One row per configuration: index, N, params, then mean, ci95 low and high per figure, then the
/// Welch p of time and energy against the reference (RFC 4180 quoting).
std::string configurationsCsv(const nlohmann::json& report);

} // namespace radt
