// SPDX-License-Identifier: MIT
#pragma once
// What a run is asked to do: its experiment, workload, listeners, devices, limits and command.
// Apart from RunSession (collector/RunSession.h), which carries a run out, so that what checks
// and builds options (RunValidation, the experiment runner, the Launch dialog) need not know how.

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace radt {

struct RunOptions {
    std::string experiment = "0"; ///< an experiment id that exists, or a name (created when new)
    std::string workload;         ///< empty: the next free workload number of the experiment
    std::string listeners = "top+proc";
    std::string devices = "0";
    std::string collocation = "-"; ///< "-", "MPS" or a MIG profile; part of the letter
    std::string letter;            ///< empty: devices, plus "_<collocation>" when collocated
    double intervalSeconds = 1.0;
    int graceMs = 10000;              ///< SIGTERM -> SIGKILL delay when stopping the workload
    int maxEpoch = 0;                 ///< RADT_MAX_EPOCH for the helper module; 0 = no limit
    double maxTimeMinutes = 0;        ///< enforced by the collector too; 0 = no limit
    bool manual = false;              ///< listeners run only inside `with RADTBenchmark()`
    bool captureEnvironment = true;   ///< pip/conda/nvidia-smi -q artifacts
    std::vector<std::string> command; ///< script.py args... or program args...
    std::string storeUri;             ///< handed to the workload as MLFLOW_TRACKING_URI
    std::string pythonDir;            ///< put first on the workload's PYTHONPATH (the radt module)
    /// A numeric experiment that does not exist is created under that name instead of being an
    /// error (experiment CSV files name experiments by number).
    bool createNumberedExperiments = false;
    std::map<std::string, std::string> extraEnv;                ///< e.g. CUDA_VISIBLE_DEVICES of a MIG slice
    std::vector<std::pair<std::string, std::string>> extraTags; ///< e.g. mlflow.parentRunId
    /// When set, the workload's output lines go here (prefixed on the console by the caller)
    /// instead of passing straight through; output.log gets them either way.
    std::function<void(bool isStderr, const std::string& line)> outputLine;
};

} // namespace radt
