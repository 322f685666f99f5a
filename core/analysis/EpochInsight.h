// SPDX-License-Identifier: MIT
#pragma once
// Hardware samples aligned to training epochs (resources/DESIGN.md §12): the epoch in progress at
// any time, from when the run's stepped software metric (e.g. `loss` logged per epoch) was logged.

#include "core/base/Model.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace radt::insight {

/// One epoch: the time after the previous epoch's log up to its own log.
struct EpochSpan {
    int64_t step = 0;
    int64_t fromMs = 0, toMs = 0;
};

/// The software metric that marks epochs: among keys that are not hardware metrics, the one
/// with the most distinct steps (ties: the name first in order); "" when none has two steps.
std::string epochMetricKey(const std::vector<std::string>& keys,
                           const std::function<Series(const std::string&)>& series);

/// The epochs of a stepped series: step k ends at the last time it was logged, and begins where
/// the previous one ended (the first at `runStartMs`). Steps logged out of order are skipped.
std::vector<EpochSpan> epochSpans(const Series& stepped, int64_t runStartMs);

/// The epoch in progress at `t` (the step of the span holding it); -1 outside every span.
int64_t epochAt(const std::vector<EpochSpan>& spans, int64_t t);

/// Where `t` lies in training, in epochs: 2.5 is halfway through the third span, whatever the
/// run numbered its steps; the run's start is 0. Empty outside every span (before the start,
/// after the last log): the explorer's epoch x axis leaves such samples out.
std::optional<double> epochProgress(const std::vector<EpochSpan>& spans, int64_t t);

/// The likely epoch metric from a run's latest values alone (one cheap query, no series read):
/// the software key whose latest step is highest, at least 1; ties go to the name first in order.
std::string epochMetricFromLatest(const std::map<std::string, LatestMetric>& latest);

} // namespace radt::insight
