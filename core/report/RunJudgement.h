// SPDX-License-Identifier: MIT
#pragma once
// Is this run normal for its configuration? (resources/DESIGN.md, judging a run.) A finished run
// against the earlier finished runs of its configuration (ConfigurationInsight: the same params
// less bookkeeping and repeat params, the same number of runs per GPU): per figure, the new value,
// the history's mean and its 95 % prediction interval for one new observation
// (mean ± t(0.975, n-1) · sd · sqrt(1 + 1/n)), and a verdict. The environment the history ran in
// is compared with the run's and said when it differs. `radt report --judge`, `radt check`, the
// end of `radt RUN` and the explorer's run page all say what this computes.

#include "core/artifacts/RunEnvironment.h"
#include "core/store/Store.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace radt {

/// A figure a run is judged on: its JSON name, its words and its unit, and what a value above or
/// below the history is called.
struct JudgedFigure {
    const char* name;    ///< "duration_s"
    const char* brief;   ///< "duration": what `radt check --on` also accepts
    const char* label;   ///< "duration"
    const char* unit;    ///< "s"
    const char* above;   ///< "slower"
    const char* below;   ///< "faster"
    const char* missing; ///< why a run may lack it
};
/// duration_s, gpu_energy_j, energy_per_epoch_j, throughput_epochs_per_h.
extern const std::vector<JudgedFigure> kJudgedFigures;

struct JudgeOptions {
    std::vector<std::string> repeatParams{"seed"}; ///< params that tell repeats apart
    size_t minHistory = 3;                         ///< fewer earlier runs: said, not judged
    size_t maxHistory = 50;                        ///< the latest this many earlier runs count
    /// A value outside the interval but within this share of the history's mean is normal: a
    /// history of near-identical runs has an interval so narrow that 2 % would count (asv and
    /// conbench gate on a minimum change for the same reason).
    double minChange = 0.05;
    /// Where the runs' recorded environments are read; unset: environments are not compared.
    std::optional<ArtifactContext> environment;
};

/// The judgement of `run` as JSON: {"run_uuid", "run_name", "configuration" (its label),
/// "history": {"n", "runs", "needed"}, "judged", "why" (when not judged), "figures": [{"figure",
/// "label", "unit", "value", "n", "mean", "sd", "interval": [lo, hi], "ratio", "verdict" ("normal",
/// "above", "below" or "not judged"), "words", "why"}], "outside": [figure names], "min_change", "verdict"
/// ("normal", "outside" or "not judged"), "sentence", "environment": {"differs": [...]}}.
/// Throws std::invalid_argument for a run the store does not hold.
nlohmann::json judgeRun(Store& store, const Run& run, const JudgeOptions& options);

/// After radt recorded `run` to its end: the run judged (the environments compared where the
/// artifacts of the store at `storeUri` are), the judgement kept on it as kRunJudgementTag, and
/// its sentence returned ("slower than its 6 earlier runs: 1.12x, ..."). A judgement that fails is
/// said in the sentence ("not judged: ..."), never thrown: the run itself is recorded.
std::string judgeFinishedRun(Store& store, const Run& run, const std::string& storeUri);

/// The judgement for a terminal: the sentence, then a line per figure with the value, the
/// history's mean and interval in the figure's unit, and the environment that differs.
std::string judgementText(const nlohmann::json& judgement);

/// The figures of `judgement` outside their history among `on` (their JSON names; all when empty).
std::vector<std::string> figuresOutside(const nlohmann::json& judgement, const std::vector<std::string>& on);

/// The JSON names `radt check --on` accepts, with the short ones ("duration", "gpu_energy", ...);
/// throws std::invalid_argument naming an unknown one and listing the known.
std::vector<std::string> judgedFigureNames(const std::string& commaSeparated);

} // namespace radt
