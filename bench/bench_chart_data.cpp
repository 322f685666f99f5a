// SPDX-License-Identifier: MIT
// What a chart of 8 runs x 1M points costs before its first frame (resources/DESIGN.md §8): read each series
// with SqliteStore::series, build its SeriesPyramid and reduce the whole range to 1200 columns,
// next to a raw sqlite3 SELECT stepping loop over the same 8M rows (the floor for any reader).
// Also the pyramid alone: its build per 1M points, and a query over the whole range and a 1% zoom.

#include "BenchSupport.h"
#include "core/StoreFactory.h"
#include "core/base/SeriesMath.h"
#include "core/store/Store.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace radt;

namespace {

constexpr int kRuns = 8;
constexpr int kPoints = 1000000;
constexpr int kColumns = 1200;
const char* const kKey = "SMI - Power Draw";
std::string g_path;
std::vector<std::string> g_uuids;
std::map<std::string, double> g_seconds; // best (minimum) seconds per variant: robust on a shared machine

using bench::since;

void keepBest(const std::string& name, double value) {
    bench::keepBest(g_seconds, name, value);
}

void prepareStore() {
    g_path = bench::scratchDir("chart-data") + "/store.db";
    g_uuids = bench::makeChartStore(g_path, kRuns, kPoints, kKey);
}

// Variant A: everything a chart needs to show its first frame.
void BM_ChartFirstFrame(benchmark::State& state) {
    auto store = openStore("sqlite:///" + g_path, OpenMode::OpenExisting);
    double best = 1e9;
    for (auto _ : state) {
        std::vector<SeriesPyramid> pyramids; // a chart keeps them for zooming: freed off the clock
        pyramids.reserve(kRuns);
        size_t drawn = 0, points = 0;
        const auto start = std::chrono::steady_clock::now();
        for (const std::string& uuid : g_uuids) {
            Series s = store->series(uuid, kKey);
            points += s.size();
            pyramids.emplace_back(std::move(s.t), std::move(s.v));
            std::vector<int64_t> t;
            std::vector<double> v;
            pyramids.back().query(pyramids.back().firstTime(), pyramids.back().lastTime(), kColumns, t, v);
            drawn += t.size();
            benchmark::DoNotOptimize(v.data());
        }
        best = std::min(best, since(start));
        if (points != size_t(kRuns) * kPoints || drawn == 0 || drawn > size_t(kRuns) * 2 * kColumns)
            state.SkipWithError("wrong point count");
    }
    keepBest("chart", best);
}

// Baseline B: the same 8M rows stepped through by a bare prepared statement.
void BM_RawSelect(benchmark::State& state) {
    keepBest("raw", bench::bestRawSelect(state, g_path, g_uuids, kKey, int64_t(kRuns) * kPoints));
}

Series& firstSeries() {
    static Series s = openStore("sqlite:///" + g_path, OpenMode::OpenExisting)->series(g_uuids.front(), kKey);
    return s;
}

void BM_PyramidBuild(benchmark::State& state) {
    const Series& s = firstSeries();
    double best = 1e9;
    for (auto _ : state) {
        std::vector<int64_t> t = s.t; // the copies are the caller's, made off the clock
        std::vector<double> v = s.v;
        const auto start = std::chrono::steady_clock::now();
        SeriesPyramid pyramid(std::move(t), std::move(v));
        best = std::min(best, since(start));
        benchmark::DoNotOptimize(pyramid.size());
    }
    keepBest("build", best * 1e9 / double(s.size())); // ms per 1M points
}

// Arg: the share of the data in view, in per mille (1000 = whole range, 10 = a 1% zoom).
void BM_PyramidQuery(benchmark::State& state) {
    static const SeriesPyramid pyramid(firstSeries().t, firstSeries().v);
    const int64_t span = pyramid.lastTime() - pyramid.firstTime();
    const int64_t from = pyramid.firstTime() + (state.range(0) == 1000 ? 0 : span / 2);
    const int64_t to = from + span * state.range(0) / 1000;
    std::vector<int64_t> t;
    std::vector<double> v;
    double best = 1e9;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        pyramid.query(from, to, kColumns, t, v);
        best = std::min(best, since(start));
        benchmark::DoNotOptimize(v.data());
    }
    if (t.empty() || t.size() > 2 * size_t(kColumns))
        state.SkipWithError("wrong point count");
    keepBest(state.range(0) == 1000 ? "query_whole" : "query_zoom", best);
}

} // namespace

// Alternated rounds, best of all: drift on a shared machine hits both sides alike.
BENCHMARK(BM_RawSelect)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChartFirstFrame)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawSelect)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChartFirstFrame)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PyramidBuild)->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PyramidQuery)->Arg(1000)->Arg(10)->Iterations(200)->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv) {
    bench::Figures figures;
    figures.after("BM_ChartFirstFrame", 2, [] {
        const double chart = g_seconds["chart"], raw = g_seconds["raw"];
        std::printf(
            "8 runs x 1M points: series + pyramid + %d-column query %.1f ms, raw SELECT loop %.1f ms\n",
            kColumns, chart * 1e3, raw * 1e3);
        bench::figure("chart_data_ratio", raw > 0 ? chart / raw : 0, "x");
        bench::figure("chart_data_ms", chart * 1e3, "ms");
    });
    figures.after("BM_PyramidBuild", 1,
                  [] { bench::figure("pyramid_build_ms_per_1m", g_seconds["build"], "ms"); });
    figures.after("BM_PyramidQuery", 2, [] {
        std::printf("pyramid: %d-column query %.1f us whole range, %.1f us at 1%% zoom\n", kColumns,
                    g_seconds["query_whole"] * 1e6, g_seconds["query_zoom"] * 1e6);
        bench::figure("pyramid_query_us", g_seconds["query_whole"] * 1e6, "us");
    });
    return figures.run(argc, argv, prepareStore);
}
