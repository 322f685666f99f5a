// SPDX-License-Identifier: MIT
// nvidia-smi --query-gpu CSV as the smi listener reads it: one parseSmiLine() per output line.

#include "FuzzSupport.h"
#include "collector/listeners/GpuParsers.h"
#include "core/store/MlflowLimits.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    radt::fuzz::forEachToolLine(radt::fuzz::asText(data, size), [](const std::string& line) {
        const auto row = radt::parseSmiLine(line);
        if (!row)
            return;
        RADT_FUZZ_CHECK(row->gpuIndex >= 0, line);
        for (const radt::NamedValue& v : row->values) {
            // The listener stores these keys as they are (plus " - GPU <n>"): MLflow must accept them.
            RADT_FUZZ_CHECK(radt::mlflow::isValidKey(v.key), v.key);
            RADT_FUZZ_CHECK(std::isfinite(v.value), v.key + " from " + line);
        }
    });
    return 0;
}
