// SPDX-License-Identifier: MIT
#include "core/store/CompactedSeries.h"

#include "core/base/InsightSeries.h"
#include "core/base/SeriesCompaction.h"

#include <nlohmann/json.hpp>

namespace radt {

using nlohmann::json;

Series readForAnalysis(Store& store, const Run& run, const std::string& key) {
    Series s = store.series(run.uuid, key);
    const auto tag = run.tags.find(kCompactedTag);
    if (tag == run.tags.end() || !insight::isHardwareKey(key))
        return s;
    const json info = json::parse(tag->second, nullptr, false);
    if (!info.is_object())
        return s; // a tag someone else wrote: the series as stored
    int64_t interval = info.value("interval_ms", int64_t(0));
    if (auto per = info.find("intervals");
        per != info.end() && per->is_object() && per->contains(key) && (*per)[key].is_number_integer())
        interval = (*per)[key].get<int64_t>();
    return expandCompacted(s, interval, interval * insight::kMaxGapIntervals);
}

} // namespace radt
