// A store of a cluster's runs in the explorer (issue 26 §2): 10,000 finished runs (10 experiments,
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
// The store is generated once per build (bench-cache in the build tree, keyed by the generator's
// version). Figures: tree_open_10k_runs_ms, tree_open_vs_raw_select (x), store_runs_10k_ms,
// tree_reread_10k_runs_ms,
// basket_add_2000_runs_ms, tree_filter_10k_runs_ms.

#include "BenchSupport.h"
#include "ChartLoader.h"
#include "MainWindow.h"
#include "RunTreePane.h"
#include "StoreSession.h"
#include "models/BasketModel.h"
#include "models/RunFilterProxy.h"
#include "models/RunTreeModel.h"

#include <QApplication>
#include <QLineEdit>

#include <benchmark/benchmark.h>

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
    const std::string dir = std::string(RADT_BINARY_DIR) + "/bench-cache";
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
        if (window.parts().tree->model()->runCount() != kRuns)
            state.SkipWithError("the tree does not hold every run");

        auto timed = std::chrono::steady_clock::now();
        window.reload();
        window.waitForLoads();
        bench::keepBest(g_best, "reread", bench::since(timed));

        QStringList uuids;
        for (const Run& r : window.parts().tree->model()->runs())
            if (uuids.size() < 2000)
                uuids << QString::fromStdString(r.uuid);
        timed = std::chrono::steady_clock::now();
        window.addRunsToBasket(uuids);
        bench::keepBest(g_best, "basket", bench::since(timed));
        if (window.parts().basket->runCount() != 2000)
            state.SkipWithError("the basket does not hold the 2,000 runs");
        window.waitForLoads(); // the charts, keys and summary of those runs, before the next round

        auto* filter = window.findChild<QLineEdit*>(QStringLiteral("runFilter"));
        timed = std::chrono::steady_clock::now();
        filter->setText(QStringLiteral("0_B"));
        QApplication::processEvents();
        bench::keepBest(g_best, "filter", bench::since(timed));
        if (window.parts().tree->proxy()->rowCount() != kExperiments)
            state.SkipWithError("the filter hid an experiment");
    }
}

} // namespace

BENCHMARK(BM_RawSelect)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StoreRead)->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TreeOpen)->Iterations(3)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    const double open = g_best["open"], raw = g_best["raw"];
    std::printf("%d runs: store open and tree %.0f ms, of which the store's reads %.0f ms (bare SELECTs of "
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
    return 0;
}
