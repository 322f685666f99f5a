// SPDX-License-Identifier: MIT
// A run judged against its configuration's history (core/report/RunJudgement), end to end: runs of
// a real training script recorded by the real radt (the fake GPU tools of tests/fakes), one made
// slower on purpose by a sleep the script reads from its environment (so its params, and with
// them its configuration, stay those of the others), then `radt report --judge` and `radt check`.
#include "RadtProcess.h"
#include "SciPy.h"
#include "TempDir.h"
#include "core/StoreFactory.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace radt;
using namespace radt::test;
using nlohmann::json;

namespace {

/// Three epochs of 0.4 s, each `TRAIN_EXTRA_SLEEP` seconds longer; the loss logged per epoch.
const char* const kTrainScript = R"PY(import argparse, os, time
import radt
p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--seed", type=int, default=0)
a = p.parse_args()
extra = float(os.environ.get("TRAIN_EXTRA_SLEEP", "0"))
with radt.run.RADTBenchmark() as run:
    for e in range(a.epochs):
        time.sleep(0.4 + extra)
        run.log_metric("loss", 1.0 / (e + 1), e)
)PY";

struct Recorded {
    std::string uuid; ///< from "radt: run <uuid> FINISHED"
    std::string err;
};

class RunJudgement : public ::testing::Test {
protected:
    void SetUp() override { writeFile(dir.file("train.py"), kTrainScript); }

    std::string store() const { return dir.file("runs.db"); }

    Recorded record(int seed, double extraSleep = 0, int epochs = 3) {
        auto env = fakeEnv(dir);
        env["TRAIN_EXTRA_SLEEP"] = std::to_string(extraSleep);
        env["XDG_DATA_HOME"] = dir.file("xdg");
        Radt r = startRadt(dir,
                           {"--store", store(), "-l", "smi+top", "--interval", "0.2", "--no-env-capture",
                            dir.file("train.py"), "--epochs", std::to_string(epochs), "--seed",
                            std::to_string(seed)},
                           env);
        EXPECT_EQ(r.wait(), 0) << r.err();
        const std::string err = r.err();
        const size_t at = err.find("radt: run ");
        EXPECT_NE(at, std::string::npos) << err;
        return {at == std::string::npos ? "" : err.substr(at + 10, 32), err};
    }

    RadtResult radt(std::vector<std::string> args) {
        args.insert(args.begin() + 1, {"--store", store()});
        return runRadtToEnd(dir, args);
    }

    TempDir dir;
};

TEST_F(RunJudgement, ASlowerRunIsJudgedSlowerAndANormalRepeatNormal) {
    // Three runs: each says how many earlier runs it has, and that 3 are needed.
    std::vector<Recorded> history;
    for (int seed = 1; seed <= 4; ++seed)
        history.push_back(record(seed));
    EXPECT_NE(
        history[0].err.find("radt: not judged: 0 earlier finished runs of its configuration; 3 are needed"),
        std::string::npos)
        << history[0].err;
    EXPECT_NE(history[2].err.find("radt: not judged: 2 earlier finished runs"), std::string::npos)
        << history[2].err;
    // The fourth is judged against three (its verdict depends on the machine's noise: not asserted).
    EXPECT_NE(history[3].err.find("earlier runs"), std::string::npos) << history[3].err;
    EXPECT_EQ(history[3].err.find("not judged"), std::string::npos) << history[3].err;
    // Another configuration (2 epochs) in the same experiment is no part of the history.
    const Recorded other = record(9, 0, 2);

    // A normal repeat passes a gate that allows what a shared machine's noise does to 2 s runs.
    const Recorded repeat = record(5);
    const RadtResult normal =
        radt({"check", "--json", "--on", "duration", "--min-change", "40", repeat.uuid});
    EXPECT_EQ(normal.rc, 0) << normal.out << normal.err;
    const json repeatJudged = json::parse(normal.out)["judgements"][0];
    EXPECT_EQ(repeatJudged["history"]["n"], 4u);
    EXPECT_EQ(repeatJudged["figures"][0]["verdict"], "normal") << normal.out;

    // A run with 1.2 s more sleep per epoch (about 2.5x) is slower, in every output.
    const Recorded slow = record(6, 1.2);
    EXPECT_NE(slow.err.find("radt: slower than its 5 earlier runs: "), std::string::npos) << slow.err;
    EXPECT_NE(slow.err.find("outside the 95 % prediction interval"), std::string::npos) << slow.err;
    const RadtResult gate = radt({"check", "--on", "duration,throughput", "--min-change", "40", slow.uuid});
    EXPECT_EQ(gate.rc, 1) << gate.out << gate.err;
    EXPECT_NE(gate.err.find("radt check: run " + slow.uuid + " is outside its history on duration_s"),
              std::string::npos)
        << gate.err;
    const RadtResult table = radt({"report", "--judge", slow.uuid});
    ASSERT_EQ(table.rc, 0) << table.err;
    EXPECT_NE(table.out.find("slower than its 5 earlier runs"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("outside, above"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("epochs/h"), std::string::npos) << table.out;

    const RadtResult asJson = radt({"report", "--judge", "--json", slow.uuid});
    ASSERT_EQ(asJson.rc, 0) << asJson.err;
    const json j = json::parse(asJson.out)["judgements"][0];
    EXPECT_EQ(j["verdict"], "outside");
    EXPECT_EQ(j["history"]["n"], 5u);
    EXPECT_EQ(std::count(j["history"]["runs"].begin(), j["history"]["runs"].end(), other.uuid), 0);
    EXPECT_EQ(std::count(j["history"]["runs"].begin(), j["history"]["runs"].end(), repeat.uuid), 1);
    const json& duration = j["figures"][0];
    ASSERT_EQ(duration["figure"], "duration_s");
    EXPECT_EQ(duration["verdict"], "above");
    EXPECT_GT(duration["ratio"].get<double>(), 1.5);
    EXPECT_NE(std::find(j["outside"].begin(), j["outside"].end(), "throughput_epochs_per_h"),
              j["outside"].end());

    // The interval is the Student t prediction interval of one new run, as SciPy computes it
    // from the history's durations as the store holds them.
    auto s = openStore(store(), OpenMode::ReadOnly);
    // What each run said when it finished is kept on it (the explorer's Judged field): the first
    // in so many words, the slow one marked outside.
    EXPECT_EQ(s->run(history[0].uuid)->tags.at(kRunJudgementTag),
              "not judged: 0 earlier finished runs of its configuration; 3 are needed to judge it");
    const std::string slowTag = s->run(slow.uuid)->tags.at(kRunJudgementTag);
    EXPECT_EQ(slowTag.rfind("outside: slower than its 5 earlier runs: ", 0), 0u) << slowTag;
    std::vector<double> durations;
    for (const radt::Run& r : s->runs())
        if (std::count(j["history"]["runs"].begin(), j["history"]["runs"].end(), r.uuid))
            durations.push_back(double(*r.endTime - r.startTime) / 1000.0);
    ASSERT_EQ(durations.size(), 5u);
    const json reference =
        scipy("x = " + json(durations).dump() +
              "\nimport statistics\nm = statistics.mean(x); s = statistics.stdev(x); n = len(x)\n"
              "h = stats.t.ppf(0.975, n - 1) * s * (1 + 1 / n) ** 0.5\n"
              "print(json.dumps([m, m - h, m + h]))\n");
    ASSERT_TRUE(reference.is_array());
    EXPECT_NEAR(duration["mean"].get<double>(), reference[0].get<double>(), 1e-9);
    EXPECT_NEAR(duration["interval"][0].get<double>(), reference[1].get<double>(), 1e-9);
    EXPECT_NEAR(duration["interval"][1].get<double>(), reference[2].get<double>(), 1e-9);
}

TEST_F(RunJudgement, CheckSaysWhatItCannotJudgeAndRefusesBadArguments) {
    const Recorded first = record(1);
    // Too little history: said, and no failure of the gate.
    const RadtResult young = radt({"check", first.uuid});
    EXPECT_EQ(young.rc, 0) << young.err;
    EXPECT_NE(young.err.find("not judged: 0 earlier finished runs of its configuration; 3 are needed"),
              std::string::npos)
        << young.err;
    EXPECT_NE(young.out.find("not judged"), std::string::npos) << young.out;
    // A figure that does not exist is named, with the ones that do.
    const RadtResult badFigure = radt({"check", "--on", "duration,speed", first.uuid});
    EXPECT_EQ(badFigure.rc, 2);
    EXPECT_NE(
        badFigure.err.find("--on: 'speed' is no figure a run is judged on (they are duration, gpu_energy, "
                           "energy_per_epoch, throughput"),
        std::string::npos)
        << badFigure.err;
    const RadtResult badChange = radt({"check", "--min-change", "-3", first.uuid});
    EXPECT_EQ(badChange.rc, 2);
    EXPECT_NE(badChange.err.find("--min-change expects 0 to 1000 percent"), std::string::npos)
        << badChange.err;
    const RadtResult noRun = radt({"check", "ffffffffff"});
    EXPECT_EQ(noRun.rc, 2);
    EXPECT_NE(noRun.err.find("'ffffffffff' names no run"), std::string::npos) << noRun.err;
    const RadtResult noRunGiven = radt({"check"});
    EXPECT_EQ(noRunGiven.rc, 2);
    const RadtResult judgeAsLatex = radt({"report", "--judge", "--latex", first.uuid});
    EXPECT_EQ(judgeAsLatex.rc, 2);
    EXPECT_NE(judgeAsLatex.err.find("--judge prints each run's judgement"), std::string::npos)
        << judgeAsLatex.err;
    const RadtResult changeWithoutJudge = radt({"report", "--min-change", "10", first.uuid});
    EXPECT_EQ(changeWithoutJudge.rc, 2);
    EXPECT_NE(changeWithoutJudge.err.find("--min-change goes with --judge"), std::string::npos)
        << changeWithoutJudge.err;
}

} // namespace
