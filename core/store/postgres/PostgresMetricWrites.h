// SPDX-License-Identifier: MIT
#pragma once
// How PostgresStore writes a batch of metric points (resources/DESIGN.md §4): COPY into a table
// and latest_metrics upserted from the batch's own latest point per key. Internal to core: it
// speaks libpqxx.

#include "core/base/Model.h"

#include <pqxx/pqxx>

#include <string>
#include <vector>

namespace radt::pg {

/// The name under which each connection prepares the latest_metrics upsert, and its SQL.
extern const char* const kUpsertLatest;
extern const char* const kUpsertLatestSql;

/// COPYs `points` of `runUuid` into `table` (metrics, or a staging table of the same columns),
/// encoded as MLflow does: NaN as 0 with is_nan, +-inf as +-max float.
void copyPoints(pqxx::work& tx, const char* table, const std::string& runUuid,
                const std::vector<MetricPoint>& points);
/// latest_metrics from the batch: per key its latest point by (step, timestamp, value), upserted
/// in key order (a fixed lock order: concurrent batches cannot deadlock) and only when newer than
/// the stored one, so concurrent writers never move latest_metrics backwards.
void upsertLatest(pqxx::work& tx, const std::string& runUuid, const std::vector<MetricPoint>& points);

} // namespace radt::pg
