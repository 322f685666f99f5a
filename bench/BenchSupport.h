#pragma once
// Shared bits of the bench/ programs: a scratch directory, raw sqlite helpers, figure lines.

#include "Model.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace radt::bench {

inline std::string scratchDir(const char* name) {
    const char* base = std::getenv("TMPDIR");
    const std::filesystem::path dir =
        std::filesystem::path(base && *base ? base : "/tmp") / (std::string("radt-bench-") + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
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
    static const char* const keys[] = {"SMI - Power Draw", "SMI - GPU Util", "TOP - CPU Utilization", "PROC - RSS MB"};
    std::vector<MetricPoint> batch;
    batch.reserve(size);
    for (int i = 0; i < size; ++i, ++t)
        batch.push_back({keys[i % 4], 100.0 + (t % 977) * 0.25, 1700000000000 + t * 25, t / 4});
    return batch;
}

/// Prints the machine-readable headline line DESIGN §11 asks for.
inline void figure(const char* name, double value, const char* unit) {
    std::printf("figure %s %.4g %s\n", name, value, unit);
}

} // namespace radt::bench
