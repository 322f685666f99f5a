// SPDX-License-Identifier: MIT
#pragma once
// Listeners that stream a GPU tool's output (resources/DESIGN.md §5): nvidia-smi (--query-gpu and
// dmon), dcgmi dmon, tegrastats.
// Each tool is started once per run and read line by line; a missing tool is reported once and the run goes
// on without it.

#include "collector/listeners/Listener.h"

#include <vector>

namespace radt {

/// The GPU tools' rows of listenerSpecs() (Listener.h), each beside its listener's class: a new
/// tool adds its parser (GpuParsers), its class and row here, and its key prefix (core/base/MetricKeys).
const std::vector<ListenerSpec>& gpuListenerSpecs();

} // namespace radt
