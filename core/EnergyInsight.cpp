#include "EnergyInsight.h"

#include "InsightSeries.h"

#include <algorithm>
#include <map>

namespace radt::insight {

namespace {

double interpolate(int64_t t0, double v0, int64_t t1, double v1, int64_t t) {
    return t1 == t0 ? v0 : v0 + (v1 - v0) * double(t - t0) / double(t1 - t0);
}

} // namespace

std::vector<EnergyIntegral> energyInWindows(const Series& raw, bool isCounter,
                                            const std::vector<std::pair<int64_t, int64_t>>& windows) {
    const Series s = usablePoints(raw);
    const int64_t gap = maxGapMs(s);
    std::vector<EnergyIntegral> out(windows.size());
    size_t first = 0; // the first window that can still overlap a segment
    for (size_t i = 1; i < s.size(); ++i) {
        const int64_t t0 = s.t[i - 1], t1 = s.t[i];
        if (t1 <= t0 || t1 - t0 > gap)
            continue; // not bridged
        const double delta = s.v[i] - s.v[i - 1];
        if (isCounter && delta < 0)
            continue; // a reset: this interval's energy is unknown
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

EnergyIntegral powerEnergy(const Series& watts, int64_t fromMs, int64_t toMs) {
    return energyInWindows(watts, false, {{fromMs, toMs}}).front();
}

EnergyEstimate gpuEnergy(const std::vector<std::string>& keys,
                         const std::function<Series(const std::string&)>& series, int64_t fromMs,
                         int64_t toMs) {
    EnergyEstimate out;
    const auto counters = perDeviceKeys(keys, kEnergyCounterKey);
    auto power = perDeviceKeys(keys, kDcgmiPowerKey);
    for (const auto& [device, key] : perDeviceKeys(keys, kSmiPowerKey))
        power.emplace(device, key); // dcgmi's reading first, nvidia-smi's where dcgmi has none
    std::map<std::string, bool> devices;
    for (const auto& entry : counters)
        devices[entry.first] = true;
    for (const auto& entry : power)
        devices[entry.first] = true;
    const double span = double(std::max<int64_t>(1, toMs - fromMs));
    bool first = true;
    for (const auto& entry : devices) {
        const std::string& device = entry.first;
        DeviceEnergy d{device, 0, "", 0};
        EnergyIntegral e;
        if (auto c = counters.find(device); c != counters.end()) {
            e = counterEnergy(series(c->second), fromMs, toMs);
            d.source = "counter";
        }
        if (e.coveredMs == 0) { // no counter, or one that never moved forward in this window
            if (auto p = power.find(device); p != power.end()) {
                e = powerEnergy(series(p->second), fromMs, toMs);
                d.source = "power";
            }
        }
        if (e.coveredMs == 0)
            continue;
        d.joules = e.joules;
        d.coverage = std::min(1.0, double(e.coveredMs) / span);
        out.joules = out.joules.value_or(0) + d.joules;
        out.coverage = first ? d.coverage : std::min(out.coverage, d.coverage);
        out.source = first || out.source == d.source ? d.source : "mixed";
        first = false;
        out.devices.push_back(std::move(d));
    }
    return out;
}

std::vector<std::optional<double>>
gpuEnergyInWindows(const std::vector<std::string>& keys,
                   const std::function<Series(const std::string&)>& series,
                   const std::vector<std::pair<int64_t, int64_t>>& windows) {
    std::vector<std::optional<double>> out(windows.size());
    const auto counters = perDeviceKeys(keys, kEnergyCounterKey);
    auto power = perDeviceKeys(keys, kDcgmiPowerKey);
    for (const auto& [device, key] : perDeviceKeys(keys, kSmiPowerKey))
        power.emplace(device, key);
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
