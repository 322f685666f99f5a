// `radt report`'s configurations as other clients and real recordings leave them (issue 37 §3-§6):
// a run still RUNNING under a real `radt`, FAILED and KILLED runs, a repeat without a power series,
// param values no LaTeX font has, and a --repeat-param no run has. Everything goes through the
// real `radt` binary and, for the paper table, the real pdflatex.

#include "InsightTestSupport.h"
#include "RadtProcess.h"
#include "Store.h"
#include "TempDir.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
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

} // namespace

namespace {

/// The repeats of addRepeatsOneWithoutPower in a store of their own: its URI.
std::string storeWithARepeatWithoutPower(const TempDir& dir) {
    const std::string uri = "sqlite:///" + dir.file("repeats.db");
    test::addRepeatsOneWithoutPower(*openStore(uri, OpenMode::CreateIfMissing));
    return uri;
}

} // namespace

// Issue 37 §6: a --repeat-param no run has (a typo of seed) made every run its own configuration
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
