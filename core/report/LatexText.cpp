// SPDX-License-Identifier: MIT
#include "core/report/LatexText.h"

#include "core/base/Utf8.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace radt {

namespace {

struct CharacterInLatex {
    char32_t code;
    const char* latex;
};

// Every entry compiles under a plain \documentclass{article} in OT1 with Computer Modern's Type 1
// fonts (no TS1: without cm-super its glyphs are bitmaps): accents composed by TeX's own accent
// commands, symbols from math where text has no glyph.
// Sorted by code point. What is not here, and not ASCII, has no glyph there.
const CharacterInLatex kCharacters[] = {
    {0x00A0, "~"},
    {0x00A1, "\\textexclamdown{}"},
    {0x00A3, "\\ensuremath{\\mathsterling}"},
    {0x00A7, "\\ensuremath{\\S}"},
    {0x00A9, "(c)"}, // \copyright and \textregistered are TS1's
    {0x00AC, "\\ensuremath{\\neg}"},
    {0x00AE, "(R)"},
    {0x00B0, "\\ensuremath{^{\\circ}}"},
    {0x00B1, "\\ensuremath{\\pm}"},
    {0x00B2, "\\ensuremath{^{2}}"},
    {0x00B3, "\\ensuremath{^{3}}"},
    {0x00B5, "\\ensuremath{\\mu}"},
    {0x00B6, "\\ensuremath{\\P}"},
    {0x00B7, "\\ensuremath{\\cdot}"},
    {0x00B9, "\\ensuremath{^{1}}"},
    {0x00BF, "\\textquestiondown{}"},
    {0x00C0, "\\`{A}"},
    {0x00C1, "\\'{A}"},
    {0x00C2, "\\^{A}"},
    {0x00C3, "\\~{A}"},
    {0x00C4, "\\\"{A}"},
    {0x00C5, "\\AA{}"},
    {0x00C6, "\\AE{}"},
    {0x00C7, "\\c{C}"},
    {0x00C8, "\\`{E}"},
    {0x00C9, "\\'{E}"},
    {0x00CA, "\\^{E}"},
    {0x00CB, "\\\"{E}"},
    {0x00CC, "\\`{I}"},
    {0x00CD, "\\'{I}"},
    {0x00CE, "\\^{I}"},
    {0x00CF, "\\\"{I}"},
    {0x00D1, "\\~{N}"},
    {0x00D2, "\\`{O}"},
    {0x00D3, "\\'{O}"},
    {0x00D4, "\\^{O}"},
    {0x00D5, "\\~{O}"},
    {0x00D6, "\\\"{O}"},
    {0x00D7, "\\ensuremath{\\times}"},
    {0x00D8, "\\O{}"},
    {0x00D9, "\\`{U}"},
    {0x00DA, "\\'{U}"},
    {0x00DB, "\\^{U}"},
    {0x00DC, "\\\"{U}"},
    {0x00DD, "\\'{Y}"},
    {0x00DF, "\\ss{}"},
    {0x00E0, "\\`{a}"},
    {0x00E1, "\\'{a}"},
    {0x00E2, "\\^{a}"},
    {0x00E3, "\\~{a}"},
    {0x00E4, "\\\"{a}"},
    {0x00E5, "\\aa{}"},
    {0x00E6, "\\ae{}"},
    {0x00E7, "\\c{c}"},
    {0x00E8, "\\`{e}"},
    {0x00E9, "\\'{e}"},
    {0x00EA, "\\^{e}"},
    {0x00EB, "\\\"{e}"},
    {0x00EC, "\\`{\\i}"},
    {0x00ED, "\\'{\\i}"},
    {0x00EE, "\\^{\\i}"},
    {0x00EF, "\\\"{\\i}"},
    {0x00F1, "\\~{n}"},
    {0x00F2, "\\`{o}"},
    {0x00F3, "\\'{o}"},
    {0x00F4, "\\^{o}"},
    {0x00F5, "\\~{o}"},
    {0x00F6, "\\\"{o}"},
    {0x00F7, "\\ensuremath{\\div}"},
    {0x00F8, "\\o{}"},
    {0x00F9, "\\`{u}"},
    {0x00FA, "\\'{u}"},
    {0x00FB, "\\^{u}"},
    {0x00FC, "\\\"{u}"},
    {0x00FD, "\\'{y}"},
    {0x00FF, "\\\"{y}"},
    {0x0131, "\\i{}"},
    {0x0141, "\\L{}"},
    {0x0142, "\\l{}"},
    {0x0152, "\\OE{}"},
    {0x0153, "\\oe{}"},
    {0x0160, "\\v{S}"},
    {0x0161, "\\v{s}"},
    {0x017D, "\\v{Z}"},
    {0x017E, "\\v{z}"},
    {0x2013, "--"},  // an en dash as written: here the ligature is what was meant
    {0x2014, "---"}, // an em dash
    {0x2018, "`"},
    {0x2019, "'"},
    {0x201C, "``"},
    {0x201D, "''"},
    {0x2026, "\\dots{}"},
    {0x2212, "\\ensuremath{-}"},
};

// Greek (U+0391 to U+03C9) as math letters; the capitals that look Latin as Latin letters, since
// math has no glyph of its own for them. Empty: a code point Unicode leaves unassigned.
const char* const kGreek[] = {
    "A", "B", "\\Gamma", "\\Delta", "E", "Z", "H", "\\Theta", "I", "K", "\\Lambda", "M", "N", "\\Xi", "O",
    "\\Pi", "P", "", "\\Sigma", "T", "\\Upsilon", "\\Phi", "X", "\\Psi", "\\Omega",
    // U+03AA to U+03B0: accented capitals and tonos forms, not set here
    "", "", "", "", "", "", "",
    // U+03B1 to U+03C9
    "\\alpha", "\\beta", "\\gamma", "\\delta", "\\epsilon", "\\zeta", "\\eta", "\\theta", "\\iota", "\\kappa",
    "\\lambda", "\\mu", "\\nu", "\\xi", "o", "\\pi", "\\rho", "\\varsigma", "\\sigma", "\\tau", "\\upsilon",
    "\\phi", "\\chi", "\\psi", "\\omega"};

/// A non-ASCII character as LaTeX; "" where plain pdflatex has no glyph for it.
std::string nonAsciiInLatex(char32_t code) {
    if (code >= 0x0391 && code <= 0x03C9) {
        const std::string letter = kGreek[code - 0x0391];
        if (letter.empty())
            return {};
        return letter[0] == '\\' ? "\\ensuremath{" + letter + "}" : letter;
    }
    const auto* const at = std::lower_bound(std::begin(kCharacters), std::end(kCharacters), code,
                                            [](const CharacterInLatex& c, char32_t v) { return c.code < v; });
    return at != std::end(kCharacters) && at->code == code ? at->latex : std::string();
}

/// An ASCII character as LaTeX text that prints as it is in OT1, the font encoding of a plain
/// article: there `<`, `>` and `|` are other glyphs and quotes form ligatures.
std::string asciiInLatex(char c) {
    switch (c) {
    case '\\':
        return "\\textbackslash{}";
    case '~':
        return "\\textasciitilde{}";
    case '^':
        return "\\textasciicircum{}";
    case '<':
        return "\\textless{}";
    case '>':
        return "\\textgreater{}";
    case '|':
        return "\\textbar{}";
    // OT1's text fonts have no straight quotes and make ligatures of '' and ``; its typewriter
    // font has them (TS1's \textquotesingle would be a bitmap font where cm-super is missing).
    case '"':
        return "{\\ttfamily\\char34}";
    case '\'':
        return "{\\ttfamily\\char13}";
    case '`':
        return "{\\ttfamily\\char18}";
    case '&':
    case '%':
    case '$':
    case '#':
    case '_':
    case '{':
    case '}':
        return std::string("\\") + c;
    default:
        return std::string(1, c);
    }
}

std::string hexByte(unsigned value) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "0x%02x", value & 0xFFu);
    return buffer;
}

std::string codePointName(char32_t code) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "U+%04X", unsigned(code));
    return buffer;
}

} // namespace

std::string latexText(const std::string& text, LatexTextLosses& losses) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const size_t length = utf8SequenceLength(text, i);
        if (length == 0) {
            losses.invalidBytes.insert(byte);
            ++i;
            continue;
        }
        if (byte < 0x20 || byte == 0x7F) {
            losses.controlBytes.insert(byte);
        } else if (byte == '-') {
            out += '-';
            if (i + 1 < text.size() && text[i + 1] == '-')
                out += "{}"; // "--" and "---" are dashes in TeX: each hyphen printed as typed
        } else if (length == 1) {
            out += asciiInLatex(char(byte));
        } else {
            const char32_t code = utf8CodePointAt(text, i, length);
            const std::string latex = nonAsciiInLatex(code);
            if (latex.empty()) {
                losses.unsetCharacters.insert(code);
                out += "{[}" + codePointName(code) + "{]}";
            } else {
                out += latex;
            }
        }
        i += length;
    }
    return out;
}

std::string latexLossComments(const LatexTextLosses& losses, const std::string& where) {
    std::string out;
    auto line = [&](const std::string& what, const std::string& list) {
        if (!list.empty())
            out += "% " + where + ": " + what + ":" + list + "\n";
    };
    std::string control, invalid, unset;
    for (const unsigned char b : losses.controlBytes)
        control += " " + hexByte(b);
    for (const unsigned char b : losses.invalidBytes)
        invalid += " " + hexByte(b);
    for (const char32_t c : losses.unsetCharacters)
        unset += " " + codePointName(c);
    line("control bytes dropped (they print nothing)", control);
    line("bytes that are not UTF-8 dropped", invalid);
    line("characters with no glyph in plain pdflatex written as [U+XXXX]", unset);
    return out;
}

} // namespace radt
