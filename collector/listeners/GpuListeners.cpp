// SPDX-License-Identifier: MIT
#include "collector/listeners/GpuListeners.h"

#include "core/base/TextFormat.h"

#include "collector/listeners/ChildProcess.h"
#include "collector/listeners/GpuParsers.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace radt {

namespace {

std::string joinInts(const std::vector<int>& values, const char* sep) {
    std::string out;
    for (size_t i = 0; i < values.size(); ++i)
        out += (i ? sep : "") + std::to_string(values[i]);
    return out;
}

/// A tool whose stdout (and stderr) lines go to onLine() on the pump thread; a watcher thread
/// notices when the tool ends on its own and asks the subclass what to do.
class StreamedToolListener : public Listener {
public:
    ~StreamedToolListener() override { stop(); }

    bool start(const ListenerContext& context) override {
        m_context = context;
        if (!findExecutable(tool())) {
            context.message("listener '" + name() + "': " + tool() +
                            " not found in PATH; the run continues without it");
            return false;
        }
        if (!prepare())
            return false;
        if (!launch())
            return false;
        m_watcher = std::thread([this] { watch(); });
        return true;
    }

    void stop() override {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_stopped)
                return;
            m_stopped = m_stopping = true;
        }
        m_wake.notify_all();
        if (m_watcher.joinable())
            m_watcher.join();
        // Ended on its own before the watcher looked (it looks twice a second): a tool that
        // refused at once (nvidia-smi -i 7: "No devices were found") in a short run is still said.
        // A tool that has printed no row yet gets up to 3 s to print one or to end: a run
        // without a single GPU sample must say why. (nvidia-smi's NVML start alone can take a
        // second or two on a node of 8 GPUs without persistence mode, or on a loaded machine; one
        // second missed the refusal of a short run when the machine was busy.)
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        while (m_child && !m_exitReported && m_rows == 0 && !m_child->poll() &&
               std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (m_child && !m_exitReported)
            if (const auto status = m_child->poll()) {
                m_child->finishOutput(1000);
                reportExit(status->code);
            }
        if (m_child) {
            m_child->terminate(1000);
            m_child->finishOutput(1000);
            m_child.reset();
        }
        cleanUp();
    }

    std::string summary() const override {
        std::string s = name() + ": " + std::to_string(m_rows.load()) + " rows";
        if (m_skipped)
            s += ", " + std::to_string(m_skipped.load()) + " lines skipped (first: '" + firstSkipped() + "')";
        return s;
    }

protected:
    virtual std::string tool() const = 0;
    virtual std::vector<std::string> arguments() = 0;
    /// Before the tool starts (e.g. create a DCGM group); false after a message to give up.
    virtual bool prepare() { return true; }
    virtual void cleanUp() {}
    enum class LineKind { Data, Other, Garbage };
    /// Parses one line; returns its points (empty for header or unparsable lines).
    virtual std::vector<MetricPoint> parse(const std::string& line, LineKind& kind) = 0;
    /// The tool ended by itself; true when the subclass relaunched it (with other arguments).
    virtual bool retryAfterExit() { return false; }

    bool launch() {
        ChildOptions options;
        options.onStdoutLine = [this](const std::string& line) { onLine(line); };
        options.onStderrLine = [this](const std::string& line) { onLine(line); };
        try {
            m_child =
                std::make_unique<ChildProcess>(arguments(), std::map<std::string, std::string>{}, options);
        } catch (const LaunchError& e) {
            m_context.message("listener '" + name() + "': " + e.what() + "; the run continues without it");
            return false;
        }
        return true;
    }

    void onLine(const std::string& line) {
        LineKind kind = LineKind::Garbage;
        std::vector<MetricPoint> points = parse(line, kind);
        if (kind == LineKind::Data)
            ++m_rows;
        else if (kind == LineKind::Garbage && line.find_first_not_of(" \t") != std::string::npos) {
            std::lock_guard<std::mutex> lock(m_textMutex);
            if (m_skipped++ == 0)
                m_firstSkipped = printableExcerpt(line, 200); // a tool's binary garbage is not for a terminal
        }
        if (!points.empty())
            m_context.publish(std::move(points));
    }

    std::string firstSkipped() const {
        std::lock_guard<std::mutex> lock(m_textMutex);
        return m_firstSkipped;
    }

    ListenerContext m_context;
    std::unique_ptr<ChildProcess> m_child;
    std::atomic<size_t> m_rows{0};
    std::atomic<size_t> m_skipped{0};

private:
    void watch() {
        std::unique_lock<std::mutex> lock(m_mutex);
        while (!m_stopping) {
            m_wake.wait_for(lock, std::chrono::milliseconds(500), [this] { return m_stopping; });
            if (m_stopping || !m_child)
                break;
            auto status = m_child->poll();
            if (!status)
                continue;
            m_child->finishOutput(1000);
            lock.unlock();
            const bool relaunched = retryAfterExit();
            lock.lock();
            if (relaunched)
                continue;
            reportExit(status->code);
            break;
        }
    }

    void reportExit(int code) {
        m_exitReported = true;
        const std::string why = firstSkipped();
        m_context.message("listener '" + name() + "': " + tool() + " exited with code " +
                          std::to_string(code) + (why.empty() ? "" : ": " + why) +
                          "; the run continues without it");
    }

    mutable std::mutex m_textMutex;
    std::string m_firstSkipped;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    bool m_stopped = false;
    bool m_exitReported = false; // by the watcher, or by stop() when the watcher had not looked yet
    std::thread m_watcher;
};

/// Plain radT keys for the run's first GPU (entity); the others get " - <entity>" so that
/// several GPUs never share a series.
std::string entityKey(const std::string& key, const std::string& entity, const std::string& primary) {
    return entity == primary ? key : key + " - " + entity;
}

/// A row of one GPU as points: plain keys for the run's first GPU, " - GPU <i>" for the others.
std::vector<MetricPoint> pointsOfGpu(const std::vector<NamedValue>& values, int gpuIndex,
                                     const ListenerContext& context) {
    const int primary = context.gpus.empty() ? 0 : context.gpus.front();
    const int64_t now = recordingClockMs();
    std::vector<MetricPoint> out;
    out.reserve(values.size());
    for (const NamedValue& v : values)
        out.push_back(
            {gpuIndex == primary ? v.key : v.key + " - GPU " + std::to_string(gpuIndex), v.value, now, 0});
    return out;
}

class SmiListener : public StreamedToolListener {
public:
    ~SmiListener() override { stop(); } // before the members parse() uses are gone
    std::string name() const override { return "smi"; }

protected:
    std::string tool() const override { return "nvidia-smi"; }
    std::vector<std::string> arguments() override {
        std::vector<int> gpus = m_context.gpus.empty() ? std::vector<int>{0} : m_context.gpus;
        return {"nvidia-smi",
                std::string("--query-gpu=") + kSmiQueryFields,
                "--format=csv,noheader,nounits",
                "-lms",
                std::to_string(std::max(100, m_context.intervalMs)),
                "-i",
                joinInts(gpus, ",")};
    }
    std::vector<MetricPoint> parse(const std::string& line, LineKind& kind) override {
        auto row = parseSmiLine(line);
        if (!row)
            return {};
        kind = LineKind::Data;
        return pointsOfGpu(row->values, row->gpuIndex, m_context);
    }
};

/// nvidia-smi dmon: PCIe throughput and throttle violations beside power, temperatures, clocks and
/// utilisation, from the driver alone (no DCGM). One row per GPU per second at most.
class SmiDmonListener : public StreamedToolListener {
public:
    ~SmiDmonListener() override { stop(); } // before the members parse() uses are gone
    std::string name() const override { return "dmon"; }

protected:
    std::string tool() const override { return "nvidia-smi"; }
    bool prepare() override {
        if (m_context.intervalMs < 1000)
            m_context.message("listener 'dmon': nvidia-smi dmon samples once a second at most; "
                              "it records at 1 s while the others keep " +
                              std::to_string(m_context.intervalMs) + " ms");
        return true;
    }
    std::vector<std::string> arguments() override {
        std::vector<int> gpus = m_context.gpus.empty() ? std::vector<int>{0} : m_context.gpus;
        return {"nvidia-smi", "dmon",
                "-s",         kSmiDmonGroups,
                "-d",         std::to_string(std::max(1, (m_context.intervalMs + 999) / 1000)),
                "-i",         joinInts(gpus, ",")};
    }
    std::vector<MetricPoint> parse(const std::string& line, LineKind& kind) override {
        const size_t skippedBefore = m_parser.skippedLines();
        auto row = m_parser.feed(line);
        if (!row) {
            kind = m_parser.skippedLines() == skippedBefore ? LineKind::Other : LineKind::Garbage;
            return {};
        }
        kind = LineKind::Data;
        return pointsOfGpu(row->values, row->gpuIndex, m_context);
    }

private:
    SmiDmonParser m_parser;
};

class DcgmiListener : public StreamedToolListener {
public:
    ~DcgmiListener() override { stop(); } // before the members parse() uses are gone
    std::string name() const override { return "dcgmi"; }

protected:
    std::string tool() const override { return "dcgmi"; }

    bool prepare() override {
        std::vector<int> gpus = m_context.gpus.empty() ? std::vector<int>{0} : m_context.gpus;
        const std::string group = "radt-" + m_context.runUuid.substr(0, 12);
        auto out = captureOutput({"dcgmi", "group", "-c", group, "-a", joinInts(gpus, ",")}, 15000);
        if (out)
            m_group = parseDcgmiGroupId(*out);
        if (!m_group) {
            m_context.message("listener 'dcgmi': cannot create a DCGM group for GPU " + joinInts(gpus, ",") +
                              " (is nv-hostengine running?)" +
                              (out ? ": " + out->substr(0, 200) : std::string()) +
                              "; the run continues without it");
            return false;
        }
        return true;
    }

    void cleanUp() override {
        if (m_group)
            captureOutput({"dcgmi", "group", "-d", std::to_string(*m_group)}, 15000);
        m_group.reset();
    }

    std::vector<std::string> arguments() override {
        return {"dcgmi", "dmon",
                "-e",    joinInts(dcgmiFieldSets().at(m_fieldSet), ","),
                "-g",    std::to_string(*m_group),
                "-d",    std::to_string(std::max(100, m_context.intervalMs))};
    }

    std::vector<MetricPoint> parse(const std::string& line, LineKind& kind) override {
        std::vector<MetricPoint> out;
        const size_t skippedBefore = m_parser.skippedLines();
        auto row = m_parser.feed(line);
        if (!row) {
            // Header and unit lines are not problems; only what the parser itself skipped is.
            kind = m_parser.skippedLines() == skippedBefore ? LineKind::Other : LineKind::Garbage;
            return out;
        }
        kind = LineKind::Data;
        if (m_primary.empty())
            m_primary = row->entity;
        const int64_t now = recordingClockMs();
        for (const NamedValue& v : row->values)
            out.push_back({entityKey(v.key, row->entity, m_primary), v.value, now, 0});
        return out;
    }

    bool retryAfterExit() override {
        if (!m_parser.sawWatchError() || m_fieldSet + 1 >= dcgmiFieldSets().size())
            return false;
        ++m_fieldSet;
        m_context.message("listener 'dcgmi': this GPU refused some fields (Error setting watches); "
                          "continuing with fields " +
                          joinInts(dcgmiFieldSets()[m_fieldSet], ","));
        m_parser = DcgmiDmonParser();
        return launch();
    }

private:
    std::optional<int> m_group;
    size_t m_fieldSet = 0;
    DcgmiDmonParser m_parser;
    std::string m_primary;
};

class TegrastatsListener : public StreamedToolListener {
public:
    ~TegrastatsListener() override { stop(); } // before the members parse() uses are gone
    std::string name() const override { return "tegrastats"; }

protected:
    std::string tool() const override { return "tegrastats"; }
    std::vector<std::string> arguments() override {
        return {"tegrastats", "--interval", std::to_string(std::max(100, m_context.intervalMs))};
    }
    std::vector<MetricPoint> parse(const std::string& line, LineKind& kind) override {
        std::vector<MetricPoint> out;
        auto sample = parseTegrastatsLine(line);
        if (!sample)
            return out;
        kind = LineKind::Data;
        const int64_t now = recordingClockMs();
        for (const NamedValue& v : sample->values)
            out.push_back({v.key, v.value, now, 0});
        return out;
    }
};

} // namespace

const std::vector<ListenerSpec>& gpuListenerSpecs() {
    using S = ListenerSpec::Source;
    static const std::vector<ListenerSpec> all = {
        {"smi", S::Tool, "nvidia-smi", "GPU power, utilisation, memory, P-state", nullptr,
         []() -> std::unique_ptr<Listener> { return std::make_unique<SmiListener>(); }},
        {"dmon", S::Tool, "nvidia-smi",
         "GPU PCIe RX/TX, power/thermal throttling, clocks, temperatures (1 s)", nullptr,
         []() -> std::unique_ptr<Listener> { return std::make_unique<SmiDmonListener>(); }},
        {"dcgmi", S::Tool, "dcgmi", "DCGM power, energy, SM/tensor/DRAM activity, PCIe/NVLink", nullptr,
         []() -> std::unique_ptr<Listener> { return std::make_unique<DcgmiListener>(); }},
        {"tegrastats", S::Tool, "tegrastats", "Jetson CPU/GPU/EMC load, RAM, temperatures, power rails",
         nullptr, []() -> std::unique_ptr<Listener> { return std::make_unique<TegrastatsListener>(); }},
    };
    return all;
}

} // namespace radt
