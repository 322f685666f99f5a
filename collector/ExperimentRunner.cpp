// SPDX-License-Identifier: MIT
#include "collector/ExperimentRunner.h"

#include "collector/GpuPartitioning.h"
#include "collector/RunRecorder.h"
#include "collector/RunValidation.h"
#include "core/base/TextFormat.h"
#include "core/report/RunJudgement.h"
#include "core/store/RunReconciler.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace radt {

namespace fs = std::filesystem;

namespace {

std::string firstDevice(const std::string& devices) {
    return devices.substr(0, devices.find('+'));
}

std::string shellWord(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                          "_-./=:,+@%") == std::string::npos)
        return s;
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

/// A row's run options: the common ones (interval, limits, store) plus the row's cells.
RunOptions rowOptions(const RunOptions& common, const ExperimentRow& row, const std::string& letter) {
    RunOptions o = common;
    o.experiment = row.experiment;
    o.createNumberedExperiments = true;
    o.workload = row.workload;
    o.listeners = row.listeners;
    o.devices = row.devices;
    o.collocation = row.collocation;
    o.letter = letter;
    o.command = {row.scriptPath};
    o.command.insert(o.command.end(), row.params.begin(), row.params.end());
    return o;
}

/// Sets up the workload's MIG instances (their devices into the runs' environment) and MPS
/// daemons; throws what stops the workload.
void partitionGpus(const std::vector<ExperimentRow*>& rows, std::vector<RunOptions>& options,
                   GpuPartitioner& partitioner) {
    std::set<std::string> mps;
    for (size_t i = 0; i < rows.size(); ++i) {
        const ExperimentRow& row = *rows[i];
        std::string cuda = row.devices;
        std::replace(cuda.begin(), cuda.end(), '+', ',');
        if (isMigProfile(row.collocation))
            options[i].extraEnv["CUDA_VISIBLE_DEVICES"] =
                partitioner.createMigInstance(std::stoi(firstDevice(row.devices)), row.collocation);
        else if (row.collocation == "MPS")
            mps.insert(cuda);
    }
    for (const std::string& gpus : mps)
        partitioner.startMps(gpus);
}

/// Waits for the released runs to end, stopping them all on `stop` or at the time limit.
void waitForRuns(std::vector<std::unique_ptr<RunSession>>& sessions, const std::string& workloadId,
                 double maxTimeMinutes, const volatile std::sig_atomic_t& stop, int wakeFd,
                 const std::function<void(const std::string&)>& note) {
    const auto started = std::chrono::steady_clock::now();
    const auto limit = std::chrono::milliseconds(static_cast<int64_t>(maxTimeMinutes * 60000));
    auto running = [&] {
        return std::any_of(sessions.begin(), sessions.end(), [](auto& s) { return !s->poll(); });
    };
    while (running()) {
        if (stop) {
            note("stopping workload " + workloadId + " (SIGTERM to its runs)");
            for (auto& s : sessions)
                s->stop(false);
            break;
        }
        int timeoutMs = -1;
        std::vector<int> fds{wakeFd}, drain{wakeFd};
        for (auto& s : sessions) {
            s->followManualControl();
            fds.push_back(s->controlFd());
            drain.push_back(s->controlFd());
            if (s->exitFd() >= 0)
                fds.push_back(s->exitFd());
            else
                timeoutMs = 200; // no pidfd (Linux < 5.3): look again soon
        }
        if (maxTimeMinutes > 0) {
            const auto left = limit - (std::chrono::steady_clock::now() - started);
            if (left <= std::chrono::steady_clock::duration::zero()) {
                note("time limit of " + formatDuration(limit.count()) + " reached; stopping workload " +
                     workloadId);
                for (auto& s : sessions)
                    s->stop(true);
                break;
            }
            const int ms = pollTimeoutMs(std::chrono::duration_cast<std::chrono::milliseconds>(left).count());
            timeoutMs = timeoutMs < 0 ? ms : std::min(timeoutMs, ms);
        }
        // Wakes for an exiting run among those still running; finished ones stay readable, so
        // only wait on pidfds of runs still going.
        fds.erase(std::remove_if(fds.begin(), fds.end(),
                                 [&](int fd) {
                                     return std::any_of(sessions.begin(), sessions.end(), [&](auto& s) {
                                         return s->exitFd() == fd && s->poll();
                                     });
                                 }),
                  fds.end());
        waitForAny(fds, drain, timeoutMs);
    }
}

/// The workload log, stored with every run of the workload that has an artifact folder.
void storeWorkloadLog(const std::vector<RunOutcome>& outcomes, const std::string& log) {
    for (const RunOutcome& o : outcomes) {
        if (o.run.artifactUri.empty())
            continue;
        std::error_code ec;
        fs::create_directories(o.run.artifactUri, ec);
        std::ofstream(o.run.artifactUri + "/workload.log") << log;
    }
}

} // namespace

ExperimentRunner::ExperimentRunner(Store& store, ExperimentFile file, ExperimentOptions options,
                                   std::function<void(const std::string&)> messages, std::ostream& out,
                                   std::ostream& err)
    : m_store(store), m_file(std::move(file)), m_options(std::move(options)), m_messages(std::move(messages)),
      m_out(out), m_err(err) {}

std::vector<ExperimentRunner::Workload> ExperimentRunner::workloads(ExperimentFile& file) {
    std::vector<Workload> out;
    std::map<std::pair<std::string, std::string>, size_t> index;
    for (ExperimentRow& row : file.rows) {
        const auto key = std::make_pair(row.experiment, row.workload);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, out.size()).first;
            out.push_back({row.experiment, row.workload, {}, {}});
        }
        out[it->second].rows.push_back(&row);
    }
    for (Workload& w : out)
        w.letters = workloadLetters(std::vector<const ExperimentRow*>(w.rows.begin(), w.rows.end()));
    return out;
}

std::string ExperimentRunner::skipReason(const Workload& w, bool rerun) {
    bool allFinished = true, anyFailed = false;
    for (const ExperimentRow* row : w.rows) {
        allFinished &= startsWith(row->status, "FINISHED");
        anyFailed |= startsWith(row->status, "FAILED");
    }
    if (allFinished)
        return "FINISHED";
    if (anyFailed && !rerun)
        return "FAILED (run again with --rerun)";
    return {};
}

bool ExperimentRunner::printPlan(ExperimentFile file, const ExperimentOptions& options, std::ostream& out) {
    bool valid = true;
    const std::vector<Workload> all = workloads(file);
    out << file.path << ": " << all.size() << " workload(s), " << file.rows.size() << " run(s)\n";
    size_t number = 0;
    for (const Workload& w : all) {
        ++number;
        out << "\nworkload " << w.id << " of experiment " << w.experiment << " (" << number << "/"
            << all.size() << ", lines";
        for (const ExperimentRow* row : w.rows)
            out << " " << row->line;
        out << ")";
        const std::string skip = skipReason(w, options.rerun);
        if (!skip.empty()) {
            out << ": skipped, " << skip << "\n";
            continue;
        }
        out << ": " << w.rows.size() << " run(s) started together\n";
        std::set<std::string> mpsGpus;
        for (size_t i = 0; i < w.rows.size(); ++i) {
            const ExperimentRow& row = *w.rows[i];
            out << "  [RUN " << w.letters[i] << "] python3 " << shellWord(row.scriptPath);
            for (const auto& p : row.params)
                out << " " << shellWord(p);
            out << "\n      listeners " << (row.listeners.empty() ? "(none)" : row.listeners) << "; devices "
                << row.devices << "; collocation " << row.collocation << "\n";
            std::string cuda = row.devices;
            std::replace(cuda.begin(), cuda.end(), '+', ',');
            if (isMigProfile(row.collocation)) {
                out << "      before: nvidia-smi mig -cgi " << row.collocation << " -C -i "
                    << firstDevice(row.devices) << "; after: nvidia-smi mig -dci / -dgi of what it created\n";
                cuda = "<UUID of the new MIG " + row.collocation + " device>";
            } else if (row.collocation == "MPS") {
                mpsGpus.insert(cuda);
            }
            out << "      env CUDA_VISIBLE_DEVICES=" << cuda << " RADT_WORKLOAD=" << w.id
                << " RADT_LETTER=" << w.letters[i] << " RADT_MAX_EPOCH=" << options.common.maxEpoch
                << " RADT_MAX_TIME=" << static_cast<int64_t>(options.common.maxTimeMinutes * 60)
                << (i > 0 ? " (tag mlflow.parentRunId = the first run)" : "") << "\n";
            // What the real run would refuse before writing anything, refused here too.
            try {
                const RunOptions o = rowOptions(options.common, row, w.letters[i]);
                validateRunOptions(o);
                validateRunParams(radtParams(o, o.command[0], w.id, w.letters[i]));
            } catch (const std::exception& e) {
                out << "      INVALID (line " << row.line << "): " << e.what() << "\n";
                valid = false;
            }
        }
        for (const std::string& gpus : mpsGpus)
            out << "  MPS: CUDA_VISIBLE_DEVICES=" << gpus
                << " nvidia-cuda-mps-control -d before the workload, 'quit' after\n";
    }
    return valid;
}

int ExperimentRunner::run(const volatile std::sig_atomic_t& stopSignal, int wakeFd) {
    std::vector<Workload> all = workloads(m_file);
    bool anyFailed = false;
    size_t number = 0;
    for (Workload& w : all) {
        ++number;
        const std::string skip = skipReason(w, m_options.rerun);
        if (!skip.empty()) {
            m_messages("workload " + w.id + " of experiment " + w.experiment + " (" + std::to_string(number) +
                       "/" + std::to_string(all.size()) + "): skipped, " + skip);
            anyFailed |= startsWith(skip, "FAILED");
            continue;
        }
        const RunStatus status = runWorkload(w, number, all.size(), stopSignal, wakeFd);
        anyFailed |= status == RunStatus::Failed;
        try {
            writeExperimentCsv(m_file);
        } catch (const std::exception& e) {
            m_messages(std::string("cannot write the status back: ") + e.what());
            return 2;
        }
        if (stopSignal) {
            m_messages("interrupted: the next 'radt " + m_file.path + "' resumes with workload " + w.id);
            return 128 + static_cast<int>(stopSignal);
        }
    }
    if (m_unstored) {
        m_messages("some samples or run endings did not reach the store (see the Status column); exit 2");
        return 2;
    }
    return anyFailed ? 1 : 0;
}

RunStatus ExperimentRunner::runWorkload(Workload& w, size_t number, size_t total,
                                        const volatile std::sig_atomic_t& stop, int wakeFd) {
    std::string log; // the workload log, stored with every run of the workload
    std::mutex logMutex;
    const Note note = [&](const std::string& line) {
        {
            std::lock_guard<std::mutex> lock(logMutex);
            log += line + "\n";
        }
        m_messages(line);
    };
    note("workload " + w.id + " of experiment " + w.experiment + " (" + std::to_string(number) + "/" +
         std::to_string(total) + "): " + std::to_string(w.rows.size()) + " run(s)");

    SampleBus ownBus;
    SampleBus& bus = m_options.bus ? *m_options.bus : ownBus;
    std::mutex consoleMutex;
    std::vector<RunOptions> options;
    for (size_t i = 0; i < w.rows.size(); ++i) {
        const ExperimentRow& row = *w.rows[i];
        RunOptions o = rowOptions(m_options.common, row, w.letters[i]);
        const std::string tag = "[RUN " + w.letters[i] + "]";
        const std::string prefix =
            m_options.colour ? "\033[1;" + std::to_string(31 + i % 6) + "m" + tag + "\033[0m " : tag + " ";
        o.outputLine = [this, prefix, &consoleMutex](bool isStderr, const std::string& line) {
            std::lock_guard<std::mutex> lock(consoleMutex);
            (isStderr ? m_err : m_out) << prefix << line << '\n' << std::flush;
        };
        options.push_back(std::move(o));
    }

    // Collocation first: a GPU that cannot be partitioned fails the workload before any run starts.
    GpuPartitioner partitioner(note);
    std::string failure;
    try {
        partitionGpus(w.rows, options, partitioner);
    } catch (const std::exception& e) {
        failure = e.what();
        note("workload " + w.id + " failed: " + failure);
    }

    std::vector<std::unique_ptr<RunSession>> sessions = prepareSessions(w, options, bus, failure, note);
    std::vector<RunOutcome> outcomes(sessions.size());
    if (!failure.empty()) {
        for (size_t i = 0; i < sessions.size(); ++i)
            outcomes[i] = sessions[i]->run().uuid.empty() ? sessions[i]->failBeforeStart(failure)
                                                          : sessions[i]->abort(failure);
    } else {
        // ... then start them together.
        for (auto& s : sessions)
            s->release();
        waitForRuns(sessions, w.id, m_options.common.maxTimeMinutes, stop, wakeFd, note);
        for (size_t i = 0; i < sessions.size(); ++i)
            outcomes[i] = sessions[i]->finish();
    }
    partitioner.teardown();

    const RunStatus workloadStatus = recordOutcomes(w, outcomes, note);
    storeWorkloadLog(outcomes, log);
    return workloadStatus;
}

std::vector<std::unique_ptr<RunSession>>
ExperimentRunner::prepareSessions(const Workload& w, std::vector<RunOptions>& options, SampleBus& bus,
                                  std::string& failure, const Note& note) {
    // Set every run up, its workload held before exec and its listeners sampling...
    std::vector<std::unique_ptr<RunSession>> sessions;
    for (size_t i = 0; i < w.rows.size(); ++i) {
        if (i > 0 && !sessions.empty() && !sessions[0]->run().uuid.empty())
            options[i].extraTags.emplace_back("mlflow.parentRunId", sessions[0]->run().uuid);
        sessions.push_back(std::make_unique<RunSession>(m_store, options[i], note, bus));
        if (!failure.empty())
            continue;
        try {
            sessions[i]->prepare();
        } catch (const std::exception& e) {
            failure = std::string("run ") + w.letters[i] + " could not start: " + e.what();
            note("workload " + w.id + " failed: " + failure);
        }
    }
    return sessions;
}

RunStatus ExperimentRunner::recordOutcomes(Workload& w, const std::vector<RunOutcome>& outcomes,
                                           const Note& note) {
    RunStatus workloadStatus = RunStatus::Finished;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        ExperimentRow& row = *w.rows[i];
        const RunOutcome& o = outcomes[i];
        row.run = o.run.uuid;
        // A run that was never created (its own options were refused) says so in the file.
        row.status = std::string(toString(o.status)) + " " +
                     (o.run.uuid.empty() ? "(not started)" : o.run.name) + " (" + w.letters[i] + ")";
        // The file says when the store did not get everything (the run carries the same tags).
        if (o.unwritten + o.dropped > 0 || o.closePending) {
            row.status += " - not all stored: " + std::to_string(o.unwritten + o.dropped) + " samples";
            m_unstored = true;
        }
        if (o.status == RunStatus::Failed)
            workloadStatus = RunStatus::Failed;
        else if (o.status == RunStatus::Killed && workloadStatus != RunStatus::Failed)
            workloadStatus = RunStatus::Killed;
        note("[RUN " + w.letters[i] + "] " + row.status + ", run " + o.run.uuid + ", " +
             std::to_string(o.samples) + " samples");
        // Each finished run against the earlier runs of its configuration, as `radt RUN` says it.
        if (o.status == RunStatus::Finished && o.unwritten + o.dropped == 0 && !o.closePending)
            note("[RUN " + w.letters[i] + "] " + judgeFinishedRun(m_store, o.run, m_options.common.storeUri));
    }
    return workloadStatus;
}

} // namespace radt
