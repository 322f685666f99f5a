// SPDX-License-Identifier: MIT
#pragma once
// `radt experiment.csv` (resources/DESIGN.md §6): the workloads of a radT experiment file, one after another
// in file order. The runs of a workload are set up one by one (collocation, store rows, the
// workload held before exec, listeners sampling) and then started together; the workload ends
// when all its runs end or the time limit passes. After each workload its rows get their run id
// and status, written back atomically, so an interrupted experiment resumes where it stopped.

#include "collector/ExperimentCsv.h"
#include "collector/RunSession.h"
#include "collector/SampleBus.h"

#include <csignal>
#include <functional>
#include <memory>
#include <ostream>

namespace radt {

struct ExperimentOptions {
    RunOptions common;        ///< interval, grace, epoch/time limits, store URI, python dir, ...
    bool rerun = false;       ///< run FAILED workloads again (FINISHED ones are always skipped)
    bool colour = false;      ///< colour the [RUN <letter>] prefixes (a terminal)
    SampleBus* bus = nullptr; ///< where samples are published (an embedding GUI); null: a private bus
};

class ExperimentRunner {
public:
    /// `messages` gets the scheduler's one-line notices (stderr); workload output goes to `out`
    /// and `err` with a [RUN <letter>] prefix per line.
    ExperimentRunner(Store& store, ExperimentFile file, ExperimentOptions options,
                     std::function<void(const std::string&)> messages, std::ostream& out, std::ostream& err);

    /// Prints what would run (workloads, letters, devices, commands, environment, MIG/MPS set-up)
    /// without running or writing anything. False when a row would be refused (each is named).
    static bool printPlan(ExperimentFile file, const ExperimentOptions& options, std::ostream& out);

    /// Runs every workload still to do. Returns radt's exit code: 0 when all workloads finished,
    /// 1 when one failed, 130 when `stopSignal` interrupted it (the current workload is stopped,
    /// torn down and written back first).
    int run(const volatile std::sig_atomic_t& stopSignal, int wakeFd = -1);

private:
    struct Workload {
        std::string experiment, id;
        std::vector<ExperimentRow*> rows;
        std::vector<std::string> letters;
    };
    static std::vector<Workload> workloads(ExperimentFile& file);
    /// Why a workload is skipped ("FINISHED", "FAILED (run again with --rerun)"), empty when it runs.
    static std::string skipReason(const Workload& w, bool rerun);
    using Note = std::function<void(const std::string&)>;
    RunStatus runWorkload(Workload& w, size_t number, size_t total, const volatile std::sig_atomic_t& stop,
                          int wakeFd);
    /// Each run's session, its run row written and its workload held before exec; stops preparing
    /// at the first failure (or one of the GPUs' set-up already in `failure`) and names it there.
    std::vector<std::unique_ptr<RunSession>> prepareSessions(const Workload& w,
                                                             std::vector<RunOptions>& options, SampleBus& bus,
                                                             std::string& failure, const Note& note);
    /// Each row's run id and status from its run's outcome; the workload's status, the worst of them.
    RunStatus recordOutcomes(Workload& w, const std::vector<RunOutcome>& outcomes, const Note& note);

    Store& m_store;
    ExperimentFile m_file;
    ExperimentOptions m_options;
    std::function<void(const std::string&)> m_messages;
    std::ostream& m_out;
    std::ostream& m_err;
    bool m_unstored = false; ///< a run's samples or ending did not all reach the store
};

} // namespace radt
