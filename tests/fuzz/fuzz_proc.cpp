// SPDX-License-Identifier: MIT
// The /proc parsers over one whole file's text, as ProcSampler reads each file with
// readSmallFile() and hands it over. Every parser sees every input: each must ignore what is not
// its format without crashing.

#include "FuzzSupport.h"
#include "collector/listeners/ProcParsers.h"
#include "core/store/MlflowLimits.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(radt::fuzz::asText(data, size));

    if (const auto cpu = radt::parseProcStatCpu(text)) {
        if (const auto pct = radt::cpuUtilizationPercent(radt::CpuTimes{}, *cpu))
            RADT_FUZZ_CHECK(std::isfinite(*pct) && *pct >= 0 && *pct <= 100, std::to_string(*pct));
    }
    if (const auto mem = radt::parseMeminfo(text))
        RADT_FUZZ_CHECK(mem->availableKb <= mem->totalKb, text); // ProcSampler subtracts them
    (void)radt::parseProcPidStat(text);
    (void)radt::parseLoadavgLastPid(text);

    size_t skipped = 0;
    const std::vector<radt::DiskStat> disks = radt::parseDiskstats(text, &skipped);
    for (const radt::DiskStat& d : disks) {
        RADT_FUZZ_CHECK(!d.name.empty(), text);
        (void)radt::isPartition(d.name, disks);
        RADT_FUZZ_CHECK(radt::mlflow::isValidKey(radt::metricKeyPart(d.name) + " - tps"), d.name);
    }
    for (const radt::NetDevStat& n : radt::parseNetDev(text, &skipped))
        RADT_FUZZ_CHECK(radt::mlflow::isValidKey("NET - " + radt::metricKeyPart(n.iface) + " RX MB/s"),
                        n.iface);
    return 0;
}
