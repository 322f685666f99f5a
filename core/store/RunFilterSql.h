// SPDX-License-Identifier: MIT
#pragma once
// MLflow's run search syntax (core/base/RunFilter) as SQL over MLflow's tables, so that a store
// answers a search without handing every run over: one boolean expression over the `runs` table,
// for SQLite and PostgreSQL alike, with the semantics runMatches() defines (its tests hold both to
// the same answers). Values go in as SQL literals, quoted here (a quote doubled; both servers read
// a backslash literally), never as text pasted into the statement.

#include "core/base/RunFilter.h"

#include <string>
#include <vector>

namespace radt {

enum class SqlDialect { Sqlite, Postgres };

/// A boolean SQL expression over MLflow's `runs` table, named `runs` in the statement (its alias
/// there, "r"), that holds for the runs meeting every condition; "1 = 1" for none. A metric compares its
/// latest value: from `latest_metrics` where the store has it, else the sample of the highest step, then
/// timestamp, in `metrics` (MLflow's stores of 2019 have no latest_metrics). A NaN latest value meets no
/// condition.
std::string runFilterSql(const std::vector<RunCondition>& conditions, SqlDialect dialect,
                         bool hasLatestMetrics, const std::string& runs = "runs");

/// `text` as an SQL string literal: 'it''s'.
std::string sqlLiteral(const std::string& text);

/// A LIKE pattern as SQLite's case-sensitive GLOB: % -> *, _ -> ?, GLOB's own *, ? and [ taken
/// literally ([*], [?], [[]).
std::string likeToGlob(const std::string& pattern);

} // namespace radt
