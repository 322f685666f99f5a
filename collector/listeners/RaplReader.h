// SPDX-License-Identifier: MIT
#pragma once
// CPU energy from Linux's powercap RAPL interface: /sys/class/powercap/intel-rapl:*
// (the same driver serves AMD since family 17h). Package and DRAM domains only: core, uncore and
// psys overlap the package and would count energy twice. Records `RAPL - <domain> Power W`.

#include "core/base/Model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace radt {

struct RaplDomain {
    std::string dir;         ///< .../intel-rapl:0 or .../intel-rapl:0:1
    std::string name;        ///< as the metric names it: "package-0", "dram", "package-1 dram"
    uint64_t maxRangeUj = 0; ///< where energy_uj wraps to 0
};

/// The package and DRAM domains under `sysRoot` (normally /sys), in a fixed order.
std::vector<RaplDomain> findRaplDomains(const std::string& sysRoot);

/// Why RAPL cannot be read here ("" when it can): no powercap, or energy_uj unreadable (root
/// only since Linux 5.10, against a power side channel).
std::string raplProblem(const std::string& sysRoot);

/// Turns energy counter readings into power, one point per domain per sample after the first.
class RaplReader {
public:
    explicit RaplReader(const std::string& sysRoot);
    /// Appends `RAPL - <domain> Power W` for each domain read twice so far.
    void sample(int64_t nowMs, std::vector<MetricPoint>& out);
    bool empty() const { return m_domains.empty(); }

private:
    std::vector<RaplDomain> m_domains;
    std::vector<std::optional<uint64_t>> m_last;
    int64_t m_lastMs = 0;
};

/// Energy in µJ between two readings of a counter that wraps at `maxRangeUj`.
uint64_t raplDelta(uint64_t before, uint64_t after, uint64_t maxRangeUj);

} // namespace radt
