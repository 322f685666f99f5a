// SPDX-License-Identifier: MIT
#pragma once
// A text file read in pages, never whole: a 2 GB output.log opens with a small, bounded memory.
// The line index is sparse (the start of every 1,024th line, and of the first line past each MiB),
// built in steps the caller paces (indexMore), so the first lines show at once and the rest of the
// file is indexed while the viewer goes on. A window of lines is read with pread from the nearest
// indexed start. Lines end at '\n'; a '\r' before it is dropped (CRLF), a last line without '\n'
// counts, and a line longer than asked for is cut (its full length is said). Search reads the file
// in slices too (find), forward or backward, so a caller can show progress and stay responsive.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace radt {

class TextPager {
public:
    /// Opens `path` for reading; throws std::runtime_error naming the file and the reason.
    explicit TextPager(const std::string& path);
    ~TextPager();
    TextPager(const TextPager&) = delete;
    TextPager& operator=(const TextPager&) = delete;

    const std::string& path() const { return m_path; }
    /// The size when the file was opened (what is read; a file still growing is read to there).
    uint64_t size() const { return m_size; }

    /// What the file at path() is now against what was opened: "" when it is unchanged, else a
    /// sentence ("truncated from 292 B to 120 B", "grew from ... to ...", "replaced by another
    /// file", "removed: ..."). Looks at the path, never reads the file, so a log rotated or
    /// replaced is noticed too; `*shrunk` says whether what is shown is no longer all there.
    /// Safe on another thread than the reads (it touches only what the constructor set).
    std::string changeOnDisk(bool* shrunk = nullptr) const;

    /// Indexes at most `maxBytes` more of the file; returns whether the whole file is indexed.
    bool indexMore(uint64_t maxBytes);
    bool indexComplete() const { return m_indexedTo >= m_size; }
    /// How far the index reaches, in bytes.
    uint64_t indexedBytes() const { return m_indexedTo; }
    /// The lines known so far (all of them once indexComplete()); 0 for an empty file.
    uint64_t lineCount() const { return m_lineStarts; }

    struct Line {
        std::string text;    ///< at most the bytes asked for, without '\n' and a '\r' before it
        uint64_t length = 0; ///< the whole line's length in bytes (without its end)
        uint64_t offset = 0; ///< where the line starts in the file
    };
    /// Lines [first, first + count) of the indexed ones (fewer at the end), each cut at maxBytes.
    std::vector<Line> lines(uint64_t first, size_t count, size_t maxBytes = 4096) const;
    /// The line holding byte `offset` (indexing as far as needed).
    uint64_t lineOfOffset(uint64_t offset);
    /// Where line `line` starts (indexing as far as needed; the file's size past the last line).
    uint64_t offsetOfLine(uint64_t line);

    enum class FindState { Found, NotFound, Continue };
    struct FindStep {
        FindState state = FindState::NotFound;
        /// Found: where the match starts. Continue: the `from` to call again with.
        uint64_t offset = 0;
    };
    /// Looks for `needle` (bytes; `matchCase` false folds ASCII letters) reading at most about
    /// `budget` bytes. Forward: the first match starting at or after `from`. Backward: the last
    /// one starting before `from`. NotFound once the file's end (start) is reached.
    FindStep find(const std::string& needle, uint64_t from, bool forward, bool matchCase,
                  uint64_t budget) const;

private:
    struct Checkpoint {
        uint64_t line;
        uint64_t offset;
    };
    /// Reads up to `size` bytes at `offset` into `out` (resized to what was read).
    void readAt(uint64_t offset, size_t size, std::string& out) const;
    /// The last checkpoint at or before `line`.
    const Checkpoint& checkpointFor(uint64_t line) const;
    /// Where line `line` (an indexed one) starts, scanning from its checkpoint.
    uint64_t startOf(uint64_t line) const;
    void noteLineStart(uint64_t offset);

    std::string m_path;
    int m_fd = -1;
    uint64_t m_size = 0;
    uint64_t m_device = 0, m_inode = 0;    ///< the file opened, to tell a replacement
    int64_t m_modifiedNs = 0;              ///< its modification time when opened
    uint64_t m_indexedTo = 0;              ///< bytes scanned for line ends
    uint64_t m_lineStarts = 0;             ///< lines whose start is known
    std::vector<Checkpoint> m_checkpoints; ///< sparse: (line, offset), ascending
};

} // namespace radt
