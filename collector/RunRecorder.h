#pragma once
// Records one run: creates it with radT's params, launches the workload with the metrics channel,
// starts the listeners, streams every sample through the live bus to the store writer, and
// closes the run FINISHED / FAILED / KILLED.

#include "ChildProcess.h"
#include "SampleBus.h"
#include "Store.h"

#include <csignal>
#include <functional>
#include <string>
#include <vector>

namespace radt {

struct RunOptions {
    std::string experiment = "0"; ///< an experiment id that exists, or a name (created when new)
    std::string workload;         ///< empty: the next free workload number of the experiment
    std::string listeners = "top+proc";
    std::string devices = "0";
    std::string collocation = "-"; ///< "-", "MPS" or a MIG profile; part of the letter
    double intervalSeconds = 1.0;
    int graceMs = 10000;              ///< SIGTERM -> SIGKILL delay when stopping the workload
    int maxEpoch = 0;                 ///< RADT_MAX_EPOCH for the helper module; 0 = no limit
    double maxTimeMinutes = 0;        ///< enforced by the collector too; 0 = no limit
    bool manual = false;              ///< listeners run only inside `with RADTBenchmark()`
    bool captureEnvironment = true;   ///< pip/conda/nvidia-smi -q artifacts
    std::vector<std::string> command; ///< script.py args... or program args...
    std::string storeUri;             ///< handed to the workload as MLFLOW_TRACKING_URI
    std::string pythonDir;            ///< put first on the workload's PYTHONPATH (the radt module)
};

struct RunOutcome {
    Run run;
    RunStatus status = RunStatus::Finished;
    ExitStatus exit;
    bool timeLimitReached = false;
    size_t samples = 0;         ///< metric points written
    size_t unwritten = 0;       ///< points the store refused until the end (0 unless it failed)
    size_t dropped = 0;         ///< points dropped because the store fell too far behind
    size_t channelMetrics = 0;  ///< software metrics received on RADT_METRICS_FD
    size_t channelMalformed = 0;
};

/// Params as radT records them: model, params (raw string), one per --flag, data, ...
std::vector<std::pair<std::string, std::string>> radtParams(const RunOptions& options,
                                                            const std::string& model,
                                                            const std::string& workload,
                                                            const std::string& letter);

class RunRecorder {
public:
    /// `messages` receives one-line notices for stderr. `bus`, when given, is where samples are
    /// published (so an embedding GUI can subscribe); otherwise the recorder uses its own.
    RunRecorder(Store& store, RunOptions options, std::function<void(const std::string&)> messages,
                SampleBus* bus = nullptr);

    /// Validates, creates the run, and records until the workload ends, the time limit passes,
    /// or `stopSignal` becomes non-zero (then the workload is terminated and the run is KILLED).
    /// Throws std::exception for problems found before the run is created (nothing is written).
    RunOutcome record(const volatile std::sig_atomic_t& stopSignal);

    /// A non-blocking fd whose readability wakes record() to look at `stopSignal` at once (the
    /// read end of a pipe a signal handler writes to). Without it a signal still interrupts the
    /// wait when it lands on the recording thread.
    void setWakeFd(int fd) { m_wakeFd = fd; }

private:
    int64_t resolveExperiment();
    std::string nextWorkload(int64_t experimentId);

    Store& m_store;
    RunOptions m_options;
    std::function<void(const std::string&)> m_messages;
    SampleBus m_ownBus;
    int m_wakeFd = -1;
    SampleBus* m_bus;
};

} // namespace radt
