// SPDX-License-Identifier: MIT
#include "TempDir.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <grp.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace radt::test {

namespace fs = std::filesystem;

namespace {

/// Every test process (ctest runs each test case as its own) keeps its data and settings in folders
/// of its own, made before main and removed at exit: the default store, the default artifact root (a
/// PostgreSQL store's runs keep theirs in `$XDG_DATA_HOME/radt/artifacts`) and the explorer's saved
/// settings never land in the user's home, and no two tests share them. The radt and radt-explorer
/// processes a test starts inherit them. (Caches, fontconfig's and TeX's fonts, are the suite's:
/// resources/test.sh puts them beside its home.)
class OwnDataHome {
public:
    OwnDataHome() {
        const char* base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/radt-test-home-XXXXXX";
        if (!mkdtemp(pattern.data()))
            return;
        m_path = pattern;
        for (const auto& [variable, folder] :
             {std::pair{"XDG_DATA_HOME", "/data"}, {"XDG_CONFIG_HOME", "/config"}}) {
            std::error_code ec;
            fs::create_directory(m_path + folder, ec);
            ::setenv(variable, (m_path + folder).c_str(), 1);
        }
    }
    ~OwnDataHome() {
        std::error_code ec;
        if (!m_path.empty())
            fs::remove_all(m_path, ec);
    }

private:
    std::string m_path;
};

const OwnDataHome ownDataHome;

} // namespace

TempDir::TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/radt-test-XXXXXX";
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("mkdtemp failed for " + pattern);
    m_path = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::permissions(m_path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(m_path, ec);
}

std::string fixturePath(const std::string& relative) {
    const std::string path = std::string(RADT_FIXTURES_DIR) + "/" + relative;
    if (!fs::is_regular_file(path))
        throw std::runtime_error("missing test fixture " + path +
                                 " (tests/fixtures/README.md says where each came from)");
    return path;
}

std::string readFixture(const std::string& relative) {
    const std::string path = fixturePath(relative);
    std::string text = readFile(path);
    if (text.empty())
        throw std::runtime_error("empty test fixture " + path);
    return text;
}

std::string copyMlflowFixture(const TempDir& dir) {
    const std::string source = fixturePath("mlflow/mlflow_empty_c9d4e5f6a7b8.db");
    const std::string target = dir.file("mlflow.db");
    fs::copy_file(source, target, fs::copy_options::overwrite_existing);
    fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
    return target;
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw std::runtime_error("cannot write " + path);
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

bool waitFor(const std::function<bool()>& condition, int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return condition();
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        out.push_back(line);
    return out;
}

std::string errorAsUnprivilegedUser(const TempDir& dir, const std::function<void()>& f) {
    if (::geteuid() != 0)
        return errorOf(f);
    fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec);
    int pipeFds[2];
    if (::pipe(pipeFds) != 0)
        throw std::runtime_error("pipe failed");
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipeFds[0]);
        std::string error;
        if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
            error = "could not become nobody";
        else
            error = errorOf(f);
        (void)!::write(pipeFds[1], error.data(), error.size());
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    std::string error;
    char buffer[4096];
    for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0;)
        error.append(buffer, size_t(n));
    ::close(pipeFds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return error;
}

std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

int shell(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string shellOutput(const std::string& command) {
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return {};
    std::string out;
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        out.append(buffer, n);
    ::pclose(pipe);
    if (!out.empty() && out.back() == '\n')
        out.pop_back();
    return out;
}

std::string readByPythonCsvReaders(const std::string& path) {
    // Debian's python3, which has python3-pandas (resources/install-deps.sh), whatever is on PATH.
    const char* script = "import csv, sys\n"
                         "rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
                         "head = list(rows[0].keys()) if rows else []\n"
                         "print('csv', len(rows), len(head), head[0] if head else '')\n"
                         "import pandas\n"
                         "frame = pandas.read_csv(sys.argv[1])\n"
                         "print('pandas', len(frame), len(frame.columns), frame.columns[0])\n";
    return shellOutput("/usr/bin/python3 -c " + shellQuote(script) + " " + shellQuote(path) + " 2>&1");
}

} // namespace radt::test
