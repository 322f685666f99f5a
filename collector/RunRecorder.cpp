#include "RunRecorder.h"

#include "EnvironmentCapture.h"
#include "Listener.h"
#include "MetricsChannel.h"
#include "RunReconciler.h"
#include "StoreWriter.h"
#include "TextFormat.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <sys/syscall.h>
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

std::vector<std::pair<std::string, std::string>> radtParams(const RunOptions& options,
                                                            const std::string& model,
                                                            const std::string& workload,
                                                            const std::string& letter) {
    const std::vector<std::string>& cmd = options.command;
    const size_t firstArg = 1;
    std::vector<std::pair<std::string, std::string>> params = {
        {"workload", workload}, {"letter", letter},
        {"model", model},       {"params", join(cmd, firstArg, " ")},
        {"max_epoch", std::to_string(options.maxEpoch)},
        {"max_time", std::to_string(static_cast<int64_t>(options.maxTimeMinutes * 60))},
        {"manual", options.manual ? "True" : "False"},
        {"devices", options.devices},
        {"collocation", options.collocation.empty() ? "-" : options.collocation},
        {"listeners", options.listeners}};
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

RunRecorder::RunRecorder(Store& store, RunOptions options, std::function<void(const std::string&)> messages,
                         SampleBus* bus)
    : m_store(store), m_options(std::move(options)), m_messages(std::move(messages)),
      m_bus(bus ? bus : &m_ownBus) {}

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

namespace {

std::vector<int> parseDevices(const std::string& devices) {
    std::vector<int> out;
    size_t start = 0;
    while (start < devices.size()) {
        size_t end = devices.find('+', start);
        if (end == std::string::npos)
            end = devices.size();
        const std::string part = devices.substr(start, end - start);
        if (isNumber(part))
            out.push_back(std::stoi(part));
        start = end + 1;
    }
    return out;
}

} // namespace

RunOutcome RunRecorder::record(const volatile std::sig_atomic_t& stopSignal) {
    if (m_options.command.empty())
        throw std::invalid_argument("no script or command to run");
    if (!(m_options.intervalSeconds >= 0.1 && m_options.intervalSeconds <= 3600))
        throw std::invalid_argument("--interval must be between 0.1 and 3600 seconds");
    if (m_options.maxEpoch < 0)
        throw std::invalid_argument("--epoch must be 0 (no limit) or more");
    if (!(m_options.maxTimeMinutes >= 0))
        throw std::invalid_argument("--time must be 0 (no limit) or more minutes");
    const std::vector<std::string> listenerNames = parseListeners(m_options.listeners);

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
    std::string letter = m_options.devices;
    if (!m_options.collocation.empty() && m_options.collocation != "-")
        letter += "_" + m_options.collocation;
    for (const std::string& l : listenerNames)
        if (isWorkloadListener(l))
            m_messages("listener '" + l + "' profiles experiment CSV workloads; a single run goes on without it");

    NewRun spec;
    spec.experimentId = experimentId;
    spec.name = "(" + workload + " " + letter + ") " + fs::path(model).filename().string();
    spec.userId = userName();
    spec.sourceName = model;
    RunOutcome outcome;
    outcome.run = m_store.createRun(spec);
    const std::string uuid = outcome.run.uuid;
    m_store.logParams(uuid, radtParams(m_options, model, workload, letter));
    std::vector<std::pair<std::string, std::string>> tags = hostTags();
    for (auto& t : collectorTags())
        tags.push_back(std::move(t));
    m_store.setTags(uuid, tags);

    const std::string artifactDir = outcome.run.artifactUri;
    std::string logPath;
    std::error_code ec;
    fs::create_directories(artifactDir, ec);
    if (ec)
        m_messages("cannot create the artifact directory " + artifactDir + ": " + ec.message() +
                   "; the output is not saved");
    else
        logPath = artifactDir + "/output.log";

    // From here on the writer thread is the only one that touches the store.
    StoreWriter writer(m_store, m_messages);
    const int subscription = m_bus->subscribe([&writer, uuid](const std::string& run, const std::vector<MetricPoint>& points) {
        if (run == uuid)
            writer.enqueue(run, points);
    });
    std::atomic<int> controlStart{0}, controlStop{0};
    int wakePipe[2] = {-1, -1}; // the channel's start/stop wakes the loop below
    if (::pipe2(wakePipe, O_CLOEXEC | O_NONBLOCK) != 0)
        wakePipe[0] = wakePipe[1] = -1;
    ChannelHandlers handlers;
    handlers.metric = [this, &uuid](MetricPoint&& p) { m_bus->publish(uuid, {std::move(p)}); };
    // Params and tags go through the writer, in order with the samples. A value MLflow refuses
    // (a param logged twice with another value) is reported, not retried.
    auto postWrite = [this, &writer, uuid](const char* what, auto write) {
        writer.post([this, uuid, what, write](Store& store) {
            try {
                write(store, uuid);
            } catch (const StoreError& e) {
                m_messages(std::string(what) + " from the workload not recorded: " + e.what());
            }
        });
    };
    handlers.param = [postWrite](const std::string& k, const std::string& v) {
        postWrite("param", [k, v](Store& store, const std::string& run) { store.logParams(run, {{k, v}}); });
    };
    handlers.tag = [postWrite](const std::string& k, const std::string& v) {
        postWrite("tag", [k, v](Store& store, const std::string& run) { store.setTags(run, {{k, v}}); });
    };
    handlers.artifact = [this, artifactDir](const std::string& path) {
        std::error_code error;
        fs::copy_file(path, fs::path(artifactDir) / fs::path(path).filename(),
                      fs::copy_options::overwrite_existing, error);
        if (error)
            m_messages("artifact '" + path + "' not stored: " + error.message());
    };
    handlers.control = [&](const std::string& c) {
        ++(c == "start" ? controlStart : controlStop);
        if (wakePipe[1] >= 0)
            (void)!::write(wakePipe[1], "x", 1);
    };
    MetricsChannel channel(handlers);

    env["RADT_RUN_ID"] = uuid;
    env["RADT_EXPERIMENT_ID"] = std::to_string(experimentId);
    env["RADT_WORKLOAD"] = workload;
    env["RADT_LETTER"] = letter;
    env["RADT_MAX_EPOCH"] = std::to_string(m_options.maxEpoch);
    env["RADT_MAX_TIME"] = std::to_string(static_cast<int64_t>(std::ceil(m_options.maxTimeMinutes * 60)));
    env["RADT_METRICS_FD"] = std::to_string(channel.childFd());
    env["MLFLOW_RUN_ID"] = uuid;
    env["MLFLOW_EXPERIMENT_ID"] = std::to_string(experimentId);
    if (!m_options.storeUri.empty())
        env["MLFLOW_TRACKING_URI"] = m_options.storeUri;
    if (!m_options.pythonDir.empty()) {
        const char* existing = std::getenv("PYTHONPATH");
        env["PYTHONPATH"] = m_options.pythonDir + (existing && *existing ? std::string(":") + existing : "");
    }
    std::string cuda = m_options.devices;
    std::replace(cuda.begin(), cuda.end(), '+', ',');
    env["CUDA_VISIBLE_DEVICES"] = cuda;

    std::unique_ptr<ChildProcess> child;
    try {
        child = std::make_unique<ChildProcess>(argv, env, ChildOptions{logPath, {}, {}, {channel.childFd()}});
    } catch (const LaunchError&) {
        m_bus->unsubscribe(subscription);
        writer.close();
        m_store.setRunStatus(uuid, RunStatus::Failed, nowMs());
        throw;
    }
    channel.start();
    m_messages("recording run " + uuid + " '" + spec.name + "' (experiment " + std::to_string(experimentId) +
               ", workload " + workload + ") into " + m_store.displayUri());

    std::thread capture;
    if (m_options.captureEnvironment && !logPath.empty())
        capture = std::thread([artifactDir] { captureEnvironment(artifactDir); });

    ListenerContext context;
    context.runUuid = uuid;
    context.rootPid = child->pid();
    context.gpus = parseDevices(m_options.devices);
    context.intervalMs = static_cast<int>(m_options.intervalSeconds * 1000);
    context.emit = [this, uuid](std::vector<MetricPoint>&& points) { m_bus->publish(uuid, points); };
    context.message = m_messages;
    std::vector<std::unique_ptr<Listener>> listeners;
    std::vector<Listener*> running;
    auto startListeners = [&] {
        listeners = makeListeners(listenerNames);
        for (auto& l : listeners)
            if (l->start(context))
                running.push_back(l.get());
    };
    auto stopListeners = [&] {
        for (auto it = running.rbegin(); it != running.rend(); ++it)
            (*it)->stop();
        running.clear();
    };
    if (!m_options.manual)
        startListeners();

    const auto started = std::chrono::steady_clock::now();
    const auto timeLimit = std::chrono::milliseconds(static_cast<int64_t>(m_options.maxTimeMinutes * 60000));
    bool stopped = false;
    int startsSeen = 0, stopsSeen = 0;
    // Sleep until the workload exits, a signal arrives (it interrupts poll or writes the wake
    // fd), the channel asks for the listeners, or the time limit: no periodic wake-ups.
    // syscall(): glibc 2.36's <sys/pidfd.h> lacks extern "C", so its wrapper does not link from C++.
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, child->pid(), 0));
    auto waitForEvent = [this](int processFd, int controlFd, auto start, auto limit) {
        pollfd fds[3] = {{processFd, POLLIN, 0}, {controlFd, POLLIN, 0}, {m_wakeFd, POLLIN, 0}};
        int timeout = processFd >= 0 ? -1 : 200; // without pidfd (Linux < 5.3): poll waitpid
        if (m_options.maxTimeMinutes > 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                limit - (std::chrono::steady_clock::now() - start));
            const int ms = static_cast<int>(std::max<int64_t>(0, left.count()) + 1);
            timeout = timeout < 0 ? ms : std::min(timeout, ms);
        }
        ::poll(fds, 3, timeout);
        char drain[64];
        for (int fd : {controlFd, m_wakeFd})
            if (fd >= 0)
                while (::read(fd, drain, sizeof drain) > 0) {
                }
    };
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
        if (m_options.maxTimeMinutes > 0 && std::chrono::steady_clock::now() - started >= timeLimit) {
            m_messages("time limit of " + formatDuration(timeLimit.count()) + " reached; stopping the workload");
            outcome.exit = child->terminate(m_options.graceMs);
            outcome.timeLimitReached = true;
            break;
        }
        if (m_options.manual) { // listeners follow the script's `with RADTBenchmark()` block
            if (controlStart > startsSeen && running.empty() && controlStop == stopsSeen)
                startListeners();
            startsSeen = controlStart;
            if (controlStop > stopsSeen)
                stopListeners();
            stopsSeen = controlStop;
        }
        waitForEvent(pidfd, wakePipe[0], started, timeLimit);
    }
    for (int fd : {pidfd, wakePipe[0], wakePipe[1]})
        if (fd >= 0)
            ::close(fd);
    stopListeners();
    channel.finish(2000);
    child->finishOutput(2000);
    for (const auto& l : listeners)
        if (const std::string s = l->summary(); !s.empty() && s.find("lines skipped") != std::string::npos)
            m_messages(s);
    outcome.channelMetrics = channel.lines() - channel.malformed();
    outcome.channelMalformed = channel.malformed();
    if (channel.malformed())
        m_messages(std::to_string(channel.malformed()) + " malformed line(s) on RADT_METRICS_FD ignored; " +
                   channel.firstError());
    if (capture.joinable())
        capture.join();

    m_bus->unsubscribe(subscription);
    const StoreWriterStats stats = writer.close(30000);
    outcome.samples = stats.written;
    outcome.unwritten = stats.unwritten;
    outcome.dropped = stats.dropped;

    if (stopped)
        outcome.status = RunStatus::Killed;
    else if (outcome.timeLimitReached) // the planned end of a time-boxed benchmark, as in radT
        outcome.status = RunStatus::Finished;
    else
        outcome.status = outcome.exit.ok() ? RunStatus::Finished : RunStatus::Failed;
    if (outcome.timeLimitReached)
        m_store.setTags(uuid, {{"radt.stop_reason", "max_time"}});
    m_store.setRunStatus(uuid, outcome.status, nowMs());
    outcome.run.status = outcome.status;
    return outcome;
}


} // namespace radt
