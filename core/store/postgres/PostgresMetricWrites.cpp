// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresMetricWrites.h"

#include <cmath>
#include <map>
#include <tuple>

namespace radt::pg {

namespace {

constexpr double kMlflowMaxFloat = 1.7976931348623157e308;

/// MLflow's encoding of a value: NaN as 0 with is_nan, +-inf as +-max float.
std::pair<double, bool> mlflowValue(double v) {
    if (std::isnan(v))
        return {0.0, true};
    if (std::isinf(v))
        return {v > 0 ? kMlflowMaxFloat : -kMlflowMaxFloat, false};
    return {v, false};
}

} // namespace

/// Prepared once per connection (libpqxx prepares it on first use): parsed and planned once,
/// not every second by every collector.
const char* const kUpsertLatest = "radt_upsert_latest";
const char* const kUpsertLatestSql =
    "INSERT INTO latest_metrics (\"key\", value, timestamp, step, is_nan, run_uuid) "
    "SELECT k, v, t, s, n, $6 FROM unnest($1::text[], $2::float8[], $3::bigint[], $4::bigint[], "
    "$5::bool[]) WITH ORDINALITY AS x(k, v, t, s, n, o) ORDER BY o "
    "ON CONFLICT (\"key\", run_uuid) DO UPDATE SET value = excluded.value, "
    "timestamp = excluded.timestamp, step = excluded.step, is_nan = excluded.is_nan "
    "WHERE (excluded.step, excluded.timestamp, excluded.value) > "
    "(latest_metrics.step, latest_metrics.timestamp, latest_metrics.value)";

void copyPoints(pqxx::work& tx, const char* table, const std::string& runUuid,
                const std::vector<MetricPoint>& points) {
    pqxx::stream_to copy(tx, table,
                         std::vector<std::string>{"key", "value", "timestamp", "run_uuid", "step", "is_nan"});
    for (const MetricPoint& p : points) {
        const auto [value, isNan] = mlflowValue(p.value);
        copy << std::make_tuple(p.key, value, p.timestamp, runUuid, p.step, isNan);
    }
    copy.complete();
}

namespace {

/// An element of a PostgreSQL array literal, quoted.
void appendArrayElement(std::string& array, const std::string& text) {
    array += array.size() > 1 ? ",\"" : "\"";
    for (char ch : text) {
        if (ch == '"' || ch == '\\')
            array += '\\';
        array += ch;
    }
    array += '"';
}

} // namespace

void upsertLatest(pqxx::work& tx, const std::string& runUuid, const std::vector<MetricPoint>& points) {
    struct Latest {
        int64_t step, timestamp;
        double value;
        bool isNan;
    };
    std::map<std::string, Latest> latest;
    for (const MetricPoint& p : points) {
        const auto [value, isNan] = mlflowValue(p.value);
        const Latest candidate{p.step, p.timestamp, value, isNan};
        auto [it, fresh] = latest.emplace(p.key, candidate);
        if (!fresh && std::tie(candidate.step, candidate.timestamp, candidate.value) >
                          std::tie(it->second.step, it->second.timestamp, it->second.value))
            it->second = candidate;
    }
    std::string keys = "{", values = "{", timestamps = "{", steps = "{", nans = "{";
    for (const auto& [key, l] : latest) {
        appendArrayElement(keys, key);
        appendArrayElement(values, pqxx::to_string(l.value));
        appendArrayElement(timestamps, std::to_string(l.timestamp));
        appendArrayElement(steps, std::to_string(l.step));
        appendArrayElement(nans, l.isNan ? "t" : "f");
    }
    for (std::string* array : {&keys, &values, &timestamps, &steps, &nans})
        *array += "}";
    tx.exec_prepared(kUpsertLatest, keys, values, timestamps, steps, nans, runUuid);
}

} // namespace radt::pg
