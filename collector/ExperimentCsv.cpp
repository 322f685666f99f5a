// SPDX-License-Identifier: MIT
#include "collector/ExperimentCsv.h"

#include "collector/listeners/ListenerTable.h"
#include "core/base/AtomicFile.h"
#include "core/base/TextFormat.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace radt {

namespace fs = std::filesystem;

CsvError::CsvError(const std::string& path, int line, int column, const std::string& message)
    : std::runtime_error(path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
      m_path(path), m_line(line), m_column(column), m_message(message) {}

namespace {

// The columns radT's scheduler reads, in its order. Other columns are refused rather than carried
// along: radT itself would not keep them, and a misspelt "Colocation" must not silently mean "-".
const std::vector<std::string>& columnNames() {
    static const std::vector<std::string> names = {"Experiment",  "Workload", "Status",    "Run",   "Devices",
                                                   "Collocation", "File",     "Listeners", "Params"};
    return names;
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : separator) + p;
    return out;
}

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

std::string trimmed(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && isBlank(s[b]))
        ++b;
    while (e > b && isBlank(s[e - 1]))
        --e;
    return s.substr(b, e - b);
}

/// "Col location" and "col location " name the same column: header cells compare without case and spaces.
std::string headerKey(const std::string& s) {
    std::string out;
    for (char c : s)
        if (!isBlank(c))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// Length of the valid UTF-8 sequence starting at text[i], 0 when it is not one (overlong forms,
/// surrogates and code points past U+10FFFF included). NUL counts as invalid too: a cell holding
/// one would be cut short when it becomes an argv entry.
size_t utf8Length(const std::string& text, size_t i) {
    const auto at = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
    const unsigned c = at(i);
    if (c > 0 && c < 0x80)
        return 1;
    // Lead byte -> length, and the range the second byte may take (the RFC 3629 table).
    const size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    const unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    const unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (n == 0 || at(i + 1) < lo || at(i + 1) > hi)
        return 0;
    for (size_t k = 2; k < n; ++k)
        if (at(i + k) < 0x80 || at(i + k) > 0xBF)
            return 0;
    return n;
}

struct Record {
    int line = 0;
    std::vector<std::string> cells; ///< trimmed
    bool blank = false;             ///< a line holding nothing but spaces: skipped, as radT's reader does
};

/// RFC 4180 records with radT's padding: a cell is quoted when its first non-blank character is
/// '"'; a quote inside an unquoted cell is kept as written (Params like --name "a b" stay readable
/// without doubling). Bytes are checked as UTF-8 while scanning, so the first bad byte is reported
/// with the line and cell it sits in.
std::vector<Record> tokenize(const std::string& path, const std::string& text, size_t start) {
    std::vector<Record> records;
    const size_t n = text.size();
    size_t i = start;
    int line = 1;
    while (i < n) {
        Record record;
        record.line = line;
        bool quotedAny = false;
        for (bool more = true; more;) {
            const int column = static_cast<int>(record.cells.size()) + 1;
            std::string cell;
            auto take = [&]() {
                const size_t len = utf8Length(text, i);
                if (len == 0) {
                    char hex[8];
                    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[i]));
                    throw CsvError(path, line, column,
                                   std::string("not valid UTF-8 text: byte ") + hex +
                                       " (expected a UTF-8 encoded file; re-save it as UTF-8)");
                }
                if (text[i] == '\n')
                    ++line;
                cell.append(text, i, len);
                i += len;
            };
            size_t j = i;
            while (j < n && (text[j] == ' ' || text[j] == '\t'))
                ++j;
            if (j < n && text[j] == '"') {
                quotedAny = true;
                const int openLine = line;
                i = j + 1;
                for (;;) {
                    if (i >= n)
                        throw CsvError(path, openLine, column,
                                       "unterminated quoted cell: expected a closing '\"' before the end of "
                                       "the file (write a quote inside a quoted cell as \"\")");
                    if (text[i] != '"')
                        take();
                    else if (i + 1 < n && text[i + 1] == '"')
                        cell += '"', i += 2; // "" is one quote
                    else
                        break;
                }
                ++i; // the closing quote
                while (i < n && isBlank(text[i]))
                    ++i;
                if (i < n && text[i] != ',' && text[i] != '\n')
                    throw CsvError(
                        path, line, column,
                        "unexpected text after the closing quote of a quoted cell: expected ',' or the "
                        "end of the line (quote the whole cell and write inner quotes as \"\")");
            } else {
                while (i < n && text[i] != ',' && text[i] != '\n')
                    take();
            }
            record.cells.push_back(trimmed(cell));
            more = i < n && text[i] == ',';
            if (i < n && !more) // '\n'
                ++line;
            if (i < n)
                ++i;
        }
        record.blank = !quotedAny && record.cells.size() == 1 && record.cells[0].empty();
        records.push_back(std::move(record));
    }
    return records;
}

std::string readWhole(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw CsvError(path, 0, 0,
                       "cannot read the experiment file: it is a directory (expected a CSV file)");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in)
        text << in.rdbuf();
    if (!in || in.bad())
        throw CsvError(path, 0, 0, std::string("cannot read the experiment file: ") + std::strerror(errno));
    return text.str();
}

bool allDigits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isDevices(const std::string& s) {
    static const std::regex devices("^[0-9]+(\\+[0-9]+)*$");
    return std::regex_match(s, devices);
}

bool isRunUuid(const std::string& s) {
    static const std::regex uuid("^[0-9a-f]{32}$");
    return std::regex_match(s, uuid);
}

/// POSIX shell word splitting without expansions: the script is executed without a shell, so
/// quotes and backslashes must be resolved here as the user's shell habits expect. Returns what is
/// wrong (an unterminated quote, a trailing backslash), or "" when the text splits.
std::string shellSplit(const std::string& text, std::vector<std::string>& out) {
    std::string word;
    bool inWord = false;
    for (size_t i = 0, n = text.size(); i < n; ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            if (inWord)
                out.push_back(word);
            word.clear();
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == '\\') {
            if (++i >= n)
                return "it ends with a backslash that escapes nothing";
            word += text[i];
        } else if (c == '\'') {
            const size_t close = text.find('\'', i + 1);
            if (close == std::string::npos)
                return "unterminated single quote";
            word.append(text, i + 1, close - i - 1);
            i = close;
        } else if (c == '"') {
            // Inside double quotes a backslash escapes only $ ` " \ and newline (POSIX 2.2.3).
            for (++i; i < n && text[i] != '"'; ++i) {
                if (text[i] == '\\' && i + 1 < n && std::strchr("$`\"\\\n", text[i + 1]))
                    ++i;
                word += text[i];
            }
            if (i >= n)
                return "unterminated double quote";
        } else
            word += c;
    }
    if (inWord)
        out.push_back(word);
    return "";
}

/// radT's older "batch-size=128 lr=0.1" becomes "--batch-size 128 --lr 0.1"; anything with a
/// token starting with '-' or without '=' is taken as already being the script's arguments.
std::vector<std::string> radtParams(const std::vector<std::string>& tokens) {
    std::vector<std::string> out;
    for (const auto& t : tokens) {
        const size_t eq = t.find('=');
        if (eq == std::string::npos || eq == 0 || t[0] == '-')
            return tokens;
        out.push_back("--" + t.substr(0, eq));
        out.push_back(t.substr(eq + 1));
    }
    return out;
}

std::string resolveScript(const std::string& csvPath, int line, int column, const std::string& file) {
    const fs::path written(file);
    std::error_code ec;
    std::vector<fs::path> candidates = {fs::absolute(written, ec)}; // as written, from the current directory
    if (!written.is_absolute())
        candidates.push_back(fs::absolute(fs::path(csvPath), ec).parent_path() / written);
    std::vector<std::string> tried;
    for (const auto& c : candidates) {
        const fs::path normal = c.lexically_normal();
        if (fs::is_regular_file(normal, ec))
            return normal.string();
        if (std::find(tried.begin(), tried.end(), normal.string()) == tried.end())
            tried.push_back(normal.string());
    }
    throw CsvError(csvPath, line, column,
                   "script '" + file + "' not found (tried " + joined(tried, ", ") +
                       "; expected a file relative to the current directory or to the CSV's directory)");
}

std::string* field(ExperimentRow& r, const std::string& column) {
    std::string* const cells[] = {&r.experiment,  &r.workload, &r.status,    &r.run,      &r.devices,
                                  &r.collocation, &r.file,     &r.listeners, &r.rawParams};
    const auto& names = columnNames(); // same order
    const auto it = std::find(names.begin(), names.end(), column);
    return it == names.end() ? nullptr : cells[it - names.begin()];
}

/// Checks one cell (already stored in `row`) of column `name`; the File column also resolves.
void validateCell(const std::string& path, ExperimentRow& row, int column, const std::string& name) {
    auto fail = [&](const std::string& message) { throw CsvError(path, row.line, column, message); };
    if (name == "Experiment" && row.experiment.empty())
        fail("empty Experiment cell: expected an experiment id or name");
    else if (name == "Workload" && row.workload.empty())
        fail("empty Workload cell: expected a whole number such as 1 or 2");
    else if (name == "Workload" && !allDigits(row.workload))
        fail("Workload '" + row.workload + "' is not a whole number: expected e.g. 1 or 2");
    else if (name == "Run" && !row.run.empty() && !isRunUuid(row.run))
        fail("Run '" + row.run + "' is not a run id: expected an empty cell or 32 lowercase hex characters");
    else if (name == "Devices" && !isDevices(row.devices))
        fail("Devices '" + row.devices +
             "' is not a device list: expected GPU indices joined by '+', like 0 or 0+1");
    else if (name == "Collocation") {
        if (row.collocation.empty())
            row.collocation = "-";
        if (row.collocation != "-" && row.collocation != "MPS" && !isMigProfile(row.collocation))
            fail("unknown Collocation '" + row.collocation +
                 "': expected '-' (or empty), 'MPS', or a MIG profile like 1g.5gb or 3g.20gb");
    } else if (name == "File") {
        if (row.file.empty())
            fail("empty File cell: expected the script to run, e.g. train.py");
        row.scriptPath = resolveScript(path, row.line, column, row.file);
    } else if (name == "Listeners") {
        try {
            parseListeners(row.listeners);
        } catch (const std::invalid_argument& e) {
            fail(std::string(e.what()) + "; expected listener names joined by '+', like smi+top");
        }
    } else if (name == "Params") {
        std::vector<std::string> tokens;
        const std::string why = shellSplit(row.rawParams, tokens);
        if (!why.empty())
            fail("Params cannot be split into arguments: " + why +
                 " (expected shell-style words, e.g. --batch-size 128 --name 'a b')");
        row.params = radtParams(tokens);
    }
}

std::vector<std::string> parseHeader(const std::string& path, const Record& record) {
    const auto& names = columnNames();
    std::vector<std::string> keys, missing, header;
    for (const auto& cell : record.cells)
        keys.push_back(headerKey(cell));
    for (const auto& name : names)
        if (std::find(keys.begin(), keys.end(), headerKey(name)) == keys.end())
            missing.push_back(name);
    const std::string expected = "expected the columns " + joined(names, ",");
    for (size_t c = 0; c < keys.size(); ++c) {
        const auto known =
            std::find_if(names.begin(), names.end(), [&](auto& n) { return headerKey(n) == keys[c]; });
        const int column = static_cast<int>(c) + 1;
        if (known == names.end())
            throw CsvError(path, record.line, column,
                           "unknown header column '" + record.cells[c] + "': " + expected +
                               (missing.empty() ? "" : " (missing: " + joined(missing, ", ") + ")"));
        if (std::find(header.begin(), header.end(), *known) != header.end())
            throw CsvError(path, record.line, column,
                           "duplicate header column '" + record.cells[c] + "': " + expected + ", each once");
        header.push_back(*known);
    }
    if (!missing.empty())
        throw CsvError(path, record.line, static_cast<int>(header.size()) + 1,
                       "header is missing the column" + std::string(missing.size() > 1 ? "s " : " ") +
                           joined(missing, ", ") + ": " + expected);
    return header;
}

std::string csvCell(const std::string& raw) {
    return csvField(trimmed(raw));
}

std::string excelLetters(size_t index) {
    std::string out;
    for (size_t k = index + 1; k > 0; k = (k - 1) / 26)
        out.insert(out.begin(), static_cast<char>('A' + (k - 1) % 26));
    return out;
}

} // namespace

bool isMigProfile(const std::string& collocation) {
    // [<c>c.]<g>g.<mem>gb, optionally with a media-extension / graphics suffix (+me, +gfx, -me, +me.all).
    static const std::regex profile(
        R"(^([1-9][0-9]*c\.)?[1-9][0-9]*g\.[1-9][0-9]*gb(\+me|\+gfx|-me|\+me\.all)?$)");
    return std::regex_match(collocation, profile);
}

ExperimentFile readExperimentCsv(const std::string& path) {
    const std::string text = readWhole(path);
    // Spreadsheet programs save UTF-8 CSV with a byte order mark; radT's pandas reader skips it too.
    const size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    const std::vector<Record> records = tokenize(path, text, start);
    auto next = records.begin();
    while (next != records.end() && next->blank)
        ++next;
    if (next == records.end())
        throw CsvError(path, 1, 1,
                       "empty experiment file: expected the header line " + joined(columnNames(), ","));

    ExperimentFile file;
    file.path = path;
    file.header = parseHeader(path, *next);
    for (++next; next != records.end(); ++next) {
        if (next->blank)
            continue;
        const size_t cells = next->cells.size();
        if (cells != file.header.size())
            throw CsvError(path, next->line, static_cast<int>(std::min(cells, file.header.size())) + 1,
                           "row has " + std::to_string(cells) + " cells: expected " +
                               std::to_string(file.header.size()) + ", one per header column (" +
                               joined(file.header, ",") + "); quote cells that contain a comma");
        ExperimentRow row;
        row.line = next->line;
        for (size_t c = 0; c < cells; ++c)
            *field(row, file.header[c]) = next->cells[c];
        for (size_t c = 0; c < cells; ++c)
            validateCell(path, row, static_cast<int>(c) + 1, file.header[c]);
        file.rows.push_back(std::move(row));
    }
    return file;
}

void writeExperimentCsv(const ExperimentFile& file) {
    auto failure = [&](const std::string& what, int err) {
        return std::runtime_error("cannot write the experiment file " + file.path + ": " + what +
                                  (err ? std::string(": ") + std::strerror(err) : std::string()));
    };
    std::string text = joined(file.header, ",") + "\n";
    for (ExperimentRow row : file.rows) { // a copy: field() hands out mutable cells
        for (size_t c = 0; c < file.header.size(); ++c) {
            const std::string* cell = field(row, file.header[c]);
            if (!cell)
                throw failure("unknown column '" + file.header[c] + "'", 0);
            text += (c ? "," : "") + csvCell(*cell);
        }
        text += "\n";
    }

    try {
        writeFileAtomically(file.path, text);
    } catch (const AtomicFileError& e) {
        throw failure(e.detail(), 0);
    }
}

std::vector<std::string> workloadLetters(const std::vector<const ExperimentRow*>& rows) {
    std::map<std::string, size_t> total, seen;
    for (const auto* r : rows)
        ++total[r->devices];
    std::vector<std::string> out;
    for (const auto* r : rows) {
        std::string letter = r->devices;
        if (total[r->devices] > 1)
            letter += "_" + excelLetters(seen[r->devices]++);
        if (r->collocation != "-" && !r->collocation.empty())
            letter += "_" + r->collocation;
        out.push_back(letter);
    }
    return out;
}

std::string splitShellWords(const std::string& text, std::vector<std::string>& out) {
    return shellSplit(text, out);
}

} // namespace radt
