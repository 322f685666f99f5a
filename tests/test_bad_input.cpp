// SPDX-License-Identifier: MIT
// The catalogue of bad inputs (resources/doc/bad-input.md): each entry runs the real
// `radt` or `radt-explorer` on one bad input and checks its exit code, a message naming what is
// wrong, and that nothing was half-written (no run created or left RUNNING, no stray files, the
// input file unchanged). One table, one CTest test per entry.

#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <sys/wait.h>

using namespace radt;
using radt::test::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kBin = std::string(RADT_BINARY_DIR) + "/app/";

struct Outcome {
    int rc = -1;
    std::string out, err;
};

/// What a case leaves behind, checked after the program ran in `dir`.
using Check = std::function<void(const TempDir& dir, const Outcome& o)>;

struct BadInput {
    std::string name;
    std::string program;                      ///< "radt" or "radt-explorer"
    std::vector<std::string> args;            ///< "{dir}" is replaced by the case's folder
    std::map<std::string, std::string> files; ///< written into the folder first
    int exitCode;
    std::string message; ///< a substring of stderr
    std::vector<Check> checks;
};

std::string expand(std::string s, const TempDir& dir) {
    for (size_t at; (at = s.find("{dir}")) != std::string::npos;)
        s.replace(at, 5, dir.path());
    return s;
}

Outcome runCase(const BadInput& c, const TempDir& dir) {
    // A private default store and no tracking URIs from the environment: every case is alone.
    std::string cmd = "cd " + test::shellQuote(dir.path()) +
                      " && env -u RADT_TRACKING_URI -u MLFLOW_TRACKING_URI " +
                      "XDG_DATA_HOME=" + test::shellQuote(dir.file("xdg")) + " QT_QPA_PLATFORM=offscreen " +
                      test::shellQuote(kBin + c.program);
    for (const std::string& a : c.args)
        cmd += " " + test::shellQuote(expand(a, dir));
    cmd += " >" + test::shellQuote(dir.file("stdout.txt")) + " 2>" +
           test::shellQuote(dir.file("stderr.txt")) + " </dev/null";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            test::readFile(dir.file("stdout.txt")), test::readFile(dir.file("stderr.txt"))};
}

// ---- what must not be half-written ----

std::vector<Run> runsIn(const TempDir& dir, const std::string& db) {
    if (!fs::exists(dir.file(db)))
        return {};
    return openStore("sqlite:///" + dir.file(db), OpenMode::OpenExisting)->runs();
}

Check noRunIn(const std::string& db) {
    return [db](const TempDir& dir, const Outcome&) {
        EXPECT_TRUE(runsIn(dir, db).empty()) << db << " has runs";
    };
}

Check noRunLeftRunning(const std::string& db) {
    return [db](const TempDir& dir, const Outcome&) {
        for (const Run& r : runsIn(dir, db))
            EXPECT_NE(r.status, RunStatus::Running) << r.uuid << " left RUNNING";
    };
}

Check noFile(const std::string& name) {
    return [name](const TempDir& dir, const Outcome&) { EXPECT_FALSE(fs::exists(dir.file(name))) << name; };
}

Check fileExists(const std::string& name) {
    return [name](const TempDir& dir, const Outcome&) {
        EXPECT_TRUE(fs::is_regular_file(dir.file(name))) << name;
    };
}

Check emptyOrMissingDir(const std::string& name) {
    return [name](const TempDir& dir, const Outcome&) {
        if (fs::exists(dir.file(name))) {
            EXPECT_TRUE(fs::is_empty(dir.file(name))) << name << " holds files of a failed export";
        }
    };
}

Check fileContains(const std::string& name, const std::string& text) {
    return [name, text](const TempDir& dir, const Outcome&) {
        EXPECT_NE(test::readFile(dir.file(name)).find(text), std::string::npos) << name << " lacks " << text;
    };
}

Check unchanged(const std::string& name, const std::string& original) {
    return [name, original](const TempDir& dir, const Outcome&) {
        EXPECT_EQ(test::readFile(dir.file(name)), original) << name << " was changed";
    };
}

Check filesIn(const std::string& name, size_t count) {
    return [name, count](const TempDir& dir, const Outcome&) {
        size_t n = 0;
        for (const auto& e : fs::directory_iterator(dir.file(name)))
            n += e.is_regular_file();
        EXPECT_EQ(n, count) << name;
    };
}

// ---- inputs ----

const std::string kScript = "print('hello')\n";
const std::string kHeader = "Experiment,Workload,Status,Run,Devices,Collocation,File,Listeners,Params\n";
const std::string kLong = std::string(7000, 'a');

std::string csvRow(const std::string& devices, const std::string& collocation, const std::string& file,
                   const std::string& listeners, const std::string& params) {
    return "1,1,,," + devices + "," + collocation + "," + file + "," + listeners + "," + params + "\n";
}

std::string board(const std::string& metric, const std::string& points, int smoothing = 0) {
    return R"([{"id": 1, "metric": ")" + metric +
           R"(", "data": [{"name": "0123456789abcdef0123456789abcdef", "experimentId": "1", "workload": "1-0",
               "letter": "0", "data": [)" +
           points + R"(]}], "context": {"smoothing": )" + std::to_string(smoothing) + "}}]";
}

const std::string kPoints =
    R"({"timestamp": 1000, "value": 1, "step": 0}, {"timestamp": 2000, "value": 2, "step": 1})";
const std::string kMinPoint = R"({"timestamp": -9223372036854775808, "value": 5, "step": 0}, )";

/// ASCII text as UTF-16LE with its byte order mark.
std::string utf16le(const std::string& ascii) {
    std::string out = "\xFF\xFE";
    for (char c : ascii) {
        out += c;
        out += '\0';
    }
    return out;
}

std::string longCsv() {
    return kHeader + csvRow("0", "-", "x.py", "top", "--x " + std::string(6100, 'b'));
}

std::vector<BadInput> catalogue() {
    const std::map<std::string, std::string> script{{"x.py", kScript}};
    const std::string store = "sqlite:///{dir}/s.db";
    auto withScript = [&](std::map<std::string, std::string> more) {
        more["x.py"] = kScript;
        return more;
    };
    return {
        // radt: options
        {"NoCommand", "radt", {}, {}, 2, "no script or command given", {}},
        {"UnknownOption", "radt", {"--bogus", "x.py"}, script, 2, "unrecognized option", {noFile("s.db")}},
        {"IntervalTooShort",
         "radt",
         {"--store", store, "--interval", "0.01", "x.py"},
         script,
         2,
         "--interval must be between 0.1 and 3600",
         {noFile("s.db")}},
        {"IntervalNotANumber",
         "radt",
         {"--interval", "fast", "x.py"},
         script,
         2,
         "--interval expects a number",
         {}},
        {"GraceNegative",
         "radt",
         {"--store", store, "--grace", "-1", "x.py"},
         script,
         2,
         "--grace expects 0 to 3600",
         {noFile("s.db")}},
        {"TimeLimitOverflows",
         "radt",
         {"--store", store, "-t", "2e8", "x.py"},
         script,
         2,
         "--time must be between 0 (no limit) and 525600",
         {noFile("s.db")}},
        {"TimeLimitHuge",
         "radt",
         {"--store", store, "-t", "1e12", "x.py"},
         script,
         2,
         "--time must be between",
         {noFile("s.db")}},
        {"TimeLimitInfinite",
         "radt",
         {"--store", store, "-t", "inf", "x.py"},
         script,
         2,
         "--time must be between",
         {noFile("s.db")}},
        {"TimeLimitNegative",
         "radt",
         {"--store", store, "-t", "-1", "x.py"},
         script,
         2,
         "--time must be between",
         {noFile("s.db")}},
        {"EpochNegative", "radt", {"-i", "-3", "x.py"}, script, 2, "--epoch expects a whole number >= 0", {}},
        {"ListenersEmpty",
         "radt",
         {"--store", store, "-l", "", "x.py"},
         script,
         2,
         "--listeners needs listener names",
         {noFile("s.db")}},
        {"ListenersEmptyName",
         "radt",
         {"--store", store, "-l", "top++proc", "x.py"},
         script,
         2,
         "an empty name between '+' signs",
         {noFile("s.db")}},
        {"ListenerUnknown",
         "radt",
         {"--store", store, "-l", "top+gpu", "x.py"},
         script,
         2,
         "unknown listener 'gpu'",
         {noFile("s.db")}},
        {"DevicesMalformed",
         "radt",
         {"--store", store, "-d", "0++1", "x.py"},
         script,
         2,
         "devices expects GPU indexes like 0 or 0+1, got '0++1'",
         {noFile("s.db")}},
        {"DevicesNotNumbers",
         "radt",
         {"--store", store, "-d", "gpu0", "x.py"},
         script,
         2,
         "got 'gpu0'",
         {noFile("s.db")}},
        {"CollocationUnknown",
         "radt",
         {"--store", store, "-c", "9x.bad", "x.py"},
         script,
         2,
         "collocation expects -, MPS or a MIG profile",
         {noFile("s.db")}},
        {"StoreEmptyString",
         "radt",
         {"--store", "", "x.py"},
         script,
         2,
         "--store needs a store URI or path",
         {noFile("xdg/radt/radt.db")}},
        {"LsStoreEmptyString",
         "radt",
         {"ls", "--store", ""},
         script,
         2,
         "--store needs a store URI or path",
         {noFile("xdg/radt/radt.db")}},
        {"StoreDirectoryMissing",
         "radt",
         {"--store", "sqlite:///{dir}/nowhere/s.db", "x.py"},
         script,
         2,
         "does not exist",
         {noFile("nowhere")}},
        {"StoreIsADirectory",
         "radt",
         {"--store", "{dir}/xdg", "x.py"},
         withScript({{"xdg/keep", ""}}),
         2,
         "is a directory, not a SQLite file",
         {}},
        {"StoreNotSqlite",
         "radt",
         {"--store", "{dir}/notes.db", "x.py"},
         withScript({{"notes.db", "just text\n"}}),
         2,
         "is not a SQLite database",
         {unchanged("notes.db", "just text\n")}},
        {"ScriptMissing",
         "radt",
         {"--store", store, "nope.py"},
         {},
         2,
         "script not found: nope.py",
         {noRunIn("s.db")}},
        {"ProgramMissing",
         "radt",
         {"--store", store, "no-such-program-radt"},
         {},
         2,
         "cannot run 'no-such-program-radt'",
         {noRunIn("s.db")}},
        {"ParamTooLong",
         "radt",
         {"--store", store, "--no-env-capture", "x.py", "--x", kLong},
         script,
         2,
         "MLflow allows at most 6000; no run was started",
         {noRunIn("s.db")}},
        {"ExperimentIdMissing",
         "radt",
         {"--store", store, "-e", "99", "x.py"},
         script,
         2,
         "experiment id 99 does not exist",
         {noRunIn("s.db")}},
        {"DryRunOfAScript",
         "radt",
         {"--dry-run", "x.py"},
         script,
         2,
         "--dry-run is for experiment CSV files",
         {}},
        // radt ls / store
        {"LsMissingStore",
         "radt",
         {"ls", "--store", "{dir}/nope.db"},
         {},
         2,
         "no such file",
         {noFile("nope.db")}},
        {"LsExtraArgument", "radt", {"ls", "extra"}, {}, 2, "unexpected argument 'extra'", {}},
        // a search expression is read before the store is opened: the typo names its column, no file is made
        {"LsBadFilter",
         "radt",
         {"ls", "--store", "{dir}/nope.db", "--filter", "params.lr < '1'"},
         {},
         2,
         "--filter: column 11: < does not compare text",
         {noFile("nope.db")}},
        {"LsEmptySqlite",
         "radt",
         {"ls", "--store", "{dir}/empty.db"},
         {{"empty.db", ""}},
         2,
         "is an empty SQLite database, not an MLflow tracking store",
         {unchanged("empty.db", "")}},
        {"StoreCopyMissingDestination",
         "radt",
         {"store", "copy", "{dir}/a.db"},
         {},
         2,
         "usage: radt store copy",
         {}},
        // experiment CSV files
        {"CsvUnknownColumn",
         "radt",
         {"--store", store, "e.csv"},
         {{"e.csv", kHeader.substr(0, kHeader.size() - 1) + ",Colour\n" + "1,1,,,0,-,x.py,top,,red\n"},
          {"x.py", kScript}},
         2,
         "e.csv:1:10: unknown header column 'Colour'",
         {noFile("s.db")}},
        {"CsvBadCollocation",
         "radt",
         {"--store", store, "e.csv"},
         {{"e.csv", kHeader + csvRow("0", "2x.5gb", "x.py", "top", "")}, {"x.py", kScript}},
         2,
         "unknown Collocation '2x.5gb'",
         {noFile("s.db")}},
        {"CsvMissingScript",
         "radt",
         {"--store", store, "e.csv"},
         {{"e.csv", kHeader + csvRow("0", "-", "gone.py", "top", "")}},
         2,
         "gone.py",
         {noFile("s.db")}},
        {"CsvUnknownListener",
         "radt",
         {"--store", store, "e.csv"},
         {{"e.csv", kHeader + csvRow("0", "-", "x.py", "top+gpu", "")}, {"x.py", kScript}},
         2,
         "unknown listener 'gpu'",
         {noFile("s.db")}},
        {"CsvBadWorkload",
         "radt",
         {"--store", store, "e.csv"},
         {{"e.csv", kHeader + "1,one,,,0,-,x.py,top,\n"}, {"x.py", kScript}},
         2,
         "Workload 'one' is not a whole number",
         {noFile("s.db")}},
        {"CsvUnbalancedQuote",
         "radt",
         {"--store", store, "e.csv"},
         {{"e.csv", kHeader + "1,1,,,0,-,x.py,top,\"--x 1\n"}, {"x.py", kScript}},
         2,
         "e.csv",
         {noFile("s.db")}},
        {"CsvExtraArgument",
         "radt",
         {"--store", store, "e.csv", "more"},
         {{"e.csv", kHeader}},
         2,
         "takes no further arguments",
         {noFile("s.db")}},
        {"CsvLongParamsDryRun",
         "radt",
         {"--dry-run", "e.csv"},
         withScript({{"e.csv", longCsv()}}),
         2,
         "some runs would be refused",
         {unchanged("e.csv", longCsv())}},
        {"CsvLongParamsRun",
         "radt",
         {"--store", store, "--no-env-capture", "e.csv"},
         withScript({{"e.csv", longCsv() + "1,2,,,0,-,x.py,top,--y 1\n"}}),
         1,
         "run 0 could not start: param 'params' value is 6104 characters",
         {noRunLeftRunning("s.db"), fileContains("e.csv", "1,1,FAILED (not started) (0),,"),
          fileContains("e.csv", "1,2,FINISHED (2 0) x.py (0),")}},
        // the metrics channel
        {"ChannelGarbageLines",
         "radt",
         {"--store", store, "--no-env-capture", "garbage.py"},
         {{"garbage.py", "import os\nfd = int(os.environ['RADT_METRICS_FD'])\n"
                         "os.write(fd, b'not json\\n{\"metric\": 1}\\n\\xff\\xfe\\n')\n"
                         "os.write(fd, b'{\"metric\": \"loss\", \"value\": 0.5, \"step\": 1}\\n')\n"}},
         0,
         "3 malformed line(s) on RADT_METRICS_FD ignored",
         {noRunLeftRunning("s.db")}},
        // boards in the explorer
        {"BoardMinTimestampExport",
         "radt-explorer",
         {"--export", "{dir}/out", "b.json"},
         {{"b.json", board("loss", kMinPoint + kPoints, 50)}},
         0,
         "",
         {filesIn("out", 6)}},
        {"BoardMinTimestampScreenshot",
         "radt-explorer",
         {"b.json", "--screenshot", "{dir}/shot.png"},
         {{"b.json", board("loss", kMinPoint + kPoints, 50)}},
         0,
         "",
         {fileExists("shot.png")}},
        {"BoardNotJson",
         "radt-explorer",
         {"--export", "{dir}/out", "b.json"},
         {{"b.json", "not json"}},
         1,
         "b.json",
         {emptyOrMissingDir("out")}},
        // Saved by a Windows editor or PowerShell's redirection: UTF-16 with its byte order mark.
        {"BoardUtf16",
         "radt-explorer",
         {"--export", "{dir}/out", "b.json"},
         {{"b.json", utf16le(board("loss", kPoints))}},
         1,
         "b.json: the file is UTF-16 text; a board is JSON in UTF-8",
         {emptyOrMissingDir("out")}},
        {"BoardUtf8WithBom",
         "radt-explorer",
         {"--export", "{dir}/out", "b.json"},
         {{"b.json", "\xEF\xBB\xBF" + board("loss", kPoints)}},
         0,
         "",
         {filesIn("out", 6)}},
        {"BoardMissing",
         "radt-explorer",
         {"--export", "{dir}/out", "{dir}/nope.json"},
         {},
         1,
         "nope.json",
         {emptyOrMissingDir("out")}},
        {"BoardFormatEmpty",
         "radt-explorer",
         {"--export", "{dir}/out", "--format", "", "b.json"},
         {{"b.json", board("loss", kPoints)}},
         2,
         "--format needs",
         {emptyOrMissingDir("out")}},
        {"BoardFormatUnknown",
         "radt-explorer",
         {"--export", "{dir}/out", "--format", "png,gif", "b.json"},
         {{"b.json", board("loss", kPoints)}},
         1,
         "unknown export format 'gif'",
         {emptyOrMissingDir("out")}},
        {"BoardLongMetricName",
         "radt-explorer",
         {"--export", "{dir}/out", "b.json"},
         {{"b.json", board(std::string(250, 'm'), kPoints)}},
         0,
         "",
         {filesIn("out", 6)}},
        // Laid out one character at a time by QtCharts, this took 9.8 GB and 76 s before.
        {"BoardHugeMetricName",
         "radt-explorer",
         {"--export", "{dir}/out", "b.json"},
         {{"b.json", board(std::string(100000, 'm'), kPoints)}},
         0,
         "",
         {filesIn("out", 6)}},
        {"BoardTwoFiles",
         "radt-explorer",
         {"--export", "{dir}/out", "a.json", "b.json"},
         {},
         2,
         "--export needs exactly one board file",
         {emptyOrMissingDir("out")}},
        {"FormatWithoutExport",
         "radt-explorer",
         {"--format", "png", "--screenshot", "{dir}/x.png"},
         {},
         2,
         "--format goes with --export",
         {noFile("x.png")}},
    };
}

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

// gtest prints a failing case's parameter: its name, not its bytes.
void PrintTo(const BadInput& c, std::ostream* os) {
    *os << c.program << " case " << c.name;
}

} // namespace

TEST_P(BadInputTest, GetsAClearMessageAndLeavesNothingHalfWritten) {
    const BadInput& c = GetParam();
    TempDir dir;
    for (const auto& [name, text] : c.files) {
        fs::create_directories(fs::path(dir.file(name)).parent_path());
        test::writeFile(dir.file(name), text);
    }
    const Outcome o = runCase(c, dir);
    EXPECT_EQ(o.rc, c.exitCode) << "stderr: " << o.err;
    EXPECT_NE(o.err.find(c.message), std::string::npos)
        << "expected '" << c.message << "' in stderr: " << o.err;
    EXPECT_EQ(o.err.find("terminate called"), std::string::npos) << o.err;
    for (const Check& check : c.checks)
        check(dir, o);
}

INSTANTIATE_TEST_SUITE_P(Catalogue, BadInputTest, ::testing::ValuesIn(catalogue()),
                         [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });
