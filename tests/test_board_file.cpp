// SPDX-License-Identifier: MIT
// BoardFile: radT board files (resources/DESIGN.md §9) read liberally, written in radT's form, and every bad
// board either refused with one clear error or opened with its problems listed.

#include "TempDir.h"
#include "core/board/BoardFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

using namespace radt;
using radt::test::errorAsUnprivilegedUser;
using radt::test::errorOf;
using radt::test::readFile;
using radt::test::TempDir;
using radt::test::writeFile;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Shaped as radT's front end downloads a board: ChartPicker's {id, data, metric, context}, runs
// as api.js fetchRuns builds them plus DataPicker's "key" and "experimentName", points as
// fetchChart gives them, and the smoothing slider's value stored as a string.
const char* const kRadtBoard = R"([
 {"id":1717171717171,
  "data":[
   {"name":"3f2a1c0e9b8d4c7a8e6f5d4c3b2a1908","experimentId":1,"duration":5400000,"startTime":1717000000000,
    "source":null,"letter":"0_A","model":"train.py","params":"--batch-size 128 --data imagenet",
    "status":"FINISHED","workload":"1-1","key":"3f2a1c0e9b8d4c7a8e6f5d4c3b2a1908",
    "experimentName":"resnet collocation",
    "data":[{"timestamp":1717000001000,"value":63.2571,"step":0},
            {"timestamp":1717000002000,"value":187.33,"step":0},
            {"timestamp":1717000003000,"value":null,"step":1}]},
   {"name":"9a8b7c6d5e4f30211203948576abcdef","experimentId":1,"duration":5390000,"startTime":1717000000250,
    "source":"imagenet","letter":"0_B","model":"train.py","params":"--batch-size 256 --data imagenet",
    "status":"FINISHED","workload":"1-1","key":"9a8b7c6d5e4f30211203948576abcdef",
    "experimentName":"resnet collocation",
    "data":[{"timestamp":1717000001250,"value":71.5,"step":0},
            {"timestamp":1717000002250,"value":290.125,"step":0}]}],
  "metric":"SMI - Power Draw",
  "context":{"smoothing":"35","shownRuns":["1-1"],"hiddenSeries":["1-1 0_B"],"range":{"min":1234.5,"max":60000}}}
])";

Board parse(const std::string& text, std::vector<BoardProblem>& problems) {
    return parseBoard(text, "board.json", problems);
}

std::vector<std::string> messages(const std::vector<BoardProblem>& problems) {
    std::vector<std::string> out;
    for (const BoardProblem& p : problems)
        out.push_back(p.message);
    return out;
}

/// The error parseBoard throws for `text`, or "" when it opens.
std::string parseError(const std::string& text) {
    std::vector<BoardProblem> problems;
    return errorOf([&] { parse(text, problems); });
}

/// A one-chart board around one run's JSON text.
std::string oneRun(const std::string& run, const std::string& metric = "SMI - Power Draw") {
    return R"([{"id":1,"data":[)" + run + R"(],"metric":")" + metric + R"("}])";
}

Series series(std::vector<int64_t> t, std::vector<double> v, std::vector<int64_t> step = {}) {
    Series s;
    step.resize(t.size(), 0);
    s.t.assign(t.begin(), t.end());
    s.v.assign(v.begin(), v.end());
    s.step.assign(step.begin(), step.end());
    return s;
}

BoardChart smallChart() {
    BoardChart chart;
    chart.id = 7;
    chart.metric = "TOP - CPU Utilization";
    BoardRun run;
    run.uuid = "0123456789abcdef0123456789abcdef";
    run.experimentId = 2;
    run.workload = "2-3";
    run.letter = "0";
    run.params = "--epochs 3";
    run.startTime = 1700000000000;
    run.points = series({1700000000000, 1700000001000}, {12.5, 0.1}, {0, 1});
    chart.runs.push_back(run);
    return chart;
}

} // namespace

TEST(BoardFile, MetricSlug) {
    EXPECT_EQ(metricSlug("DCGMI - Power Usage"), "dcgmi-power-usage");
    EXPECT_EQ(metricSlug("SMI - Power Draw"), "smi-power-draw");
    EXPECT_EQ(metricSlug("NET - eth0 RX MB/s"), "net-eth0-rx-mb-s");
    EXPECT_EQ(metricSlug("  --Loss__ "), "loss");
    EXPECT_EQ(metricSlug("Température °C"), "temp-rature-c");
    EXPECT_EQ(metricSlug(""), "chart");
    EXPECT_EQ(metricSlug(" - / % "), "chart");
}

TEST(BoardFile, ReadsARadtDownload) {
    std::vector<BoardProblem> problems;
    const Board board = parse(kRadtBoard, problems);
    EXPECT_TRUE(problems.empty()) << messages(problems).front();
    ASSERT_EQ(board.charts.size(), 1u);
    const BoardChart& chart = board.charts[0];
    EXPECT_EQ(chart.id, 1717171717171);
    EXPECT_EQ(chart.metric, "SMI - Power Draw");
    EXPECT_EQ(chart.smoothing, 35);
    EXPECT_EQ(chart.shownRuns, std::vector<std::string>{"1-1"});
    EXPECT_EQ(chart.hiddenSeries, std::vector<std::string>{"1-1 0_B"});
    EXPECT_EQ(chart.rangeMin, 1234.5);
    EXPECT_EQ(chart.rangeMax, 60000);
    EXPECT_TRUE(chart.extra.empty());
    EXPECT_TRUE(chart.contextExtra.empty());
    ASSERT_EQ(chart.runs.size(), 2u);

    const BoardRun& a = chart.runs[0];
    EXPECT_EQ(a.uuid, "3f2a1c0e9b8d4c7a8e6f5d4c3b2a1908");
    EXPECT_EQ(a.experimentId, 1);
    EXPECT_EQ(a.experimentName, "resnet collocation");
    EXPECT_EQ(a.workload, "1-1");
    EXPECT_EQ(a.letter, "0_A");
    EXPECT_EQ(a.model, "train.py");
    EXPECT_EQ(a.source, std::nullopt);
    EXPECT_EQ(a.params, "--batch-size 128 --data imagenet");
    EXPECT_EQ(a.status, "FINISHED");
    EXPECT_EQ(a.startTime, 1717000000000);
    EXPECT_EQ(a.duration, 5400000);
    EXPECT_EQ(a.extra, nlohmann::json({{"key", "3f2a1c0e9b8d4c7a8e6f5d4c3b2a1908"}}));
    EXPECT_EQ(a.points.t, (std::vector<int64_t>{1717000001000, 1717000002000, 1717000003000}));
    EXPECT_EQ(a.points.step, (std::vector<int64_t>{0, 0, 1}));
    ASSERT_EQ(a.points.v.size(), 3u);
    EXPECT_EQ(a.points.v[0], 63.2571);
    EXPECT_EQ(a.points.v[1], 187.33);
    EXPECT_TRUE(std::isnan(a.points.v[2])) << "JSON.stringify writes NaN as null";
    EXPECT_EQ(chart.runs[1].letter, "0_B");
    EXPECT_EQ(chart.runs[1].source, "imagenet");
    EXPECT_EQ(chart.runs[1].points.size(), 2u);
}

// radT's newer API server (node-postgres) hands BIGINT and NUMERIC columns over as strings; its
// newer fe_runs view gives params as an object.
TEST(BoardFile, ReadsNumbersWrittenAsStrings) {
    std::vector<BoardProblem> problems;
    const Board board = parse(oneRun(R"({"name":"abc","experimentId":"4","startTime":"1717000000000",
        "duration":"5400000","params":{"batch-size":"128","workload":"1"},
        "data":[{"timestamp":"1717000001000","value":"63.2571","step":"3"},
                {"timestamp":"1717000002000","value":"NaN","step":"4"},
                {"timestamp":1717000003000.0,"value":"-Infinity","step":5}]})"),
                              problems);
    EXPECT_TRUE(problems.empty()) << messages(problems).front();
    const BoardRun& run = board.charts.at(0).runs.at(0);
    EXPECT_EQ(run.experimentId, 4);
    EXPECT_EQ(run.startTime, 1717000000000);
    EXPECT_EQ(run.duration, 5400000);
    EXPECT_EQ(run.params, nlohmann::json({{"batch-size", "128"}, {"workload", "1"}}));
    EXPECT_EQ(run.points.t, (std::vector<int64_t>{1717000001000, 1717000002000, 1717000003000}));
    EXPECT_EQ(run.points.step, (std::vector<int64_t>{3, 4, 5}));
    EXPECT_EQ(run.points.v[0], 63.2571);
    EXPECT_TRUE(std::isnan(run.points.v[1]));
    EXPECT_EQ(run.points.v[2], -kInf);
}

TEST(BoardFile, RoundTripIsIdentical) {
    std::vector<BoardProblem> problems;
    Board board = parse(kRadtBoard, problems);
    // The explorer's own state, unknown run keys (multi-axis charts carry "metric" and "runName"),
    // nulls in every nullable field, and a second chart.
    board.charts[0].extra["explorer"] = {{"logY", true}, {"lineWidth", 2.5}, {"xAxis", "elapsed"}};
    board.charts[0].contextExtra["monochrome"] = false;
    BoardChart second = smallChart();
    second.runs.push_back(BoardRun{});
    second.runs[1].uuid = "ffffffffffffffffffffffffffffffff";
    second.runs[1].extra["runName"] = "(1 0_A) train";
    second.runs[1].extra["metric"] = "TOP - CPU Utilization";
    second.runs[1].points = series({5, 6, 7}, {kNaN, 1e300, -2.5e-300}, {-1, 0, 9223372036854775807});
    board.charts.push_back(second);

    const std::string text = writeBoard(board);
    std::vector<BoardProblem> again;
    const Board back = parse(text, again);
    EXPECT_EQ(back, board);
    EXPECT_EQ(writeBoard(back), text);
    EXPECT_TRUE(again.empty()) << messages(again).front();
}

TEST(BoardFile, WritesRadtKeyOrder) {
    Board board;
    board.charts.push_back(smallChart());
    board.charts[0].smoothing = 20;
    board.charts[0].shownRuns = {"2-3"};
    board.charts[0].rangeMax = 1500.25;
    board.charts[0].extra["explorer"] = {{"logY", true}};
    board.charts[0].contextExtra["monochrome"] = true;
    board.charts[0].runs[0].extra["key"] = "k";
    board.charts[0].extra["metric"] = "ignored: a known key comes from its field";
    EXPECT_EQ(
        writeBoard(board),
        R"([{"id":7,"data":[{"name":"0123456789abcdef0123456789abcdef","experimentId":2,"duration":null,)"
        R"("startTime":1700000000000,"source":null,"letter":"0","model":null,"params":"--epochs 3",)"
        R"("status":null,"workload":"2-3","experimentName":null,"key":"k","data":[)"
        R"({"timestamp":1700000000000,"value":12.5,"step":0},{"timestamp":1700000001000,"value":0.1,"step":1}]}],)"
        R"("metric":"TOP - CPU Utilization","context":{"smoothing":20,"shownRuns":["2-3"],"hiddenSeries":[],)"
        R"("range":{"min":0,"max":1500.25},"monochrome":true},"explorer":{"logY":true}}])");
}

TEST(BoardFile, WritesNumbersWithoutLoss) {
    Board board;
    board.charts.push_back(smallChart());
    const std::vector<double> values = {
        0.1 + 0.2, 63.2571, 1e-300, 5e-324, 1.7976931348623157e308, -0.0, 123456789.12345679, 1.0 / 3.0};
    std::vector<int64_t> t;
    for (size_t i = 0; i < values.size(); ++i)
        t.push_back(9007199254740993 + int64_t(i)); // past 2^53: integers, never through a double
    board.charts[0].runs[0].points = series(t, values);
    const std::string text = writeBoard(board);
    EXPECT_NE(text.find(R"("timestamp":9007199254740993,"value":0.30000000000000004,)"), std::string::npos);
    EXPECT_NE(text.find(R"("value":5e-324,)"), std::string::npos);
    std::vector<BoardProblem> problems;
    const Board back = parse(text, problems);
    EXPECT_TRUE(problems.empty());
    const Series& s = back.charts.at(0).runs.at(0).points;
    EXPECT_EQ(s.t, t);
    ASSERT_EQ(s.v.size(), values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        EXPECT_EQ(s.v[i], values[i]) << i;
        EXPECT_EQ(std::signbit(s.v[i]), std::signbit(values[i])) << i;
    }
}

TEST(BoardFile, WritesNaNAndInfinityAsNull) {
    Board board;
    board.charts.push_back(smallChart());
    board.charts[0].runs[0].points = series({1, 2, 3}, {kNaN, kInf, -kInf});
    const std::string text = writeBoard(board);
    EXPECT_NE(
        text.find(R"("data":[{"timestamp":1,"value":null,"step":0},{"timestamp":2,"value":null,"step":0},)"
                  R"({"timestamp":3,"value":null,"step":0}])"),
        std::string::npos)
        << text;
    EXPECT_TRUE(nlohmann::json::accept(text));
    std::vector<BoardProblem> problems;
    const Board back = parse(text, problems);
    const Series& s = back.charts.at(0).runs.at(0).points;
    EXPECT_TRUE(problems.empty());
    ASSERT_EQ(s.size(), 3u);
    EXPECT_TRUE(std::isnan(s.v[0]) && std::isnan(s.v[1]) && std::isnan(s.v[2]));
}

TEST(BoardFile, ReadsAByteOrderMark) {
    std::vector<BoardProblem> problems;
    EXPECT_EQ(parse("\xEF\xBB\xBF" + std::string(kRadtBoard), problems), parse(kRadtBoard, problems));
    EXPECT_TRUE(problems.empty());
}

TEST(BoardFile, WritesValidJsonFromInvalidUtf8) {
    Board board;
    board.charts.push_back(smallChart());
    board.charts[0].metric = "GPU \xff\xfe W";
    board.charts[0].runs[0].letter = "0_\xc3";
    board.charts[0].extra["note\xff"] = "x";
    const std::string text = writeBoard(board);
    EXPECT_TRUE(nlohmann::json::accept(text)) << text;
    std::vector<BoardProblem> problems;
    EXPECT_EQ(parse(text, problems).charts.at(0).metric, "GPU \uFFFD\uFFFD W");
}

TEST(BoardFile, RefusesWhatIsNotJson) {
    EXPECT_EQ(parseError("[{\"id\": 1, \"metric\": abc}]"),
              "board.json: not valid JSON at byte 22: parse error at line 1, column 22: syntax error while "
              "parsing value - invalid literal; last read: '\"metric\": a'");
    EXPECT_EQ(
        parseError("id,metric\n1,loss\n"),
        "board.json: not valid JSON at byte 1: parse error at line 1, column 1: syntax error while parsing "
        "value - invalid literal; last read: 'i'");
    EXPECT_EQ(parseError("[1e400]").rfind("board.json: not valid JSON at byte 6: ", 0), 0u);
    EXPECT_NE(parseError("[1e400]").find("number overflow"), std::string::npos);
    EXPECT_EQ(parseError("[] trailing"),
              "board.json: not valid JSON at byte 6: parse error at line 1, column 6: syntax error while "
              "parsing value - invalid literal; last read: '[] tra'; expected end of input");
}

TEST(BoardFile, RefusesATruncatedFile) {
    const std::string text = kRadtBoard;
    const std::string cut = text.substr(0, text.find("\"metric\""));
    EXPECT_EQ(parseError(cut),
              "board.json: not valid JSON at byte " + std::to_string(cut.size()) +
                  ": parse error at line 17, column 3: syntax error while parsing object key - "
                  "unexpected end of input; expected string literal (the file ends early: "
                  "truncated?)");
    const std::string error = parseError(text.substr(0, text.size() / 2)); // inside a string
    EXPECT_EQ(error.rfind("board.json: not valid JSON at byte ", 0), 0u) << error;
    EXPECT_NE(error.find("missing closing quote"), std::string::npos) << error;
    EXPECT_NE(error.find("(the file ends early: truncated?)"), std::string::npos) << error;
}

TEST(BoardFile, RefusesAnEmptyFile) {
    EXPECT_EQ(parseError(""),
              "board.json: the file is empty; expected a radT board (a JSON array of charts)");
    EXPECT_EQ(parseError(" \n\t\r\n"),
              "board.json: the file is empty; expected a radT board (a JSON array of charts)");
}

TEST(BoardFile, RefusesWhatIsNotAnArray) {
    EXPECT_EQ(parseError(R"({"id":1,"metric":"loss","data":[]})"),
              "board.json: expected a radT board (a JSON array of charts), got an object");
    EXPECT_EQ(parseError("\"board\""),
              "board.json: expected a radT board (a JSON array of charts), got \"board\"");
    EXPECT_EQ(parseError("42"), "board.json: expected a radT board (a JSON array of charts), got 42");
}

TEST(BoardFile, RefusesABoardWithoutCharts) {
    EXPECT_EQ(parseError(" [ ] "), "board.json: the board holds no charts (an empty JSON array)");
}

TEST(BoardFile, RefusesABoardWithoutAUsableChart) {
    EXPECT_EQ(parseError(R"([5, {"metric":"loss"}, {"data":[]}, {"metric":"x","data":{}}])"),
              "board.json: no usable chart in the board: chart 1: expected a chart object, got 5; chart "
              "skipped; chart 2 (\"loss\"): no \"data\"; chart skipped; chart 3: no \"metric\"; chart "
              "skipped; ...");
}

TEST(BoardFile, SkipsAChartWithoutMetricOrData) {
    std::vector<BoardProblem> problems;
    const Board board = parse(R"([{"id":1,"data":[]},
        {"id":2,"metric":"SMI - GPU Util","data":"none"},
        {"id":3,"metric":7,"data":[]},
        {"id":4,"metric":"SMI - Power Draw","data":[{"name":"r1","data":[{"timestamp":1,"value":2,"step":0}]}]}])",
                              problems);
    ASSERT_EQ(board.charts.size(), 1u);
    EXPECT_EQ(board.charts[0].id, 4);
    EXPECT_EQ(
        messages(problems),
        (std::vector<std::string>{
            "board.json: chart 1: no \"metric\"; chart skipped",
            "board.json: chart 2 (\"SMI - GPU Util\"): data: expected an array of runs, got \"none\"; chart "
            "skipped",
            "board.json: chart 3: metric: expected a string, got 7; chart skipped",
        }));
    EXPECT_EQ(problems[0].chart, 0);
    EXPECT_EQ(problems[2].chart, 2);
}

TEST(BoardFile, KeepsARunWithBadFields) {
    std::vector<BoardProblem> problems;
    const Board board = parse(oneRun(R"({"name":"3f2a1c0e","experimentId":"abc","experimentName":["x"],
        "letter":true,"workload":12,"startTime":{},"duration":"5 min","status":null,"model":"train.py",
        "data":[{"timestamp":1,"value":2,"step":0}]}, 17, null)"),
                              problems);
    ASSERT_EQ(board.charts.at(0).runs.size(), 1u);
    const BoardRun& run = board.charts[0].runs[0];
    EXPECT_EQ(run.uuid, "3f2a1c0e");
    EXPECT_EQ(run.experimentId, std::nullopt);
    EXPECT_EQ(run.experimentName, std::nullopt);
    EXPECT_EQ(run.letter, std::nullopt);
    EXPECT_EQ(run.workload, "12") << "a number where radT writes a string is read as its text";
    EXPECT_EQ(run.startTime, std::nullopt);
    EXPECT_EQ(run.duration, std::nullopt);
    EXPECT_EQ(run.model, "train.py");
    EXPECT_EQ(run.points.size(), 1u);
    const std::string c = "board.json: chart 1 (\"SMI - Power Draw\"): ";
    EXPECT_EQ(messages(problems),
              (std::vector<std::string>{
                  c + "data[0].experimentId: expected a number, got \"abc\"; null used",
                  c + "data[0].duration: expected a number, got \"5 min\"; null used",
                  c + "data[0].startTime: expected a number, got an object; null used",
                  c + "data[0].letter: expected a string, got true; null used",
                  c + "data[0].experimentName: expected a string, got an array; null used",
                  c + "data[1]: expected a run object, got 17; run skipped",
                  c + "data[2]: expected a run object, got null; run skipped",
              }));
}

TEST(BoardFile, DropsOnlyTheBadPoint) {
    std::string points;
    for (int i = 0; i < 12; ++i)
        points += std::string(i ? "," : "") + R"({"timestamp":)" + std::to_string(1000 * i) + R"(,"value":)" +
                  (i == 10 ? "\"abc\"" : std::to_string(i)) + R"(,"step":)" + std::to_string(i) + "}";
    std::string runs;
    for (int r = 0; r < 4; ++r)
        runs += std::string(r ? "," : "") + R"({"name":"run)" + std::to_string(r) + R"(","data":[)" +
                (r == 3 ? points : R"({"timestamp":1,"value":1,"step":0})") + "]}";
    std::vector<BoardProblem> problems;
    const Board board = parse(R"([{"id":1,"metric":"SMI - GPU Util","data":[{"name":"a","data":[]}]},)"
                              R"({"id":2,"data":[)" +
                                  runs + R"(],"metric":"SMI - Power Draw"}])",
                              problems);
    ASSERT_EQ(board.charts.size(), 2u);
    ASSERT_EQ(board.charts[1].runs.size(), 4u);
    const Series& s = board.charts[1].runs[3].points;
    EXPECT_EQ(s.size(), 11u);
    EXPECT_EQ(s.t.back(), 11000);
    EXPECT_EQ(s.v[9], 9);
    EXPECT_EQ(s.v[10], 11);
    EXPECT_EQ(s.step[10], 11);
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_EQ(problems[0].message,
              "board.json: chart 1 (\"SMI - GPU Util\"): data[0] (run a): no data points; "
              "shown as no data");
    EXPECT_EQ(problems[1].message,
              "board.json: chart 2 (\"SMI - Power Draw\"): data[3].data[10].value: expected a "
              "number, got \"abc\"; point dropped");
    EXPECT_EQ(problems[1].chart, 1);
}

TEST(BoardFile, HugeNumbersAreProblemsNotCrashes) {
    std::vector<BoardProblem> problems;
    const Board board = parse(R"([{"id":1e30,"metric":"SMI - Power Draw","data":[
        {"name":"big","experimentId":99999999999999999999,"startTime":18446744073709551615,
         "data":[{"timestamp":1e300,"value":1,"step":0},
                 {"timestamp":"99999999999999999999","value":2,"step":0},
                 {"timestamp":1700000000000,"value":1e300,"step":1e300},
                 {"timestamp":-9223372036854775808,"value":-1e-300,"step":0}]}]}])",
                              problems);
    ASSERT_EQ(board.charts.size(), 1u);
    EXPECT_EQ(board.charts[0].id, 1);
    const BoardRun& run = board.charts[0].runs.at(0);
    EXPECT_EQ(run.experimentId, std::nullopt);
    EXPECT_EQ(run.startTime, std::nullopt);
    EXPECT_EQ(run.points.t, (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 1700000000000}));
    EXPECT_EQ(run.points.v, (std::vector<double>{-1e-300, 1e300}));
    EXPECT_EQ(run.points.step, (std::vector<int64_t>{0, 0}));
    const std::string c = "board.json: chart 1 (\"SMI - Power Draw\"): ";
    EXPECT_EQ(
        messages(problems),
        (std::vector<std::string>{
            c + "data[0].experimentId: expected a number, got 1e+20 (out of range); null used",
            c + "data[0].startTime: expected a number, got 18446744073709551615 (out of range); null used",
            c + "data[0].data[0].timestamp: expected a number, got 1e+300 (out of range); point dropped",
            c + "data[0].data[1].timestamp: expected a number, got \"99999999999999999999\" (out of range); "
                "point dropped",
            c + "data[0].data[2].step: expected a number, got 1e+300 (out of range); 0 used",
            c + "id: expected a number, got 1e+30 (out of range); renumbered to 1",
        }));
}

TEST(BoardFile, ClampsSmoothingAndDefaultsBadContext) {
    auto chartWith = [](const std::string& context) {
        return R"([{"id":1,"metric":"m","data":[{"name":"r","data":[{"timestamp":1,"value":1}]}],"context":)" +
               context + "}]";
    };
    struct Case {
        std::string context;
        int smoothing;
        std::string problem; // "" for none
    };
    const std::string c = "board.json: chart 1 (\"m\"): ";
    for (const Case& k : std::vector<Case>{
             {R"({"smoothing":150})", 99, c + "context.smoothing: 150 is outside 0..99; 99 used"},
             {R"({"smoothing":-3})", 0, c + "context.smoothing: -3 is outside 0..99; 0 used"},
             {R"({"smoothing":"abc"})", 0,
              c + "context.smoothing: expected a number 0..99, got \"abc\"; 0 used"},
             {R"({"smoothing":42.4})", 42, ""},
             {R"({"smoothing":"99"})", 99, ""},
             {R"({"smoothing":null})", 0, ""},
             {R"("smooth")", 0, c + "context: expected an object, got \"smooth\"; defaults used"},
             {"null", 0, ""},
         }) {
        std::vector<BoardProblem> problems;
        const Board board = parse(chartWith(k.context), problems);
        EXPECT_EQ(board.charts.at(0).smoothing, k.smoothing) << k.context;
        EXPECT_EQ(messages(problems),
                  k.problem.empty() ? std::vector<std::string>{} : std::vector<std::string>{k.problem})
            << k.context;
    }

    std::vector<BoardProblem> problems;
    const Board board = parse(chartWith(R"({"shownRuns":["1-1",2,"1-2"],"hiddenSeries":"1-1",
                                            "range":{"min":"100","max":"abc"}})"),
                              problems);
    EXPECT_EQ(board.charts[0].shownRuns, (std::vector<std::string>{"1-1", "1-2"}));
    EXPECT_TRUE(board.charts[0].hiddenSeries.empty());
    EXPECT_EQ(board.charts[0].rangeMin, 0);
    EXPECT_EQ(board.charts[0].rangeMax, 0);
    EXPECT_EQ(messages(problems),
              (std::vector<std::string>{
                  c + "context.shownRuns[1]: expected a string, got 2; dropped",
                  c + "context.hiddenSeries: expected an array of strings, got \"1-1\"; empty used",
                  c + "context.range.max: expected a number, got \"abc\"; the whole range used",
              }));
}

// radT leaves "data" out of a run that has no samples of the chart's metric; the run stays (the
// chart shows it as "no data") and the problem list says so.
TEST(BoardFile, KeepsARunWithoutPoints) {
    std::vector<BoardProblem> problems;
    const Board board = parse(oneRun(R"({"name":"3f2a1c0e9b8d","letter":"0_A","workload":"1-1"},
        {"name":"9a8b7c6d5e4f","letter":"0_B","workload":"1-1","data":[]},
        {"name":"77aa","data":[{"timestamp":1,"value":"x"},{"value":1}]})"),
                              problems);
    ASSERT_EQ(board.charts.at(0).runs.size(), 3u);
    for (const BoardRun& run : board.charts[0].runs)
        EXPECT_TRUE(run.points.empty());
    const std::string c = "board.json: chart 1 (\"SMI - Power Draw\"): ";
    EXPECT_EQ(messages(problems),
              (std::vector<std::string>{
                  c + "data[0] (run 3f2a1 0_A): no data points; shown as no data",
                  c + "data[1] (run 9a8b7 0_B): no data points; shown as no data",
                  c + "data[2].data[0].value: expected a number, got \"x\"; point dropped",
                  c + "data[2].data[1]: no \"timestamp\"; point dropped",
                  c + "data[2] (run 77aa): none of its 2 points is usable; shown as no data",
              }));
}

// radT's API orders points by step, so timestamps within a step come in any order.
TEST(BoardFile, SortsPointsByTime) {
    std::vector<BoardProblem> problems;
    const Board board = parse(oneRun(R"({"name":"r","data":[
        {"timestamp":3000,"value":3,"step":0},{"timestamp":1000,"value":1,"step":0},
        {"timestamp":2000,"value":2,"step":0},{"timestamp":1000,"value":1.5,"step":1},
        {"timestamp":500,"value":null,"step":1}]})"),
                              problems);
    EXPECT_TRUE(problems.empty());
    const Series& s = board.charts.at(0).runs.at(0).points;
    EXPECT_EQ(s.t, (std::vector<int64_t>{500, 1000, 1000, 2000, 3000}));
    EXPECT_EQ(s.step, (std::vector<int64_t>{1, 0, 1, 0, 0}));
    EXPECT_TRUE(std::isnan(s.v[0]));
    EXPECT_EQ(std::vector<double>(s.v.begin() + 1, s.v.end()), (std::vector<double>{1, 1.5, 2, 3}));
}

TEST(BoardFile, RenumbersDuplicateIds) {
    std::vector<BoardProblem> problems;
    const Board board = parse(R"([
        {"id":5,"metric":"A","data":[{"name":"r","data":[{"timestamp":1,"value":1}]}]},
        {"id":5,"metric":"B","data":[{"name":"r","data":[{"timestamp":1,"value":1}]}]},
        {"metric":"C","data":[{"name":"r","data":[{"timestamp":1,"value":1}]}]},
        {"id":"3","metric":"D","data":[{"name":"r","data":[{"timestamp":1,"value":1}]}]},
        {"id":"x","metric":"E","data":[{"name":"r","data":[{"timestamp":1,"value":1}]}]}])",
                              problems);
    ASSERT_EQ(board.charts.size(), 5u);
    EXPECT_EQ(board.charts[0].id, 5);
    EXPECT_EQ(board.charts[1].id, 6);
    EXPECT_EQ(board.charts[2].id, 7) << "a chart without id gets one quietly, as radT's upload does";
    EXPECT_EQ(board.charts[3].id, 3);
    EXPECT_EQ(board.charts[4].id, 8);
    EXPECT_EQ(messages(problems),
              (std::vector<std::string>{
                  "board.json: chart 2 (\"B\"): id: 5 is also the id of chart 1; renumbered to 6",
                  "board.json: chart 5 (\"E\"): id: expected a number, got \"x\"; renumbered to 8",
              }));
}

TEST(BoardFile, SummarisesManyBadPoints) {
    std::string points;
    for (int i = 0; i < 100; ++i)
        points += std::string(i ? "," : "") + R"({"timestamp":true,"value":1})";
    std::vector<BoardProblem> problems;
    const Board board = parse(oneRun(R"({"name":"abcdef","data":[)" + points + "]}"), problems);
    EXPECT_TRUE(board.charts.at(0).runs.at(0).points.empty());
    const std::string c = "board.json: chart 1 (\"SMI - Power Draw\"): data[0]";
    ASSERT_EQ(problems.size(), 7u);
    EXPECT_EQ(problems[0].message, c + ".data[0].timestamp: expected a number, got true; point dropped");
    EXPECT_EQ(problems[4].message, c + ".data[4].timestamp: expected a number, got true; point dropped");
    EXPECT_EQ(problems[5].message, c + ".data: 95 more problems like these, not listed");
    EXPECT_EQ(problems[6].message, c + " (run abcde): none of its 100 points is usable; shown as no data");
}

TEST(BoardFile, ReportsPointsOfTheWrongShape) {
    std::vector<BoardProblem> problems;
    const Board board = parse(oneRun(R"({"name":"r","data":[5, [1,[2]], {"timestamp":{"a":[1]},"value":1},
        {"timestamp":1,"value":[1]}, {"timestamp":2,"value":3,"note":{"x":[1]},"step":2}], "data2":[]},
        {"name":"s","data":{"timestamp":1}})"),
                              problems);
    const Series& s = board.charts.at(0).runs.at(0).points;
    EXPECT_EQ(s.t, std::vector<int64_t>{2});
    EXPECT_EQ(s.step, std::vector<int64_t>{2});
    EXPECT_EQ(board.charts[0].runs[0].extra, nlohmann::json({{"data2", nlohmann::json::array()}}));
    const std::string c = "board.json: chart 1 (\"SMI - Power Draw\"): ";
    EXPECT_EQ(messages(problems),
              (std::vector<std::string>{
                  c + "data[0].data[0]: expected an object {timestamp, value, step}, got 5",
                  c + "data[0].data[1]: expected an object {timestamp, value, step}, got an array",
                  c + "data[0].data[2].timestamp: expected a number, got an object; point dropped",
                  c + "data[0].data[3].value: expected a number, got an array; point dropped",
                  c + "data[0].data: unknown point keys ignored: \"note\"",
                  c + "data[1].data: expected an array of points, got an object; no points read",
                  c + "data[1] (run s): no data points; shown as no data",
              }));
}

// A key from the file is quoted as its other strings are: a line break in it (found by
// fuzz_board_file) stays escaped, so one problem is one line, and a long key is cut.
TEST(BoardFile, AnUnknownKeyIsQuotedOnOneLine) {
    std::vector<BoardProblem> problems;
    parse(R"([{"id":1,"metric":"m","data":[],"context":{"range":{"mi\n":0,")" + std::string(100, 'k') +
              R"(":1}}}])",
          problems);
    for (const BoardProblem& p : problems)
        EXPECT_EQ(p.message.find('\n'), std::string::npos) << p.message;
    std::vector<std::string> unknown;
    for (const std::string& m : messages(problems))
        if (m.find("unknown key") != std::string::npos)
            unknown.push_back(m);
    ASSERT_EQ(unknown.size(), 2u);
    EXPECT_EQ(unknown[0], "board.json: chart 1 (\"m\"): context.range: unknown key \"" +
                              std::string(40, 'k') + "\"... ignored");
    EXPECT_EQ(unknown[1], "board.json: chart 1 (\"m\"): context.range: unknown key \"mi\\n\" ignored");
}

TEST(BoardFile, KeepsUnknownKeys) {
    std::vector<BoardProblem> problems;
    const Board board = parse(R"([{"id":1,"metric":"multi-axis","loading":false,
        "explorer":{"logY":true,"lineWidth":2.5,"data":[1,{"data":[2]}]}, "notes":[{"data":[{"timestamp":1}]}],
        "data":[{"name":"r","metric":"SMI - Power Draw","runName":"(1 0) train","data":[{"timestamp":1,"value":1}]}],
        "context":{"smoothing":0,"monochrome":true,"range":{"min":0,"max":0,"zoom":2}}}])",
                              problems);
    const BoardChart& chart = board.charts.at(0);
    // Only a run's "data" holds points; arrays under other keys stay JSON, whatever their shape.
    EXPECT_EQ(chart.extra, nlohmann::json::parse(R"({"loading":false, "notes":[{"data":[{"timestamp":1}]}],
        "explorer":{"logY":true,"lineWidth":2.5,"data":[1,{"data":[2]}]}})"));
    EXPECT_EQ(chart.contextExtra, nlohmann::json({{"monochrome", true}}));
    EXPECT_EQ(chart.runs.at(0).extra,
              nlohmann::json({{"metric", "SMI - Power Draw"}, {"runName", "(1 0) train"}}));
    EXPECT_EQ(messages(problems),
              std::vector<std::string>{
                  "board.json: chart 1 (\"multi-axis\"): context.range: unknown key \"zoom\" ignored"});
    const std::string text = writeBoard(board);
    EXPECT_NE(
        text.find(R"("experimentName":null,"metric":"SMI - Power Draw","runName":"(1 0) train","data":[)"),
        std::string::npos)
        << text;
    EXPECT_NE(
        text.find(R"("monochrome":true},"explorer":{"data":[1,{"data":[2]}],"lineWidth":2.5,"logY":true},)"
                  R"("loading":false,"notes":[{"data":[{"timestamp":1}]}]}])"),
        std::string::npos)
        << text;
}

TEST(BoardFileIo, SavesAndLoads) {
    TempDir dir;
    std::vector<BoardProblem> problems;
    const Board board = parse(kRadtBoard, problems);
    const std::string path = dir.file("board.json");
    saveBoardFile(path, board);
    EXPECT_EQ(readFile(path), writeBoard(board));
    const Board back = loadBoardFile(path, problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(back, board);
    // Nothing but the board is left in the directory, and it is readable by others.
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        names.push_back(entry.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"board.json"});
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
    // Saving again replaces the file and keeps its mode.
    ::chmod(path.c_str(), 0640);
    Board changed = board;
    changed.charts[0].smoothing = 80;
    saveBoardFile(path, changed);
    EXPECT_EQ(loadBoardFile(path, problems).charts.at(0).smoothing, 80);
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(BoardFileIo, SaveLeavesTheOldFileWhenItCannotWrite) {
    TempDir dir;
    const std::string sub = dir.file("boards");
    std::filesystem::create_directory(sub);
    const std::string path = sub + "/board.json";
    writeFile(path, "old content");
    ::chmod(sub.c_str(), 0555);
    Board board;
    board.charts.push_back(smallChart());
    // As root (CI) the save runs as nobody: permissions do not bind root.
    const std::string error = errorAsUnprivilegedUser(dir, [&] { saveBoardFile(path, board); });
    ::chmod(sub.c_str(), 0755);
    EXPECT_EQ(error.rfind("cannot save the board file " + path + ": cannot create a temporary file in " +
                              sub + ": Permission denied",
                          0),
              0u)
        << error;
    EXPECT_EQ(readFile(path), "old content");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(sub), std::filesystem::directory_iterator()),
              1);
}

TEST(BoardFileIo, SaveIntoAMissingDirectoryFails) {
    TempDir dir;
    const std::string path = dir.file("no/such/dir/board.json");
    Board board;
    board.charts.push_back(smallChart());
    EXPECT_EQ(errorOf([&] { saveBoardFile(path, board); }),
              "cannot save the board file " + path + ": cannot create a temporary file in " +
                  dir.file("no/such/dir") + ": No such file or directory");
    EXPECT_EQ(errorOf([&] { saveBoardFile(dir.path(), board); }),
              "cannot save the board file " + dir.path() + ": it is a directory");
}

TEST(BoardFileIo, LoadNamesTheFile) {
    TempDir dir;
    std::vector<BoardProblem> problems;
    const std::string missing = dir.file("missing.json");
    EXPECT_EQ(errorOf([&] { loadBoardFile(missing, problems); }),
              "cannot read the board file " + missing + ": No such file or directory");
    EXPECT_EQ(errorOf([&] { loadBoardFile(dir.path(), problems); }),
              "cannot read the board file " + dir.path() + ": Is a directory");
    const std::string bad = dir.file("insight.json");
    writeFile(bad, "[{\"id\":1,");
    EXPECT_EQ(
        errorOf([&] { loadBoardFile(bad, problems); }).rfind("insight.json: not valid JSON at byte ", 0), 0u);
    writeFile(bad, oneRun(R"({"name":"r"})"));
    loadBoardFile(bad, problems);
    EXPECT_EQ(messages(problems),
              std::vector<std::string>{"insight.json: chart 1 (\"SMI - Power Draw\"): data[0] "
                                       "(run r): no data points; shown as no data"});
}
