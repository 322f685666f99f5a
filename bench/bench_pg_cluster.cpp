// SPDX-License-Identifier: MIT
// A GPU cluster's week in one PostgreSQL server, at a fraction of its size: 64 nodes
// x 8 GPUs x 20 metrics at 1 Hz for 7 days is 6.2 billion samples; this builds stores at 1/1000
// (6.2M samples) and 1/10,000 (620k), each with one node run per node (its share of the week) and
// one run that lasts the whole week (604,800 samples of one metric), and times what the explorer
// and radt do on them:
//   * the week-long run's chart: its server-side envelope (2,000 columns), at both sizes. The
//     growth between them (pg_chart_open_growth, goal <= 1.3 for 10x the rows) says whether a
//     chart depends on the table's size; reading its every row is the baseline;
//   * a 64-run comparison chart (one metric of every node run, as envelopes);
//   * `radt report` of one node run; the explorer's tree (every run with params and tags);
//   * the summary table of every run (pg_summary_65_runs: kept statistics; _cold: computed by the
//     server), against reading every row.
// RADT_BENCH_SCALE=100 builds 1/100 (62M samples) instead of 1/1000, with 1/1000 as the smaller.
// The stores live in a PostgreSQL server of the benchmark's own whose data directory is kept in
// the build tree (bench-cache/pg_cluster_v<generator version>, or $RADT_BENCH_CACHE), so they are
// generated once.
// Metrics are partitioned by day, as resources/doc/stores.md advises for a cluster.

#include "BenchSupport.h"
#include "PrivatePostgres.h"
#include "core/StoreFactory.h"
#include "core/analysis/InsightReport.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/Store.h"

#include <benchmark/benchmark.h>
#include <pqxx/pqxx>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

using namespace radt;

namespace {

constexpr int kGeneratorVersion = 1;
constexpr int kNodes = 64, kGpus = 8, kMetrics = 20;
constexpr int64_t kWeekSeconds = 7 * 86400;
constexpr int64_t kMonday = 1767571200000; // 2026-01-05 00:00 UTC
const std::string kChartKey = "DCGMI - Power Usage";

struct ClusterStore {
    int denominator = 0;
    std::string uri;
    std::vector<std::string> nodeRuns;
    std::string weekRun;
    int64_t rows = 0;
};

std::string keyOf(int metric, int gpu) {
    return std::string("DCGMI - ") + bench::kGpuNodeMetrics[metric] +
           (gpu ? " - GPU " + std::to_string(gpu) : "");
}

double value(int64_t second, int metric, int gpu) {
    return double((second * 7 + gpu * 13 + metric * 29) % 101) + (second % 3600 < 60 ? 0.0 : 50.0);
}

/// 64 node runs, each its 1/denominator share of the week at 1 Hz, spread over the week, and the
/// week-long run; finished, as a cluster's week is afterwards.
void generate(Store& store, int denominator) {
    const int64_t exp = store.getOrCreateExperiment("cluster week 1/" + std::to_string(denominator));
    const int64_t seconds = kWeekSeconds / denominator;
    std::vector<MetricPoint> batch;
    const auto flush = [&](const std::string& run) {
        if (!batch.empty())
            store.logMetrics(run, batch);
        batch.clear();
    };
    for (int n = 0; n < kNodes; ++n) {
        const int64_t start = kMonday + n * (kWeekSeconds * 1000 / kNodes);
        const std::string run =
            store
                .createRun({exp, "node " + std::to_string(n), start, "bench", "train.py", RunStatus::Running})
                .uuid;
        store.logParams(run, {{"workload", std::to_string(n + 1)}, {"letter", "0"}, {"model", "train.py"}});
        for (int64_t s = 0; s < seconds; ++s) {
            for (int g = 0; g < kGpus; ++g)
                for (int m = 0; m < kMetrics; ++m)
                    batch.push_back({keyOf(m, g), value(s, m, g), start + s * 1000, s});
            if (batch.size() >= 100000)
                flush(run);
        }
        flush(run);
        store.setRunStatus(run, RunStatus::Finished, start + seconds * 1000);
        std::fprintf(stderr, "\rbench_pg_cluster: 1/%d: %d/%d node runs", denominator, n + 1, kNodes);
    }
    const std::string week =
        store.createRun({exp, "week-long node", kMonday, "bench", "train.py", RunStatus::Running}).uuid;
    for (int64_t s = 0; s < kWeekSeconds; ++s) {
        batch.push_back({kChartKey, value(s, 0, 0), kMonday + s * 1000, s});
        if (batch.size() >= 100000)
            flush(week);
    }
    flush(week);
    store.setRunStatus(week, RunStatus::Finished, kMonday + kWeekSeconds * 1000);
    std::fprintf(stderr, "\n");
}

ClusterStore open(test::PrivatePostgres& server, int denominator) {
    ClusterStore c;
    c.denominator = denominator;
    const std::string db = "cluster_1_in_" + std::to_string(denominator);
    c.uri = server.uri(db);
    bool exists = false;
    {
        pqxx::connection admin(server.uri("postgres"));
        pqxx::nontransaction tx(admin);
        exists = !tx.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", db).empty();
        if (!exists)
            tx.exec("CREATE DATABASE " + tx.quote_name(db));
    }
    if (!exists) {
        const auto started = std::chrono::steady_clock::now();
        ::setenv("RADT_PARTITION_PERIOD", "day", 1);
        auto store = openStore(c.uri, OpenMode::CreateIfMissing);
        ::unsetenv("RADT_PARTITION_PERIOD");
        generate(*store, denominator);
        pqxx::connection conn(c.uri);
        pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
        std::fprintf(stderr, "bench_pg_cluster: generated 1/%d in %.0f s (kept for the next run)\n",
                     denominator, bench::since(started));
    }
    auto store = openStore(c.uri, OpenMode::ReadOnly);
    for (const Run& r : store->runs()) {
        if (r.name == "week-long node")
            c.weekRun = r.uuid;
        else
            c.nodeRuns.push_back(r.uuid);
    }
    pqxx::connection conn(c.uri);
    c.rows = pqxx::read_transaction(conn).exec1("SELECT count(*) FROM metrics")[0].as<int64_t>();
    return c;
}

/// The fastest of `repeats` timings of `what`, in ms (a warm cache, as a user's second look).
template <typename Fn> double bestMs(int repeats, Fn what) {
    double best = 1e18;
    for (int i = 0; i < repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        what();
        best = std::min(best, bench::since(start) * 1000.0);
    }
    return best;
}

ClusterStore g_small, g_large;
std::map<std::string, double> g_ms;

void BM_WeekRunChart(benchmark::State& state) {
    for (auto _ : state)
        for (ClusterStore* c : {&g_small, &g_large}) {
            auto store = openStore(c->uri, OpenMode::ReadOnly);
            const std::string size = c == &g_small ? "small" : "large";
            g_ms["week_chart_" + size] = bestMs(5, [&] {
                const Series s = store->seriesEnvelope(c->weekRun, kChartKey, std::nullopt, 2000);
                benchmark::DoNotOptimize(s.size());
            });
            g_ms["week_rows_" + size] =
                bestMs(2, [&] { benchmark::DoNotOptimize(store->series(c->weekRun, kChartKey)); });
        }
    state.counters["large_ms"] = g_ms["week_chart_large"];
}

void BM_SixtyFourRunChart(benchmark::State& state) {
    for (auto _ : state) {
        auto store = openStore(g_large.uri, OpenMode::ReadOnly);
        g_ms["runs64_chart"] = bestMs(3, [&] {
            for (const std::string& run : g_large.nodeRuns)
                benchmark::DoNotOptimize(store->seriesEnvelope(run, kChartKey, std::nullopt, 2000).size());
        });
        g_ms["runs64_rows"] = bestMs(2, [&] {
            for (const std::string& run : g_large.nodeRuns)
                benchmark::DoNotOptimize(store->series(run, kChartKey).size());
        });
    }
    state.counters["ms"] = g_ms["runs64_chart"];
}

void BM_ReportOfOneRun(benchmark::State& state) {
    for (auto _ : state) {
        auto store = openStore(g_large.uri, OpenMode::ReadOnly);
        const std::vector<Run> run{*store->run(g_large.nodeRuns.front())};
        g_ms["report"] =
            bestMs(3, [&] { benchmark::DoNotOptimize(buildReport(*store, run, ReportOptions{}).size()); });
    }
    state.counters["ms"] = g_ms["report"];
}

/// The summary table of every run (the 64 node runs and the week-long one) for one metric, as the
/// explorer's loader fills it (runsSeriesStats): first with no statistics kept (the server computes
/// them; only the week-long run's are long enough to keep), then with every run's kept as radt
/// keeps them when it closes a run; against reading every row.
void BM_SummaryOfEveryRun(benchmark::State& state) {
    for (auto _ : state) {
        {
            pqxx::connection conn(g_large.uri);
            pqxx::work tx(conn);
            tx.exec("DO $$ BEGIN IF to_regclass('radt_envelopes') IS NOT NULL THEN "
                    "DELETE FROM radt_envelopes WHERE buckets = 0; END IF; END $$");
            tx.commit();
        }
        auto store = openStore(g_large.uri, OpenMode::ReadOnly);
        auto keep = openStore(g_large.uri, OpenMode::OpenExisting);
        const std::vector<Run> runs = store->runs();
        size_t samples = 0;
        g_ms["summary_cold"] = bestMs(1, [&] {
            for (const auto& [uuid, stats] : runsSeriesStats(*store, runs, kChartKey, keep.get()))
                samples += stats.samples;
        });
        for (const Run& run : runs) // as radt does when it closes a run: every key's statistics kept
            writeRunEnvelopes(*keep, run.uuid);
        g_ms["summary"] = bestMs(3, [&] {
            benchmark::DoNotOptimize(runsSeriesStats(*store, runs, kChartKey, keep.get()).size());
        });
        g_ms["summary_rows"] = bestMs(1, [&] {
            for (const Run& run : runs)
                benchmark::DoNotOptimize(store->series(run.uuid, kChartKey).size());
        });
        if (samples == 0)
            state.SkipWithError("no statistics");
    }
    state.counters["ms"] = g_ms["summary"];
}

void BM_TreeLoad(benchmark::State& state) {
    for (auto _ : state) {
        auto store = openStore(g_large.uri, OpenMode::ReadOnly);
        g_ms["tree"] = bestMs(5, [&] { benchmark::DoNotOptimize(store->runs().size()); });
    }
    state.counters["ms"] = g_ms["tree"];
}

} // namespace

BENCHMARK(BM_WeekRunChart)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SixtyFourRunChart)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReportOfOneRun)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SummaryOfEveryRun)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TreeLoad)->Iterations(1)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    int denominator = 1000;
    if (const char* s = std::getenv("RADT_BENCH_SCALE"))
        denominator = std::max(10, std::atoi(s));
    test::PrivatePostgres server;
    if (!server.unavailableReason().empty()) {
        std::fprintf(stderr, "bench_pg_cluster: %s\n", server.unavailableReason().c_str());
        return 2;
    }
    const std::string dir =
        bench::cacheDir(RADT_BINARY_DIR) + "/pg_cluster_v" + std::to_string(kGeneratorVersion);
    const bool kept = server.startKept(dir);
    std::fprintf(stderr, "bench_pg_cluster: server on port %d, data in %s (%s)\n", server.port(), dir.c_str(),
                 kept ? "kept from an earlier run" : "new");
    bench::Figures figures;
    figures.after("BM_WeekRunChart", 1, [] {
        std::printf("week-long run (604,800 samples): chart %.1f ms in the larger store, %.1f ms in the "
                    "smaller; every row %.0f ms\n",
                    g_ms["week_chart_large"], g_ms["week_chart_small"], g_ms["week_rows_large"]);
        bench::figure("pg_chart_open_ms", g_ms["week_chart_large"], "ms");
        bench::figure("pg_chart_open_growth", g_ms["week_chart_large"] / g_ms["week_chart_small"], "x");
        bench::figure("pg_chart_open_vs_rows", g_ms["week_rows_large"] / g_ms["week_chart_large"], "x");
    });
    figures.after("BM_SixtyFourRunChart", 1, [] {
        std::printf("64-run chart %.0f ms (every row: %.0f ms)\n", g_ms["runs64_chart"], g_ms["runs64_rows"]);
        bench::figure("pg_chart_64_runs_ms", g_ms["runs64_chart"], "ms");
        bench::figure("pg_chart_64_runs_vs_rows", g_ms["runs64_rows"] / g_ms["runs64_chart"], "x");
    });
    figures.after("BM_ReportOfOneRun", 1,
                  [] { bench::figure("pg_report_one_run_ms", g_ms["report"], "ms"); });
    figures.after("BM_SummaryOfEveryRun", 1, [] {
        std::printf("summary table of the %zu runs: %.1f ms from kept statistics, %.0f ms computed by the "
                    "server (every row read: %.0f ms)\n",
                    g_large.nodeRuns.size() + 1, g_ms["summary"], g_ms["summary_cold"], g_ms["summary_rows"]);
        bench::figure("pg_summary_65_runs_ms", g_ms["summary"], "ms");
        bench::figure("pg_summary_65_runs_cold_ms", g_ms["summary_cold"], "ms");
        bench::figure("pg_summary_vs_rows", g_ms["summary_rows"] / g_ms["summary"], "x");
    });
    figures.after("BM_TreeLoad", 1, [] { bench::figure("pg_tree_load_ms", g_ms["tree"], "ms"); });
    return figures.run(argc, argv, [&] {
        g_small = open(server, denominator * 10);
        g_large = open(server, denominator);
        std::printf("stores: 1/%d of a cluster week = %lld samples, 1/%d = %lld samples (metrics by day)\n",
                    g_large.denominator, static_cast<long long>(g_large.rows), g_small.denominator,
                    static_cast<long long>(g_small.rows));
        bench::figure("pg_cluster_rows", double(g_large.rows), "samples");
    });
}
