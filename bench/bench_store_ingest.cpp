// SPDX-License-Identifier: MIT
// Metric ingest into SqliteStore (latest_metrics included) in batches of 10k, next to raw sqlite3
// prepared-insert loops into (a) an identical MLflow `metrics` table with the same indexes and
// (b) a bare 5-column table without indexes. Same pragmas (WAL, synchronous=NORMAL) everywhere.
// And the store once it keeps envelopes (500 finished runs' change counts, kept by triggers on
// metrics that fire for every row written): what counting changes costs a running run's ingest.

#include "BenchSupport.h"
#include "core/StoreFactory.h"
#include "core/store/sqlite/SqliteStore.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

using namespace radt;

namespace {

constexpr int kBatch = 10000;
constexpr int kBatchesPerIteration = 10; // 100k samples per iteration

std::map<std::string, double> g_rate; // samples/s per variant, from its fastest iteration

void measure(benchmark::State& state, const char* variant,
             const std::function<void(const std::vector<MetricPoint>&)>& write) {
    // The best of every registration of the variant: they are interleaved against drift.
    g_rate[variant] =
        std::max(g_rate[variant], bench::bestIngestRate(state, kBatch, kBatchesPerIteration, 0, write));
}

void BM_SqliteStore(benchmark::State& state) {
    const std::string dir = bench::scratchDir("ingest-store");
    auto store = openStore("sqlite:///" + dir + "/store.db", OpenMode::CreateIfMissing);
    const Run run = store->createRun({0, "bench", 0, "bench", "bench", RunStatus::Running});
    measure(state, "store",
            [&](const std::vector<MetricPoint>& batch) { store->logMetrics(run.uuid, batch); });
}

// A store that keeps 500 finished runs' envelopes: every row written fires the triggers that count
// their changes (resources/DESIGN.md §4), for a running run a failed lookup in radt_run_changes.
void BM_SqliteStoreCountingChanges(benchmark::State& state) {
    const std::string dir = bench::scratchDir("ingest-store-counted");
    auto store = openStore("sqlite:///" + dir + "/store.db", OpenMode::CreateIfMissing);
    for (int i = 0; i < 500; ++i) {
        const Run done = store->createRun({0, "finished", 0, "bench", "bench", RunStatus::Finished});
        store->envelopes().envelopeChangeCount(done.uuid);
    }
    const Run run = store->createRun({0, "bench", 0, "bench", "bench", RunStatus::Running});
    measure(state, "store_counted",
            [&](const std::vector<MetricPoint>& batch) { store->logMetrics(run.uuid, batch); });
}

// The same rows through a hand-written prepared-insert loop.
void rawLoop(benchmark::State& state, const char* variant, const char* schema, const char* insertSql) {
    const std::string dir = bench::scratchDir(variant);
    sqlite3* db = nullptr;
    sqlite3_open((dir + "/raw.db").c_str(), &db);
    bench::exec(db, "PRAGMA journal_mode=WAL");
    bench::exec(db, "PRAGMA synchronous=NORMAL");
    bench::exec(db, schema);
    sqlite3_stmt* insert = nullptr;
    sqlite3_prepare_v2(db, insertSql, -1, &insert, nullptr);
    const std::string uuid = "0123456789abcdef0123456789abcdef";
    measure(state, variant, [&](const std::vector<MetricPoint>& batch) {
        bench::exec(db, "BEGIN IMMEDIATE");
        for (const MetricPoint& p : batch) {
            sqlite3_bind_text(insert, 1, p.key.data(), int(p.key.size()), SQLITE_STATIC);
            sqlite3_bind_double(insert, 2, p.value);
            sqlite3_bind_int64(insert, 3, p.timestamp);
            sqlite3_bind_text(insert, 4, uuid.data(), int(uuid.size()), SQLITE_STATIC);
            sqlite3_bind_int64(insert, 5, p.step);
            sqlite3_step(insert);
            sqlite3_reset(insert);
        }
        bench::exec(db, "COMMIT");
    });
    sqlite3_finalize(insert);
    sqlite3_close(db);
}

void BM_RawSameSchema(benchmark::State& state) {
    // MLflow's metrics table as in schema/mlflow_sqlite_c9d4e5f6a7b8.sql, its index, and ours.
    rawLoop(state, "raw_same_schema",
            "CREATE TABLE metrics (\"key\" VARCHAR(250) NOT NULL, value FLOAT NOT NULL, timestamp BIGINT NOT "
            "NULL, "
            "run_uuid VARCHAR(32) NOT NULL, step BIGINT DEFAULT '0' NOT NULL, is_nan BOOLEAN DEFAULT '0' NOT "
            "NULL, "
            "CONSTRAINT metric_pk PRIMARY KEY (\"key\", timestamp, step, run_uuid, value, is_nan), "
            "CHECK (is_nan IN (0, 1)));"
            "CREATE INDEX index_metrics_run_uuid ON metrics (run_uuid);"
            "CREATE INDEX radt_metrics_run_key_time ON metrics (run_uuid, \"key\", timestamp, step, value, "
            "is_nan);",
            "INSERT OR IGNORE INTO metrics (\"key\", value, timestamp, run_uuid, step, is_nan) "
            "VALUES (?1, ?2, ?3, ?4, ?5, 0)");
}

void BM_RawBareTable(benchmark::State& state) {
    rawLoop(state, "raw_bare", "CREATE TABLE samples (k TEXT, v REAL, t INTEGER, run TEXT, step INTEGER)",
            "INSERT INTO samples VALUES (?1, ?2, ?3, ?4, ?5)");
}

} // namespace

// Interleaved order and equal work per variant, so drift on a shared machine hits all of them.
BENCHMARK(BM_RawSameSchema)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqliteStore)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawBareTable)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqliteStoreCountingChanges)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqliteStore)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqliteStoreCountingChanges)->Iterations(5)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    bench::Figures figures;
    figures.after("BM_SqliteStore", 2, [] {
        const double ours = g_rate["store"], same = g_rate["raw_same_schema"], bare = g_rate["raw_bare"];
        std::printf("SqliteStore %.0f samples/s, raw same schema %.0f samples/s, raw bare table %.0f "
                    "samples/s\n",
                    ours, same, bare);
        bench::figure("store_ingest_samples_per_s", ours, "samples/s");
        bench::figure("store_ingest_ratio", same > 0 ? ours / same : 0, "x");
        bench::figure("store_ingest_vs_bare", bare > 0 ? ours / bare : 0, "x");
    });
    figures.after("BM_SqliteStoreCountingChanges", 2, [] {
        const double ours = g_rate["store"];
        bench::figure("store_ingest_counting_changes_ratio", ours > 0 ? g_rate["store_counted"] / ours : 0,
                      "x");
    });
    return figures.run(argc, argv);
}
