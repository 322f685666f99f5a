// SPDX-License-Identifier: MIT
#pragma once
// A workload process: fork/exec in its own process group, stdout/stderr passed through to ours
// and copied into a log file, terminated as a group (SIGTERM, grace, SIGKILL).

#include <atomic>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace radt {

class LaunchError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ExitStatus {
    int code = 0;   ///< exit code, or 128 + signal when killed by a signal
    int signal = 0; ///< the terminating signal, 0 when it exited normally
    bool ok() const { return code == 0 && signal == 0; }
};

/// How a child's output is handled. By default stdout/stderr pass through to ours (a workload the
/// user watches); a tool the collector reads (nvidia-smi, dcgmi) gets line callbacks instead.
struct ChildOptions {
    std::string logPath; ///< copy of all output, when not empty
    /// When set, stdout (resp. stderr) is split into lines (without '\n') and handed to the callback
    /// on the pump thread instead of being passed through.
    std::function<void(const std::string& line)> onStdoutLine;
    std::function<void(const std::string& line)> onStderrLine;
    /// Descriptors the child inherits under the same numbers (e.g. the metrics pipe).
    std::vector<int> inheritFds;
    /// When >= 0: the child waits before execve until one byte can be read from this fd (the
    /// read end of a pipe; see release()), so several runs can be set up and then start together.
    /// EOF without a byte makes it exit with 125 instead.
    int gateFd = -1;
    /// When set, written to the child's stdin (then closed); otherwise stdin is /dev/null.
    std::optional<std::string> stdinText;
};

class ChildProcess {
public:
    /// Starts argv[0] (searched in PATH) with extra environment variables; output is copied to
    /// logPath when not empty. Throws LaunchError when the program cannot be found or started.
    ChildProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                 const std::string& logPath);
    ChildProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                 ChildOptions options);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    int pid() const { return m_pid; }
    /// Non-blocking: the exit status once the process has ended.
    std::optional<ExitStatus> poll();
    /// SIGTERM to the whole process group, SIGKILL after `graceMs`; returns the exit status.
    ExitStatus terminate(int graceMs);
    /// Waits for the output of the process (and of children still holding its pipes) to drain.
    void finishOutput(int timeoutMs);

private:
    void pumpOutput();
    void deliver(int stream, const char* data, size_t size);
    /// Appends workload output to output.log; what a full disk refuses waits and is retried.
    void appendLog(const char* data, size_t size);

    ChildOptions m_options;
    std::string m_partial[2]; ///< unfinished line per stream in line-callback mode
    int m_pid = -1;
    int m_outFd = -1;
    int m_errFd = -1;
    std::FILE* m_log = nullptr; ///< written with write(2) on its fd, never through the FILE buffer
    std::string m_logPending;   ///< output the disk has not taken yet
    size_t m_logLostBytes = 0;
    std::thread m_pump;
    std::atomic<bool> m_stopPump{false};
    int m_wakeFds[2] = {-1, -1}; ///< written by finishOutput() to end the pump's poll
    std::atomic<bool> m_pumpDone{false};
    std::optional<ExitStatus> m_status;
};

/// Runs a short command to completion and returns its stdout (stderr is dropped); nullopt when it
/// cannot start, exits non-zero, or runs past `timeoutMs` (then it is killed).
std::optional<std::string> captureOutput(const std::vector<std::string>& argv, int timeoutMs);

struct CapturedOutput {
    std::optional<ExitStatus> exit;    ///< unset when it could not start or ran too long
    std::string stdoutText;            ///< whatever it printed, also on failure
    std::string errors;                ///< its stderr, or why it could not run
    std::optional<std::string> output; ///< stdoutText when it exited 0
};
/// The same with extra environment variables, optional stdin text, and what went wrong.
CapturedOutput captureOutput(const std::vector<std::string>& argv, int timeoutMs,
                             const std::map<std::string, std::string>& env,
                             const std::optional<std::string>& stdinText);

/// The full path of `program` found in PATH (or the program itself when it holds a '/');
/// nullopt when it is not an executable file.
std::optional<std::string> findExecutable(const std::string& program);

} // namespace radt
