// SPDX-License-Identifier: MIT
// `radt report`'s configurations as other clients and real recordings leave them:
// a run still RUNNING under a real `radt`, FAILED and KILLED runs, a repeat without a power series,
// param values no LaTeX font has, and a --repeat-param no run has. Everything goes through the
// real `radt` binary and, for the paper table, the real pdflatex.

#include "InsightTestSupport.h"
#include "RadtProcess.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/report/LatexText.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

using namespace radt;
using radt::test::TempDir;

namespace {

struct Result {
    int rc = -1;
    std::string out;
    std::string err;
};

/// The real `radt` with `args` until it ends, its data under `dir` (never the user's home).
Result radtRun(const TempDir& dir, const std::vector<std::string>& args,
               std::map<std::string, std::string> env = {}) {
    env["XDG_DATA_HOME"] = dir.path();
    test::Radt radt = test::startRadt(dir, args, env);
    const int rc = radt.wait();
    return {rc, radt.out(), radt.err()};
}

/// A workload that finishes in half a second, fails when FAIL is set, and when HOLD names a file
/// writes it and sleeps a minute: a run that stays RUNNING while the test reports on it.
const char* const kWorkload = "import os, sys, time\n"
                              "if os.environ.get('HOLD'):\n"
                              "    open(os.environ['HOLD'], 'w').write('started')\n"
                              "    time.sleep(60)\n"
                              "time.sleep(0.5)\n"
                              "sys.exit(3 if os.environ.get('FAIL') else 0)\n";

/// The fields of one CSV line (RFC 4180 quotes, as csvField writes them).
std::vector<std::string> csvFields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"')
            fields.back() += line[++i];
        else if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted)
            fields.emplace_back();
        else
            fields.back() += line[i];
    }
    return fields;
}

std::string firstLine(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

} // namespace

// Two finished repeats, one failed, one still recording under a real radt. Only the
// finished two are the configuration (N=2, and its mean is theirs); every output says what was
// left out and why; the per-run table still lists all four with their status.
TEST(ReportConfigurations, RunningFailedAndKilledRunsAreLeftOutOfConfigurationsAndSaid) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("bench.db");
    const std::string script = dir.file("work.py");
    test::writeFile(script, kWorkload);
    for (const std::string seed : {"1", "2"})
        ASSERT_EQ(radtRun(dir, {"--store", uri, "--interval", "0.2", "-e", "bench", script, "--size", "8",
                                "--seed", seed})
                      .rc,
                  0);
    ASSERT_EQ(
        radtRun(dir,
                {"--store", uri, "--interval", "0.2", "-e", "bench", script, "--size", "8", "--seed", "3"},
                {{"FAIL", "1"}})
            .rc,
        3)
        << "radt exits with its workload's status";
    // The fourth repeat is recorded by a real radt that is still running while we report.
    test::Radt held = test::startRadt(
        dir, {"--store", uri, "--interval", "0.2", "-e", "bench", script, "--size", "8", "--seed", "4"},
        {{"HOLD", dir.file("held")}, {"XDG_DATA_HOME", dir.path()}});
    for (int i = 0; i < 200 && test::readFile(dir.file("held")).empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_EQ(test::readFile(dir.file("held")), "started") << held.err();

    const Result json = radtRun(dir, {"report", "--store", uri, "--json", "bench"});
    ASSERT_EQ(json.rc, 0) << json.err;
    const auto report = nlohmann::json::parse(json.out);
    ASSERT_EQ(report["runs"].size(), 4u);
    std::vector<double> finished;
    std::map<std::string, int> statuses;
    for (const auto& r : report["runs"]) {
        ++statuses[r["status"].get<std::string>()];
        if (r["status"] == "FINISHED")
            finished.push_back(r["duration_s"].get<double>());
        else
            EXPECT_TRUE(r["configuration"].is_null()) << r["status"] << " is no repeat";
    }
    EXPECT_EQ(statuses, (std::map<std::string, int>{{"FAILED", 1}, {"FINISHED", 2}, {"RUNNING", 1}}));
    ASSERT_EQ(finished.size(), 2u);
    ASSERT_EQ(report["configurations"].size(), 1u) << report["configurations"].dump(1);
    const auto& duration = report["configurations"][0]["stats"]["duration_s"];
    EXPECT_EQ(report["configurations"][0]["runs"].size(), 2u);
    EXPECT_EQ(duration["n"], 2);
    EXPECT_DOUBLE_EQ(duration["mean"].get<double>(), (finished[0] + finished[1]) / 2);
    EXPECT_EQ(report["left_out_of_configurations"], (nlohmann::json{{"failed", 1}, {"running", 1}}));

    const std::string said =
        "left out of configurations: 1 failed, 1 running (only finished runs are repeats";
    const Result table = radtRun(dir, {"report", "--store", uri, "bench"});
    ASSERT_EQ(table.rc, 0) << table.err;
    EXPECT_NE(table.out.find(said), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("RUNNING"), std::string::npos)
        << "the per-run table still lists it: " << table.out;
    EXPECT_NE(table.out.find("FAILED"), std::string::npos) << table.out;
    const Result csv = radtRun(dir, {"report", "--store", uri, "--csv", "bench"});
    ASSERT_EQ(csv.rc, 0) << csv.err;
    EXPECT_NE(csv.err.find("radt report: " + said), std::string::npos) << "said on stderr: " << csv.err;
    EXPECT_EQ(firstLine(csv.out).rfind("configuration,label,n,replicate,runs,params,", 0), 0u)
        << "no comment line before the header: " << csv.out;
    test::writeFile(dir.file("configurations.csv"), csv.out);
    const std::string read = test::readByPythonCsvReaders(dir.file("configurations.csv"));
    EXPECT_EQ(test::splitLines(read),
              (std::vector<std::string>{"csv 1 31 configuration", "pandas 1 31 configuration"}))
        << read;
    EXPECT_NE(csv.out.find("\n0,all runs,2,"), std::string::npos) << "N is the finished runs': " << csv.out;
    const Result latex = radtRun(dir, {"report", "--store", uri, "--latex", "bench"});
    ASSERT_EQ(latex.rc, 0) << latex.err;
    EXPECT_NE(latex.out.find("% " + said), std::string::npos) << latex.out;
    EXPECT_NE(latex.out.find(" & 2 & $"), std::string::npos) << latex.out;

    // Nor is it a baseline to compare with.
    std::string running;
    for (const auto& r : report["runs"])
        if (r["status"] == "RUNNING")
            running = r["run_uuid"];
    const Result baseline = radtRun(dir, {"report", "--store", uri, "--baseline", running, "bench"});
    EXPECT_EQ(baseline.rc, 2);
    EXPECT_NE(baseline.err.find("--baseline " + running +
                                " is a RUNNING run: only finished runs are repeats to compare with"),
              std::string::npos)
        << baseline.err;

    // Stopped, the held run is KILLED: still no repeat.
    kill(held.pid(), SIGTERM);
    EXPECT_EQ(held.wait(), 128 + SIGTERM) << held.err();
    const Result after = radtRun(dir, {"report", "--store", uri, "--json", "bench"});
    ASSERT_EQ(after.rc, 0) << after.err;
    EXPECT_EQ(nlohmann::json::parse(after.out)["left_out_of_configurations"],
              (nlohmann::json{{"failed", 1}, {"killed", 1}}));
    // The script's own --seed is a param of these runs: naming it is accepted.
    const Result seed = radtRun(dir, {"report", "--store", uri, "--repeat-param", "seed", "bench"});
    EXPECT_EQ(seed.rc, 0) << seed.err;
}

namespace {

/// The repeats of addRepeatsOneWithoutPower in a store of their own: its URI.
std::string storeWithARepeatWithoutPower(const TempDir& dir) {
    const std::string uri = "sqlite:///" + dir.file("repeats.db");
    test::addRepeatsOneWithoutPower(*openStore(uri, OpenMode::CreateIfMissing));
    return uri;
}

} // namespace

// Energy over two runs beside N=3 said its own N in every output.
TEST(ReportConfigurations, EachFigureCarriesItsOwnN) {
    TempDir dir;
    const std::string uri = storeWithARepeatWithoutPower(dir);
    const Result json = radtRun(dir, {"report", "--store", uri, "--json", "bench"});
    ASSERT_EQ(json.rc, 0) << json.err;
    const auto stats = nlohmann::json::parse(json.out)["configurations"][0]["stats"];
    EXPECT_EQ(stats["duration_s"]["n"], 3);
    EXPECT_EQ(stats["gpu_energy_j"]["n"], 2);
    EXPECT_DOUBLE_EQ(stats["gpu_energy_j"]["mean"].get<double>(), 1500.0) << "1000 J and 2000 J";

    const Result csv = radtRun(dir, {"report", "--store", uri, "--csv", "bench"});
    ASSERT_EQ(csv.rc, 0) << csv.err;
    std::istringstream lines(csv.out);
    std::string header, row;
    std::getline(lines, header);
    std::getline(lines, row);
    const std::vector<std::string> names = csvFields(header), cells = csvFields(row);
    auto cell = [&](const std::string& name) {
        const auto at = std::find(names.begin(), names.end(), name);
        return at == names.end() ? std::string("(no column " + name + ")")
                                 : cells.at(size_t(at - names.begin()));
    };
    EXPECT_EQ(cell("n"), "3") << csv.out;
    EXPECT_EQ(cell("duration_s_n"), "3") << csv.out;
    EXPECT_EQ(cell("gpu_energy_j_n"), "2") << csv.out;
    EXPECT_EQ(cell("gpu_energy_j_mean"), "1500.000000") << csv.out;
    EXPECT_EQ(cell("gpu_util_pct_n"), "0") << csv.out;
    EXPECT_EQ(cell("params"), "model=train.py, runs_per_gpu=1, size=8") << csv.out;

    const Result latex = radtRun(dir, {"report", "--store", uri, "--latex", "bench"});
    ASSERT_EQ(latex.rc, 0) << latex.err;
    EXPECT_NE(latex.out.find("& 3 & $10.00 \\pm 0.00$ & $1.5 \\pm 6.4$ ($n{=}2$) & --"), std::string::npos)
        << "time over all 3, energy over its 2, each to its interval's precision: " << latex.out;
    EXPECT_NE(latex.out.find("($n{=}K$): that figure is over the $K$ of the $N$ runs"), std::string::npos);
    const Result table = radtRun(dir, {"report", "--store", uri, "bench"});
    ASSERT_EQ(table.rc, 0) << table.err;
    EXPECT_NE(table.out.find("1.5 ± 6.4 (n=2)"), std::string::npos) << table.out;
}

// Regression: a --repeat-param no run has (a typo of seed) made every run its own configuration
// without a word; it is refused, naming the param and the params the runs have.
TEST(ReportConfigurations, ARepeatParamNoRunHasIsRefusedNamingTheRunsParams) {
    TempDir dir;
    const std::string uri = storeWithARepeatWithoutPower(dir);
    const Result typo = radtRun(dir, {"report", "--store", uri, "--repeat-param", "sed", "bench"});
    EXPECT_EQ(typo.rc, 2);
    EXPECT_NE(typo.err.find("--repeat-param 'sed' is not a param of the runs reported (they have 'model', "
                            "'seed', 'size')"),
              std::string::npos)
        << typo.err;
    EXPECT_EQ(typo.out, "") << "nothing half-printed";
    const Result second = radtRun(dir, {"report", "--store", uri, "--repeat-param", "seed", "--repeat-param",
                                        "trial", "--json", "bench"});
    EXPECT_EQ(second.rc, 2);
    EXPECT_NE(second.err.find("--repeat-param 'trial' is not a param"), std::string::npos) << second.err;
    const Result known =
        radtRun(dir, {"report", "--store", uri, "--repeat-param", "seed", "--json", "bench"});
    ASSERT_EQ(known.rc, 0) << known.err;
    EXPECT_EQ(nlohmann::json::parse(known.out)["configurations"].size(), 1u);
    const Result byDefault = radtRun(dir, {"report", "--store", uri, "--json", "bench"});
    EXPECT_EQ(byDefault.rc, 0) << byDefault.err;
}

namespace {

/// One finished run per value of the param "tag", written through the store API.
std::string storeWithTags(const TempDir& dir, const std::vector<std::string>& tags) {
    const std::string uri = "sqlite:///" + dir.file("tags.db");
    auto store = openStore(uri, OpenMode::CreateIfMissing);
    const int64_t experiment = store->getOrCreateExperiment("paper");
    const int64_t t0 = test::kInsightT0;
    for (const std::string& tag : tags) {
        const Run run = store->createRun({experiment, "train.py", t0, "u", "train.py", RunStatus::Running});
        store->logParams(run.uuid, {{"tag", tag}});
        store->logMetrics(run.uuid, {{"loss", 0.5, t0 + 5000, 1}});
        store->setRunStatus(run.uuid, RunStatus::Finished, t0 + 5000);
    }
    return uri;
}

bool haveProgram(const std::string& name) {
    return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

} // namespace

// Every param value compiles under a plain article with booktabs and prints as it
// was written: `<x> |y| --z` was `¡x¿ —y— –z`, Greek, CJK and emoji stopped pdflatex ("Unicode
// character ... not set up"), control bytes went into the document. Compiled by the real pdflatex
// and read back from the PDF.
TEST(ReportConfigurations, TheLatexTableOfAnyParamValueCompilesAndPrintsAsWritten) {
    // Both or a counted skip: a pass that never read the PDF back would claim more than it checked.
    if (!haveProgram("pdflatex") || !haveProgram("pdftotext"))
        GTEST_SKIP() << "pdflatex and pdftotext are needed (texlive-latex-base, poppler-utils; "
                        "resources/install-deps.sh installs them)";
    TempDir dir;
    const std::string uri = storeWithTags(
        dir, {"<x> |y| --z", "\xCE\xB1\xCE\xB2\xCE\xB3 \xCE\xA9 caf\xC3\xA9",
              "\xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80", "bell\x07 esc\x1b[0m \"q\" 'a' `b` \xC2\xAE"});
    const Result latex = radtRun(dir, {"report", "--store", uri, "--latex", "paper"});
    ASSERT_EQ(latex.rc, 0) << latex.err;
    EXPECT_EQ(
        firstLine(latex.out).rfind("% radt report --latex: needs \\usepackage{booktabs} and nothing else", 0),
        0u)
        << latex.out;
    EXPECT_NE(latex.out.find("\\textless{}x\\textgreater{} \\textbar{}y\\textbar{} -{}-z"), std::string::npos)
        << latex.out;
    // Which configuration each tag is depends on the runs' order: the comment names it.
    const size_t dropped = latex.out.find(": control bytes dropped (they print nothing): 0x07 0x1b\n");
    ASSERT_NE(dropped, std::string::npos) << latex.out;
    EXPECT_EQ(latex.out.rfind("\n% configuration ", dropped), latex.out.rfind('\n', dropped)) << latex.out;
    EXPECT_NE(
        latex.out.find(": characters with no glyph in plain pdflatex written as [U+XXXX]: U+4E2D U+6587 "
                       "U+1F600\n"),
        std::string::npos)
        << latex.out;
    EXPECT_EQ(latex.out.find('\x07'), std::string::npos) << "no control byte reaches the document";

    test::writeFile(dir.file("paper.tex"),
                    "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n" + latex.out +
                        "\\end{document}\n");
    const int status = std::system(("cd " + test::shellQuote(dir.path()) +
                                    " && TEXMFVAR=texmf-var pdflatex -interaction=nonstopmode -halt-on-error "
                                    "paper.tex >pdflatex.log 2>&1")
                                       .c_str());
    const std::string log = test::readFile(dir.file("paper.log"));
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << test::readFile(dir.file("pdflatex.log"));
    EXPECT_EQ(log.find("\n! "), std::string::npos) << log;
    EXPECT_EQ(log.find("not set up for use with LaTeX"), std::string::npos) << log;
    // No font had to be made as a bitmap (TS1 without cm-super): every glyph is a Type 1 font's.
    EXPECT_FALSE(std::filesystem::exists(dir.file("texmf-var/fonts"))) << "bitmap fonts made for the table";
    ASSERT_EQ(
        std::system(
            ("cd " + test::shellQuote(dir.path()) + " && pdftotext -enc UTF-8 paper.pdf paper.txt").c_str()),
        0);
    // A configuration's name wraps in its column: read the text as one line.
    std::string text = test::readFile(dir.file("paper.txt"));
    std::replace(text.begin(), text.end(), '\n', ' ');
    // pdftotext reads an accented letter as its letter and a combining accent (U+0301).
    // And capital omega from Computer Modern as the ohm sign (U+2126), the same glyph.
    for (const std::string printed : {"<x> |y| --z", "\xCE\xB1\xCE\xB2\xCE\xB3 \xE2\x84\xA6 cafe\xCC\x81",
                                      "[U+4E2D][U+6587] [U+1F600]", "bell esc[0m \"q\" 'a' `b` (R)"})
        EXPECT_NE(text.find(printed), std::string::npos) << "'" << printed << "' not in the PDF's text:\n"
                                                         << text;
}

// The same rules, character by character, on what a store cannot even hold: bytes that are not UTF-8.
TEST(ReportConfigurations, LatexTextDropsBytesThatAreNotUtf8AndSaysWhich) {
    LatexTextLosses losses;
    EXPECT_EQ(latexText("a\xff\xc3(b---c", losses), "a(b-{}-{}-c");
    EXPECT_EQ(losses.invalidBytes, (std::set<unsigned char>{0xc3, 0xff}));
    EXPECT_EQ(latexLossComments(losses, "configuration 0"),
              "% configuration 0: bytes that are not UTF-8 dropped: 0xc3 0xff\n");
    LatexTextLosses none;
    EXPECT_EQ(latexText("\xC3\xBC \xCE\xB1 50%_#&$~^\\{}", none),
              "\\\"{u} \\ensuremath{\\alpha} 50\\%\\_\\#\\&\\$\\textasciitilde{}\\textasciicircum{}"
              "\\textbackslash{}\\{\\}");
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(latexLossComments(none, "configuration 0"), "");
}

// A report's comparisons grew with the square of the configurations: 1,000 single-run
// configurations printed every pair, "no test" included (half a million lines, 1.36 GB). Now every
// pair only up to kAllPairsUpTo configurations, each against #0 beyond, and pairs that cannot be
// tested counted in one line past kListUntestedUpTo; what is left out is said in every format.
TEST(ReportConfigurations, ManyConfigurationsAreComparedInLinearTimeAndWhatIsLeftOutIsSaid) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("many.db");
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        const int64_t single = store->getOrCreateExperiment("single");
        const int64_t repeated = store->getOrCreateExperiment("repeated");
        const int64_t t0 = 1'700'000'000'000;
        auto add = [&](int64_t experiment, int batch, int seed, int64_t durationMs) {
            const radt::Run run =
                store->createRun({experiment, "r", t0, "test", "train.py", RunStatus::Running});
            store->logParams(run.uuid, {{"workload", std::to_string(batch * 10 + seed)},
                                        {"letter", "0"},
                                        {"batch", std::to_string(batch)},
                                        {"seed", std::to_string(seed)}});
            store->setRunStatus(run.uuid, RunStatus::Finished, t0 + durationMs);
        };
        for (int b = 0; b < 1000; ++b)
            add(single, b, 0, 10'000 + b);
        for (int b = 0; b < 70; ++b)
            for (int seed = 0; seed < 2; ++seed)
                add(repeated, b, seed, 10'000 + b * 100 + seed * 37);
    }
    const Result table = radtRun(dir, {"report", "--store", uri, "single"});
    ASSERT_EQ(table.rc, 0) << table.err;
    const size_t lines = size_t(std::count(table.out.begin(), table.out.end(), '\n'));
    EXPECT_LT(lines, 3100u) << "three tables of a line a run (runs, configurations, workloads), not a line a "
                               "pair (half a million)";
    EXPECT_NE(table.out.find("999 comparisons could not be tested (a configuration with one run, or no "
                             "spread) and are not listed"),
              std::string::npos)
        << table.out.substr(table.out.size() - std::min<size_t>(table.out.size(), 2000));
    EXPECT_NE(table.out.find("each configuration is compared with #0 only"), std::string::npos);

    const Result single = radtRun(dir, {"report", "--store", uri, "--json", "single"});
    ASSERT_EQ(single.rc, 0) << single.err;
    const auto report = nlohmann::json::parse(single.out);
    EXPECT_EQ(report["configurations"].size(), 1000u);
    EXPECT_TRUE(report["comparisons"].empty()) << "none of them could be tested";
    EXPECT_EQ(report["comparisons_scope"]["untested"], 999);
    EXPECT_EQ(report["comparisons_scope"]["each_against"], 0);

    // 70 configurations of two repeats: each tested against #0, 69 for duration (no energy here).
    const Result repeated = radtRun(dir, {"report", "--store", uri, "--json", "repeated"});
    ASSERT_EQ(repeated.rc, 0) << repeated.err;
    const auto both = nlohmann::json::parse(repeated.out);
    ASSERT_EQ(both["configurations"].size(), 70u);
    ASSERT_EQ(both["comparisons"].size(), 69u);
    for (const auto& k : both["comparisons"]) {
        EXPECT_EQ(k["a"], 0);
        EXPECT_TRUE(k["p_adjusted"].is_number()) << "two repeats with spread: a test, adjusted over 69";
    }
    EXPECT_EQ(both["comparisons_scope"]["why"], "first");
    const Result csv = radtRun(dir, {"report", "--store", uri, "--csv", "repeated"});
    ASSERT_EQ(csv.rc, 0) << csv.err;
    EXPECT_NE(csv.err.find("radt report: each configuration is compared with #0 only"), std::string::npos)
        << csv.err;
    test::writeFile(dir.file("repeated.csv"), csv.out);
    const std::string read = test::readByPythonCsvReaders(dir.file("repeated.csv"));
    EXPECT_EQ(test::splitLines(read),
              (std::vector<std::string>{"csv 70 31 configuration", "pandas 70 31 configuration"}))
        << read;
    const Result baseline =
        radtRun(dir, {"report", "--store", uri, "--json", "--baseline", "#5", "repeated"});
    ASSERT_EQ(baseline.rc, 0) << baseline.err;
    const auto against5 = nlohmann::json::parse(baseline.out);
    EXPECT_EQ(against5["comparisons"].size(), 69u);
    EXPECT_EQ(against5["comparisons_scope"]["each_against"], 5);
    EXPECT_EQ(against5["comparisons_scope"]["why"], "baseline");
}
