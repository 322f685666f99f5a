// SPDX-License-Identifier: MIT
#pragma once
// The files of a run's artifact folder (recursive, with sizes), and whether a file reads as text:
// decided by its first block (a NUL byte or a byte sequence that is not UTF-8 makes it binary),
// not by its name.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace radt {

struct ArtifactFile {
    std::string relativePath; ///< from the artifact folder, '/'-separated
    uint64_t size = 0;
};

struct ArtifactListing {
    std::vector<ArtifactFile> files; ///< sorted by path
    /// Subfolders or entries that could not be read, each a sentence naming it.
    std::vector<std::string> problems;
    bool truncated = false; ///< more than the limit: the rest is not listed
};

/// Lists the regular files under `folder` (symbolic links to files included, links to folders not
/// followed), at most `maxFiles` of them.
ArtifactListing listArtifacts(const std::string& folder, size_t maxFiles = 20000);

/// How many bytes the text test reads from the start of a file.
constexpr size_t kTextSniffBytes = size_t{64} * 1024;

/// Whether `size` bytes read from the start of a file look like text: no NUL byte, and well-formed
/// UTF-8 (a sequence cut by the block's end counts as well formed when `complete` is false, i.e.
/// the block is not the whole file).
bool looksLikeText(const char* data, size_t size, bool complete);

enum class ArtifactKind { Text, Binary, Unreadable };

/// Opens `path` for reading only when it is a regular file: a named pipe, a device or a socket
/// (an artifact folder a colleague controls may hold one) is never opened for reading, which would
/// wait for a writer forever or read without end. The descriptor (blocking, close-on-exec), or -1
/// with the reason in *error ("a named pipe (FIFO), not read", or the system's).
int openRegularFile(const std::string& path, std::string* error);

/// Reads the file's first block: Text (an empty file is text), Binary, or Unreadable with the
/// reason in *error (a FIFO, device or socket among them, never opened: openRegularFile).
ArtifactKind classifyArtifact(const std::string& path, std::string* error = nullptr);

/// "1.5 MiB", "12 KiB", "300 B".
std::string formatByteSize(uint64_t bytes);

} // namespace radt
