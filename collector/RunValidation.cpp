// SPDX-License-Identifier: MIT
#include "collector/RunValidation.h"

#include "collector/ExperimentCsv.h"
#include "collector/listeners/ListenerTable.h"
#include "core/store/MlflowLimits.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

namespace radt {

namespace {

bool isIndexList(const std::string& s) {
    // 0, 0+1, 12+3: GPU indexes joined by '+', nothing empty.
    if (s.empty() || s.front() == '+' || s.back() == '+' || s.find("++") != std::string::npos)
        return false;
    return s.find_first_not_of("0123456789+") == std::string::npos;
}

} // namespace

void validateRunOptions(const RunOptions& o) {
    if (o.command.empty() || o.command.front().empty())
        throw std::invalid_argument("no script or command to run");
    if (!(o.intervalSeconds >= 0.1 && o.intervalSeconds <= 3600))
        throw std::invalid_argument("--interval must be between 0.1 and 3600 seconds");
    if (o.graceMs < 0)
        throw std::invalid_argument("--grace must be 0 or more seconds");
    if (o.maxEpoch < 0)
        throw std::invalid_argument("--epoch must be 0 (no limit) or more");
    if (!(o.maxTimeMinutes >= 0 && o.maxTimeMinutes <= kMaxTimeLimitMinutes))
        throw std::invalid_argument("--time must be between 0 (no limit) and " +
                                    std::to_string(static_cast<int64_t>(kMaxTimeLimitMinutes)) +
                                    " minutes (a year)");
    if (!o.listeners.empty() && (o.listeners.front() == '+' || o.listeners.back() == '+' ||
                                 o.listeners.find("++") != std::string::npos))
        throw std::invalid_argument("listeners '" + o.listeners + "': an empty name between '+' signs");
    parseListeners(o.listeners); // unknown names
    if (!isIndexList(o.devices))
        throw std::invalid_argument("devices expects GPU indexes like 0 or 0+1, got '" + o.devices + "'");
    const std::string& c = o.collocation;
    if (!(c.empty() || c == "-" || c == "MPS" || isMigProfile(c)))
        throw std::invalid_argument("collocation expects -, MPS or a MIG profile like 1g.10gb, got '" + c +
                                    "'");
}

void validateRunParams(const std::vector<std::pair<std::string, std::string>>& params) {
    for (const auto& [key, value] : params) {
        try {
            mlflow::validateKey(key, "param");
            mlflow::validateParamValue(key, value);
        } catch (const std::exception& e) {
            throw std::invalid_argument(std::string(e.what()) + "; no run was started");
        }
    }
}

int pollTimeoutMs(int64_t leftMs) {
    return static_cast<int>(std::clamp<int64_t>(leftMs + 1, 0, INT_MAX / 2));
}

} // namespace radt
