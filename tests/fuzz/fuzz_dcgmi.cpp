// SPDX-License-Identifier: MIT
// `dcgmi dmon` stdout as the dcgmi listener reads it (one parser fed line by line, header
// changes included), and `dcgmi group -c` output as its prepare step reads it.

#include "FuzzSupport.h"
#include "collector/listeners/GpuParsers.h"
#include "core/store/MlflowLimits.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text = radt::fuzz::asText(data, size);
    radt::DcgmiDmonParser parser;
    size_t rows = 0;
    radt::fuzz::forEachToolLine(text, [&](const std::string& line) {
        const auto row = parser.feed(line);
        if (!row)
            return;
        ++rows;
        RADT_FUZZ_CHECK(!row->entity.empty(), line);
        for (const radt::NamedValue& v : row->values) {
            RADT_FUZZ_CHECK(radt::mlflow::isValidKey(v.key), v.key);
            // A second entity's series is stored as "<key> - <entity>" (GpuListeners.cpp).
            RADT_FUZZ_CHECK(radt::mlflow::isValidKey(v.key + " - " + row->entity), row->entity);
            RADT_FUZZ_CHECK(std::isfinite(v.value), v.key + " from " + line);
        }
    });
    RADT_FUZZ_CHECK(parser.rows() == rows, std::string(text));
    if (const auto id = radt::parseDcgmiGroupId(text))
        RADT_FUZZ_CHECK(*id >= 0, std::string(text));
    return 0;
}
