// SPDX-License-Identifier: MIT
#pragma once
// What a run ran on, read back from what radt recorded (collector/EnvironmentCapture): its
// pip.txt (`pip freeze`), conda.txt (`conda list`) and smi.txt (`nvidia-smi -q`) artifacts and its
// radt.host.* and radt.version tags; and the environments of two or more runs side by side, the
// items that differ marked. Only those three files are opened, never the artifact folder listed
// (a folder on a network share lists slowly). A file that is missing, not text or out of reach is
// said per run, never read as an empty list. resources/DESIGN.md §4 (artifacts).

#include "core/artifacts/ArtifactLocation.h"
#include "core/base/Model.h"

#include <map>
#include <string>
#include <vector>

namespace radt {

/// The tag radt records its own version in (beside the radt.host.* tags).
inline constexpr const char* kRadtVersionTag = "radt.version";

/// Packages by name, each with its version as the file gives it, and the lines not understood.
struct PackageList {
    std::map<std::string, std::string> packages; ///< normalised name (PEP 503) -> version
    std::vector<std::string> problems;           ///< "line 7: 'numpy==' has no version", ...
};

/// `pip freeze`: name==version (=== too), `name @ URL`, `-e VCS+URL#egg=name`, `-e PATH` after
/// pip's "# Editable install ... (name==version)" comment; comments and blank lines skipped; CRLF
/// taken; a name listed twice with two versions keeps both ("1.0 | 2.0").
PackageList parsePipFreeze(const std::string& text);

/// `conda list`: "name version build [channel]" rows ('#' lines are its header); the version
/// with its build, a pypi row's channel said ("2.31.0 pypi").
PackageList parseCondaList(const std::string& text);

/// What `nvidia-smi -q` says of the driver, CUDA and the GPUs.
struct SmiFacts {
    std::string driver;            ///< "" when no "Driver Version" line
    std::string cuda;              ///< "" when no "CUDA Version" line
    std::vector<std::string> gpus; ///< each GPU's "Product Name", in order
};
SmiFacts parseNvidiaSmiQuery(const std::string& text);

/// "NVIDIA H200", "8 x NVIDIA H100 80GB HBM3", "2 x NVIDIA A100, NVIDIA T4"; "" for none.
std::string describeGpus(const std::vector<std::string>& gpus);

/// One run's environment: item -> value ("driver" -> "580.159.04", "pip: numpy" -> "1.26.4").
struct RunEnvironment {
    std::map<std::string, std::string> items;
    /// Each environment file's state: "" when read, else why not ("not recorded", "not text",
    /// "unreadable: ...", "artifacts unreachable: ...").
    std::map<std::string, std::string> files;
    std::vector<std::string> problems; ///< lines of the files not understood, "pip.txt line 3: ..."
};

/// Reads `run`'s environment: its tags, and the three files where its artifact_uri points.
RunEnvironment readRunEnvironment(const Run& run, const ArtifactContext& context);

/// What the tags and the files' texts give: a file in `whyNotRead` is said with that reason, one
/// in neither map is "not recorded".
RunEnvironment runEnvironmentOf(const Run& run, const std::map<std::string, std::string>& fileTexts,
                                const std::map<std::string, std::string>& whyNotRead = {});

/// The files readRunEnvironment opens, in order.
const std::vector<std::string>& environmentFileNames();

/// One item across runs.
struct EnvironmentRow {
    std::string item;                ///< "driver", "pip: numpy", ..., "environment files"
    std::vector<std::string> values; ///< one per run
    bool differs = false;            ///< the runs that recorded it disagree (a file not read counts for none)
};

/// The rows of `runs`' environments: the recorded files, radt version, host facts, driver, CUDA,
/// GPU, then pip's and conda's packages by name. A package one run lacks is "(absent)" there; an
/// item of a file a run has not (or could not be read) is "(no pip.txt)" and left out of differs.
std::vector<EnvironmentRow> diffEnvironments(const std::vector<RunEnvironment>& runs);

/// The rows that differ.
std::vector<EnvironmentRow> differingRows(const std::vector<EnvironmentRow>& rows);

} // namespace radt
