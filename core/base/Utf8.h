// SPDX-License-Identifier: MIT
#pragma once
// UTF-8 as text from outside arrives: possibly broken. One rule of what is well formed for every
// writer that must tell a character from a stray byte (a terminal excerpt, a LaTeX table).

#include <string>

namespace radt {

/// The length in bytes of the well-formed UTF-8 sequence that starts at text[i] (1 for ASCII,
/// control bytes included); 0 where none starts there (a stray, overlong or surrogate byte).
size_t utf8SequenceLength(const std::string& text, size_t i);

/// The code point of the well-formed sequence of `length` bytes (utf8SequenceLength) at text[i].
char32_t utf8CodePointAt(const std::string& text, size_t i, size_t length);

/// `text` as a person may safely read it: control characters and the bidirectional overrides,
/// embeddings, isolates and marks written as escapes ("invoice\u202egpj.desktop" shows what it is,
/// not "invoicepotksed.jpg"), stray bytes as "\xe9"; everything else as it is.
std::string escapedForDisplay(const std::string& text);

} // namespace radt
