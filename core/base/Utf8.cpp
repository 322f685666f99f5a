// SPDX-License-Identifier: MIT
#include "core/base/Utf8.h"

namespace radt {

size_t utf8SequenceLength(const std::string& text, size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80)
        return 1;
    const size_t len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k)
        ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
    if (ok && len == 3) { // no overlongs, no surrogates
        const auto c1 = static_cast<unsigned char>(text[i + 1]);
        ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
    } else if (ok && len == 4) { // no overlongs, nothing past U+10FFFF
        const auto c1 = static_cast<unsigned char>(text[i + 1]);
        ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
    }
    return ok ? len : 0;
}

} // namespace radt
