// SPDX-License-Identifier: MIT
#include "core/base/MetricKeys.h"

#include <algorithm>

namespace radt {

const std::vector<ListenerKeys>& listenerKeys() {
    using R = KeyRole;
    static const std::vector<ListenerKeys> all = {
        {"top", {"TOP - "}, {}, {}},
        {"ps", {"PS - "}, {}, {}},
        {"iostat", {"iostat - "}, {" - tps", " - MB read/s", " - MB written/s"}, {}},
        {"net", {"NET - "}, {}, {}},
        {"proc", {"PROC - "}, {}, {}},
        {"rapl", {"RAPL - "}, {}, {}},
        // radT's nvidia-smi query keeps utilisation as a 0..1 ratio.
        {"smi",
         {"SMI - "},
         {},
         {{R::GpuPower, "SMI - Power Draw", 1, 0},
          {R::GpuUtilisation, "SMI - GPU Util", 1, 1},
          {R::MemoryUtilisation, "SMI - Mem Util", 0, 1}}},
        // dmon's sm and mem columns: nvidia-smi's utilisation as a percentage, at dmon's 1 s.
        {"dmon",
         {"DMON - "},
         {},
         {{R::GpuPower, "DMON - Power Draw", 2, 0},
          {R::GpuUtilisation, "DMON - SM Util", 3, 100},
          {R::MemoryUtilisation, "DMON - Mem Util", 2, 100}}},
        // dcgmi's utilisation fields are percentages, its activity fields ratios.
        {"dcgmi",
         {"DCGMI - "},
         {},
         {{R::GpuEnergyCounter, "DCGMI - Total Energy Consumption", 0, 0},
          {R::GpuPower, "DCGMI - Power Usage", 0, 0},
          {R::GpuUtilisation, "DCGMI - GPU Utilization", 0, 100},
          {R::SmActivity, "DCGMI - SM Active", 0, 1},
          {R::SmActivity, "DCGMI - SN Active", 1, 1},
          {R::SmActivity, "DCGMI - GR Engine Active", 2, 1},
          {R::MemoryUtilisation, "DCGMI - Memory Copy Utilization", 1, 100}}},
        {"tegrastats", {"TEGRA - "}, {}, {{R::GpuUtilisation, "TEGRA - GPU Util", 2, 100}}},
    };
    return all;
}

const ListenerKeys* listenerOfKey(const std::string& key) {
    for (const ListenerKeys& l : listenerKeys()) {
        for (const std::string& prefix : l.prefixes)
            if (key.rfind(prefix, 0) == 0)
                return &l;
        for (const std::string& suffix : l.suffixes)
            if (key.size() > suffix.size() &&
                key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0)
                return &l;
    }
    return nullptr;
}

std::vector<std::string> keysOfRole(KeyRole role) {
    std::vector<const RoleKey*> found;
    for (const ListenerKeys& l : listenerKeys())
        for (const RoleKey& r : l.roles)
            if (r.role == role)
                found.push_back(&r);
    std::stable_sort(found.begin(), found.end(),
                     [](const RoleKey* a, const RoleKey* b) { return a->rank < b->rank; });
    std::vector<std::string> keys;
    keys.reserve(found.size());
    for (const RoleKey* r : found)
        keys.push_back(r->key);
    return keys;
}

const RoleKey* roleOfKey(const std::string& key) {
    const ListenerKeys* owner = listenerOfKey(key);
    if (!owner)
        return nullptr;
    const RoleKey* best = nullptr; // the longest key it begins with ("SM Active", not "S")
    for (const RoleKey& r : owner->roles)
        if (key.rfind(r.key, 0) == 0 && (!best || r.key.size() > best->key.size()))
            best = &r;
    return best;
}

bool playsRole(const std::string& key, KeyRole role) {
    const RoleKey* r = roleOfKey(key);
    return r && r->role == role;
}

std::string firstKeyOfRole(const std::vector<std::string>& keys, KeyRole role) {
    for (const std::string& candidate : keysOfRole(role))
        if (std::find(keys.begin(), keys.end(), candidate) != keys.end())
            return candidate;
    return {};
}

std::string roleKeysText(KeyRole role) {
    std::string text;
    const std::vector<std::string> keys = keysOfRole(role);
    for (size_t i = 0; i < keys.size(); ++i)
        text += (i == 0 ? "" : i + 1 == keys.size() ? " or " : ", ") + keys[i];
    return text;
}

} // namespace radt
