// SPDX-License-Identifier: MIT
#include "core/store/RunEnvelopes.h"

#include "core/store/CompactedSeries.h"
#include "core/store/Store.h"

#include <cstring>
#include <iterator>
#include <optional>

namespace radt {

const std::vector<int>& envelopeLevels() {
    // 1024 slices serve a chart up to 1024 px wide (a laptop's half screen) with 2,048 points a
    // run; 4096 a 4K monitor's full width. 500 runs at 4096 are 4M points: what a zoom frame
    // draws in ~10 ms (bench_zoom_frame).
    static const std::vector<int> levels = {1024, 4096};
    return levels;
}

int envelopeLevelFor(int columns) {
    for (int level : envelopeLevels())
        if (level >= columns)
            return level;
    return envelopeLevels().back();
}

int64_t envelopeMinPoints() {
    // An envelope holds up to two points a slice: a series of fewer than that is its own envelope.
    return 2 * int64_t(envelopeLevels().front());
}

std::vector<StoredEnvelope> envelopesOf(const std::string& key, const Series& series,
                                        const LatestMetric& latest, int64_t changeCount) {
    std::vector<StoredEnvelope> out;
    if (series.empty())
        return out;
    for (int level : envelopeLevels()) {
        if (int64_t(series.size()) <= 2 * int64_t(level))
            continue;
        StoredEnvelope e;
        e.key = key;
        e.buckets = level;
        e.pointCount = int64_t(series.size());
        e.latestTimestamp = latest.timestamp;
        e.latestStep = latest.step;
        e.changeCount = changeCount;
        e.series = envelopeOf(series, series.t.front(), series.t.back(), level);
        out.push_back(std::move(e));
    }
    return out;
}

size_t writeRunEnvelopes(Store& store, const std::string& runUuid) {
    if (store.isReadOnly())
        return 0;
    const std::optional<Run> run = store.run(runUuid);
    if (!run)
        return 0;
    // A compacted run's statistics are those of its series put back on the sampling grid, as the
    // summary table computes them (readForAnalysis); its envelopes are of the stored points.
    const bool compacted = run->tags.count(kCompactedTag) > 0;
    // The change count first: a point logged, changed or deleted while the series is read counts
    // one more, so what is kept is taken for stale and made again, never shown short of it.
    const std::optional<int64_t> changes = store.envelopes().envelopeChangeCount(runUuid);
    if (!changes)
        return 0;
    const std::map<std::string, LatestMetric> latest = store.latestMetrics(runUuid);
    // A server store computes every key's statistics in one query, where the data is.
    std::map<std::string, SeriesStats> serverStats;
    if (store.prefersEnvelopes() && !compacted) {
        try {
            serverStats = store.seriesStatsOfRun(runUuid);
        } catch (const StoreError&) {
            // Computed here from each series instead: the envelopes are written all the same.
        }
    }
    std::vector<StoredEnvelope> all;
    size_t envelopes = 0;
    for (const auto& [key, count] : store.pointCounts(runUuid)) {
        const auto l = latest.find(key);
        if (l == latest.end())
            continue;
        std::optional<SeriesStats> stats;
        if (const auto s = serverStats.find(key); s != serverStats.end())
            stats = s->second;
        else if (compacted)
            stats = seriesStats(readForAnalysis(store, *run, key));
        const bool isLong = count > envelopeMinPoints();
        if (isLong && store.prefersEnvelopes()) {
            // A server store reduces where the data is: a week of samples never crosses the network.
            for (int level : envelopeLevels()) {
                if (count <= 2 * int64_t(level))
                    continue;
                StoredEnvelope e{key, level, count, l->second.timestamp, l->second.step, *changes, {}};
                e.series = store.seriesEnvelope(runUuid, key, std::nullopt, level);
                all.push_back(std::move(e));
                ++envelopes;
            }
        }
        if ((isLong && !store.prefersEnvelopes()) || !stats) {
            const Series whole = store.series(runUuid, key);
            if (!stats)
                stats = seriesStats(whole);
            if (isLong && !store.prefersEnvelopes())
                for (StoredEnvelope& e : envelopesOf(key, whole, l->second, *changes)) {
                    all.push_back(std::move(e));
                    ++envelopes;
                }
        }
        all.push_back(statsEntry(key, *stats, l->second, *changes));
    }
    if (all.empty() || !store.envelopes().saveEnvelopes(runUuid, all))
        return 0;
    return envelopes;
}

StoredEnvelope statsEntry(const std::string& key, const SeriesStats& stats, const LatestMetric& latest,
                          int64_t changeCount) {
    StoredEnvelope e{key, kStatsBuckets, int64_t(stats.samples), latest.timestamp, latest.step, changeCount,
                     {}};
    const std::pair<int64_t, double> fields[] = {{int64_t(stats.samples), stats.min},
                                                 {stats.durationMs, stats.mean},
                                                 {0, stats.p50},
                                                 {0, stats.p95},
                                                 {0, stats.max},
                                                 {0, stats.last}};
    for (size_t i = 0; i < std::size(fields); ++i) {
        e.series.t.push_back(int64_t(i));
        e.series.step.push_back(fields[i].first);
        e.series.v.push_back(fields[i].second);
    }
    return e;
}

SeriesStats statsOfEntry(const StoredEnvelope& entry, const std::string& what) {
    const Series& p = entry.series;
    if (entry.buckets != kStatsBuckets || p.size() != 6 || p.step.size() != 6 || p.v.size() != 6 ||
        p.step[0] < 0)
        throw StoreError(what + ": a stored summary of " + std::to_string(p.size()) +
                         " fields, not the 6 of a stats entry");
    SeriesStats s;
    s.samples = size_t(p.step[0]);
    s.durationMs = p.step[1];
    s.min = p.v[0];
    s.mean = p.v[1];
    s.p50 = p.v[2];
    s.p95 = p.v[3];
    s.max = p.v[4];
    s.last = p.v[5];
    return s;
}

std::map<std::string, SeriesStats> runsSeriesStats(Store& store, const std::vector<Run>& runs,
                                                   const std::string& key, Store* keep) {
    const auto isFinished = [](const Run& run) {
        return run.status != RunStatus::Running && run.status != RunStatus::Scheduled;
    };
    std::vector<std::string> finished;
    for (const Run& run : runs)
        if (isFinished(run))
            finished.push_back(run.uuid);
    std::map<std::string, StoredEnvelope> stored =
        store.envelopes().storedEnvelopes(finished, key, kStatsBuckets);
    std::map<std::string, SeriesStats> out;
    for (const Run& run : runs) {
        if (const auto found = stored.find(run.uuid); found != stored.end()) {
            out[run.uuid] =
                statsOfEntry(found->second, store.displayUri() + ": radt_envelopes of run " + run.uuid);
            continue;
        }
        // The change count before the samples, as writeRunEnvelopes does: a change meanwhile
        // makes the kept entry stale rather than short of it.
        std::map<std::string, LatestMetric> latest;
        std::optional<int64_t> changes;
        if (keep && isFinished(run)) {
            try {
                changes = keep->envelopes().envelopeChangeCount(run.uuid);
            } catch (const StoreError&) {
                // Locked by a writer: summarised all the same, kept by the next summary.
            }
            if (changes)
                latest = store.latestMetrics(run.uuid);
        }
        std::optional<SeriesStats> stats;
        bool computed = false;
        if (store.prefersEnvelopes() && run.tags.count(kCompactedTag) == 0) {
            try {
                const auto byServer = store.seriesStatsOfRun(run.uuid, key);
                if (const auto s = byServer.find(key); s != byServer.end())
                    stats = s->second;
                computed = true;
            } catch (const StoreError&) {
                // The server could not (a value out of its range): computed here from the samples.
            }
        }
        if (!computed)
            if (const Series s = readForAnalysis(store, run, key); !s.empty())
                stats = seriesStats(s);
        if (!stats)
            continue;
        out[run.uuid] = *stats;
        const auto l = latest.find(key);
        if (l == latest.end() || int64_t(stats->samples) <= envelopeMinPoints())
            continue; // a short series is summarised quicker than a kept entry is written
        try {
            keep->envelopes().saveEnvelopes(run.uuid, {statsEntry(key, *stats, l->second, *changes)});
        } catch (const StoreError&) {
            // Locked by a writer, a role that may only read: the next summary computes it again.
        }
    }
    return out;
}

namespace {

void putLittleEndian(std::string& out, uint64_t bits) {
    for (int i = 0; i < 8; ++i)
        out += char((bits >> (8 * i)) & 0xff);
}

uint64_t getLittleEndian(const unsigned char* p) {
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i)
        bits |= uint64_t(p[i]) << (8 * i);
    return bits;
}

} // namespace

std::string encodeEnvelopePoints(const Series& series) {
    std::string out;
    out.reserve(series.size() * 24);
    for (size_t i = 0; i < series.size(); ++i) {
        uint64_t value = 0;
        std::memcpy(&value, &series.v[i], sizeof value);
        putLittleEndian(out, uint64_t(series.t[i]));
        putLittleEndian(out, uint64_t(series.step[i]));
        putLittleEndian(out, value);
    }
    return out;
}

Series decodeEnvelopePoints(const void* data, size_t size, const std::string& what) {
    if (size % 24 != 0)
        throw StoreError(what + ": a stored envelope of " + std::to_string(size) +
                         " bytes, not a whole number of 24-byte points");
    Series out;
    const size_t n = size / 24;
    out.reserve(n);
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i, p += 24) {
        out.t.push_back(int64_t(getLittleEndian(p)));
        out.step.push_back(int64_t(getLittleEndian(p + 8)));
        const uint64_t bits = getLittleEndian(p + 16);
        double value = 0;
        std::memcpy(&value, &bits, sizeof value);
        out.v.push_back(value);
    }
    return out;
}

} // namespace radt
