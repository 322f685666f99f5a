// SPDX-License-Identifier: MIT
#include "core/artifacts/ArtifactListing.h"

#include "core/base/Utf8.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace radt {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 64;

/// The files radT writes into a run's artifact folder by name: the log and the environment captures.
constexpr const char* kRunsOwnFiles[] = {"output.log", "pip.txt", "conda.txt", "smi.txt"};

/// A path below `root` as the listing names it; the walk only meets such paths, so no throwing
/// fs::relative (which once ended a listing of a too-deep folder with a bare exception).
std::string relativeName(const fs::path& root, const fs::path& path) {
    const std::string& r = root.native();
    const std::string& p = path.native();
    if (p.size() > r.size() && p.compare(0, r.size(), r) == 0)
        return fs::path(p.substr(r.size() + (p[r.size()] == '/' ? 1 : 0))).generic_string();
    return p == r ? std::string(".") : p;
}

ArtifactEntryType typeOf(fs::file_type type) {
    switch (type) {
    case fs::file_type::regular:
        return ArtifactEntryType::File;
    case fs::file_type::fifo:
        return ArtifactEntryType::Fifo;
    case fs::file_type::character:
    case fs::file_type::block:
        return ArtifactEntryType::Device;
    case fs::file_type::socket:
        return ArtifactEntryType::Socket;
    case fs::file_type::directory:
        return ArtifactEntryType::FolderLink;
    case fs::file_type::not_found:
        return ArtifactEntryType::BrokenLink;
    default:
        return ArtifactEntryType::Other;
    }
}

struct Walk {
    fs::path root;
    std::string canonicalRoot;
    size_t maxFiles;
    ArtifactListing& out;
    std::set<std::string> taken; ///< the run's own files at the top, listed before the walk
};

/// The entry at `path` (not a folder), as the listing keeps it.
ArtifactFile entryOf(const Walk& walk, const fs::path& path, const fs::directory_entry& entry) {
    ArtifactFile file;
    file.relativePath = relativeName(walk.root, path);
    std::error_code error;
    if (entry.is_symlink(error)) {
        file.linkTarget = fs::read_symlink(path, error).string();
        const fs::file_status target = fs::status(path, error); // follows the link
        file.type = typeOf(error ? fs::file_type::not_found : target.type());
        const fs::path resolved = fs::canonical(path, error);
        file.leavesFolder =
            error || resolved.native().compare(0, walk.canonicalRoot.size(), walk.canonicalRoot) != 0 ||
            (resolved.native().size() > walk.canonicalRoot.size() &&
             resolved.native()[walk.canonicalRoot.size()] != '/');
    } else {
        file.type = typeOf(entry.symlink_status(error).type());
    }
    if (file.type == ArtifactEntryType::File) {
        const uintmax_t size = fs::file_size(path, error);
        file.size = error ? 0 : size;
    }
    return file;
}

/// The run's own files at the top of the folder, listed first whatever the walk meets before
/// them (a cap or the count's bound could end it first).
void listOwnFilesFirst(Walk& walk) {
    for (const char* name : kRunsOwnFiles) {
        const fs::path path = walk.root / name;
        std::error_code error;
        const fs::directory_entry entry(path, error);
        if (error || !entry.exists(error)) {
            std::error_code linkError; // a broken link "exists" as a link only
            if (!fs::is_symlink(fs::symlink_status(path, linkError)))
                continue;
        }
        walk.out.files.push_back(entryOf(walk, path, entry));
        walk.taken.insert(name);
        ++walk.out.seen;
    }
}

void listFolder(Walk& walk, const fs::path& folder, int depth) {
    ArtifactListing& out = walk.out;
    if (depth > kMaxDepth) {
        out.problems.push_back(relativeName(walk.root, folder) + ": deeper than " +
                               std::to_string(kMaxDepth) + " folders, not listed");
        return;
    }
    std::error_code error;
    fs::directory_iterator it(folder, error), end;
    if (error) {
        out.problems.push_back(relativeName(walk.root, folder) + ": " + error.message());
        return;
    }
    const size_t countUpTo = walk.maxFiles * 10;
    for (; it != end && !out.seenIsLowerBound; it.increment(error)) {
        if (error)
            break;
        const fs::path& path = it->path();
        if (depth == 0 && walk.taken.count(path.filename().string()))
            continue; // listed before the walk
        std::error_code statError;
        if (it->is_directory(statError) && !it->is_symlink(statError)) {
            listFolder(walk, path, depth + 1);
        } else {
            ++out.seen;
            const bool room = out.files.size() < walk.maxFiles;
            // Past the limit the walk goes on counting, and keeps the run's own files it meets.
            if (room ||
                (isRunsOwnArtifact(relativeName(walk.root, path)) && out.files.size() < walk.maxFiles + 100))
                out.files.push_back(entryOf(walk, path, *it));
            else
                out.truncated = true;
        }
        if (out.seen >= countUpTo) {
            out.truncated = out.seenIsLowerBound = true;
            return;
        }
    }
    if (error)
        out.problems.push_back(relativeName(walk.root, folder) + ": " + error.message());
}

} // namespace

std::string artifactTypeText(ArtifactEntryType type) {
    switch (type) {
    case ArtifactEntryType::File:
        return "";
    case ArtifactEntryType::Fifo:
        return "a named pipe (FIFO)";
    case ArtifactEntryType::Device:
        return "a device";
    case ArtifactEntryType::Socket:
        return "a socket";
    case ArtifactEntryType::FolderLink:
        return "a link to a folder";
    case ArtifactEntryType::BrokenLink:
        return "a broken link";
    case ArtifactEntryType::Other:
        break;
    }
    return "not a regular file";
}

bool isRunsOwnArtifact(const std::string& relativePath) {
    const std::string name = fs::path(relativePath).filename().string();
    for (const char* own : kRunsOwnFiles)
        if (name == own)
            return true;
    for (const char* report : {".nsys-rep", ".qdrep", ".ncu-rep", ".pt.trace.json"})
        if (name.size() > std::strlen(report) &&
            name.compare(name.size() - std::strlen(report), std::string::npos, report) == 0)
            return true;
    return false;
}

ArtifactListing listArtifacts(const std::string& folder, size_t maxFiles) {
    ArtifactListing out;
    std::error_code error;
    const fs::path canonical = fs::canonical(folder, error);
    Walk walk{fs::path(folder), error ? folder : canonical.native(), maxFiles, out, {}};
    listOwnFilesFirst(walk);
    listFolder(walk, fs::path(folder), 0);
    std::stable_sort(out.files.begin(), out.files.end(), [](const ArtifactFile& a, const ArtifactFile& b) {
        const bool ownA = isRunsOwnArtifact(a.relativePath), ownB = isRunsOwnArtifact(b.relativePath);
        return ownA != ownB ? ownA : a.relativePath < b.relativePath;
    });
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
