// SPDX-License-Identifier: MIT
// Metric ingest into PostgresStore (COPY straight into metrics, then the latest_metrics upsert; a
// batch with duplicates goes through a staging table) next to plain INSERT batches of the same rows: one
// prepared INSERT per row in one transaction per batch, with the same latest_metrics upsert per key
// afterwards. Needs a server: run it under pg_virtualenv (see resources/doc/benchmarks.md).

#include "BenchSupport.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <benchmark/benchmark.h>
#include <pqxx/pqxx>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <vector>

using namespace radt;

namespace {

constexpr int kBatch = 10000;
constexpr int kBatchesPerIteration = 5;
std::map<std::string, double> g_rate;
std::string g_uri, g_db;
std::string g_countedUri; ///< a store that keeps 500 finished runs' envelopes (their changes counted)

void measure(benchmark::State& state, const char* variant,
             const std::function<void(const std::vector<MetricPoint>&)>& write) {
    const int64_t first = variant[0] == 'c' ? 0 : 1'000'000'000; // distinct rows per variant
    // The best of every registration of the variant: they alternate against drift.
    g_rate[variant] =
        std::max(g_rate[variant], bench::bestIngestRate(state, kBatch, kBatchesPerIteration, first, write));
}

void BM_PostgresStoreCopy(benchmark::State& state) {
    auto store = openStore(g_uri, OpenMode::OpenExisting);
    const Run run = store->createRun({0, "copy", 0, "bench", "bench", RunStatus::Running});
    measure(state, "copy",
            [&](const std::vector<MetricPoint>& batch) { store->logMetrics(run.uuid, batch); });
}

// The same COPY into a store whose triggers count each kept run's changes (resources/DESIGN.md §4):
// per statement, the batch's rows captured as a transition table and matched against the kept runs.
void BM_PostgresStoreCopyCountingChanges(benchmark::State& state) {
    auto store = openStore(g_countedUri, OpenMode::OpenExisting);
    const Run run = store->createRun({0, "copy", 0, "bench", "bench", RunStatus::Running});
    measure(state, "copy_counted",
            [&](const std::vector<MetricPoint>& batch) { store->logMetrics(run.uuid, batch); });
}

void BM_PlainInsertBatches(benchmark::State& state) {
    auto store = openStore(g_uri, OpenMode::OpenExisting);
    const Run run = store->createRun({0, "insert", 0, "bench", "bench", RunStatus::Running});
    pqxx::connection c("postgresql:///" + g_db);
    c.prepare("insert", "INSERT INTO metrics (\"key\", value, timestamp, run_uuid, step, is_nan) "
                        "VALUES ($1, $2, $3, $4, $5, false) ON CONFLICT DO NOTHING");
    c.prepare("latest",
              "INSERT INTO latest_metrics (\"key\", value, timestamp, step, is_nan, run_uuid) "
              "VALUES ($1, $2, $3, $4, false, $5) ON CONFLICT (\"key\", run_uuid) DO UPDATE SET "
              "value = excluded.value, timestamp = excluded.timestamp, step = excluded.step "
              "WHERE (excluded.step, excluded.timestamp) > (latest_metrics.step, latest_metrics.timestamp)");
    measure(state, "insert", [&](const std::vector<MetricPoint>& batch) {
        pqxx::work tx(c);
        std::map<std::string, const MetricPoint*> latest;
        for (const MetricPoint& p : batch) {
            tx.exec_prepared("insert", p.key, p.value, p.timestamp, run.uuid, p.step);
            latest[p.key] = &p;
        }
        for (const auto& [key, p] : latest)
            tx.exec_prepared("latest", key, p->value, p->timestamp, p->step, run.uuid);
        tx.commit();
    });
}

// A chart of 800 pixel columns over a 200k-point series: the envelope reduced in the server
// against pulling every point to the client.
void BM_ChartReadFullVsEnvelope(benchmark::State& state) {
    auto store = openStore(g_uri, OpenMode::OpenExisting);
    const Run run = store->createRun({0, "chart", 0, "bench", "bench", RunStatus::Running});
    int64_t t = 0;
    for (int b = 0; b < 20; ++b) {
        std::vector<MetricPoint> batch;
        for (int i = 0; i < kBatch; ++i, ++t)
            batch.push_back({"SMI - Power Draw", 100.0 + (t % 977) * 0.25, 1700000000000 + t * 100, t});
        store->logMetrics(run.uuid, batch);
    }
    double bestFull = 1e9, bestEnvelope = 1e9;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        const Series full = store->series(run.uuid, "SMI - Power Draw");
        bestFull = std::min(bestFull,
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        start = std::chrono::steady_clock::now();
        const Series envelope = store->seriesEnvelope(run.uuid, "SMI - Power Draw", std::nullopt, 1600);
        bestEnvelope = std::min(
            bestEnvelope, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (full.size() != 200000u || envelope.size() > 3200u)
            state.SkipWithError("wrong point counts");
    }
    g_rate["full_ms"] = bestFull * 1e3;
    g_rate["envelope_ms"] = bestEnvelope * 1e3;
}

} // namespace

BENCHMARK(BM_ChartReadFullVsEnvelope)->Iterations(3)->Unit(benchmark::kMillisecond);

// Alternated rounds, best of each: drift on a shared machine hits both alike.
BENCHMARK(BM_PlainInsertBatches)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PostgresStoreCopy)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainInsertBatches)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PostgresStoreCopy)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PostgresStoreCopyCountingChanges)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PostgresStoreCopy)->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PostgresStoreCopyCountingChanges)->Iterations(2)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    if (!std::getenv("PGHOST")) {
        std::fprintf(stderr,
                     "bench_pg_ingest: no PostgreSQL server (PGHOST unset); run it under pg_virtualenv\n");
        return 2;
    }
    g_db = bench::scratchDatabase("radt_bench_ingest");
    std::system(("dropdb --if-exists " + g_db + " 2>/dev/null; createdb " + g_db).c_str());
    g_uri = "postgresql:///" + g_db;
    openStore(g_uri, OpenMode::CreateIfMissing);
    const std::string counted = g_db + "_counted";
    std::system(("dropdb --if-exists " + counted + " 2>/dev/null; createdb " + counted).c_str());
    g_countedUri = "postgresql:///" + counted;
    {
        auto store = openStore(g_countedUri, OpenMode::CreateIfMissing);
        for (int i = 0; i < 500; ++i)
            store->envelopes().envelopeChangeCount(
                store->createRun({0, "finished", 0, "bench", "bench", RunStatus::Finished}).uuid);
    }
    bench::Figures figures;
    figures.after("BM_ChartReadFullVsEnvelope", 1, [] {
        std::printf("200k-point series for 800 columns: whole series %.0f ms, server envelope %.0f ms\n",
                    g_rate["full_ms"], g_rate["envelope_ms"]);
        bench::figure("pg_chart_envelope_ms", g_rate["envelope_ms"], "ms");
        bench::figure("pg_chart_envelope_vs_full_ratio",
                      g_rate["full_ms"] > 0 ? g_rate["envelope_ms"] / g_rate["full_ms"] : 0, "x");
        bench::figure("pg_chart_envelope_rows_ratio", 200000.0 / 1600.0,
                      "x"); // rows sent: whole / envelope (at most)
    });
    figures.after("BM_PostgresStoreCopy", 3, [] {
        std::printf("PostgresStore (COPY) %.0f samples/s, plain INSERT batches %.0f samples/s\n",
                    g_rate["copy"], g_rate["insert"]);
        bench::figure("pg_ingest_samples_per_s", g_rate["copy"], "samples/s");
        bench::figure("pg_copy_vs_insert_ratio", g_rate["insert"] > 0 ? g_rate["copy"] / g_rate["insert"] : 0,
                      "x");
    });
    figures.after("BM_PostgresStoreCopyCountingChanges", 2, [] {
        std::printf("COPY into a store counting 500 kept runs' changes %.0f samples/s\n",
                    g_rate["copy_counted"]);
        bench::figure("pg_ingest_counting_changes_ratio",
                      g_rate["copy"] > 0 ? g_rate["copy_counted"] / g_rate["copy"] : 0, "x");
    });
    return figures.run(argc, argv);
}
