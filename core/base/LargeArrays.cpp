// SPDX-License-Identifier: MIT
#include "core/base/LargeArrays.h"

#include <cstdint>
#include <sys/mman.h>

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
    const auto at = reinterpret_cast<uintptr_t>(mapped);
    const uintptr_t aligned = (at + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    if (aligned > at)
        ::munmap(mapped, aligned - at);
    if (const uintptr_t after = at + length + kHugePageBytes - (aligned + length); after > 0)
        ::munmap(reinterpret_cast<void*>(aligned + length), after);
#ifdef MADV_HUGEPAGE
    // Advice: where the kernel has no huge pages (or says no) the memory works on small ones.
    ::madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
#endif
    return reinterpret_cast<void*>(aligned);
}

void unmapHugePages(void* data, size_t bytes) noexcept {
    ::munmap(data, wholeHugePages(bytes));
}

} // namespace radt
