// SPDX-License-Identifier: MIT
// The metrics channel (resources/DESIGN.md §7): the JSON-lines protocol, and a real pipe fed by a real child.

#include "TempDir.h"
#include "collector/MetricsChannel.h"
#include "collector/listeners/ChildProcess.h"

#include <gtest/gtest.h>

#include <cmath>
#include <mutex>

using namespace radt;

namespace {

struct Received {
    std::mutex m;
    std::vector<MetricPoint> metrics;
    std::vector<std::pair<std::string, std::string>> params, tags;
    std::vector<std::string> artifacts, controls;
};

ChannelHandlers handlersFor(Received& r) {
    ChannelHandlers h;
    h.metric = [&r](MetricPoint&& p) {
        std::lock_guard<std::mutex> lock(r.m);
        r.metrics.push_back(std::move(p));
    };
    h.param = [&r](const std::string& k, const std::string& v) { r.params.emplace_back(k, v); };
    h.tag = [&r](const std::string& k, const std::string& v) { r.tags.emplace_back(k, v); };
    h.artifact = [&r](const std::string& p) { r.artifacts.push_back(p); };
    h.control = [&r](const std::string& c) { r.controls.push_back(c); };
    return h;
}

bool dispatch(const std::string& line, Received& r, std::string* errorOut = nullptr) {
    std::string error;
    const bool ok = dispatchChannelLine(line, handlersFor(r), 1000, error);
    if (errorOut)
        *errorOut = error;
    return ok;
}

} // namespace

TEST(MetricsChannel, ParsesEachMessageKind) {
    Received r;
    ASSERT_TRUE(dispatch(R"({"metric": "loss", "value": 0.31, "step": 3})", r));
    ASSERT_TRUE(dispatch(R"({"metric":"val/acc","value":1,"step":4,"timestamp":1700000000123})", r));
    ASSERT_TRUE(dispatch(R"({"metric": "grad norm", "value": "NaN"})", r));
    ASSERT_TRUE(dispatch(R"({"metric": "x", "value": "-Infinity", "step": null})", r));
    ASSERT_TRUE(dispatch(R"({"param": "optimizer", "value": "adam"})", r));
    ASSERT_TRUE(dispatch(R"({"param": "layers", "value": 12})", r));
    ASSERT_TRUE(dispatch(R"({"tag": "phase", "value": "warmup"})", r));
    ASSERT_TRUE(dispatch(R"({"artifact": "/tmp/model.pt"})", r));
    ASSERT_TRUE(dispatch(R"({"control": "start"})", r));

    ASSERT_EQ(r.metrics.size(), 4u);
    EXPECT_EQ(r.metrics[0].key, "loss");
    EXPECT_DOUBLE_EQ(r.metrics[0].value, 0.31);
    EXPECT_EQ(r.metrics[0].step, 3);
    EXPECT_EQ(r.metrics[0].timestamp, 1000) << "no timestamp: the time it arrived";
    EXPECT_EQ(r.metrics[1].timestamp, 1700000000123);
    EXPECT_TRUE(std::isnan(r.metrics[2].value));
    EXPECT_EQ(r.metrics[2].step, 0);
    EXPECT_TRUE(std::isinf(r.metrics[3].value) && r.metrics[3].value < 0);
    EXPECT_EQ(r.params,
              (std::vector<std::pair<std::string, std::string>>{{"optimizer", "adam"}, {"layers", "12"}}));
    EXPECT_EQ(r.tags.at(0).second, "warmup");
    EXPECT_EQ(r.artifacts.at(0), "/tmp/model.pt");
    EXPECT_EQ(r.controls.at(0), "start");
}

TEST(MetricsChannel, RejectsMalformedLinesWithAReasonAndCallsNothing) {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"loss 0.3", "not a JSON object"},
        {"[1,2]", "not a JSON object"},
        {R"({"metric": "loss", "value": 0.3)", "not a JSON object"},
        {R"({"metric": "loss%", "value": 1})", "letters, digits"},
        {R"({"metric": "", "value": 1})", "letters, digits"},
        {R"({"metric": 5, "value": 1})", "letters, digits"},
        {R"({"metric": ")" + std::string(300, 'a') + R"(", "value": 1})", "at most 250"},
        {R"({"metric": "loss"})", "numeric \"value\""},
        {R"({"metric": "loss", "value": "high"})", "numeric \"value\""},
        {R"({"metric": "loss", "value": 1, "step": 1.5})", "integer"},
        {R"({"metric": "loss", "value": 1, "step": 9223372036854775808})", "from -2^63 to 2^63-1"},
        {R"({"metric": "loss", "value": 1, "step": 18446744073709551615})", "from -2^63 to 2^63-1"},
        {R"({"metric": "loss", "value": 1, "timestamp": 9223372036854775808})", "milliseconds"},
        {R"({"metric": "loss", "value": 1, "timestamp": -4})", "milliseconds"},
        {R"({"param": "lr"})", "needs a \"value\""},
        {R"({"param": "p", "value": ")" + std::string(7000, 'v') + R"("})", "too long"},
        {R"({"artifact": 3})", "file path"},
        {R"({"control": "pause"})", "\"start\" or \"stop\""},
        {R"({"hello": "world"})", "expected one of"},
    };
    for (const auto& [line, reason] : bad) {
        Received r;
        std::string error;
        EXPECT_FALSE(dispatch(line, r, &error)) << line;
        EXPECT_NE(error.find(reason), std::string::npos) << line << " -> " << error;
        EXPECT_TRUE(r.metrics.empty() && r.params.empty() && r.tags.empty() && r.artifacts.empty());
    }
}

TEST(MetricsChannel, ReadsARealChildThroughTheInheritedPipeAndCountsGarbage) {
    Received r;
    MetricsChannel channel(handlersFor(r));
    // A real workload: python writes good lines, garbage, an over-long line and a last line
    // without a newline, then exits (EOF ends the reader).
    const std::string script = R"PY(
import os
f = os.fdopen(int(os.environ["RADT_METRICS_FD"]), "w")
for i in range(100):
    f.write('{"metric": "loss", "value": %f, "step": %d}\n' % (1.0 / (i + 1), i))
f.write("garbage\n")
f.write("\n")
f.write('{"metric": "bad key!", "value": 1}\n')
f.write("x" * (3 << 20) + "\n")
f.write('{"param": "after", "value": "long line"}\n')
f.write('{"tag": "last", "value": "no newline"}')
)PY";
    ChildOptions options;
    options.inheritFds = {channel.childFd()};
    options.onStdoutLine = [](const std::string&) {};
    options.onStderrLine = [](const std::string& line) { ADD_FAILURE() << "python: " << line; };
    ChildProcess child({"python3", "-c", script}, {{"RADT_METRICS_FD", std::to_string(channel.childFd())}},
                       options);
    channel.start();
    std::optional<ExitStatus> status;
    while (!(status = child.poll()))
        usleep(10000);
    channel.finish(5000);
    EXPECT_TRUE(status->ok());
    ASSERT_EQ(r.metrics.size(), 100u);
    EXPECT_DOUBLE_EQ(r.metrics[99].value, 0.01);
    EXPECT_EQ(r.metrics[99].step, 99);
    EXPECT_EQ(channel.malformed(), 3u) << "garbage, bad key, over-long line; the blank line is harmless";
    EXPECT_NE(channel.firstError().find("line 101: not a JSON object ('garbage')"), std::string::npos)
        << channel.firstError();
    EXPECT_EQ(r.params.at(0).first, "after") << "an over-long line does not swallow the next one";
    ASSERT_EQ(r.tags.size(), 1u) << "a last line without newline still counts";
    EXPECT_EQ(r.tags[0].second, "no newline");
}

TEST(MetricsChannel, FinishReturnsWhenAGrandchildKeepsThePipeOpen) {
    Received r;
    MetricsChannel channel(handlersFor(r));
    ChildOptions options;
    options.inheritFds = {channel.childFd()};
    // The shell leaves a background sleep holding the write end after it exits.
    ChildProcess child({"sh", "-c",
                        "echo '{\"metric\":\"m\",\"value\":1}' >&" + std::to_string(channel.childFd()) +
                            "; sleep 30 & exit 0"},
                       {}, options);
    channel.start();
    while (!child.poll())
        usleep(10000);
    const auto start = std::chrono::steady_clock::now();
    channel.finish(300);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_EQ(r.metrics.size(), 1u);
    child.terminate(100); // the group, with the background sleep
}
