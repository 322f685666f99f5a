// SPDX-License-Identifier: MIT
// The environment diff: pip freeze, conda list and nvidia-smi -q read back as a run
// recorded them, broken input included; two runs recorded in a real SQLite store whose pip.txt
// differ in exactly two versions and one package only one of them has; `radt report --env-diff`
// on that store, as text and JSON.

#include "EnvironmentTestSupport.h"
#include "RadtProcess.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/artifacts/ArtifactLocation.h"
#include "core/artifacts/RunEnvironment.h"
#include "core/report/EnvironmentReport.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

using namespace radt;
using namespace std::string_literals;
using radt::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::set<std::string> differingItems(const std::vector<EnvironmentRow>& rows) {
    std::set<std::string> items;
    for (const EnvironmentRow& row : differingRows(rows))
        items.insert(row.item);
    return items;
}

} // namespace

TEST(PipFreeze, ReadsEveryFormPipWrites) {
    const PackageList list = parsePipFreeze("# a comment\r\n"
                                            "numpy==1.26.4\r\n"
                                            "\r\n"
                                            "Torch_Vision===0.16.0+cu121\n"
                                            "radt @ file:///home/u/radt\n"
                                            "-e git+https://github.com/u/lib.git@0a1b2c3#egg=mylib\n"
                                            "# Editable install with no version control (localpkg==0.3)\n"
                                            "-e /home/u/localpkg\n"
                                            "-i https://pypi.org/simple\n"
                                            "scipy==1.11.4"); // no newline at the end
    EXPECT_TRUE(list.problems.empty()) << list.problems.front();
    const std::map<std::string, std::string> expected{
        {"numpy", "1.26.4"},
        {"torch-vision", "0.16.0+cu121"},
        {"radt", "@ file:///home/u/radt"},
        {"mylib", "-e git+https://github.com/u/lib.git@0a1b2c3"},
        {"localpkg", "0.3 (-e /home/u/localpkg)"},
        {"scipy", "1.11.4"}};
    EXPECT_EQ(list.packages, expected);
}

TEST(PipFreeze, BrokenInputIsSaidNotGuessed) {
    EXPECT_TRUE(parsePipFreeze("").packages.empty());
    EXPECT_TRUE(parsePipFreeze("").problems.empty());

    // A file cut mid-line (the capture killed, a disk full).
    const PackageList cut = parsePipFreeze("numpy==1.26.4\ntorch==\ntqd");
    EXPECT_EQ(cut.packages, (std::map<std::string, std::string>{{"numpy", "1.26.4"}}));
    ASSERT_EQ(cut.problems.size(), 2u);
    EXPECT_NE(cut.problems[0].find("line 2"), std::string::npos);
    EXPECT_NE(cut.problems[0].find("no version"), std::string::npos) << cut.problems[0];
    EXPECT_NE(cut.problems[1].find("line 3"), std::string::npos);

    // Binary garbage: nothing read as a package, the lines named with their control bytes masked.
    const std::string garbage = "\x7f"
                                "ELF\x02\x01\x01\0\0\0==\x01\x02\n\xff\xfe==1.0\nok==1\x03\n"s;
    const PackageList binary = parsePipFreeze(garbage);
    EXPECT_TRUE(binary.packages.empty());
    EXPECT_EQ(binary.problems.size(), 3u);
    for (const std::string& p : binary.problems)
        for (char c : p)
            EXPECT_GE(static_cast<unsigned char>(c), 0x20) << "a control byte in: " << p;

    // A package listed twice: both versions kept and said; the same one twice (PEP 503 spelling) once.
    const PackageList twice = parsePipFreeze("a==1.0\nb_c==2\nA==2.0\nB.C==2\n");
    EXPECT_EQ(twice.packages.at("a"), "1.0 | 2.0");
    EXPECT_EQ(twice.packages.at("b-c"), "2");
    ASSERT_EQ(twice.problems.size(), 1u);
    EXPECT_NE(twice.problems[0].find("listed twice"), std::string::npos);
}

TEST(CondaList, ReadsRowsAndSkipsItsHeader) {
    const std::string header = "# packages in environment at /opt/conda:\n#\n"
                               "# Name                    Version                   Build  Channel\n";
    const PackageList onlyHeader = parseCondaList(header);
    EXPECT_TRUE(onlyHeader.packages.empty());
    EXPECT_TRUE(onlyHeader.problems.empty());
    const PackageList list =
        parseCondaList(header + "_libgcc_mutex             0.1                        main\r\n"
                                "numpy                     1.26.4          py311h08b1b3b_0\n"
                                "requests                  2.31.0                   pypi_0    pypi\n"
                                "truncat\n");
    EXPECT_EQ(list.packages.size(), 2u) << "_libgcc_mutex starts with '_': no package name pip knows";
    EXPECT_EQ(list.packages.at("numpy"), "1.26.4 py311h08b1b3b_0");
    EXPECT_EQ(list.packages.at("requests"), "2.31.0 pypi");
    EXPECT_EQ(list.problems.size(), 2u);
}

TEST(NvidiaSmiQuery, ReadsDriverCudaAndGpusOfARealRecording) {
    const SmiFacts facts = parseNvidiaSmiQuery(test::smiFixture());
    EXPECT_EQ(facts.driver, "580.159.04");
    EXPECT_EQ(facts.cuda, "13.0");
    EXPECT_EQ(facts.gpus, std::vector<std::string>{"NVIDIA H200"});
    EXPECT_EQ(describeGpus({"NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3", "NVIDIA T4"}),
              "2 x NVIDIA H100 80GB HBM3, NVIDIA T4");

    // Output without a driver line (a driver that failed to load prints only an error).
    radt::Run run;
    const RunEnvironment env = runEnvironmentOf(
        run,
        {{"smi.txt", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\r\n"}});
    EXPECT_EQ(env.items.at("driver"), "(not in smi.txt)");
    EXPECT_EQ(env.items.at("GPU"), "(none in smi.txt)");
    EXPECT_EQ(env.items.at("radt version"), "(not recorded)");
}

TEST(EnvironmentDiff, AFileOneRunLacksIsSaidNotReadAsNoPackages) {
    radt::Run a, b;
    a.tags = b.tags = {{"radt.host.name", "node1"}, {"radt.version", "0.1.0"}};
    const std::vector<EnvironmentRow> rows =
        diffEnvironments({runEnvironmentOf(a, {{"pip.txt", "numpy==1.26.4\n"}}),
                          runEnvironmentOf(b, {}, {{"pip.txt", "is not text"}})});
    EXPECT_EQ(differingItems(rows), std::set<std::string>{"environment files"});
    for (const EnvironmentRow& row : rows) {
        if (row.item == "pip: numpy") {
            EXPECT_EQ(row.values, (std::vector<std::string>{"1.26.4", "(no pip.txt)"}));
        } else if (row.item == "environment files") {
            EXPECT_EQ(row.values,
                      (std::vector<std::string>{"pip.txt; no conda.txt; no smi.txt",
                                                "pip.txt is not text; no conda.txt; no smi.txt"}));
        }
    }
}

// Runs recorded on another machine: each one's artifact folder is out of reach under its own
// path. That is no difference in what they ran on (the Configurations tab said "mixed" for every
// configuration of the H100 MPS recording); each still says why in its own words.
TEST(EnvironmentDiff, RunsWhoseFilesAllWentUnreadForTheirOwnPathsDoNotDiffer) {
    TempDir dir;
    radt::Run a, b;
    a.tags = b.tags = {{"radt.host.name", "node1"}, {"radt.version", "0.1.0"}};
    a.artifactUri = dir.file("a/artifacts");
    b.artifactUri = dir.file("b/artifacts");
    const std::vector<EnvironmentRow> rows =
        diffEnvironments({readRunEnvironment(a, {}), readRunEnvironment(b, {})});
    EXPECT_TRUE(differingItems(rows).empty());
    ASSERT_EQ(rows.front().item, "environment files");
    EXPECT_NE(rows.front().values[0], rows.front().values[1]) << "each names its own folder";
    EXPECT_NE(rows.front().values[0].find("no such folder"), std::string::npos) << rows.front().values[0];
}

TEST(EnvironmentDiff, UnreachableAndBinaryArtifactsAreSaidPerRun) {
    TempDir dir;
    radt::Run gone;
    gone.artifactUri = dir.file("gone/artifacts");
    const RunEnvironment missing = readRunEnvironment(gone, {});
    EXPECT_NE(missing.files.at("pip.txt").find("does not exist"), std::string::npos)
        << missing.files.at("pip.txt");

    radt::Run binary;
    binary.artifactUri = dir.file("bin/artifacts");
    fs::create_directories(binary.artifactUri);
    test::writeFile(binary.artifactUri + "/pip.txt", std::string("\0\x01\x02numpy==1\n", 12));
    const RunEnvironment env = readRunEnvironment(binary, {});
    EXPECT_EQ(env.files.at("pip.txt"), "is not text");
    EXPECT_EQ(env.files.at("conda.txt"), "not recorded");
    const std::vector<EnvironmentRow> rows = diffEnvironments({missing, env});
    EXPECT_NE(rows.front().values[0].find("does not exist"), std::string::npos) << rows.front().values[0];
    EXPECT_EQ(rows.front().values[1], "pip.txt is not text; no conda.txt; no smi.txt");
}

TEST(EnvironmentDiff, TwoRecordedRunsListExactlyTheirDifferingPackages) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    const radt::Run a = test::recordEnvironmentRun(*store, "8", 1, test::kPipA);
    const radt::Run b = test::recordEnvironmentRun(*store, "8", 2, test::kPipB);
    const ArtifactContext context = artifactContextOfStore(uri);
    const std::vector<EnvironmentRow> rows =
        diffEnvironments({readRunEnvironment(a, context), readRunEnvironment(b, context)});
    EXPECT_EQ(differingItems(rows), test::kDifferingPackages);
    for (const EnvironmentRow& row : rows) {
        if (row.item == "pip: tqdm") {
            EXPECT_EQ(row.values, (std::vector<std::string>{"4.66.1", "(absent)"}));
        }
        if (row.item == "pip: torch") {
            EXPECT_EQ(row.values, (std::vector<std::string>{"2.1.0", "2.2.0"}));
        }
        if (row.item == "driver") {
            EXPECT_EQ(row.values, (std::vector<std::string>{"580.159.04", "580.159.04"}));
        }
        if (row.item == "GPU") {
            EXPECT_EQ(row.values[0], "NVIDIA H200");
        }
    }
}

TEST(EnvironmentDiff, RadtReportEnvDiffListsThemPerConfiguration) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        test::recordEnvironmentRun(*store, "8", 1, test::kPipA);
        test::recordEnvironmentRun(*store, "8", 2, test::kPipB);
        test::recordEnvironmentRun(*store, "16", 1,
                                   test::kPipA); // a configuration whose repeats share one environment
        test::recordEnvironmentRun(*store, "16", 2, test::kPipA);
    }
    const test::RadtResult text = test::runRadtToEnd(dir, {"report", "--store", uri, "--env-diff", "bench"});
    ASSERT_EQ(text.rc, 0) << text.err;
    EXPECT_NE(text.out.find("3 items differ"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("its runs share one environment"), std::string::npos) << text.out;
    for (const char* shown :
         {"pip: numpy", "1.26.4", "1.26.3", "pip: torch", "2.2.0", "pip: tqdm", "(absent)"})
        EXPECT_NE(text.out.find(shown), std::string::npos) << shown << " in\n" << text.out;
    for (const char* alike : {"requests", "radt @", "driver", "gpu-node-1"})
        EXPECT_EQ(text.out.find(alike), std::string::npos) << alike << " is alike, yet in\n" << text.out;

    const test::RadtResult json =
        test::runRadtToEnd(dir, {"report", "--store", uri, "--env-diff", "--json", "bench"});
    ASSERT_EQ(json.rc, 0) << json.err;
    const nlohmann::json report = nlohmann::json::parse(json.out);
    ASSERT_EQ(report["configurations"].size(), 2u);
    for (const nlohmann::json& c : report["configurations"]) {
        std::set<std::string> items;
        for (const nlohmann::json& d : c["environment"]["differs"]) {
            items.insert(d["item"].get<std::string>());
            EXPECT_EQ(d["values"].size(), 2u);
        }
        EXPECT_EQ(items, c["label"].get<std::string>().find("16") != std::string::npos
                             ? std::set<std::string>{}
                             : test::kDifferingPackages)
            << c["label"];
    }

    const test::RadtResult unknown =
        test::runRadtToEnd(dir, {"report", "--store", uri, "--env-diff", "nosuch"});
    EXPECT_EQ(unknown.rc, 2);
    EXPECT_NE(unknown.err.find("nosuch"), std::string::npos) << unknown.err;
    const test::RadtResult latex =
        test::runRadtToEnd(dir, {"report", "--store", uri, "--env-diff", "--latex", "bench"});
    EXPECT_EQ(latex.rc, 2);
}

// A colleague's artifact folder in a shared store: a pip.txt replaced by a named pipe hung
// `radt report --env-diff` (opening it waited for a writer), and one byte that is not UTF-8 past
// the first 64 KiB of another made `--json` exit 2 with the JSON library's message. The pipe is
// named and never opened; the byte prints as U+FFFD.
TEST(EnvironmentDiff, APipeForAFileIsNamedAndABrokenByteNeverEndsTheJson) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        const radt::Run piped = test::recordEnvironmentRun(*store, "16", 1, test::kPipA);
        test::recordEnvironmentRun(*store, "16", 2, test::kPipA);
        const std::string folder = piped.artifactUri.rfind("file://", 0) == 0
                                       ? localPathOfFileUri(piped.artifactUri)
                                       : piped.artifactUri;
        ASSERT_TRUE(fs::exists(folder + "/pip.txt")) << folder;
        fs::remove(folder + "/pip.txt");
        ASSERT_EQ(::mkfifo((folder + "/pip.txt").c_str(), 0600), 0);
        std::string big = test::kPipA;
        while (big.size() < 70 * 1024)
            big += "package-" + std::to_string(big.size()) + "==1.0\n";
        big += "mypkg @ file:///home/u/caf\xE9\n"; // a Latin-1 path, as an old tool might write it
        test::recordEnvironmentRun(*store, "8", 1, test::kPipA);
        test::recordEnvironmentRun(*store, "8", 2, big); // the broken byte: a package only this run has
    }
    const test::RadtResult json =
        test::runRadtToEnd(dir, {"report", "--store", uri, "--env-diff", "--json", "bench"});
    ASSERT_EQ(json.rc, 0) << json.err;
    const nlohmann::json report = nlohmann::json::parse(json.out);
    EXPECT_NE(json.out.find("a named pipe (FIFO), not read"), std::string::npos) << json.out.substr(0, 2000);
    EXPECT_NE(json.out.find("caf\xEF\xBF\xBD"), std::string::npos) << "U+FFFD for the broken byte";
    EXPECT_EQ(report["configurations"].size(), 2u);
}

// A pip.txt line the reader did not understand made its package "(absent)" with no word on the
// command line (the explorer's tab said it): the table and --json now name the run and the line.
TEST(EnvironmentDiff, ALineNotUnderstoodIsNamedOnTheCommandLineAsInTheExplorer) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        test::recordEnvironmentRun(*store, "8", 1, test::kPipA);
        test::recordEnvironmentRun(*store, "8", 2, std::string(test::kPipA) + "torchvision\n");
    }
    const test::RadtResult text = test::runRadtToEnd(dir, {"report", "--store", uri, "--env-diff", "bench"});
    ASSERT_EQ(text.rc, 0) << text.err;
    const size_t at = text.out.find("not understood, run ");
    ASSERT_NE(at, std::string::npos) << text.out;
    EXPECT_NE(text.out.find("pip.txt line", at), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("torchvision", at), std::string::npos) << text.out;
    const test::RadtResult json =
        test::runRadtToEnd(dir, {"report", "--store", uri, "--env-diff", "--json", "bench"});
    ASSERT_EQ(json.rc, 0) << json.err;
    const nlohmann::json report = nlohmann::json::parse(json.out);
    const nlohmann::json& said = report["configurations"][0]["environment"]["not_understood"];
    ASSERT_EQ(said.size(), 1u) << report["configurations"][0]["environment"].dump(1);
    EXPECT_NE(said.begin().value()[0].get<std::string>().find("torchvision"), std::string::npos);
}
