// SPDX-License-Identifier: MIT
#pragma once
// Energy of a run (resources/DESIGN.md §12): from a cumulative energy counter when the run
// has one (KeyRole::GpuEnergyCounter: dcgmi's Total Energy Consumption, mJ), else the trapezoidal
// integral of power (W). Intervals
// longer than 5 sampling intervals are not bridged, and how much of the run is covered is said.

#include "core/base/Model.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace radt::insight {

// The energy counter and the power readings are the listeners' keys of those roles
// (core/base/MetricKeys: KeyRole::GpuEnergyCounter, KeyRole::GpuPower), in their order of preference.
inline constexpr const char* kRaplPrefix = "RAPL - ";

/// Energy over a time window and how much of it the samples covered.
struct EnergyIntegral {
    double joules = 0;
    int64_t coveredMs = 0;
};

/// An energy counter's readings with its glitches left out: a reading that drops below
/// the one before while the reading after it continues where the counter was going (a 0 or a dip:
/// the rate across it is the counter's usual one), a first reading far below the rest (a rate more
/// than 50 times the usual one to the second), and a reading after the last that drops. A drop
/// that the readings after it continue from at the usual rate is a reset and stays. A step still
/// rising at more than 50 times the usual rate (two bad readings in a row) is counted as a glitch
/// and left uncounted by energyInWindows.
struct CleanedCounter {
    Series series;
    size_t glitches = 0;  ///< readings left out, and steps at over 50 times the usual rate
    double usualRate = 0; ///< the median rate of the counter's rising steps, mJ per ms
};
CleanedCounter cleanCounter(const Series& millijoules);

/// Increments of an energy counter in mJ within [fromMs, toMs], in J, its glitches left out
/// (cleanCounter). A counter that goes down was reset (driver reload, wrap): that interval's
/// energy is unknown and not counted. A counter that does not move adds nothing. An interval cut
/// by the window counts in proportion.
EnergyIntegral counterEnergy(const Series& millijoules, int64_t fromMs, int64_t toMs);

/// The trapezoidal integral of power (W) within [fromMs, toMs], in J; a cut interval is
/// interpolated at the window's edge. Negative readings (a sensor fault) are left out.
EnergyIntegral powerEnergy(const Series& watts, int64_t fromMs, int64_t toMs);

/// The same for many windows, sorted and not overlapping, in one pass over the series (per-epoch
/// energy of a long run would otherwise rescan it once per epoch).
std::vector<EnergyIntegral> energyInWindows(const Series& raw, bool isCounter,
                                            const std::vector<std::pair<int64_t, int64_t>>& windows);

/// Above this, counter and integrated power disagree enough to say so (energy_check_flag).
inline constexpr double kEnergyCheckFlagPct = 2.0;
/// Above this, the counter is not believed: integrated power is used, and the report says why.
inline constexpr double kCounterReplacedPct = 25.0;

struct DeviceEnergy {
    std::string device; ///< "" for the first GPU, else the key's suffix (" - GPU 1")
    double joules = 0;
    std::string source; ///< "counter" or "power"
    double coverage = 0;
    /// Both figures where the device has a counter and a power series covering the window.
    std::optional<double> counterJoules, powerJoules;
};

struct EnergyEstimate {
    std::optional<double> joules; ///< unset when the run has no usable energy or power series
    std::string source;           ///< "counter", "power", "mixed" (per device), "" without data
    double coverage = 0;          ///< the least covered device's share of [from, to]
    std::vector<DeviceEnergy> devices;
    /// What a reader of the figure must know, one sentence each: counter glitches left out, a
    /// counter replaced by power, negative power readings, a clock that went back.
    std::vector<std::string> notes;
    /// Sums over the devices with both a counter and power: the energy cross-check.
    std::optional<double> checkCounterJoules, checkPowerJoules;
};

/// The run's GPU energy in [fromMs, toMs], per device and in total. `series(key)` reads a series.
EnergyEstimate gpuEnergy(const std::vector<std::string>& keys,
                         const std::function<Series(const std::string&)>& series, int64_t fromMs,
                         int64_t toMs);

/// GPU energy in each of `windows` (sorted, not overlapping), as gpuEnergy() gives it for one.
std::vector<std::optional<double>>
gpuEnergyInWindows(const std::vector<std::string>& keys,
                   const std::function<Series(const std::string&)>& series,
                   const std::vector<std::pair<int64_t, int64_t>>& windows);

/// CPU energy from the rapl listener's power series (every "RAPL - ..." key), in J; unset without.
std::optional<double> cpuEnergy(const std::vector<std::string>& keys,
                                const std::function<Series(const std::string&)>& series, int64_t fromMs,
                                int64_t toMs);

/// Grams of CO2e for `joules` at a grid intensity (g/kWh) and a PUE.
double co2eGrams(double joules, double gridIntensityGPerKwh, double pue);

} // namespace radt::insight
