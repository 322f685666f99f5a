// SPDX-License-Identifier: MIT
#include "core/base/MetricUnits.h"

#include <utility>
#include <vector>

namespace radt {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

MetricUnit unit(const char* symbol, double low, double high = kInf) {
    return {symbol, low, high};
}
MetricUnit percent() {
    return unit("%", 0, 100);
}
MetricUnit ratio() {
    return unit("", 0, 1);
}
MetricUnit atLeastZero(const char* symbol) {
    return unit(symbol, 0);
}

bool endsWith(const std::string& s, const std::string& end) {
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

bool startsWith(const std::string& s, const std::string& start) {
    return s.rfind(start, 0) == 0;
}

/// The keys whose name does not carry their unit, from the listeners' rows and the tools' manuals
/// (nvidia-smi --help-query-gpu, DCGM's field reference, /proc(5)). A key recorded per device
/// begins with one of these.
std::optional<MetricUnit> namedUnit(const std::string& key) {
    // clang-format off
    static const std::vector<std::pair<std::string, MetricUnit>> named = {
        // radT's nvidia-smi query keeps utilisation as a 0..1 ratio.
        {"SMI - Power Draw", atLeastZero("W")}, {"SMI - GPU Util", ratio()}, {"SMI - Mem Util", ratio()},
        {"SMI - Mem Used", atLeastZero("MiB")},
        // DCGM: utilisations in percent, activities as ratios, energy in mJ, PCIe throughput in KB/s.
        {"DCGMI - Power Usage Instant", atLeastZero("W")}, {"DCGMI - Power Usage", atLeastZero("W")},
        {"DCGMI - Total Energy Consumption", atLeastZero("mJ")},
        {"DCGMI - PCIE TX Throughput", atLeastZero("KB/s")}, {"DCGMI - PCIE RX Throughput", atLeastZero("KB/s")},
        {"DCGMI - GPU Utilization", percent()}, {"DCGMI - Memory Copy Utilization", percent()},
        {"DCGMI - GR Engine Active", ratio()}, {"DCGMI - SM Active", ratio()}, {"DCGMI - SN Active", ratio()},
        {"DCGMI - SM Occupancy", ratio()}, {"DCGMI - Tensor Active", ratio()}, {"DCGMI - DRAM Active", ratio()},
        {"DCGMI - FP64 Active", ratio()}, {"DCGMI - FP32 Active", ratio()}, {"DCGMI - FP16 Active", ratio()},
        {"DCGMI - PCIE TX Bytes", atLeastZero("B/s")}, {"DCGMI - PCIE RX Bytes", atLeastZero("B/s")},
        {"DCGMI - NVlink TX Bytes", atLeastZero("B/s")}, {"DCGMI - NVlink RX Bytes", atLeastZero("B/s")},
        {"DCGMI - SM Clock", atLeastZero("MHz")}, {"DCGMI - Memory Clock", atLeastZero("MHz")},
        {"DCGMI - GPU Temperature", unit("°C", -kInf)}, {"DCGMI - Memory Temperature", unit("°C", -kInf)},
        {"DCGMI - FB Total", atLeastZero("MiB")}, {"DCGMI - FB Free", atLeastZero("MiB")},
        {"DCGMI - FB Used", atLeastZero("MiB")},
        // nvidia-smi dmon: power in W, utilisation in percent (the clocks, rates and sizes say
        // theirs in the key).
        {"DMON - Power Draw", atLeastZero("W")}, {"DMON - SM Util", percent()}, {"DMON - Mem Util", percent()},
        {"DMON - Encoder Util", percent()}, {"DMON - Decoder Util", percent()}, {"DMON - JPEG Util", percent()},
        {"DMON - OFA Util", percent()},
        // /proc: the machine's CPU and memory in percent; the run's own CPU in percent of one core
        // (a process on 8 cores reaches 800).
        {"TOP - CPU Utilization", percent()}, {"TOP - Memory Utilization", percent()},
        {"PROC - CPU Utilization", atLeastZero("%")}, {"PROC - Threads", atLeastZero("")},
        {"TEGRA - GPU Util", percent()}, {"TEGRA - EMC", percent()}, {"TEGRA - GPU", percent()},
    };
    // clang-format on
    const std::pair<std::string, MetricUnit>* best = nullptr; // the longest key it begins with
    for (const auto& entry : named) {
        const std::string& name = entry.first;
        if ((key == name || startsWith(key, name + " ")) && (!best || name.size() > best->first.size()))
            best = &entry;
    }
    return best ? std::optional<MetricUnit>(best->second) : std::nullopt;
}

/// Keys that end in their unit, as /proc's, iostat's, the network's and tegrastats' do.
std::optional<MetricUnit> suffixUnit(const std::string& key) {
    static const std::vector<std::pair<std::string, MetricUnit>> suffixes = {
        {" MB/s", atLeastZero("MB/s")},
        {" MB read/s", atLeastZero("MB/s")},
        {" MB written/s", atLeastZero("MB/s")},
        {" - tps", atLeastZero("1/s")},
        {" MHz", atLeastZero("MHz")},
        {" mW", atLeastZero("mW")},
        {" MB", atLeastZero("MB")},
        {" GB", atLeastZero("GB")},
        {" C", unit("°C", -kInf)},
    };
    for (const auto& [suffix, u] : suffixes)
        if (endsWith(key, suffix))
            return u;
    if (startsWith(key, "PS - CPU ")) // one core's share, in percent
        return percent();
    if (startsWith(key, "PS - MEM ")) // the share of the machine's memory, in percent
        return percent();
    return std::nullopt;
}

bool writtenByAListener(const std::string& key) {
    for (const char* prefix : {"SMI - ", "DCGMI - ", "DMON - ", "TOP - ", "PS - ", "PROC - ", "NET - ",
                               "iostat - ", "TEGRA - ", "RAPL - "})
        if (startsWith(key, prefix))
            return true;
    return endsWith(key, " - tps") || endsWith(key, " - MB read/s") || endsWith(key, " - MB written/s");
}

} // namespace

std::string MetricUnit::axisLabel() const {
    if (!symbol.empty())
        return symbol;
    return low == 0 && high == 1 ? "0–1" : "";
}

std::optional<MetricUnit> unitOfKey(const std::string& key) {
    if (!writtenByAListener(key))
        return std::nullopt; // a script's own metric: no guess from its name
    if (auto named = namedUnit(key))
        return named;
    return suffixUnit(key);
}

std::string keyWithUnit(const std::string& key) {
    const std::optional<MetricUnit> u = unitOfKey(key);
    const std::string label = u ? u->axisLabel() : std::string();
    return label.empty() ? key : key + " (" + label + ")";
}

} // namespace radt
