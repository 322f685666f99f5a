// SPDX-License-Identifier: MIT
#pragma once
// One recorded run in phases, so that the runs of a collocated workload can be set up one by one
// and then started together (resources/DESIGN.md §6): prepare() creates the run and starts the workload held
// just before exec, with its listeners already sampling; release() lets it run; finish() stops the
// listeners, writes everything and closes the run.

#include "collector/RunOptions.h"
#include "collector/SampleBus.h"
#include "collector/listeners/ChildProcess.h"
#include "core/store/Store.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace radt {

struct ChannelHandlers;

struct RunOutcome {
    Run run;
    RunStatus status = RunStatus::Finished;
    ExitStatus exit;
    bool timeLimitReached = false;
    size_t samples = 0;        ///< metric points written
    size_t unwritten = 0;      ///< points the store refused until the end (0 unless it failed)
    size_t kept = 0;           ///< of those, points kept in the run's spill file for a later import
    bool closePending = false; ///< the store refused the run's ending; it waits beside the artifacts
    size_t dropped = 0;        ///< points dropped because the store fell too far behind
    size_t channelMetrics = 0; ///< software metrics received on RADT_METRICS_FD
    size_t channelMalformed = 0;
};

/// The script part of a run's name: the program's file name, or for a Python interpreter the
/// script it runs ("python3 -u train.py" -> "train.py", "python3 -m pkg" -> "pkg").
std::string runTitle(const std::vector<std::string>& command);

/// Where the radt Python module lives, to put first on a workload's PYTHONPATH:
/// $RADT_PYTHON_DIR, the install tree next to the running executable (../share/radt/python), or
/// the source tree. "" when none holds radt/__init__.py.
std::string findPythonModuleDir();

/// Params as radT records them: model, params (raw string), one per --flag, data, ...
std::vector<std::pair<std::string, std::string>> radtParams(const RunOptions& options,
                                                            const std::string& model,
                                                            const std::string& workload,
                                                            const std::string& letter);

class RunSession {
public:
    RunSession(Store& store, RunOptions options, std::function<void(const std::string&)> messages,
               SampleBus& bus);
    ~RunSession();
    RunSession(const RunSession&) = delete;
    RunSession& operator=(const RunSession&) = delete;

    /// Validates (throwing before anything is written), creates the run, starts the workload
    /// held before exec, and starts the listeners (unless --manual).
    void prepare();
    /// The workload could not be set up (MIG, MPS, a sibling's failure): the run is created and
    /// closed FAILED with `reason` as its radt.failure tag.
    RunOutcome failBeforeStart(const std::string& reason);
    /// Lets the held workload exec.
    void release();
    /// After prepare(), when the workload must not run after all (a sibling run could not be set
    /// up): the held workload is killed before exec and the run closed FAILED with `reason`.
    RunOutcome abort(const std::string& reason);
    /// Non-blocking: the exit status once the workload has ended.
    std::optional<ExitStatus> poll();
    /// Readable when the workload ends (a pidfd); -1 where the kernel has none.
    int exitFd() const { return m_pidfd; }
    /// Starts or stops the listeners of a --manual run when the script asked for it; returns fast.
    void followManualControl();
    /// Readable when the script asked --manual listeners to start or stop.
    int controlFd() const { return m_controlPipe[0]; }
    /// Terminates the workload (SIGTERM, grace, SIGKILL); the run ends KILLED, or FINISHED when
    /// it was the time limit.
    void stop(bool timeLimit);
    /// Stops the listeners, writes everything, closes the run.
    RunOutcome finish();

    const Run& run() const { return m_outcome.run; }
    const std::string& letter() const { return m_letter; }

private:
    struct Plan;
    void plan();
    int64_t resolveExperiment();
    std::string nextWorkload(int64_t experimentId);
    void createRun(const std::vector<std::pair<std::string, std::string>>& extraTags);
    void fillRun(const std::vector<std::pair<std::string, std::string>>& extraTags);
    /// Writes the run's ending tags and status, or leaves them as a pending close.
    void closeRun(const std::vector<std::pair<std::string, std::string>>& tags, int64_t endTime);
    /// Marks the created run FAILED with `reason` (best effort: the store may be what failed).
    void closeFailed(const std::string& reason);
    void wrapForProfilers(std::vector<std::string>& argv);
    /// What the workload's metrics channel does with each message: samples to the bus; params,
    /// tags and artifacts to the store; profiling control to the control pipe.
    ChannelHandlers channelHandlers(const std::string& uuid);
    /// The workload's environment: radT's and MLflow's variables, the devices, the extra variables.
    std::map<std::string, std::string> childEnvironment(const std::string& uuid, int metricsFd) const;
    /// The started workload's environment capture (when its output is saved) and listeners.
    void startSampling(const std::string& uuid, bool outputSaved);
    /// Copies a file the workload logged (radt.log_artifact) into the run's artifacts; a name radt
    /// uses itself gets a "user-" prefix, anything but a regular file is refused saying why.
    void storeArtifact(const std::string& path);

    Store& m_store;
    RunOptions m_options;
    std::function<void(const std::string&)> m_messages;
    SampleBus& m_bus;

    std::vector<std::string> m_listenerNames;
    std::vector<std::string> m_argv;
    std::map<std::string, std::string> m_env;
    int64_t m_experimentId = 0;
    std::string m_workload, m_letter, m_model;
    bool m_planned = false;

    RunOutcome m_outcome;
    std::string m_artifactDir;
    struct Live; ///< writer, channel, child, listeners: alive between prepare() and finish()
    std::unique_ptr<Live> m_live;
    int m_pidfd = -1;
    int m_controlPipe[2] = {-1, -1};
    int m_gate[2] = {-1, -1};
    bool m_stopped = false;
    std::string m_abortReason;
};

} // namespace radt
