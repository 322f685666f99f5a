#include "TextFormat.h"

#include <cstdio>
#include <ctime>

namespace radt {

std::string formatDuration(int64_t ms) {
    if (ms < 0)
        ms = 0;
    char buf[48];
    const long long s = ms / 1000;
    if (ms < 1000)
        std::snprintf(buf, sizeof buf, "%lldms", static_cast<long long>(ms));
    else if (s < 60)
        std::snprintf(buf, sizeof buf, "%llds", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%lldm %02llds", s / 60, s % 60);
    else if (s < 86400)
        std::snprintf(buf, sizeof buf, "%lldh %02lldm", s / 3600, s % 3600 / 60);
    else
        std::snprintf(buf, sizeof buf, "%lldd %02lldh", s / 86400, s % 86400 / 3600);
    return buf;
}

std::string formatLocalTime(int64_t msSinceEpoch) {
    const std::time_t t = static_cast<std::time_t>(msSinceEpoch / 1000);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

} // namespace radt
