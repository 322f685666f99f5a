// SPDX-License-Identifier: MIT
// What a stored hardware sample costs on disk, and what `radt store compact` gives back.
//
// store_bytes_per_sample: a collector's rows (8 GPUs x 20 metrics at 1 Hz) logged through the
// store into MLflow's schema, SQLite file growth per sample after wal_checkpoint(TRUNCATE), next
// to the same rows in a bare 5-column table without indexes in the same kind of file (the
// baseline). Under pg_virtualenv also PostgreSQL: pg_total_relation_size per row, same baseline.
// compact_ratio: the real `radt` records a real workload (resources/examples/demo_train.py) with
// the /proc listeners at 10 Hz; the run is compacted at the default 0.5 % and rows before/after
// and file bytes before/after are compared.

#include "BenchSupport.h"
#include "core/StoreFactory.h"
#include "core/store/StoreCompaction.h"

#include <benchmark/benchmark.h>
#include <pqxx/pqxx>

#include <cstdlib>
#include <sys/wait.h>

using namespace radt;

namespace {

constexpr int kGpus = 8, kMetrics = 20, kSeconds = 1200; // 192,000 samples: 20 minutes of a node
const int64_t kSamples = int64_t(kGpus) * kMetrics * kSeconds;
std::map<std::string, double> g_figures;

/// A node's samples second by second, as the collector writes them: per GPU radT's key with
/// " - GPU k" for k > 0, slowly varying values with jitter.
std::vector<MetricPoint> secondOfSamples(int second) {
    static const char* const names[kMetrics] = {"SMI - Power Draw",
                                                "SMI - GPU Util",
                                                "SMI - Mem Util",
                                                "SMI - Memory Used",
                                                "SMI - Temperature",
                                                "SMI - SM Clock",
                                                "SMI - Mem Clock",
                                                "DCGMI - SM Active",
                                                "DCGMI - SM Occupancy",
                                                "DCGMI - Tensor Active",
                                                "DCGMI - DRAM Active",
                                                "DCGMI - PCIe TX Bytes",
                                                "DCGMI - PCIe RX Bytes",
                                                "DCGMI - NVLink TX Bytes",
                                                "DCGMI - NVLink RX Bytes",
                                                "DCGMI - Power Usage",
                                                "DCGMI - Total Energy Consumption",
                                                "DCGMI - GPU Utilization",
                                                "DCGMI - FP16 Active",
                                                "DCGMI - FP32 Active"};
    std::vector<MetricPoint> points;
    for (int g = 0; g < kGpus; ++g)
        for (int m = 0; m < kMetrics; ++m)
            points.push_back(
                {std::string(names[m]) + (g ? " - GPU " + std::to_string(g) : ""),
                 100.0 + 50.0 * std::sin(second / 60.0 + m) + (second * 7919 + m * 104729 + g) % 97 * 0.01,
                 1700000000000 + int64_t(second) * 1000 + g, 0});
    return points;
}

int64_t fileBytes(const std::string& path) {
    return std::filesystem::exists(path) ? int64_t(std::filesystem::file_size(path)) : 0;
}

void BM_SqliteBytesPerSample(benchmark::State& state) {
    for (auto _ : state) {
        const std::string dir = bench::scratchDir("store-bytes");
        auto store = openStore("sqlite:///" + dir + "/store.db", OpenMode::CreateIfMissing);
        const Run run = store->createRun({0, "bench", 0, "bench", "bench", RunStatus::Running});
        const int64_t before = store->maintenance().storageBytes();
        for (int s = 0; s < kSeconds; s += 10) { // the writer's batches: 10 s of samples
            std::vector<MetricPoint> batch;
            for (int k = s; k < s + 10; ++k)
                for (MetricPoint& p : secondOfSamples(k))
                    batch.push_back(std::move(p));
            store->logMetrics(run.uuid, batch);
        }
        g_figures["sqlite"] = double(store->maintenance().storageBytes() - before) / double(kSamples);

        // Baseline: the same rows in a bare table, same pragmas.
        sqlite3* db = nullptr;
        const std::string bare = dir + "/bare.db";
        sqlite3_open(bare.c_str(), &db);
        bench::exec(db, "PRAGMA journal_mode=WAL");
        bench::exec(
            db, "CREATE TABLE m (\"key\" TEXT, value REAL, timestamp INTEGER, run_uuid TEXT, step INTEGER)");
        bench::exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
        const int64_t bareBefore = fileBytes(bare);
        sqlite3_stmt* insert = nullptr;
        sqlite3_prepare_v2(db, "INSERT INTO m VALUES (?, ?, ?, ?, ?)", -1, &insert, nullptr);
        for (int s = 0; s < kSeconds; s += 10) {
            bench::exec(db, "BEGIN");
            for (int k = s; k < s + 10; ++k)
                for (const MetricPoint& p : secondOfSamples(k)) {
                    sqlite3_bind_text(insert, 1, p.key.data(), int(p.key.size()), SQLITE_TRANSIENT);
                    sqlite3_bind_double(insert, 2, p.value);
                    sqlite3_bind_int64(insert, 3, p.timestamp);
                    sqlite3_bind_text(insert, 4, run.uuid.data(), int(run.uuid.size()), SQLITE_TRANSIENT);
                    sqlite3_bind_int64(insert, 5, p.step);
                    sqlite3_step(insert);
                    sqlite3_reset(insert);
                }
            bench::exec(db, "COMMIT");
        }
        sqlite3_finalize(insert);
        bench::exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
        g_figures["sqlite_bare"] = double(fileBytes(bare) - bareBefore) / double(kSamples);
        sqlite3_close(db);
    }
}

void BM_PostgresBytesPerSample(benchmark::State& state) {
    if (!std::getenv("PGHOST")) {
        state.SkipWithError("no PostgreSQL server (run under pg_virtualenv)");
        return;
    }
    for (auto _ : state) {
        const std::string db = bench::scratchDatabase("radt_bench_bytes");
        std::system(("dropdb --if-exists " + db + " && createdb " + db).c_str());
        auto store = openStore("postgresql:///" + db, OpenMode::CreateIfMissing);
        const Run run = store->createRun({0, "bench", 0, "bench", "bench", RunStatus::Running});
        const int64_t before = store->maintenance().storageBytes();
        for (int s = 0; s < kSeconds; s += 10) {
            std::vector<MetricPoint> batch;
            for (int k = s; k < s + 10; ++k)
                for (MetricPoint& p : secondOfSamples(k))
                    batch.push_back(std::move(p));
            store->logMetrics(run.uuid, batch);
        }
        g_figures["postgres"] = double(store->maintenance().storageBytes() - before) / double(kSamples);
        pqxx::connection c("dbname=" + db);
        pqxx::work tx(c);
        tx.exec(
            "CREATE TABLE m (\"key\" VARCHAR(250), value FLOAT(53), timestamp BIGINT, run_uuid VARCHAR(32), "
            "step BIGINT)");
        {
            pqxx::stream_to copy(tx, "m");
            for (int k = 0; k < kSeconds; ++k)
                for (const MetricPoint& p : secondOfSamples(k))
                    copy << std::make_tuple(p.key, p.value, p.timestamp, run.uuid, p.step);
            copy.complete();
        }
        g_figures["postgres_bare"] =
            double(tx.exec1("SELECT pg_total_relation_size('m')")[0].as<int64_t>()) / double(kSamples);
        tx.commit();
    }
}

void BM_CompactARealRecordedRun(benchmark::State& state) {
    for (auto _ : state) {
        const std::string dir = bench::scratchDir("store-compact");
        const std::string uri = "sqlite:///" + dir + "/run.db";
        const std::string command =
            "'" RADT_BINARY_DIR "/app/radt' --store '" + uri +
            "' --no-env-capture --interval 0.1 -l top+ps+iostat+net+proc '" RADT_SOURCE_DIR
            "/resources/examples/demo_train.py' --epochs 80 >/dev/null 2>&1";
        const int status = std::system(command.c_str());
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            state.SkipWithError("radt could not record the demo workload");
            return;
        }
        auto store = openStore(uri, OpenMode::OpenExisting);
        const CompactionStats stats = compactRuns(*store, store->runs(), CompactionOptions{});
        g_figures["rows_before"] = double(stats.rowsBefore);
        g_figures["rows_after"] = double(stats.rowsAfter);
        g_figures["bytes_before"] = double(stats.bytesBefore);
        g_figures["bytes_after"] = double(stats.bytesAfter);
    }
}

} // namespace

BENCHMARK(BM_SqliteBytesPerSample)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PostgresBytesPerSample)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompactARealRecordedRun)->Iterations(1)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    auto& f = g_figures;
    bench::Figures figures;
    figures.after("BM_SqliteBytesPerSample", 1, [&f] {
        std::printf("%lld samples (%d GPUs x %d metrics x %d s at 1 Hz)\n", (long long)kSamples, kGpus,
                    kMetrics, kSeconds);
        std::printf("SQLite: %.1f B per sample in MLflow's schema, %.1f B in a bare table\n", f["sqlite"],
                    f["sqlite_bare"]);
        bench::figure("store_bytes_per_sample", f["sqlite"], "B");
        bench::figure("store_bytes_per_sample_bare", f["sqlite_bare"], "B");
        bench::figure("store_bytes_ratio_vs_bare", f["sqlite_bare"] > 0 ? f["sqlite"] / f["sqlite_bare"] : 0,
                      "x");
    });
    figures.after("BM_PostgresBytesPerSample", 1, [&f] {
        if (!f.count("postgres"))
            return;
        std::printf("PostgreSQL: %.1f B per sample in MLflow's schema, %.1f B in a bare table\n",
                    f["postgres"], f["postgres_bare"]);
        bench::figure("store_bytes_per_sample_pg", f["postgres"], "B");
        bench::figure("store_bytes_per_sample_pg_bare", f["postgres_bare"], "B");
    });
    figures.after("BM_CompactARealRecordedRun", 1, [&f] {
        if (f["rows_after"] <= 0)
            return;
        std::printf("compact at 0.5%%: %.0f -> %.0f samples, %.2f -> %.2f MB\n", f["rows_before"],
                    f["rows_after"], f["bytes_before"] / 1e6, f["bytes_after"] / 1e6);
        bench::figure("compact_ratio", f["rows_before"] / f["rows_after"], "x");
        bench::figure("compact_bytes_ratio", f["bytes_after"] > 0 ? f["bytes_before"] / f["bytes_after"] : 0,
                      "x");
    });
    return figures.run(argc, argv);
}
