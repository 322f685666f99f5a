// SPDX-License-Identifier: MIT
#pragma once
// Replacing a file so that a crash or a full disk leaves either the old file or the whole new one,
// never a part: boards and experiment CSVs are saved this way. No Qt.

#include <stdexcept>
#include <string>

namespace radt {

/// Writing `path()` failed and the old file, if any, is untouched; what() is
/// "cannot write <path>: <detail>", detail() the step and OS reason ("rename failed: Permission denied").
class AtomicFileError : public std::runtime_error {
public:
    AtomicFileError(const std::string& path, const std::string& detail);
    const std::string& path() const { return m_path; }
    const std::string& detail() const { return m_detail; }

private:
    std::string m_path;
    std::string m_detail;
};

/// Writes `contents` to a temporary file beside `path` (beside the target when `path` is a symlink),
/// fsyncs it, gives it the old file's permissions (0644 for a new file), renames it over the target
/// and fsyncs the directory. Throws AtomicFileError on failure.
void writeFileAtomically(const std::string& path, const std::string& contents);

} // namespace radt
