// SPDX-License-Identifier: MIT
// `radt report` over 8 runs x 20 metrics x 20k samples (100k with RADT_BENCH_FULL=1),
// next to a raw sqlite3 SELECT of the same rows (every series the report reads, read once): the
// floor for any report, since the analyses themselves are single passes. Figure report_ratio,
// goal <= 1.5. RADT_BENCH_REPORT_SAMPLES sets the samples per series.
// Figure report_configs_ms (goal: under 2 s at 10k): the report of 100 runs x 20 metrics
// x 2k samples (10k with RADT_BENCH_FULL=1, or RADT_BENCH_REPORT_CONFIG_SAMPLES), ten
// configurations of ten seeds each, with its statistics, tests and frontier.
// Figures report_1000_configs_ms and _rss_mb (goal under 1 s and 100 MB), and
// report_1000_over_100_configs_ratio (linear: about 10): the report, JSON and text table, of 1,000
// single-run configurations against 100 of them in the same run.
// The stores are made once and kept (bench-cache in the build tree, or $RADT_BENCH_CACHE), named
// after their size and the generator's version.

#include "BenchSupport.h"
#include "core/StoreFactory.h"
#include "core/analysis/InsightReport.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

using namespace radt;

namespace {

constexpr int kRuns = 8;
const char* const kGeneratorVersion = "1";
int g_samples = 20000;
std::string g_path;
std::vector<std::string> g_runs;
std::map<std::string, double> g_seconds;
constexpr int kConfigRuns = 100;
int g_configSamples = 2000;
std::string g_configPath;
std::vector<std::string> g_configRuns;

// Twenty series the report reads, each once: energy counters, utilisation and activity (two
// GPUs), CPU, network, RAPL, and the stepped software metric that marks epochs.
const std::vector<std::string> kKeys = {"DCGMI - Total Energy Consumption",
                                        "DCGMI - GPU Utilization",
                                        "DCGMI - SM Active",
                                        "DCGMI - GR Engine Active",
                                        "DCGMI - Memory Copy Utilization",
                                        "SMI - GPU Util",
                                        "SMI - Mem Util",
                                        "TOP - CPU Utilization",
                                        "PROC - CPU Utilization",
                                        "NET - eth0 RX MB/s",
                                        "NET - eth0 TX MB/s",
                                        "RAPL - package-0 Power W",
                                        "RAPL - package-0 dram Power W",
                                        "DCGMI - GPU Utilization - GPU 1",
                                        "DCGMI - SM Active - GPU 1",
                                        "SMI - GPU Util - GPU 1",
                                        "DCGMI - Total Energy Consumption - GPU 1",
                                        "NET - eth1 RX MB/s",
                                        "NET - eth1 TX MB/s",
                                        "loss"};

double valueOf(const std::string& key, int i) {
    if (key.find("Energy") != std::string::npos)
        return 1e6 + i * 250.0; // a counter in mJ: 250 mJ per 100 ms
    if (key.find("Active") != std::string::npos || key.rfind("SMI - ", 0) == 0)
        return 0.5 + 0.4 * std::sin(i * 0.01); // ratios
    if (key == "loss")
        return 1.0 / (1 + i / 1000);
    return 50 + 45 * std::sin(i * 0.003) + (i % 97 == 0 ? 5 : 0); // percent, MB/s, W
}

/// The kept store at `path` (its uuids in `uuids`), or made by `generate` into path.building and
/// renamed once whole: a generation cut short is made again from nothing.
void keptStore(const std::string& path, std::vector<std::string>& uuids,
               const std::function<void(const std::string&)>& generate) {
    if (!std::filesystem::exists(path)) {
        const std::string building = path + ".building";
        std::filesystem::remove(building);
        const auto started = std::chrono::steady_clock::now();
        generate(building);
        std::filesystem::rename(building, path);
        std::fprintf(stderr, "bench_report: %s made in %.0f s\n", path.c_str(), bench::since(started));
    }
    // In the order they were made (they all start at once): by workload, then letter.
    std::vector<Run> runs = openStore("sqlite:///" + path, OpenMode::ReadOnly)->runs();
    std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
        return std::make_pair(std::stoi(a.workload()), a.letter()) <
               std::make_pair(std::stoi(b.workload()), b.letter());
    });
    uuids.clear();
    for (const Run& run : runs)
        uuids.push_back(run.uuid);
}

void generateStore(const std::string& path) {
    auto store = openStore("sqlite:///" + path, OpenMode::CreateIfMissing);
    const int64_t experiment = store->getOrCreateExperiment("bench");
    const int64_t t0 = 1'700'000'000'000;
    for (int r = 0; r < kRuns; ++r) {
        const Run run = store->createRun({experiment, "bench", t0, "bench", "train.py", RunStatus::Running});
        // Two workloads of four runs, two per GPU: collocation and baselines are looked up too.
        store->logParams(run.uuid, {{"workload", std::to_string(r / 4)},
                                    {"letter", std::to_string(r % 2) + "_" + char('A' + r % 4 / 2)},
                                    {"model", "train.py"},
                                    {"params", "--batch-size 64"},
                                    {"devices", std::to_string(r % 2)}});
        std::vector<MetricPoint> batch;
        batch.reserve(100000);
        for (int i = 0; i < g_samples; ++i) {
            for (const std::string& key : kKeys)
                batch.push_back({key, valueOf(key, i), t0 + int64_t(i) * 100, key == "loss" ? i / 1000 : 0});
            if (batch.size() >= 100000) {
                store->logMetrics(run.uuid, batch);
                batch.clear();
            }
        }
        store->logMetrics(run.uuid, batch);
        store->setRunStatus(run.uuid, RunStatus::Finished, t0 + int64_t(g_samples) * 100);
    }
}

/// 100 solo runs: batch sizes 32..320 (ten configurations), seeds 0..9 (their repeats).
void generateConfigurationStore(const std::string& path) {
    auto store = openStore("sqlite:///" + path, OpenMode::CreateIfMissing);
    const int64_t experiment = store->getOrCreateExperiment("configs");
    const int64_t t0 = 1'700'000'000'000;
    for (int r = 0; r < kConfigRuns; ++r) {
        const Run run = store->createRun({experiment, "bench", t0, "bench", "train.py", RunStatus::Running});
        const std::string batch = std::to_string(32 * (1 + r / 10)), seed = std::to_string(r % 10);
        store->logParams(run.uuid, {{"workload", std::to_string(r)},
                                    {"letter", "0"},
                                    {"model", "train.py"},
                                    {"params", "--batch-size " + batch + " --seed " + seed},
                                    {"seed", seed},
                                    {"devices", "0"}});
        std::vector<MetricPoint> points;
        points.reserve(size_t(g_configSamples) * kKeys.size());
        const int samples = g_configSamples + (r % 10) * 10; // repeats differ a little in length
        for (int i = 0; i < samples; ++i)
            for (const std::string& key : kKeys)
                points.push_back(
                    {key, valueOf(key, i + r), t0 + int64_t(i) * 100, key == "loss" ? i / 1000 : 0});
        store->logMetrics(run.uuid, points);
        store->setRunStatus(run.uuid, RunStatus::Finished, t0 + int64_t(samples) * 100);
    }
}

void keepBest(const char* name, double seconds) {
    g_seconds[name] = g_seconds.count(name) ? std::min(g_seconds[name], seconds) : seconds;
}

void BM_Report(benchmark::State& state) {
    auto store = openStore("sqlite:///" + g_path, OpenMode::OpenExisting);
    std::vector<Run> runs;
    for (const std::string& uuid : g_runs)
        runs.push_back(*store->run(uuid));
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const nlohmann::json report = buildReport(*store, runs, {});
        keepBest("report", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (report["runs"].size() != size_t(kRuns) || report["runs"][0]["gpu_energy_j"].is_null())
            state.SkipWithError("incomplete report");
        benchmark::DoNotOptimize(report.size());
    }
}

/// Every series of `runs` read once with a plain sqlite3 SELECT, best time kept as `name`; at
/// least `expectedRows` rows must come back.
void rawSelect(benchmark::State& state, const std::string& path, const std::vector<std::string>& runs,
               const char* name, int64_t expectedRows) {
    bench::RawSeriesReader reader(path);
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        int64_t rows = 0;
        for (const std::string& uuid : runs)
            for (const std::string& key : kKeys)
                rows += reader.read(uuid, key.c_str());
        keepBest(name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (rows < expectedRows)
            state.SkipWithError("wrong row count");
    }
    benchmark::DoNotOptimize(reader.checksum());
}

void BM_RawSelect(benchmark::State& state) {
    rawSelect(state, g_path, g_runs, "raw", int64_t(kRuns) * int64_t(kKeys.size()) * g_samples);
}

void BM_ReportConfigurations(benchmark::State& state) {
    auto store = openStore("sqlite:///" + g_configPath, OpenMode::OpenExisting);
    std::vector<Run> runs;
    for (const std::string& uuid : g_configRuns)
        runs.push_back(*store->run(uuid));
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const nlohmann::json report = buildReport(*store, runs, {});
        keepBest("configs", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (report["configurations"].size() != 10 || report["comparisons"].size() != 90 ||
            report["configurations"][0]["stats"]["duration_s"]["n"] != 10)
            state.SkipWithError("the configurations are not ten of ten runs");
        benchmark::DoNotOptimize(report.size());
    }
}

// The floor for the configurations' report: every series of its 100 runs read once.
void BM_RawSelectConfigurations(benchmark::State& state) {
    rawSelect(state, g_configPath, g_configRuns, "configs_raw",
              int64_t(kConfigRuns) * int64_t(kKeys.size()) * g_configSamples);
}

/// Single-run configurations (batch sizes 1..n, one seed each), 20 one-second samples of GPU
/// utilisation and the energy counter per run: what makes a report's comparisons grow.
void generateManyConfigurations(const std::string& path, int configurations) {
    auto store = openStore("sqlite:///" + path, OpenMode::CreateIfMissing);
    const int64_t experiment = store->getOrCreateExperiment("many");
    const int64_t t0 = 1'700'000'000'000;
    for (int r = 0; r < configurations; ++r) {
        const Run run = store->createRun({experiment, "bench", t0, "bench", "train.py", RunStatus::Running});
        store->logParams(run.uuid, {{"workload", std::to_string(r)},
                                    {"letter", "0"},
                                    {"batch-size", std::to_string(r + 1)},
                                    {"seed", "0"},
                                    {"devices", "0"}});
        std::vector<MetricPoint> points;
        for (int i = 0; i < 20; ++i) {
            points.push_back({"SMI - GPU Util", double(50 + (i + r) % 40), t0 + int64_t(i) * 1000, 0});
            points.push_back(
                {"DCGMI - Total Energy Consumption", 1e6 + i * 250e3 + r, t0 + int64_t(i) * 1000, 0});
        }
        store->logMetrics(run.uuid, points);
        store->setRunStatus(run.uuid, RunStatus::Finished, t0 + 20'000 + r);
    }
}

/// The peak resident size since the last reset (VmHWM), in MB; resetPeakRss() starts it anew.
double peakRssMb() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    return 0;
}
void resetPeakRss() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

std::map<int, std::string> g_manyPaths;
std::map<int, std::vector<std::string>> g_manyRuns;
std::map<int, double> g_manyRssMb;

/// The report (its JSON and its text table, as `radt report` prints it) of state.range(0)
/// single-run configurations; best time and the peak RSS it added.
void BM_ReportManyConfigurations(benchmark::State& state) {
    const int n = int(state.range(0));
    auto store = openStore("sqlite:///" + g_manyPaths.at(n), OpenMode::OpenExisting);
    const std::vector<Run> runs = resolveReportTargets(*store, {"many"});
    for (auto _ : state) {
        resetPeakRss();
        const double before = peakRssMb();
        const auto start = std::chrono::steady_clock::now();
        const nlohmann::json report = buildReport(*store, runs, {});
        const std::string table = reportTable(report);
        keepBest(("many" + std::to_string(n)).c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        g_manyRssMb[n] = std::max(g_manyRssMb[n], peakRssMb() - before);
        if (report["configurations"].size() != size_t(n) || table.empty())
            state.SkipWithError("not one configuration a run");
        benchmark::DoNotOptimize(table.size());
    }
}

} // namespace

// Alternated rounds, best of all: drift on a shared machine hits both sides alike.
BENCHMARK(BM_RawSelect)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Report)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawSelect)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Report)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawSelectConfigurations)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReportConfigurations)->Iterations(2)->Unit(benchmark::kMillisecond);
// 100 configurations are the baseline of 1,000 (and 5,000 with RADT_BENCH_FULL=1): linear work
// makes 1,000 ten times 100's time, quadratic a hundred times.
BENCHMARK(BM_ReportManyConfigurations)->Arg(100)->Arg(1000)->Iterations(2)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    if (bench::envFlag("RADT_BENCH_FULL")) {
        g_samples = 100000;
        g_configSamples = 10000;
    }
    if (const char* n = std::getenv("RADT_BENCH_REPORT_SAMPLES"); n && std::atoi(n) > 0)
        g_samples = std::atoi(n);
    if (const char* n = std::getenv("RADT_BENCH_REPORT_CONFIG_SAMPLES"); n && std::atoi(n) > 0)
        g_configSamples = std::atoi(n);
    bench::Figures figures;
    figures.after("BM_Report", 2, [] {
        const double ours = g_seconds["report"], raw = g_seconds["raw"];
        std::printf("report of %d runs x %zu metrics x %d samples: %.0f ms; raw SELECT of the same rows %.0f "
                    "ms\n",
                    kRuns, kKeys.size(), g_samples, ours * 1e3, raw * 1e3);
        bench::figure("report_ms", ours * 1e3, "ms");
        bench::figure("report_ratio", raw > 0 ? ours / raw : 0, "x");
    });
    figures.after("BM_ReportConfigurations", 1, [] {
        if (!g_seconds.count("configs") || !g_seconds.count("configs_raw"))
            return; // filtered out
        std::printf(
            "report of %d runs (10 configurations x 10 seeds) x %zu metrics x %d samples: %.0f ms; raw "
            "SELECT of the same rows %.0f ms\n",
            kConfigRuns, kKeys.size(), g_configSamples, g_seconds["configs"] * 1e3,
            g_seconds["configs_raw"] * 1e3);
        bench::figure("report_configs_ms", g_seconds["configs"] * 1e3, "ms");
        bench::figure("report_configs_ratio", g_seconds["configs"] / g_seconds["configs_raw"], "x");
    });
    // RADT_BENCH_MANY_CONFIGS=5000: one more size, said in a line of its own.
    int extra = 0;
    if (const char* n = std::getenv("RADT_BENCH_MANY_CONFIGS"); n && std::atoi(n) > 0) {
        extra = std::atoi(n);
        benchmark::RegisterBenchmark("BM_ReportManyConfigurations", BM_ReportManyConfigurations)
            ->Arg(extra)
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
        figures.after("BM_ReportManyConfigurations", 3, [extra] {
            std::printf("report of %d single-run configurations: %.0f ms, %.0f MB more peak RSS\n", extra,
                        g_seconds["many" + std::to_string(extra)] * 1e3, g_manyRssMb[extra]);
        });
    }
    figures.after("BM_ReportManyConfigurations", 2, [] {
        if (!g_seconds.count("many100") || !g_seconds.count("many1000"))
            return; // filtered out
        const double t100 = g_seconds["many100"], t1000 = g_seconds["many1000"];
        std::printf(
            "report (JSON and table) of 1,000 single-run configurations: %.0f ms, %.0f MB more peak RSS; "
            "of 100: %.0f ms (linear: 10x)\n",
            t1000 * 1e3, g_manyRssMb[1000], t100 * 1e3);
        bench::figure("report_1000_configs_ms", t1000 * 1e3, "ms");
        bench::figure("report_1000_configs_rss_mb", g_manyRssMb[1000], "MB");
        bench::figure("report_1000_over_100_configs_ratio", t100 > 0 ? t1000 / t100 : 0, "x");
    });
    return figures.run(argc, argv, [extra] {
        const std::string dir = bench::cacheDir(RADT_BINARY_DIR);
        g_path = dir + "/report_" + std::to_string(kRuns) + "x" + std::to_string(kKeys.size()) + "x" +
                 std::to_string(g_samples) + "_v" + kGeneratorVersion + ".db";
        keptStore(g_path, g_runs, generateStore);
        g_configPath = dir + "/report_configs_" + std::to_string(kConfigRuns) + "x" +
                       std::to_string(kKeys.size()) + "x" + std::to_string(g_configSamples) + "_v" +
                       kGeneratorVersion + ".db";
        keptStore(g_configPath, g_configRuns, generateConfigurationStore);
        for (const int n : {100, 1000, extra}) {
            if (n == 0)
                continue;
            g_manyPaths[n] = dir + "/report_many_" + std::to_string(n) + "_v" + kGeneratorVersion + ".db";
            keptStore(g_manyPaths[n], g_manyRuns[n],
                      [n](const std::string& path) { generateManyConfigurations(path, n); });
        }
    });
}
