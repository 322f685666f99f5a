// SPDX-License-Identifier: MIT
#include "core/base/TextFormat.h"

#include "core/base/Utf8.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace radt {

std::string formatFixed(double value, int decimals) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << value;
    return s.str();
}

int intervalDecimals(double halfWidth, int fallback) {
    const double h = std::fabs(halfWidth);
    if (!std::isfinite(h) || h == 0)
        return fallback;
    // Two significant digits: 53 for 52.62; rounding can carry (0.0996 -> 0.10), so look again.
    int decimals = std::clamp(1 - int(std::floor(std::log10(h))), 0, 9);
    const double scale = std::pow(10.0, decimals);
    if (decimals > 0 && std::round(h * scale) >= 100)
        --decimals;
    return decimals;
}

int ratioDecimals(double low, double high) {
    return std::min(intervalDecimals((high - low) / 2, 2), 3);
}

std::string formatMeanPlusMinus(double mean, double halfWidth, int fallbackDecimals) {
    const int decimals = intervalDecimals(halfWidth, fallbackDecimals);
    return formatFixed(mean, decimals) + " ± " + formatFixed(halfWidth, decimals);
}

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

std::string formatElapsed(int64_t ms) {
    const char* sign = ms < 0 ? "-" : "";
    const long long a = ms < 0 ? -static_cast<long long>(ms) : ms;
    char buf[64];
    if (a < 60000)
        std::snprintf(buf, sizeof buf, "%s%.1f s", sign, double(a) / 1000.0);
    else {
        const long long s = (a + 500) / 1000;
        if (s < 3600)
            std::snprintf(buf, sizeof buf, "%s%lld m %02lld s", sign, s / 60, s % 60);
        else
            std::snprintf(buf, sizeof buf, "%s%lld h %02lld m %02lld s", sign, s / 3600, s % 3600 / 60,
                          s % 60);
    }
    return buf;
}

std::string formatReading(double value) {
    char buf[64];
    if (!std::isfinite(value) || std::fabs(value) < 9999.5 || std::fabs(value) >= 1e15) {
        std::snprintf(buf, sizeof buf, "%.4g", value);
        return buf;
    }
    // Whole numbers with thousands separators: 1234567 reads better than 1.235e+06.
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(value));
    std::string digits = buf, out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return (value < 0 ? "-" : "") + out;
}

std::string formatLocalTime(int64_t msSinceEpoch) {
    const std::time_t t = static_cast<std::time_t>(msSinceEpoch / 1000);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

std::string printableExcerpt(const std::string& text, size_t maxBytes) {
    std::string out;
    auto escape = [&out](unsigned char c) {
        static const char* hex = "0123456789abcdef";
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    size_t i = 0;
    while (i < text.size() && out.size() < maxBytes) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) {
            escape(c);
            ++i;
            continue;
        }
        if (c < 0x80) {
            out += char(c);
            ++i;
            continue;
        }
        const size_t len = utf8SequenceLength(text, i); // a well-formed sequence stays
        if (len > 0) {
            out.append(text, i, len);
            i += len;
        } else {
            escape(c);
            ++i;
        }
    }
    if (i < text.size())
        out += "...";
    return out;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char ch : text) {
        if (ch == '"')
            out += '"';
        out += ch;
    }
    out += '"';
    return out;
}

int64_t parseUtcDate(const std::string& text) {
    std::tm tm{};
    const char* end = strptime(text.c_str(), "%Y-%m-%d", &tm);
    if (end && (*end == 'T' || *end == ' '))
        end = strptime(end + 1, "%H:%M:%S", &tm);
    const int day = tm.tm_mday, month = tm.tm_mon;
    const std::time_t seconds = end && !*end ? timegm(&tm) : 0;
    // strptime takes 2026-02-30, which timegm makes March 2: a day that does not exist is refused.
    std::tm back{};
    if (!end || *end || !gmtime_r(&seconds, &back) || back.tm_mday != day || back.tm_mon != month)
        throw std::invalid_argument(
            "--before expects a date, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UTC), got '" + text + "'");
    return int64_t(seconds) * 1000;
}

} // namespace radt
