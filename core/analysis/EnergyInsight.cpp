// SPDX-License-Identifier: MIT
#include "core/analysis/EnergyInsight.h"

#include "core/base/InsightSeries.h"
#include "core/base/MetricKeys.h"
#include "core/base/SeriesCompaction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace radt::insight {

namespace {

double interpolate(int64_t t0, double v0, int64_t t1, double v1, int64_t t) {
    return t1 == t0 ? v0 : v0 + (v1 - v0) * double(t - t0) / double(t1 - t0);
}

/// The counter's usual rate (mJ per ms, i.e. W): the median over its continuous, non-falling steps.
double usualRate(const Series& s, int64_t gap) {
    std::vector<double> rates;
    for (size_t i = 1; i < s.size(); ++i) {
        const int64_t dt = s.t[i] - s.t[i - 1];
        if (dt > 0 && dt <= gap && s.v[i] >= s.v[i - 1])
            rates.push_back((s.v[i] - s.v[i - 1]) / double(dt));
    }
    if (rates.empty())
        return 0;
    std::nth_element(rates.begin(), rates.begin() + rates.size() / 2, rates.end());
    return rates[rates.size() / 2];
}

/// How many more samples a series holds than its time span has room for at its sampling interval:
/// samples that overlap in time because the clock was set back while they were recorded.
size_t overlappingSamples(const Series& s) {
    // The sampling interval is the median step: steps that a loaded tool doubled (missed samples)
    // do not move it, so only samples packed closer than the interval count. A clock set back for
    // more than half of a run is not told apart from sampling at half the interval.
    const int64_t interval = typicalIntervalMs(s);
    if (s.size() < 3 || interval <= 0)
        return 0;
    const double room = double(s.t.back() - s.t.front()) / double(interval) + 1.0;
    return double(s.size()) > 1.2 * room ? size_t(double(s.size()) - room) : 0;
}

/// A counter step from i-1 to i at more than 50 times the counter's usual rate.
bool isAbsurdStep(const Series& s, size_t i, double usual) {
    const int64_t dt = s.t[i] - s.t[i - 1];
    return usual > 0 && dt > 0 && (s.v[i] - s.v[i - 1]) / double(dt) > 50 * usual;
}

std::string percentText(double pct) {
    char text[32];
    std::snprintf(text, sizeof text, pct < 10 ? "%.1f %%" : "%.0f %%", pct);
    return text;
}

std::string deviceName(const std::string& device) {
    return device.empty() ? "GPU 0" : device.substr(3);
}

} // namespace

CleanedCounter cleanCounter(const Series& millijoules) {
    const Series s = usablePoints(millijoules);
    CleanedCounter out;
    if (s.size() < 3) {
        out.series = s;
        return out;
    }
    const int64_t gap = maxGapMs(s);
    const double usual = usualRate(s, gap);
    auto rate = [&](size_t a, size_t b) {
        return (s.v[b] - s.v[a]) / double(std::max<int64_t>(1, s.t[b] - s.t[a]));
    };
    std::vector<bool> keep(s.size(), true);
    // A first reading far below the rest (a 0 before the counter was read right).
    if (usual > 0 && rate(0, 1) > 50 * usual) {
        keep[0] = false;
        ++out.glitches;
    }
    size_t prev = keep[0] ? 0 : 1;
    for (size_t i = prev + 1; i < s.size(); ++i) {
        if (s.v[i] >= s.v[prev]) {
            prev = i;
            continue;
        }
        // A drop: a glitch when the counter, read across it, goes on at its usual rate, closer to
        // it than the rate from the low reading on (which a reset continues at).
        if (i + 1 == s.size() || (s.v[i + 1] >= s.v[prev] && std::fabs(rate(prev, i + 1) - usual) <=
                                                                 std::fabs(rate(i, i + 1) - usual))) {
            keep[i] = false;
            ++out.glitches;
            continue;
        }
        prev = i; // a reset: energyInWindows leaves its interval uncounted
    }
    out.series = selectSamples(s, keep, true);
    out.usualRate = usual;
    // What is left that no rule explains (two bad readings in a row, a spike up): an increment at
    // more than 50 times the usual rate is not energy; energyInWindows leaves it uncounted.
    for (size_t i = 1; i < out.series.size(); ++i)
        out.glitches += out.series.v[i] > out.series.v[i - 1] && isAbsurdStep(out.series, i, usual);
    return out;
}

std::vector<EnergyIntegral> energyInWindows(const Series& raw, bool isCounter,
                                            const std::vector<std::pair<int64_t, int64_t>>& windows) {
    CleanedCounter cleaned = isCounter ? cleanCounter(raw) : CleanedCounter{};
    Series s = isCounter ? std::move(cleaned.series) : usablePoints(raw);
    if (!isCounter) {
        std::vector<bool> keep(s.size());
        for (size_t i = 0; i < s.size(); ++i)
            keep[i] = s.v[i] >= 0; // a negative power reading is a sensor fault, not energy given back
        s = selectSamples(s, keep, true);
    }
    const int64_t gap = maxGapMs(s);
    std::vector<EnergyIntegral> out(windows.size());
    size_t first = 0; // the first window that can still overlap a segment
    for (size_t i = 1; i < s.size(); ++i) {
        const int64_t t0 = s.t[i - 1], t1 = s.t[i];
        if (t1 <= t0 || t1 - t0 > gap)
            continue; // not bridged
        const double delta = s.v[i] - s.v[i - 1];
        if (isCounter && (delta < 0 || isAbsurdStep(s, i, cleaned.usualRate)))
            continue; // a reset, or a step no reading explains: this interval's energy is unknown
        while (first < windows.size() && windows[first].second <= t0)
            ++first;
        for (size_t w = first; w < windows.size() && windows[w].first < t1; ++w) {
            const int64_t a = std::max(t0, windows[w].first), b = std::min(t1, windows[w].second);
            if (b <= a)
                continue;
            if (isCounter) { // spread evenly over the interval
                out[w].joules += delta / 1000.0 * double(b - a) / double(t1 - t0);
            } else { // the trapezoid of the interpolated power at the window's edges
                const double pa = interpolate(t0, s.v[i - 1], t1, s.v[i], a);
                const double pb = interpolate(t0, s.v[i - 1], t1, s.v[i], b);
                out[w].joules += (pa + pb) / 2.0 * double(b - a) / 1000.0;
            }
            out[w].coveredMs += b - a;
        }
    }
    return out;
}

EnergyIntegral counterEnergy(const Series& millijoules, int64_t fromMs, int64_t toMs) {
    return energyInWindows(millijoules, true, {{fromMs, toMs}}).front();
}

/// Each device's key of a role: the most preferred listener's reading where several have one
/// (power: dcgmi's first, nvidia-smi's where dcgmi has none, then dmon's).
std::map<std::string, std::string> roleKeysPerDevice(const std::vector<std::string>& keys, KeyRole role) {
    std::map<std::string, std::string> found;
    for (const std::string& base : keysOfRole(role))
        for (const auto& [device, key] : perDeviceKeys(keys, base))
            found.emplace(device, key);
    return found;
}

EnergyIntegral powerEnergy(const Series& watts, int64_t fromMs, int64_t toMs) {
    return energyInWindows(watts, false, {{fromMs, toMs}}).front();
}

namespace {

/// A device's energy from its energy counter; notes the readings left out and a clock that went back.
EnergyIntegral deviceCounterEnergy(const Series& raw, const std::string& device, int64_t fromMs, int64_t toMs,
                                   std::vector<std::string>& notes) {
    const EnergyIntegral fromCounter = counterEnergy(raw, fromMs, toMs);
    if (const size_t glitches = cleanCounter(raw).glitches)
        notes.push_back(deviceName(device) + ": " + std::to_string(glitches) +
                        " energy counter reading(s) out of line with the rest (a 0, a dip) left out");
    if (const size_t overlap = overlappingSamples(usablePoints(raw)))
        notes.push_back(deviceName(device) + ": the clock went back while recording (" +
                        std::to_string(overlap) + " more counter samples than the run's span holds)");
    return fromCounter;
}

/// A device's energy from its integrated power; notes negative readings, and a clock that went
/// back where no counter covers for it.
EnergyIntegral devicePowerEnergy(const Series& raw, const std::string& device, int64_t fromMs, int64_t toMs,
                                 bool counterCovers, std::vector<std::string>& notes) {
    const EnergyIntegral fromPower = powerEnergy(raw, fromMs, toMs);
    size_t negative = 0;
    for (double v : raw.v)
        negative += usable(v) && v < 0;
    if (negative)
        notes.push_back(deviceName(device) + ": " + std::to_string(negative) +
                        " negative power reading(s) left out (a sensor fault)");
    if (const size_t overlap = overlappingSamples(usablePoints(raw)); overlap && !counterCovers)
        notes.push_back(deviceName(device) + ": the clock went back while recording (" +
                        std::to_string(overlap) +
                        " more power samples than the run's span holds): energy is undercounted");
    return fromPower;
}

/// Which of a device's two energies counts (the counter unless integrated power over the same time
/// disagrees too much), its source and cross-check in `d`; null when neither covers any time.
const EnergyIntegral* chosenEnergy(DeviceEnergy& d, const EnergyIntegral& fromCounter,
                                   const EnergyIntegral& fromPower, double span,
                                   std::vector<std::string>& notes) {
    if (fromCounter.coveredMs <= 0) {
        if (fromPower.coveredMs <= 0)
            return nullptr;
        d.source = "power"; // no counter, or one that never moved forward here
        return &fromPower;
    }
    d.source = "counter";
    // Compared only over the same time: a power series that starts late would otherwise make
    // a good counter look far off.
    if (fromPower.coveredMs > 0 && std::llabs(fromCounter.coveredMs - fromPower.coveredMs) <= span / 20) {
        d.counterJoules = fromCounter.joules;
        d.powerJoules = fromPower.joules;
        const double pct = fromPower.joules > 0
                               ? std::fabs(fromCounter.joules - fromPower.joules) / fromPower.joules * 100
                               : 0;
        if (pct > kCounterReplacedPct) {
            d.source = "power";
            notes.push_back(deviceName(d.device) + ": the energy counter (" +
                            std::to_string(int64_t(std::llround(fromCounter.joules))) +
                            " J) disagrees with integrated power (" +
                            std::to_string(int64_t(std::llround(fromPower.joules))) + " J) by " +
                            percentText(pct) + ": integrated power is used");
            return &fromPower;
        }
    }
    return &fromCounter;
}

} // namespace

EnergyEstimate gpuEnergy(const std::vector<std::string>& keys,
                         const std::function<Series(const std::string&)>& series, int64_t fromMs,
                         int64_t toMs) {
    EnergyEstimate out;
    const auto counters = roleKeysPerDevice(keys, KeyRole::GpuEnergyCounter);
    const auto power = roleKeysPerDevice(keys, KeyRole::GpuPower);
    std::map<std::string, bool> devices;
    for (const auto& entry : counters)
        devices[entry.first] = true;
    for (const auto& entry : power)
        devices[entry.first] = true;
    const double span = double(std::max<int64_t>(1, toMs - fromMs));
    bool first = true;
    for (const auto& entry : devices) {
        const std::string& device = entry.first;
        DeviceEnergy d{device, 0, "", 0, std::nullopt, std::nullopt};
        EnergyIntegral fromCounter, fromPower;
        if (auto c = counters.find(device); c != counters.end())
            fromCounter = deviceCounterEnergy(series(c->second), device, fromMs, toMs, out.notes);
        if (auto p = power.find(device); p != power.end())
            fromPower = devicePowerEnergy(series(p->second), device, fromMs, toMs, fromCounter.coveredMs > 0,
                                          out.notes);
        const EnergyIntegral* e = chosenEnergy(d, fromCounter, fromPower, span, out.notes);
        if (!e)
            continue;
        d.joules = e->joules;
        d.coverage = std::min(1.0, double(e->coveredMs) / span);
        out.joules = out.joules.value_or(0) + d.joules;
        out.coverage = first ? d.coverage : std::min(out.coverage, d.coverage);
        out.source = first || out.source == d.source ? d.source : "mixed";
        if (d.counterJoules) {
            out.checkCounterJoules = out.checkCounterJoules.value_or(0) + *d.counterJoules;
            out.checkPowerJoules = out.checkPowerJoules.value_or(0) + *d.powerJoules;
        }
        first = false;
        out.devices.push_back(std::move(d));
    }
    if (out.joules && *out.joules < 0)
        out.notes.emplace_back("the energy is negative: the readings cannot be right");
    return out;
}

std::vector<std::optional<double>>
gpuEnergyInWindows(const std::vector<std::string>& keys,
                   const std::function<Series(const std::string&)>& series,
                   const std::vector<std::pair<int64_t, int64_t>>& windows) {
    std::vector<std::optional<double>> out(windows.size());
    const auto counters = roleKeysPerDevice(keys, KeyRole::GpuEnergyCounter);
    const auto power = roleKeysPerDevice(keys, KeyRole::GpuPower);
    std::map<std::string, bool> devices;
    for (const auto& entry : counters)
        devices[entry.first] = true;
    for (const auto& entry : power)
        devices[entry.first] = true;
    for (const auto& entry : devices) {
        const std::string& device = entry.first;
        std::vector<EnergyIntegral> fromCounter, fromPower;
        if (auto c = counters.find(device); c != counters.end())
            fromCounter = energyInWindows(series(c->second), true, windows);
        if (auto p = power.find(device); p != power.end())
            fromPower = energyInWindows(series(p->second), false, windows);
        // As gpuEnergy(): a counter that disagrees with power by far over all the windows is not used.
        if (!fromCounter.empty() && !fromPower.empty()) {
            double counterJ = 0, powerJ = 0;
            for (size_t w = 0; w < windows.size(); ++w)
                if (fromCounter[w].coveredMs > 0 && fromPower[w].coveredMs > 0 &&
                    std::llabs(fromCounter[w].coveredMs - fromPower[w].coveredMs) <=
                        (windows[w].second - windows[w].first) / 20) {
                    counterJ += fromCounter[w].joules;
                    powerJ += fromPower[w].joules;
                }
            if (powerJ > 0 && std::fabs(counterJ - powerJ) / powerJ * 100 > kCounterReplacedPct)
                fromCounter.clear();
        }
        for (size_t w = 0; w < windows.size(); ++w) {
            // As gpuEnergy(): the counter where it covers the window, else power.
            const EnergyIntegral* e = !fromCounter.empty() && fromCounter[w].coveredMs > 0 ? &fromCounter[w]
                                      : !fromPower.empty() && fromPower[w].coveredMs > 0   ? &fromPower[w]
                                                                                           : nullptr;
            if (e)
                out[w] = out[w].value_or(0) + e->joules;
        }
    }
    return out;
}

std::optional<double> cpuEnergy(const std::vector<std::string>& keys,
                                const std::function<Series(const std::string&)>& series, int64_t fromMs,
                                int64_t toMs) {
    std::optional<double> joules;
    for (const std::string& key : keys) {
        if (key.rfind(kRaplPrefix, 0) != 0 || key.size() < 8 ||
            key.compare(key.size() - 8, 8, " Power W") != 0)
            continue;
        const EnergyIntegral e = powerEnergy(series(key), fromMs, toMs);
        if (e.coveredMs > 0)
            joules = joules.value_or(0) + e.joules;
    }
    return joules;
}

double co2eGrams(double joules, double gridIntensityGPerKwh, double pue) {
    return joules / 3.6e6 * gridIntensityGPerKwh * pue;
}

} // namespace radt::insight
