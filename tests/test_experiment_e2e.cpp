// SPDX-License-Identifier: MIT
// End to end: `radt experiment.csv` with real Python workloads, the fake nvidia-smi (MIG),
// nvidia-cuda-mps-control and nsys replaying real tool output, interruption and resume, and the
// status column written back.

#include "RadtProcess.h"
#include "collector/ExperimentCsv.h"
#include "core/StoreFactory.h"
#include "core/store/RunReconciler.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <signal.h>
#include <thread>

using namespace radt;
using namespace radt::test;
namespace fs = std::filesystem;

namespace {

const char* kHeader = "Experiment,Workload,Status,Run,Devices,Collocation,File,Listeners,Params\n";

// Records when it started and what it was given, logs a loss per step through the radt module.
const char* kWorkload = R"PY(import os, sys, time
import radt
steps = int(sys.argv[sys.argv.index("--steps") + 1])
letter = os.environ["RADT_LETTER"]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "started-" + letter), "w") as f:
    f.write("%d %s\n" % (int(time.time() * 1000), os.environ.get("CUDA_VISIBLE_DEVICES", "")))
with radt.run.RADTBenchmark() as run:
    for i in range(1, steps + 1):
        time.sleep(0.1)
        print("step", i, flush=True)
        run.log_metric("loss", 1.0 / i, i)
if "--fail" in sys.argv:
    sys.exit(3)
)PY";

struct ExperimentDir {
    TempDir dir;
    std::string csv, uri;
    explicit ExperimentDir(const std::string& rows) {
        writeFile(dir.file("work.py"), kWorkload);
        csv = dir.file("experiment.csv");
        writeFile(csv, std::string(kHeader) + rows);
        uri = "sqlite:///" + dir.file("store.db");
    }
    Radt start(std::vector<std::string> extra = {}, std::map<std::string, std::string> env = {}) const {
        std::vector<std::string> args = {"--store", uri, "--interval", "0.1", "--no-env-capture"};
        args.insert(args.end(), extra.begin(), extra.end());
        args.push_back(csv);
        auto all = fakeEnv(dir);
        for (auto& [k, v] : env)
            all[k] = v;
        return startRadt(dir, args, all);
    }
    ExperimentFile file() const { return readExperimentCsv(csv); }
    std::vector<std::string> calls() const { return splitLines(readFile(dir.file("fake.log"))); }
    std::pair<int64_t, std::string> started(const std::string& letter) const {
        const std::string text = readFile(dir.file("started-" + letter));
        const auto space = text.find(' ');
        if (space == std::string::npos)
            return {0, ""};
        return {std::stoll(text.substr(0, space)), text.substr(space + 1, text.find('\n') - space - 1)};
    }
};

radt::Run runWithLetter(Store& store, const std::string& letter) {
    for (const radt::Run& r : store.runs())
        if (r.letter() == letter)
            return r;
    ADD_FAILURE() << "no run with letter " << letter;
    return {};
}

size_t indexOf(const std::vector<std::string>& calls, const std::string& prefix, size_t from = 0) {
    for (size_t i = from; i < calls.size(); ++i)
        if (calls[i].rfind(prefix, 0) == 0)
            return i;
    return std::string::npos;
}

} // namespace

TEST(ExperimentE2E, CollocatedPairThenASingleRunStatusWrittenAndResumeSkipsThem) {
    ExperimentDir e("  1,  1,  ,  ,  0,  -,work.py,top,--steps 3\n"
                    "  1,  1,  ,  ,  0,  -,work.py,top,--steps 5\n"
                    "  1,  2,  ,  ,  1,  -,work.py,top+proc,steps=2\n");
    Radt r = e.start();
    ASSERT_EQ(r.wait(), 0) << r.err();
    EXPECT_EQ(countContaining(r.out(), "[RUN 0_A] step 3"), 1) << r.out();
    EXPECT_EQ(countContaining(r.out(), "[RUN 0_B] step 5"), 1) << "each run's output has its prefix";
    EXPECT_EQ(r.out().find("\033["), std::string::npos) << "no colour when not a terminal";

    auto store = openStore(e.uri, OpenMode::OpenExisting);
    ASSERT_EQ(store->runs().size(), 3u);
    const radt::Run a = runWithLetter(*store, "0_A"), b = runWithLetter(*store, "0_B"),
                    c = runWithLetter(*store, "1");
    EXPECT_EQ(a.name, "(1 0_A) work.py");
    EXPECT_EQ(b.tags.at("mlflow.parentRunId"), a.uuid) << "collocated runs point at the workload's first run";
    EXPECT_EQ(a.tags.count("mlflow.parentRunId"), 0u);
    EXPECT_EQ(c.tags.count("mlflow.parentRunId"), 0u) << "a workload of one run is not collocated";
    EXPECT_EQ(a.experimentId, c.experimentId);
    EXPECT_EQ(store->experiments().at(1).name, "1") << "experiment '1' of the file, created on first use";
    EXPECT_EQ(c.param("steps"), "2") << "radT's older params style became --steps 2";
    EXPECT_EQ(store->series(b.uuid, "loss").step, (std::vector<int64_t>{1, 2, 3, 4, 5}));
    for (const radt::Run& run : {a, b, c}) {
        EXPECT_EQ(run.status, RunStatus::Finished);
        EXPECT_NE(readFile(run.artifactUri + "/workload.log").find("workload " + run.workload()),
                  std::string::npos);
        EXPECT_NE(readFile(run.artifactUri + "/output.log").find("step 2"), std::string::npos);
    }
    // Both runs of workload 1 started together, after their listeners were sampling.
    const auto [startA, cudaA] = e.started("0_A");
    const auto [startB, cudaB] = e.started("0_B");
    EXPECT_LT(std::abs(startA - startB), 400);
    EXPECT_EQ(cudaA, "0");
    EXPECT_EQ(e.started("1").second, "1");
    EXPECT_LE(store->series(a.uuid, "TOP - Memory Usage GB").t.front(), startA)
        << "listeners before the script";

    const ExperimentFile written = e.file();
    ASSERT_EQ(written.rows.size(), 3u);
    EXPECT_EQ(written.rows[0].status, "FINISHED (1 0_A) work.py (0_A)");
    EXPECT_EQ(written.rows[0].run, a.uuid);
    EXPECT_EQ(written.rows[1].status, "FINISHED (1 0_B) work.py (0_B)");
    EXPECT_EQ(written.rows[2].status, "FINISHED (2 1) work.py (1)");
    EXPECT_EQ(written.rows[2].rawParams, "steps=2") << "the rest of the row is kept";

    Radt again = e.start();
    EXPECT_EQ(again.wait(), 0) << again.err();
    EXPECT_EQ(countContaining(again.err(), "skipped, FINISHED"), 2) << again.err();
    EXPECT_EQ(openStore(e.uri, OpenMode::OpenExisting)->runs().size(), 3u) << "nothing ran again";
}

TEST(ExperimentE2E, MpsPairStartsAndQuitsTheDaemonAroundTheWorkload) {
    ExperimentDir e("1,1,,,0,MPS,work.py,top,--steps 2\n"
                    "1,1,,,0,MPS,work.py,top,--steps 2\n");
    Radt r = e.start();
    ASSERT_EQ(r.wait(), 0) << r.err();
    const auto calls = e.calls();
    ASSERT_EQ(calls, (std::vector<std::string>{"nvidia-cuda-mps-control -d", "nvidia-cuda-mps-control quit"}))
        << r.err();
    EXPECT_FALSE(fs::exists(e.dir.file("mps-0.running"))) << "the daemon is gone";
    auto store = openStore(e.uri, OpenMode::OpenExisting);
    EXPECT_EQ(runWithLetter(*store, "0_A_MPS").status, RunStatus::Finished);
    EXPECT_EQ(runWithLetter(*store, "0_B_MPS").param("collocation"), "MPS");
    EXPECT_EQ(e.file().rows[1].status, "FINISHED (1 0_B_MPS) work.py (0_B_MPS)");
}

TEST(ExperimentE2E, MigPairGetsItsOwnSlicesWhichAreDestroyedAfterwards) {
    ExperimentDir e("1,1,,,0,3g.20gb,work.py,top,--steps 2\n"
                    "1,1,,,0,3g.20gb,work.py,top,--steps 2\n");
    Radt r = e.start();
    ASSERT_EQ(r.wait(), 0) << r.err();
    const auto calls = e.calls();
    const std::vector<std::string> expected = {
        "nvidia-smi -L", "nvidia-smi mig -cgi 3g.20gb -C -i 0", "nvidia-smi -L", "nvidia-smi -L",
        "nvidia-smi mig -cgi 3g.20gb -C -i 0", "nvidia-smi -L",
        // after the workload: newest first, compute instance before its GPU instance
        "nvidia-smi mig -dci -ci 0 -gi 2 -i 0", "nvidia-smi mig -dgi -gi 2 -i 0",
        "nvidia-smi mig -dci -ci 0 -gi 1 -i 0", "nvidia-smi mig -dgi -gi 1 -i 0"};
    EXPECT_EQ(calls, expected) << r.err();
    const std::string cudaA = e.started("0_A_3g.20gb").second, cudaB = e.started("0_B_3g.20gb").second;
    EXPECT_EQ(cudaA.rfind("MIG-", 0), 0u) << "CUDA_VISIBLE_DEVICES is the slice's UUID: " << cudaA;
    EXPECT_EQ(cudaB.rfind("MIG-", 0), 0u) << cudaB;
    EXPECT_NE(cudaA, cudaB);
    Radt list = startRadt(e.dir, {"ls", "--store", e.uri}, fakeEnv(e.dir));
    EXPECT_EQ(list.wait(), 0);
}

TEST(ExperimentE2E, AMigFailureFailsItsWorkloadTearsDownAndTheNextWorkloadRuns) {
    // Three 3g slices do not fit in the 7 of one GPU: the third creation fails.
    ExperimentDir e("1,1,,,0,3g.20gb,work.py,top,--steps 2\n"
                    "1,1,,,0,3g.20gb,work.py,top,--steps 2\n"
                    "1,1,,,0,3g.20gb,work.py,top,--steps 2\n"
                    "1,2,,,0,-,work.py,top,--steps 1\n");
    Radt r = e.start();
    EXPECT_EQ(r.wait(), 1) << r.err();
    EXPECT_EQ(countContaining(r.err(),
                              "workload 1 failed: cannot create a MIG 3g.20gb instance on GPU 0: Failed to "
                              "create GPU instances: Insufficient Resources"),
              1)
        << r.err();
    const auto calls = e.calls();
    EXPECT_EQ(std::count_if(calls.begin(), calls.end(),
                            [](auto& c) { return c.rfind("nvidia-smi mig -dgi", 0) == 0; }),
              2)
        << "both slices that were created are destroyed";
    EXPECT_EQ(e.dir.path().empty(), false);
    auto store = openStore(e.uri, OpenMode::OpenExisting);
    for (const char* letter : {"0_A_3g.20gb", "0_B_3g.20gb", "0_C_3g.20gb"}) {
        const radt::Run run = runWithLetter(*store, letter);
        EXPECT_EQ(run.status, RunStatus::Failed) << letter;
        EXPECT_NE(run.tags.at(kFailureTag).find("Insufficient Resources"), std::string::npos);
        EXPECT_FALSE(fs::exists(e.dir.file(std::string("started-") + letter))) << "no script ran";
    }
    EXPECT_EQ(runWithLetter(*store, "0").status, RunStatus::Finished) << "the next workload still runs";
    const ExperimentFile written = e.file();
    EXPECT_EQ(written.rows[2].status, "FAILED (1 0_C_3g.20gb) work.py (0_C_3g.20gb)");
    EXPECT_EQ(written.rows[3].status, "FINISHED (2 0) work.py (0)");

    // A FAILED workload is skipped on the next call, and run again with --rerun.
    Radt skip = e.start();
    EXPECT_EQ(skip.wait(), 1);
    EXPECT_EQ(countContaining(skip.err(), "skipped, FAILED (run again with --rerun)"), 1) << skip.err();
    Radt rerun = e.start({"--rerun"}, {{"RADT_FAKE_STATE", e.dir.file("roomier-gpu.json")}});
    EXPECT_EQ(rerun.wait(), 1) << "still three slices too many";
    EXPECT_EQ(countContaining(rerun.err(), "Insufficient Resources"), 1) << rerun.err();
}

TEST(ExperimentE2E, AnMpsFailureIsNamedAndItsRunsFail) {
    ExperimentDir e("1,1,,,0,MPS,work.py,top,--steps 1\n");
    Radt r = e.start({}, {{"RADT_FAKE_MPS_FAIL", "1"}});
    EXPECT_EQ(r.wait(), 1);
    EXPECT_EQ(countContaining(r.err(),
                              "cannot start the MPS control daemon for GPU 0: An instance of this daemon is "
                              "already running"),
              1)
        << r.err();
    EXPECT_EQ(e.file().rows[0].status, "FAILED (1 0_MPS) work.py (0_MPS)");
}

TEST(ExperimentE2E, InterruptedHalfwayThenResumed) {
    ExperimentDir e("1,1,,,0,-,work.py,top,--steps 1\n"
                    "1,2,,,0,-,work.py,top,--steps 100\n"
                    "1,2,,,0,-,work.py,top,--steps 100\n"
                    "1,3,,,0,-,work.py,top,--steps 1\n");
    Radt r = e.start();
    // Both runs of workload 2 are under way when the experiment is interrupted.
    ASSERT_TRUE(waitFor(
        [&] { return fs::exists(e.dir.file("started-0_A")) && fs::exists(e.dir.file("started-0_B")); },
        20000))
        << r.err();
    ::kill(r.pid(), SIGINT);
    EXPECT_EQ(r.wait(), 130) << r.err();
    EXPECT_EQ(processesMentioning(e.dir.file("work.py")), 0) << "the workload's runs are stopped";
    ExperimentFile written = e.file();
    EXPECT_EQ(written.rows[0].status.rfind("FINISHED", 0), 0u);
    EXPECT_EQ(written.rows[1].status, "KILLED (2 0_A) work.py (0_A)");
    EXPECT_EQ(written.rows[2].status, "KILLED (2 0_B) work.py (0_B)");
    EXPECT_EQ(written.rows[3].status, "") << "not reached";
    EXPECT_NE(r.err().find("resumes with workload 2"), std::string::npos) << r.err();

    // Resume: workload 1 is skipped, the interrupted workload 2 and then 3 run.
    writeFile(e.dir.file("work.py"), readFile(e.dir.file("work.py")));
    ExperimentDir& same = e;
    std::string csv = readFile(same.csv);
    size_t pos;
    while ((pos = csv.find("--steps 100")) != std::string::npos) // shorter this time
        csv.replace(pos, 11, "--steps 2");
    writeFile(same.csv, csv);
    Radt resumed = same.start();
    EXPECT_EQ(resumed.wait(), 0) << resumed.err();
    EXPECT_EQ(countContaining(resumed.err(), "skipped, FINISHED"), 1);
    written = same.file();
    for (const ExperimentRow& row : written.rows)
        EXPECT_EQ(row.status.rfind("FINISHED", 0), 0u) << row.line << ": " << row.status;
    auto store = openStore(same.uri, OpenMode::OpenExisting);
    EXPECT_EQ(store->runs().size(), 6u) << "1 + 2 killed + 2 rerun + 1";
}

TEST(ExperimentE2E, NsysWrapsTheCommandAndItsReportIsAnArtifact) {
    ExperimentDir e("1,1,,,0,-,work.py,top+nsys,--steps 1\n");
    Radt r = e.start();
    ASSERT_EQ(r.wait(), 0) << r.err();
    auto store = openStore(e.uri, OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    const auto calls = e.calls();
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].rfind("nsys profile -o " + run.artifactUri +
                                 "/nsys --force-overwrite=true "
                                 "--capture-range=nvtx --nvtx-capture=profile ",
                             0),
              0u)
        << calls[0];
    EXPECT_NE(calls[0].find("work.py --steps 1"), std::string::npos);
    EXPECT_TRUE(fs::exists(run.artifactUri + "/nsys.nsys-rep")) << "the report is stored with the run";
    EXPECT_EQ(run.status, RunStatus::Finished);
}

TEST(ExperimentE2E, DryRunPrintsThePlanAndTouchesNothing) {
    ExperimentDir e("1,1,,,0,3g.20gb,work.py,smi+top,--steps 1 --lr 0.1\n"
                    "1,1,,,0,MPS,work.py,top,--steps 1\n");
    const std::string before = readFile(e.csv);
    Radt r = e.start({"--dry-run"});
    ASSERT_EQ(r.wait(), 0) << r.err();
    const std::string plan = r.out();
    EXPECT_NE(plan.find("[RUN 0_A_3g.20gb] python3 " + e.dir.file("work.py") + " --steps 1 --lr 0.1"),
              std::string::npos)
        << plan;
    EXPECT_NE(plan.find("nvidia-smi mig -cgi 3g.20gb -C -i 0"), std::string::npos);
    EXPECT_NE(plan.find("CUDA_VISIBLE_DEVICES=<UUID of the new MIG 3g.20gb device>"), std::string::npos);
    EXPECT_NE(plan.find("nvidia-cuda-mps-control -d"), std::string::npos);
    EXPECT_NE(plan.find("mlflow.parentRunId"), std::string::npos);
    EXPECT_EQ(readFile(e.csv), before);
    EXPECT_FALSE(fs::exists(e.dir.file("store.db"))) << "no store opened";
    EXPECT_TRUE(e.calls().empty()) << "no tool called";
}

TEST(ExperimentE2E, ABrokenFileIsNamedWithLineAndColumnAndNothingRuns) {
    ExperimentDir e("1,1,,,0,-,work.py,top,--steps 1\n"
                    "1,2,,,0,-,work.py,top+gpu-magic,--steps 1\n");
    const std::string before = readFile(e.csv);
    Radt r = e.start();
    EXPECT_EQ(r.wait(), 2);
    EXPECT_NE(r.err().find(e.csv + ":3:8: "), std::string::npos) << r.err();
    EXPECT_NE(r.err().find("gpu-magic"), std::string::npos);
    EXPECT_EQ(readFile(e.csv), before);
    EXPECT_FALSE(fs::exists(e.dir.file("store.db")));
}

TEST(ExperimentE2E, MigSlicesAreDestroyedAfterAFailingRunAndAfterCtrlC) {
    {
        ExperimentDir e("1,1,,,0,1g.5gb,work.py,top,--steps 1 --fail\n");
        Radt r = e.start();
        EXPECT_EQ(r.wait(), 1) << r.err();
        EXPECT_EQ(e.file().rows[0].status, "FAILED (1 0_1g.5gb) work.py (0_1g.5gb)");
        const auto calls = e.calls();
        ASSERT_GE(calls.size(), 2u);
        EXPECT_EQ(calls[calls.size() - 2], "nvidia-smi mig -dci -ci 0 -gi 1 -i 0");
        EXPECT_EQ(calls.back(), "nvidia-smi mig -dgi -gi 1 -i 0");
    }
    {
        ExperimentDir e("1,1,,,0,1g.5gb,work.py,top,--steps 100\n"
                        "1,1,,,0,MPS,work.py,top,--steps 100\n");
        Radt r = e.start();
        ASSERT_TRUE(waitFor([&] { return fs::exists(e.dir.file("started-0_B_MPS")); }, 20000)) << r.err();
        ::kill(r.pid(), SIGINT);
        EXPECT_EQ(r.wait(), 130) << r.err();
        const auto calls = e.calls();
        EXPECT_NE(indexOf(calls, "nvidia-cuda-mps-control quit"), std::string::npos) << r.err();
        EXPECT_NE(indexOf(calls, "nvidia-smi mig -dgi -gi 1 -i 0"), std::string::npos) << r.err();
        EXPECT_EQ(e.file().rows[0].status, "KILLED (1 0_A_1g.5gb) work.py (0_A_1g.5gb)");
    }
}

TEST(ExperimentE2E, MigInstancesOfARadtKilledWithSigkillAreRemovedByTheNextRadt) {
    // Regression: kill -9 during a MIG workload left the instances; nothing removed them.
    ExperimentDir e("1,1,,,0,1g.5gb,work.py,top,--steps 200\n");
    const std::map<std::string, std::string> state = {{"RADT_STATE_DIR", e.dir.file("state")}};
    Radt r = e.start({}, state);
    ASSERT_TRUE(waitFor([&] { return fs::exists(e.dir.file("started-0_1g.5gb")); }, 20000)) << r.err();
    ::kill(r.pid(), SIGKILL);
    r.wait();
    const std::string instances = readFile(e.dir.file("gpu-state.json"));
    EXPECT_NE(instances.find("1g.5gb"), std::string::npos)
        << "the dead radt's instance is still there: " << instances;
    // Its workload is in its own process group: end it, as a user would.
    std::system(("pkill -9 -f " + e.dir.file("work.py") + " 2>/dev/null").c_str());

    ExperimentDir next("1,1,,,0,-,work.py,top,--steps 1\n");
    auto env = state;
    env["RADT_FAKE_STATE"] = e.dir.file("gpu-state.json"); // the same GPU
    env["RADT_FAKE_LOG"] = e.dir.file("fake.log");
    Radt again = next.start({}, env);
    EXPECT_EQ(again.wait(), 0) << again.err();
    EXPECT_NE(again.err().find("MIG instances left by radt (pid " + std::to_string(r.pid()) +
                               ", no longer running)"),
              std::string::npos)
        << again.err();
    const auto calls = e.calls();
    EXPECT_NE(indexOf(calls, "nvidia-smi mig -dci -ci 0 -gi 1 -i 0"), std::string::npos);
    EXPECT_NE(indexOf(calls, "nvidia-smi mig -dgi -gi 1 -i 0"), std::string::npos);
    EXPECT_EQ(readFile(e.dir.file("gpu-state.json")).find("1g.5gb"), std::string::npos)
        << readFile(e.dir.file("gpu-state.json"));
    EXPECT_TRUE(fs::is_empty(e.dir.file("state"))) << "the ledger is gone";
}

// An experiment's repeats are judged as `radt RUN` judges a run: each finished run against the
// earlier runs of its configuration, said in the output and kept on the run (radt.judgement).
TEST(ExperimentE2E, EachFinishedRunIsJudgedAgainstTheEarlierRunsOfItsConfiguration) {
    ExperimentDir e("1,1,,,0,-,work.py,top,--steps 3 --seed 1\n"
                    "1,2,,,0,-,work.py,top,--steps 3 --seed 2\n"
                    "1,3,,,0,-,work.py,top,--steps 3 --seed 3\n"
                    "1,4,,,0,-,work.py,top,--steps 3 --seed 4\n");
    Radt r = e.start();
    ASSERT_EQ(r.wait(), 0) << r.err();
    EXPECT_NE(r.err().find("not judged: 0 earlier finished runs of its configuration; 3 are needed"),
              std::string::npos)
        << r.err();
    EXPECT_NE(r.err().find("not judged: 2 earlier finished runs"), std::string::npos) << r.err();
    auto store = openStore(e.uri, OpenMode::OpenExisting);
    int judged = 0;
    for (const radt::Run& run : store->runs()) {
        const auto tag = run.tags.find(kRunJudgementTag);
        ASSERT_NE(tag, run.tags.end()) << "run " << run.uuid << " (workload " << run.workload() << ")";
        judged += tag->second.rfind("not judged", 0) != 0;
        if (run.workload() == "4") // against workloads 1 to 3: normal or outside, but judged
            EXPECT_NE(tag->second.find("its 3 earlier runs"), std::string::npos) << tag->second;
    }
    EXPECT_EQ(judged, 1);
}
