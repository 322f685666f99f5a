// SPDX-License-Identifier: MIT
#pragma once
// How busy a run kept its GPUs and CPUs (resources/DESIGN.md §12): time-weighted utilisation
// profiles, and the gap between coarse GPU utilisation and SM activity.

#include "core/base/Model.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace radt::insight {

/// Share of a metric's full scale below which a sample counts as idle.
inline constexpr double kIdleShareOfScale = 0.05;

struct UtilisationProfile {
    double mean = 0; ///< time-weighted: each sample holds until the next (gaps not bridged)
    double p50 = 0, p95 = 0;
    double idleShare = 0; ///< time share below 5 % of the full scale
    double fullScale = 100;
    size_t samples = 0;
};

/// The full scale of a utilisation metric: 1 for ratios (SMI - GPU Util and dcgmi's *Active
/// fields are 0..1), 100 for percentages.
double utilisationScale(const std::string& key, const Series& s);

/// The profile of one series; unset without usable samples.
std::optional<UtilisationProfile> utilisationProfile(const Series& raw, double fullScale);

/// The utilisation metrics among a run's keys that get a profile: GPU, GPU memory, SM activity,
/// CPU (TOP, PROC), per device as recorded.
std::vector<std::string> utilisationKeys(const std::vector<std::string>& keys);

/// A GPU at "100 %" utilisation may keep only a few SMs busy: nvidia-smi's and dcgmi's GPU
/// utilisation count a sample period as busy when any kernel ran. A gap of 30 percentage points
/// or more between utilisation and SM activity is flagged: the GPU is far less used than it
/// looks (DCGM's own guidance reads SMACT below ~50 % as under-use while util shows near 100 %).
inline constexpr double kUtilSmactFlagPp = 30;

struct UtilSmactGap {
    std::string utilKey, smactKey;
    double utilPct = 0, smactPct = 0; ///< time-weighted means, both in percent
    double gapPp = 0;                 ///< utilPct - smactPct
    bool flagged = false;
};

/// Util (DCGMI - GPU Utilization, else SMI - GPU Util) against SM activity (DCGMI - SM Active, old
/// radT "SN Active", else GR Engine Active) of the first GPU; unset without both.
std::optional<UtilSmactGap> utilSmactGap(const std::vector<std::string>& keys,
                                         const std::function<Series(const std::string&)>& series);

} // namespace radt::insight
