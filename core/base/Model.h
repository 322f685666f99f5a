// SPDX-License-Identifier: MIT
#pragma once
// Data model shared by every layer (resources/DESIGN.md §3). Plain structs, no Qt.

#include "core/base/LargeArrays.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace radt {

enum class RunStatus { Scheduled, Running, Finished, Failed, Killed };

/// MLflow's spelling of a status ("RUNNING", ...).
const char* toString(RunStatus status);
/// Parses MLflow's spelling; std::nullopt for anything else.
std::optional<RunStatus> runStatusFromString(const std::string& text);

struct Experiment {
    int64_t id = 0;
    std::string name;
    std::string artifactLocation;
    std::string lifecycleStage = "active";
    int64_t creationTime = 0;
};

struct Run {
    std::string uuid; ///< 32 lowercase hex chars
    std::string name;
    int64_t experimentId = 0;
    RunStatus status = RunStatus::Running;
    int64_t startTime = 0;          ///< ms since epoch
    std::optional<int64_t> endTime; ///< ms since epoch, unset while running
    std::string artifactUri;
    std::map<std::string, std::string> params;
    std::map<std::string, std::string> tags;
    /// MLflow's lifecycle_stage 'deleted': only what StoreCuration::deletedRuns() gives (to restore).
    bool deleted = false;

    /// A param's value or "" when absent.
    std::string param(const std::string& key) const;
    /// radT's fields, read from params.
    std::string workload() const { return param("workload"); }
    std::string letter() const { return param("letter"); }
    std::string model() const { return param("model"); }
    std::string data() const { return param("data"); }
    /// end - start, or now - start while the run has no end time.
    int64_t durationMs(int64_t nowMs) const;
};

/// One metric sample as written by a collector.
struct MetricPoint {
    std::string key;
    double value = 0;
    int64_t timestamp = 0; ///< ms since epoch
    int64_t step = 0;
};

/// A metric series as struct-of-arrays, sorted by time (resources/DESIGN.md §3). The arrays of
/// a long series live on huge pages (core/base/LargeArrays.h).
struct Series {
    LargeArray<int64_t> t;
    LargeArray<int64_t> step;
    LargeArray<double> v;

    size_t size() const { return t.size(); }
    bool empty() const { return t.empty(); }
    void reserve(size_t n) {
        t.reserve(n);
        step.reserve(n);
        v.reserve(n);
    }
    /// Once read: the arrays' capacity past their size given back to the kernel (a long series'
    /// last huge page is otherwise resident whole; core/base/LargeArrays.h).
    void releaseUnusedCapacity() noexcept {
        radt::releaseUnusedCapacity(t);
        radt::releaseUnusedCapacity(step);
        radt::releaseUnusedCapacity(v);
    }
    /// One more point at the end (the arrays grow by doubling, as push_back's do).
    void append(int64_t time, int64_t stepNumber, double value) {
        t.push_back(time);
        step.push_back(stepNumber);
        v.push_back(value);
    }
};

/// MLflow's tag for a run's notes (its UI shows and edits it as the run's description).
constexpr const char* kRunNoteTag = "mlflow.note.content";
/// The judgement radt records on a run it finished (core/report/RunJudgement): "normal for ...",
/// "outside: slower than its 6 earlier runs: 1.12x, ..." or "not judged: ...". The tree and the
/// runs table mark runs outside their history by it without judging every run again.
constexpr const char* kRunJudgementTag = "radt.judgement";
/// MLflow's tag for a run's name, kept equal to runs.name (MLflow's set_tag changes both).
constexpr const char* kRunNameTag = "mlflow.runName";

/// The latest value of one metric of one run (MLflow's latest_metrics row).
struct LatestMetric {
    double value = 0;
    int64_t timestamp = 0;
    int64_t step = 0;
};

/// Current wall clock in ms since the epoch.
int64_t nowMs();
/// The time stamped on what radt records (samples, a run's start and end): the wall clock when
/// this process first asked, carried on by a monotonic clock that counts suspend, so a clock step
/// during a recording never makes samples go back in time or overlap.
int64_t recordingClockMs();

} // namespace radt
