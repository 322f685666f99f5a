// SPDX-License-Identifier: MIT
#include "RadtProcess.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <dirent.h>
#include <filesystem>
#include <thread>

namespace radt::test {

namespace fs = std::filesystem;

namespace {
const std::string kRadt = std::string(RADT_BINARY_DIR) + "/app/radt";
const std::string kFakes = std::string(RADT_SOURCE_DIR) + "/tests/fakes";
} // namespace

Radt::Radt(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
    std::vector<std::string> argv{kRadt};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildOptions options;
    options.onStdoutLine = [this](const std::string& line) { append(m_out, line); };
    options.onStderrLine = [this](const std::string& line) { append(m_err, line); };
    m_process = std::make_unique<ChildProcess>(argv, env, options);
}

int Radt::wait() {
    std::optional<ExitStatus> status;
    while (!(status = m_process->poll()))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    m_process->finishOutput(5000);
    return status->code;
}

std::string Radt::out() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_out;
}

std::string Radt::err() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_err;
}

void Radt::append(std::string& to, const std::string& line) {
    std::lock_guard<std::mutex> lock(m_mutex);
    to += line + "\n";
}

Radt startRadt(const TempDir&, const std::vector<std::string>& args,
               const std::map<std::string, std::string>& env) {
    return Radt(args, env);
}

RadtResult runRadtToEnd(const TempDir& dir, const std::vector<std::string>& args) {
    Radt process = startRadt(dir, args, {{"XDG_DATA_HOME", dir.path()}});
    const int rc = process.wait();
    return {rc, process.out(), process.err()};
}

std::map<std::string, std::string> fakeEnv(const TempDir& dir) {
    fs::create_directories(dir.file("bin"));
    for (const auto& tool : fs::directory_iterator(kFakes))
        fs::copy_file(tool.path(), dir.file("bin/") + tool.path().filename().string(),
                      fs::copy_options::overwrite_existing);
    return {{"PATH", dir.file("bin") + ":" + std::getenv("PATH")},
            {"RADT_FAKE_LOG", dir.file("fake.log")},
            {"RADT_FAKE_STATE", dir.file("gpu-state.json")},
            {"RADT_FIXTURES_DIR", RADT_FIXTURES_DIR}};
}

int processesMentioning(const std::string& marker) {
    int count = 0;
    if (DIR* d = opendir("/proc")) {
        while (dirent* e = readdir(d)) {
            if (!std::isdigit(static_cast<unsigned char>(e->d_name[0])))
                continue;
            std::string cmd = readFile(std::string("/proc/") + e->d_name + "/cmdline");
            std::replace(cmd.begin(), cmd.end(), '\0', ' ');
            count += cmd.find(marker) != std::string::npos;
        }
        closedir(d);
    }
    return count;
}

int countContaining(const std::string& text, const std::string& needle) {
    int n = 0;
    for (const auto& l : splitLines(text))
        n += l.find(needle) != std::string::npos;
    return n;
}

std::string writeTicksWorkload(const TempDir& dir) {
    writeFile(dir.file("ticks.py"), R"PY(import sys, time
import radt
count, pause = int(sys.argv[1]), float(sys.argv[2])
with radt.run.RADTBenchmark() as run:
    for i in range(count):
        run.log_metric("tick", i, i)
        time.sleep(pause)
)PY");
    return dir.file("ticks.py");
}

} // namespace radt::test
