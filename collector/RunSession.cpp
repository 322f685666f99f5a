// SPDX-License-Identifier: MIT
#include "collector/RunSession.h"

#include "collector/EnvironmentCapture.h"
#include "collector/MetricsChannel.h"
#include "collector/RunValidation.h"
#include "collector/StoreWriter.h"
#include "collector/listeners/ListenerTable.h"
#include "core/artifacts/RunEnvironment.h"
#include "core/store/MlflowLimits.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/RunReconciler.h"
#include "core/store/SpillFile.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fcntl.h>
#include <filesystem>
#include <pwd.h>
#include <stdexcept>
#include <sys/syscall.h>
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

void closeFd(int& fd) {
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

} // namespace

std::string findPythonModuleDir() {
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("RADT_PYTHON_DIR"); env && *env)
        candidates.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::canonical("/proc/self/exe", ec);
    if (!ec)
        candidates.push_back(exe.parent_path().parent_path() / "share/radt/python");
    candidates.emplace_back(RADT_SOURCE_PYTHON_DIR);
    for (const fs::path& dir : candidates)
        if (fs::is_regular_file(dir / "radt" / "__init__.py", ec))
            return dir.string();
    return {};
}

std::vector<std::pair<std::string, std::string>> radtParams(const RunOptions& options,
                                                            const std::string& model,
                                                            const std::string& workload,
                                                            const std::string& letter) {
    const std::vector<std::string>& cmd = options.command;
    const size_t firstArg = 1;
    std::vector<std::pair<std::string, std::string>> params = {
        {"workload", workload},
        {"letter", letter},
        {"model", model},
        {"params", join(cmd, firstArg, " ")},
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

struct RunSession::Live {
    Live(Store& store, std::function<void(const std::string&)> messages, ChannelHandlers handlers,
         StoreWriterOptions writerOptions)
        : writer(store, std::move(messages), std::move(writerOptions)), channel(std::move(handlers)) {}
    StoreWriter writer;
    int subscription = 0;
    MetricsChannel channel;
    std::unique_ptr<ChildProcess> child;
    ListenerContext context;
    std::vector<std::unique_ptr<Listener>> listeners;
    std::vector<Listener*> running;
    std::thread capture;
    std::atomic<int> controlStart{0}, controlStop{0};
    int startsSeen = 0, stopsSeen = 0;

    void startListeners(const std::vector<std::string>& names) {
        listeners = makeListeners(names);
        for (auto& l : listeners)
            if (l->start(context))
                running.push_back(l.get());
    }
    void stopListeners() {
        for (auto it = running.rbegin(); it != running.rend(); ++it)
            (*it)->stop();
        running.clear();
    }
};

RunSession::RunSession(Store& store, RunOptions options, std::function<void(const std::string&)> messages,
                       SampleBus& bus)
    : m_store(store), m_options(std::move(options)), m_messages(std::move(messages)), m_bus(bus) {}

RunSession::~RunSession() {
    if (m_live && !m_outcome.run.uuid.empty()) {
        // Abandoned between prepare() and finish() (an exception in the scheduler): never leave
        // a held workload or a RUNNING run behind.
        try {
            stop(false);
            finish();
        } catch (const std::exception&) {
        }
    }
    closeFd(m_pidfd);
    closeFd(m_gate[0]);
    closeFd(m_gate[1]);
    closeFd(m_controlPipe[0]);
    closeFd(m_controlPipe[1]);
}

int64_t RunSession::resolveExperiment() {
    if (isNumber(m_options.experiment)) {
        const int64_t id = std::stoll(m_options.experiment);
        if (const auto e = m_store.experimentById(id)) {
            if (e->lifecycleStage != "deleted")
                return id;
            throw std::invalid_argument("experiment " + m_options.experiment + " ('" + e->name +
                                        "') is deleted in " + m_store.displayUri() +
                                        "; restore it in MLflow or choose another experiment");
        }
        if (!m_options.createNumberedExperiments)
            throw std::invalid_argument("experiment id " + m_options.experiment + " does not exist in " +
                                        m_store.displayUri() +
                                        "; pass a name (-e my-experiment) to create one");
    }
    return m_store.getOrCreateExperiment(m_options.experiment);
}

std::string RunSession::nextWorkload(int64_t experimentId) {
    long long next = 0;
    for (const Run& run : m_store.runs(experimentId)) {
        const std::string w = run.workload();
        if (isNumber(w))
            next = std::max(next, std::stoll(w) + 1);
    }
    return std::to_string(next);
}

void RunSession::plan() {
    if (m_planned)
        return;
    validateRunOptions(m_options);
    m_listenerNames = parseListeners(m_options.listeners);

    // Resolve what to start before anything is written, so a typo creates no run.
    m_argv = m_options.command;
    m_model = m_options.command[0];
    if (endsWith(m_model, ".py")) {
        if (!fs::is_regular_file(m_model))
            throw std::invalid_argument("script not found: " + m_model);
        const auto python = findExecutable("python3");
        if (!python)
            throw std::invalid_argument("python3 not found in PATH (needed to run " + m_model + ")");
        m_argv.insert(m_argv.begin(), *python);
        m_env["PYTHONUNBUFFERED"] = "1"; // stream the script's output live into the log
    } else if (!findExecutable(m_model)) {
        throw std::invalid_argument("cannot run '" + m_model + "': not found in PATH or not executable");
    }
    m_experimentId = resolveExperiment();
    m_workload = m_options.workload.empty() ? nextWorkload(m_experimentId) : m_options.workload;
    m_letter = m_options.letter;
    if (m_letter.empty()) {
        m_letter = m_options.devices;
        if (!m_options.collocation.empty() && m_options.collocation != "-")
            m_letter += "_" + m_options.collocation;
    }
    // A param MLflow cannot store would fail after the run row exists: refuse before it does.
    validateRunParams(radtParams(m_options, m_model, m_workload, m_letter));
    m_planned = true;
}

std::string runTitle(const std::vector<std::string>& command) {
    std::string program = fs::path(command.at(0)).filename().string();
    // `radt python3 -u train.py ...`: two such runs would both be "python3"; the script tells
    // them apart (options of the interpreter before it are skipped).
    if (program.rfind("python", 0) == 0)
        for (size_t i = 1; i < command.size(); ++i) {
            if (command[i] == "-m" && i + 1 < command.size())
                return command[i + 1]; // python3 -m package
            if (!command[i].empty() && command[i][0] == '-')
                continue;
            if (endsWith(command[i], ".py"))
                return fs::path(command[i]).filename().string();
            break;
        }
    return program;
}

void RunSession::createRun(const std::vector<std::pair<std::string, std::string>>& extraTags) {
    NewRun spec;
    spec.experimentId = m_experimentId;
    spec.name = "(" + m_workload + " " + m_letter + ") " + runTitle(m_options.command);
    spec.userId = userName();
    spec.sourceName = m_model;
    spec.startTime = recordingClockMs(); // the clock its samples are stamped with
    m_outcome.run = m_store.createRun(spec);
    try {
        fillRun(extraTags);
    } catch (const std::exception& e) {
        // Never a RUNNING run from our own error path: close it FAILED, saying why, and go on
        // with the error (the caller reports it and exits or fails the workload).
        closeFailed(std::string("the run could not be set up: ") + e.what());
        throw;
    }
}

void RunSession::closeFailed(const std::string& reason) {
    m_outcome.status = m_outcome.run.status = RunStatus::Failed;
    m_outcome.exit = {1, 0};
    try {
        m_store.setTags(m_outcome.run.uuid, {{kFailureTag, reason.substr(0, mlflow::kMaxTagValueLength)}});
    } catch (const std::exception&) {
    }
    try {
        m_store.setRunStatus(m_outcome.run.uuid, RunStatus::Failed, recordingClockMs());
    } catch (const std::exception& e) {
        m_messages("run " + m_outcome.run.uuid + " could not be closed FAILED (" + e.what() +
                   "); the next radt that opens the store will");
    }
}

void RunSession::fillRun(const std::vector<std::pair<std::string, std::string>>& extraTags) {
    const auto params = radtParams(m_options, m_model, m_workload, m_letter);
    m_store.logParams(m_outcome.run.uuid, params);
    for (const auto& [key, value] : params) // the run as callers see it (run().workload() ...)
        m_outcome.run.params[key] = value;
    std::vector<std::pair<std::string, std::string>> tags = hostTags();
    tags.emplace_back(kRadtVersionTag, RADT_VERSION); // an environment diff tells radt versions apart
    for (auto& t : collectorTags())
        tags.push_back(std::move(t));
    for (const auto& t : m_options.extraTags)
        tags.push_back(t);
    for (const auto& t : extraTags)
        tags.push_back(t);
    m_store.setTags(m_outcome.run.uuid, tags);
    m_artifactDir = m_outcome.run.artifactUri;
}

RunOutcome RunSession::failBeforeStart(const std::string& reason) {
    m_outcome.status = m_outcome.run.status = RunStatus::Failed;
    m_outcome.exit = {1, 0};
    try {
        plan();
    } catch (const std::exception&) {
        return m_outcome; // this run's own options are what failed: there is no run to record
    }
    createRun({{kFailureTag, reason}});
    m_store.setRunStatus(m_outcome.run.uuid, RunStatus::Failed, recordingClockMs());
    return m_outcome;
}

static bool isRadtArtifactName(const std::string& name) {
    // What radt itself writes into a run's artifacts (the profilers' reports are named after
    // their listener, nsys*/ncu*, and get their extension from the tool).
    for (const char* own : {"output.log", "workload.log", kSpillFileName, kPendingCloseFileName, "pip.txt",
                            "conda.txt", "smi.txt"})
        if (name == own)
            return true;
    return name.rfind("nsys", 0) == 0 || name.rfind("ncu", 0) == 0;
}

void RunSession::storeArtifact(const std::string& path) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    const char* problem = nullptr;
    if (error || status.type() == fs::file_type::not_found)
        problem = "no such file";
    else if (status.type() == fs::file_type::directory)
        problem = "it is a folder; log the files in it one by one";
    else if (status.type() != fs::file_type::regular)
        problem = "it is not a regular file (a device, FIFO or socket has no content to keep)";
    if (problem) {
        m_messages("artifact '" + path + "' not stored: " + problem);
        return;
    }
    // radt's own files (the captured output it is still writing, ...) are never overwritten: the
    // user's file of that name is kept beside them under another name.
    std::string name = fs::path(path).filename().string();
    if (isRadtArtifactName(name)) {
        const std::string original = name;
        name = "user-" + name;
        m_messages("artifact '" + path + "' stored as " + name + ": " + original +
                   " is radt's own file in the run's artifacts");
    }
    fs::copy_file(path, fs::path(m_artifactDir) / name, fs::copy_options::overwrite_existing, error);
    if (error)
        m_messages("artifact '" + path + "' not stored: " + error.message());
}

void RunSession::wrapForProfilers(std::vector<std::string>& argv) {
    // radT's workload listeners: the profiler runs the command, restricted to the NVTX range
    // "profile" unless the raw variant was asked for; its report lands in the run's artifacts.
    for (const std::string& name : m_listenerNames) {
        if (!isWorkloadListener(name))
            continue;
        const bool nsys = name.rfind("nsys", 0) == 0;
        const bool raw = name.size() > 4 && name.compare(name.size() - 3, 3, "raw") == 0;
        const std::string tool = nsys ? "nsys" : "ncu";
        if (!findExecutable(tool)) {
            m_messages("listener '" + name + "': " + tool +
                       " not found in PATH; the run continues without it");
            continue;
        }
        const std::string out = m_artifactDir + "/" + name;
        std::vector<std::string> prefix;
        if (nsys) {
            prefix = {"nsys", "profile", "-o", out, "--force-overwrite=true"};
            if (!raw)
                prefix.insert(prefix.end(), {"--capture-range=nvtx", "--nvtx-capture=profile"});
        } else {
            prefix = {"ncu", "-o", out, "-f"};
            if (!raw)
                prefix.insert(prefix.end(), {"--nvtx", "--nvtx-include", "profile/"});
        }
        argv.insert(argv.begin(), prefix.begin(), prefix.end());
    }
}

void RunSession::prepare() {
    plan();
    createRun({});
    const std::string uuid = m_outcome.run.uuid;
    std::string logPath;
    std::error_code ec;
    fs::create_directories(m_artifactDir, ec);
    if (ec)
        m_messages("cannot create the artifact directory " + m_artifactDir + ": " + ec.message() +
                   "; the output is not saved");
    else
        logPath = m_artifactDir + "/output.log";

    if (::pipe2(m_controlPipe, O_CLOEXEC | O_NONBLOCK) != 0 || ::pipe2(m_gate, O_CLOEXEC) != 0) {
        closeFailed("cannot create pipes for the run");
        throw LaunchError("cannot create pipes for the run");
    }
    const ChannelHandlers handlers = channelHandlers(uuid);
    StoreWriterOptions writerOptions;
    // One transaction per two sampling intervals, 250 ms to 2 s: at 1 Hz the listeners' ticks of
    // two seconds share one commit instead of one each (the commit was half of radt's CPU). The
    // live bus is not delayed; a kill -9 loses at most this much (resources/doc/recording.md, crash safety).
    std::string flushWarning;
    writerOptions.flushMs = flushIntervalMs(m_options.intervalSeconds, &flushWarning);
    if (!flushWarning.empty())
        m_messages(flushWarning);
    if (!logPath.empty()) // past the in-memory bound, an unreachable store's samples wait here
        writerOptions.spillPath = m_artifactDir + "/" + kSpillFileName;
    m_live = std::make_unique<Live>(m_store, m_messages, handlers, writerOptions);
    Live& live = *m_live;
    // From here on samples reach the store through the writer thread.
    live.subscription =
        m_bus.subscribe([&live, uuid](const std::string& run, const std::vector<MetricPoint>& points) {
            if (run == uuid)
                live.writer.enqueue(run, points);
        });

    const std::map<std::string, std::string> env = childEnvironment(uuid, live.channel.childFd());
    std::vector<std::string> argv = m_argv;
    wrapForProfilers(argv);
    ChildOptions childOptions;
    childOptions.logPath = logPath;
    childOptions.inheritFds = {live.channel.childFd()};
    childOptions.gateFd = m_gate[0];
    if (m_options.outputLine) {
        auto sink = m_options.outputLine;
        childOptions.onStdoutLine = [sink](const std::string& line) { sink(false, line); };
        childOptions.onStderrLine = [sink](const std::string& line) { sink(true, line); };
    }
    try {
        live.child = std::make_unique<ChildProcess>(argv, env, childOptions);
    } catch (const std::exception& e) {
        m_bus.unsubscribe(live.subscription);
        live.writer.close();
        m_live.reset();
        closeFailed(std::string("the workload could not start: ") + e.what());
        throw;
    }
    closeFd(m_gate[0]);
    live.channel.start();
    // syscall(): glibc 2.36's <sys/pidfd.h> lacks extern "C", so its wrapper does not link from C++.
    m_pidfd = static_cast<int>(::syscall(SYS_pidfd_open, live.child->pid(), 0));
    startSampling(uuid, !logPath.empty());
}

ChannelHandlers RunSession::channelHandlers(const std::string& uuid) {
    ChannelHandlers handlers;
    handlers.metric = [this, uuid](MetricPoint&& p) { m_bus.publish(uuid, {std::move(p)}); };
    // Params and tags go through the writer, in order with the samples. A value MLflow refuses
    // (a param logged twice with another value) is reported, not retried.
    auto postWrite = [this, uuid](const char* what, auto write) {
        m_live->writer.post([this, uuid, what, write](Store& store) {
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
    handlers.artifact = [this](const std::string& path) { storeArtifact(path); };
    handlers.control = [this](const std::string& c) {
        ++(c == "start" ? m_live->controlStart : m_live->controlStop);
        (void)!::write(m_controlPipe[1], "x", 1);
    };
    return handlers;
}

std::map<std::string, std::string> RunSession::childEnvironment(const std::string& uuid,
                                                                int metricsFd) const {
    std::map<std::string, std::string> env = m_env;
    env["RADT_RUN_ID"] = uuid;
    env["RADT_EXPERIMENT_ID"] = std::to_string(m_experimentId);
    env["RADT_WORKLOAD"] = m_workload;
    env["RADT_LETTER"] = m_letter;
    env["RADT_MAX_EPOCH"] = std::to_string(m_options.maxEpoch);
    env["RADT_MAX_TIME"] = std::to_string(static_cast<int64_t>(std::ceil(m_options.maxTimeMinutes * 60)));
    env["RADT_METRICS_FD"] = std::to_string(metricsFd);
    env["MLFLOW_RUN_ID"] = uuid;
    env["MLFLOW_EXPERIMENT_ID"] = std::to_string(m_experimentId);
    if (!m_options.storeUri.empty())
        env["MLFLOW_TRACKING_URI"] = m_options.storeUri;
    if (!m_options.pythonDir.empty()) {
        const char* existing = std::getenv("PYTHONPATH");
        env["PYTHONPATH"] = m_options.pythonDir + (existing && *existing ? std::string(":") + existing : "");
    }
    std::string cuda = m_options.devices;
    std::replace(cuda.begin(), cuda.end(), '+', ',');
    env["CUDA_VISIBLE_DEVICES"] = cuda;
    for (const auto& [k, v] : m_options.extraEnv)
        env[k] = v;
    return env;
}

void RunSession::startSampling(const std::string& uuid, bool outputSaved) {
    Live& live = *m_live;
    if (m_options.captureEnvironment && outputSaved)
        live.capture = std::thread([dir = m_artifactDir, messages = m_messages] {
            lowerThreadPriority(); // beside the workload, never in its way
            captureEnvironment(dir, environmentCaptureTimeoutMs(messages), messages);
        });
    live.context.runUuid = uuid;
    live.context.rootPid = live.child->pid();
    live.context.gpus = parseDevices(m_options.devices);
    live.context.intervalMs = static_cast<int>(m_options.intervalSeconds * 1000);
    live.context.publish = [this, uuid](std::vector<MetricPoint>&& points) { m_bus.publish(uuid, points); };
    live.context.message = m_messages;
    if (!m_options.manual)
        live.startListeners(m_listenerNames);
}

void RunSession::release() {
    if (m_gate[1] >= 0) {
        (void)!::write(m_gate[1], "g", 1);
        closeFd(m_gate[1]);
    }
}

std::optional<ExitStatus> RunSession::poll() {
    return m_live && m_live->child ? m_live->child->poll() : std::optional<ExitStatus>(m_outcome.exit);
}

void RunSession::followManualControl() {
    if (!m_live || !m_options.manual)
        return;
    Live& live = *m_live;
    const int starts = live.controlStart, stops = live.controlStop;
    if (starts > live.startsSeen && live.running.empty() && stops == live.stopsSeen)
        live.startListeners(m_listenerNames);
    live.startsSeen = starts;
    if (stops > live.stopsSeen)
        live.stopListeners();
    live.stopsSeen = stops;
}

RunOutcome RunSession::abort(const std::string& reason) {
    m_abortReason = reason;
    stop(false); // still held at the gate: SIGTERM ends it before it ever execs
    return finish();
}

void RunSession::stop(bool timeLimit) {
    if (!m_live || !m_live->child)
        return;
    if (m_live->child->poll())
        return;
    m_outcome.exit = m_live->child->terminate(m_options.graceMs);
    if (timeLimit)
        m_outcome.timeLimitReached = true;
    else
        m_stopped = true;
}

RunOutcome RunSession::finish() {
    if (!m_live)
        return m_outcome;
    Live& live = *m_live;
    if (auto exit = live.child->poll(); exit && !m_stopped && !m_outcome.timeLimitReached)
        m_outcome.exit = *exit;
    else if (!exit)
        stop(false);
    live.stopListeners();
    // The run ended now: a store that keeps the writer waiting must not push end_time later.
    const int64_t endTime = recordingClockMs();
    live.channel.finish(2000);
    live.child->finishOutput(2000);
    for (const auto& l : live.listeners)
        if (const std::string s = l->summary(); !s.empty() && s.find("lines skipped") != std::string::npos)
            m_messages(s);
    m_outcome.channelMetrics = live.channel.lines() - live.channel.malformed();
    m_outcome.channelMalformed = live.channel.malformed();
    if (live.channel.malformed())
        m_messages(std::to_string(live.channel.malformed()) +
                   " malformed line(s) on RADT_METRICS_FD ignored; " + live.channel.firstError());
    if (live.capture.joinable())
        live.capture.join();
    m_bus.unsubscribe(live.subscription);
    // Whatever the store does not take in this window is kept in the spill file, so a user who
    // pressed Ctrl-C waits only briefly.
    const StoreWriterStats stats = live.writer.close(m_stopped ? 3000 : 15000);
    m_outcome.samples = stats.written;
    m_outcome.unwritten = stats.unwritten;
    m_outcome.kept = stats.kept;
    m_outcome.dropped = stats.dropped;
    m_live.reset();

    std::vector<std::pair<std::string, std::string>> tags;
    if (!m_abortReason.empty())
        tags.emplace_back(kFailureTag, m_abortReason);
    if (m_outcome.timeLimitReached)
        tags.emplace_back("radt.stop_reason", "max_time");
    // A loss is recorded on the run, never only printed.
    if (stats.unwritten + stats.dropped > 0) {
        tags.emplace_back(kUnwrittenSamplesTag, std::to_string(stats.unwritten + stats.dropped));
        if (stats.kept)
            tags.emplace_back(kSpillFileTag, m_artifactDir + "/" + kSpillFileName);
    }
    if (!m_abortReason.empty()) {
        m_outcome.status = RunStatus::Failed;
    } else if (m_stopped)
        m_outcome.status = RunStatus::Killed;
    else if (m_outcome.timeLimitReached) // the planned end of a time-boxed benchmark, as in radT
        m_outcome.status = RunStatus::Finished;
    else
        m_outcome.status = m_outcome.exit.ok() ? RunStatus::Finished : RunStatus::Failed;
    m_outcome.run.status = m_outcome.status;
    closeRun(tags, endTime);
    return m_outcome;
}

void RunSession::closeRun(const std::vector<std::pair<std::string, std::string>>& tags, int64_t endTime) {
    const std::string& uuid = m_outcome.run.uuid;
    m_outcome.run.endTime = endTime;
    auto writeToStore = [&] {
        if (!tags.empty())
            m_store.setTags(uuid, tags);
        m_store.setRunStatus(uuid, m_outcome.status, endTime);
    };
    // When the store refused samples to the end, the ending goes beside the kept samples at once
    // rather than waiting out another busy timeout; the store is the fallback if that fails.
    if (m_outcome.kept > 0) {
        try {
            writePendingClose(m_artifactDir, {m_outcome.status, endTime, tags});
            m_outcome.closePending = true;
            m_messages("run " + uuid + ": its ending (" + toString(m_outcome.status) + ") and " +
                       std::to_string(m_outcome.kept) + " samples wait in " + m_artifactDir +
                       " for the next radt or radt-explorer that opens the store");
            return;
        } catch (const std::exception&) {
        }
    }
    try {
        writeToStore();
    } catch (const StoreError& e) {
        // The store refuses even the ending (locked, full, gone): leave it beside the artifacts
        // so the next radt or radt-explorer that opens the store writes it, with the samples.
        m_outcome.closePending = true;
        const std::string why = e.what();
        try {
            writePendingClose(m_artifactDir, {m_outcome.status, endTime, tags});
            m_messages(
                "cannot close run " + uuid + " in the store (" + why + "); its ending (" +
                toString(m_outcome.status) + ")" +
                (m_outcome.kept ? " and " + std::to_string(m_outcome.kept) + " samples" : std::string()) +
                " wait in " + m_artifactDir + " for the next radt or radt-explorer that opens the store");
        } catch (const std::exception& fileError) {
            m_messages("cannot close run " + uuid + " in the store (" + why + ") nor keep its ending (" +
                       fileError.what() + "); the next radt that opens the store marks it FAILED");
        }
        return;
    }
    // Another client (`radt run delete --force`, MLflow) may have deleted the run while it was
    // recorded: the samples went on into it, hidden. Say so, with the way back. Checked once the
    // run is closed, and apart from closing it: a failed read here must not make a closed run
    // look unclosed.
    try {
        if (!m_store.run(uuid))
            m_messages("run " + uuid + " was deleted by another client while it was recorded; its " +
                       std::to_string(m_outcome.samples) + " samples are kept in it: `radt run restore " +
                       uuid.substr(0, 8) + "` brings it back");
    } catch (const StoreError&) {
    }
    // The finished run's chart envelopes (RunEnvelopes.h): a chart of hundreds of runs then reads
    // a few thousand points of it, not every sample. A cache: without it charts read the run whole.
    try {
        writeRunEnvelopes(m_store, uuid);
    } catch (const StoreError& e) {
        m_messages(std::string("run ") + uuid + ": its chart envelopes were not written (" + e.what() +
                   "); charts of it read every sample instead");
    }
}

} // namespace radt
