// SPDX-License-Identifier: MIT
#pragma once
// The unit of each metric key a listener writes (resources/DESIGN.md §5), and the range its values
// can physically take: a power or a memory size is never negative, a utilisation in percent never
// leaves 0-100, a ratio 0-1. Views say the unit on axes, readings and headers, and keep a band of a
// mean within the range. A script's own metric ("loss") has no entry: no unit is guessed.

#include <limits>
#include <optional>
#include <string>

namespace radt {

struct MetricUnit {
    /// "W", "%", "MiB", "MB", "GB", "°C", "MHz", "mJ", "mW", "B/s", "KB/s", "MB/s", "1/s"; "" for a
    /// ratio (its range says 0-1), a count or a state.
    std::string symbol;
    double low = -std::numeric_limits<double>::infinity(); ///< the least value it can take
    double high = std::numeric_limits<double>::infinity(); ///< the greatest
    /// What an axis title adds after the key: "W", "%", "0–1" for a ratio; "" for none.
    std::string axisLabel() const;
    /// Whether `value` lies outside [low, high].
    bool outside(double value) const { return value < low || value > high; }
};

/// The unit of `key` (a per-device key such as "DCGMI - Power Usage GPU 1" as its key); nullopt
/// for a key no listener writes.
std::optional<MetricUnit> unitOfKey(const std::string& key);

/// "DCGMI - Power Usage (W)": the key with its unit, or the key alone when it has none.
std::string keyWithUnit(const std::string& key);

} // namespace radt
