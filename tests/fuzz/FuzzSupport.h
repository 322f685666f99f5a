// SPDX-License-Identifier: MIT
#pragma once
// Shared by the libFuzzer harnesses: input splitting as production splits it, and a check that
// turns a broken promise of a parser into a crash libFuzzer records (a finding).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace radt::fuzz {

/// Prints what the parser got wrong and aborts, so the input is saved as a crash.
[[noreturn]] inline void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "FUZZ FINDING: %s: %s\n", what, detail.c_str());
    std::abort();
}

#define RADT_FUZZ_CHECK(condition, detail)                                                                   \
    do {                                                                                                     \
        if (!(condition))                                                                                    \
            ::radt::fuzz::fail(#condition, (detail));                                                        \
    } while (0)

inline std::string_view asText(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

/// Calls fn(line) for every line as ChildProcess hands a tool's output to a listener: split at
/// '\n', one trailing '\r' dropped, a last line without '\n' delivered too.
template <typename Fn> void forEachToolLine(std::string_view text, Fn fn) {
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string line(text.substr(0, end));
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        fn(line);
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
}

} // namespace radt::fuzz
