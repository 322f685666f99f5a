// SPDX-License-Identifier: MIT
#pragma once
// The Insights view's charts of one run over time (issues 12 and 23 §4): its GPU utilisation with
// the burst periods, or the input stalls (GPU waiting while the run's processes kept a core busy),
// shaded. Read and reduced to chart resolution on the view's worker thread; drawn on the GUI's.

#include "core/analysis/StallInsight.h"

#include <QString>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace QtCharts {
class QChart;
}

namespace radt {

class Store;

struct TimeChartRequest {
    enum class Kind { Bursts, Stalls } kind = Kind::Bursts;
    std::string runUuid;
    std::string label;               ///< how the run is named in the title
    std::string key;                 ///< Bursts: the metric drawn and cut into periods
    double threshold = 0;            ///< Bursts: a burst is at or above it
    insight::StallThresholds stalls; ///< Stalls: the report's settings
};

struct TimeChartData {
    std::vector<int64_t> t; ///< the drawn line at chart resolution (min and max per column)
    std::vector<double> v;
    std::vector<std::pair<int64_t, int64_t>> periods; ///< shaded
    int64_t origin = 0, end = 0;
    double top = 1;
    std::string key;   ///< the metric drawn
    double share = -1; ///< Stalls: the stalled share of the covered time; -1: none
    QString error;     ///< why there is nothing to draw
};

/// Worker thread: reads what `request` needs from `store` (the run's own connection there).
TimeChartData readTimeChart(Store& store, const TimeChartRequest& request);

/// GUI thread: the line with its periods shaded, axes in seconds since the first sample.
void drawTimeChart(QtCharts::QChart* chart, const TimeChartData& data, const TimeChartRequest& request);

} // namespace radt
