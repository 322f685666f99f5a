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

/// What an entry of the folder is. Only a File (or a link to one) is ever opened; the others are
/// listed so that nothing drops out of the list or its count without a word.
enum class ArtifactEntryType { File, Fifo, Device, Socket, FolderLink, BrokenLink, Other };

struct ArtifactFile {
    std::string relativePath; ///< from the artifact folder, '/'-separated
    uint64_t size = 0;        ///< a link's: its target's
    ArtifactEntryType type = ArtifactEntryType::File;
    std::string linkTarget; ///< a symbolic link's target as written ("" when not a link)
    /// A link whose target is outside the artifact folder (or cannot be resolved): a colleague's
    /// `config.txt -> /etc/passwd` is marked, and opened only on an explicit action.
    bool leavesFolder = false;
};

/// "a named pipe (FIFO)", "a device", "a socket", "a link to a folder", "a broken link"; "" for a file.
std::string artifactTypeText(ArtifactEntryType type);

/// The names radT and its tools write into a run's artifact folder: a capped listing lists them
/// first wherever the walk finds them (output.log, the environment captures, profiler reports).
bool isRunsOwnArtifact(const std::string& relativePath);

struct ArtifactListing {
    std::vector<ArtifactFile> files; ///< the run's own files first, then by path
    /// Subfolders or entries that could not be read (or too deep to list), each a sentence naming it.
    std::vector<std::string> problems;
    bool truncated = false; ///< more than the limit: the rest is not listed
    size_t seen = 0;        ///< entries the walk found (a lower bound when `seenIsLowerBound`)
    bool seenIsLowerBound = false;
};

/// Lists every entry under `folder` but folders (links as links: to files with their target's
/// size, to folders not followed), at most `maxFiles` of them plus the run's own files found past
/// that; counts the rest up to ten times `maxFiles`. Folders deeper than 64 levels are named, not
/// walked. Never throws: what it could not read is in `problems`.
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
