// SPDX-License-Identifier: MIT
#pragma once
// Shared bits of the bench/ programs: a scratch directory, raw sqlite helpers, figure lines.

#include "core/StoreFactory.h"
#include "core/base/Model.h"
#include "core/store/Store.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace radt::bench {

/// A fresh, empty folder of this process (mkdtemp under $TMPDIR or /tmp), removed when the
/// program ends: two benchmark runs at once never share or wipe each other's files.
inline std::string scratchDir(const char* name) {
    struct Made {
        std::vector<std::string> dirs;
        ~Made() {
            std::error_code ec;
            for (const std::string& d : dirs)
                std::filesystem::remove_all(d, ec);
        }
    };
    static Made made;
    const char* base = std::getenv("TMPDIR");
    std::string pattern = (std::filesystem::path(base && *base ? base : "/tmp") /
                           (std::string("radt-bench-") + name + "-XXXXXX"))
                              .string();
    if (!::mkdtemp(pattern.data()))
        throw std::runtime_error("cannot make a scratch folder " + pattern);
    made.dirs.push_back(pattern);
    return pattern;
}

/// Where the big generated stores are kept from one run to the next (each under a name that
/// carries its size and its generator's version, so a changed generator makes a new one):
/// $RADT_BENCH_CACHE, or bench-cache in the build tree `binaryDir`. An empty folder there is a
/// fresh start.
inline std::string cacheDir(const char* binaryDir) {
    const char* dir = std::getenv("RADT_BENCH_CACHE");
    const std::string path = dir && *dir ? std::string(dir) : std::string(binaryDir) + "/bench-cache";
    std::filesystem::create_directories(path);
    return path;
}

/// Whether $name is set to a positive number (RADT_BENCH_FULL=1: the full-size variant).
inline bool envFlag(const char* name) {
    const char* value = std::getenv(name);
    return value && std::atoi(value) > 0;
}

/// A PostgreSQL database name of this process (the name plus the pid): benchmarks run at once on
/// one server never drop each other's database.
inline std::string scratchDatabase(const char* name) {
    return std::string(name) + "_" + std::to_string(::getpid());
}

inline void exec(sqlite3* db, const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : "?";
        sqlite3_free(error);
        throw std::runtime_error(std::string(sql) + ": " + message);
    }
}

/// `size` ingest samples over four radT keys, continuing the running sample counter `t`.
inline std::vector<MetricPoint> makeIngestBatch(int64_t& t, int size) {
    static const char* const keys[] = {"SMI - Power Draw", "SMI - GPU Util", "TOP - CPU Utilization",
                                       "PROC - RSS MB"};
    std::vector<MetricPoint> batch;
    batch.reserve(size);
    for (int i = 0; i < size; ++i, ++t)
        batch.push_back({keys[i % 4], 100.0 + (t % 977) * 0.25, 1700000000000 + t * 25, t / 4});
    return batch;
}

/// A store at `path` with `runs` runs of `points` samples of `key` each, 10 ms apart, as a chart
/// of large data sees them: a power trace with a slow swing, fine jitter, rare spikes and the odd
/// NaN. Returns the runs' uuids. The runs of a workload log side by side, so ingest goes chunk by
/// chunk across all of them in time order like a live collector; run after run would scatter every
/// insert over the (key, timestamp, ...) primary key the earlier runs already fill.
inline std::vector<std::string> makeChartStore(const std::string& path, int runs, int points,
                                               const char* key) {
    auto store = openStore("sqlite:///" + path, OpenMode::CreateIfMissing);
    std::vector<std::string> uuids;
    for (int r = 0; r < runs; ++r) {
        Run run = store->createRun(
            {0, "chart-" + std::to_string(r), 1700000000000, "bench", "bench", RunStatus::Finished});
        store->logParams(run.uuid, {{"workload", std::to_string(r + 1)}, {"letter", "0"}});
        uuids.push_back(run.uuid);
    }
    constexpr int kBatch = 20000;
    std::vector<MetricPoint> batch;
    batch.reserve(kBatch);
    for (int chunk = 0; chunk < points; chunk += kBatch) {
        for (int r = 0; r < runs; ++r) {
            for (int i = chunk; i < std::min(chunk + kBatch, points); ++i) {
                double value = 150.0 + 40.0 * std::sin(i * 2e-5 + r) + (i * 7919 % 101) * 0.05;
                if (i % 250000 == 12345)
                    value = 400.0;
                if (i % 100000 == 777)
                    value = std::nan("");
                // Step 0, as radt's hardware listeners log it (radT's convention).
                batch.push_back({key, value, 1700000000000 + int64_t(i) * 10 + r, 0});
            }
            store->logMetrics(uuids[size_t(r)], batch);
            batch.clear();
        }
    }
    return uuids;
}

/// The floor for any series reader: a bare prepared SELECT of one metric's rows, stepped through
/// in time order as a store would read them.
class RawSeriesReader {
public:
    explicit RawSeriesReader(const std::string& dbPath) {
        sqlite3_open_v2(dbPath.c_str(), &m_db, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_prepare_v2(
            m_db,
            "SELECT timestamp, step, value, is_nan FROM metrics WHERE run_uuid = ? AND \"key\" = ? "
            "ORDER BY timestamp, step",
            -1, &m_stmt, nullptr);
    }
    ~RawSeriesReader() {
        sqlite3_finalize(m_stmt);
        sqlite3_close(m_db);
    }
    /// Rows of (run, key); every column is touched so nothing is optimised away.
    int64_t read(const std::string& runUuid, const char* key) {
        sqlite3_bind_text(m_stmt, 1, runUuid.c_str(), -1, SQLITE_STATIC);
        sqlite3_bind_text(m_stmt, 2, key, -1, SQLITE_STATIC);
        int64_t n = 0;
        while (sqlite3_step(m_stmt) == SQLITE_ROW) {
            m_sumT += sqlite3_column_int64(m_stmt, 0) + sqlite3_column_int64(m_stmt, 1) +
                      sqlite3_column_int64(m_stmt, 3);
            m_sumV += sqlite3_column_double(m_stmt, 2);
            ++n;
        }
        sqlite3_reset(m_stmt);
        return n;
    }
    double checksum() const { return double(m_sumT) + m_sumV; }

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    int64_t m_sumT = 0;
    double m_sumV = 0;
};

/// This process's resident memory in bytes (/proc/self/statm), 0 where it cannot be read.
inline long residentBytes() {
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        std::fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

/// Seconds since `start`.
inline double since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The p-quantile (0..1) of `values`, nearest rank; 0 when there are none.
inline double percentile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[std::min(values.size() - 1, size_t(double(values.size()) * p))];
}

/// Keeps the best (minimum) of several measurements under a name: robust on a shared machine.
inline void keepBest(std::map<std::string, double>& best, const std::string& name, double value) {
    auto it = best.find(name);
    if (it == best.end() || value < it->second)
        best[name] = value;
}

/// Samples/s of `write` over `batches` fresh batches of `batchSize` per benchmark iteration, from
/// the best iteration: the least disturbed by other work on a shared machine. `t` numbers the
/// samples (distinct start values keep variants' rows apart).
template <typename State, typename Write>
double bestIngestRate(State& state, int batchSize, int batches, int64_t t, Write write) {
    double best = 1e9;
    for (auto _ : state) {
        std::vector<std::vector<MetricPoint>> fresh;
        for (int b = 0; b < batches; ++b)
            fresh.push_back(makeIngestBatch(t, batchSize));
        const auto start = std::chrono::steady_clock::now();
        for (const auto& batch : fresh)
            write(batch);
        best = std::min(best, since(start));
    }
    const double rate = double(batchSize) * batches / best;
    state.counters["samples_per_s"] = rate;
    return rate;
}

/// The baseline of the chart benchmarks: every run's `key` rows stepped through by a bare
/// prepared SELECT; the best iteration's seconds. Marks the state wrong on a wrong row count.
template <class State>
double bestRawSelect(State& state, const std::string& dbPath, const std::vector<std::string>& uuids,
                     const char* key, int64_t expectedRows) {
    RawSeriesReader reader(dbPath);
    double best = 1e9;
    for (auto _ : state) {
        int64_t n = 0;
        const auto start = std::chrono::steady_clock::now();
        for (const std::string& uuid : uuids)
            n += reader.read(uuid, key);
        best = std::min(best, since(start));
        if (n != expectedRows)
            state.SkipWithError("wrong point count");
    }
    if (reader.checksum() == -1.0) // keeps the reads from being optimised away
        std::printf(" ");
    return best;
}

/// The 20 DCGM metrics a simulated GPU node reports per GPU (bench_pg_scale, bench_pg_cluster).
inline const char* const kGpuNodeMetrics[20] = {"Power Usage",        "Total Energy Consumption",
                                                "PCIE TX Throughput", "PCIE RX Throughput",
                                                "GPU Utilization",    "Memory Copy Utilization",
                                                "GR Engine Active",   "SM Active",
                                                "SM Occupancy",       "Tensor Active",
                                                "DRAM Active",        "FP64 Active",
                                                "FP32 Active",        "FP16 Active",
                                                "PCIE TX Bytes",      "PCIE RX Bytes",
                                                "NVlink TX Bytes",    "NVlink RX Bytes",
                                                "Mem Used",           "Temperature"};

/// Prints the machine-readable headline line resources/DESIGN.md §11 asks for, at once: a run cut
/// short keeps every figure printed before it.
inline void figure(const char* name, double value, const char* unit) {
    std::cout.flush(); // the benchmark library's table goes through std::cout
    std::printf("figure %s %.4g %s\n", name, value, unit);
    std::fflush(stdout);
}

/// The library's console table, and each figure printed as soon as its parts are measured: a
/// group of figures (and its prose line) prints when the benchmark that measures its last part
/// has reported for the last time, not when the whole program ends. A benchmark registered more
/// than once (alternated rounds) says how many times; a group a filter left incomplete prints at
/// the end, from what was measured, if any of its benchmarks ran.
///
///     bench::Figures figures;
///     figures.after("BM_Report", 2, [] { bench::figure("report_ms", ...); });
///     return figures.run(argc, argv, [] { /* made after the flags are read, before the runs */ });
class Figures : public benchmark::ConsoleReporter {
public:
    /// `print` once `benchmark` (its function's name) has reported `runs` times.
    void after(const char* benchmark, int runs, std::function<void()> print) {
        m_groups.push_back({benchmark, runs, std::move(print), false});
    }

    /// Parses the flags, runs `prepare` (stores and inputs) and the benchmarks, prints what is left.
    int run(int argc, char** argv, const std::function<void()>& prepare = {}) {
        benchmark::Initialize(&argc, argv);
        // As the library's own console reporter: colour only on a terminal.
        output_options_ = ::isatty(STDOUT_FILENO) ? OO_Color : OO_None;
        if (prepare)
            prepare();
        benchmark::RunSpecifiedBenchmarks(this);
        benchmark::Shutdown();
        for (Group& group : m_groups)
            if (!group.printed && m_reported[group.benchmark] > 0)
                print(group);
        return 0;
    }

    void ReportRuns(const std::vector<Run>& reports) override {
        benchmark::ConsoleReporter::ReportRuns(reports);
        std::cout.flush();
        if (reports.empty())
            return;
        const int reported = ++m_reported[reports.front().run_name.function_name];
        for (Group& group : m_groups)
            if (!group.printed && group.benchmark == reports.front().run_name.function_name &&
                reported >= group.runs)
                print(group);
    }

private:
    struct Group {
        std::string benchmark;
        int runs;
        std::function<void()> print;
        bool printed;
    };
    static void print(Group& group) {
        group.printed = true;
        group.print();
        std::fflush(stdout);
    }
    std::vector<Group> m_groups;
    std::map<std::string, int> m_reported;
};

} // namespace radt::bench
