// SPDX-License-Identifier: MIT
#pragma once
// A report's per-run figures as people read them: one table of
// {key, title, unit, decimals, where shown, value} that the explorer's Insights table, its bar
// chart, its CSV/TSV exports and `radt report`'s terminal table all read. A new figure is one row
// here; nothing refers to a figure by its position.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace radt::insight {

/// What a figure's raw value (as the JSON report holds it) is measured in.
enum class Unit { Text, Count, Seconds, Joules, WattHours, Grams, Percent, PercentPoints, Factor };

struct RunFigure {
    const char* key;   ///< stable name ("gpu_energy_j"): how code and tests find a figure
    const char* title; ///< for people, without the unit ("GPU energy")
    Unit unit;
    int decimals;         ///< of the raw value in exports and in the terminal
    bool inView;          ///< a column of the explorer's Insights table
    bool charted;         ///< one of the Insights bar chart's figures
    const char* terminal; ///< its header in `radt report`'s table; nullptr: not there
    int terminalWidth;    ///< negative: left-aligned text
    nlohmann::json (*value)(const nlohmann::json& run); ///< from one run's report entry; null: none
    bool (*flagged)(const nlohmann::json& run);         ///< marked for attention (⚠, "!"); may be null
    /// Why the figure is blank for `run` (a blank never goes unexplained); null: not recorded.
    std::string (*whyBlank)(const nlohmann::json& run) = nullptr;
};

/// Why `figure` is blank for `run`, for a tooltip.
std::string whyBlank(const RunFigure& figure, const nlohmann::json& run);

const std::vector<RunFigure>& runFigures();
/// The figure named `key`; throws std::out_of_range naming it when there is none.
const RunFigure& runFigure(std::string_view key);
/// Its column among the figures shown in the explorer (inView), or -1.
int viewColumn(std::string_view key);

/// "J", "s", "Wh", "g", "%", "pp", "x", or "" (text and counts).
const char* unitSymbol(Unit unit);
/// True where the explorer picks the unit by magnitude (s as h:mm:ss, J/kJ/MJ, Wh/kWh, g/kg).
bool scaledByMagnitude(Unit unit);

/// A value for a person: energy and mass by magnitude with 3 significant digits ("4.04 kJ",
/// "1.23 MWh"), durations as h:mm:ss (tenths under ten minutes: "0:00:18.5"), the others with
/// `decimals` and no unit (their header carries it).
std::string formatForPeople(double value, Unit unit, int decimals);

/// "4.040 ± 0.061 kJ", "18.5 ± 0.6 s", "1.71 ± 0.02 h": a mean and a CI's half-width in one unit
/// chosen by the mean's magnitude (durations too: a clock with ± reads badly), both to the half-
/// width's two significant digits (the mean to the precision its interval gives it); the mean
/// alone (3 significant digits) when there is no half-width (n < 2). Other units: the same
/// rounding, or `decimals` without a half-width, and no unit.
/// With `scale`, in that scale whatever the mean's magnitude (a table's column: one unit for all).
struct AxisScale;
std::string formatMeanAndHalfWidth(double mean, const double* halfWidth, Unit unit, int decimals,
                                   const AxisScale* scale = nullptr);

/// A scale for a chart's axis whose largest value is `top`: the divisor and its unit ("kJ", "min").
struct AxisScale {
    double divisor = 1;
    std::string symbol;
};
AxisScale axisScale(double top, Unit unit);

/// The one scale of a figure in the tables of configurations, comparisons and collocation, in the
/// explorer, `radt report`'s terminal output and LaTeX alike: durations in s, energy in kJ (the
/// others in their unit). CSV and JSON keep SI base units (s, J); per-run tables too.
AxisScale tableScale(Unit unit);

} // namespace radt::insight
