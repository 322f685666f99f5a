#pragma once
// The metric keys each listener writes (resources/DESIGN.md §5), in one place: the collector's
// listener table and the analyses (which samples are hardware, which a script's own metrics) both
// read it. A new listener adds its row here.

#include <string>
#include <vector>

namespace radt {

struct ListenerKeys {
    const char* listener;              ///< its -l name
    std::vector<std::string> prefixes; ///< "SMI - "
    std::vector<std::string> suffixes; ///< iostat's per-device "<dev> - tps"
};

const std::vector<ListenerKeys>& listenerKeys();
/// The row of the listener that writes `key`; nullptr for a script's own metric.
const ListenerKeys* listenerOfKey(const std::string& key);

} // namespace radt
