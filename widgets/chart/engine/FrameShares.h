// SPDX-License-Identifier: MIT
#pragma once
// A frame's work split over the machine's cores: a chart of hundreds of runs reads and rasterises
// each line on every zoom step, and one core alone misses the frame goal. Share 0 runs on the
// calling (GUI) thread, the others on threads of their own for this frame: a pool shared with the
// store loads could leave a paint waiting behind a read.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace radt {

/// How many shares `items` make at `perShare` each at least: 1 to the cores (8 at most).
inline int frameShares(size_t items, size_t perShare) {
    const size_t cores = std::max(1u, std::thread::hardware_concurrency());
    return int(std::clamp<size_t>(items / std::max<size_t>(perShare, 1), 1, std::min<size_t>(cores, 8)));
}

/// Runs work(share) for every share in [0, shares) and returns when all are done; an exception
/// of any share (an allocation that failed) is thrown here, after every thread is joined. Where
/// no thread can be started the remaining shares run on the calling thread.
template <class Work> void runShares(int shares, const Work& work) {
    shares = std::max(shares, 1);
    std::vector<std::exception_ptr> errors(static_cast<size_t>(shares));
    auto guarded = [&work, &errors](int share) {
        try {
            work(share);
        } catch (...) {
            errors[size_t(share)] = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(size_t(shares - 1));
    int here = shares; // the first share without a thread of its own
    for (int share = 1; share < shares; ++share) {
        try {
            threads.emplace_back(guarded, share);
        } catch (...) { // std::system_error: the process may start no more threads
            here = share;
            break;
        }
    }
    guarded(0);
    for (int share = here; share < shares; ++share)
        guarded(share);
    for (std::thread& thread : threads)
        thread.join();
    for (const std::exception_ptr& error : errors)
        if (error)
            std::rethrow_exception(error);
}

/// Runs work(share, item) for every item in [0, items), spread over `shares` threads that take
/// the next `chunk` items as they finish theirs: one core slower than another this frame (the GUI
/// thread's share took twice the time of an equal one on its own thread) leaves no core idle.
template <class Work> void runItemsInShares(int shares, size_t items, size_t chunk, const Work& work) {
    std::atomic<size_t> next{0};
    runShares(shares, [&](int share) {
        for (size_t begin = next.fetch_add(chunk); begin < items; begin = next.fetch_add(chunk))
            for (size_t item = begin; item < std::min(items, begin + chunk); ++item)
                work(share, item);
    });
}

} // namespace radt
