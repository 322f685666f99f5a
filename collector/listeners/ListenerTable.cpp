// SPDX-License-Identifier: MIT
// The listener registry and the /proc listener (top, ps, iostat, net, proc in one thread).

#include "collector/listeners/ListenerTable.h"

#include "collector/listeners/ChildProcess.h"
#include "collector/listeners/GpuListeners.h"
#include "collector/listeners/ProcSampler.h"
#include "collector/listeners/RaplReader.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace radt {

namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i)
        out += (i ? sep : "") + parts[i];
    return out;
}

/// Samples /proc every interval on its own thread, so a slow store never delays a sample.
class ProcListener : public Listener {
public:
    ProcListener(std::vector<std::string> names, ProcSamplerOptions options)
        : m_names(std::move(names)), m_options(std::move(options)) {}
    ~ProcListener() override { stop(); }

    std::string name() const override { return join(m_names, "+"); }

    bool start(const ListenerContext& context) override {
        if (::access((m_options.procRoot + "/stat").c_str(), R_OK) != 0) {
            context.message("listeners " + name() + ": " + m_options.procRoot +
                            " is not readable; the run continues without them");
            return false;
        }
        if (m_options.rapl) {
            // Said once, like a missing GPU tool; the other /proc listeners go on.
            if (const std::string problem = raplProblem(m_options.sysRoot); !problem.empty()) {
                context.message("listener 'rapl': " + problem + "; the run continues without it");
                m_options.rapl = false;
                m_names.erase(std::remove(m_names.begin(), m_names.end(), "rapl"), m_names.end());
                if (m_names.empty())
                    return false;
            }
        }
        m_context = context;
        m_thread = std::thread([this] { loop(); });
        return true;
    }

    void stop() override {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_all();
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    void loop() {
        ProcSampler sampler(m_context.rootPid, m_options);
        const auto interval = std::chrono::milliseconds(m_context.intervalMs);
        auto next = std::chrono::steady_clock::now();
        std::unique_lock<std::mutex> lock(m_mutex);
        while (!m_stopping) {
            lock.unlock();
            std::vector<MetricPoint> points;
            sampler.sample(recordingClockMs(), points);
            m_context.publish(std::move(points));
            lock.lock();
            next += interval;
            const auto now = std::chrono::steady_clock::now();
            if (next < now) // fell behind (suspended machine): skip the missed ticks
                next = now + interval;
            m_wake.wait_until(lock, next, [this] { return m_stopping; });
        }
    }

    std::vector<std::string> m_names;
    ProcSamplerOptions m_options;
    ListenerContext m_context;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace

const std::vector<ListenerSpec>& listenerSpecs() {
    using S = ListenerSpec::Source;
    using O = ProcSamplerOptions;
    static const std::vector<ListenerSpec> all = [] {
        std::vector<ListenerSpec> rows = {
            {"top", S::Proc, "meminfo", "system CPU %, memory and swap, from /proc", &O::top},
            {"ps", S::Proc, "stat", "per-core CPU and memory of the run's threads, from /proc", &O::ps},
            {"iostat", S::Proc, "diskstats", "per-device disk tps and MB/s, from /proc/diskstats",
             &O::iostat},
            {"net", S::Proc, "net/dev", "per-interface network MB/s, from /proc/net/dev", &O::net},
            {"proc", S::Proc, "stat", "the run's process tree: CPU %, RSS, threads, from /proc", &O::proc},
            {"rapl", S::Proc, "stat", "CPU package and DRAM power, from /sys/class/powercap", &O::rapl,
             nullptr, [] { return raplProblem("/sys"); }},
        };
        // The GPU tools' rows live beside their listeners (GpuListeners.cpp).
        const std::vector<ListenerSpec>& gpu = gpuListenerSpecs();
        rows.insert(rows.end(), gpu.begin(), gpu.end());
        rows.insert(
            rows.end(),
            {
                {"nsys", S::Workload, "nsys",
                 "Nsight Systems profile of the NVTX range 'profile' (experiment CSV)"},
                {"nsysraw", S::Workload, "nsys", "Nsight Systems profile of the whole run (experiment CSV)"},
                {"ncu", S::Workload, "ncu",
                 "Nsight Compute profile of the NVTX range 'profile' (experiment CSV)"},
                {"ncuraw", S::Workload, "ncu", "Nsight Compute profile of the whole run (experiment CSV)"},
            });
        return rows;
    }();
    return all;
}

std::string listenerUsage() {
    std::string proc, tools, workload;
    for (const ListenerSpec& l : listenerSpecs()) {
        std::string& list = l.source == ListenerSpec::Source::Proc   ? proc
                            : l.source == ListenerSpec::Source::Tool ? tools
                                                                     : workload;
        list += (list.empty() ? "" : ", ") + std::string(l.name);
        if (l.source == ListenerSpec::Source::Tool && std::string(l.name) != l.needs)
            list += std::string(" (") + l.needs + ")";
    }
    return "From /proc: " + proc + "; GPU tools: " + tools + "; experiment CSV: " + workload;
}

const std::vector<std::string>& knownListeners() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const ListenerSpec& l : listenerSpecs())
            out.emplace_back(l.name);
        return out;
    }();
    return names;
}

bool isWorkloadListener(const std::string& name) {
    for (const ListenerSpec& l : listenerSpecs())
        if (name == l.name)
            return l.source == ListenerSpec::Source::Workload;
    return false;
}

std::vector<std::string> parseListeners(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = text.find('+', start);
        const std::string name =
            text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!name.empty()) {
            const auto& known = knownListeners();
            if (std::find(known.begin(), known.end(), name) == known.end())
                throw std::invalid_argument("unknown listener '" + name + "' in '" + text +
                                            "' (known: " + join(known, ", ") + ")");
            if (std::find(out.begin(), out.end(), name) == out.end())
                out.push_back(name);
        }
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return out;
}

std::vector<ListenerAvailability> listenerAvailability(const std::string& procRoot) {
    const bool procOk = ::access((procRoot + "/stat").c_str(), R_OK) == 0;
    std::vector<ListenerAvailability> out;
    for (const ListenerSpec& l : listenerSpecs()) {
        ListenerAvailability a{l.name, true, l.records};
        if (l.source == ListenerSpec::Source::Proc) {
            const std::string file = procRoot + "/" + l.needs;
            if (!procOk || ::access(file.c_str(), R_OK) != 0)
                a = {l.name, false, file + " is not readable"};
        } else if (const auto path = findExecutable(l.needs)) {
            a.detail += " (" + *path + ")";
        } else {
            a = {l.name, false, std::string(l.needs) + " not found in PATH"};
        }
        if (a.available && l.problem)
            if (const std::string problem = l.problem(); !problem.empty())
                a = {l.name, false, problem};
        out.push_back(std::move(a));
    }
    return out;
}

std::vector<std::unique_ptr<Listener>> makeListeners(const std::vector<std::string>& names) {
    std::vector<std::unique_ptr<Listener>> out;
    std::vector<std::string> procNames;
    ProcSamplerOptions options;
    options.top = options.ps = options.iostat = options.net = options.proc = options.rapl = false;
    // The /proc listeners share one sampler (one thread, one pass over /proc per interval).
    for (const ListenerSpec& l : listenerSpecs())
        if (l.procSwitch && std::find(names.begin(), names.end(), l.name) != names.end()) {
            procNames.emplace_back(l.name);
            options.*l.procSwitch = true;
        }
    if (!procNames.empty())
        out.push_back(std::make_unique<ProcListener>(procNames, options));
    for (const std::string& n : names)
        for (const ListenerSpec& l : listenerSpecs())
            if (n == l.name && l.makeTool)
                out.push_back(l.makeTool());
    return out;
}

} // namespace radt
