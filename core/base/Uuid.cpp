// SPDX-License-Identifier: MIT
#include "core/base/Uuid.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <sys/random.h>

namespace radt {

std::string newRunUuid() {
    // 122 random bits straight from the kernel for every id, as Python's uuid4() does, rather
    // than a generator seeded with one 32-bit value: ids from many collectors writing into one
    // shared store must not collide, and a forked process must not repeat its parent's ids.
    unsigned char bytes[16];
    size_t got = 0;
    while (got < sizeof bytes) {
        const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error(std::string("cannot make a run id: getrandom failed: ") +
                                     std::strerror(errno));
        got += static_cast<size_t>(n);
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
