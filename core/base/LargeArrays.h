// SPDX-License-Identifier: MIT
#pragma once
// Arrays of millions of points (a series read from a store) on transparent huge pages.
// Every 4 KiB page a process writes for the first time costs a page fault; on the virtual
// machines this runs on one costs 10 to 20 us, so filling the three 8 MiB arrays of a 1M-point
// series (~6,000 faults, with the copies of their growth ~8,000) took longer than SQLite's own
// stepping of its million rows (resources/DESIGN.md §11, series_read_ratio). A 2 MiB huge page
// takes one fault for 512 pages, but the kernel gives them only to memory that asks for them
// before it is first written (Debian: transparent_hugepage=madvise), on 2 MiB boundaries.
// malloc cannot be made to do either for one allocation (glibc can for all, by an environment
// tunable), so an array of 2 MiB or more is a mapping of its own here. With Debian's
// defrag=madvise a first touch may wait while the kernel compacts memory for a huge page; the
// stores' reads that fill these arrays run off the GUI thread (resources/DESIGN.md §2).

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace radt {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

/// From this size on an array is a mapping of whole huge pages; below it, malloc's memory.
constexpr size_t kHugePageBytes = size_t(2) << 20;

/// `bytes` rounded up to whole huge pages, mapped at a huge page boundary and advised to be
/// backed by huge pages before anything touches it. Throws std::bad_alloc when refused.
void* mapHugePages(size_t bytes);
/// Gives back what mapHugePages(bytes) returned.
void unmapHugePages(void* data, size_t bytes) noexcept;

/// std::allocator, except that an array of kHugePageBytes or more lives on huge pages. Under
/// AddressSanitizer every array comes from malloc, so overflows are still caught.
template <class T> struct LargeArrayAllocator {
    using value_type = T;

    LargeArrayAllocator() = default;
    template <class U> LargeArrayAllocator(const LargeArrayAllocator<U>&) noexcept {}

    T* allocate(size_t n) {
        if (!onHugePages(n))
            return std::allocator<T>().allocate(n);
        return static_cast<T*>(mapHugePages(n * sizeof(T)));
    }
    void deallocate(T* p, size_t n) noexcept {
        if (!onHugePages(n))
            std::allocator<T>().deallocate(p, n);
        else
            unmapHugePages(p, n * sizeof(T));
    }

    /// Whether an array of n elements is a mapping of its own (else malloc's memory).
    static bool onHugePages(size_t n) {
        return !kUnderAddressSanitizer && n >= kHugePageBytes / sizeof(T) && n <= size_t(-1) / sizeof(T);
    }

    friend bool operator==(const LargeArrayAllocator&, const LargeArrayAllocator&) { return true; }
    friend bool operator!=(const LargeArrayAllocator&, const LargeArrayAllocator&) { return false; }
};

/// A std::vector whose storage is on huge pages once it is large (Series' arrays).
template <class T> using LargeArray = std::vector<T, LargeArrayAllocator<T>>;

/// Gives the kernel back the pages of a mapping from mapHugePages past its first `usedBytes`.
void releasePagesPast(void* data, size_t usedBytes, size_t capacityBytes) noexcept;

/// Once an array is filled: its capacity past its size given back. A huge page is resident whole
/// once touched, so a 300k-point array (2.4 MB in a 4 MiB capacity) held 4 MiB, 14 bytes a point
/// instead of 8; the part of the last huge page past the end is released (it reads as zeros and is
/// faulted in again if the array grows).
template <class T> void releaseUnusedCapacity(LargeArray<T>& a) noexcept {
    if (LargeArrayAllocator<T>::onHugePages(a.capacity()))
        releasePagesPast(a.data(), a.size() * sizeof(T), a.capacity() * sizeof(T));
}

/// The same elements, whichever memory holds them (a test's expected std::vector).
template <class T> bool operator==(const LargeArray<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
template <class T> bool operator==(const std::vector<T>& a, const LargeArray<T>& b) {
    return b == a;
}
template <class T> bool operator!=(const LargeArray<T>& a, const std::vector<T>& b) {
    return !(a == b);
}
template <class T> bool operator!=(const std::vector<T>& a, const LargeArray<T>& b) {
    return !(b == a);
}

} // namespace radt
