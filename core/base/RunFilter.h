// SPDX-License-Identifier: MIT
#pragma once
// MLflow's run search syntax (MLflow 3's search_runs filter_string): conditions on
// `metrics.KEY`, `params.KEY`, `tags.KEY` and `attributes.NAME` joined by AND, e.g.
//   params.batch_size = '64' and metrics.accuracy > 0.9 and attributes.status != 'FAILED'
// Keys with spaces or dashes are quoted with backticks or double quotes (params.`batch-size`).
// Metrics, start_time and end_time compare as numbers (a metric by its latest value); params, tags
// and the other attributes as text (=, !=, LIKE, ILIKE, IN, NOT IN; `<` on text is refused, as
// MLflow refuses it); a run lacking the key never matches a condition on it. A bad expression throws
// RunFilterError naming the column where it went wrong. One parsed filter serves the runs table, the tree and
// `radt ls --filter`.

#include "core/base/Model.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace radt {

class RunFilterError : public std::runtime_error {
public:
    RunFilterError(size_t column, const std::string& what);
    /// 1-based: where in the expression the error starts.
    size_t column() const { return m_column; }

private:
    size_t m_column;
};

struct RunCondition {
    enum class Entity { Metric, Param, Tag, Attribute };
    Entity entity = Entity::Param;
    std::string key;      ///< the metric, param or tag key; an attribute's name ("status", "run_name", ...)
    std::string op;       ///< "=", "!=", "<", "<=", ">", ">=", "LIKE", "ILIKE", "IN", "NOT IN"
    bool numeric = false; ///< compares as numbers (metrics, start_time, end_time)
    double number = 0;    ///< when numeric
    std::vector<std::string> values; ///< the string (one), or the IN list
    size_t column = 0;               ///< 1-based, where the condition starts
};

/// The conditions of `expression`, all of which a run must meet. An empty or blank expression
/// has none (every run matches). Throws RunFilterError.
std::vector<RunCondition> parseRunFilter(const std::string& expression);

/// Whether `run` meets every condition; `latestMetrics` are its metrics' latest values.
bool runMatches(const std::vector<RunCondition>& conditions, const Run& run,
                const std::map<std::string, double>& latestMetrics);

/// SQL's LIKE: `%` any run of characters, `_` one character (a UTF-8 code point), case-sensitive
/// unless `ignoreCase` (ASCII letters, as PostgreSQL's ILIKE and MLflow on SQLite).
bool likeMatches(const std::string& text, const std::string& pattern, bool ignoreCase);

} // namespace radt
