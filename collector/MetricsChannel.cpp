// SPDX-License-Identifier: MIT
#include "collector/MetricsChannel.h"

#include "core/base/TextFormat.h"

#include "core/store/MlflowLimits.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <poll.h>
#include <stdexcept>
#include <unistd.h>

namespace radt {

namespace {

constexpr size_t kMaxLine = 1 << 20;

std::optional<double> numberValue(const nlohmann::json& v) {
    if (v.is_number())
        return v.get<double>();
    // JSON has no NaN/Infinity; Python's json writes them as bare words, our module as strings.
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "NaN" || s == "nan")
            return std::numeric_limits<double>::quiet_NaN();
        if (s == "Infinity" || s == "inf")
            return std::numeric_limits<double>::infinity();
        if (s == "-Infinity" || s == "-inf")
            return -std::numeric_limits<double>::infinity();
    }
    return std::nullopt;
}

std::string textValue(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

/// The name in `field` (a metric's, param's or tag's), or unset with `error` saying what MLflow takes.
std::optional<std::string> channelKey(const nlohmann::json& j, const char* field, std::string& error) {
    const auto& k = j[field];
    if (!k.is_string() || k.get<std::string>().empty() || !mlflow::isValidKey(k.get<std::string>()) ||
        k.get<std::string>().size() > mlflow::kMaxKeyLength) {
        error = std::string("\"") + field +
                "\" must be a name of letters, digits and _ - . / : space (at most 250)";
        return std::nullopt;
    }
    return k.get<std::string>();
}

/// {"metric": ..., "value": ..., "step": ..., "timestamp": ...}
bool dispatchMetric(const nlohmann::json& j, const ChannelHandlers& handlers, int64_t nowMs,
                    std::string& error, int64_t clockOffsetMs) {
    auto key = channelKey(j, "metric", error);
    if (!key)
        return false;
    auto value = j.contains("value") ? numberValue(j["value"]) : std::nullopt;
    if (!value) {
        error = "metric '" + *key + "' needs a numeric \"value\"";
        return false;
    }
    int64_t step = 0, timestamp = nowMs;
    if (j.contains("step") && !j["step"].is_null()) {
        // 2^63 and above parse as unsigned and would wrap to a negative step.
        if (!j["step"].is_number_integer() ||
            (j["step"].is_number_unsigned() &&
             j["step"].get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))) {
            error = "metric '" + *key + "': \"step\" must be an integer from -2^63 to 2^63-1";
            return false;
        }
        step = j["step"].get<int64_t>();
    }
    if (j.contains("timestamp") && !j["timestamp"].is_null()) {
        if (!j["timestamp"].is_number_integer() || j["timestamp"].get<int64_t>() <= 0 ||
            (j["timestamp"].is_number_unsigned() &&
             j["timestamp"].get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))) {
            error = "metric '" + *key + "': \"timestamp\" must be milliseconds since the epoch";
            return false;
        }
        timestamp = j["timestamp"].get<int64_t>() + clockOffsetMs;
    }
    if (handlers.metric)
        handlers.metric({*key, *value, timestamp, step});
    return true;
}

/// {"param": ..., "value": ...} or {"tag": ..., "value": ...}
bool dispatchParamOrTag(const nlohmann::json& j, const ChannelHandlers& handlers, std::string& error) {
    const bool isParam = j.contains("param");
    auto key = channelKey(j, isParam ? "param" : "tag", error);
    if (!key)
        return false;
    if (!j.contains("value") || j["value"].is_null()) {
        error = std::string(isParam ? "param" : "tag") + " '" + *key + "' needs a \"value\"";
        return false;
    }
    const std::string value = textValue(j["value"]);
    if (value.size() > (isParam ? mlflow::kMaxParamValueLength : mlflow::kMaxTagValueLength)) {
        error = std::string(isParam ? "param" : "tag") + " '" + *key + "' value is too long";
        return false;
    }
    const auto& handler = isParam ? handlers.param : handlers.tag;
    if (handler)
        handler(*key, value);
    return true;
}

} // namespace

bool dispatchChannelLine(const std::string& line, const ChannelHandlers& handlers, int64_t nowMs,
                         std::string& error, int64_t clockOffsetMs) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
        error = "not a JSON object";
        return false;
    }
    if (!j.is_object()) {
        error = "not a JSON object";
        return false;
    }
    if (j.contains("metric"))
        return dispatchMetric(j, handlers, nowMs, error, clockOffsetMs);
    if (j.contains("param") || j.contains("tag"))
        return dispatchParamOrTag(j, handlers, error);
    if (j.contains("artifact")) {
        if (!j["artifact"].is_string() || j["artifact"].get<std::string>().empty()) {
            error = "\"artifact\" must be a file path";
            return false;
        }
        if (handlers.artifact)
            handlers.artifact(j["artifact"].get<std::string>());
        return true;
    }
    if (j.contains("control")) {
        const auto& c = j["control"];
        if (!c.is_string() || (c != "start" && c != "stop")) {
            error = "\"control\" must be \"start\" or \"stop\"";
            return false;
        }
        if (handlers.control)
            handlers.control(c.get<std::string>());
        return true;
    }
    error = "expected one of \"metric\", \"param\", \"tag\", \"artifact\", \"control\"";
    return false;
}

MetricsChannel::MetricsChannel(ChannelHandlers handlers) : m_handlers(std::move(handlers)) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot create the metrics pipe: ") + std::strerror(errno));
    m_readFd = fds[0];
    m_writeFd = fds[1];
    if (::pipe2(m_wakeFds, O_CLOEXEC) != 0)
        m_wakeFds[0] = m_wakeFds[1] = -1;
}

MetricsChannel::~MetricsChannel() {
    finish(0);
    if (m_writeFd >= 0)
        ::close(m_writeFd);
}

void MetricsChannel::start() {
    if (m_writeFd >= 0) {
        ::close(m_writeFd); // the child has its copy: EOF comes when it (and its children) close it
        m_writeFd = -1;
    }
    m_reader = std::thread([this] { readLoop(); });
}

void MetricsChannel::finish(int timeoutMs) {
    if (m_reader.joinable()) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (!m_eof && std::chrono::steady_clock::now() < deadline)
            ::usleep(10000);
        m_stop = true; // a detached grandchild may hold the write end forever
        if (m_wakeFds[1] >= 0)
            (void)!::write(m_wakeFds[1], "x", 1);
        m_reader.join();
    }
    for (int& fd : m_wakeFds)
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    if (m_readFd >= 0) {
        ::close(m_readFd);
        m_readFd = -1;
    }
}

std::string MetricsChannel::firstError() const {
    std::lock_guard<std::mutex> lock(m_errorMutex);
    return m_firstError;
}

void MetricsChannel::readLoop() {
    std::string partial;
    bool discarding = false; // inside an over-long line: drop until its newline
    char buf[65536];
    // Sleeps in poll until a line or the wake pipe arrives: no periodic wake-ups.
    pollfd pfd[2] = {{m_readFd, POLLIN, 0}, {m_wakeFds[0], POLLIN, 0}};
    const bool canWake = m_wakeFds[0] >= 0;
    while (!m_stop) {
        const int ready = ::poll(pfd, canWake ? 2 : 1, canWake ? -1 : 100);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0 || !(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        const ssize_t n = ::read(m_readFd, buf, sizeof buf);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            break;
        }
        size_t start = 0;
        for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
            if (buf[i] != '\n')
                continue;
            if (!discarding) {
                partial.append(buf + start, i - start);
                handleLine(partial);
            }
            partial.clear();
            discarding = false;
            start = i + 1;
        }
        if (!discarding)
            partial.append(buf + start, static_cast<size_t>(n) - start);
        if (partial.size() > kMaxLine) {
            handleLine(partial.substr(0, 80), true); // counted as malformed, once
            partial.clear();
            discarding = true;
        }
    }
    if (!partial.empty() && !discarding)
        handleLine(partial);
    m_eof = true;
}

void MetricsChannel::handleLine(const std::string& line, bool overlong) {
    const size_t number = ++m_lines;
    std::string error = "line longer than 1 MiB";
    if (!overlong) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            return; // blank lines are harmless
        // The workload stamps its metrics with the wall clock (time.time()); radt stamps its samples
        // with the recording clock. Moved onto radt's clock as they arrive, both stay in step when
        // the wall clock is set during the run.
        if (dispatchChannelLine(line, m_handlers, recordingClockMs(), error, recordingClockMs() - nowMs()))
            return;
    }
    if (m_malformed++ == 0) {
        std::lock_guard<std::mutex> lock(m_errorMutex);
        m_firstError =
            "line " + std::to_string(number) + ": " + error + " ('" + printableExcerpt(line, 80) + "')";
    }
}

} // namespace radt
