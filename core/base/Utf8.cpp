// SPDX-License-Identifier: MIT
#include "core/base/Utf8.h"

#include <cstdio>

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

char32_t utf8CodePointAt(const std::string& text, size_t i, size_t length) {
    const auto byte = [&](size_t k) { return char32_t(static_cast<unsigned char>(text[i + k])); };
    if (length == 1)
        return byte(0);
    char32_t code = byte(0) & (0xFF >> (length + 1));
    for (size_t k = 1; k < length; ++k)
        code = (code << 6) | (byte(k) & 0x3F);
    return code;
}

namespace {

/// Characters that change how the text around them reads without showing themselves: C0 and C1
/// controls, and the bidirectional marks, embeddings, overrides and isolates.
bool hidesItself(char32_t cp) {
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp == 0x061c || cp == 0x200e ||
           cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

} // namespace

std::string escapedForDisplay(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    char code[16];
    for (size_t i = 0; i < text.size();) {
        const size_t length = utf8SequenceLength(text, i);
        if (length == 0) { // a stray byte
            std::snprintf(code, sizeof code, "\\x%02x", static_cast<unsigned char>(text[i]));
            out += code;
            ++i;
            continue;
        }
        if (const char32_t cp = utf8CodePointAt(text, i, length); hidesItself(cp)) {
            std::snprintf(code, sizeof code, cp < 0x80 ? "\\x%02x" : "\\u%04x", unsigned(cp));
            out += code;
        } else {
            out.append(text, i, length);
        }
        i += length;
    }
    return out;
}

} // namespace radt
