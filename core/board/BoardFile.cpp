// SPDX-License-Identifier: MIT
#include "core/board/BoardFile.h"

#include "core/board/BoardFileDetail.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <limits>
#include <map>
#include <numeric>
#include <sys/stat.h>
#include <unistd.h>

namespace radt {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;
using board_detail::jsonString;

// Per run the first few bad points are listed one by one and the rest counted in one line: a
// file with thousands of bad samples still gives a report a person can read.
constexpr size_t kListedPointProblems = 5;
// Strings quoted in a problem are cut to this many bytes, so one problem stays one line.
constexpr size_t kQuotedBytes = 40;

/// How a value reads in a problem: 12, 1e+300, "abc", null, an object.
std::string describe(const json& j) {
    if (j.is_object())
        return "an object";
    if (j.is_array())
        return "an array";
    if (!j.is_string())
        return j.dump();
    const std::string& text = j.get_ref<const std::string&>();
    if (text.size() <= kQuotedBytes)
        return jsonString(text);
    size_t cut = kQuotedBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    return jsonString(text.substr(0, cut)) + "...";
}

// ---------------------------------------------------------------------------------------------
// Numbers. Numeric strings are accepted: radT's newer API server (node-postgres) hands BIGINT and
// NUMERIC columns (timestamps, steps, start times, durations) to the front end as strings, and
// its smoothing slider stores the <input type=range> value, a string.

enum class Conv { Ok, Null, WrongType, OutOfRange };

bool parseDouble(std::string_view text, double& out) {
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    // from_chars also reads "NaN", "Infinity" and "-Infinity" (PostgreSQL's and JavaScript's
    // spellings) and refuses a decimal that overflows a double.
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

Conv toDouble(const json& j, double& out) {
    if (j.is_null())
        return Conv::Null;
    if (j.is_number())
        return out = j.get<double>(), Conv::Ok;
    if (j.is_string())
        return parseDouble(j.get_ref<const std::string&>(), out) ? Conv::Ok : Conv::WrongType;
    return Conv::WrongType;
}

Conv toInt64(const json& j, int64_t& out) {
    if (j.is_number_integer() && !j.is_number_unsigned())
        return out = j.get<int64_t>(), Conv::Ok;
    if (j.is_number_unsigned()) {
        if (j.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
            return Conv::OutOfRange;
        return out = int64_t(j.get<uint64_t>()), Conv::Ok;
    }
    if (j.is_string()) { // exact digits first: a double would round ids and timestamps past 2^53
        const std::string& text = j.get_ref<const std::string&>();
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (end == text.data() + text.size() && !text.empty() && ec != std::errc::invalid_argument)
            return ec == std::errc() ? Conv::Ok : Conv::OutOfRange;
    }
    double d = 0;
    const Conv c = toDouble(j, d);
    if (c != Conv::Ok)
        return c;
    if (!std::isfinite(d))
        return Conv::OutOfRange;
    d = std::round(d); // JavaScript writes fractional ms at times (zoom ranges, timers)
    if (d < -9223372036854775808.0 || d >= 9223372036854775808.0)
        return Conv::OutOfRange;
    return out = int64_t(d), Conv::Ok;
}

/// "expected a number, got "abc"", "expected a number, got 1e+300 (out of range)".
std::string expected(const char* what, const json& got, Conv conv = Conv::WrongType) {
    return std::string("expected ") + what + ", got " + describe(got) +
           (conv == Conv::OutOfRange ? " (out of range)" : "");
}

// ---------------------------------------------------------------------------------------------
// The SAX pass. Points are most of a board (4 charts x 4 runs x 11k points is 176k objects):
// they go straight into struct-of-arrays series, never into nlohmann DOM objects (a std::map per
// point). Everything else (charts, runs, context, unknown keys) is built as a DOM, with each
// run's "data" replaced by a binary placeholder naming its PointArray: JSON text cannot hold a
// binary value, so a placeholder is never mistaken for data.

/// The points of one run as the SAX pass meets them. Their chart's label is known only later
/// (radT writes "metric" after "data"), so problems are kept relative to the run.
struct PointArray {
    Series series;
    size_t items = 0;                  ///< elements met, usable or not
    std::vector<std::string> problems; ///< the first kListedPointProblems: "data[10].value: ..."
    size_t problemCount = 0;
    bool sorted = true;
    std::vector<std::string> unknownKeys;
};

/// SAX handler for nlohmann::json::sax_parse (duck-typed: the calls are not virtual).
class BoardSax {
public:
    using string_t = json::string_t;

    bool null() { return value(json()); }
    bool boolean(bool b) { return value(json(b)); }
    bool number_integer(json::number_integer_t i) { return value(json(i)); }
    bool number_unsigned(json::number_unsigned_t u) { return value(json(u)); }
    bool number_float(json::number_float_t d, const string_t&) { return value(json(d)); }
    bool string(string_t& text) { return value(json(std::move(text))); }
    bool binary(json::binary_t&) { return true; } // JSON text has none
    bool key(string_t& name) {
        if (m_skip > 0)
            return true;
        if (m_points) {
            m_field = name == "timestamp" ? Field::Timestamp
                      : name == "value"   ? Field::Value
                      : name == "step"    ? Field::Step
                                          : Field::Unknown;
            auto& keys = m_points->unknownKeys;
            if (m_field == Field::Unknown && keys.size() < 3 &&
                std::find(keys.begin(), keys.end(), name) == keys.end())
                keys.push_back(name);
            return true;
        }
        m_keyIsData = name == "data";
        m_element = &m_stack.back()->get_ref<json::object_t&>()[std::move(name)];
        return true;
    }
    bool start_object(std::size_t) {
        if (m_skip > 0 || (m_points && m_inPoint))
            return skip(json::object());
        if (m_points) {
            m_inPoint = true;
            m_slot = Slot();
            return true;
        }
        return open(json::object());
    }
    bool end_object() {
        if (m_skip > 0)
            return unskip();
        if (m_points)
            return finishPoint();
        return close();
    }
    bool start_array(std::size_t) {
        if (m_skip > 0 || m_points)
            return skip(json::array());
        if (atRunPoints()) {
            m_points = &arrays.emplace_back();
            m_points->series.reserve(m_reserveHint);
            add(json::binary(json::binary_t::container_type(), arrays.size() - 1));
            return true;
        }
        return open(json::array());
    }
    bool end_array() {
        if (m_skip > 0)
            return unskip();
        if (!m_points)
            return close();
        // The next run of a board usually holds as many points as this one: reserve that much for
        // it; a run that held far fewer than its reserve gives the excess back.
        Series& s = m_points->series;
        if (s.t.capacity() > 2 * s.size() + 1024) {
            s.t.shrink_to_fit();
            s.step.shrink_to_fit();
            s.v.shrink_to_fit();
        }
        m_reserveHint = s.size();
        m_points = nullptr;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& error) {
        errorPosition = position;
        errorText = error.what();
        return false;
    }

    json root;
    std::vector<PointArray> arrays;
    size_t errorPosition = 0;
    std::string errorText;

private:
    enum class Field { Timestamp, Value, Step, Unknown };
    struct Slot {
        bool hasT = false, hasV = false;
        int64_t t = 0, step = 0;
        double v = 0;
        std::string error; // the first bad field of this point; empty when fine
    };

    bool value(json&& v) {
        if (m_skip == 0) {
            if (m_points)
                pointValue(v);
            else
                add(std::move(v));
        }
        return true;
    }

    /// An array opened as the "data" of an object in the "data" array of a top-level element: a
    /// run's points.
    bool atRunPoints() const {
        if (m_stack.size() != 4 || !m_keyIsData || !m_stack[0]->is_array() || !m_stack[1]->is_object() ||
            !m_stack[3]->is_object())
            return false;
        const auto runs = m_stack[1]->find("data");
        return runs != m_stack[1]->end() && &*runs == m_stack[2];
    }

    // DOM building as nlohmann's json_sax_dom_parser does it, with a stack we can inspect.
    json* add(json&& v) {
        if (m_stack.empty())
            return &(root = std::move(v));
        if (m_stack.back()->is_array()) {
            auto& array = m_stack.back()->get_ref<json::array_t&>();
            array.push_back(std::move(v));
            return &array.back(); // stays valid while it is open: its parent grows only after it closes
        }
        return &(*m_element = std::move(v));
    }
    bool open(json&& container) {
        m_stack.push_back(add(std::move(container)));
        return true;
    }
    bool close() {
        m_stack.pop_back();
        return true;
    }

    // A container where a point or a point field was expected: skipped whole, then reported.
    bool skip(json&& kind) {
        if (m_skip++ == 0)
            m_skipped = std::move(kind);
        return true;
    }
    bool unskip() {
        if (--m_skip == 0)
            pointValue(m_skipped);
        return true;
    }

    void pointValue(const json& v) {
        if (!m_inPoint) { // an element of the points array that is not an object
            pointProblem("data[" + std::to_string(m_points->items++) +
                         "]: " + expected("an object {timestamp, value, step}", v));
            return;
        }
        Conv c = Conv::Ok;
        switch (m_field) {
        case Field::Timestamp:
            m_slot.hasT = (c = toInt64(v, m_slot.t)) == Conv::Ok;
            if (!m_slot.hasT && m_slot.error.empty())
                m_slot.error = "timestamp: " + expected("a number", v, c);
            break;
        case Field::Value:
            if ((c = toDouble(v, m_slot.v)) == Conv::Null) // JSON.stringify writes NaN as null
                m_slot.v = std::numeric_limits<double>::quiet_NaN();
            m_slot.hasV = c == Conv::Ok || c == Conv::Null;
            if (!m_slot.hasV && m_slot.error.empty())
                m_slot.error = "value: " + expected("a number", v, c);
            break;
        case Field::Step: // a bad step costs the point nothing but its step: reported, read as 0
            if ((c = toInt64(v, m_slot.step)) != Conv::Ok) {
                m_slot.step = 0;
                if (c != Conv::Null)
                    pointProblem("data[" + std::to_string(m_points->items) +
                                 "].step: " + expected("a number", v, c) + "; 0 used");
            }
            break;
        case Field::Unknown:
            break;
        }
    }

    bool finishPoint() {
        m_inPoint = false;
        const size_t index = m_points->items++;
        if (m_slot.error.empty() && m_slot.hasT && m_slot.hasV) {
            Series& s = m_points->series;
            if (!s.t.empty() && m_slot.t < s.t.back())
                m_points->sorted = false;
            s.t.push_back(m_slot.t);
            s.step.push_back(m_slot.step);
            s.v.push_back(m_slot.v);
            return true;
        }
        const std::string at = "data[" + std::to_string(index) + "]";
        pointProblem(!m_slot.error.empty() ? at + "." + m_slot.error + "; point dropped"
                     : !m_slot.hasT        ? at + ": no \"timestamp\"; point dropped"
                                           : at + ": no \"value\"; point dropped");
        return true;
    }

    void pointProblem(std::string text) {
        if (m_points->problems.size() < kListedPointProblems)
            m_points->problems.push_back(std::move(text));
        ++m_points->problemCount;
    }

    std::vector<json*> m_stack; // containers being filled
    json* m_element = nullptr;  // the object member the next value goes to
    bool m_keyIsData = false;   // the last key met in the DOM is "data"
    size_t m_reserveHint = 0;
    PointArray* m_points = nullptr; // inside a run's points array
    bool m_inPoint = false;         // inside one point object
    Field m_field = Field::Unknown;
    Slot m_slot;
    int m_skip = 0; // depth inside a skipped container
    json m_skipped; // an empty container of the skipped kind, for the message
};

// ---------------------------------------------------------------------------------------------
// The DOM pass: charts, runs and context, with one problem per thing dropped or defaulted.

class BoardReader {
public:
    BoardReader(const std::string& source, std::vector<BoardProblem>& problems,
                std::vector<PointArray>& arrays)
        : m_source(source), m_problems(problems), m_arrays(arrays) {}

    Board read(json& root) {
        if (!root.is_array())
            throw BoardError(m_source + ": expected a radT board (a JSON array of charts), got " +
                             describe(root));
        auto& items = root.get_ref<json::array_t&>();
        if (items.empty())
            throw BoardError(m_source + ": the board holds no charts (an empty JSON array)");
        const size_t firstProblem = m_problems.size();
        Board board;
        board.charts.reserve(items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            m_chart = int(i);
            m_label = "chart " + std::to_string(i + 1);
            if (auto chart = readChart(items[i]))
                board.charts.push_back(std::move(*chart));
        }
        if (board.charts.empty()) {
            std::string why;
            for (size_t p = firstProblem; p < m_problems.size() && p < firstProblem + 3; ++p)
                why += (why.empty() ? "" : "; ") + m_problems[p].message.substr(m_source.size() + 2);
            throw BoardError(m_source + ": no usable chart in the board: " + why +
                             (m_problems.size() > firstProblem + 3 ? "; ..." : ""));
        }
        assignIds(board);
        return board;
    }

private:
    struct ChartId {
        int position = 0;          ///< in the file
        std::optional<int64_t> id; ///< as read, when usable
        std::string bad;           ///< why the id in the file is not usable
    };

    void problem(const std::string& path, const std::string& what) {
        std::string where = m_label;
        for (const std::string* part : {&path, &what})
            if (!part->empty())
                where += ": " + *part;
        m_problems.push_back({m_chart, m_source + ": " + where});
    }

    std::optional<BoardChart> readChart(json& j) {
        if (!j.is_object()) {
            problem("", expected("a chart object", j) + "; chart skipped");
            return std::nullopt;
        }
        auto& members = j.get_ref<json::object_t&>();
        json metric = take(members, "metric"), data = take(members, "data"), id = take(members, "id");
        if (metric.is_string())
            m_label += " (" + jsonString(metric.get_ref<const std::string&>()) + ")";
        if (!metric.is_string() || !data.is_array()) {
            if (metric.is_null())
                problem("", "no \"metric\"; chart skipped");
            else if (!metric.is_string())
                problem("metric", expected("a string", metric) + "; chart skipped");
            else if (data.is_null())
                problem("", "no \"data\"; chart skipped");
            else
                problem("data", expected("an array of runs", data) + "; chart skipped");
            return std::nullopt;
        }

        BoardChart chart;
        chart.metric = std::move(metric.get_ref<std::string&>());
        ChartId chartId{m_chart, std::nullopt, {}};
        int64_t value = 0;
        if (const Conv c = toInt64(id, value); c == Conv::Ok)
            chartId.id = value;
        else if (c != Conv::Null)
            chartId.bad = expected("a number", id, c);
        m_ids.push_back(std::move(chartId));

        auto& runs = data.get_ref<json::array_t&>();
        chart.runs.reserve(runs.size());
        for (size_t r = 0; r < runs.size(); ++r)
            if (auto run = readRun(runs[r], "data[" + std::to_string(r) + "]"))
                chart.runs.push_back(std::move(*run));
        if (runs.empty())
            problem("data", "no runs; the chart is empty");
        readContext(take(members, "context"), chart);
        chart.extra = std::move(j); // what is left: keys radT does not know, the explorer's own included
        return chart;
    }

    /// Moves a member out of an object (null when absent), so what is left is the unknown keys.
    static json take(json::object_t& members, const char* key) {
        const auto it = members.find(key);
        if (it == members.end())
            return json();
        json value = std::move(it->second);
        members.erase(it);
        return value;
    }

    std::optional<std::string> optString(json::object_t& members, const char* key, const std::string& at) {
        json j = take(members, key);
        if (j.is_string())
            return std::move(j.get_ref<std::string&>());
        if (j.is_number_integer()) // a letter or workload written as a number: its decimal text
            return j.dump();
        if (!j.is_null())
            problem(at + "." + key, expected("a string", j) + "; null used");
        return std::nullopt;
    }

    std::optional<int64_t> optInt(json::object_t& members, const char* key, const std::string& at) {
        const json j = take(members, key);
        int64_t value = 0;
        const Conv c = toInt64(j, value);
        if (c == Conv::Ok)
            return value;
        if (c != Conv::Null)
            problem(at + "." + key, expected("a number", j, c) + "; null used");
        return std::nullopt;
    }

    std::optional<BoardRun> readRun(json& j, const std::string& at) {
        if (!j.is_object()) {
            problem(at, expected("a run object", j) + "; run skipped");
            return std::nullopt;
        }
        auto& members = j.get_ref<json::object_t&>();
        BoardRun run;
        if (members.count("name") == 0 || members.at("name").is_null())
            problem(at, "no \"name\" (the run id)");
        run.uuid = optString(members, "name", at).value_or("");
        run.experimentId = optInt(members, "experimentId", at);
        run.duration = optInt(members, "duration", at);
        run.startTime = optInt(members, "startTime", at);
        run.source = optString(members, "source", at);
        run.letter = optString(members, "letter", at);
        run.model = optString(members, "model", at);
        run.params = take(members, "params"); // a string in older radT, an object of params in newer
        run.status = optString(members, "status", at);
        run.workload = optString(members, "workload", at);
        run.experimentName = optString(members, "experimentName", at);
        const json data = take(members, "data");
        run.extra = std::move(j);
        PointArray* points = data.is_binary() ? &m_arrays[size_t(data.get_binary().subtype())] : nullptr;
        if (!points && !data.is_null())
            problem(at + ".data", expected("an array of points", data) + "; no points read");
        if (points) {
            for (const std::string& p : points->problems)
                problem(at + "." + p, "");
            if (points->problemCount > points->problems.size())
                problem(at + ".data", std::to_string(points->problemCount - points->problems.size()) +
                                          " more problems like these, not listed");
            if (!points->unknownKeys.empty()) {
                std::string keys;
                for (const std::string& k : points->unknownKeys)
                    keys += (keys.empty() ? "" : ", ") + jsonString(k);
                problem(at + ".data", "unknown point keys ignored: " + keys);
            }
            run.points = std::move(points->series);
            if (!points->sorted)
                sortByTime(run.points);
        }
        if (run.points.empty()) // kept: the chart shows the run as "no data", the user learns why
            problem(at + " (run " + run.uuid.substr(0, 5) + (run.letter ? " " + *run.letter : "") + ")",
                    points && points->items > 0 ? "none of its " + std::to_string(points->items) +
                                                      " points is usable; shown as no data"
                                                : "no data points; shown as no data");
        return run;
    }

    // radT's API orders points by step, not time (several points per step are common), and radT
    // itself sorts before drawing: sorting is normal, not a problem.
    static void sortByTime(Series& s) {
        std::vector<size_t> order(s.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.t[a] < s.t[b]; });
        auto permute = [&order](auto& values) {
            auto copy = values;
            for (size_t i = 0; i < order.size(); ++i)
                values[i] = copy[order[i]];
        };
        permute(s.t);
        permute(s.step);
        permute(s.v);
    }

    void readContext(json j, BoardChart& chart) {
        if (j.is_null())
            return; // radT's own charts before their first download have no context
        if (!j.is_object())
            return problem("context", expected("an object", j) + "; defaults used");
        auto& members = j.get_ref<json::object_t&>();
        chart.smoothing = readSmoothing(take(members, "smoothing"));
        chart.shownRuns = readNames(take(members, "shownRuns"), "context.shownRuns");
        chart.hiddenSeries = readNames(take(members, "hiddenSeries"), "context.hiddenSeries");
        readRange(take(members, "range"), chart);
        chart.contextExtra = std::move(j);
    }

    int readSmoothing(const json& j) {
        double value = 0;
        const Conv c = toDouble(j, value);
        if (c == Conv::Null)
            return 0;
        if (c != Conv::Ok || !std::isfinite(value)) {
            problem("context.smoothing", expected("a number 0..99", j, c) + "; 0 used");
            return 0;
        }
        const double clamped = std::clamp(std::round(value), 0.0, 99.0);
        if (clamped != std::round(value))
            problem("context.smoothing",
                    describe(j) + " is outside 0..99; " + std::to_string(int(clamped)) + " used");
        return int(clamped);
    }

    std::vector<std::string> readNames(json j, const std::string& path) {
        std::vector<std::string> names;
        if (!j.is_array()) {
            if (!j.is_null())
                problem(path, expected("an array of strings", j) + "; empty used");
            return names;
        }
        auto& items = j.get_ref<json::array_t&>();
        names.reserve(items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            if (items[i].is_string())
                names.push_back(std::move(items[i].get_ref<std::string&>()));
            else
                problem(path + "[" + std::to_string(i) + "]", expected("a string", items[i]) + "; dropped");
        }
        return names;
    }

    void readRange(const json& j, BoardChart& chart) {
        if (j.is_null())
            return;
        if (!j.is_object())
            return problem("context.range", expected("an object {min, max}", j) + "; the whole range used");
        double bounds[2] = {0, 0};
        const char* const names[2] = {"min", "max"};
        for (const auto& [key, value] : j.get_ref<const json::object_t&>())
            if (key != names[0] && key != names[1])
                // Quoted as any string from the file: a key may hold a line break or be long.
                problem("context.range", "unknown key " + describe(json(key)) + " ignored");
        for (int b = 0; b < 2; ++b) {
            const auto it = j.find(names[b]);
            const Conv c = it == j.end() ? Conv::Null : toDouble(*it, bounds[b]);
            if (c == Conv::Null)
                bounds[b] = 0;
            else if (c != Conv::Ok || !std::isfinite(bounds[b]))
                return problem(std::string("context.range.") + names[b],
                               expected("a number", *it, c == Conv::Ok ? Conv::OutOfRange : c) +
                                   "; the whole range used");
        }
        chart.rangeMin = bounds[0];
        chart.rangeMax = bounds[1];
    }

    // Ids must be unique (radT finds a chart by id); a missing id is given one quietly, as radT's
    // upload does, a bad or repeated one with a problem.
    void assignIds(Board& board) {
        int64_t next = 0;
        for (const ChartId& c : m_ids)
            next = std::max(next, c.id.value_or(0));
        std::map<int64_t, int> owner; // id -> the 1-based chart position that holds it
        for (size_t c = 0; c < board.charts.size(); ++c) {
            BoardChart& chart = board.charts[c];
            const ChartId& id = m_ids[c];
            m_chart = id.position;
            m_label = "chart " + std::to_string(id.position + 1) + " (" + jsonString(chart.metric) + ")";
            if (id.id && owner.emplace(*id.id, id.position + 1).second) {
                chart.id = *id.id;
                continue;
            }
            do
                next = next == std::numeric_limits<int64_t>::max() ? 1 : next + 1;
            while (owner.count(next));
            chart.id = next;
            owner.emplace(next, id.position + 1);
            if (!id.bad.empty())
                problem("id", id.bad + "; renumbered to " + std::to_string(next));
            else if (id.id)
                problem("id", std::to_string(*id.id) + " is also the id of chart " +
                                  std::to_string(owner[*id.id]) + "; renumbered to " + std::to_string(next));
        }
    }

    const std::string& m_source;
    std::vector<BoardProblem>& m_problems;
    std::vector<PointArray>& m_arrays;
    int m_chart = -1;
    std::string m_label;        // "chart 2 (\"SMI - Power Draw\")"
    std::vector<ChartId> m_ids; // per kept chart, in order
};

} // namespace

Board parseBoard(std::string_view text, const std::string& sourceName, std::vector<BoardProblem>& problems) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw BoardError(sourceName + ": the file is empty; expected a radT board (a JSON array of charts)");
    // JSON is UTF-8 (RFC 8259): a board saved as UTF-16 or UTF-32 (Windows editors, PowerShell's
    // redirection) would read as a syntax error at byte 1. Name the encoding; skip a UTF-8 BOM.
    const auto starts = [&](std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; };
    const char* wide =
        starts(std::string_view("\xFF\xFE\0\0", 4)) || starts(std::string_view("\0\0\xFE\xFF", 4)) ? "UTF-32"
        : starts("\xFF\xFE") || starts("\xFE\xFF")                                                 ? "UTF-16"
        : text.size() >= 2 && (text[0] == '\0' || text[1] == '\0') ? "UTF-16 or UTF-32 (no byte order mark)"
                                                                   : nullptr;
    if (wide)
        throw BoardError(sourceName + ": the file is " + wide +
                         " text; a board is JSON in UTF-8: save it as UTF-8 and open it again");
    if (starts("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    BoardSax sax;
    if (!json::sax_parse(text.data(), text.data() + text.size(), &sax, json::input_format_t::json, true)) {
        std::string detail = sax.errorText;
        if (const size_t tag = detail.find("] ");
            detail.rfind("[json.exception.", 0) == 0 && tag != std::string::npos)
            detail.erase(0, tag + 2);
        // nlohmann counts the end of input as one more character read: cap to the last byte.
        const bool early = sax.errorPosition >= text.size();
        throw BoardError(sourceName + ": not valid JSON at byte " +
                         std::to_string(std::min(sax.errorPosition, text.size())) + ": " + detail +
                         (early ? " (the file ends early: truncated?)" : ""));
    }
    return BoardReader(sourceName, problems, sax.arrays).read(sax.root);
}

Board loadBoardFile(const std::string& path, std::vector<BoardProblem>& problems) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    int err = fd < 0 ? errno : 0;
    struct stat st {};
    if (!err && ::fstat(fd, &st) != 0)
        err = errno;
    else if (!err && S_ISDIR(st.st_mode))
        err = EISDIR;
    std::string text(err ? 0 : size_t(std::max<off_t>(st.st_size, 0)) + 1,
                     '\0'); // + 1: the read meeting the end
    size_t done = 0;
    while (!err) {
        if (done == text.size())
            text.resize(text.size() * 2); // the file grew while being read
        const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
        if (n == 0)
            break;
        if (n < 0 && errno != EINTR)
            err = errno;
        done += size_t(std::max<ssize_t>(n, 0));
    }
    if (fd >= 0)
        ::close(fd);
    if (err)
        throw BoardError("cannot read the board file " + path + ": " + std::strerror(err));
    text.resize(done);
    return parseBoard(text, fs::path(path).filename().string(), problems);
}

} // namespace radt
