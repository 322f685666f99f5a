// SPDX-License-Identifier: MIT
#include "collector/listeners/ChildProcess.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

// POSIX: the program declares it; glibc's <unistd.h> does too, but only with _GNU_SOURCE.
extern char** environ; // NOLINT(readability-redundant-declaration)

namespace radt {

namespace {

bool isExecutableFile(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

void writeAll(int fd, const char* data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return; // our own stdout closed: keep draining the child so it never blocks
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
}

/// The environment of a child: ours, with `env`'s variables set (and replacing ours).
std::vector<std::string> mergedEnvironment(const std::map<std::string, std::string>& env) {
    std::vector<std::string> envStrings;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        if (!env.count(entry.substr(0, entry.find('='))))
            envStrings.push_back(entry);
    }
    for (const auto& [k, v] : env)
        envStrings.push_back(k + "=" + v);
    return envStrings;
}

/// execve()'s view of `strings` (which must outlive it).
std::vector<char*> nullTerminated(std::vector<std::string>& strings) {
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (auto& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

/// What the forked child needs, all made before fork().
struct ForkedChild {
    pid_t parent = 0;
    int out = -1, err = -1, in = -1, devNull = -1, gate = -1;
    std::vector<int> inherit;
    const char* exe = nullptr;
    char** args = nullptr;
    char** envp = nullptr;
};

/// The child's side of fork(): its own process group, its pipes as stdio, held at the gate until
/// the run starts, then the workload. Async-signal-safe calls only.
[[noreturn]] void execInChild(const ForkedChild& child) {
    ::setpgid(0, 0); // own group: Ctrl-C reaches radt, which then stops the whole workload
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != child.parent)
        ::_exit(128 + SIGTERM);
    ::dup2(child.out, STDOUT_FILENO);
    ::dup2(child.err, STDERR_FILENO);
    if (child.in >= 0)
        ::dup2(child.in, STDIN_FILENO);
    else if (child.devNull >= 0) // a workload never competes with radt for the terminal
        ::dup2(child.devNull, STDIN_FILENO);
    for (int fd : child.inherit)
        ::fcntl(fd, F_SETFD, 0); // clear FD_CLOEXEC: this one survives execve
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (child.gate >= 0) {
        char go = 0;
        ssize_t n;
        while ((n = ::read(child.gate, &go, 1)) < 0 && errno == EINTR) {
        }
        if (n != 1)
            ::_exit(125);
    }
    ::execve(child.exe, child.args, child.envp);
    const char msg[] = "radt: exec failed\n";
    (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
    ::_exit(127);
}

ExitStatus decode(int status) {
    if (WIFSIGNALED(status))
        return {128 + WTERMSIG(status), WTERMSIG(status)};
    return {WEXITSTATUS(status), 0};
}

} // namespace

std::optional<std::string> findExecutable(const std::string& program) {
    if (program.empty())
        return std::nullopt;
    if (program.find('/') != std::string::npos)
        return isExecutableFile(program) ? std::optional<std::string>(program) : std::nullopt;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t end = dirs.find(':', start);
        std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (dir.empty())
            dir = ".";
        const std::string candidate = dir + "/" + program;
        if (isExecutableFile(candidate))
            return candidate;
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return std::nullopt;
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::map<std::string, std::string>& env, const std::string& logPath)
    : ChildProcess(argv, env, [&] {
          ChildOptions options;
          options.logPath = logPath;
          return options;
      }()) {}

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::map<std::string, std::string>& env, ChildOptions options)
    : m_options(std::move(options)) {
    const std::string& logPath = m_options.logPath;
    if (argv.empty())
        throw LaunchError("no command to run");
    const auto exe = findExecutable(argv[0]);
    if (!exe)
        throw LaunchError("cannot run '" + argv[0] + "': not found in PATH or not executable");

    if (!logPath.empty()) {
        m_log = std::fopen(logPath.c_str(), "wbe");
        if (!m_log)
            throw LaunchError("cannot write the run log " + logPath + ": " + std::strerror(errno));
    }
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0)
        throw LaunchError(std::string("cannot create pipes: ") + std::strerror(errno));

    // Everything the child needs is built before fork: only async-signal-safe calls after it.
    std::vector<std::string> envStrings = mergedEnvironment(env);
    std::vector<std::string> argCopy = argv;
    std::vector<char*> envp = nullTerminated(envStrings), args = nullTerminated(argCopy);
    ForkedChild child;
    child.parent = ::getpid();
    child.inherit = m_options.inheritFds;
    child.gate = m_options.gateFd;
    child.exe = exe->c_str();
    child.args = args.data();
    child.envp = envp.data();
    child.out = outPipe[1];
    child.err = errPipe[1];
    int inPipe[2] = {-1, -1};
    if (m_options.stdinText && ::pipe2(inPipe, O_CLOEXEC) != 0)
        throw LaunchError(std::string("cannot create pipes: ") + std::strerror(errno));
    child.in = inPipe[0];
    const int devNull = m_options.stdinText ? -1 : ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    child.devNull = devNull;

    m_pid = ::fork();
    if (m_pid < 0)
        throw LaunchError(std::string("fork failed: ") + std::strerror(errno));
    if (m_pid == 0)
        execInChild(child);
    ::setpgid(m_pid, m_pid); // also here, so the group exists before we might signal it
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (devNull >= 0)
        ::close(devNull);
    if (inPipe[0] >= 0) {
        ::close(inPipe[0]);
        const std::string& text = *m_options.stdinText;
        // Small control commands ("quit"): they fit the pipe buffer, so this never blocks.
        (void)!::write(inPipe[1], text.data(), text.size());
        ::close(inPipe[1]);
    }
    m_outFd = outPipe[0];
    m_errFd = errPipe[0];
    if (::pipe2(m_wakeFds, O_CLOEXEC) != 0)
        m_wakeFds[0] = m_wakeFds[1] = -1; // then the pump polls with a timeout instead
    m_pump = std::thread([this] { pumpOutput(); });
}

ChildProcess::~ChildProcess() {
    if (!m_status && m_pid > 0)
        terminate(2000);
    finishOutput(1000);
    if (m_log)
        std::fclose(m_log);
}

void ChildProcess::pumpOutput() {
    // The wake pipe lets finishOutput() interrupt a poll that otherwise sleeps until output
    // arrives: an idle workload costs no wake-ups.
    pollfd fds[3] = {{m_outFd, POLLIN, 0}, {m_errFd, POLLIN, 0}, {m_wakeFds[0], POLLIN, 0}};
    const int targets[2] = {STDOUT_FILENO, STDERR_FILENO};
    int open = 2;
    char buf[65536];
    while (open > 0 && !m_stopPump) {
        const int ready = ::poll(fds, m_wakeFds[0] >= 0 ? 3 : 2, m_wakeFds[0] >= 0 ? -1 : 100);
        if (ready < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                if ((i == 0 && m_options.onStdoutLine) || (i == 1 && m_options.onStderrLine))
                    deliver(i, buf, static_cast<size_t>(n));
                else
                    writeAll(targets[i], buf, static_cast<size_t>(n));
                if (m_log)
                    appendLog(buf, static_cast<size_t>(n));
            } else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (int i = 0; i < 2; ++i)
        if (fds[i].fd >= 0)
            ::close(fds[i].fd);
    if (m_log)
        appendLog(nullptr, 0);  // a last try for what a full disk held back
    for (int i = 0; i < 2; ++i) // a last line without '\n'
        if (!m_partial[i].empty()) {
            auto& callback = i == 0 ? m_options.onStdoutLine : m_options.onStderrLine;
            callback(m_partial[i]);
            m_partial[i].clear();
        }
    m_pumpDone = true;
}

void ChildProcess::appendLog(const char* data, size_t size) {
    // Output the disk refused (full, over quota) waits in memory and goes out once it takes
    // writes again, so output.log keeps the workload's output, in order. Past the bound the
    // oldest waiting bytes go, and the log says how many.
    constexpr size_t kMaxPending = 16u << 20;
    if (size)
        m_logPending.append(data, size);
    if (m_logPending.size() > kMaxPending) {
        m_logLostBytes += m_logPending.size() - kMaxPending;
        m_logPending.erase(0, m_logPending.size() - kMaxPending);
    }
    if (m_logLostBytes && m_logPending.size() < kMaxPending) {
        const std::string note =
            "[radt: " + std::to_string(m_logLostBytes) + " bytes of output lost: disk full]\n";
        m_logPending.insert(0, note);
        m_logLostBytes = 0;
    }
    const int fd = ::fileno(m_log);
    size_t done = 0;
    while (done < m_logPending.size()) {
        const ssize_t n = ::write(fd, m_logPending.data() + done, m_logPending.size() - done);
        if (n <= 0)
            break;
        done += static_cast<size_t>(n);
    }
    m_logPending.erase(0, done);
}

void ChildProcess::deliver(int stream, const char* data, size_t size) {
    auto& callback = stream == 0 ? m_options.onStdoutLine : m_options.onStderrLine;
    std::string& partial = m_partial[stream];
    constexpr size_t kMaxLine = 1 << 20; // a tool printing no newlines must not grow us forever
    size_t start = 0;
    for (size_t i = 0; i < size; ++i) {
        if (data[i] != '\n')
            continue;
        partial.append(data + start, i - start);
        if (!partial.empty() && partial.back() == '\r')
            partial.pop_back();
        callback(partial);
        partial.clear();
        start = i + 1;
    }
    partial.append(data + start, size - start);
    if (partial.size() > kMaxLine) {
        callback(partial);
        partial.clear();
    }
}

std::optional<std::string> captureOutput(const std::vector<std::string>& argv, int timeoutMs) {
    return captureOutput(argv, timeoutMs, {}, std::nullopt).output;
}

CapturedOutput captureOutput(const std::vector<std::string>& argv, int timeoutMs,
                             const std::map<std::string, std::string>& env,
                             const std::optional<std::string>& stdinText) {
    CapturedOutput result;
    std::string out;
    std::mutex mutex;
    ChildOptions options;
    options.stdinText = stdinText;
    options.onStdoutLine = [&](const std::string& line) {
        std::lock_guard<std::mutex> lock(mutex);
        out += line;
        out += '\n';
    };
    options.onStderrLine = [&](const std::string& line) {
        std::lock_guard<std::mutex> lock(mutex);
        result.errors += line;
        result.errors += '\n';
    };
    try {
        ChildProcess child(argv, env, options);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        std::optional<ExitStatus> status;
        while (!(status = child.poll()) && std::chrono::steady_clock::now() < deadline)
            ::usleep(10000);
        if (!status) {
            child.terminate(500);
            result.errors += argv[0] + " did not finish within " + std::to_string(timeoutMs / 1000) + " s\n";
            return result;
        }
        child.finishOutput(1000);
        result.exit = status;
    } catch (const LaunchError& e) {
        result.errors = e.what();
        return result;
    }
    std::lock_guard<std::mutex> lock(mutex);
    result.stdoutText = out;
    if (result.exit && result.exit->ok())
        result.output = out;
    return result;
}

std::optional<ExitStatus> ChildProcess::poll() {
    if (m_status)
        return m_status;
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == m_pid)
        m_status = decode(status);
    return m_status;
}

ExitStatus ChildProcess::terminate(int graceMs) {
    if (poll())
        return *m_status;
    ::kill(-m_pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(graceMs);
    while (std::chrono::steady_clock::now() < deadline) {
        if (poll()) {
            ::kill(-m_pid, SIGKILL); // grandchildren that ignored SIGTERM
            return *m_status;
        }
        ::usleep(20000);
    }
    ::kill(-m_pid, SIGKILL);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_status = decode(status);
    return *m_status;
}

void ChildProcess::finishOutput(int timeoutMs) {
    if (!m_pump.joinable())
        return;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (!m_pumpDone && std::chrono::steady_clock::now() < deadline)
        ::usleep(10000);
    m_stopPump = true; // a background grandchild may hold the pipes open forever
    if (m_wakeFds[1] >= 0)
        (void)!::write(m_wakeFds[1], "x", 1);
    m_pump.join();
    for (int& fd : m_wakeFds)
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
}

} // namespace radt
