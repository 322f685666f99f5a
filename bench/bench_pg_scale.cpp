// A lab's scale on one PostgreSQL server on loopback: 64 simulated collector nodes x 8 GPUs x 20
// metrics at 1 Hz (10,240 samples/s) for RADT_BENCH_SECONDS (default 120). Each node has its own
// connection and run and writes one transaction per tick, as radt at 1 Hz does. Measures the
// samples/s the server absorbed, the p99 latency of a node's write, and what went missing. The
// baseline in the same run is one node alone writing the same ticks (its p99). Run it under
// pg_virtualenv (see README).

#include "BenchSupport.h"
#include "Store.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <pqxx/pqxx>
#include <thread>
#include <vector>

using namespace radt;

namespace {

constexpr int kNodes = 64, kGpus = 8, kMetrics = 20;
const char* kNames[kMetrics] = {"Power Usage",        "Total Energy Consumption",
                                "PCIE TX Throughput", "PCIE RX Throughput",
                                "GPU Utilization",    "Memory Copy Utilization",
                                "GR Engine Active",   "SM Active",
                                "SM Occupancy",       "Tensor Active",
                                "DRAM Active",        "FP64 Active",
                                "FP32 Active",        "FP16 Active",
                                "PCIE TX Bytes",      "PCIE RX Bytes",
                                "NVlink TX Bytes",    "NVlink RX Bytes",
                                "Mem Used",           "Temperature"};
int g_seconds = 120;
std::string g_uri;

struct Result {
    double samplesPerS = 0, p99Ms = 0, maxMs = 0;
    int64_t lost = 0;
};

/// `nodes` writers for g_seconds, ticking together once a second.
Result runNodes(int nodes) {
    std::vector<std::string> runs;
    {
        auto store = openStore(g_uri, OpenMode::OpenExisting);
        for (int n = 0; n < nodes; ++n)
            runs.push_back(
                store->createRun({0, "node " + std::to_string(n), 0, "bench", "bench", RunStatus::Running})
                    .uuid);
    }
    std::mutex mutex;
    std::vector<double> latencies;
    std::atomic<int64_t> generated{0};
    const auto start = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    std::vector<std::thread> threads;
    for (int n = 0; n < nodes; ++n)
        threads.emplace_back([&, n] {
            auto store = openStore(g_uri, OpenMode::OpenExisting);
            std::vector<double> mine;
            for (int tick = 0; tick < g_seconds; ++tick) {
                std::this_thread::sleep_until(start + std::chrono::seconds(tick));
                const int64_t t = nowMs();
                std::vector<MetricPoint> points;
                for (int g = 0; g < kGpus; ++g)
                    for (int m = 0; m < kMetrics; ++m)
                        points.push_back({std::string("DCGMI - ") + kNames[m] + " - GPU " + std::to_string(g),
                                          double((tick * 7 + g * 3 + m) % 100), t, tick});
                const auto before = std::chrono::steady_clock::now();
                store->logMetrics(runs[n], points);
                mine.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before)
                        .count());
                generated += points.size();
            }
            std::lock_guard<std::mutex> lock(mutex);
            latencies.insert(latencies.end(), mine.begin(), mine.end());
        });
    for (auto& t : threads)
        t.join();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int64_t stored = 0;
    {
        pqxx::connection c(g_uri);
        pqxx::work tx(c);
        for (const std::string& run : runs)
            stored +=
                tx.exec_params1("SELECT count(*) FROM metrics WHERE run_uuid = $1", run)[0].as<int64_t>();
    }
    std::sort(latencies.begin(), latencies.end());
    Result r;
    r.samplesPerS = stored / elapsed;
    r.p99Ms = latencies[std::min(latencies.size() - 1, size_t(latencies.size() * 0.99))];
    r.maxMs = latencies.back();
    r.lost = generated - stored;
    return r;
}

Result g_alone, g_scale;

void BM_OneNodeAlone(benchmark::State& state) {
    for (auto _ : state)
        g_alone = runNodes(1);
    state.counters["p99_ms"] = g_alone.p99Ms;
}

void BM_SixtyFourNodes(benchmark::State& state) {
    for (auto _ : state)
        g_scale = runNodes(kNodes);
    state.counters["samples_per_s"] = g_scale.samplesPerS;
    state.counters["p99_ms"] = g_scale.p99Ms;
}

} // namespace

BENCHMARK(BM_OneNodeAlone)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_SixtyFourNodes)->Iterations(1)->Unit(benchmark::kSecond);

int main(int argc, char** argv) {
    if (!std::getenv("PGHOST")) {
        std::fprintf(stderr,
                     "bench_pg_scale: no PostgreSQL server (PGHOST unset); run it under pg_virtualenv\n");
        return 2;
    }
    if (const char* s = std::getenv("RADT_BENCH_SECONDS"))
        g_seconds = std::max(5, std::atoi(s));
    const std::string db = bench::scratchDatabase("radt_bench_scale");
    std::system(("dropdb --if-exists " + db + " 2>/dev/null; createdb " + db).c_str());
    g_uri = "postgresql:///" + db;
    openStore(g_uri, OpenMode::CreateIfMissing);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf("%d nodes x %d GPUs x %d metrics at 1 Hz for %d s: %.0f samples/s stored, write p99 %.1f ms "
                "(max %.1f ms), %lld lost; one node alone: p99 %.1f ms\n",
                kNodes, kGpus, kMetrics, g_seconds, g_scale.samplesPerS, g_scale.p99Ms, g_scale.maxMs,
                static_cast<long long>(g_scale.lost), g_alone.p99Ms);
    bench::figure("scale_samples_per_s", g_scale.samplesPerS, "samples/s");
    bench::figure("scale_write_p99_ms", g_scale.p99Ms, "ms");
    bench::figure("scale_write_p99_vs_alone", g_alone.p99Ms > 0 ? g_scale.p99Ms / g_alone.p99Ms : 0, "x");
    bench::figure("scale_samples_lost", double(g_scale.lost), "samples");
    return 0;
}
