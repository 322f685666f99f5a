// SPDX-License-Identifier: MIT
#pragma once
// Text from outside (a run's param names and values) as LaTeX that compiles with a plain
// \documentclass{article} and pdflatex, and prints as it was written: no OT1 glyph
// swaps (`<` printed as ¡), no ligatures (`--` printed as an en dash), no "Unicode character not
// set up" stop. What cannot be printed is said, never silently lost.

#include <set>
#include <string>

namespace radt {

/// What latexText() could not print as written, for the table's comment lines.
struct LatexTextLosses {
    std::set<unsigned char> controlBytes; ///< dropped: they have no glyph
    std::set<unsigned char> invalidBytes; ///< dropped: not UTF-8
    std::set<char32_t> unsetCharacters;   ///< no glyph in plain pdflatex: written as [U+XXXX]
    bool empty() const { return controlBytes.empty() && invalidBytes.empty() && unsetCharacters.empty(); }
};

/// `text` (UTF-8) as LaTeX text: TeX's special characters and the OT1 swaps (< > | " ' `) escaped,
/// runs of '-' broken (-{}-), Latin-1 letters as accent commands, Greek as math letters; control
/// bytes and bytes that are not UTF-8 dropped, characters without a glyph in plain pdflatex (CJK,
/// emoji, ...) written as [U+XXXX]; each recorded in `losses`.
std::string latexText(const std::string& text, LatexTextLosses& losses);

/// One "% <where>: ..." line per kind of loss, naming the bytes and characters; "" without any.
/// The lines are ASCII, whatever the text was.
std::string latexLossComments(const LatexTextLosses& losses, const std::string& where);

} // namespace radt
