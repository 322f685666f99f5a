// SPDX-License-Identifier: MIT
#pragma once
// What a chart says about its lines, read from its engine's public state: the lines' names and
// tooltips, the workloads whose runs can be shown one by one, the crosshair's rows, the title of a
// chart that draws nothing. Free functions over ChartEngine: they need nothing of its insides.

#include "widgets/chart/engine/ChartEngine.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace radt {

QStringList seriesNames(const ChartEngine& engine);
/// The visible lines of more than one point (drawn as their density past kDensityAbove).
int densityLines(const ChartEngine& engine);
/// True while any plotted run is RUNNING (a board file's runs never are: they are a snapshot).
bool hasRunningRuns(const ChartEngine& engine);
/// Workload keys of the plotted runs, and their display names ("1", "7").
QStringList workloadKeys(const ChartEngine& engine);
/// "Workload 3", with the experiment's name when the chart shows runs of several.
QString workloadTitle(const ChartEngine& engine, const QString& workloadKey);
/// The name of the line that draws run `uuid`; empty when none does.
QString lineOfRun(const ChartEngine& engine, const std::string& uuid);
/// The detailed tooltip of a line: its runs' experiment, model, source, status, params.
QString seriesTooltip(const ChartEngine& engine, int series);
/// Why a chart with a metric draws no line; empty when it draws one, or has no metric yet.
QString whyNothingIsDrawn(const ChartEngine& engine);
/// The chart's title when it draws no line: why (no data, or an epoch axis without epochs).
QString emptyChartMessage(const ChartEngine& engine);

/// A visible line's value nearest x (line units), none before its first point or after its last.
std::optional<double> shownValueAt(const ChartEngine& engine, const ChartLine& line, int64_t x);
/// Where the crosshair is, as a person says it ("1 h 42 m 44 s after the start", "step 20").
QString crosshairPlace(const ChartEngine& engine, double axisX);
struct CrosshairReading {
    size_t line; ///< size_t(-1): a row saying how many lines were left out
    double value;
    QString row; ///< "name: value  [low – high]"
};
/// Every visible line's reading at axisX; of hundreds, the `rowsFit` highest and lowest, a row
/// for those between and *title saying so.
std::vector<CrosshairReading> crosshairReadings(const ChartEngine& engine, double axisX, size_t rowsFit,
                                                QString* title);

} // namespace radt
