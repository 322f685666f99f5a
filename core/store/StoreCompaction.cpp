// SPDX-License-Identifier: MIT
#include "core/store/StoreCompaction.h"

#include "core/store/RunEnvelopes.h"

#include "core/base/InsightSeries.h"
#include "core/base/SeriesCompaction.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace radt {

using nlohmann::json;

CompactionOptions parseTolerance(const std::string& text) {
    CompactionOptions o;
    o.text = text;
    std::string number = text;
    o.relative = !number.empty() && number.back() == '%';
    if (o.relative)
        number.pop_back();
    size_t used = 0;
    try {
        o.tolerance = std::stod(number, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (number.empty() || used != number.size() || !std::isfinite(o.tolerance) || o.tolerance <= 0 ||
        (o.relative && o.tolerance > 50))
        throw std::invalid_argument("--tolerance expects a number above 0 in the metric's unit (e.g. 2) or a "
                                    "percentage of each series' range up to 50% (e.g. 0.5%), got '" +
                                    text + "'");
    return o;
}

namespace {

std::string toleranceText(const CompactionOptions& o) {
    if (!o.text.empty())
        return o.text;
    json v = o.tolerance; // shortest form that reads back: 0.5, not 0.500000
    return v.dump() + (o.relative ? "%" : "");
}

} // namespace

namespace {

/// What compacting one run would do: the points each hardware series loses and the run's tag.
struct RunPlan {
    std::vector<std::pair<std::string, Series>> removals;
    json tag;
    size_t series = 0, before = 0, after = 0;
};

RunPlan planRun(Store& store, const Run& run, const CompactionOptions& options) {
    RunPlan plan;
    // The run's sampling interval is the one most of its series share; others are listed.
    std::map<std::string, int64_t> intervals;
    for (const std::string& key : store.metricKeys({run.uuid})) {
        if (!insight::isHardwareKey(key))
            continue;
        const Series s = store.series(run.uuid, key);
        const int64_t interval = insight::typicalIntervalMs(s);
        if (s.size() < 3 || interval <= 0)
            continue;
        double tolerance = options.tolerance;
        if (options.relative) {
            double lo = INFINITY, hi = -INFINITY;
            for (double v : s.v)
                if (insight::usable(v)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
            tolerance = hi > lo ? (hi - lo) * options.tolerance / 100.0 : 0.0;
        }
        const std::vector<bool> keep = deadBandKeep(s, tolerance, interval * insight::kMaxGapIntervals);
        const size_t kept = size_t(std::count(keep.begin(), keep.end(), true));
        if (kept < s.size())
            plan.removals.emplace_back(key, selectSamples(s, keep, false));
        intervals[key] = interval;
        plan.before += s.size();
        plan.after += kept;
        ++plan.series;
    }
    if (intervals.empty())
        return plan;
    std::map<int64_t, size_t> votes;
    for (const auto& [key, ms] : intervals)
        ++votes[ms];
    const int64_t common = std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) {
                               return a.second < b.second;
                           })->first;
    plan.tag = {{"tolerance", toleranceText(options)},
                {"interval_ms", common},
                {"rows_before", plan.before},
                {"rows_after", plan.after}};
    for (const auto& [key, ms] : intervals)
        if (ms != common)
            plan.tag["intervals"][key] = ms;
    return plan;
}

} // namespace

bool recordedByRadt(const Run& run) {
    return run.params.count("listeners") > 0;
}

CompactionStats compactRuns(Store& store, const std::vector<Run>& runs, const CompactionOptions& options,
                            const std::function<void(size_t, size_t)>& progress) {
    CompactionStats stats;
    if (!options.dryRun)
        stats.bytesBefore = store.maintenance().storageBytes();
    for (size_t r = 0; r < runs.size(); ++r) {
        const Run& run = runs[r];
        if (run.status == RunStatus::Running) {
            stats.skipped.push_back(run.uuid + ": still running");
        } else if (run.status == RunStatus::Scheduled) {
            // A run an interrupted `radt store copy` left incomplete: the next copy adds its points.
            stats.skipped.push_back(run.uuid + ": SCHEDULED (not started, or a copy that did not finish)");
        } else if (run.tags.count(kCompactedTag)) {
            stats.skipped.push_back(run.uuid + ": already compacted (" + run.tags.at(kCompactedTag) +
                                    "); again would add a second tolerance");
        } else if (!recordedByRadt(run)) {
            // An MLflow run's own "SMI - ..." metric is whatever its author logged: not ours to thin.
            stats.skipped.push_back(run.uuid +
                                    ": not recorded by radt or radT (no 'listeners' param), so its "
                                    "metrics are not known hardware samples");
        } else {
            const RunPlan plan = planRun(store, run, options);
            bool applied = !plan.tag.is_null();
            if (applied && !options.dryRun) {
                try {
                    applied = store.maintenance().applyCompaction(run.uuid, plan.removals,
                                                                  {kCompactedTag, plan.tag.dump()});
                } catch (const StoreError& e) {
                    // One transaction per run: this run is as it was; those before it are done.
                    throw StoreError(std::string(e.what()) + "; run " + run.uuid +
                                     " was left as it was (nothing of it changed), " +
                                     std::to_string(stats.runs) +
                                     " run(s) before it are compacted; run the command again to go on");
                }
                if (!applied)
                    stats.skipped.push_back(run.uuid + ": compacted by another radt meanwhile");
            }
            if (applied) {
                ++stats.runs;
                stats.series += plan.series;
                stats.rowsBefore += plan.before;
                stats.rowsAfter += plan.after;
            }
        }
        // Every finished run's chart envelopes, compacted or not (an MLflow run's too: a chart of
        // it reads them as any other): `radt store compact` makes a whole store quick to chart.
        const bool finished = run.status != RunStatus::Running && run.status != RunStatus::Scheduled;
        if (!options.dryRun && finished) {
            try {
                stats.envelopes += writeRunEnvelopes(store, run.uuid);
            } catch (const StoreError& e) {
                if (stats.envelopeError.empty())
                    stats.envelopeError = run.uuid + ": " + e.what();
            }
        }
        if (progress)
            progress(r + 1, runs.size());
    }
    if (!options.dryRun) {
        try {
            store.maintenance().reclaimSpace();
            stats.bytesAfter = store.maintenance().storageBytes();
        } catch (const StoreError& e) {
            // The runs are compacted and consistent; only the file did not shrink (VACUUM needs
            // room for a copy). Running again with more room does it.
            stats.reclaimError = e.what();
        }
    }
    return stats;
}

} // namespace radt
