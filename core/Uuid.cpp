#include "Uuid.h"

#include <cctype>
#include <random>

namespace radt {

std::string newRunUuid() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    const uint64_t hi = rng(), lo = rng();
    unsigned char bytes[16];
    for (int i = 0; i < 8; ++i) {
        bytes[i] = static_cast<unsigned char>(hi >> (8 * i));
        bytes[8 + i] = static_cast<unsigned char>(lo >> (8 * i));
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(32);
    for (unsigned char b : bytes) {
        out.push_back(hex[b >> 4]);
        out.push_back(hex[b & 15]);
    }
    return out;
}

bool isRunUuid(const std::string& text) {
    if (text.size() != 32)
        return false;
    for (unsigned char c : text)
        if (!std::isxdigit(c))
            return false;
    return true;
}

} // namespace radt
