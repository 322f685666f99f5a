// SPDX-License-Identifier: MIT
// A lab's scale on one PostgreSQL server on loopback: 64 simulated collector nodes x 8 GPUs x 20
// metrics at 1 Hz (10,240 samples/s) for RADT_BENCH_SECONDS (default 60) per scenario. Each node
// has its own connection and run and writes one transaction per tick. Measures the samples/s the
// server absorbed, the p99 latency of a node's write, and what went missing, in three scenarios:
//   * lockstep: every node writes at the same instant, the worst case (64 transactions at once);
//   * spread: each node at its own phase within the second, as radt's writers do (StoreWriter
//     waits a random extra part of its flush interval), on the time-partitioned store;
//   * the same spread into an unpartitioned store (metrics as MLflow makes it).
// The baseline in the same run is one node alone writing the same ticks (its p99). Run it under
// pg_virtualenv (see resources/doc/benchmarks.md).

#include "BenchSupport.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <random>
#include <thread>
#include <vector>

using namespace radt;

namespace {

constexpr int kNodes = 64, kGpus = 8, kMetrics = 20;
int g_seconds = 60;

struct Result {
    double samplesPerS = 0, p99Ms = 0, maxMs = 0;
    int64_t lost = 0;
};

/// `nodes` writers for g_seconds, once a second, into a fresh store (metrics partitioned by week,
/// or not); together (spread false) or each at its own random phase within the second. Each
/// scenario has a store of its own and starts after a checkpoint: what one left behind (dirty
/// pages, autovacuum of its tables) does not weigh on the next.
Result runNodes(int nodes, bool partitioned, bool spread) {
    static int scenario = 0;
    const std::string db = bench::scratchDatabase("radt_bench_scale") + "_" + std::to_string(++scenario);
    std::system(("dropdb --if-exists " + db + " 2>/dev/null; createdb " + db).c_str());
    const std::string uri = "postgresql:///" + db;
    ::setenv("RADT_PARTITION_PERIOD", partitioned ? "week" : "none", 1);
    openStore(uri, OpenMode::CreateIfMissing);
    ::unsetenv("RADT_PARTITION_PERIOD");
    std::system(("psql -q -d " + db + " -c CHECKPOINT").c_str());
    std::vector<std::string> runs;
    {
        auto store = openStore(uri, OpenMode::OpenExisting);
        for (int n = 0; n < nodes; ++n)
            runs.push_back(
                store->createRun({0, "node " + std::to_string(n), 0, "bench", "bench", RunStatus::Running})
                    .uuid);
    }
    // Every node connects first: ticks are timed from when all are connected, so no node starts
    // with a backlog of overdue ticks (that measured the 64 connections' start-up, not writes).
    std::vector<std::unique_ptr<Store>> stores(nodes);
    {
        std::vector<std::thread> openers;
        for (int n = 0; n < nodes; ++n)
            openers.emplace_back([&, n] { stores[n] = openStore(uri, OpenMode::OpenExisting); });
        for (auto& t : openers)
            t.join();
    }
    std::mutex mutex;
    std::vector<double> latencies;
    std::atomic<int64_t> generated{0};
    const auto start = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    std::mt19937 random(42);
    std::vector<std::chrono::milliseconds> phase(nodes);
    for (auto& p : phase)
        p = std::chrono::milliseconds(spread ? std::uniform_int_distribution<int>(0, 999)(random) : 0);
    std::vector<std::thread> threads;
    for (int n = 0; n < nodes; ++n)
        threads.emplace_back([&, n] {
            Store* store = stores[n].get();
            std::vector<double> mine;
            for (int tick = 0; tick < g_seconds; ++tick) {
                std::this_thread::sleep_until(start + std::chrono::seconds(tick) + phase[n]);
                const int64_t t = nowMs();
                std::vector<MetricPoint> points;
                for (int g = 0; g < kGpus; ++g)
                    for (int m = 0; m < kMetrics; ++m)
                        points.push_back({std::string("DCGMI - ") + bench::kGpuNodeMetrics[m] + " - GPU " +
                                              std::to_string(g),
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
        pqxx::connection c(uri);
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
    stores.clear();
    std::system(("dropdb --if-exists " + db).c_str());
    return r;
}

Result g_alone, g_lockstep, g_spread, g_plain;

void scenario(benchmark::State& state, Result& result, int nodes, bool partitioned, bool spread) {
    for (auto _ : state)
        result = runNodes(nodes, partitioned, spread);
    state.counters["samples_per_s"] = result.samplesPerS;
    state.counters["p99_ms"] = result.p99Ms;
}

void BM_OneNodeAlone(benchmark::State& state) {
    scenario(state, g_alone, 1, true, false);
}
void BM_SixtyFourNodesLockstep(benchmark::State& state) {
    scenario(state, g_lockstep, kNodes, true, false);
}
void BM_SixtyFourNodesSpread(benchmark::State& state) {
    scenario(state, g_spread, kNodes, true, true);
}
void BM_SixtyFourNodesSpreadUnpartitioned(benchmark::State& state) {
    scenario(state, g_plain, kNodes, false, true);
}

} // namespace

BENCHMARK(BM_OneNodeAlone)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_SixtyFourNodesLockstep)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_SixtyFourNodesSpread)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_SixtyFourNodesSpreadUnpartitioned)->Iterations(1)->Unit(benchmark::kSecond);

int main(int argc, char** argv) {
    if (!std::getenv("PGHOST")) {
        std::fprintf(stderr,
                     "bench_pg_scale: no PostgreSQL server (PGHOST unset); run it under pg_virtualenv\n");
        return 2;
    }
    if (const char* s = std::getenv("RADT_BENCH_SECONDS"))
        g_seconds = std::max(5, std::atoi(s));
    const auto line = [](const char* what, const Result& r) {
        std::printf("%s: %.0f samples/s stored, write p99 %.1f ms (max %.1f ms), %lld lost\n", what,
                    r.samplesPerS, r.p99Ms, r.maxMs, static_cast<long long>(r.lost));
    };
    bench::Figures figures;
    figures.after("BM_OneNodeAlone", 1, [] {
        std::printf("%d nodes x %d GPUs x %d metrics at 1 Hz, %d s each; one node alone: p99 %.1f ms\n",
                    kNodes, kGpus, kMetrics, g_seconds, g_alone.p99Ms);
    });
    figures.after("BM_SixtyFourNodesLockstep", 1, [&] {
        line("lockstep (all at once), partitioned", g_lockstep);
        bench::figure("scale_write_p99_lockstep_ms", g_lockstep.p99Ms, "ms");
    });
    figures.after("BM_SixtyFourNodesSpread", 1, [&] {
        line("spread (own phase), partitioned", g_spread);
        bench::figure("scale_samples_per_s", g_spread.samplesPerS, "samples/s");
        bench::figure("scale_write_p99_ms", g_spread.p99Ms, "ms");
        bench::figure("scale_write_p99_vs_alone", g_alone.p99Ms > 0 ? g_spread.p99Ms / g_alone.p99Ms : 0,
                      "x");
    });
    figures.after("BM_SixtyFourNodesSpreadUnpartitioned", 1, [&] {
        line("spread (own phase), unpartitioned", g_plain);
        bench::figure("scale_write_p99_unpartitioned_ms", g_plain.p99Ms, "ms");
        bench::figure("scale_samples_lost", double(g_spread.lost + g_lockstep.lost + g_plain.lost),
                      "samples");
    });
    return figures.run(argc, argv);
}
