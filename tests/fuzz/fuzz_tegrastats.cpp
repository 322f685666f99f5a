// SPDX-License-Identifier: MIT
// tegrastats output as the tegrastats listener reads it: one parseTegrastatsLine() per line.

#include "FuzzSupport.h"
#include "collector/listeners/GpuParsers.h"
#include "core/store/MlflowLimits.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    radt::fuzz::forEachToolLine(radt::fuzz::asText(data, size), [](const std::string& line) {
        const auto sample = radt::parseTegrastatsLine(line);
        if (!sample)
            return;
        for (const radt::NamedValue& v : sample->values) {
            RADT_FUZZ_CHECK(radt::mlflow::isValidKey(v.key), v.key);
            RADT_FUZZ_CHECK(std::isfinite(v.value), v.key + " from " + line);
        }
    });
    return 0;
}
