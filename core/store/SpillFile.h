// SPDX-License-Identifier: MIT
#pragma once
// Samples and run endings a collector could not store, kept on disk beside the run's artifacts
// until a store accepts them (nothing lost). The collector's writer appends points to
// the spill file while the store refuses them; when it cannot close the run either, it leaves a
// pending-close file. The next radt or radt-explorer that opens the store (RunReconciler) writes
// both and removes them.

#include "core/store/Store.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace radt {

/// Beside a run's artifacts: its unwritten samples, and the ending its collector could not write.
inline constexpr const char* kSpillFileName = "unwritten-samples.tsv";
inline constexpr const char* kPendingCloseFileName = "radt-pending-close.json";
/// Tags that record a loss on the run: samples that never reached the store, and where they wait.
inline constexpr const char* kUnwrittenSamplesTag = "radt.unwritten_samples";
inline constexpr const char* kSpillFileTag = "radt.spill_file";

/// Appends one line per point (run, timestamp, step, value, key; tab-separated). True when every
/// byte reached the file (a full disk makes it false).
bool appendSpillPoints(std::FILE* file, const std::string& runUuid, const std::vector<MetricPoint>& points);

/// One spill line back; false for a line torn by a crash mid-write or not of this format.
bool parseSpillLine(const std::string& line, std::string& runUuid, MetricPoint& point);

/// Writes every point of a spill file into `store` (a transaction per run and 10k points) and
/// returns how many; lines that do not parse are skipped. Throws StoreError when the store
/// refuses, leaving the file in place to try again.
size_t importSpillFile(Store& store, const std::string& path);

/// What a collector could not write when it closed a run.
struct PendingClose {
    RunStatus status = RunStatus::Failed;
    int64_t endTime = 0;
    std::vector<std::pair<std::string, std::string>> tags;
};

/// Written atomically into `dir`; throws std::runtime_error when it cannot be.
void writePendingClose(const std::string& dir, const PendingClose& close);
/// The pending close in `dir`, if there is a readable one.
bool readPendingClose(const std::string& dir, PendingClose& close);

} // namespace radt
