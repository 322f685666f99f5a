// SPDX-License-Identifier: MIT
#include "widgets/common/FileReadPool.h"

#include <QThreadPool>

#include <cstdio>
#include <cstdlib>

namespace radt {

QThreadPool* fileReadPool() {
    // Enough threads that a few reads stuck on a dead mount leave room for the others; a thread
    // idle for a minute goes away.
    static QThreadPool* const pool = [] {
        auto* p = new QThreadPool; // never deleted: see the header
        p->setMaxThreadCount(16);
        p->setExpiryTimeout(60000);
        return p;
    }();
    return pool;
}

void quitLeavingHungFileReads(int exitCode, int graceMs) {
    if (fileReadPool()->waitForDone(graceMs))
        return;
    std::fprintf(stderr,
                 "radt-explorer: a read of a run's files still hangs after %d ms (a network mount that "
                 "stopped answering?): quitting without waiting for it\n",
                 graceMs);
    std::fflush(stderr);
    std::fflush(stdout);
    std::_Exit(exitCode); // static destructors would wait for the hung thread
}

} // namespace radt
