// SPDX-License-Identifier: MIT
#pragma once
// radT board files (radT calls them "insight files"; resources/DESIGN.md §9): the JSON array of
// charts radT's web front end downloads and uploads. Read liberally (numbers as numeric strings,
// nulls anywhere, unknown keys kept), written exactly in radT's form so boards travel both ways.
// No Qt.

#include "core/base/Model.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace radt {

/// Nothing usable could be opened or saved; what() names the file and what is wrong.
class BoardError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Something in a board that was skipped, dropped or replaced by a default while opening it.
struct BoardProblem {
    int chart = -1;      ///< 0-based position of the chart in the file; -1 for the board as a whole
    std::string message; ///< one line: file, chart, JSON path and what is wrong
};

/// One run of a chart (an element of the chart's "data"); radT may write null for any field.
struct BoardRun {
    std::string uuid;                          ///< "name": the MLflow run_uuid
    std::optional<int64_t> experimentId;       ///< "experimentId"
    std::optional<std::string> experimentName; ///< "experimentName"
    std::optional<std::string> workload;       ///< "<experimentId>-<workload>", "1-null" when unsorted
    std::optional<std::string> letter;         ///< "0_A", "0_B", "0_MPS" ...
    std::optional<std::string> model;          ///< radT's `model` param (the script)
    std::optional<std::string> source;         ///< radT's `data` param
    nlohmann::json params;             ///< as written: the raw argument string, an object of params, or null
    std::optional<std::string> status; ///< "FINISHED", "RUNNING", ...
    std::optional<int64_t> startTime;  ///< ms since the epoch
    std::optional<int64_t> duration;   ///< ms
    Series points; ///< t = "timestamp" (ms), step, v = "value" (NaN for null), sorted by t
    nlohmann::json extra = nlohmann::json::object(); ///< unknown keys of the run object, written back as read
};

/// One chart of a board: a metric over runs plus radT's view state ("context").
struct BoardChart {
    int64_t id = 0; ///< unique within a board (radT sorts its charts by id, newest first)
    std::string metric;
    std::vector<BoardRun> runs;            ///< "data"
    int smoothing = 0;                     ///< radT's EMA weight in percent, 0..99
    std::vector<std::string> shownRuns;    ///< workload ids whose runs are drawn one by one
    std::vector<std::string> hiddenSeries; ///< series names hidden from the legend
    double rangeMin = 0; ///< zoom in ms since each series' first timestamp; 0/0 = the whole range
    double rangeMax = 0;
    nlohmann::json extra = nlohmann::json::object(); ///< unknown chart keys (the explorer's own: "explorer")
    nlohmann::json contextExtra = nlohmann::json::object(); ///< unknown keys of "context"
};

struct Board {
    std::vector<BoardChart> charts;
};

/// Same content; NaN values equal NaN (a board compares equal to itself read back).
bool operator==(const BoardRun& a, const BoardRun& b);
bool operator==(const BoardChart& a, const BoardChart& b);
bool operator==(const Board& a, const Board& b);
inline bool operator!=(const BoardRun& a, const BoardRun& b) {
    return !(a == b);
}
inline bool operator!=(const BoardChart& a, const BoardChart& b) {
    return !(a == b);
}
inline bool operator!=(const Board& a, const Board& b) {
    return !(a == b);
}

/// Parses a radT board. Throws BoardError naming sourceName when nothing usable is there (not
/// JSON, not an array, no charts, no usable chart); otherwise keeps every usable chart, run and
/// point and appends one BoardProblem per thing skipped, dropped or defaulted.
Board parseBoard(std::string_view text, const std::string& sourceName, std::vector<BoardProblem>& problems);

/// radT's form: compact JSON, radT's keys in radT's order, extra keys after them, timestamps as
/// integers, values in shortest round-trip form, NaN and infinities as null.
std::string writeBoard(const Board& board);

/// Reads and parses a board file; problems name the file by its file name. Throws BoardError
/// naming the path when the file cannot be read.
Board loadBoardFile(const std::string& path, std::vector<BoardProblem>& problems);

/// Writes a temporary file beside `path`, fsyncs it and renames it over `path`: the file is
/// either the old one or the whole new one. Throws BoardError naming the path on failure.
void saveBoardFile(const std::string& path, const Board& board);

/// A file-name form of a metric: "DCGMI - Power Usage" -> "dcgmi-power-usage"; "chart" when
/// nothing alphanumeric is left.
std::string metricSlug(const std::string& metric);
/// The longest slug metricSlug() makes (a file name must stay under the file system's 255 bytes).
constexpr size_t kMaxMetricSlugLength = 80;

} // namespace radt
