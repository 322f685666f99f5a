#pragma once
// What a chart reads from the store, without any widget: the loader calls these on its thread and
// hands the results to the chart on the GUI thread (ChartPanel::setData, applyLivePoll).

#include "ChartLines.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace radt {

class Store;

/// Reads `metricKey` of every run, with each run's experiment name and, for a hardware metric,
/// its epochs (for the epoch x axis). `columns` is the plot's width in pixel columns: a server
/// store reduces large series to a few times that. `progress(done, total)` after each run.
/// Throws StoreError.
std::vector<ChartRunData> readChartRuns(Store& store, const std::vector<Run>& runs,
                                        const std::string& metricKey, int columns,
                                        const std::function<void(size_t, size_t)>& progress = {});

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
