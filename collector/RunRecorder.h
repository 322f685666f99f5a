#pragma once
// Records one run: creates it with radT's params, launches the workload, samples the listeners
// every interval, writes batches, and closes the run FINISHED / FAILED / KILLED.

#include "ChildProcess.h"
#include "Store.h"

#include <atomic>
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
    double intervalSeconds = 1.0;
    int graceMs = 10000;              ///< SIGTERM -> SIGKILL delay when stopping the workload
    std::vector<std::string> command; ///< script.py args... or program args...
    std::string storeUri;             ///< handed to the workload as MLFLOW_TRACKING_URI
};

struct RunOutcome {
    Run run;
    RunStatus status = RunStatus::Finished;
    ExitStatus exit;
    size_t samples = 0;   ///< metric points written
    size_t unwritten = 0; ///< points the store refused until the end (0 unless it failed)
};

/// The listeners this build knows, and those it can sample now.
const std::vector<std::string>& knownListeners();
bool listenerImplemented(const std::string& name);

/// Splits "smi+top+proc"; throws std::invalid_argument naming an unknown listener.
std::vector<std::string> parseListeners(const std::string& text);

/// Params as radT records them: model, params (raw string), one per --flag, data, ...
std::vector<std::pair<std::string, std::string>> radtParams(const RunOptions& options,
                                                            const std::string& model,
                                                            const std::string& workload,
                                                            const std::string& letter);

class RunRecorder {
public:
    /// `messages` receives one-line notices for stderr.
    RunRecorder(Store& store, RunOptions options, std::function<void(const std::string&)> messages);

    /// Validates, creates the run, and records until the workload ends or `stopSignal` becomes
    /// non-zero (then the workload is terminated and the run is KILLED). Throws std::exception
    /// for problems found before the run is created (nothing is written then).
    RunOutcome record(const volatile std::sig_atomic_t& stopSignal);

private:
    int64_t resolveExperiment();
    std::string nextWorkload(int64_t experimentId);
    bool flush(std::vector<MetricPoint>& pending, const std::string& runUuid, bool& warned);

    Store& m_store;
    RunOptions m_options;
    std::function<void(const std::string&)> m_messages;
};

} // namespace radt
