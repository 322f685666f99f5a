// SPDX-License-Identifier: MIT
#pragma once
// Runs whose recorded environments differ, in a real store: pip.txt files that differ
// in exactly two versions and one package only run A has, beside the real `nvidia-smi -q` recording.

#include "TempDir.h"
#include "core/artifacts/ArtifactLocation.h"
#include "core/store/Store.h"

#include <filesystem>
#include <set>
#include <string>

namespace radt::test {

/// The real `nvidia-smi -q` of an H200 (tests/fixtures/tools).
inline std::string smiFixture() {
    return readFile(std::string(RADT_FIXTURES_DIR) + "/tools/nvidia-smi_q_h200.txt");
}

inline const char* const kPipA = "# radt's run A\n"
                                 "numpy==1.26.4\n"
                                 "torch==2.1.0\n"
                                 "tqdm==4.66.1\n"
                                 "requests==2.31.0\n"
                                 "radt @ file:///home/u/radt\n";
/// Two versions moved (numpy, torch), tqdm gone; the rest alike; written on Windows (CRLF).
inline const char* const kPipB = "numpy==1.26.3\r\n"
                                 "torch==2.2.0\r\n"
                                 "requests==2.31.0\r\n"
                                 "radt @ file:///home/u/radt\r\n";
/// What an environment diff of a run with kPipA and one with kPipB lists.
inline const std::set<std::string> kDifferingPackages{"pip: numpy", "pip: torch", "pip: tqdm"};

/// A finished run of train.py in experiment "bench" with params size and seed, the host tags radt
/// writes, and `pip` as its pip.txt beside smiFixture() as its smi.txt.
inline Run recordEnvironmentRun(Store& store, const std::string& size, int seed, const std::string& pip) {
    const int64_t experiment = store.getOrCreateExperiment("bench");
    const int64_t t0 = 1'700'000'000'000 + seed * 100'000 + std::stoll(size) * 1'000'000;
    const Run run = store.createRun({experiment, "train.py", t0, "u", "train.py", RunStatus::Running});
    store.logParams(run.uuid, {{"model", "train.py"}, {"size", size}, {"seed", std::to_string(seed)}});
    store.setTags(run.uuid, {{"radt.host.name", "gpu-node-1"},
                             {"radt.host.cpu", "AMD EPYC 9334 32-Core Processor"},
                             {"radt.host.cores", "64"},
                             {"radt.version", "0.1.0"}});
    std::vector<MetricPoint> points;
    for (int i = 0; i <= 10; ++i)
        points.push_back({"DCGMI - Power Usage", 100.0, t0 + i * 1000, 0});
    store.logMetrics(run.uuid, points);
    store.setRunStatus(run.uuid, RunStatus::Finished, t0 + 10'000);
    const std::string folder =
        run.artifactUri.rfind("file://", 0) == 0 ? localPathOfFileUri(run.artifactUri) : run.artifactUri;
    std::filesystem::create_directories(folder);
    writeFile(folder + "/pip.txt", pip);
    writeFile(folder + "/smi.txt", smiFixture());
    return *store.run(run.uuid);
}

} // namespace radt::test
