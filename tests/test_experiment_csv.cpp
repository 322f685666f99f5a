// SPDX-License-Identifier: MIT
// radT's experiment CSV (resources/DESIGN.md §6): reading, validation with line/column, atomic write-back,
// letters; then the fake MIG/MPS/profiler tools the experiment runner is tested against.

#include "TempDir.h"
#include "collector/ExperimentCsv.h"
#include "collector/GpuPartitioning.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace radt;
using radt::test::readFile;
using radt::test::TempDir;
using radt::test::writeFile;

namespace fs = std::filesystem;

namespace {

const std::string kHeader = "Experiment,Workload,Status,Run,Devices,Collocation,File,Listeners,Params\n";
const std::string kRunId = "0123456789abcdef0123456789abcdef";

/// The radT example of resources/DESIGN.md §6, padded as radT's own files are.
const std::string kExample =
    kHeader + "         1,       2,      ,   ,      0,          -,train.py,smi+top,--batch-size 128\n"
              "         1,       2,      ,   ,      0,        MPS,train.py,smi+top,--batch-size 128\n";

std::string absoluteNormal(const std::string& p) {
    return fs::absolute(p).lexically_normal().string();
}

/// A directory with train.py, the script most rows name.
struct CsvDir {
    TempDir dir;
    CsvDir() { writeFile(dir.file("train.py"), "print('train')\n"); }
    std::string csv(const std::string& text, const std::string& name = "exp.csv") {
        writeFile(dir.file(name), text);
        return dir.file(name);
    }
};

/// Reading `path` must fail at line:column with a message containing `needle`, and leave the file
/// byte-identical.
void expectCsvError(const std::string& path, int line, int column, const std::string& needle) {
    const std::string before = readFile(path);
    try {
        readExperimentCsv(path);
        ADD_FAILURE() << "no CsvError for " << path;
    } catch (const CsvError& e) {
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.column(), column) << e.what();
        const std::string prefix = path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
        EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
        EXPECT_NE(e.message().find(needle), std::string::npos) << e.what();
    }
    EXPECT_EQ(readFile(path), before);
}

std::vector<const ExperimentRow*> pointers(const std::vector<ExperimentRow>& rows) {
    std::vector<const ExperimentRow*> out;
    for (const auto& r : rows)
        out.push_back(&r);
    return out;
}

std::vector<std::string> letters(const std::vector<std::string>& devices,
                                 const std::vector<std::string>& colloc) {
    std::vector<ExperimentRow> rows(devices.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        rows[i].devices = devices[i];
        rows[i].collocation = colloc[i];
    }
    return workloadLetters(pointers(rows));
}

/// Restores the working directory when a test changed it.
struct CwdGuard {
    std::string saved = fs::current_path().string();
    ~CwdGuard() { fs::current_path(saved); }
};

using Strings = std::vector<std::string>;

} // namespace

// ================================ valid files ================================

TEST(ExperimentCsv, ReadsRadtExampleWithPaddedCells) {
    CsvDir d;
    const auto file = readExperimentCsv(d.csv(kExample));
    EXPECT_EQ(file.path, d.dir.file("exp.csv"));
    EXPECT_EQ(file.header, (Strings{"Experiment", "Workload", "Status", "Run", "Devices", "Collocation",
                                    "File", "Listeners", "Params"}));
    ASSERT_EQ(file.rows.size(), 2u);
    const auto& r = file.rows[0];
    EXPECT_EQ(r.line, 2);
    EXPECT_EQ(r.experiment, "1");
    EXPECT_EQ(r.workload, "2");
    EXPECT_EQ(r.status, "");
    EXPECT_EQ(r.run, "");
    EXPECT_EQ(r.devices, "0");
    EXPECT_EQ(r.collocation, "-");
    EXPECT_EQ(r.file, "train.py");
    EXPECT_EQ(r.scriptPath, absoluteNormal(d.dir.file("train.py")));
    EXPECT_EQ(r.listeners, "smi+top");
    EXPECT_EQ(r.rawParams, "--batch-size 128");
    EXPECT_EQ(r.params, (Strings{"--batch-size", "128"}));
    EXPECT_EQ(file.rows[1].line, 3);
    EXPECT_EQ(file.rows[1].collocation, "MPS");
}

TEST(ExperimentCsv, QuotedCellsKeepCommasAndDoubledQuotes) {
    CsvDir d;
    const auto file = readExperimentCsv(
        d.csv(kHeader +
              "\"exp, one\",1,\"FINISHED (a, b)\",,0,-,train.py,smi,\"--tags a,b --name \"\"x y\"\"\"\n"));
    ASSERT_EQ(file.rows.size(), 1u);
    const auto& r = file.rows[0];
    EXPECT_EQ(r.experiment, "exp, one");
    EXPECT_EQ(r.status, "FINISHED (a, b)");
    EXPECT_EQ(r.rawParams, "--tags a,b --name \"x y\"");
    EXPECT_EQ(r.params, (Strings{"--tags", "a,b", "--name", "x y"}));
}

TEST(ExperimentCsv, EmptyStatusRunCollocationListenersAndParams) {
    CsvDir d;
    const auto file = readExperimentCsv(
        d.csv(kHeader + "1,1,,,0+1,,train.py,,\n" + "1,1,FAILED x (0),," + "0,  ,train.py,top,\n"));
    ASSERT_EQ(file.rows.size(), 2u);
    EXPECT_EQ(file.rows[0].status, "");
    EXPECT_EQ(file.rows[0].run, "");
    EXPECT_EQ(file.rows[0].devices, "0+1");
    EXPECT_EQ(file.rows[0].collocation, "-");
    EXPECT_EQ(file.rows[0].listeners, "");
    EXPECT_TRUE(file.rows[0].params.empty());
    EXPECT_EQ(file.rows[1].status, "FAILED x (0)");
    EXPECT_EQ(file.rows[1].collocation, "-");
}

TEST(ExperimentCsv, BothParamsStyles) {
    CsvDir d;
    const auto file = readExperimentCsv(d.csv(kHeader + "1,1,,,0,-,train.py,smi,batch-size=128 lr=0.1\n" +
                                              "1,2,,,0,-,train.py,smi,--batch-size=128 --lr 0.1\n" +
                                              "1,3,,,0,-,train.py,smi,batch-size=128 verbose\n" +
                                              "1,4,,,0,-,train.py,smi,name=a=b empty=\n"));
    ASSERT_EQ(file.rows.size(), 4u);
    EXPECT_EQ(file.rows[0].params, (Strings{"--batch-size", "128", "--lr", "0.1"}));
    EXPECT_EQ(file.rows[1].params, (Strings{"--batch-size=128", "--lr", "0.1"}));
    EXPECT_EQ(file.rows[2].params, (Strings{"batch-size=128", "verbose"})); // not every token has '='
    EXPECT_EQ(file.rows[3].params, (Strings{"--name", "a=b", "--empty", ""}));
    EXPECT_EQ(file.rows[0].rawParams, "batch-size=128 lr=0.1");
}

TEST(ExperimentCsv, ParamsSplitLikeAPosixShell) {
    CsvDir d;
    const auto file = readExperimentCsv(d.csv(
        kHeader + "1,1,,,0,-,train.py,smi,--name 'a b'  --msg \"say \\\"hi\\\" $x\" --path a\\ b --empty '' "
                  "--lit '\\n' \"\\n\" x\"y\"'z'\n"));
    ASSERT_EQ(file.rows.size(), 1u);
    EXPECT_EQ(file.rows[0].params, (Strings{"--name", "a b", "--msg", "say \"hi\" $x", "--path", "a b",
                                            "--empty", "", "--lit", "\\n", "\\n", "xyz"}));
}

TEST(ExperimentCsv, CrlfAndByteOrderMark) {
    CsvDir d;
    std::string text = "\xEF\xBB\xBF" + kExample;
    for (size_t p = text.find('\n'); p != std::string::npos; p = text.find('\n', p + 2))
        text.replace(p, 1, "\r\n");
    const auto file = readExperimentCsv(d.csv(text));
    EXPECT_EQ(file.header.front(), "Experiment");
    EXPECT_EQ(file.header.back(), "Params");
    ASSERT_EQ(file.rows.size(), 2u);
    EXPECT_EQ(file.rows[1].line, 3);
    EXPECT_EQ(file.rows[1].rawParams, "--batch-size 128");
    EXPECT_EQ(file.rows[1].params, (Strings{"--batch-size", "128"}));
}

TEST(ExperimentCsv, HeaderCaseAndSpacesAndColumnOrder) {
    CsvDir d;
    const auto file =
        readExperimentCsv(d.csv("experiment , WORKLOAD,status,  Run,devices,collocation,file,listeners,  "
                                "params  \n1,1,,,0,MPS,train.py,smi,\n"));
    EXPECT_EQ(file.header[0], "Experiment");
    EXPECT_EQ(file.rows.at(0).collocation, "MPS");

    // Columns in another order are found by name.
    const auto other =
        readExperimentCsv(d.csv("Params,File,Workload,Experiment,Devices,Collocation,Listeners,Run,Status\n"
                                "--lr 1,train.py,7,e,1,-,top,,\n",
                                "other.csv"));
    EXPECT_EQ(other.header.front(), "Params");
    ASSERT_EQ(other.rows.size(), 1u);
    EXPECT_EQ(other.rows[0].workload, "7");
    EXPECT_EQ(other.rows[0].experiment, "e");
    EXPECT_EQ(other.rows[0].devices, "1");
    EXPECT_EQ(other.rows[0].params, (Strings{"--lr", "1"}));
}

TEST(ExperimentCsv, BlankLinesSkippedWithTrueLineNumbers) {
    CsvDir d;
    const auto file = readExperimentCsv(
        d.csv("\n" + kHeader + "\n1,1,,,0,-,train.py,smi,\n   \t\n\n1,2,,,0,-,train.py,smi,\n\n"));
    ASSERT_EQ(file.rows.size(), 2u);
    EXPECT_EQ(file.rows[0].line, 4);
    EXPECT_EQ(file.rows[1].line, 7);
}

TEST(ExperimentCsv, QuotedCellSpanningLinesKeepsLineNumbers) {
    CsvDir d;
    const auto file = readExperimentCsv(
        d.csv(kHeader + "1,1,\"two\nlines\",,0,-,train.py,smi,\n1,2,,,0,-,train.py,smi,\n"));
    ASSERT_EQ(file.rows.size(), 2u);
    EXPECT_EQ(file.rows[0].status, "two\nlines");
    EXPECT_EQ(file.rows[1].line, 4);
}

TEST(ExperimentCsv, ScriptsResolvedRelativeToCsvDirectory) {
    TempDir dir;
    fs::create_directories(dir.file("sub/scripts"));
    writeFile(dir.file("sub/scripts/train.py"), "");
    writeFile(dir.file("top.py"), "");
    writeFile(dir.file("sub/exp.csv"),
              kHeader + "1,1,,,0,-,scripts/train.py,smi,\n1,1,,,0,-,../top.py,smi,\n1,1,,,0,-," +
                  dir.file("top.py") + ",smi,\n");
    const auto file = readExperimentCsv(dir.file("sub/exp.csv"));
    ASSERT_EQ(file.rows.size(), 3u);
    EXPECT_EQ(file.rows[0].file, "scripts/train.py");
    EXPECT_EQ(file.rows[0].scriptPath, absoluteNormal(dir.file("sub/scripts/train.py")));
    EXPECT_EQ(file.rows[1].scriptPath, absoluteNormal(dir.file("top.py")));
    EXPECT_EQ(file.rows[2].scriptPath, absoluteNormal(dir.file("top.py")));
    EXPECT_TRUE(fs::path(file.rows[0].scriptPath).is_absolute());
}

TEST(ExperimentCsv, ScriptRelativeToCurrentDirectoryWins) {
    TempDir csvDir, cwdDir;
    writeFile(csvDir.file("train.py"), "");
    writeFile(cwdDir.file("train.py"), "");
    writeFile(csvDir.file("only_here.py"), "");
    writeFile(csvDir.file("exp.csv"), kHeader + "1,1,,,0,-,train.py,smi,\n1,1,,,0,-,only_here.py,smi,\n");
    CwdGuard guard;
    fs::current_path(cwdDir.path());
    const auto file = readExperimentCsv("../" + fs::path(csvDir.path()).filename().string() + "/exp.csv");
    ASSERT_EQ(file.rows.size(), 2u);
    // equivalent(): current_path() may spell $TMPDIR through a resolved symlink.
    EXPECT_TRUE(fs::equivalent(file.rows[0].scriptPath, cwdDir.file("train.py"))) << file.rows[0].scriptPath;
    EXPECT_TRUE(fs::equivalent(file.rows[1].scriptPath, csvDir.file("only_here.py")))
        << file.rows[1].scriptPath;
    EXPECT_TRUE(fs::path(file.rows[1].scriptPath).is_absolute());
}

// ================================ letters, MIG profiles ================================

TEST(ExperimentCsv, LettersOfTheRadtExample) {
    CsvDir d;
    const auto file = readExperimentCsv(d.csv(kExample));
    EXPECT_EQ(workloadLetters(pointers(file.rows)), (Strings{"0_A", "0_B_MPS"}));
}

TEST(ExperimentCsv, LettersForRepeatsCollocationAndMultiGpu) {
    EXPECT_EQ(letters({"0", "0", "1"}, {"MPS", "MPS", "-"}), (Strings{"0_A_MPS", "0_B_MPS", "1"}));
    EXPECT_EQ(letters({"0"}, {"-"}), (Strings{"0"}));
    EXPECT_EQ(letters({"0", "1"}, {"-", "-"}), (Strings{"0", "1"}));
    EXPECT_EQ(letters({"0", "1", "0", "0"}, {"-", "-", "-", "-"}), (Strings{"0_A", "1", "0_B", "0_C"}));
    EXPECT_EQ(letters({"0+1", "0+1", "2"}, {"-", "MPS", "3g.20gb"}),
              (Strings{"0+1_A", "0+1_B_MPS", "2_3g.20gb"}));
    EXPECT_EQ(letters({"0", "0"}, {"3g.20gb", "1c.3g.40gb"}), (Strings{"0_A_3g.20gb", "0_B_1c.3g.40gb"}));
    EXPECT_TRUE(letters({}, {}).empty());
    const auto many = letters(Strings(28, "0"), Strings(28, "-"));
    EXPECT_EQ(many[25], "0_Z");
    EXPECT_EQ(many[26], "0_AA");
}

TEST(ExperimentCsv, MigProfileNames) {
    for (const char* p : {"1g.5gb", "3g.20gb", "7g.80gb", "1g.10gb+me", "1c.3g.40gb", "2c.7g.40gb", "1g.24gb",
                          "4g.47gb", "1g.20gb+gfx"})
        EXPECT_TRUE(isMigProfile(p)) << p;
    for (const char* p : {"", "-", "MPS", "3g", "3g.20", "g.20gb", "3g.20GB", "3g.20gb+", "0g.5gb",
                          " 3g.20gb", "3g.20gb ", "1c3g.40gb", "1c.3g.40gb.1", "mig"})
        EXPECT_FALSE(isMigProfile(p)) << p;
}

TEST(ExperimentCsv, MigCollocationAccepted) {
    CsvDir d;
    const auto file = readExperimentCsv(
        d.csv(kHeader + "1,1,,,0,3g.20gb,train.py,smi,\n1,1,,,0,1c.3g.40gb,train.py,smi,\n"));
    ASSERT_EQ(file.rows.size(), 2u);
    EXPECT_EQ(file.rows[0].collocation, "3g.20gb");
    EXPECT_EQ(file.rows[1].collocation, "1c.3g.40gb");
}

// ================================ write-back ================================

TEST(ExperimentCsv, RoundTripKeepsRowsAndPermissions) {
    CsvDir d;
    const std::string path =
        d.csv(kExample + "  exp b , 3 ,,,1,3g.20gb,train.py,,\"--name 'a, b' --q \"\"x\"\"\"\n");
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    auto file = readExperimentCsv(path);
    ASSERT_EQ(file.rows.size(), 3u);
    const auto before = file.rows;
    file.rows[0].status = "FINISHED (2 0_A) train.py (0_A)";
    file.rows[0].run = kRunId;
    file.rows[1].status = "FAILED, badly \"quoted\" (0_B_MPS)";
    file.rows[1].run = "fedcba9876543210fedcba9876543210";
    writeExperimentCsv(file);

    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    for (const auto& entry : fs::directory_iterator(d.dir.path())) // no temp file left behind
        EXPECT_TRUE(entry.path().filename() == "exp.csv" || entry.path().filename() == "train.py")
            << entry.path();

    const auto again = readExperimentCsv(path);
    EXPECT_EQ(again.header, file.header);
    ASSERT_EQ(again.rows.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        const auto& a = again.rows[i];
        const auto& b = before[i];
        EXPECT_EQ(a.line, b.line);
        EXPECT_EQ(a.experiment, b.experiment);
        EXPECT_EQ(a.workload, b.workload);
        EXPECT_EQ(a.devices, b.devices);
        EXPECT_EQ(a.collocation, b.collocation);
        EXPECT_EQ(a.file, b.file);
        EXPECT_EQ(a.scriptPath, b.scriptPath);
        EXPECT_EQ(a.listeners, b.listeners);
        EXPECT_EQ(a.rawParams, b.rawParams);
        EXPECT_EQ(a.params, b.params);
        EXPECT_EQ(a.status, file.rows[i].status);
        EXPECT_EQ(a.run, file.rows[i].run);
    }
    EXPECT_EQ(again.rows[2].experiment, "exp b");
    EXPECT_EQ(again.rows[2].params, (Strings{"--name", "a, b", "--q", "x"}));
    EXPECT_EQ(again.rows[2].status, "");
}

TEST(ExperimentCsv, WrittenTextIsTrimmedAndQuotedOnlyWhenNeeded) {
    CsvDir d;
    const std::string path = d.csv(kExample);
    auto file = readExperimentCsv(path);
    file.rows[0].status = "FINISHED (2 0_A) train.py (0_A)";
    file.rows[0].run = kRunId;
    file.rows[1].status = "a,b \"c\"";
    writeExperimentCsv(file);
    EXPECT_EQ(readFile(path), kHeader + "1,2,FINISHED (2 0_A) train.py (0_A)," + kRunId +
                                  ",0,-,train.py,smi+top,--batch-size 128\n"
                                  "1,2,\"a,b \"\"c\"\"\",,0,MPS,train.py,smi+top,--batch-size 128\n");
}

TEST(ExperimentCsv, WriteThroughSymlinkReplacesTarget) {
    CsvDir d;
    const std::string target = d.csv(kExample, "real.csv");
    const std::string link = d.dir.file("link.csv");
    ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
    auto file = readExperimentCsv(link);
    file.rows[0].status = "RUNNING";
    writeExperimentCsv(file);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(readExperimentCsv(target).rows[0].status, "RUNNING");
}

TEST(ExperimentCsv, WriteFailureNamesPathAndLeavesNothing) {
    CsvDir d;
    auto file = readExperimentCsv(d.csv(kExample));
    file.path = d.dir.file("missing-dir/exp.csv");
    try {
        writeExperimentCsv(file);
        ADD_FAILURE() << "no error writing into a missing directory";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(file.path), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(d.dir.file("missing-dir")));
    EXPECT_EQ(readFile(d.dir.file("exp.csv")), kExample);
}

// ================================ broken files ================================

TEST(ExperimentCsvErrors, MissingFileAndEmptyFile) {
    CsvDir d;
    try {
        readExperimentCsv(d.dir.file("nope.csv"));
        ADD_FAILURE() << "no error for a missing file";
    } catch (const CsvError& e) {
        EXPECT_EQ(e.line(), 0);
        EXPECT_EQ(e.column(), 0);
        EXPECT_NE(std::string(e.what()).find(d.dir.file("nope.csv")), std::string::npos);
    }
    try {
        readExperimentCsv(d.dir.path());
        ADD_FAILURE() << "no error for a directory";
    } catch (const CsvError& e) {
        EXPECT_EQ(e.line(), 0);
        EXPECT_NE(e.message().find("directory"), std::string::npos) << e.what();
    }
    expectCsvError(d.csv(""), 1, 1, "empty");
    expectCsvError(d.csv("\n  \n\r\n", "blank.csv"), 1, 1, "empty");
    expectCsvError(d.csv("\xEF\xBB\xBF", "bom.csv"), 1, 1, "empty");
}

TEST(ExperimentCsvErrors, MissingColumns) {
    CsvDir d;
    expectCsvError(d.csv("Experiment,Workload,Status,Run,Devices,Collocation,File\n1,1,,,0,-,train.py\n"), 1,
                   8, "Listeners, Params");
    expectCsvError(d.csv("Workload,Status,Run,Devices,Collocation,File,Listeners,Params\n", "b.csv"), 1, 9,
                   "Experiment");
}

TEST(ExperimentCsvErrors, DuplicateAndUnknownHeaderColumns) {
    CsvDir d;
    expectCsvError(
        d.csv("Experiment,Workload,Status,Run,Devices,Collocation,File,Listeners,Params,workload\n"), 1, 10,
        "duplicate header column 'workload'");
    expectCsvError(
        d.csv("Experiment,Workload,Status,Run,Devices,Colocation,File,Listeners,Params\n", "b.csv"), 1, 6,
        "unknown header column 'Colocation'");
    expectCsvError(d.csv(kHeader.substr(0, kHeader.size() - 1) + ",Notes\n", "c.csv"), 1, 10, "'Notes'");
}

TEST(ExperimentCsvErrors, UnknownListener) {
    CsvDir d;
    expectCsvError(d.csv(kExample + "1,3,,,0,-,train.py,smi+nvtop,\n"), 4, 8, "unknown listener 'nvtop'");
}

TEST(ExperimentCsvErrors, BadDevices) {
    CsvDir d;
    for (const std::string bad : {"0+", "+0", "a", "0++1", "\"0,1\"", "", "-1", "0 1"}) {
        SCOPED_TRACE(bad);
        expectCsvError(d.csv(kHeader + "1,1,,,0,-,train.py,smi,\n1,1,,," + bad + ",-,train.py,smi,\n"), 3, 5,
                       "expected GPU indices joined by '+'");
    }
}

TEST(ExperimentCsvErrors, UnknownCollocation) {
    CsvDir d;
    for (const std::string bad : {"XYZ", "mps", "3g", "3g.20GB", "--"}) {
        SCOPED_TRACE(bad);
        expectCsvError(d.csv(kHeader + "1,1,,,0," + bad + ",train.py,smi,\n"), 2, 6, "unknown Collocation");
    }
}

TEST(ExperimentCsvErrors, MissingScriptNamesTriedPaths) {
    CsvDir d;
    const std::string path = d.csv(kExample + "1,3,,,0,-,nope.py,smi,\n");
    expectCsvError(path, 4, 7, "script 'nope.py' not found");
    expectCsvError(path, 4, 7, absoluteNormal(d.dir.file("nope.py")));
    expectCsvError(path, 4, 7, absoluteNormal("nope.py"));
    fs::create_directory(d.dir.file("adir"));
    expectCsvError(d.csv(kHeader + "1,1,,,0,-,adir,smi,\n", "dir.csv"), 2, 7, "not found");
}

TEST(ExperimentCsvErrors, NonUtf8Bytes) {
    CsvDir d;
    expectCsvError(d.csv(kExample.substr(0, kExample.size() - 1) + "\xff\n"), 3, 9, "not valid UTF-8");
    expectCsvError(d.csv(kHeader + "1,1,,,0,-,tr\xC0\xAFin.py,smi,\n", "overlong.csv"), 2, 7, "UTF-8");
    expectCsvError(d.csv(kHeader + "1,1,\"a,\n\xED\xA0\x80\",,0,-,train.py,smi,\n", "surrogate.csv"), 3, 3,
                   "0xED");
    expectCsvError(d.csv("Experiment,Work\xE9load\n", "latin1.csv"), 1, 2, "UTF-8");
    // Valid multi-byte text passes.
    const auto ok =
        readExperimentCsv(d.csv(kHeader + "Größe ✓ 😀,1,,,0,-,train.py,smi,--name 'é'\n", "ok.csv"));
    EXPECT_EQ(ok.rows.at(0).experiment, "Größe ✓ 😀");
    EXPECT_EQ(ok.rows.at(0).params, (Strings{"--name", "é"}));
}

TEST(ExperimentCsvErrors, WrongCellCount) {
    CsvDir d;
    expectCsvError(d.csv(kHeader + "1,1,,,0,-,train.py,smi\n"), 2, 9, "row has 8 cells: expected 9");
    expectCsvError(d.csv(kExample + "1,1,,,0,-,train.py,smi,--a 1,--b 2\n", "b.csv"), 4, 10,
                   "row has 10 cells");
}

TEST(ExperimentCsvErrors, UnterminatedQuote) {
    CsvDir d;
    expectCsvError(d.csv(kExample + "1,3,,,0,-,train.py,smi,\"--a 1\n1,4,,,0,-,train.py,smi,\n"), 4, 9,
                   "unterminated quoted cell");
    expectCsvError(d.csv(kHeader + "1,1,\"done\" late,,0,-,train.py,smi,\n", "b.csv"), 2, 3,
                   "after the closing quote");
}

TEST(ExperimentCsvErrors, ParamsThatCannotBeSplit) {
    CsvDir d;
    expectCsvError(d.csv(kHeader + "1,1,,,0,-,train.py,smi,--name 'a b\n"), 2, 9,
                   "unterminated single quote");
    expectCsvError(d.csv(kHeader + "1,1,,,0,-,train.py,smi,\"--name \"\"a b\"\n", "b.csv"), 2, 9,
                   "unterminated double quote");
    expectCsvError(d.csv(kHeader + "1,1,,,0,-,train.py,smi,--x \\\n", "c.csv"), 2, 9, "backslash");
}

TEST(ExperimentCsvErrors, BadRunCell) {
    CsvDir d;
    for (const std::string& bad :
         Strings{"abc", "0123456789ABCDEF0123456789ABCDEF", kRunId + "0", kRunId.substr(1) + "g"}) {
        SCOPED_TRACE(bad);
        expectCsvError(
            d.csv(kHeader + "1,1,FINISHED,,0,-,train.py,smi,\n1,1,FINISHED," + bad + ",0,-,train.py,smi,\n"),
            3, 4, "32 lowercase hex");
    }
    EXPECT_EQ(readExperimentCsv(d.csv(kHeader + "1,1,FINISHED," + kRunId + ",0,-,train.py,smi,\n", "ok.csv"))
                  .rows.at(0)
                  .run,
              kRunId);
}

TEST(ExperimentCsvErrors, BadWorkloadAndEmptyCells) {
    CsvDir d;
    for (const std::string bad : {"2a", "-1", "1.5", "x"}) {
        SCOPED_TRACE(bad);
        expectCsvError(d.csv(kHeader + "1," + bad + ",,,0,-,train.py,smi,\n"), 2, 2, "not a whole number");
    }
    expectCsvError(d.csv(kHeader + "1,  ,,,0,-,train.py,smi,\n"), 2, 2, "empty Workload");
    expectCsvError(d.csv(kHeader + "  ,1,,,0,-,train.py,smi,\n"), 2, 1, "empty Experiment");
    expectCsvError(d.csv(kHeader + "1,1,,,0,-,  ,smi,\n"), 2, 7, "empty File");
}

TEST(ExperimentCsvErrors, FirstProblemInFileOrderWins) {
    CsvDir d;
    // Bad device (column 5) and bad listener (column 8) in one row; an earlier row with a bad run.
    expectCsvError(d.csv(kHeader + "1,1,,,x,-,train.py,foo,\n"), 2, 5, "Devices");
    expectCsvError(
        d.csv(kHeader + "1,1,,,0,-,train.py,smi,\n1,1,,zz,0,-,train.py,smi,\n1,1,,,x,-,train.py,foo,\n"), 3,
        4, "Run");
    // A bad byte before an unterminated quote is reported first.
    expectCsvError(d.csv(kHeader + "\xff,1,,,0,-,train.py,smi,\"open\n"), 2, 1, "UTF-8");
}

// ================================ fake tools ================================

namespace {

const std::string kFakes = std::string(RADT_SOURCE_DIR) + "/tests/fakes/";

/// Runs a shell command; its stdout (and stderr when the command redirects it) and exit status.
std::pair<std::string, int> shell(const std::string& command) {
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return {"", -1};
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
        out.append(buf, n);
    const int status = ::pclose(pipe);
    return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

struct FakeEnv {
    TempDir dir;
    std::string state = dir.file("state.json");
    std::string log = dir.file("calls.log");
    std::pair<std::string, int> run(const std::string& tool, const std::string& args,
                                    const std::string& env = "") {
        return shell("cd '" + dir.path() + "' && RADT_FAKE_STATE='" + state + "' RADT_FAKE_LOG='" + log +
                     "' " + env + " '" + kFakes + tool + "' " + args);
    }
};

} // namespace

TEST(ExperimentFakes, NvidiaSmiMigCreateListDestroy) {
    FakeEnv f;
    const auto [created, rc] = f.run("nvidia-smi", "mig -cgi 3g.20gb,3g.20gb -C -i 0");
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(created,
              "Successfully created GPU instance ID  1 on GPU  0 using profile MIG 3g.20gb (ID  9)\n"
              "Successfully created compute instance ID  0 on GPU  0 GPU instance ID  1 using profile MIG "
              "3g.20gb (ID  2)\n"
              "Successfully created GPU instance ID  2 on GPU  0 using profile MIG 3g.20gb (ID  9)\n"
              "Successfully created compute instance ID  0 on GPU  0 GPU instance ID  2 using profile MIG "
              "3g.20gb (ID  2)\n");
    const auto [full, fullRc] = f.run("nvidia-smi", "mig -cgi 3g.20gb -C -i 0");
    EXPECT_EQ(fullRc, 2);
    EXPECT_EQ(full, "Unable to create a GPU instance on GPU  0 using profile 9: Insufficient Resources\n"
                    "Failed to create GPU instances: Insufficient Resources\n");

    const auto [list, listRc] = f.run("nvidia-smi", "-L");
    EXPECT_EQ(listRc, 0);
    EXPECT_EQ(list, "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-000000000000)\n"
                    "  MIG 3g.20gb     Device  0: (UUID: MIG-00000001-0000-0000-0000-000000000000)\n"
                    "  MIG 3g.20gb     Device  1: (UUID: MIG-00000002-0000-0000-0000-000000000000)\n");

    // -lgi: the fixture's table (its two rows differ from ours only in placement order).
    const auto [lgi, lgiRc] = f.run("nvidia-smi", "mig -lgi");
    EXPECT_EQ(lgiRc, 0);
    auto fixture = test::splitLines(test::readFixture("tools/nvidia-smi_mig_lgi_1.txt"));
    fixture.erase(fixture.begin()); // provenance line
    const auto ours = test::splitLines(lgi);
    ASSERT_EQ(ours.size(), fixture.size()) << lgi;
    for (size_t i = 0; i < 5; ++i)
        EXPECT_EQ(ours[i], fixture[i]);
    EXPECT_EQ(ours[5], "|   0  MIG 3g.20gb       9        1          0:4     |");
    EXPECT_EQ(ours[7], "|   0  MIG 3g.20gb       9        2          4:4     |");
    EXPECT_EQ(ours[6], fixture[6]);

    // Destroying a GPU instance that still holds its compute instance is refused, as NVML does.
    EXPECT_EQ(f.run("nvidia-smi", "mig -dgi -gi 1 -i 0").second, 19);
    const auto [dci, dciRc] = f.run("nvidia-smi", "mig -dci -ci 0 -gi 1 -i 0");
    EXPECT_EQ(dciRc, 0);
    EXPECT_EQ(dci, "Successfully destroyed compute instance ID  0 from GPU  0 GPU instance ID  1\n");
    const auto [dgi, dgiRc] = f.run("nvidia-smi", "mig -dgi -gi 1 -i 0");
    EXPECT_EQ(dgiRc, 0);
    EXPECT_EQ(dgi, "Successfully destroyed GPU instance ID  1 from GPU  0\n");
    EXPECT_EQ(f.run("nvidia-smi", "mig -dci -ci 0 -gi 2 -i 0").second, 0);
    EXPECT_EQ(f.run("nvidia-smi", "mig -dgi -gi 2 -i 0").second, 0);
    const auto [unknown, unknownRc] = f.run("nvidia-smi", "mig -dgi -gi 2 -i 0");
    EXPECT_EQ(unknownRc, 6);
    EXPECT_NE(unknown.find("Not Found"), std::string::npos);
    EXPECT_EQ(f.run("nvidia-smi", "mig -dci -ci 3 -gi 7 -i 0").second, 6);

    EXPECT_EQ(f.run("nvidia-smi", "-L").first,
              "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-000000000000)\n");
    // Freed slices can be used again.
    EXPECT_EQ(f.run("nvidia-smi", "mig -cgi 7g.40gb -C -i 0").second, 0);
    const auto log = test::splitLines(readFile(f.log));
    ASSERT_GE(log.size(), 3u);
    EXPECT_EQ(log[0], "nvidia-smi mig -cgi 3g.20gb,3g.20gb -C -i 0");
    EXPECT_EQ(log[2], "nvidia-smi -L");
}

TEST(ExperimentFakes, NvidiaSmiMigFailuresAndStatelessDefault) {
    FakeEnv f;
    const auto [off, offRc] = f.run("nvidia-smi", "mig -cgi 3g.20gb -C -i 0", "RADT_FAKE_MIG_DISABLED=1");
    EXPECT_EQ(offRc, 2);
    EXPECT_EQ(off, "Unable to create a GPU instance on GPU  0 using profile 9: Not Supported\n"
                   "Failed to create GPU instances: Not Supported\n");
    const auto [perm, permRc] = f.run("nvidia-smi", "mig -lgi", "RADT_FAKE_NO_PERMISSION=1");
    EXPECT_EQ(permRc, 4);
    EXPECT_EQ(perm, "Insufficient Permissions\n");
    EXPECT_EQ(f.run("nvidia-smi", "mig -dgi -gi 1 -i 0", "RADT_FAKE_NO_PERMISSION=1").second, 4);

    // Without RADT_FAKE_STATE: a MIG GPU with no instances, nothing kept between calls.
    const std::string fake = "'" + kFakes + "nvidia-smi' ";
    EXPECT_EQ(shell("unset RADT_FAKE_STATE; " + fake + "mig -cgi 4g.20gb,3g.20gb -C").second, 0);
    EXPECT_EQ(shell("unset RADT_FAKE_STATE; " + fake + "mig -cgi 4g.20gb,3g.20gb -C").second, 0);
    EXPECT_EQ(shell("unset RADT_FAKE_STATE; " + fake + "mig -cgi 4g.20gb,4g.20gb -C").second, 2);
    const auto [list, listRc] = shell("unset RADT_FAKE_STATE; " + fake + "-L");
    EXPECT_EQ(listRc, 0);
    EXPECT_EQ(list.rfind("GPU 0: NVIDIA GeForce RTX 3060 Ti", 0), 0u) << list; // the recorded replay
}

TEST(ExperimentFakes, MpsControlStartQuitAndQuitAgain) {
    FakeEnv f;
    const std::string marker = f.dir.file("mps-0.running");
    EXPECT_EQ(f.run("nvidia-cuda-mps-control", "-d", "CUDA_VISIBLE_DEVICES=0").second, 0);
    EXPECT_TRUE(fs::exists(marker));
    const auto [again, againRc] = f.run("nvidia-cuda-mps-control", "-d 2>&1", "CUDA_VISIBLE_DEVICES=0");
    EXPECT_EQ(againRc, 1);
    EXPECT_NE(again.find("already running"), std::string::npos);
    EXPECT_EQ(shell("cd '" + f.dir.path() + "' && echo quit | RADT_FAKE_STATE='" + f.state +
                    "' RADT_FAKE_LOG='" + f.log + "' CUDA_VISIBLE_DEVICES=0 '" + kFakes +
                    "nvidia-cuda-mps-control'")
                  .second,
              0);
    EXPECT_FALSE(fs::exists(marker));
    const auto [quit, quitRc] =
        shell("cd '" + f.dir.path() + "' && echo quit | RADT_FAKE_STATE='" + f.state + "' RADT_FAKE_LOG='" +
              f.log + "' CUDA_VISIBLE_DEVICES=0 '" + kFakes + "nvidia-cuda-mps-control' 2>&1");
    EXPECT_EQ(quitRc, 1);
    EXPECT_EQ(quit, "Cannot find MPS control daemon process\n");
    EXPECT_EQ(f.run("nvidia-cuda-mps-control", "-d 2>/dev/null", "RADT_FAKE_MPS_FAIL=1").second, 1);
    EXPECT_FALSE(fs::exists(f.dir.file("mps-all.running")));
    EXPECT_EQ(readFile(f.log), "nvidia-cuda-mps-control -d\nnvidia-cuda-mps-control -d\n"
                               "nvidia-cuda-mps-control quit\nnvidia-cuda-mps-control quit\n"
                               "nvidia-cuda-mps-control -d\n");
}

TEST(ExperimentFakes, NsysAndNcuRunTheCommandAndWriteReports) {
    FakeEnv f;
    const auto [out, rc] =
        f.run("nsys", "profile -t cuda,nvtx --capture-range=nvtx -f true -o prof python3 -c "
                      "\"print(42)\"");
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(out, "42\n");
    const std::string report = readFile(f.dir.file("prof.nsys-rep"));
    EXPECT_NE(report.find("python3 -c print(42)"), std::string::npos) << report;

    const auto [failed, failedRc] =
        f.run("nsys", "profile --output=second.nsys-rep python3 -c 'import sys; sys.exit(3)'");
    EXPECT_EQ(failedRc, 3);
    EXPECT_TRUE(fs::exists(f.dir.file("second.nsys-rep")));
    EXPECT_FALSE(fs::exists(f.dir.file("second.nsys-rep.nsys-rep")));
    EXPECT_EQ(f.run("nsys", "launch python3 2>/dev/null").second, 1);

    const auto [ncu, ncuRc] =
        f.run("ncu", "--nvtx --nvtx-include profile/ -f --export kern python3 -c \"print(7)\"");
    EXPECT_EQ(ncuRc, 0);
    EXPECT_EQ(ncu, "7\n");
    EXPECT_NE(readFile(f.dir.file("kern.ncu-rep")).find("python3 -c print(7)"), std::string::npos);
    EXPECT_EQ(readFile(f.log),
              "nsys profile -t cuda,nvtx --capture-range=nvtx -f true -o prof python3 -c print(42)\n"
              "nsys profile --output=second.nsys-rep python3 -c import sys; sys.exit(3)\n"
              "nsys launch python3\n"
              "ncu --nvtx --nvtx-include profile/ -f --export kern python3 -c print(7)\n");
}

TEST(MigCreateOutput, ParsesTheRecordedOutputAndSkipsIdsNoInstanceCanHave) {
    // The real `nvidia-smi mig -cgi ... -C` output of the fixture: one GI with its CI.
    const MigCreated created = parseMigCreate(test::readFixture("tools/nvidia-smi_mig_cgi_C_1.txt"));
    EXPECT_FALSE(created.gpuInstances.empty());
    EXPECT_FALSE(created.computeInstances.empty());
    // Found by fuzz_mig: a long run of digits made std::stoi throw out_of_range.
    const MigCreated odd = parseMigCreate("Successfully created GPU instance ID  99999999999999999999 on GPU "
                                          " 0 using profile MIG 1g.5gb (ID 19)\n"
                                          "Successfully created compute instance ID  0 on GPU  0 GPU "
                                          "instance ID  99999999999999999999 using profile "
                                          "MIG 1g.5gb (ID  0)\n");
    EXPECT_TRUE(odd.gpuInstances.empty());
    EXPECT_TRUE(odd.computeInstances.empty());
}
