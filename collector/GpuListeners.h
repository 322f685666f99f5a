#pragma once
// Listeners that stream a GPU tool's output (resources/DESIGN.md §5): nvidia-smi (--query-gpu and
// dmon), dcgmi dmon, tegrastats.
// Each tool is started once per run and read line by line; a missing tool is reported once and the run goes
// on without it.

#include "Listener.h"

#include <memory>

namespace radt {

std::unique_ptr<Listener> makeSmiListener();
std::unique_ptr<Listener> makeSmiDmonListener();
std::unique_ptr<Listener> makeDcgmiListener();
std::unique_ptr<Listener> makeTegrastatsListener();

} // namespace radt
