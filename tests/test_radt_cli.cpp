// SPDX-License-Identifier: MIT
// End to end: the real `radt` binary runs the real demo workload into a temporary store.

#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sqlite3.h>
#include <sstream>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>

using namespace radt;
using radt::test::TempDir;

namespace {

const std::string kRadt = std::string(RADT_BINARY_DIR) + "/app/radt";
const std::string kDemo = std::string(RADT_SOURCE_DIR) + "/resources/examples/demo_train.py";

struct Result {
    int rc = -1;
    std::string out;
    std::string err;
};

/// radt with `environment` ("NAME=value" each) added to the test's own.
Result radtRun(const TempDir& dir, const std::vector<std::string>& args,
               const std::vector<std::string>& environment = {}) {
    std::string cmd = "env";
    for (const auto& e : environment)
        cmd += " " + test::shellQuote(e);
    cmd += " " + test::shellQuote(kRadt);
    for (const auto& a : args)
        cmd += " " + test::shellQuote(a);
    cmd += " >" + test::shellQuote(dir.file("stdout")) + " 2>" + test::shellQuote(dir.file("stderr")) +
           " </dev/null";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::readFile(dir.file("stdout")),
            test::readFile(dir.file("stderr"))};
}

std::string storeUri(const TempDir& dir) {
    return "sqlite:///" + dir.file("e2e.db");
}

} // namespace

TEST(RadtCli, RecordsTheDemoWorkloadEndToEnd) {
    TempDir dir;
    const Result r = radtRun(dir, {"--store", storeUri(dir), "--interval", "0.2", "-e", "demo", kDemo,
                                   "--epochs", "4", "--data-size", "6000", "--batch-size", "64"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_NE(r.out.find("epoch 4/4"), std::string::npos) << "workload stdout is passed through";
    EXPECT_NE(r.err.find("FINISHED"), std::string::npos) << r.err;
    // Regression: the start line named no workload ("workload )").
    EXPECT_NE(r.err.find("(experiment 1, workload 0) into"), std::string::npos) << r.err;

    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    const radt::Run& run = runs[0];
    EXPECT_EQ(run.status, RunStatus::Finished);
    ASSERT_TRUE(run.endTime);
    EXPECT_EQ(store->experiments().at(1).name, "demo");
    EXPECT_EQ(run.experimentId, store->experiments().at(1).id);
    EXPECT_EQ(run.workload(), "0");
    EXPECT_EQ(run.letter(), "0");
    EXPECT_EQ(run.model(), kDemo);
    EXPECT_EQ(run.param("params"), "--epochs 4 --data-size 6000 --batch-size 64");
    EXPECT_EQ(run.param("epochs"), "4");
    EXPECT_EQ(run.param("batch-size"), "64");
    EXPECT_EQ(run.data(), "6000"); // the first flag whose name contains "data"
    EXPECT_EQ(run.param("listeners"), "top+proc");
    EXPECT_EQ(run.name, "(0 0) demo_train.py");

    const std::string log = test::readFile(run.artifactUri + "/output.log");
    EXPECT_NE(log.find("epoch 1/4"), std::string::npos) << "log artifact at " << run.artifactUri;

    const Series cpu = store->series(run.uuid, "PROC - CPU Utilization");
    ASSERT_FALSE(cpu.empty());
    double peak = 0;
    for (double v : cpu.v)
        peak = std::max(peak, v);
    EXPECT_GT(peak, 10.0) << "the demo keeps a core busy";
    EXPECT_FALSE(store->series(run.uuid, "TOP - CPU Utilization").empty());
    EXPECT_FALSE(store->series(run.uuid, "PROC - RSS MB").empty());
    EXPECT_FALSE(store->series(run.uuid, "TOP - Memory Usage GB").empty());

    // radt ls --json: the documented, stable shape.
    const Result ls = radtRun(dir, {"ls", "--store", storeUri(dir), "--json"});
    ASSERT_EQ(ls.rc, 0) << ls.err;
    const auto json = nlohmann::json::parse(ls.out);
    EXPECT_EQ(json["store"], storeUri(dir));
    ASSERT_EQ(json["experiments"].size(), 2u);
    const auto& exp = json["experiments"][1];
    EXPECT_EQ(exp["name"], "demo");
    ASSERT_EQ(exp["workloads"].size(), 1u);
    EXPECT_EQ(exp["workloads"][0]["id"], "0");
    const auto& jrun = exp["workloads"][0]["runs"][0];
    EXPECT_EQ(jrun["run_uuid"], run.uuid);
    EXPECT_EQ(jrun["status"], "FINISHED");
    EXPECT_EQ(jrun["letter"], "0");
    EXPECT_EQ(jrun["start_time"], run.startTime);
    EXPECT_EQ(jrun["end_time"], *run.endTime);
    EXPECT_EQ(jrun["params"]["epochs"], "4");
    EXPECT_TRUE(jrun["latest_metrics"]["PROC - CPU Utilization"].is_number());

    const Result text = radtRun(dir, {"ls", "--store", storeUri(dir)});
    ASSERT_EQ(text.rc, 0);
    EXPECT_NE(text.out.find("experiment 1 \"demo\""), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(run.uuid), std::string::npos);
}

TEST(RadtCli, FailingWorkloadIsRecordedFailedWithItsExitCode) {
    TempDir dir;
    test::writeFile(dir.file("fail.py"), "import sys\nprint('about to fail')\nsys.exit(3)\n");
    const Result r = radtRun(dir, {"--store", storeUri(dir), "-w", "7", dir.file("fail.py")});
    EXPECT_EQ(r.rc, 3);
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].status, RunStatus::Failed);
    EXPECT_EQ(runs[0].workload(), "7");
    EXPECT_NE(test::readFile(runs[0].artifactUri + "/output.log").find("about to fail"), std::string::npos);
}

TEST(RadtCli, ARunThroughAnInterpreterIsNamedAfterItsScript) {
    // Regression: two runs recorded as `radt python3 x.py` were both named "(1 0) python3".
    TempDir dir;
    test::writeFile(dir.file("train_a.py"), "print('a')\n");
    const Result r = radtRun(dir, {"--store", storeUri(dir), "--no-env-capture", "-w", "1", "python3", "-u",
                                   dir.file("train_a.py")});
    ASSERT_EQ(r.rc, 0) << r.err;
    const Result plain = radtRun(dir, {"--store", storeUri(dir), "--no-env-capture", "-w", "2", "true"});
    ASSERT_EQ(plain.rc, 0) << plain.err;
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    std::set<std::string> names;
    for (const radt::Run& run : store->runs())
        names.insert(run.name);
    EXPECT_EQ(names, (std::set<std::string>{"(1 0) train_a.py", "(2 0) true"}));
}

TEST(RadtCli, SigtermStopsTheWorkloadAndClosesTheRunKilled) {
    TempDir dir;
    // The workload writes its pid, then sleeps; radt must terminate it when radt is told to stop.
    test::writeFile(
        dir.file("sleepy.py"),
        "import os, time\nopen(os.environ['PIDFILE'], 'w').write(str(os.getpid()))\ntime.sleep(60)\n");
    setenv("PIDFILE", dir.file("pid").c_str(), 1);
    const std::string uri = storeUri(dir);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execl(kRadt.c_str(), "radt", "--store", uri.c_str(), "--interval", "0.2",
              dir.file("sleepy.py").c_str(), nullptr);
        _exit(127);
    }
    std::string childPid;
    for (int i = 0; i < 100 && childPid.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        childPid = test::readFile(dir.file("pid"));
    }
    ASSERT_FALSE(childPid.empty()) << "workload did not start";
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    unsetenv("PIDFILE");
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
    EXPECT_NE(kill(std::stoi(childPid), 0), 0) << "the workload process must be gone";

    auto store = openStore(uri, OpenMode::OpenExisting);
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].status, RunStatus::Killed);
    EXPECT_TRUE(runs[0].endTime);
    EXPECT_FALSE(store->series(runs[0].uuid, "PROC - RSS MB").empty())
        << "samples taken before the stop are kept";
}

TEST(RadtCli, BadInvocationsFailClearlyAndCreateNoRun) {
    TempDir dir;
    const std::string uri = storeUri(dir);
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"--store", uri, dir.file("missing.py")}, "script not found: " + dir.file("missing.py")},
        {{"--store", uri, "no-such-program-xyz"}, "cannot run 'no-such-program-xyz'"},
        {{"--store", uri, "-l", "top+gpuz", kDemo}, "unknown listener 'gpuz'"},
        {{"--store", uri, "-d", "zero", kDemo}, "devices expects"},
        {{"--store", uri, "--interval", "0.01", kDemo}, "--interval must be between"},
        {{"--store", uri, "-e", "42", kDemo}, "experiment id 42 does not exist"},
        {{"--store", uri}, "no script or command given"},
        {{"--store", "mysql://u@h/db", kDemo}, "unsupported scheme 'mysql'"},
        {{"--store", "postgresql://u:hunter2@no-such-host.invalid/db", kDemo},
         "cannot connect to postgresql://u:***@no-such-host.invalid/db"},
    };
    for (const Case& c : cases) {
        const Result r = radtRun(dir, c.args);
        EXPECT_EQ(r.rc, 2) << c.message << ": " << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << "expected '" << c.message << "' in: " << r.err;
        EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << "password printed: " << r.err;
        EXPECT_TRUE(r.out.empty()) << "errors go to stderr: " << r.out;
    }
    if (std::filesystem::exists(dir.file("e2e.db"))) {
        auto store = openStore(uri, OpenMode::OpenExisting);
        EXPECT_TRUE(store->runs().empty());
    }
    const Result ls = radtRun(dir, {"ls", "--store", "sqlite:///" + dir.file("absent.db")});
    EXPECT_EQ(ls.rc, 2);
    EXPECT_NE(ls.err.find("no such file"), std::string::npos) << ls.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("absent.db")));
}

TEST(RadtCli, HelpListsTheOptions) {
    TempDir dir;
    const Result r = radtRun(dir, {"--help"});
    EXPECT_EQ(r.rc, 0);
    for (const char* option : {"--store", "--experiment", "--workload", "--listeners", "radt ls"})
        EXPECT_NE(r.out.find(option), std::string::npos) << option;
    // Each command has its own help, generated from the same definition that parses it.
    const Result report = radtRun(dir, {"report", "--help"});
    EXPECT_EQ(report.rc, 0);
    for (const char* option : {"--baseline", "--repeat-param", "--stall-gpu-below", "TARGET"})
        EXPECT_NE(report.out.find(option), std::string::npos) << option << "\n" << report.out;
    const Result compact = radtRun(dir, {"store", "compact", "--help"});
    EXPECT_EQ(compact.rc, 0);
    EXPECT_NE(compact.out.find("--tolerance"), std::string::npos) << compact.out;
    // Each ends with its own exit statuses, never the recorder's footer (experiment files, Ctrl-C,
    // "the workload's exit status"), which said nothing true of them.
    EXPECT_NE(r.out.find("Exit status: the workload's exit status"), std::string::npos) << r.out;
    for (const std::vector<std::string>& command : {std::vector<std::string>{"ls", "--help"},
                                                    {"report", "--help"},
                                                    {"run", "--help"},
                                                    {"run", "rename", "--help"},
                                                    {"experiment", "delete", "--help"},
                                                    {"store", "copy", "--help"},
                                                    {"store", "archive", "--help"}}) {
        const Result help = radtRun(dir, command);
        EXPECT_EQ(help.rc, 0) << command[0];
        EXPECT_EQ(help.out.find("Ctrl-C"), std::string::npos) << help.out;
        EXPECT_EQ(help.out.find("An experiment file"), std::string::npos) << help.out;
        EXPECT_EQ(help.out.find("workload's exit status"), std::string::npos) << help.out;
        EXPECT_NE(help.out.find("Exit status: 0 when"), std::string::npos) << help.out;
    }
    const Result archive = radtRun(dir, {"store", "archive", "--help"});
    EXPECT_NE(archive.out.find("1 when any run was left in the store"), std::string::npos) << archive.out;
}

// The command line as getopt read it before CLI11: radt's options end at the script
// (its own flags, --help included, are the script's) or at "--"; an option given twice counts once,
// the last; a short option's value may be attached.
TEST(RadtCli, TheScriptsOwnFlagsAreItsAndOptionsEndAtTheScriptOrAtDashDash) {
    TempDir dir;
    test::writeFile(dir.file("args.py"), "import sys\nprint('args', sys.argv[1:])\n");
    const Result own = radtRun(dir, {"--store", storeUri(dir), "--no-env-capture", "-ltop", "-e", "first",
                                     "-e", "second", dir.file("args.py"), "--help", "-e", "3"});
    EXPECT_EQ(own.rc, 0) << own.err;
    EXPECT_NE(own.out.find("args ['--help', '-e', '3']"), std::string::npos) << own.out;
    const Result dashes =
        radtRun(dir, {"--store=" + storeUri(dir), "--no-env-capture", "--", dir.file("args.py"), "x"});
    EXPECT_EQ(dashes.rc, 0) << dashes.err;
    EXPECT_NE(dashes.out.find("args ['x']"), std::string::npos) << dashes.out;
    auto store = openStore(storeUri(dir), OpenMode::OpenExisting);
    std::set<std::string> experiments;
    for (const Experiment& e : store->experiments())
        experiments.insert(e.name);
    EXPECT_TRUE(experiments.count("second")) << "the last -e counts";
    EXPECT_FALSE(experiments.count("first"));
}

TEST(RadtCli, ADeletedExperimentIsNamedDeletedByIdAsByName) {
    // Regression: by id the message said "does not exist", by name it said "is deleted".
    TempDir dir;
    const std::string db = dir.file("s.db");
    {
        auto store = openStore("sqlite:///" + db, OpenMode::CreateIfMissing);
        EXPECT_EQ(store->getOrCreateExperiment("gone"), 1);
    }
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "UPDATE experiments SET lifecycle_stage = 'deleted' WHERE experiment_id = 1",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(raw);
    for (const char* experiment : {"1", "gone"}) {
        const Result r = radtRun(dir, {"--store", db, "-e", experiment, "true"});
        EXPECT_EQ(r.rc, 2) << r.err;
        EXPECT_NE(r.err.find("is deleted"), std::string::npos) << experiment << ": " << r.err;
        EXPECT_NE(r.err.find("gone"), std::string::npos) << r.err;
    }
    EXPECT_TRUE(openStore("sqlite:///" + db, OpenMode::OpenExisting)->runs().empty());
}

// radt ls --filter: MLflow's search syntax, found by the store; only the experiments with a match,
// the filter said in the text and the JSON; a bad expression shown with a caret where it broke.
TEST(RadtCli, LsFilterListsOnlyTheRunsTheExpressionFinds) {
    TempDir dir;
    const std::string db = dir.file("s.db");
    {
        auto store = openStore("sqlite:///" + db, OpenMode::CreateIfMissing);
        const int64_t sweep = store->getOrCreateExperiment("sweep");
        const int64_t other = store->getOrCreateExperiment("other");
        for (const auto& [experiment, batch, accuracy] :
             {std::tuple{sweep, "64", 0.91}, std::tuple{sweep, "128", 0.89}, std::tuple{other, "64", 0.5}}) {
            const radt::Run run =
                store->createRun({experiment, "bs" + std::string(batch), 1000, "u", "t.py"});
            store->logParams(run.uuid, {{"batch-size", batch}});
            store->logMetrics(run.uuid, {{"accuracy", accuracy, 1000, 0}});
            store->setRunStatus(run.uuid, RunStatus::Finished, 2000);
        }
    }
    Result r = radtRun(
        dir, {"ls", "--store", db, "--filter", "params.`batch-size` = '64' and metrics.accuracy > 0.9"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_NE(r.out.find("1 run matches params.`batch-size` = '64' and metrics.accuracy > 0.9"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("bs64"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("bs128"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\"other\""), std::string::npos) << "no experiment without a match: " << r.out;
    r = radtRun(dir, {"ls", "--store", db, "--json", "--filter", "params.`batch-size` = '64'"});
    ASSERT_EQ(r.rc, 0) << r.err;
    const nlohmann::json listing = nlohmann::json::parse(r.out);
    EXPECT_EQ(listing["filter"], "params.`batch-size` = '64'");
    ASSERT_EQ(listing["experiments"].size(), 2u) << "64 in both experiments";
    for (const nlohmann::json& e : listing["experiments"])
        EXPECT_EQ(e["workloads"][0]["runs"].size(), 1u) << e.dump();
    r = radtRun(dir, {"ls", "--store", db, "--filter", "params.batch-size = '64'"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("radt: --filter: column 8: a key with a dash or a space is quoted"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("\n  params.batch-size = '64'\n         ^"), std::string::npos) << r.err;
}

TEST(RadtCli, AStoreInAReadOnlyFolderCanStillBeListed) {
    // Regression: a WAL store in a folder the user cannot write failed with "attempt to write a
    // readonly database". As root (CI) the check runs as nobody, for whom permissions apply.
    TempDir dir;
    const std::string folder = dir.file("ro");
    std::filesystem::create_directories(folder);
    const Result recorded = radtRun(dir, {"--store", folder + "/s.db", "--no-env-capture", "true"});
    ASSERT_EQ(recorded.rc, 0) << recorded.err;
    namespace fs = std::filesystem;
    fs::permissions(dir.path(), fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read |
                                fs::perms::others_exec | fs::perms::group_read | fs::perms::group_exec);
    fs::permissions(folder + "/s.db", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    const std::string asUser = ::geteuid() == 0 ? "runuser -u nobody -- " : "";
    const std::string cmd = asUser + test::shellQuote(kRadt) + " ls --store " +
                            test::shellQuote(folder + "/s.db") + " >" + test::shellQuote(dir.file("ls.out")) +
                            " 2>" + test::shellQuote(dir.file("ls.err"));
    const int status = std::system(cmd.c_str());
    EXPECT_EQ(WEXITSTATUS(status), 0) << test::readFile(dir.file("ls.err"));
    EXPECT_NE(test::readFile(dir.file("ls.out")).find("FINISHED"), std::string::npos)
        << test::readFile(dir.file("ls.out")) << test::readFile(dir.file("ls.err"));
    EXPECT_EQ(test::readFile(dir.file("ls.err")).find("added the index"), std::string::npos)
        << "never on a read-only file";
    fs::permissions(folder, fs::perms::owner_all, fs::perm_options::add);
}

TEST(RadtCli, ATruncatedStoreIsNamedInTheError) {
    TempDir dir;
    const std::string full = test::readFixture("mlflow/mlflow_empty_c9d4e5f6a7b8.db");
    test::writeFile(dir.file("cut.db"), full.substr(0, 20000));
    const Result r = radtRun(dir, {"ls", "--store", dir.file("cut.db")});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("malformed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(dir.file("cut.db")), std::string::npos) << "the message names the file: " << r.err;
}

TEST(RadtCli, OpeningAStoreAnotherToolMadeSaysOnceThatItAddedTheReadIndexAndReadOnlyWritesNothing) {
    // Regression: a read-only look (radt ls, the explorer) changed a store another tool owns.
    TempDir dir;
    const std::string db = dir.file("mlflow.db");
    std::filesystem::copy_file(test::fixturePath("mlflow/mlflow_empty_c9d4e5f6a7b8.db"), db);
    std::filesystem::permissions(db, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    const std::string before = test::readFile(db);
    const Result readOnly = radtRun(dir, {"ls", "--store", db, "--read-only"});
    EXPECT_EQ(readOnly.rc, 0) << readOnly.err;
    EXPECT_NE(readOnly.out.find("experiment 0 \"Default\""), std::string::npos) << readOnly.out;
    EXPECT_EQ(readOnly.err, "");
    EXPECT_EQ(test::readFile(db), before) << "--read-only wrote to the store";
    EXPECT_FALSE(std::filesystem::exists(db + "-wal"));

    const Result first = radtRun(dir, {"ls", "--store", db});
    EXPECT_EQ(first.rc, 0) << first.err;
    EXPECT_NE(first.err.find("added the index radt_metrics_run_key_time to " + db), std::string::npos)
        << first.err;
    const Result second = radtRun(dir, {"ls", "--store", db});
    EXPECT_EQ(second.err.find("added the index"), std::string::npos) << "said once: " << second.err;
}

// `radt --store X ls` listed (and created) the default store, and `radt --store X run delete RUN`
// acted on another store than the one named: the options before a subcommand were the
// recording's. --store now goes to the subcommand; any other recording option there is refused.
TEST(RadtCli, AStoreNamedBeforeTheSubcommandIsTheOneItActsOn) {
    TempDir dir;
    const std::string named = dir.file("named.db");
    std::string uuid;
    {
        auto store = openStore("sqlite:///" + named, OpenMode::CreateIfMissing);
        NewRun spec;
        spec.experimentId = store->getOrCreateExperiment("beforehand");
        spec.name = "the-named-stores-run";
        spec.status = RunStatus::Finished;
        uuid = store->createRun(spec).uuid;
    }
    // The default store would be under XDG_DATA_HOME: it must never be made.
    const std::string home = dir.file("data");
    auto radtHere = [&](const std::vector<std::string>& args) {
        std::vector<std::string> all = {"env", "XDG_DATA_HOME=" + home, kRadt};
        all.insert(all.end(), args.begin(), args.end());
        std::string cmd;
        for (const auto& a : all)
            cmd += test::shellQuote(a) + " ";
        cmd += ">" + test::shellQuote(dir.file("stdout")) + " 2>" + test::shellQuote(dir.file("stderr")) +
               " </dev/null";
        const int status = std::system(cmd.c_str());
        return Result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::readFile(dir.file("stdout")),
                      test::readFile(dir.file("stderr"))};
    };
    Result r = radtHere({"--store", named, "ls"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_NE(r.out.find("beforehand"), std::string::npos) << r.out;
    r = radtHere({"--store", named, "run", "delete", uuid});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_TRUE(openStore("sqlite:///" + named, OpenMode::OpenExisting)->runs().empty())
        << "the run of the store named before the subcommand is deleted";

    r = radtHere({"--store", named, "ls", "--store", named});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("--store given both before and after 'radt ls'"), std::string::npos) << r.err;
    r = radtHere({"--interval", "2", "--store", named, "ls"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("'--interval' is an option of recording a run, not of 'radt ls'"), std::string::npos)
        << r.err;
    r = radtHere({"--store", "", "ls"});
    EXPECT_EQ(r.rc, 2) << r.err;
    EXPECT_FALSE(std::filesystem::exists(home)) << "no default store was made";
}

// libpq and the ~25 libraries behind it are loaded only for a postgresql:// store, from radt's
// PostgreSQL module (core/store/postgres/PostgresBackend.h): a SQLite run never maps them, and a
// module that is missing, not a library or not radt's is a store error that names it.
TEST(RadtCli, ASqliteRunNeverLoadsLibpqAndAPostgresStoreLoadsTheModuleOrSaysWhyNot) {
    TempDir dir;
    // The workload prints its parent's mappings: radt's own, while it records into SQLite.
    const Result sqlite =
        radtRun(dir, {"--store", storeUri(dir), "--no-env-capture", "sh", "-c", "cat /proc/$PPID/maps"});
    ASSERT_EQ(sqlite.rc, 0) << sqlite.err;
    EXPECT_NE(sqlite.out.find("libsqlite3"), std::string::npos) << sqlite.out;
    EXPECT_EQ(sqlite.out.find("libpq"), std::string::npos) << "a SQLite run loaded libpq:\n" << sqlite.out;
    EXPECT_EQ(sqlite.out.find("radt-postgres.so"), std::string::npos) << sqlite.out;

    const std::string uri = "postgresql://nobody@127.0.0.1:1/none"; // refused at once: libpq's answer
    const Result reached = radtRun(dir, {"ls", "--store", uri});
    EXPECT_EQ(reached.rc, 2);
    EXPECT_NE(reached.err.find("cannot connect to " + uri), std::string::npos)
        << "the module in the build tree was not reached: " << reached.err;

    std::string sqliteLibrary; // a real shared library that is not radt's module
    for (std::istringstream maps(test::readFile("/proc/self/maps")); std::getline(maps, sqliteLibrary);)
        if (sqliteLibrary.find("libsqlite3") != std::string::npos)
            break;
    sqliteLibrary = sqliteLibrary.substr(sqliteLibrary.find('/'));
    test::writeFile(dir.file("text.so"), "not a library\n");
    struct Case {
        std::string module, message;
    };
    const std::vector<Case> cases = {
        {dir.file("absent.so"),
         "PostgreSQL stores need radt's PostgreSQL module (radt-postgres.so), which is "
         "not at " +
             dir.file("absent.so") + "; set RADT_POSTGRES_MODULE"},
        {dir.file("text.so"), dir.file("text.so") + " cannot be loaded: "},
        {sqliteLibrary, sqliteLibrary + " is not radt's PostgreSQL module (it has no radt_postgres_backend)"},
    };
    for (const Case& c : cases) {
        const Result r = radtRun(dir, {"ls", "--store", uri}, {"RADT_POSTGRES_MODULE=" + c.module});
        EXPECT_EQ(r.rc, 2) << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << "expected '" << c.message << "' in: " << r.err;
        EXPECT_EQ(r.err.find("cannot connect"), std::string::npos) << r.err;
    }
    // A run into such a store fails before its workload starts, and leaves nothing behind.
    const Result run = radtRun(dir, {"--store", uri, "--no-env-capture", "touch", dir.file("ran")},
                               {"RADT_POSTGRES_MODULE=" + dir.file("absent.so")});
    EXPECT_EQ(run.rc, 2) << run.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("ran")));
}
