// SPDX-License-Identifier: MIT
#pragma once
// A listener samples one source (resources/DESIGN.md §5) for one run and publishes points through its
// context. /proc listeners share one sampling thread; GPU tools are started once per run and streamed.

#include "core/base/Model.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace radt {

struct ListenerContext {
    std::string runUuid;
    int rootPid = -1;      ///< the workload's process
    std::vector<int> gpus; ///< from --devices
    int intervalMs = 1000;
    /// Thread-safe. Not "emit": Qt defines that as a macro, and the explorer includes this header.
    std::function<void(std::vector<MetricPoint>&& points)> publish;
    std::function<void(const std::string& line)> message; ///< one-line notices for stderr
};

class Listener {
public:
    virtual ~Listener() = default;
    virtual std::string name() const = 0;
    /// Starts sampling. False, after one message naming the listener and why, when it cannot run
    /// here; the run then goes on without it.
    virtual bool start(const ListenerContext& context) = 0;
    /// Stops sampling and releases what start() created. Idempotent.
    virtual void stop() = 0;
    /// One line for the end of the run ("smi: 120 rows, 2 lines skipped"); empty when nothing to say.
    virtual std::string summary() const { return {}; }
};

struct ProcSamplerOptions;

/// One listener: its name, where it reads, what it records and how it is made.
/// `-l`, --list-listeners, the usage text, the launch dialog and makeListeners() all read this
/// table; the keys it writes are its row in core's listenerKeys().
struct ListenerSpec {
    enum class Source { Proc, Tool, Workload };
    const char* name;
    Source source;
    const char* needs;   ///< Proc: the file under /proc it reads; Tool and Workload: the executable
    const char* records; ///< what it records, for people
    bool ProcSamplerOptions::*procSwitch = nullptr;    ///< Proc: the shared sampler's switch for it
    std::unique_ptr<Listener> (*makeTool)() = nullptr; ///< Tool: a listener of its own
    std::string (*problem)() = nullptr; ///< why it cannot run here ("" when it can), beyond `needs`
};

} // namespace radt
