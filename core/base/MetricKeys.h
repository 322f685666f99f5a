// SPDX-License-Identifier: MIT
#pragma once
// The metric keys each listener writes (resources/DESIGN.md §5), in one place: the collector's
// listener table and the analyses (which samples are hardware, which a script's own metrics) both
// read it. A new listener adds its row here, with the roles its keys play for the analyses: they
// ask for GPU power or GPU utilisation, never for a tool's key name, so a new tool's readings reach
// the energy, utilisation, stall, burst and configuration figures through its row alone.

#include <string>
#include <vector>

namespace radt {

/// What a key means to the analyses.
enum class KeyRole {
    GpuEnergyCounter,  ///< cumulative GPU energy in mJ, per device
    GpuPower,          ///< GPU power draw in W, per device
    GpuUtilisation,    ///< the share of time a kernel ran on the GPU
    SmActivity,        ///< the share of SMs busy (DCGM's SM activity)
    MemoryUtilisation, ///< the memory controller's or copy engines' busy share
};

struct RoleKey {
    KeyRole role;
    std::string key; ///< the key; one recorded per device has " GPU 0" or the like after it
    /// Among the role's keys of every listener, the lower is read first where a run has several
    /// (dcgmi's power before nvidia-smi's, which is finer than dmon's).
    int rank;
    double fullScale; ///< a utilisation's 100 %: 1 for a ratio, 100 for a percentage; 0 otherwise
};

struct ListenerKeys {
    const char* listener;              ///< its -l name
    std::vector<std::string> prefixes; ///< "SMI - "
    std::vector<std::string> suffixes; ///< iostat's per-device "<dev> - tps"
    std::vector<RoleKey> roles;        ///< the keys the analyses read, by what they mean
};

const std::vector<ListenerKeys>& listenerKeys();
/// The row of the listener that writes `key`; nullptr for a script's own metric.
const ListenerKeys* listenerOfKey(const std::string& key);

/// The keys that play `role`, from every listener's row, most preferred first.
std::vector<std::string> keysOfRole(KeyRole role);
/// The role entry of `key`: the one whose key it is, or begins with (a per-device key); nullptr
/// when it plays none.
const RoleKey* roleOfKey(const std::string& key);
/// Whether `key` plays `role` (itself or per device).
bool playsRole(const std::string& key, KeyRole role);
/// The first of `role`'s keys, in order of preference, that `keys` holds exactly; "" for none.
std::string firstKeyOfRole(const std::vector<std::string>& keys, KeyRole role);
/// "A or B or C": the role's keys, for a message that says which series were looked for.
std::string roleKeysText(KeyRole role);

} // namespace radt
