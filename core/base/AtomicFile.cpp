// SPDX-License-Identifier: MIT
#include "core/base/AtomicFile.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace radt {

namespace fs = std::filesystem;

AtomicFileError::AtomicFileError(const std::string& path, const std::string& detail)
    : std::runtime_error("cannot write " + path + ": " + detail), m_path(path), m_detail(detail) {}

namespace {

/// Writes all of `data` to fd, retrying short and interrupted writes.
bool writeAll(int fd, const std::string& data) {
    for (size_t done = 0; done < data.size();) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += size_t(n);
    }
    return true;
}

} // namespace

void writeFileAtomically(const std::string& path, const std::string& contents) {
    auto failure = [&](const std::string& step, int err) {
        return AtomicFileError(path, step + (err ? std::string(": ") + std::strerror(err) : std::string()));
    };
    // Replace the file a symlink points at, not the link; the temp file lives beside the target so
    // rename() stays within one filesystem and is atomic.
    std::error_code ec;
    fs::path target = path;
    if (const fs::path real = fs::canonical(target, ec); !ec)
        target = real;
    struct stat st {};
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        throw failure("it is a directory", 0);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string temp = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) {
        const int err = errno;
        throw failure("cannot create a temporary file in " + dir.string(), err);
    }
    int err = 0;
    std::string step;
    // mkstemp makes 0600; these files are documents to share, so keep the old file's mode or use 0644.
    if (::fchmod(fd, exists ? (st.st_mode & 07777) : 0644) != 0)
        err = errno, step = "cannot set permissions";
    else if (!writeAll(fd, contents))
        err = errno, step = "write failed";
    else if (::fsync(fd) != 0)
        err = errno, step = "fsync failed";
    if (::close(fd) != 0 && step.empty())
        err = errno, step = "close failed";
    if (step.empty() && ::rename(temp.c_str(), target.c_str()) != 0)
        err = errno, step = "rename failed";
    if (!step.empty()) {
        ::unlink(temp.c_str());
        throw failure(step, err);
    }
    // The rename itself is durable only once the directory is synced; best effort.
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

} // namespace radt
