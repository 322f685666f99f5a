// SPDX-License-Identifier: MIT
// Before any Qt header: the collector names a member `emit`, which Qt defines as a macro.
#include "collector/listeners/ListenerTable.h"

#include "widgets/launch/LaunchController.h"

#include "collector/RunValidation.h"

#include "collector/ExperimentCsv.h"
#include "collector/ExperimentRunner.h"
#include "collector/RunRecorder.h"
#include "core/StoreFactory.h"
#include "core/base/TextFormat.h"
#include "core/report/RunJudgement.h"
#include "core/store/Store.h"
#include "core/store/SynchronizedStore.h"

#include <QPointer>

#include <fcntl.h>
#include <filesystem>
#include <ostream>
#include <regex>
#include <streambuf>
#include <unistd.h>

namespace radt {

namespace {

// The experiment runner writes "[RUN <letter>] line" to ostreams: cut them into lines again.
class LineBuffer : public std::streambuf {
public:
    explicit LineBuffer(std::function<void(const std::string&)> line) : m_line(std::move(line)) {}
    ~LineBuffer() override {
        if (!m_text.empty())
            m_line(m_text);
    }

protected:
    int overflow(int c) override {
        if (c == traits_type::eof())
            return 0;
        if (c == '\n') {
            m_line(m_text);
            m_text.clear();
        } else {
            m_text.push_back(char(c));
        }
        return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        for (std::streamsize i = 0; i < n; ++i)
            overflow(static_cast<unsigned char>(s[i]));
        return n;
    }

private:
    std::function<void(const std::string&)> m_line;
    std::string m_text;
};

} // namespace

bool LaunchRequest::isExperimentFile() const {
    return target.size() > 4 && strcasecmp(target.c_str() + target.size() - 4, ".csv") == 0;
}

LaunchController::LaunchController(SampleBus& bus, QObject* parent) : QObject(parent), m_bus(bus) {
    if (::pipe2(m_wakePipe, O_CLOEXEC | O_NONBLOCK) != 0)
        m_wakePipe[0] = m_wakePipe[1] = -1;
}

LaunchController::~LaunchController() {
    stop();
    if (m_thread.joinable())
        m_thread.join();
    for (int fd : m_wakePipe)
        if (fd >= 0)
            ::close(fd);
}

void LaunchController::stop() {
    if (!m_running)
        return;
    m_stop = SIGTERM;
    if (m_wakePipe[1] >= 0) [[maybe_unused]]
        ssize_t n = ::write(m_wakePipe[1], "x", 1);
}

bool LaunchController::start(const std::string& storeUri, LaunchRequest request, QString* error) {
    auto fail = [error](const std::string& why) {
        if (error)
            *error = QString::fromStdString(why);
        return false;
    };
    if (m_running)
        return fail("a workload launched from this window is still running; stop it first");
    if (m_thread.joinable())
        m_thread.join();
    if (request.target.empty())
        return fail("choose a script or an experiment CSV file");
    // Everything that can be refused is checked here, before a thread or a run exists.
    std::optional<ExperimentFile> experiment;
    try {
        if (request.isExperimentFile()) {
            experiment = readExperimentCsv(request.target);
        } else {
            std::error_code ec;
            if (!std::filesystem::is_regular_file(request.target, ec))
                return fail(request.target + ": no such file");
            // The collector's own checks, the same `radt` makes: devices, collocation, limits...
            RunOptions check = request.options;
            check.command = {request.target};
            validateRunOptions(check);
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    request.options.storeUri = storeUri;
    request.options.pythonDir = findPythonModuleDir();
    request.options.command.clear();
    if (!experiment) {
        request.options.command.push_back(request.target);
        request.options.command.insert(request.options.command.end(), request.args.begin(),
                                       request.args.end());
    }
    m_stop = 0;
    char drain[64];
    while (m_wakePipe[0] >= 0 && ::read(m_wakePipe[0], drain, sizeof drain) > 0) {
    }
    m_running = true;
    QPointer<LaunchController> self(this);
    // Signals from the worker thread are queued to the GUI thread by Qt (auto connection).
    auto note = [this](const std::string& text) { emit message(QString::fromStdString(text)); };
    m_thread =
        std::thread([this, note, request = std::move(request), experiment = std::move(experiment)]() mutable {
            int code = 2;
            try {
                // Opened here, not on the GUI thread: a server may take seconds to answer, or none.
                // A store that cannot be opened is said in the console, the launch ends with 2.
                std::unique_ptr<Store> store = openStore(request.options.storeUri, OpenMode::OpenExisting);
                code = experiment ? runExperiment(*store, std::move(*experiment), request, note)
                                  : recordRun(*store, request, note);
            } catch (const std::exception& e) {
                note(e.what());
            }
            m_running = false;
            emit finished(code);
        });
    return true;
}

int LaunchController::runExperiment(Store& store, ExperimentFile experiment, const LaunchRequest& request,
                                    const Note& note) {
    // The runs of a workload are recorded concurrently into one connection.
    SynchronizedStore shared(store);
    static const std::regex prefix(R"(^\[RUN ([^\]]*)\] ?(.*)$)");
    auto lines = [this](bool isStderr) {
        return [this, isStderr](const std::string& line) {
            std::smatch m;
            if (std::regex_match(line, m, prefix))
                emit output(QString::fromStdString(m[1]), isStderr, QString::fromStdString(m[2]));
            else
                emit output(QString(), isStderr, QString::fromStdString(line));
        };
    };
    LineBuffer outBuffer(lines(false)), errBuffer(lines(true));
    std::ostream out(&outBuffer), err(&errBuffer);
    ExperimentOptions options{request.options, request.rerun, false, &m_bus};
    ExperimentRunner runner(shared, std::move(experiment), options, note, out, err);
    return runner.run(m_stop, m_wakePipe[0]);
}

int LaunchController::recordRun(Store& store, LaunchRequest& request, const Note& note) {
    request.options.outputLine = [this](bool isStderr, const std::string& line) {
        emit output(QString(), isStderr, QString::fromStdString(line));
    };
    RunRecorder recorder(store, request.options, note, &m_bus);
    recorder.setWakeFd(m_wakePipe[0]);
    const RunOutcome outcome = recorder.record(m_stop);
    note("run " + outcome.run.uuid + " " + toString(outcome.status) + " after " +
         formatDuration(nowMs() - outcome.run.startTime) + ", " + std::to_string(outcome.samples) +
         " samples written");
    // Against the earlier runs of its configuration, as `radt RUN` says it (and kept on the run).
    if (outcome.status == RunStatus::Finished && outcome.unwritten + outcome.dropped == 0 &&
        !outcome.closePending)
        note(judgeFinishedRun(store, outcome.run, request.options.storeUri));
    return outcome.status == RunStatus::Killed ? 130 : outcome.timeLimitReached ? 0 : outcome.exit.code;
}

} // namespace radt
