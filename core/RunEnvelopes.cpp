#include "RunEnvelopes.h"

#include "Store.h"

#include <cstring>

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
                                        const LatestMetric& latest) {
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
        e.series = envelopeOf(series, series.t.front(), series.t.back(), level);
        out.push_back(std::move(e));
    }
    return out;
}

size_t writeRunEnvelopes(Store& store, const std::string& runUuid) {
    if (store.isReadOnly())
        return 0;
    // latest_metrics first: a point logged while the series is read moves it, so the envelope is
    // taken for stale and made again, never kept short of that point.
    const std::map<std::string, LatestMetric> latest = store.latestMetrics(runUuid);
    std::vector<StoredEnvelope> all;
    for (const auto& [key, count] : store.pointCounts(runUuid)) {
        const auto l = latest.find(key);
        if (count <= envelopeMinPoints() || l == latest.end())
            continue;
        if (store.prefersEnvelopes()) {
            // A server store reduces where the data is: a week of samples never crosses the network.
            for (int level : envelopeLevels()) {
                if (count <= 2 * int64_t(level))
                    continue;
                StoredEnvelope e{key, level, count, l->second.timestamp, l->second.step, {}};
                e.series = store.seriesEnvelope(runUuid, key, std::nullopt, level);
                all.push_back(std::move(e));
            }
        } else {
            for (StoredEnvelope& e : envelopesOf(key, store.series(runUuid, key), l->second))
                all.push_back(std::move(e));
        }
    }
    if (all.empty() || !store.saveEnvelopes(runUuid, all))
        return 0;
    return all.size();
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
