// SPDX-License-Identifier: MIT
#include "core/board/BoardFile.h"

#include "core/base/AtomicFile.h"
#include "core/board/BoardFileDetail.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace radt {

namespace {

using json = nlohmann::json;
using board_detail::dump;
using board_detail::jsonString;

// ---------------------------------------------------------------------------------------------
// Writing: keys and order as radT's front end builds a chart ({id, data, metric, context}) and a
// run (api.js fetchRuns, then DataPicker adds experimentName and ChartPicker appends data).

const char* const kChartKeys[] = {"id", "data", "metric", "context"};
const char* const kContextKeys[] = {"smoothing", "shownRuns", "hiddenSeries", "range"};
const char* const kRunKeys[] = {"name",  "experimentId", "duration", "startTime", "source",         "letter",
                                "model", "params",       "status",   "workload",  "experimentName", "data"};

template <size_t N> bool isKnown(const char* const (&keys)[N], const std::string& key) {
    return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

std::string text(const std::optional<int64_t>& v) {
    return v ? std::to_string(*v) : "null";
}
std::string text(const std::optional<std::string>& v) {
    return v ? jsonString(*v) : "null";
}

void appendInteger(std::string& out, int64_t value) {
    char buffer[24];
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

void appendNumber(std::string& out, double value) {
    if (!std::isfinite(value) || value == 0) { // NaN/inf are not JSON: null, as JSON.stringify writes
        out += !std::isfinite(value) ? "null" : std::signbit(value) ? "-0.0" : "0"; // "-0" would read as 0
        return;
    }
    char buffer[32]; // the shortest text that reads back as the same double
    out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

template <size_t N> std::string extras(const json& extra, const char* const (&known)[N]) {
    std::string out;
    if (extra.is_object())
        for (const auto& [key, value] : extra.get_ref<const json::object_t&>())
            if (!isKnown(known, key)) // a known key is written from its field, never twice
                out += "," + jsonString(key) + ":" + dump(value);
    return out;
}

void writeRun(std::string& out, const BoardRun& r) {
    out += "{\"name\":" + jsonString(r.uuid) + ",\"experimentId\":" + text(r.experimentId) +
           ",\"duration\":" + text(r.duration) + ",\"startTime\":" + text(r.startTime) +
           ",\"source\":" + text(r.source) + ",\"letter\":" + text(r.letter) + ",\"model\":" + text(r.model) +
           ",\"params\":" + dump(r.params) + ",\"status\":" + text(r.status) +
           ",\"workload\":" + text(r.workload) + ",\"experimentName\":" + text(r.experimentName) +
           extras(r.extra, kRunKeys) + ",\"data\":[";
    const Series& s = r.points;
    for (size_t i = 0; i < s.size(); ++i) {
        out += i ? ",{\"timestamp\":" : "{\"timestamp\":";
        appendInteger(out, s.t[i]);
        out += ",\"value\":";
        appendNumber(out, s.v[i]);
        out += ",\"step\":";
        appendInteger(out, i < s.step.size() ? s.step[i] : 0);
        out += '}';
    }
    out += "]}";
}

void writeChart(std::string& out, const BoardChart& c) {
    out += "{\"id\":" + std::to_string(c.id) + ",\"data\":[";
    for (size_t r = 0; r < c.runs.size(); ++r) {
        if (r)
            out += ',';
        writeRun(out, c.runs[r]);
    }
    std::string min, max;
    appendNumber(min, c.rangeMin);
    appendNumber(max, c.rangeMax);
    out += "],\"metric\":" + jsonString(c.metric) +
           ",\"context\":{\"smoothing\":" + std::to_string(c.smoothing) +
           ",\"shownRuns\":" + dump(json(c.shownRuns)) + ",\"hiddenSeries\":" + dump(json(c.hiddenSeries)) +
           ",\"range\":{\"min\":" + min + ",\"max\":" + max + "}" + extras(c.contextExtra, kContextKeys) +
           "}" + extras(c.extra, kChartKeys) + "}";
}

bool sameSeries(const Series& a, const Series& b) {
    if (a.t != b.t || a.step != b.step || a.v.size() != b.v.size())
        return false;
    for (size_t i = 0; i < a.v.size(); ++i)
        if (!(a.v[i] == b.v[i] || (std::isnan(a.v[i]) && std::isnan(b.v[i]))))
            return false;
    return true;
}

} // namespace

bool operator==(const BoardRun& a, const BoardRun& b) {
    return a.uuid == b.uuid && a.experimentId == b.experimentId && a.experimentName == b.experimentName &&
           a.workload == b.workload && a.letter == b.letter && a.model == b.model && a.source == b.source &&
           a.params == b.params && a.status == b.status && a.startTime == b.startTime &&
           a.duration == b.duration && sameSeries(a.points, b.points) && a.extra == b.extra;
}

bool operator==(const BoardChart& a, const BoardChart& b) {
    return a.id == b.id && a.metric == b.metric && a.runs == b.runs && a.smoothing == b.smoothing &&
           a.shownRuns == b.shownRuns && a.hiddenSeries == b.hiddenSeries && a.rangeMin == b.rangeMin &&
           a.rangeMax == b.rangeMax && a.extra == b.extra && a.contextExtra == b.contextExtra;
}

bool operator==(const Board& a, const Board& b) {
    return a.charts == b.charts;
}

std::string writeBoard(const Board& board) {
    size_t points = 0;
    for (const BoardChart& c : board.charts)
        for (const BoardRun& r : c.runs)
            points += r.points.size();
    std::string out; // a point takes about 56 bytes: {"timestamp":13 digits,"value":...,"step":...}
    out.reserve(points * 56 + board.charts.size() * 1024 + 64);
    out += '[';
    for (size_t c = 0; c < board.charts.size(); ++c) {
        if (c)
            out += ',';
        writeChart(out, board.charts[c]);
    }
    return out += ']';
}

void saveBoardFile(const std::string& path, const Board& board) {
    try {
        writeFileAtomically(path, writeBoard(board));
    } catch (const AtomicFileError& e) {
        throw BoardError("cannot save the board file " + path + ": " + e.detail());
    }
}

std::string metricSlug(const std::string& metric) {
    std::string slug;
    slug.reserve(metric.size());
    bool gap = false;
    for (const char ch : metric) {
        const bool lower = ch >= 'a' && ch <= 'z', upper = ch >= 'A' && ch <= 'Z',
                   digit = ch >= '0' && ch <= '9';
        if (!lower && !upper && !digit) {
            gap = true; // anything else, non-ASCII bytes included, is one separator
            continue;
        }
        if (gap && !slug.empty())
            slug += '-';
        gap = false;
        slug += upper ? char(ch - 'A' + 'a') : ch;
    }
    // File names stop at 255 bytes; "NN-" and ".json" come around the slug. 80 keeps names legible,
    // and the export's chart number keeps two long names that share a start apart.
    if (slug.size() > kMaxMetricSlugLength) {
        slug.resize(kMaxMetricSlugLength);
        while (!slug.empty() && slug.back() == '-')
            slug.pop_back();
    }
    return slug.empty() ? "chart" : slug;
}

} // namespace radt
