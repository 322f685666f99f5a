// SPDX-License-Identifier: MIT
#pragma once
// A fresh directory under $TMPDIR for one test, removed with everything in it afterwards.

#include <functional>
#include <string>
#include <vector>

namespace radt::test {

class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return m_path; }
    /// path() + "/" + name
    std::string file(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

/// Copies the real MLflow database fixture into dir and returns the copy's path.
std::string copyMlflowFixture(const TempDir& dir);
/// Writes text to a file (overwriting it).
void writeFile(const std::string& path, const std::string& text);
/// The whole content of a file, or "" when unreadable.
std::string readFile(const std::string& path);
/// tests/fixtures/<relative>; throws (a failed test naming the path) when the file is missing.
std::string fixturePath(const std::string& relative);
/// Runs a shell command, returns its exit status (for createdb/dropdb/pg_ctl in tests).
int shell(const std::string& command);
/// What a shell command prints on stdout, without the last newline (whatever its exit status).
std::string shellOutput(const std::string& command);
/// The text of tests/fixtures/<relative>; throws naming the path when it is missing or empty.
std::string readFixture(const std::string& relative);
/// What `f` threw (its what()), or "" when it did not throw.
std::string errorOf(const std::function<void()>& f);
/// What `f` threw, with `f` run as a user that file permissions bind: as root (CI) in a child
/// process switched to nobody (65534), otherwise here. `dir` is opened to others (0755) first so
/// that user can reach what the test made in it.
std::string errorAsUnprivilegedUser(const TempDir& dir, const std::function<void()>& f);
/// Polls `condition` every 20 ms until it holds or `timeoutMs` passed; its last value. Tests wait
/// on what they need, never for a fixed time.
bool waitFor(const std::function<bool()>& condition, int timeoutMs);
/// `s` in single quotes for a shell command line, its own single quotes escaped.
std::string shellQuote(const std::string& s);
/// How Python's csv.DictReader and pandas.read_csv, both with their defaults, read the CSV file
/// `path`: "ROWS COLUMNS FIRST-HEADER" from each, on two lines ("csv 3 22 configuration" then
/// "pandas 3 22 configuration"), or the reader's error. What a researcher's script sees.
std::string readByPythonCsvReaders(const std::string& path);
/// The lines of `text`, without their '\n'.
std::vector<std::string> splitLines(const std::string& text);

} // namespace radt::test
