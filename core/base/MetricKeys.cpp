#include "core/base/MetricKeys.h"

namespace radt {

const std::vector<ListenerKeys>& listenerKeys() {
    static const std::vector<ListenerKeys> all = {
        {"top", {"TOP - "}, {}},
        {"ps", {"PS - "}, {}},
        {"iostat", {"iostat - "}, {" - tps", " - MB read/s", " - MB written/s"}},
        {"net", {"NET - "}, {}},
        {"proc", {"PROC - "}, {}},
        {"rapl", {"RAPL - "}, {}},
        {"smi", {"SMI - "}, {}},
        {"dmon", {"DMON - "}, {}},
        {"dcgmi", {"DCGMI - "}, {}},
        {"tegrastats", {"TEGRA - "}, {}},
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

} // namespace radt
