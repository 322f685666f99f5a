// SPDX-License-Identifier: MIT
#include "collector/EnvironmentCapture.h"

#include "collector/listeners/ChildProcess.h"
#include "collector/listeners/ProcParsers.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace radt {

std::vector<std::pair<std::string, std::string>> hostTags(const std::string& procRoot) {
    std::vector<std::pair<std::string, std::string>> tags;
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0)
        tags.emplace_back("radt.host.name", host);
    if (auto cpuinfo = readSmallFile(procRoot + "/cpuinfo")) {
        std::istringstream in(*cpuinfo);
        std::string line;
        while (std::getline(in, line)) {
            // x86 says "model name", many ARM kernels only "Hardware" or "CPU part".
            if (line.rfind("model name", 0) == 0 || line.rfind("Hardware", 0) == 0) {
                const auto colon = line.find(':');
                if (colon != std::string::npos && colon + 2 <= line.size()) {
                    tags.emplace_back("radt.host.cpu", line.substr(colon + 2));
                    break;
                }
            }
        }
    }
    tags.emplace_back("radt.host.cores", std::to_string(std::thread::hardware_concurrency()));
    if (auto meminfo = readSmallFile(procRoot + "/meminfo"))
        if (auto mem = parseMeminfo(*meminfo)) {
            std::ostringstream gib;
            gib.precision(3);
            gib << mem->totalKb / (1024.0 * 1024.0);
            tags.emplace_back("radt.host.memory_gib", gib.str());
        }
    utsname u{};
    if (::uname(&u) == 0)
        tags.emplace_back("radt.host.kernel", std::string(u.sysname) + " " + u.release + " " + u.machine);
    return tags;
}

int environmentCaptureTimeoutMs(const std::function<void(const std::string&)>& message) {
    constexpr int kDefaultMs = 10000;
    const char* text = std::getenv("RADT_ENV_CAPTURE_TIMEOUT");
    if (!text)
        return kDefaultMs;
    char* end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(seconds >= 1 && seconds <= 600)) {
        if (message)
            message("RADT_ENV_CAPTURE_TIMEOUT='" + std::string(text) +
                    "' is not 1 to 600 seconds; the environment capture waits 10 s per command");
        return kDefaultMs;
    }
    return static_cast<int>(seconds * 1000);
}

namespace {

/// "python3 -m pip freeze": the whole command, as the user would type it to try it.
std::string joinCommand(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& a : argv)
        out += (out.empty() ? "" : " ") + a;
    return out;
}

} // namespace

void lowerThreadPriority() {
    // Linux keeps a nice value per thread (the thread id as the "process"), and fork copies it.
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10);
}

std::vector<std::string> captureEnvironment(const std::string& artifactDir, int timeoutMs,
                                            const std::function<void(const std::string&)>& message) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
        {"pip.txt", {"python3", "-m", "pip", "freeze"}},
        {"conda.txt", {"conda", "list"}},
        {"smi.txt", {"nvidia-smi", "-q"}},
    };
    std::vector<std::string> written;
    for (const auto& [file, argv] : commands) {
        if (!findExecutable(argv[0]))
            continue;
        const auto started = std::chrono::steady_clock::now();
        const CapturedOutput r = captureOutput(argv, timeoutMs, {}, std::nullopt);
        const auto tookMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
                .count();
        if (!r.exit && tookMs >= timeoutMs && message)
            message("environment capture: '" + joinCommand(argv) + "' did not finish within " +
                    std::to_string(timeoutMs / 1000) + " s and was stopped; " + file + " is not saved");
        if (!r.output)
            continue;
        const std::string path = artifactDir + "/" + file;
        std::ofstream f(path, std::ios::binary);
        f << *r.output;
        if (f)
            written.push_back(path);
    }
    return written;
}

} // namespace radt
