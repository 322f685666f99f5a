// SPDX-License-Identifier: MIT
#include "core/base/RunFilter.h"

#include "core/base/Utf8.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace radt {

RunFilterError::RunFilterError(size_t column, const std::string& what)
    : std::runtime_error("column " + std::to_string(column) + ": " + what), m_column(column) {}

namespace {

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return s;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// The prefixes MLflow's parser accepts for each entity.
bool entityOf(const std::string& word, RunCondition::Entity& entity) {
    const std::string w = lower(word);
    if (w == "metric" || w == "metrics")
        entity = RunCondition::Entity::Metric;
    else if (w == "param" || w == "params" || w == "parameter" || w == "parameters")
        entity = RunCondition::Entity::Param;
    else if (w == "tag" || w == "tags")
        entity = RunCondition::Entity::Tag;
    else if (w == "attribute" || w == "attributes" || w == "attr" || w == "run")
        entity = RunCondition::Entity::Attribute;
    else
        return false;
    return true;
}

const std::vector<std::string> kStringAttributes = {"run_id", "run_name", "status", "artifact_uri"};
const std::vector<std::string> kNumericAttributes = {"start_time", "end_time", "created"};

/// Reads one expression left to right; `at` is 0-based, columns said 1-based.
class Parser {
public:
    explicit Parser(const std::string& text) : m_text(text) {}

    std::vector<RunCondition> conditions() {
        std::vector<RunCondition> out;
        skipSpace();
        if (m_at == m_text.size())
            return out;
        for (;;) {
            out.push_back(condition());
            skipSpace();
            if (m_at == m_text.size())
                return out;
            const size_t wordAt = m_at;
            const std::string word = upper(bareWord());
            if (word == "OR")
                throw RunFilterError(wordAt + 1,
                                     "OR is not supported: MLflow's search joins conditions with AND");
            if (word != "AND")
                throw RunFilterError(wordAt + 1, "expected AND between two conditions");
        }
    }

private:
    void skipSpace() {
        while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at])))
            ++m_at;
    }
    bool isWordChar(char c) const {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' || c == '/';
    }
    std::string bareWord() {
        skipSpace();
        const size_t start = m_at;
        while (m_at < m_text.size() && isWordChar(m_text[m_at]) && m_text[m_at] != '.')
            ++m_at;
        return m_text.substr(start, m_at - start);
    }
    /// A quoted name or value: `...`, "..." or '...'; a doubled quote inside stands for one.
    std::string quoted() {
        const char quote = m_text[m_at];
        const size_t start = m_at++;
        std::string out;
        while (m_at < m_text.size()) {
            const char c = m_text[m_at++];
            if (c == '\0') // no store keeps one in a key or a value, and SQL text ends at it
                throw RunFilterError(m_at, "a NUL byte cannot be searched for");
            if (c == '\\' && quote != '`' && m_at < m_text.size()) {
                out += m_text[m_at++];
            } else if (c == quote) {
                if (m_at < m_text.size() && m_text[m_at] == quote) {
                    out += quote;
                    ++m_at;
                } else {
                    return out;
                }
            } else {
                out += c;
            }
        }
        throw RunFilterError(start + 1, std::string("unclosed ") + quote);
    }

    RunCondition condition() {
        RunCondition c;
        c.column = m_at + 1;
        const std::string prefix = bareWord();
        if (prefix.empty())
            throw RunFilterError(m_at + 1, "expected metrics., params., tags. or attributes. and a key");
        if (m_at >= m_text.size() || m_text[m_at] != '.' || !entityOf(prefix, c.entity))
            throw RunFilterError(c.column, "'" + prefix +
                                               "' is not a key: write metrics.KEY, params.KEY, tags.KEY or "
                                               "attributes.NAME");
        ++m_at; // the dot
        const size_t keyAt = m_at;
        if (m_at < m_text.size() && (m_text[m_at] == '`' || m_text[m_at] == '"')) {
            c.key = quoted();
        } else {
            while (m_at < m_text.size() && isWordChar(m_text[m_at]))
                ++m_at;
            c.key = m_text.substr(keyAt, m_at - keyAt);
            if (m_at < m_text.size() && m_text[m_at] == '-')
                throw RunFilterError(keyAt + 1, "a key with a dash or a space is quoted: " + prefix + ".`" +
                                                    c.key + "-...`");
        }
        if (c.key.empty())
            throw RunFilterError(keyAt + 1, "expected a key after '" + prefix + ".'");
        const bool numericAttribute =
            c.entity == RunCondition::Entity::Attribute &&
            std::count(kNumericAttributes.begin(), kNumericAttributes.end(), lower(c.key));
        if (c.entity == RunCondition::Entity::Attribute) {
            c.key = lower(c.key);
            if (!numericAttribute && !std::count(kStringAttributes.begin(), kStringAttributes.end(), c.key))
                throw RunFilterError(keyAt + 1, "no attribute '" + c.key +
                                                    "': run_id, run_name, status, artifact_uri, start_time, "
                                                    "end_time or created");
        }
        c.numeric = c.entity == RunCondition::Entity::Metric || numericAttribute;
        comparator(c);
        value(c);
        return c;
    }

    void comparator(RunCondition& c) {
        skipSpace();
        const size_t opAt = m_at;
        for (const char* symbol : {"!=", "<=", ">=", "<>", "=", "<", ">"})
            if (m_text.compare(m_at, std::char_traits<char>::length(symbol), symbol) == 0) {
                c.op = symbol == std::string("<>") ? "!=" : symbol;
                m_at += std::char_traits<char>::length(symbol);
                break;
            }
        if (c.op.empty()) {
            const std::string word = upper(bareWord());
            if (word == "NOT") {
                if (upper(bareWord()) != "IN")
                    throw RunFilterError(opAt + 1, "expected IN after NOT");
                c.op = "NOT IN";
            } else if (word == "LIKE" || word == "ILIKE" || word == "IN") {
                c.op = word;
            } else {
                throw RunFilterError(opAt + 1, "expected a comparator (=, !=, <, <=, >, >=, LIKE, ILIKE, IN, "
                                               "NOT IN) after the key");
            }
        }
        const bool orderOrEquality =
            c.op == "=" || c.op == "!=" || c.op == "<" || c.op == "<=" || c.op == ">" || c.op == ">=";
        if (c.numeric && !orderOrEquality)
            throw RunFilterError(opAt + 1, c.op + " compares text; '" + c.key +
                                               "' is a number: use =, !=, <, <=, >, >=");
        if (!c.numeric && orderOrEquality && c.op != "=" && c.op != "!=")
            throw RunFilterError(opAt + 1,
                                 c.op +
                                     " does not compare text, as in MLflow: use =, !=, LIKE, ILIKE, IN "
                                     "or NOT IN on '" +
                                     c.key + "'");
    }

    std::string stringValue(const RunCondition& c) {
        skipSpace();
        if (m_at < m_text.size() && (m_text[m_at] == '\'' || m_text[m_at] == '"'))
            return quoted();
        throw RunFilterError(m_at + 1, "'" + c.key + "' is text: its value is quoted ('64')");
    }

    void value(RunCondition& c) {
        skipSpace();
        const size_t valueAt = m_at;
        if (c.op == "IN" || c.op == "NOT IN") {
            if (m_at >= m_text.size() || m_text[m_at] != '(')
                throw RunFilterError(m_at + 1, "expected ( and a list of quoted values after " + c.op);
            ++m_at;
            for (;;) {
                c.values.push_back(stringValue(c));
                skipSpace();
                if (m_at < m_text.size() && m_text[m_at] == ',') {
                    ++m_at;
                    continue;
                }
                if (m_at < m_text.size() && m_text[m_at] == ')') {
                    ++m_at;
                    return;
                }
                throw RunFilterError(m_at + 1, "expected , or ) in the list");
            }
        }
        if (!c.numeric) {
            c.values.push_back(stringValue(c));
            return;
        }
        const char* begin = m_text.c_str() + m_at;
        char* end = nullptr;
        c.number = std::strtod(begin, &end);
        if (end == begin || !std::isfinite(c.number))
            throw RunFilterError(valueAt + 1, "'" + c.key + "' is a number: expected one after " + c.op);
        m_at += size_t(end - begin);
    }

    const std::string& m_text;
    size_t m_at = 0;
};

bool compareNumbers(double a, const std::string& op, double b) {
    if (op == "=")
        return a == b;
    if (op == "!=")
        return a != b;
    if (op == "<")
        return a < b;
    if (op == "<=")
        return a <= b;
    if (op == ">")
        return a > b;
    return a >= b;
}

bool compareText(const std::string& text, const RunCondition& c) {
    if (c.op == "=")
        return text == c.values.front();
    if (c.op == "!=")
        return text != c.values.front();
    if (c.op == "LIKE" || c.op == "ILIKE")
        return likeMatches(text, c.values.front(), c.op == "ILIKE");
    const bool in = std::count(c.values.begin(), c.values.end(), text) > 0;
    return c.op == "IN" ? in : !in;
}

bool meets(const RunCondition& c, const Run& run, const std::map<std::string, double>& metrics) {
    switch (c.entity) {
    case RunCondition::Entity::Metric: {
        const auto it = metrics.find(c.key);
        return it != metrics.end() && compareNumbers(it->second, c.op, c.number);
    }
    case RunCondition::Entity::Param:
    case RunCondition::Entity::Tag: {
        const auto& map = c.entity == RunCondition::Entity::Param ? run.params : run.tags;
        const auto it = map.find(c.key);
        return it != map.end() && compareText(it->second, c);
    }
    case RunCondition::Entity::Attribute:
        break;
    }
    if (c.key == "start_time" || c.key == "created")
        return compareNumbers(double(run.startTime), c.op, c.number);
    if (c.key == "end_time")
        return run.endTime && compareNumbers(double(*run.endTime), c.op, c.number);
    const std::string text = c.key == "run_id"     ? run.uuid
                             : c.key == "run_name" ? run.name
                             : c.key == "status"   ? toString(run.status)
                                                   : run.artifactUri;
    return compareText(text, c);
}

} // namespace

std::vector<RunCondition> parseRunFilter(const std::string& expression) {
    return Parser(expression).conditions();
}

bool runMatches(const std::vector<RunCondition>& conditions, const Run& run,
                const std::map<std::string, double>& latestMetrics) {
    return std::all_of(conditions.begin(), conditions.end(),
                       [&](const RunCondition& c) { return meets(c, run, latestMetrics); });
}

bool likeMatches(const std::string& text, const std::string& pattern, bool ignoreCase) {
    // Backtracking over the last %: linear in practice, never exponential.
    const auto same = [ignoreCase](char a, char b) {
        return ignoreCase ? std::tolower(static_cast<unsigned char>(a)) ==
                                std::tolower(static_cast<unsigned char>(b))
                          : a == b;
    };
    size_t t = 0, p = 0, starP = std::string::npos, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '%') {
            starP = p++;
            starT = t;
        } else if (p < pattern.size() && pattern[p] == '_') {
            t += std::max<size_t>(1, utf8SequenceLength(text, t)); // one character, not one byte
            ++p;
        } else if (p < pattern.size() && same(pattern[p], text[t])) {
            ++t;
            ++p;
        } else if (starP != std::string::npos) {
            p = starP + 1;
            starT += std::max<size_t>(1, utf8SequenceLength(text, starT));
            t = starT;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '%')
        ++p;
    return p == pattern.size();
}

} // namespace radt
