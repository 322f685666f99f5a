// SPDX-License-Identifier: MIT
#include "core/base/LargeArrays.h"

#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

namespace radt {

namespace {
size_t wholeHugePages(size_t bytes) {
    return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
}
} // namespace

void* mapHugePages(size_t bytes) {
    const size_t length = wholeHugePages(bytes);
    if (length < bytes || length > size_t(-1) - kHugePageBytes)
        throw std::bad_alloc();
    // One huge page more than needed, then the ends cut off so the rest begins on a boundary:
    // mmap itself promises only 4 KiB alignment.
    void* mapped =
        ::mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        throw std::bad_alloc();
    // Pointer arithmetic within the mapping, not integers made pointers again.
    char* const base = static_cast<char*>(mapped);
    const size_t lead =
        (kHugePageBytes - reinterpret_cast<uintptr_t>(mapped) % kHugePageBytes) % kHugePageBytes;
    char* const aligned = base + lead;
    if (lead > 0)
        ::munmap(base, lead);
    if (const size_t trail = kHugePageBytes - lead; trail > 0)
        ::munmap(aligned + length, trail);
#ifdef MADV_HUGEPAGE
    // Advice: where the kernel has no huge pages (or says no) the memory works on small ones.
    ::madvise(aligned, length, MADV_HUGEPAGE);
#endif
    return aligned;
}

void releasePagesPast(void* data, size_t usedBytes, size_t capacityBytes) noexcept {
    static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t from = (usedBytes + page - 1) / page * page;
    const size_t to = wholeHugePages(capacityBytes);
    if (to > from) // splits the last huge page; its unused small pages are freed
        ::madvise(static_cast<char*>(data) + from, to - from, MADV_DONTNEED);
}

void unmapHugePages(void* data, size_t bytes) noexcept {
    ::munmap(data, wholeHugePages(bytes));
}

} // namespace radt
