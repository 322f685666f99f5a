// SPDX-License-Identifier: MIT
#pragma once
// UTF-8 as text from outside arrives: possibly broken. One rule of what is well formed for every
// writer that must tell a character from a stray byte (a terminal excerpt, a LaTeX table).

#include <string>

namespace radt {

/// The length in bytes of the well-formed UTF-8 sequence that starts at text[i] (1 for ASCII,
/// control bytes included); 0 where none starts there (a stray, overlong or surrogate byte).
size_t utf8SequenceLength(const std::string& text, size_t i);

} // namespace radt
