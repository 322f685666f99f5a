// The listener registry and the /proc listener (top, ps, iostat, net, proc in one thread).

#include "Listener.h"

#include "ChildProcess.h"
#include "GpuListeners.h"
#include "ProcSampler.h"
#include "RaplReader.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace radt {

namespace {

const std::vector<std::string> kProcListeners = {"top", "ps", "iostat", "net", "proc", "rapl"};

bool isProcListener(const std::string& name) {
    return std::find(kProcListeners.begin(), kProcListeners.end(), name) != kProcListeners.end();
}

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
            m_context.emit(std::move(points));
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

const std::vector<std::string>& knownListeners() {
    static const std::vector<std::string> names = {"top",     "ps",  "iostat", "net",        "proc",
                                                   "rapl",    "smi", "dcgmi",  "tegrastats", "nsys",
                                                   "nsysraw", "ncu", "ncuraw"};
    return names;
}

bool isWorkloadListener(const std::string& name) {
    return name == "nsys" || name == "nsysraw" || name == "ncu" || name == "ncuraw";
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
    auto fromProc = [&](const char* name, const char* what, const std::string& file) {
        const bool ok = procOk && ::access((procRoot + "/" + file).c_str(), R_OK) == 0;
        return ListenerAvailability{name, ok, ok ? what : procRoot + "/" + file + " is not readable"};
    };
    auto fromTool = [](const char* name, const char* tool, const char* what) {
        const auto path = findExecutable(tool);
        return ListenerAvailability{name, bool(path),
                                    path ? std::string(what) + " (" + *path + ")"
                                         : std::string(tool) + " not found in PATH"};
    };
    return {
        fromProc("top", "system CPU %, memory and swap, from /proc", "meminfo"),
        fromProc("ps", "per-core CPU and memory of the run's threads, from /proc", "stat"),
        fromProc("iostat", "per-device disk tps and MB/s, from /proc/diskstats", "diskstats"),
        fromProc("net", "per-interface network MB/s, from /proc/net/dev", "net/dev"),
        fromProc("proc", "the run's process tree: CPU %, RSS, threads, from /proc", "stat"),
        [] {
            const std::string problem = raplProblem("/sys");
            return ListenerAvailability{
                "rapl", problem.empty(),
                problem.empty() ? "CPU package and DRAM power, from /sys/class/powercap" : problem};
        }(),
        fromTool("smi", "nvidia-smi", "GPU power, utilisation, memory, P-state"),
        fromTool("dcgmi", "dcgmi", "DCGM power, energy, SM/tensor/DRAM activity, PCIe/NVLink"),
        fromTool("tegrastats", "tegrastats", "Jetson CPU/GPU/EMC load, RAM, temperatures, power rails"),
        fromTool("nsys", "nsys", "Nsight Systems profile of the NVTX range 'profile' (experiment CSV)"),
        fromTool("nsysraw", "nsys", "Nsight Systems profile of the whole run (experiment CSV)"),
        fromTool("ncu", "ncu", "Nsight Compute profile of the NVTX range 'profile' (experiment CSV)"),
        fromTool("ncuraw", "ncu", "Nsight Compute profile of the whole run (experiment CSV)"),
    };
}

std::vector<std::unique_ptr<Listener>> makeListeners(const std::vector<std::string>& names) {
    std::vector<std::unique_ptr<Listener>> out;
    std::vector<std::string> procNames;
    ProcSamplerOptions options;
    options.top = options.ps = options.iostat = options.net = options.proc = false;
    for (const std::string& n : names) {
        if (!isProcListener(n))
            continue;
        procNames.push_back(n);
        options.top |= n == "top";
        options.ps |= n == "ps";
        options.iostat |= n == "iostat";
        options.net |= n == "net";
        options.proc |= n == "proc";
        options.rapl |= n == "rapl";
    }
    if (!procNames.empty())
        out.push_back(std::make_unique<ProcListener>(procNames, options));
    for (const std::string& n : names) {
        if (n == "smi")
            out.push_back(makeSmiListener());
        else if (n == "dcgmi")
            out.push_back(makeDcgmiListener());
        else if (n == "tegrastats")
            out.push_back(makeTegrastatsListener());
    }
    return out;
}

} // namespace radt
