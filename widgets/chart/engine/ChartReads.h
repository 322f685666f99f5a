// SPDX-License-Identifier: MIT
#pragma once
// What a chart reads from the store, without any widget: the loader calls these on its thread and
// hands the results to the chart on the GUI thread (ChartPanel::setData, applyLivePoll).

#include "widgets/chart/engine/ChartLines.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace radt {

class Store;

/// Reads `metricKey` of every run, with each run's experiment name and, for a hardware metric,
/// its epochs (for the epoch x axis). `columns` is the plot's width in pixel columns: a server
/// store reduces large series to a few times that. From 8 runs on, finished runs come as their
/// stored envelopes (RunEnvelopes.h); one a run lacks is made from the whole series and saved
/// through `keep` (a writable connection to the same store; nullptr: not saved). `progress(done,
/// total)` after each run. Throws StoreError.
std::vector<ChartRunData> readChartRuns(Store& store, const std::vector<Run>& runs,
                                        const std::string& metricKey, int columns,
                                        const std::function<void(size_t, size_t)>& progress = {},
                                        Store* keep = nullptr);

/// A zoom into runs a chart holds as envelopes (ChartRunData::reduced): per run, the time range
/// (ms since the epoch) to read again, finer.
struct ChartDetailQuery {
    uint64_t generation = 0; ///< the chart's count of queries: only the newest lands
    std::string metricKey;
    int columns = 0; ///< the plot's width in pixel columns
    struct RunRange {
        std::string runUuid;
        int64_t from = 0, to = 0;
    };
    std::vector<RunRange> runs;
    std::pair<int64_t, int64_t> axisRange; ///< the chart's x range these cover (its axis units)
};
struct ChartDetail {
    ChartDetailQuery::RunRange range;
    Series points; ///< every point of the range, or its envelope at 4 slices a column when longer
};
/// Reads what `query` asks. Throws StoreError.
std::vector<ChartDetail> readChartDetail(Store& store, const ChartDetailQuery& query);

/// Following a running run: the rows from `after` on (the store has confirmed those before it).
struct LivePollQuery {
    std::string runUuid;
    int64_t after;
};
struct LivePollResult {
    LivePollQuery query;
    Series fresh;
    std::optional<Run> now; ///< the run as the store has it now (its status)
};
/// Reads the rows and statuses asked for. Throws StoreError.
std::vector<LivePollResult> readLivePoll(Store& store, const std::string& metricKey,
                                         const std::vector<LivePollQuery>& queries);

} // namespace radt
