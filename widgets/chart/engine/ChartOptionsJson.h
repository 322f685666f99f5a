// SPDX-License-Identifier: MIT
#pragma once
// ChartOptions as JSON: one name table per enum and one reader and writer, used by
// board files (under radT's "explorer" key), sessions and ChartCard's combo boxes alike. A new
// value of an option is one row in its table.

#include "widgets/chart/engine/ChartLines.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace radt {

/// How one value of an option is written (`name`) and shown (`label`, `tip`).
template <typename E> struct OptionName {
    E value;
    const char* name;
    const char* label;
    const char* tip = nullptr;
};

const std::vector<OptionName<ChartOptions::XAxis>>& xAxisNames();

/// What the chart does with an x-axis mode beside naming it: the axis' unit, its title and how the
/// crosshair says where it is. A new mode adds its row to xAxisModes() and its row to xAxisNames()
/// (both in ChartOptionsJson.cpp), and where a sample lies on it (chartX in ChartLines.cpp).
struct XAxisMode {
    ChartOptions::XAxis value;
    /// Line units (the lines' x: ms, steps, thousandths of an epoch) per axis unit; `msPerTimeUnit`
    /// is the time unit the runs' length chose (1000 for seconds, 60000 for minutes...).
    double (*lineUnitsPerAxisUnit)(double msPerTimeUnit);
    /// The axis' title; `epochKey` names the stepped metric epochs come from ("" for none).
    QString (*title)(double msPerTimeUnit, const QString& epochKey);
    /// Where the crosshair is, as a person says it ("1 h 42 m 44 s after the start").
    QString (*place)(int64_t lineX, double axisX);
};
const std::vector<XAxisMode>& xAxisModes();
/// The row of a mode (every mode has one).
const XAxisMode& xAxisMode(ChartOptions::XAxis value);
const std::vector<OptionName<ChartOptions::Aggregate>>& aggregateNames();
const std::vector<OptionName<ChartOptions::Naming>>& namingNames();
const std::vector<OptionName<ChartOptions::Grouping>>& groupingNames();
const std::vector<OptionName<ChartOptions::Band>>& bandNames();
const std::vector<OptionName<ChartOptions::Dense>>& denseNames();

/// The table's name of `value` ("time", "meanband", "radt").
template <typename E> const char* optionName(const std::vector<OptionName<E>>& table, E value) {
    for (const OptionName<E>& n : table)
        if (n.value == value)
            return n.name;
    return table.front().name;
}

/// The explorer's keys (logY, monochrome, lineWidth, xAxis, aggregate, seriesNames); with
/// `withRadtKeys` also smoothing, shownRuns and hiddenSeries, which a board keeps in radT's keys.
nlohmann::json chartOptionsToJson(const ChartOptions& options, bool withRadtKeys);

/// Reads the keys `json` has into `options`, leaving the others as they are. A bad value is named
/// through `problem(key, what was expected and found)` and left unchanged: never clamped to
/// another value. An integer xAxis/aggregate/naming (sessions written before the names were)
/// these names were written) is read as the enum's value; one that is none is named too.
void chartOptionsFromJson(
    const nlohmann::json& json, ChartOptions& options,
    const std::function<void(const std::string& key, const std::string& what)>& problem);

} // namespace radt
