// SPDX-License-Identifier: MIT
// `nvidia-smi mig -cgi ... -C` and `nvidia-smi -L` output, parsed whole as GpuPartitioner does.
// These parsers document no exception: any escaping one is a finding.

#include "FuzzSupport.h"
#include "collector/GpuPartitioning.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(radt::fuzz::asText(data, size));
    const radt::MigCreated created = radt::parseMigCreate(text);
    for (const auto& [ci, gi] : created.computeInstances)
        RADT_FUZZ_CHECK(ci >= 0 && gi >= 0, text);
    for (int gi : created.gpuInstances)
        RADT_FUZZ_CHECK(gi >= 0, text);
    for (const std::string& uuid : radt::parseMigUuids(text))
        RADT_FUZZ_CHECK(uuid.rfind("MIG-", 0) == 0 && uuid.size() > 4, uuid);
    return 0;
}
