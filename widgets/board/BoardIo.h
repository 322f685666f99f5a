// SPDX-License-Identifier: MIT
#pragma once
// Between radT board files (core/board/BoardFile.h, resources/DESIGN.md §9) and the explorer's charts: a
// board chart becomes a chart's runs, points and options, and a chart becomes a board chart again. radT's
// keys carry what radT knows (smoothing, shownRuns, hiddenSeries, range); the explorer's own state goes in an
// "explorer" key radT ignores, so boards round-trip both ways.

#include "core/board/BoardFile.h"
#include "widgets/chart/engine/ChartLines.h"

#include <QString>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace radt {

class ChartPanel;

/// What a chart shows when it comes from a board: its runs with their points, options and zoom.
struct BoardChartView {
    QString metric;
    std::vector<ChartRunData> runs;
    ChartOptions options;
    std::optional<std::pair<int64_t, int64_t>> zoom; ///< line units of options.xAxis
};

/// A board chart as the explorer draws it. Bad explorer state is reported in `problems` (named
/// like the reader's problems: "<file>: chart N (\"metric\"): explorer.xAxis: ...") and defaulted.
BoardChartView viewFromBoard(const BoardChart& chart, int chartIndex, const std::string& sourceName,
                             std::vector<BoardProblem>& problems);

/// A chart as a board chart: every run at full resolution, radT's context and the explorer's.
/// Runs opened from a board keep what radT wrote about them (names, extra keys); runs from the
/// store get their experiment name from `experimentNames`.
BoardChart boardFromChart(const ChartPanel& chart, int64_t id,
                          const std::map<int64_t, QString>& experimentNames);

} // namespace radt
