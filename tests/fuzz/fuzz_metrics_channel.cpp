// SPDX-License-Identifier: MIT
// Lines a workload writes to RADT_METRICS_FD, split and dispatched as MetricsChannel's reader
// does (at '\n' only, blank lines skipped). A malformed line must be refused with a reason,
// never throw, and what is accepted must be storable: the store rejects a whole batch otherwise.

#include "FuzzSupport.h"
#include "collector/MetricsChannel.h"
#include "core/store/MlflowLimits.h"

namespace {

void checkKey(const std::string& key) {
    RADT_FUZZ_CHECK(
        !key.empty() && key.size() <= radt::mlflow::kMaxKeyLength && radt::mlflow::isValidKey(key), key);
}

radt::ChannelHandlers checkingHandlers() {
    radt::ChannelHandlers h;
    h.metric = [](radt::MetricPoint&& p) {
        checkKey(p.key);
        RADT_FUZZ_CHECK(p.timestamp > 0, p.key);
    };
    h.param = [](const std::string& key, const std::string& value) {
        checkKey(key);
        RADT_FUZZ_CHECK(value.size() <= radt::mlflow::kMaxParamValueLength, key);
    };
    h.tag = [](const std::string& key, const std::string& value) {
        checkKey(key);
        RADT_FUZZ_CHECK(value.size() <= radt::mlflow::kMaxTagValueLength, key);
    };
    h.artifact = [](const std::string& path) { RADT_FUZZ_CHECK(!path.empty(), path); };
    h.control = [](const std::string& c) { RADT_FUZZ_CHECK(c == "start" || c == "stop", c); };
    return h;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const radt::ChannelHandlers handlers = checkingHandlers();
    std::string_view text = radt::fuzz::asText(data, size);
    while (!text.empty()) {
        const size_t end = text.find('\n');
        const std::string line(text.substr(0, end));
        if (line.find_first_not_of(" \t\r") != std::string::npos) {
            std::string error;
            if (!radt::dispatchChannelLine(line, handlers, 1700000000000, error))
                RADT_FUZZ_CHECK(!error.empty(), line);
        }
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return 0;
}
