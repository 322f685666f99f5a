// SPDX-License-Identifier: MIT
#pragma once
// The table of listeners radt knows: every kind in one place, so that `-l`, the
// usage text, the launch dialog and the sampling itself agree. Above the listeners it makes.

#include "collector/listeners/Listener.h"

#include <memory>
#include <string>
#include <vector>

namespace radt {

const std::vector<ListenerSpec>& listenerSpecs();
/// "From /proc: top, ps, ...; GPU tools: smi (nvidia-smi), ...; experiment CSV: nsys, ...".
std::string listenerUsage();

/// The names `-l` accepts, in the order --list-listeners shows them.
const std::vector<std::string>& knownListeners();
/// nsys/ncu wrap the workload's command (experiment CSV workloads); they sample nothing themselves.
bool isWorkloadListener(const std::string& name);
/// Splits "smi+top+proc"; throws std::invalid_argument naming an unknown listener.
std::vector<std::string> parseListeners(const std::string& text);

struct ListenerAvailability {
    std::string name;
    bool available = false;
    std::string detail; ///< what it records, or why it cannot run here
};
/// What each listener needs and whether this machine has it (tools on PATH, /proc readable).
std::vector<ListenerAvailability> listenerAvailability(const std::string& procRoot = "/proc");

/// The listeners for `names`: the /proc ones merged into one sampler, one per GPU tool. Workload
/// listeners are not included.
std::vector<std::unique_ptr<Listener>> makeListeners(const std::vector<std::string>& names);

} // namespace radt
