// SPDX-License-Identifier: MIT
#include "core/artifacts/TextPager.h"
#include "core/artifacts/ArtifactListing.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace radt {

namespace {

constexpr uint64_t kLinesPerCheckpoint = 1024;
constexpr uint64_t kBytesPerCheckpoint = 1 << 20; ///< a checkpoint at the first line start past each MiB
constexpr size_t kChunk = 1 << 20;                ///< what one read takes

void foldAscii(std::string& text) {
    for (char& c : text)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
}

} // namespace

TextPager::TextPager(const std::string& path) : m_path(path) {
    std::string why;
    m_fd = openRegularFile(path, &why); // never waits on a FIFO swapped in for the file
    if (m_fd < 0)
        throw std::runtime_error(why);
    struct stat info {};
    if (::fstat(m_fd, &info) != 0) {
        why = path + ": " + std::strerror(errno);
        ::close(m_fd);
        throw std::runtime_error(why);
    }
    m_size = static_cast<uint64_t>(info.st_size);
    m_device = static_cast<uint64_t>(info.st_dev);
    m_inode = static_cast<uint64_t>(info.st_ino);
    m_modifiedNs = int64_t(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
    if (m_size > 0)
        noteLineStart(0);
}

std::string TextPager::changeOnDisk(bool* shrunk) const {
    if (shrunk)
        *shrunk = false;
    struct stat now {};
    if (::stat(m_path.c_str(), &now) != 0) {
        if (shrunk)
            *shrunk = true;
        return std::string("removed: ") + std::strerror(errno);
    }
    if (uint64_t(now.st_dev) != m_device || uint64_t(now.st_ino) != m_inode) {
        if (shrunk)
            *shrunk = true;
        return "replaced by another file (" + formatByteSize(uint64_t(now.st_size)) + ")";
    }
    const auto size = static_cast<uint64_t>(now.st_size);
    if (size < m_size) {
        if (shrunk)
            *shrunk = true;
        return "truncated from " + formatByteSize(m_size) + " to " + formatByteSize(size);
    }
    if (size > m_size)
        return "grew from " + formatByteSize(m_size) + " to " + formatByteSize(size);
    if (int64_t(now.st_mtim.tv_sec) * 1000000000 + now.st_mtim.tv_nsec != m_modifiedNs) {
        if (shrunk)
            *shrunk = true; // rewritten in place: what is shown may no longer be what is there
        return "rewritten (same size, " + formatByteSize(size) + ")";
    }
    return {};
}

TextPager::~TextPager() {
    if (m_fd >= 0)
        ::close(m_fd);
}

void TextPager::readAt(uint64_t offset, size_t size, std::string& out) const {
    if (offset >= m_size) {
        out.clear();
        return;
    }
    size = static_cast<size_t>(std::min<uint64_t>(size, m_size - offset));
    out.resize(size);
    size_t got = 0;
    while (got < size) {
        const ssize_t n = ::pread(m_fd, &out[got], size - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw std::runtime_error(m_path + ": " + std::strerror(errno));
        if (n == 0)
            break; // the file shrank since it was opened
        got += static_cast<size_t>(n);
    }
    out.resize(got);
}

void TextPager::noteLineStart(uint64_t offset) {
    const uint64_t line = m_lineStarts++;
    if (m_checkpoints.empty() || line % kLinesPerCheckpoint == 0 ||
        offset - m_checkpoints.back().offset >= kBytesPerCheckpoint)
        m_checkpoints.push_back({line, offset});
}

bool TextPager::indexMore(uint64_t maxBytes) {
    std::string chunk;
    const uint64_t stop = std::min(m_size, m_indexedTo + std::max<uint64_t>(maxBytes, 1));
    while (m_indexedTo < stop) {
        readAt(m_indexedTo, static_cast<size_t>(std::min<uint64_t>(kChunk, stop - m_indexedTo)), chunk);
        if (chunk.empty()) { // shrank: what is there is all there is
            m_size = m_indexedTo;
            break;
        }
        const char* begin = chunk.data();
        const char* end = begin + chunk.size();
        for (const char* p = begin; (p = static_cast<const char*>(std::memchr(p, '\n', end - p))); ++p) {
            const uint64_t next = m_indexedTo + static_cast<uint64_t>(p - begin) + 1;
            if (next < m_size)
                noteLineStart(next);
        }
        m_indexedTo += chunk.size();
    }
    return indexComplete();
}

const TextPager::Checkpoint& TextPager::checkpointFor(uint64_t line) const {
    auto it = std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), line,
                               [](uint64_t l, const Checkpoint& c) { return l < c.line; });
    return *std::prev(it);
}

uint64_t TextPager::startOf(uint64_t line) const {
    const Checkpoint& cp = checkpointFor(line);
    uint64_t offset = cp.offset;
    uint64_t toSkip = line - cp.line;
    std::string chunk;
    while (toSkip > 0) {
        readAt(offset, kChunk / 16, chunk);
        if (chunk.empty())
            return m_size;
        const char* begin = chunk.data();
        const char* end = begin + chunk.size();
        const char* p = begin;
        while (toSkip > 0 && (p = static_cast<const char*>(std::memchr(p, '\n', end - p)))) {
            ++p;
            --toSkip;
        }
        offset += toSkip == 0 ? static_cast<uint64_t>(p - begin) : chunk.size();
    }
    return offset;
}

std::vector<TextPager::Line> TextPager::lines(uint64_t first, size_t count, size_t maxBytes) const {
    std::vector<Line> out;
    if (first >= m_lineStarts)
        return out;
    count = static_cast<size_t>(std::min<uint64_t>(count, m_lineStarts - first));
    uint64_t start = startOf(first);
    std::string block;
    for (size_t i = 0; i < count; ++i) {
        const uint64_t line = first + i;
        Line l;
        l.offset = start;
        readAt(start, maxBytes + 2, block); // the text, and room to see its '\r' and '\n'
        const size_t newline = block.find('\n');
        uint64_t next = 0;
        if (newline != std::string::npos) {
            l.length = newline;
            next = start + newline + 1;
        } else if (start + block.size() >= m_size) {
            l.length = block.size(); // the last line, without '\n'
            next = m_size;
        } else {
            // Longer than shown: its end is the next line's start (a checkpoint past a long line).
            next = line + 1 < m_lineStarts ? startOf(line + 1) : m_indexedTo;
            std::string last;
            readAt(next - 1, 1, last);
            l.length = next - start - (last == "\n" ? 1 : 0);
        }
        if (l.length > 0 && next > start) { // a '\r' before the '\n' is the line's end, not its text
            std::string before;
            readAt(start + l.length - 1, 1, before);
            if (before == "\r")
                --l.length;
        }
        l.text = block.substr(0, static_cast<size_t>(std::min<uint64_t>(l.length, maxBytes)));
        out.push_back(std::move(l));
        start = next;
    }
    return out;
}

uint64_t TextPager::lineOfOffset(uint64_t offset) {
    while (m_indexedTo <= offset && !indexComplete())
        indexMore(8 * kChunk);
    if (m_lineStarts == 0)
        return 0;
    auto it = std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), offset,
                               [](uint64_t o, const Checkpoint& c) { return o < c.offset; });
    const Checkpoint& cp = *std::prev(it);
    uint64_t line = cp.line, at = cp.offset;
    std::string chunk;
    while (at < offset) {
        readAt(at, static_cast<size_t>(std::min<uint64_t>(kChunk, offset - at)), chunk);
        if (chunk.empty())
            break;
        line += static_cast<uint64_t>(std::count(chunk.begin(), chunk.end(), '\n'));
        at += chunk.size();
    }
    return std::min(line, m_lineStarts - 1);
}

uint64_t TextPager::offsetOfLine(uint64_t line) {
    while (m_lineStarts <= line && !indexComplete())
        indexMore(8 * kChunk);
    return line < m_lineStarts ? startOf(line) : m_size;
}

TextPager::FindStep TextPager::find(const std::string& rawNeedle, uint64_t from, bool forward, bool matchCase,
                                    uint64_t budget) const {
    const uint64_t n = rawNeedle.size();
    if (n == 0 || n > m_size)
        return {FindState::NotFound, 0};
    std::string needle = rawNeedle;
    if (!matchCase)
        foldAscii(needle);
    const uint64_t lastStart = m_size - n;
    std::string window;
    // The starts [lo, hi) are looked at in one read of [lo, hi + n - 1).
    auto search = [&](uint64_t lo, uint64_t hi) -> int64_t {
        readAt(lo, static_cast<size_t>(hi - lo + n - 1), window);
        if (!matchCase)
            foldAscii(window);
        if (forward) { // glibc's memmem (two-way): several times std::search's speed on a log
            const void* at = ::memmem(window.data(), window.size(), needle.data(), needle.size());
            return at ? static_cast<const char*>(at) - window.data() : -1;
        }
        const auto it = std::find_end(window.begin(), window.end(), needle.begin(), needle.end());
        return it == window.end() ? -1 : static_cast<int64_t>(it - window.begin());
    };
    budget = std::max<uint64_t>(budget, 1);
    if (forward) {
        uint64_t pos = from;
        const uint64_t limit = std::min(lastStart + 1, from + budget);
        while (pos < limit) {
            const uint64_t hi = std::min<uint64_t>(pos + kChunk, limit);
            if (const int64_t k = search(pos, hi); k >= 0)
                return {FindState::Found, pos + static_cast<uint64_t>(k)};
            pos = hi;
        }
        return pos > lastStart ? FindStep{FindState::NotFound, 0} : FindStep{FindState::Continue, pos};
    }
    uint64_t hi = std::min(from, lastStart + 1);
    const uint64_t low = hi > budget ? hi - budget : 0;
    while (hi > low) {
        const uint64_t lo = hi - std::min<uint64_t>(kChunk, hi - low);
        if (const int64_t k = search(lo, hi); k >= 0)
            return {FindState::Found, lo + static_cast<uint64_t>(k)};
        hi = lo;
    }
    return hi == 0 ? FindStep{FindState::NotFound, 0} : FindStep{FindState::Continue, hi};
}

} // namespace radt
