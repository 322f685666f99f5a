// SPDX-License-Identifier: MIT
#pragma once
// End-to-end test support: the real `radt` binary as a child process with its output collected,
// the fake GPU tools of tests/fakes on a private PATH, and small polling helpers.

#include "TempDir.h"
#include "collector/listeners/ChildProcess.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace radt::test {

/// A radt process whose stdout and stderr are collected in memory.
class Radt {
public:
    Radt(const std::vector<std::string>& args, const std::map<std::string, std::string>& env);
    int pid() const { return m_process->pid(); }
    /// The exit code (128+signal when killed), once radt and its output are done.
    int wait();
    std::string out() const;
    std::string err() const;

private:
    void append(std::string& to, const std::string& line);
    mutable std::mutex m_mutex;
    std::string m_out, m_err;
    std::unique_ptr<ChildProcess> m_process;
};

/// Starts radt with `args`; `env` entries are added to (or replace) ours.
Radt startRadt(const TempDir& dir, const std::vector<std::string>& args,
               const std::map<std::string, std::string>& env = {});

/// What a radt process that ran to its end said: exit code, stdout, stderr.
struct RadtResult {
    int rc = -1;
    std::string out, err;
};
/// Runs radt with `args` to its end, XDG_DATA_HOME in `dir` (no user's recent stores touched).
RadtResult runRadtToEnd(const TempDir& dir, const std::vector<std::string>& args);

/// PATH with a private copy of every fake tool first, so a test can tell its own fake processes
/// apart; with RADT_FAKE_LOG (dir/fake.log), RADT_FAKE_STATE (dir/gpu-state.json) and the fixtures.
std::map<std::string, std::string> fakeEnv(const TempDir& dir);

/// Processes whose command line mentions `marker` (our private fakes, our workloads).
int processesMentioning(const std::string& marker);

/// A workload for radt: `python3 ticks.py COUNT PAUSE` logs the metric "tick" COUNT times through
/// the radt module (step i, value i), PAUSE seconds apart. Write it with writeTicksWorkload.
std::string writeTicksWorkload(const TempDir& dir);

/// How many lines of `text` contain `needle`.
int countContaining(const std::string& text, const std::string& needle);

} // namespace radt::test
