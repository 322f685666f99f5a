#pragma once
// A workload process: fork/exec in its own process group, stdout/stderr passed through to ours
// and copied into a log file, terminated as a group (SIGTERM, grace, SIGKILL).

#include <atomic>
#include <cstdio>
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

class ChildProcess {
public:
    /// Starts argv[0] (searched in PATH) with extra environment variables; output is copied to
    /// logPath when not empty. Throws LaunchError when the program cannot be found or started.
    ChildProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                 const std::string& logPath);
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

    int m_pid = -1;
    int m_outFd = -1;
    int m_errFd = -1;
    std::FILE* m_log = nullptr;
    std::thread m_pump;
    std::atomic<bool> m_stopPump{false};
    std::atomic<bool> m_pumpDone{false};
    std::optional<ExitStatus> m_status;
};

/// The full path of `program` found in PATH (or the program itself when it holds a '/');
/// nullopt when it is not an executable file.
std::optional<std::string> findExecutable(const std::string& program);

} // namespace radt
