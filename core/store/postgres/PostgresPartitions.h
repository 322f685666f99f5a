// SPDX-License-Identifier: MIT
#pragma once
// Time partitions of a PostgreSQL store's metrics table (resources/DESIGN.md §4, "Partitions").
// MLflow's primary key on metrics already holds `timestamp`, so the table can be declaratively
// range-partitioned on it without a change MLflow would notice: same name, columns, constraint
// and index names. Partitions are whole UTC days or Monday-aligned UTC weeks, named
// metrics_pYYYYMMDD after their first day, plus metrics_default for timestamps outside them
// (MLflow clients may log timestamp 0). Internal to core: it speaks libpqxx.

#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace radt::pg {

enum class PartitionPeriod { Day, Week };

constexpr int64_t kDayMs = 86400000;
/// Timestamps that get a partition of their own; others go to the default partition (a store
/// of 2019 data still partitions, a stray timestamp 0 or one in 2200 does not make thousands).
constexpr int64_t kFirstPartitionedMs = 946684800000; // 2000-01-01

int64_t periodMs(PartitionPeriod period);
/// The start of the period holding `ms` (weeks start on Monday, UTC).
int64_t periodStart(PartitionPeriod period, int64_t ms);
const char* periodName(PartitionPeriod period); // "day" or "week"
std::optional<PartitionPeriod> parsePeriod(const std::string& text);

/// A partition's range [from, to) in ms.
using Range = std::pair<int64_t, int64_t>;

/// Whether `table` in the current schema is a partitioned table.
bool isPartitioned(pqxx::transaction_base& tx, const std::string& table);
struct Partition {
    std::string name;
    Range range;
};
/// The bounded partitions of `parent`, sorted by time (the default partition is not among them).
std::vector<Partition> partitions(pqxx::transaction_base& tx, const std::string& parent);
std::vector<Range> partitionRanges(pqxx::transaction_base& tx, const std::string& parent);
/// The period new partitions get, kept in radt_settings; nullopt when the store has none.
std::optional<PartitionPeriod> storedPeriod(pqxx::transaction_base& tx);
void storePeriod(pqxx::transaction_base& tx, PartitionPeriod period);

/// Creates `twin`: a partitioned copy of `source`'s columns, defaults, constraints and indexes,
/// each under a name `radt_tmp_` + its own (renamed back by swapInTwin), with a default
/// partition `source`_default. Empty.
void makePartitionedTwin(pqxx::transaction_base& tx, const std::string& source, const std::string& twin);
/// Drops `table` and gives `twin` its name and its constraints' and indexes' names.
void swapInTwin(pqxx::transaction_base& tx, const std::string& table, const std::string& twin);

/// Creates the partitions of `parent` for the periods holding `timestamps` that no partition covers
/// yet (timestamps before kFirstPartitionedMs or over a year ahead are left to the default
/// partition); a period that other partitions cover in part gets a day's partition for each
/// uncovered day holding one of `timestamps`. Rows the default partition holds for a new range
/// move into it. Takes a transaction-scoped advisory lock, so concurrent writers create each
/// partition once, and sets a 2 s lock_timeout: run it in a transaction of its own.
/// Partitions are named after `name` (the table's final name: "metrics"). Returns how many.
int createPartitions(pqxx::transaction_base& tx, const std::string& parent, const std::string& name,
                     PartitionPeriod period, const std::vector<int64_t>& timestamps);
/// One timestamp per period from the period before `nowMs` to two weeks ahead: what a store
/// creates when it opens for writing.
std::vector<int64_t> aheadTimestamps(PartitionPeriod period, int64_t nowMs);

/// Whether every one of `timestamps` has a bounded partition or belongs in the default one.
bool covered(const std::vector<Range>& ranges, const std::vector<int64_t>& timestamps);

} // namespace radt::pg
