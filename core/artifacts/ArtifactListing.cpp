// SPDX-License-Identifier: MIT
#include "core/artifacts/ArtifactListing.h"

#include "core/base/Utf8.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace radt {

namespace fs = std::filesystem;

namespace {

void listFolder(const fs::path& root, const fs::path& folder, size_t maxFiles, ArtifactListing& out) {
    std::error_code error;
    fs::directory_iterator it(folder, error), end;
    if (error) {
        out.problems.push_back(fs::relative(folder, root).string() + ": " + error.message());
        return;
    }
    for (; it != end; it.increment(error)) {
        if (error)
            break;
        const fs::path& path = it->path();
        std::error_code statError;
        const bool isLink = it->is_symlink(statError);
        if (it->is_directory(statError) && !isLink) {
            listFolder(root, path, maxFiles, out);
        } else if (it->is_regular_file(statError)) {
            if (out.files.size() >= maxFiles) {
                out.truncated = true;
                return;
            }
            const uint64_t size = it->file_size(statError);
            out.files.push_back({fs::relative(path, root).generic_string(), statError ? 0 : size});
        }
        if (out.truncated)
            return;
    }
    if (error)
        out.problems.push_back(fs::relative(folder, root).string() + ": " + error.message());
}

} // namespace

ArtifactListing listArtifacts(const std::string& folder, size_t maxFiles) {
    ArtifactListing out;
    listFolder(fs::path(folder), fs::path(folder), maxFiles, out);
    std::sort(out.files.begin(), out.files.end(),
              [](const ArtifactFile& a, const ArtifactFile& b) { return a.relativePath < b.relativePath; });
    for (std::string& problem : out.problems)
        if (problem.rfind(".:", 0) == 0)
            problem = folder + problem.substr(1);
    return out;
}

bool looksLikeText(const char* data, size_t size, bool complete) {
    if (std::memchr(data, '\0', size))
        return false;
    const std::string text(data, size);
    for (size_t i = 0; i < text.size();) {
        const size_t length = utf8SequenceLength(text, i);
        if (length > 0) {
            i += length;
            continue;
        }
        // A sequence the block's end cut: its lead byte promises more than the block holds.
        const auto lead = static_cast<unsigned char>(text[i]);
        const size_t promised = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
        if (!complete && promised > 0 && i + promised > text.size()) {
            bool continuation = true;
            for (size_t k = i + 1; k < text.size(); ++k)
                continuation = continuation && (static_cast<unsigned char>(text[k]) & 0xc0) == 0x80;
            return continuation;
        }
        return false;
    }
    return true;
}

int openRegularFile(const std::string& path, std::string* error) {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        if (error)
            *error = path + ": " + std::strerror(errno);
        return -1;
    }
    struct stat info {};
    const char* what = nullptr;
    if (::fstat(fd, &info) != 0)
        what = std::strerror(errno);
    else if (S_ISFIFO(info.st_mode))
        what = "a named pipe (FIFO), not read";
    else if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode))
        what = "a device, not read";
    else if (S_ISSOCK(info.st_mode))
        what = "a socket, not read";
    else if (S_ISDIR(info.st_mode))
        what = "a folder, not a regular file";
    else if (!S_ISREG(info.st_mode))
        what = "not a regular file, not read";
    if (what) {
        ::close(fd);
        if (error)
            *error = path + ": " + what;
        return -1;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK); // a regular file: reads as usual
    return fd;
}

ArtifactKind classifyArtifact(const std::string& path, std::string* error) {
    const int fd = openRegularFile(path, error);
    if (fd < 0)
        return ArtifactKind::Unreadable;
    std::string block(kTextSniffBytes + 1, '\0');
    size_t got = 0;
    while (got < block.size()) {
        const ssize_t n = ::read(fd, &block[got], block.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            if (error)
                *error = path + ": " + std::strerror(errno);
            ::close(fd);
            return ArtifactKind::Unreadable;
        }
        if (n == 0)
            break;
        got += static_cast<size_t>(n);
    }
    ::close(fd);
    // One byte more than the test reads says whether the block is the whole file.
    const bool complete = got <= kTextSniffBytes;
    return looksLikeText(block.data(), std::min(got, kTextSniffBytes), complete) ? ArtifactKind::Text
                                                                                 : ArtifactKind::Binary;
}

std::string formatByteSize(uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return text;
}

} // namespace radt
