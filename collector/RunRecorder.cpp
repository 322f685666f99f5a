#include "RunRecorder.h"

#include "ProcSampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <pwd.h>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace radt {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isNumber(const std::string& s) {
    return !s.empty() && s.size() < 18 && std::all_of(s.begin(), s.end(), ::isdigit);
}

std::string userName() {
    if (const passwd* pw = getpwuid(getuid()))
        return pw->pw_name;
    const char* user = std::getenv("USER");
    return user ? user : "";
}

std::string join(const std::vector<std::string>& parts, size_t from, const char* sep) {
    std::string out;
    for (size_t i = from; i < parts.size(); ++i)
        out += (i > from ? sep : "") + parts[i];
    return out;
}

} // namespace

const std::vector<std::string>& knownListeners() {
    static const std::vector<std::string> names = {"top", "proc",       "smi",  "dcgmi",   "ps",  "iostat",
                                                   "net", "tegrastats", "nsys", "nsysraw", "ncu", "ncuraw"};
    return names;
}

bool listenerImplemented(const std::string& name) {
    return name == "top" || name == "proc";
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
                                            "' (known: " + join(known, 0, ", ") + ")");
            if (std::find(out.begin(), out.end(), name) == out.end())
                out.push_back(name);
        }
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> radtParams(const RunOptions& options,
                                                            const std::string& model,
                                                            const std::string& workload,
                                                            const std::string& letter) {
    const std::vector<std::string>& cmd = options.command;
    const size_t firstArg = 1;
    std::vector<std::pair<std::string, std::string>> params = {
        {"workload", workload}, {"letter", letter},
        {"model", model},       {"params", join(cmd, firstArg, " ")},
        {"max_epoch", "0"},     {"max_time", "0"},
        {"manual", "False"},    {"devices", options.devices},
        {"collocation", "-"},   {"listeners", options.listeners}};
    auto has = [&](const std::string& key) {
        return std::any_of(params.begin(), params.end(), [&](const auto& p) { return p.first == key; });
    };
    std::string data;
    // Each `--flag value` (or `--flag=value`, or a bare `--flag`) of the script becomes a param.
    for (size_t i = firstArg; i < cmd.size(); ++i) {
        const std::string& arg = cmd[i];
        if (arg.size() < 2 || arg[0] != '-' || isNumber(arg.substr(1)))
            continue;
        std::string key = arg.substr(arg.find_first_not_of('-'));
        std::string value = "True";
        if (auto eq = key.find('='); eq != std::string::npos) {
            value = key.substr(eq + 1);
            key.erase(eq);
        } else if (i + 1 < cmd.size() &&
                   (cmd[i + 1].empty() || cmd[i + 1][0] != '-' || isNumber(cmd[i + 1].substr(1)))) {
            value = cmd[++i];
        }
        if (key.empty() || has(key))
            continue; // radT's own names win; the raw string in `params` keeps the script's flag
        if (data.empty() && key.find("data") != std::string::npos)
            data = value;
        params.emplace_back(key, value);
    }
    if (!data.empty())
        params.emplace_back("data", data);
    return params;
}

RunRecorder::RunRecorder(Store& store, RunOptions options, std::function<void(const std::string&)> messages)
    : m_store(store), m_options(std::move(options)), m_messages(std::move(messages)) {}

int64_t RunRecorder::resolveExperiment() {
    if (isNumber(m_options.experiment)) {
        const int64_t id = std::stoll(m_options.experiment);
        for (const Experiment& e : m_store.experiments())
            if (e.id == id)
                return id;
        throw std::invalid_argument("experiment id " + m_options.experiment + " does not exist in " +
                                    m_store.displayUri() + "; pass a name (-e my-experiment) to create one");
    }
    return m_store.getOrCreateExperiment(m_options.experiment);
}

std::string RunRecorder::nextWorkload(int64_t experimentId) {
    long long next = 0;
    for (const Run& run : m_store.runs(experimentId)) {
        const std::string w = run.workload();
        if (isNumber(w))
            next = std::max(next, std::stoll(w) + 1);
    }
    return std::to_string(next);
}

bool RunRecorder::flush(std::vector<MetricPoint>& pending, const std::string& runUuid, bool& warned) {
    if (pending.empty())
        return true;
    try {
        m_store.logMetrics(runUuid, pending);
        pending.clear();
        if (warned)
            m_messages("store is writable again; queued samples written");
        warned = false;
        return true;
    } catch (const StoreError& e) {
        // Keep the samples and retry on the next tick: a locked or briefly unavailable store must
        // not lose data.
        if (!warned)
            m_messages(std::string("cannot write samples yet (will retry): ") + e.what());
        warned = true;
        return false;
    }
}

RunOutcome RunRecorder::record(const volatile std::sig_atomic_t& stopSignal) {
    if (m_options.command.empty())
        throw std::invalid_argument("no script or command to run");
    if (!(m_options.intervalSeconds >= 0.1 && m_options.intervalSeconds <= 3600))
        throw std::invalid_argument("--interval must be between 0.1 and 3600 seconds");
    const std::vector<std::string> listeners = parseListeners(m_options.listeners);

    // Resolve what to start before anything is written, so a typo creates no run.
    std::vector<std::string> argv = m_options.command;
    const std::string model = m_options.command[0];
    std::map<std::string, std::string> env;
    if (endsWith(model, ".py")) {
        if (!fs::is_regular_file(model))
            throw std::invalid_argument("script not found: " + model);
        const auto python = findExecutable("python3");
        if (!python)
            throw std::invalid_argument("python3 not found in PATH (needed to run " + model + ")");
        argv.insert(argv.begin(), *python);
        env["PYTHONUNBUFFERED"] = "1"; // stream the script's output live into the log
    } else if (!findExecutable(model)) {
        throw std::invalid_argument("cannot run '" + model + "': not found in PATH or not executable");
    }

    const int64_t experimentId = resolveExperiment();
    const std::string workload = m_options.workload.empty() ? nextWorkload(experimentId) : m_options.workload;
    const std::string letter = m_options.devices;
    for (const std::string& l : listeners)
        if (!listenerImplemented(l))
            m_messages("listener '" + l +
                       "' is not available in this build yet; the run continues without it");

    NewRun spec;
    spec.experimentId = experimentId;
    spec.name = "(" + workload + " " + letter + ") " + fs::path(model).filename().string();
    spec.userId = userName();
    spec.sourceName = model;
    RunOutcome outcome;
    outcome.run = m_store.createRun(spec);
    const std::string uuid = outcome.run.uuid;
    m_store.logParams(uuid, radtParams(m_options, model, workload, letter));

    std::string logPath;
    std::error_code ec;
    fs::create_directories(outcome.run.artifactUri, ec);
    if (ec)
        m_messages("cannot create the artifact directory " + outcome.run.artifactUri + ": " + ec.message() +
                   "; the output is not saved");
    else
        logPath = outcome.run.artifactUri + "/output.log";

    env["RADT_RUN_ID"] = uuid;
    env["RADT_EXPERIMENT_ID"] = std::to_string(experimentId);
    env["RADT_WORKLOAD"] = workload;
    env["RADT_LETTER"] = letter;
    env["MLFLOW_RUN_ID"] = uuid;
    env["MLFLOW_EXPERIMENT_ID"] = std::to_string(experimentId);
    if (!m_options.storeUri.empty())
        env["MLFLOW_TRACKING_URI"] = m_options.storeUri;
    std::string cuda = m_options.devices;
    std::replace(cuda.begin(), cuda.end(), '+', ',');
    env["CUDA_VISIBLE_DEVICES"] = cuda;

    std::unique_ptr<ChildProcess> child;
    try {
        child = std::make_unique<ChildProcess>(argv, env, logPath);
    } catch (const LaunchError& e) {
        m_store.setRunStatus(uuid, RunStatus::Failed, nowMs());
        throw;
    }
    m_messages("recording run " + uuid + " '" + spec.name + "' (experiment " + std::to_string(experimentId) +
               ", workload " + workload + ") into " + m_store.displayUri());

    const bool wantTop = std::count(listeners.begin(), listeners.end(), "top") > 0;
    const bool wantProc = std::count(listeners.begin(), listeners.end(), "proc") > 0;
    ProcSampler sampler(child->pid(), wantTop, wantProc);
    std::vector<MetricPoint> pending;
    bool warned = false;
    const auto interval = std::chrono::microseconds(static_cast<int64_t>(m_options.intervalSeconds * 1e6));
    auto next = std::chrono::steady_clock::now();
    bool stopped = false;
    while (true) {
        if (auto exit = child->poll()) {
            outcome.exit = *exit;
            break;
        }
        if (stopSignal) {
            m_messages("stopping the workload (SIGTERM to its process group)");
            outcome.exit = child->terminate(m_options.graceMs);
            stopped = true;
            break;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now >= next) {
            const size_t before = pending.size();
            sampler.sample(nowMs(), pending);
            outcome.samples += pending.size() - before;
            flush(pending, uuid, warned);
            next += interval;
            if (next < now) // we fell behind (suspended machine): skip the missed ticks
                next = now + interval;
        }
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
            std::chrono::milliseconds(50), next - std::chrono::steady_clock::now()));
    }
    child->finishOutput(2000);

    outcome.status =
        stopped ? RunStatus::Killed : (outcome.exit.ok() ? RunStatus::Finished : RunStatus::Failed);
    // Retry the last batch for a while: the run must not end with samples silently dropped.
    for (int attempt = 0; attempt < 50 && !flush(pending, uuid, warned); ++attempt)
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    outcome.unwritten = pending.size();
    outcome.samples -= pending.size();
    m_store.setRunStatus(uuid, outcome.status, nowMs());
    outcome.run.status = outcome.status;
    return outcome;
}

} // namespace radt
