// SPDX-License-Identifier: MIT
#include "core/store/RunFilterSql.h"

#include <cstdio>

namespace radt {

std::string sqlLiteral(const std::string& text) {
    std::string out = "'";
    for (const char c : text) {
        out += c;
        if (c == '\'')
            out += '\'';
    }
    return out + "'";
}

std::string likeToGlob(const std::string& pattern) {
    std::string out;
    for (const char c : pattern) {
        if (c == '%')
            out += '*';
        else if (c == '_')
            out += '?';
        else if (c == '*' || c == '?' || c == '[')
            out += std::string("[") + c + "]";
        else
            out += c;
    }
    return out;
}

namespace {

std::string number(double v) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

/// `column OP value(s)` for text: LIKE case-sensitive on both (SQLite's LIKE ignores ASCII case,
/// its GLOB does not), ILIKE ignoring ASCII case, no escape character in either (as runMatches).
std::string textComparison(const std::string& column, const RunCondition& c, SqlDialect dialect) {
    if (c.op == "=" || c.op == "!=")
        return column + " " + c.op + " " + sqlLiteral(c.values.front());
    if (c.op == "LIKE")
        return dialect == SqlDialect::Sqlite
                   ? column + " GLOB " + sqlLiteral(likeToGlob(c.values.front()))
                   : column + " LIKE " + sqlLiteral(c.values.front()) + " ESCAPE ''";
    if (c.op == "ILIKE")
        return dialect == SqlDialect::Sqlite
                   ? column + " LIKE " + sqlLiteral(c.values.front())
                   : column + " ILIKE " + sqlLiteral(c.values.front()) + " ESCAPE ''";
    std::string list;
    for (const std::string& v : c.values)
        list += (list.empty() ? "" : ", ") + sqlLiteral(v);
    return column + (c.op == "IN" ? " IN (" : " NOT IN (") + list + ")";
}

std::string metricComparison(const RunCondition& c, SqlDialect dialect, bool hasLatestMetrics,
                             const std::string& runs) {
    const std::string nan = dialect == SqlDialect::Sqlite ? "m.is_nan = 1" : "m.is_nan";
    // The latest value, NULL where it is NaN: a NULL compares false, so the run is left out.
    const std::string latest =
        hasLatestMetrics
            ? "(SELECT CASE WHEN " + nan +
                  " THEN NULL ELSE m.value END FROM latest_metrics m WHERE m.run_uuid = " + runs +
                  ".run_uuid AND m.\"key\" = " + sqlLiteral(c.key) + ")"
            : "(SELECT CASE WHEN " + nan +
                  " THEN NULL ELSE m.value END FROM metrics m WHERE m.run_uuid = " + runs +
                  ".run_uuid AND m.\"key\" = " + sqlLiteral(c.key) +
                  " ORDER BY m.step DESC, m.timestamp DESC, m.value DESC LIMIT 1)";
    return latest + " " + c.op + " " + number(c.number);
}

std::string conditionSql(const RunCondition& c, SqlDialect dialect, bool hasLatestMetrics,
                         const std::string& runs) {
    switch (c.entity) {
    case RunCondition::Entity::Metric:
        return metricComparison(c, dialect, hasLatestMetrics, runs);
    case RunCondition::Entity::Param:
    case RunCondition::Entity::Tag: {
        const std::string table = c.entity == RunCondition::Entity::Param ? "params" : "tags";
        // A run lacking the key has no row, so EXISTS leaves it out, for != and NOT IN too.
        return "EXISTS (SELECT 1 FROM " + table + " k WHERE k.run_uuid = " + runs +
               ".run_uuid AND k.\"key\" = " + sqlLiteral(c.key) + " AND " +
               textComparison("k.value", c, dialect) + ")";
    }
    case RunCondition::Entity::Attribute:
        break;
    }
    if (c.key == "start_time" || c.key == "created" ||
        c.key == "end_time") // end_time NULL: running, left out
        return runs + (c.key == "end_time" ? ".end_time " : ".start_time ") + c.op + " " + number(c.number);
    const std::string column = runs + (c.key == "run_id"     ? ".run_uuid"
                                       : c.key == "run_name" ? ".name"
                                       : c.key == "status"   ? ".status"
                                                             : ".artifact_uri");
    return textComparison(column, c, dialect);
}

} // namespace

std::string runFilterSql(const std::vector<RunCondition>& conditions, SqlDialect dialect,
                         bool hasLatestMetrics, const std::string& runs) {
    if (conditions.empty())
        return "1 = 1";
    std::string out;
    for (const RunCondition& c : conditions)
        out += (out.empty() ? "(" : " AND (") + conditionSql(c, dialect, hasLatestMetrics, runs) + ")";
    return out;
}

} // namespace radt
