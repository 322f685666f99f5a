// SPDX-License-Identifier: MIT
#pragma once
// Runs a workload from the GUI in this process (issue: Launch dialog): one script through a
// RunRecorder, or an experiment CSV through the ExperimentRunner, on a worker thread with its own
// store connection. Samples go onto the window's live bus (so charts stream them at once);
// workload output and collector notices come back as queued signals for the console pane.

#include "collector/RunSession.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace radt {

class SampleBus;
class Store;
struct ExperimentFile;

struct LaunchRequest {
    std::string target;            ///< script (or program) path, or an experiment .csv
    std::vector<std::string> args; ///< the script's arguments
    RunOptions options;            ///< listeners, devices, collocation, experiment, workload, limits
    bool rerun = false;            ///< experiment files: run FAILED workloads again
    bool isExperimentFile() const;
};

class LaunchController : public QObject {
    Q_OBJECT
public:
    explicit LaunchController(SampleBus& bus, QObject* parent = nullptr);
    ~LaunchController() override; ///< stops a workload still running and waits for it

    /// Validates the request (script exists, CSV parses) and starts it. False with the reason
    /// in *error when it cannot start or something is already running.
    bool start(const std::string& storeUri, LaunchRequest request, QString* error);
    /// Stops the workload cleanly: SIGTERM to its process group, listeners stopped, the run
    /// marked KILLED with everything flushed (as Ctrl-C does for `radt`).
    void stop();
    bool isRunning() const { return m_running; }

signals:
    /// A line of workload output; `letter` names the run ("" for a single script).
    void output(const QString& letter, bool isStderr, const QString& line);
    /// A collector notice (missing tools, the run's summary, errors).
    void message(const QString& text);
    /// The launch is over: radt's exit code (0 ok, 1 failed workload, 130 stopped, 2 error).
    void finished(int exitCode);

private:
    using Note = std::function<void(const std::string&)>;
    /// The worker thread's work for an experiment CSV: its workloads one after another.
    int runExperiment(Store& store, ExperimentFile experiment, const LaunchRequest& request,
                      const Note& note);
    /// The worker thread's work for one script: its run recorded. Returns radt's exit code.
    int recordRun(Store& store, LaunchRequest& request, const Note& note);

    SampleBus& m_bus;
    std::thread m_thread;
    std::atomic<bool> m_running{false};
    volatile std::sig_atomic_t m_stop = 0;
    int m_wakePipe[2] = {-1, -1};
};

} // namespace radt
