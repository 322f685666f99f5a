// SPDX-License-Identifier: MIT
#pragma once
// What a run ran on, recorded next to it (as radT does): package lists and the GPU report as
// artifacts, host facts as tags.

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace radt {

/// radt.host.* tags: hostname, CPU model, logical cores, memory GiB, kernel.
std::vector<std::pair<std::string, std::string>> hostTags(const std::string& procRoot = "/proc");

/// Writes pip.txt (`python3 -m pip freeze`), conda.txt (`conda list`) and smi.txt
/// (`nvidia-smi -q`) into `artifactDir` for each tool present; returns the files written.
/// Each command gets `timeoutMs`; a missing or failing tool is skipped silently, as in radT, but
/// one that hangs (a wedged driver under `nvidia-smi -q`) is killed and named through `message`.
std::vector<std::string> captureEnvironment(const std::string& artifactDir, int timeoutMs = 10000,
                                            const std::function<void(const std::string&)>& message = {});

/// The capture's per-command timeout: RADT_ENV_CAPTURE_TIMEOUT (seconds, 1 to 600) when set,
/// else 10 s. A value out of range or not a number is named through `message` and ignored.
int environmentCaptureTimeoutMs(const std::function<void(const std::string&)>& message = {});

/// Lowers the calling thread's CPU priority (nice 10): the capture runs beside the workload and
/// must not slow it; the tools it starts from this thread inherit the priority.
void lowerThreadPriority();

} // namespace radt
