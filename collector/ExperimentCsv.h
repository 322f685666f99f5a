// SPDX-License-Identifier: MIT
#pragma once
// radT's experiment file (resources/DESIGN.md §6): one row per run, rows with the same (Experiment, Workload)
// run together. Read and validated completely before anything runs, so a typo in row 40 is
// reported before row 1 has started a GPU job; written back atomically after each workload so an
// interrupted experiment resumes where it stopped.

#include <stdexcept>
#include <string>
#include <vector>

namespace radt {

/// A bad experiment file: what() is "<path>:<line>:<column>: <what is wrong, and what was expected>".
class CsvError : public std::runtime_error {
public:
    CsvError(const std::string& path, int line, int column, const std::string& message);
    const std::string& path() const { return m_path; }
    int line() const { return m_line; }
    int column() const { return m_column; }
    /// The message without the "<path>:<line>:<column>: " prefix.
    const std::string& message() const { return m_message; }

private:
    std::string m_path;
    int m_line;
    int m_column;
    std::string m_message;
};

struct ExperimentRow {
    int line = 0;           ///< 1-based line of the row in the file
    std::string experiment; ///< trimmed cell: an experiment id or name
    std::string workload;   ///< a whole number
    std::string status;     ///< "" or e.g. "FINISHED (2 0_A_MPS) train.py (0_A_MPS)"
    std::string run;        ///< "" or a run uuid (32 lowercase hex characters)
    std::string devices;    ///< "0" or "0+1"
    /// "-" (empty cells become "-"), "MPS", or a MIG profile such as "1g.5gb", "3g.20gb", "1c.3g.40gb"
    std::string collocation;
    std::string file; ///< the script as written in the cell
    /// Resolved: as written if it exists relative to the current directory, else relative to the
    /// CSV's directory; absolute.
    std::string scriptPath;
    std::string listeners; ///< "smi+top" (may be empty: no listeners)
    std::string rawParams; ///< the Params cell as written (trimmed)
    /// Split like a POSIX shell (single/double quotes, backslash escapes); radT's older style
    /// "batch-size=128 lr=0.1" (no token starts with '-', every token has '=') becomes
    /// {"--batch-size","128","--lr","0.1"}.
    std::vector<std::string> params;
};

struct ExperimentFile {
    std::string path;
    std::vector<std::string> header; ///< column names in file order, spelt as radT does ("Experiment", ...)
    std::vector<ExperimentRow> rows; ///< in file order
};

/// Reads and validates the whole file; throws CsvError for the first problem, naming line and column
/// (1-based; column = the cell's 1-based index in the row, i.e. the CSV column number; 0:0 when the
/// file cannot be read). Nothing is run or written.
/// POSIX shell word splitting without expansions (quotes, backslashes), as the Params column
/// uses; the GUI's argument field too. Returns "" or what is wrong (an unterminated quote).
std::string splitShellWords(const std::string& text, std::vector<std::string>& out);

ExperimentFile readExperimentCsv(const std::string& path);

/// Writes `file` back (Status and Run as now in rows) atomically: temp file in the same directory +
/// fsync + rename, keeping the file's permissions (through a symlink, the target is replaced).
/// Cells are written trimmed, quoted (RFC 4180 style) only when they hold a comma, quote or newline;
/// lines end in '\n'. Throws std::runtime_error naming the path on failure (the original stays
/// untouched).
void writeExperimentCsv(const ExperimentFile& file);

/// radT's letters for the rows of one workload (same order): the device string; when a device
/// string occurs more than once in the workload, "_A", "_B", ... in row order among those rows
/// (after "_Z": "_AA", "_AB", ...); then "_<collocation>" when collocation is not "-". E.g. devices
/// {0,0,1} collocation {MPS,MPS,-} -> {"0_A_MPS","0_B_MPS","1"}.
std::vector<std::string> workloadLetters(const std::vector<const ExperimentRow*>& rows);

/// True for a MIG profile name like 1g.5gb, 3g.20gb, 7g.80gb, 1g.10gb+me, 1c.3g.40gb.
bool isMigProfile(const std::string& collocation);

} // namespace radt
