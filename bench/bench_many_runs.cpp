// SPDX-License-Identifier: MIT
// A store of a cluster's runs in the explorer: 10,000 finished runs (10 experiments,
// radT's workload/letter params and a few more, MLflow's tags, one metric each) in SQLite.
// * tree_open: what opening the store does before the window shows it (StoreSession::open: the
//   store, its experiments and runs with params and tags) plus the run tree filled and its
//   experiments expanded (RunTreePane::showStore), against the baseline: the same rows stepped
//   through by bare SELECTs of runs, params and tags;
// * store_runs: the store's part of that (open, experiments, runs with params and tags);
// * tree_reread: F5's reread on the loader's thread, landed in the tree with its expansion kept;
// * basket_add_2000: 2,000 runs put in the basket on the GUI thread (what the window does before
//   the charts, keys and summary are read on the loader's thread);
// * tree_filter: a filter typed over the 10,000 runs.
// And a chart of 500 finished runs x 10,000 samples (5M rows, SQLite; 100,000 samples and 50M rows
// with RADT_BENCH_FULL=1) in a 1200 px chart through the window's loader thread, against reading
// every row of them (the baseline):
// * chart_open_500_runs: the runs' stored envelopes (RunEnvelopes.h) read, the lines built and
//   the first frame painted;
// * chart_open_500_runs_cold: the first chart of a store without envelopes: every row read, the
//   envelopes made and kept (once per store; radt and `radt store compact` make them otherwise);
// * zoom_frame_500_runs: a zoom to another window of the 500 lines, read from their pyramids and
//   painted (as their density, ChartPlotItem);
// * summary_500_runs: the summary table of the 500 runs from their kept statistics (a stats entry
//   of radt_envelopes each), against the same rows read; summary_500_runs_cold: the first one,
//   with no statistics kept (every row read, the statistics computed and kept).
// With RADT_BENCH_PG=1 (or RADT_BENCH_FULL=1), the same 500 runs in a PostgreSQL server of the
// benchmark's own (pg_chart_open_500_runs_ms, pg_summary_500_runs_ms, pg_chart_rows_500_runs_ms).
// The stores are generated once (bench-cache in the build tree or $RADT_BENCH_CACHE, named after
// their size and the generator's version; the full-size SQLite one takes 14 GB and ~5 minutes).
// Each figure is printed as soon as its benchmark has run; the PostgreSQL ones come last. Figures:
// tree_open_10k_runs_ms, tree_open_vs_raw_select (x), store_runs_10k_ms, tree_reread_10k_runs_ms,
// basket_add_2000_runs_ms, tree_filter_10k_runs_ms, chart_open_500_runs_ms,
// chart_open_500_runs_cold_ms, chart_rows_500_runs_ms, chart_open_500_runs_vs_rows (x),
// zoom_frame_500_runs_ms_p95, summary_500_runs_ms, summary_500_runs_cold_ms, summary_500_runs_vs_rows (x).

#include "BenchSupport.h"
#include "PrivatePostgres.h"
#include "core/StoreFactory.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/postgres/PostgresPartitions.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/SummaryPanel.h"
#include "widgets/runs/BasketModel.h"
#include "widgets/runs/RunFilterProxy.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/runs/RunsTablePane.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/StoreSession.h"

#include <QApplication>
#include <QLineEdit>
#include <QTableView>

#include <utility>

#include <benchmark/benchmark.h>
#include <pqxx/pqxx>

using namespace radt;

namespace {

constexpr int kRuns = 10000;
constexpr int kExperiments = 10;
constexpr int64_t kT0 = 1'700'000'000'000;
const char* const kGeneratorVersion = "1";

std::map<std::string, double> g_best; // seconds, the best of the iterations

/// The store, made once per build tree (about 12 s): a cluster's runs, 1,000 per experiment,
/// two runs per workload (letters 0_A and 0_B), four batch sizes and three seeds.
std::string manyRunsStore() {
    const std::string dir = bench::cacheDir(RADT_BINARY_DIR);
    const std::string path = dir + "/many_runs_" + std::to_string(kRuns) + "_v" + kGeneratorVersion + ".db";
    if (std::filesystem::exists(path))
        return path;
    std::filesystem::create_directories(dir);
    const std::string building = path + ".building";
    std::filesystem::remove(building);
    {
        auto store = openStore("sqlite:///" + building, OpenMode::CreateIfMissing);
        for (int e = 0; e < kExperiments; ++e) {
            const int64_t experiment = store->getOrCreateExperiment("cluster-" + std::to_string(e));
            for (int i = 0; i < kRuns / kExperiments; ++i) {
                const int64_t start = kT0 + int64_t(i) * 60'000;
                const std::string run =
                    store->createRun({experiment, "train.py", start, "u", "train.py", RunStatus::Running})
                        .uuid;
                store->logParams(run, {{"workload", std::to_string(i / 2 + 1)},
                                       {"letter", i % 2 ? "0_B" : "0_A"},
                                       {"batch_size", std::to_string(64 << (i % 4))},
                                       {"lr", "0.001"},
                                       {"model", "resnet50"},
                                       {"seed", std::to_string(i % 3)}});
                store->setTags(run, {{"mlflow.user", "u"}, {"mlflow.source.name", "train.py"}});
                store->logMetrics(run, {{"loss", 1.0 / (i + 1), start, 0}});
                store->setRunStatus(run, RunStatus::Finished, start + 30'000);
            }
        }
    }
    std::filesystem::rename(building, path);
    return path;
}

/// Bare SELECTs of what a tree needs: every run, param and tag row, stepped through.
int64_t rawSelectRows(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    int64_t rows = 0;
    for (const char* sql :
         {"SELECT run_uuid, name, status, start_time, end_time, experiment_id FROM runs",
          "SELECT run_uuid, key, value FROM params", "SELECT run_uuid, key, value FROM tags"}) {
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
        while (sqlite3_step(stmt) == SQLITE_ROW)
            rows += sqlite3_column_bytes(stmt, 0) > 0;
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return rows;
}

void BM_RawSelect(benchmark::State& state) {
    const std::string path = manyRunsStore();
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const int64_t rows = rawSelectRows(path);
        bench::keepBest(g_best, "raw", bench::since(start));
        if (rows < kRuns)
            state.SkipWithError("too few rows");
    }
}

/// The store's part of the open: what StoreSession reads before the window shows anything.
void BM_StoreRead(benchmark::State& state) {
    const std::string uri = "sqlite:///" + manyRunsStore();
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        auto store = openStore(uri, OpenMode::ReadOnly);
        const size_t experiments = store->experiments().size();
        const size_t runs = store->runs().size();
        bench::keepBest(g_best, "store", bench::since(start));
        if (runs != size_t(kRuns) || experiments < size_t(kExperiments))
            state.SkipWithError("the store does not hold every run");
    }
}

void BM_TreeOpen(benchmark::State& state) {
    const QString uri = QString::fromStdString("sqlite:///" + manyRunsStore());
    for (auto _ : state) {
        MainWindow window; // made outside the timing: only the store's open and its tree count
        window.resize(1280, 800);
        const auto start = std::chrono::steady_clock::now();
        QString error;
        if (!window.openStore(uri, &error))
            state.SkipWithError(error.toStdString().c_str());
        QApplication::processEvents();
        bench::keepBest(g_best, "open", bench::since(start));
        if (window.findChild<RunTreePane*>()->model()->runCount() != kRuns)
            state.SkipWithError("the tree does not hold every run");

        auto timed = std::chrono::steady_clock::now();
        window.reload();
        window.waitForLoads();
        bench::keepBest(g_best, "reread", bench::since(timed));

        QStringList uuids;
        for (const Run& r : window.findChild<RunTreePane*>()->model()->runs())
            if (uuids.size() < 2000)
                uuids << QString::fromStdString(r.uuid);
        timed = std::chrono::steady_clock::now();
        window.addRunsToBasket(uuids);
        bench::keepBest(g_best, "basket", bench::since(timed));
        if (window.findChild<BasketModel*>()->runCount() != 2000)
            state.SkipWithError("the basket does not hold the 2,000 runs");
        window.waitForLoads(); // the charts, keys and summary of those runs, before the next round

        auto* filter = window.findChild<QLineEdit*>(QStringLiteral("runFilter"));
        timed = std::chrono::steady_clock::now();
        filter->setText(QStringLiteral("0_B"));
        QApplication::processEvents();
        bench::keepBest(g_best, "filter", bench::since(timed));
        if (window.findChild<RunTreePane*>()->proxy()->rowCount() != kExperiments)
            state.SkipWithError("the filter hid an experiment");
    }
}

/// The runs table of the 10,000 runs: every run read, searched and sorted through the real pane
/// and its read thread, offscreen; its memory is the resident growth while it holds them.
void BM_RunsTable(benchmark::State& state) {
    const QString uri = QString::fromStdString("sqlite:///" + manyRunsStore());
    for (auto _ : state) {
        RunsTablePane pane;
        pane.resize(1200, 600);
        pane.show();
        int landed = -2;
        QObject::connect(&pane, &RunsTablePane::loaded, [&landed](int runs) { landed = runs; });
        const auto waitForRows = [&landed] {
            while (landed == -2)
                QApplication::processEvents(QEventLoop::AllEvents, 5);
            return std::exchange(landed, -2);
        };
        const long before = bench::residentBytes();
        auto start = std::chrono::steady_clock::now();
        pane.setStore(uri);
        if (waitForRows() != kRuns)
            state.SkipWithError("the table does not hold every run");
        QApplication::processEvents();
        bench::keepBest(g_best, "table_open", bench::since(start));
        g_best["table_rss_mb"] = double(bench::residentBytes() - before) / 1e6;

        const QAbstractItemModel* shown = pane.view()->model();
        int batch = -1;
        for (int c = 0; c < shown->columnCount(); ++c)
            if (shown->headerData(c, Qt::Horizontal).toString() == QStringLiteral("params.batch_size"))
                batch = c;
        start = std::chrono::steady_clock::now();
        pane.view()->sortByColumn(batch, Qt::AscendingOrder);
        QApplication::processEvents();
        bench::keepBest(g_best, "table_sort", bench::since(start));
        if (shown->index(0, batch).data().toString() != QStringLiteral("64"))
            state.SkipWithError("the smallest batch size does not sort first");

        start = std::chrono::steady_clock::now();
        pane.searchEdit()->setText(QStringLiteral("params.batch_size = '128' and metrics.loss < 0.01"));
        QMetaObject::invokeMethod(pane.searchEdit(), "returnPressed");
        if (waitForRows() <= 0)
            state.SkipWithError("the search found nothing");
        bench::keepBest(g_best, "table_search", bench::since(start));
    }
}

constexpr int kChartRuns = 500;
// Samples per run: 10,000 by default (5M rows, a 1.4 GB SQLite store made in well under a
// minute), 100,000 with RADT_BENCH_FULL=1 (50M rows, 14 GB; the PostgreSQL copy takes 13 to 31
// minutes once). A chart of stored envelopes reads the same 4,096 slices either way.
int g_chartPoints = 10000;
const char* const kChartKey = "SMI - Power Draw W";
const char* const kChartGeneratorVersion = "1";

/// 500 finished runs of 100,000 one-second samples each, one after another in time as a
/// cluster's queue runs them (a spike of 999 W now and then, a slow swing, jitter). The rows are
/// made by SQLite itself (a recursive CTE per run): the store API would take ten times longer.
std::string chartStore() {
    const std::string dir = bench::cacheDir(RADT_BINARY_DIR);
    const std::string path = dir + "/chart_runs_" + std::to_string(kChartRuns) + "x" +
                             std::to_string(g_chartPoints) + "_v" + kChartGeneratorVersion + ".db";
    if (std::filesystem::exists(path))
        return path;
    std::filesystem::create_directories(dir);
    const std::string building = path + ".building";
    std::filesystem::remove(building);
    std::vector<std::string> uuids;
    {
        auto store = openStore("sqlite:///" + building, OpenMode::CreateIfMissing);
        const int64_t experiment = store->getOrCreateExperiment("cluster-week");
        for (int r = 0; r < kChartRuns; ++r) {
            const int64_t start = kT0 + int64_t(r) * g_chartPoints * 1000;
            const std::string run =
                store->createRun({experiment, "train.py", start, "u", "train.py", RunStatus::Running}).uuid;
            store->logParams(run,
                             {{"workload", std::to_string(r + 1)}, {"letter", "0"}, {"listeners", "smi"}});
            store->setRunStatus(run, RunStatus::Finished, start + int64_t(g_chartPoints) * 1000);
            uuids.push_back(run);
        }
    }
    sqlite3* db = nullptr;
    sqlite3_open(building.c_str(), &db);
    bench::exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF");
    sqlite3_stmt* rows = nullptr;
    sqlite3_prepare_v2(
        db,
        "INSERT INTO metrics (\"key\", value, timestamp, run_uuid, step, is_nan) "
        "WITH RECURSIVE i(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM i WHERE x < ?1 - 1) "
        "SELECT ?2, CASE WHEN x % 9973 = 17 THEN 999.0 ELSE 200.0 + ((x * 7919 + ?3 * 101) % 200) "
        "* 0.5 + (x % 3600) / 36.0 END, ?4 + x * 1000, ?5, 0, 0 FROM i",
        -1, &rows, nullptr);
    sqlite3_stmt* latest = nullptr;
    sqlite3_prepare_v2(db,
                       "INSERT INTO latest_metrics (\"key\", value, timestamp, step, is_nan, run_uuid) "
                       "SELECT \"key\", value, timestamp, step, is_nan, run_uuid FROM metrics "
                       "WHERE run_uuid = ?1 AND \"key\" = ?2 ORDER BY step DESC, timestamp DESC LIMIT 1",
                       -1, &latest, nullptr);
    for (int r = 0; r < kChartRuns; ++r) {
        const std::string& uuid = uuids[size_t(r)];
        bench::exec(db, "BEGIN");
        sqlite3_bind_int(rows, 1, g_chartPoints);
        sqlite3_bind_text(rows, 2, kChartKey, -1, SQLITE_STATIC);
        sqlite3_bind_int(rows, 3, r);
        sqlite3_bind_int64(rows, 4, kT0 + int64_t(r) * g_chartPoints * 1000);
        sqlite3_bind_text(rows, 5, uuid.c_str(), -1, SQLITE_STATIC);
        if (sqlite3_step(rows) != SQLITE_DONE)
            throw std::runtime_error(std::string("generating rows: ") + sqlite3_errmsg(db));
        sqlite3_reset(rows);
        sqlite3_bind_text(latest, 1, uuid.c_str(), -1, SQLITE_STATIC);
        sqlite3_bind_text(latest, 2, kChartKey, -1, SQLITE_STATIC);
        sqlite3_step(latest);
        sqlite3_reset(latest);
        bench::exec(db, "COMMIT");
        if ((r + 1) % 50 == 0)
            std::fprintf(stderr, "\rgenerating the chart store: %d/%d runs", r + 1, kChartRuns);
    }
    std::fprintf(stderr, "\n");
    sqlite3_finalize(rows);
    sqlite3_finalize(latest);
    bench::exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    sqlite3_close(db);
    std::filesystem::rename(building, path);
    return path;
}

std::vector<Run> chartRuns(const std::string& path) {
    return openStore("sqlite:///" + path, OpenMode::ReadOnly)->runs();
}

/// The baseline: every row of the 500 series read, as a chart without envelopes must.
void BM_ChartRows(benchmark::State& state) {
    const std::string path = chartStore();
    const std::vector<Run> runs = chartRuns(path);
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        auto store = openStore("sqlite:///" + path, OpenMode::ReadOnly);
        size_t rows = 0;
        for (const Run& run : runs)
            rows += store->series(run.uuid, kChartKey).size();
        bench::keepBest(g_best, "rows", bench::since(start));
        if (rows != size_t(kChartRuns) * g_chartPoints)
            state.SkipWithError("the chart store does not hold every row");
    }
}

/// One chart of the 500 runs, as the window loads it: the loader's thread reads (and, where it
/// may write, keeps the envelopes it had to make), the chart builds its lines on this thread and
/// paints its first frame (into `image`). Returns the seconds it took, or a negative number when
/// a run did not come reduced.
double openChart(const std::string& uri, const std::vector<Run>& runs, ChartPanel& chart, QImage& image) {
    ChartLoader loader;
    loader.setStoreUri(uri.find("://") == std::string::npos ? "sqlite:///" + uri : uri, true);
    const auto start = std::chrono::steady_clock::now();
    loader.requestChart(&chart, runs, QString(kChartKey));
    loader.waitIdle(600000);
    static_cast<QWidget&>(chart).render(&image);
    const double seconds = bench::since(start);
    if (chart.engine().runs().size() != size_t(kChartRuns))
        return -1;
    for (const ChartRunData& r : chart.engine().runs())
        if (!r.reduced || r.storedPoints != g_chartPoints)
            return -1;
    return seconds;
}

/// One statement on the SQLite file's radt_envelopes (where it has them), through a connection of its own.
void execOnFile(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* exists = nullptr;
    sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = 'radt_envelopes'", -1, &exists, nullptr);
    const bool hasEnvelopes = sqlite3_step(exists) == SQLITE_ROW;
    sqlite3_finalize(exists);
    if (hasEnvelopes) // a cache without them yet (a benchmark run alone) has nothing to drop
        bench::exec(db, sql);
    sqlite3_close(db);
}

/// openChart in a new 1240 x 700 chart.
double openFreshChart(const std::string& uri, const std::vector<Run>& runs) {
    ChartPanel chart;
    chart.resize(1240, 700);
    QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);
    return openChart(uri, runs, chart, image);
}

void BM_ChartOpenCold(benchmark::State& state) {
    const std::string path = chartStore();
    const std::vector<Run> runs = chartRuns(path);
    for (auto _ : state) {
        execOnFile(path, "DROP TABLE IF EXISTS radt_envelopes");
        const double seconds = openFreshChart(path, runs);
        bench::keepBest(g_best, "cold", seconds);
        if (seconds < 0)
            state.SkipWithError("a run was not reduced");
    }
}

void BM_ChartOpen(benchmark::State& state) {
    const std::string path = chartStore();
    const std::vector<Run> runs = chartRuns(path);
    std::vector<double> frames;
    for (auto _ : state) {
        ChartPanel chart;
        chart.resize(1240, 700);
        QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);
        const double seconds = openChart(path, runs, chart, image);
        bench::keepBest(g_best, "warm", seconds);
        if (seconds < 0)
            state.SkipWithError("a run was not reduced (no stored envelope?)");
        // Zoom frames: each to another window (a tenth to a half of the runs' span), painted.
        const int64_t span = int64_t(g_chartPoints) * 1000;
        for (int f = 0; f < 20; ++f) {
            const int64_t width = span / (2 + f % 9);
            const int64_t from = (span - width) * (f % 7) / 6;
            const auto frameStart = std::chrono::steady_clock::now();
            chart.applyLinkedZoom(chart.engine().options().xAxis, std::make_pair(from, from + width));
            static_cast<QWidget&>(chart).render(&image);
            frames.push_back(bench::since(frameStart) * 1e3);
        }
    }
    g_best["frame_p95"] = bench::percentile(frames, 0.95);
}

/// The summary table of the 500 runs as the window's loader thread fills it (SummaryPanel::rowsFor
/// on a read-only connection, kept statistics saved through a writable one).
double summarise(const std::string& path, const std::vector<Run>& runs) {
    const std::string uri = path.find("://") == std::string::npos ? "sqlite:///" + path : path;
    auto store = openStore(uri, OpenMode::ReadOnly);
    auto keep = openStore(uri, OpenMode::OpenExisting);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<SummaryRow> rows = SummaryPanel::rowsFor(*store, runs, {kChartKey}, {}, keep.get());
    const double seconds = bench::since(start);
    for (const SummaryRow& row : rows)
        if (row.stats.samples != size_t(g_chartPoints))
            return -1;
    return rows.size() == size_t(kChartRuns) ? seconds : -1;
}

/// The first summary of runs whose statistics were never kept: every row read, the entries kept.
void BM_SummaryCold(benchmark::State& state) {
    const std::string path = chartStore();
    const std::vector<Run> runs = chartRuns(path);
    for (auto _ : state) {
        execOnFile(path, "DELETE FROM radt_envelopes WHERE buckets = 0");
        const double seconds = summarise(path, runs);
        bench::keepBest(g_best, "summary_cold", seconds);
        if (seconds < 0)
            state.SkipWithError("a run's summary is missing or short");
    }
}

void BM_Summary(benchmark::State& state) {
    const std::string path = chartStore();
    const std::vector<Run> runs = chartRuns(path);
    for (auto _ : state) {
        const double seconds = summarise(path, runs);
        bench::keepBest(g_best, "summary", seconds);
        if (seconds < 0)
            state.SkipWithError("a run's summary is missing or short");
    }
}

/// What proving kept entries fresh costs (the triggers' presence and each run's change count
/// joined in): the 500 runs' envelopes at 4,096 slices and their stats entries read as a chart and
/// the summary read them (EnvelopeCache::storedEnvelopes), against the same rows and blobs read by a bare
/// prepared SELECT that checks only latest_metrics (what the store did before the count).
void BM_FreshnessCheck(benchmark::State& state) {
    const std::string path = chartStore();
    const std::vector<Run> runs = chartRuns(path);
    std::vector<std::string> uuids;
    for (const Run& r : runs)
        uuids.push_back(r.uuid);
    auto store = openStore(path, OpenMode::ReadOnly);
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* bare = nullptr;
    sqlite3_prepare_v2(
        db,
        "SELECT e.point_count, e.latest_timestamp, e.latest_step, e.points FROM radt_envelopes e "
        "JOIN latest_metrics l ON l.run_uuid = e.run_uuid AND l.\"key\" = e.\"key\" "
        "WHERE e.run_uuid = ? AND e.\"key\" = ? AND e.buckets = ? AND e.version = ? "
        "AND l.timestamp = e.latest_timestamp AND l.step = e.latest_step",
        -1, &bare, nullptr);
    for (auto _ : state) {
        for (const int buckets : {4096, kStatsBuckets}) {
            const char* name = buckets ? "envelopes" : "stats";
            auto start = std::chrono::steady_clock::now();
            const size_t kept = store->envelopes().storedEnvelopes(uuids, kChartKey, buckets).size();
            bench::keepBest(g_best, std::string("checked_") + name, bench::since(start));
            start = std::chrono::steady_clock::now();
            size_t read = 0;
            std::vector<Series> held; // kept as the store's answer keeps them
            held.reserve(uuids.size());
            for (const std::string& uuid : uuids) {
                sqlite3_bind_text(bare, 1, uuid.c_str(), -1, SQLITE_STATIC);
                sqlite3_bind_text(bare, 2, kChartKey, -1, SQLITE_STATIC);
                sqlite3_bind_int(bare, 3, buckets);
                sqlite3_bind_int(bare, 4, kEnvelopeVersion);
                if (sqlite3_step(bare) == SQLITE_ROW) {
                    held.push_back(decodeEnvelopePoints(sqlite3_column_blob(bare, 3),
                                                        size_t(sqlite3_column_bytes(bare, 3)), "bench"));
                    ++read;
                }
                sqlite3_reset(bare);
            }
            bench::keepBest(g_best, std::string("bare_") + name, bench::since(start));
            if (kept != uuids.size() || read != uuids.size())
                state.SkipWithError("not every run's entry is kept and fresh");
        }
    }
    sqlite3_finalize(bare);
    sqlite3_close(db);
    for (const char* name : {"envelopes", "stats"}) {
        const double checked = g_best[std::string("checked_") + name],
                     bareRead = g_best[std::string("bare_") + name];
        bench::figure((std::string("fresh_") + name + "_500_runs_ms").c_str(), checked * 1e3, "ms");
        bench::figure((std::string("fresh_") + name + "_500_runs_vs_bare").c_str(),
                      bareRead > 0 ? checked / bareRead : 0, "x");
    }
}

// ---- the same 500 runs on PostgreSQL ----

test::PrivatePostgres* g_server = nullptr; // main's, when this machine can run one
std::string g_pgUri;
std::vector<Run> g_pgRuns;

/// The 500 runs in a PostgreSQL server of the benchmark's own, kept in the build tree
/// (bench-cache/pg_many_runs_v<version>, a database per size): the rows made by the server
/// (generate_series, the SQLite store's values), then each run's envelopes and statistics written
/// as radt writes them when a run finishes. The runs start 20 minutes apart, as a cluster's queue
/// of a week starts them, in weekly partitions. About 20 minutes once at the full size.
void pgChartStore() {
    const std::string db = "many_runs_" + std::to_string(kChartRuns) + "x" + std::to_string(g_chartPoints) +
                           "_v" + std::string(kChartGeneratorVersion);
    g_pgUri = g_server->uri(db);
    {
        pqxx::connection admin(g_server->uri("postgres"));
        pqxx::nontransaction tx(admin);
        if (!tx.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", db).empty()) {
            g_pgRuns = openStore(g_pgUri, OpenMode::ReadOnly)->runs();
            return;
        }
        // A generation cut short left its half-made database: made again from nothing.
        tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(db + "_building"));
        tx.exec("CREATE DATABASE " + tx.quote_name(db + "_building"));
    }
    const std::string building = g_server->uri(db + "_building");
    constexpr int64_t kMonday = 1767571200000; // 2026-01-05 00:00 UTC
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::string> uuids;
    {
        auto store = openStore(building, OpenMode::CreateIfMissing);
        const int64_t experiment = store->getOrCreateExperiment("cluster-week");
        for (int r = 0; r < kChartRuns; ++r) {
            const int64_t start = kMonday + int64_t(r) * 1'200'000;
            const std::string run =
                store->createRun({experiment, "train.py", start, "u", "train.py", RunStatus::Running}).uuid;
            store->logParams(run,
                             {{"workload", std::to_string(r + 1)}, {"letter", "0"}, {"listeners", "smi"}});
            store->setRunStatus(run, RunStatus::Finished, start + int64_t(g_chartPoints) * 1000);
            uuids.push_back(run);
        }
    }
    {
        pqxx::connection conn(building);
        {
            // The partitions the rows fall in, as the writer makes them for a batch (weekly: the default).
            std::vector<int64_t> days;
            for (int64_t t = kMonday;
                 t < kMonday + int64_t(kChartRuns) * 1'200'000 + int64_t(g_chartPoints) * 1000;
                 t += pg::kDayMs)
                days.push_back(t);
            pqxx::work tx(conn);
            pg::createPartitions(tx, "metrics", "metrics", pg::PartitionPeriod::Week, days);
            tx.commit();
        }
        for (int r = 0; r < kChartRuns; ++r) {
            pqxx::work tx(conn);
            const int64_t start = kMonday + int64_t(r) * 1'200'000;
            tx.exec_params(
                "INSERT INTO metrics (\"key\", value, timestamp, run_uuid, step, is_nan) "
                "SELECT $1, CASE WHEN x % 9973 = 17 THEN 999.0 ELSE 200.0 + ((x * 7919 + $2 * 101) % 200) "
                "* 0.5 + (x % 3600) / 36.0 END, $3::bigint + x::bigint * 1000, $4, 0, false "
                "FROM generate_series(0, $5 - 1) AS x",
                kChartKey, r, start, uuids[size_t(r)], g_chartPoints);
            tx.exec_params("INSERT INTO latest_metrics (\"key\", value, timestamp, step, is_nan, run_uuid) "
                           "SELECT \"key\", value, timestamp, step, is_nan, run_uuid FROM metrics "
                           "WHERE run_uuid = $1 AND \"key\" = $2 ORDER BY step DESC, timestamp DESC LIMIT 1",
                           uuids[size_t(r)], kChartKey);
            tx.commit();
            if ((r + 1) % 25 == 0)
                std::fprintf(stderr, "\rgenerating the PostgreSQL chart store: %d/%d runs", r + 1,
                             kChartRuns);
        }
        pqxx::nontransaction(conn).exec("VACUUM ANALYZE");
        {
            auto store = openStore(building, OpenMode::OpenExisting);
            for (int r = 0; r < kChartRuns; ++r) {
                writeRunEnvelopes(*store, uuids[size_t(r)]);
                if ((r + 1) % 25 == 0)
                    std::fprintf(stderr, "\rwriting envelopes and statistics: %d/%d runs", r + 1, kChartRuns);
            }
        }
    } // the generating connection closed before the rename
    pqxx::connection admin(g_server->uri("postgres"));
    pqxx::nontransaction(admin).exec("ALTER DATABASE " + admin.quote_name(db + "_building") + " RENAME TO " +
                                     admin.quote_name(db));
    std::fprintf(stderr, "\nthe PostgreSQL chart store took %.0f s\n", bench::since(started));
    g_pgRuns = openStore(g_pgUri, OpenMode::ReadOnly)->runs();
}

/// The PostgreSQL store made or found; false (the benchmark skipped) without a server here.
bool pgReady(benchmark::State& state) {
    if (!g_server) {
        state.SkipWithError("no PostgreSQL part (RADT_BENCH_PG=1 asks for it; initdb must be here)");
        return false;
    }
    pgChartStore();
    return true;
}

void BM_PgChartOpen(benchmark::State& state) {
    if (!pgReady(state))
        return;
    for (auto _ : state) {
        const double seconds = openFreshChart(g_pgUri, g_pgRuns);
        bench::keepBest(g_best, "pg_warm", seconds);
        if (seconds < 0)
            state.SkipWithError("a run was not reduced (no stored envelope?)");
    }
}

void BM_PgSummary(benchmark::State& state) {
    if (!pgReady(state))
        return;
    for (auto _ : state) {
        const double seconds = summarise(g_pgUri, g_pgRuns);
        bench::keepBest(g_best, "pg_summary", seconds);
        if (seconds < 0)
            state.SkipWithError("a run's summary is missing or short");
    }
}

/// The baseline on PostgreSQL: every row of the 500 series through libpq.
void BM_PgChartRows(benchmark::State& state) {
    if (!pgReady(state))
        return;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        auto store = openStore(g_pgUri, OpenMode::ReadOnly);
        size_t rows = 0;
        for (const Run& run : g_pgRuns)
            rows += store->series(run.uuid, kChartKey).size();
        bench::keepBest(g_best, "pg_rows", bench::since(start));
        if (rows != size_t(kChartRuns) * g_chartPoints)
            state.SkipWithError("the PostgreSQL chart store does not hold every row");
    }
}

} // namespace

BENCHMARK(BM_RawSelect)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StoreRead)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TreeOpen)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RunsTable)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChartOpenCold)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChartOpen)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SummaryCold)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Summary)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FreshnessCheck)->Iterations(5)->Unit(benchmark::kMillisecond);
// Twice: the best of two reads of every row, the file as warm in the page cache as it is for the
// charts before it.
BENCHMARK(BM_ChartRows)->Iterations(2)->Unit(benchmark::kMillisecond);
// Last: the PostgreSQL store is made (once) by the first of them.
BENCHMARK(BM_PgChartOpen)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PgSummary)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PgChartRows)->Iterations(1)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const bool full = bench::envFlag("RADT_BENCH_FULL");
    if (full)
        g_chartPoints = 100000;
    // The PostgreSQL part is asked for: its store takes 5 to 10 minutes to make at the default
    // size (13 to 31 at the full one), which would not leave the default run within 10 minutes.
    test::PrivatePostgres server;
    if (!full && !bench::envFlag("RADT_BENCH_PG")) {
        std::fprintf(stderr, "bench_many_runs: no PostgreSQL figures (RADT_BENCH_PG=1 or RADT_BENCH_FULL=1 "
                             "adds them)\n");
    } else if (server.unavailableReason().empty()) {
        server.startKept(bench::cacheDir(RADT_BINARY_DIR) + "/pg_many_runs_v" + kChartGeneratorVersion);
        g_server = &server;
    } else {
        std::fprintf(stderr, "bench_many_runs: no PostgreSQL figures: %s\n",
                     server.unavailableReason().c_str());
    }
    bench::Figures figures;
    figures.after("BM_TreeOpen", 1, [] {
        const double open = g_best["open"], raw = g_best["raw"];
        std::printf(
            "%d runs: store open and tree %.0f ms, of which the store's reads %.0f ms (bare SELECTs of "
            "runs, params, tags %.0f ms); reread %.0f ms; 2,000 runs into the basket %.0f ms; a filter "
            "%.0f ms\n",
            kRuns, open * 1e3, g_best["store"] * 1e3, raw * 1e3, g_best["reread"] * 1e3,
            g_best["basket"] * 1e3, g_best["filter"] * 1e3);
        bench::figure("tree_open_10k_runs_ms", open * 1e3, "ms");
        bench::figure("tree_open_vs_raw_select", raw > 0 ? open / raw : 0, "x");
        bench::figure("store_runs_10k_ms", g_best["store"] * 1e3, "ms");
        bench::figure("tree_reread_10k_runs_ms", g_best["reread"] * 1e3, "ms");
        bench::figure("basket_add_2000_runs_ms", g_best["basket"] * 1e3, "ms");
        bench::figure("tree_filter_10k_runs_ms", g_best["filter"] * 1e3, "ms");
    });
    figures.after("BM_RunsTable", 1, [] {
        const double open = g_best["table_open"], store = g_best["store"];
        std::printf(
            "runs table of %d runs: read and shown %.0f ms (the store's runs alone %.0f ms), sorted by "
            "a param %.0f ms, searched %.0f ms, %.0f MB resident\n",
            kRuns, open * 1e3, store * 1e3, g_best["table_sort"] * 1e3, g_best["table_search"] * 1e3,
            g_best["table_rss_mb"]);
        bench::figure("runs_table_open_10k_runs_ms", open * 1e3, "ms");
        bench::figure("runs_table_open_vs_store_runs", store > 0 ? open / store : 0, "x");
        bench::figure("runs_table_sort_10k_runs_ms", g_best["table_sort"] * 1e3, "ms");
        bench::figure("runs_table_search_10k_runs_ms", g_best["table_search"] * 1e3, "ms");
        bench::figure("runs_table_10k_runs_rss_mb", g_best["table_rss_mb"], "MB");
    });
    figures.after("BM_ChartOpenCold", 1, [] {
        std::printf("chart of %d runs x %d samples the first time (envelopes made and kept): %.0f ms\n",
                    kChartRuns, g_chartPoints, g_best["cold"] * 1e3);
        bench::figure("chart_open_500_runs_cold_ms", g_best["cold"] * 1e3, "ms");
    });
    figures.after("BM_ChartOpen", 1, [] {
        std::printf("chart of %d runs x %d samples from stored envelopes: %.0f ms; zoom frame p95 %.1f ms\n",
                    kChartRuns, g_chartPoints, g_best["warm"] * 1e3, g_best["frame_p95"]);
        bench::figure("chart_open_500_runs_ms", g_best["warm"] * 1e3, "ms");
        bench::figure("zoom_frame_500_runs_ms_p95", g_best["frame_p95"], "ms");
    });
    figures.after("BM_SummaryCold", 1,
                  [] { bench::figure("summary_500_runs_cold_ms", g_best["summary_cold"] * 1e3, "ms"); });
    figures.after("BM_Summary", 1, [] {
        std::printf("summary table of the %d runs: %.1f ms from kept statistics, %.0f ms the first time "
                    "(every row read, the statistics kept)\n",
                    kChartRuns, g_best["summary"] * 1e3, g_best["summary_cold"] * 1e3);
        bench::figure("summary_500_runs_ms", g_best["summary"] * 1e3, "ms");
    });
    figures.after("BM_ChartRows", 1, [] {
        const double warm = g_best["warm"], rows = g_best["rows"], summary = g_best["summary"];
        std::printf("every row of the %d runs read: %.0f ms\n", kChartRuns, rows * 1e3);
        bench::figure("chart_rows_500_runs_ms", rows * 1e3, "ms");
        bench::figure("chart_open_500_runs_vs_rows", warm > 0 ? rows / warm : 0, "x");
        bench::figure("summary_500_runs_vs_rows", summary > 0 ? rows / summary : 0, "x");
    });
    figures.after("BM_PgChartOpen", 1, [] {
        if (g_server)
            bench::figure("pg_chart_open_500_runs_ms", g_best["pg_warm"] * 1e3, "ms");
    });
    figures.after("BM_PgSummary", 1, [] {
        if (g_server)
            bench::figure("pg_summary_500_runs_ms", g_best["pg_summary"] * 1e3, "ms");
    });
    figures.after("BM_PgChartRows", 1, [] {
        if (!g_server)
            return;
        const double pgWarm = g_best["pg_warm"], pgRows = g_best["pg_rows"];
        std::printf(
            "on PostgreSQL: chart %.0f ms from stored envelopes, every row %.0f ms; summary %.1f ms\n",
            pgWarm * 1e3, pgRows * 1e3, g_best["pg_summary"] * 1e3);
        bench::figure("pg_chart_rows_500_runs_ms", pgRows * 1e3, "ms");
        bench::figure("pg_chart_open_500_runs_vs_rows", pgWarm > 0 ? pgRows / pgWarm : 0, "x");
    });
    return figures.run(argc, argv);
}
