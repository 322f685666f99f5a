// SPDX-License-Identifier: MIT
#pragma once
// The threads that read what lies under a run's artifact folder: listings, the environment
// captures, a file to show. Not Qt's global pool: a read that hangs on a network mount that
// stopped answering (a read in the kernel cannot be cancelled) then holds one of these threads,
// never the global pool's other work, and quitting never waits for it.

class QThreadPool;

namespace radt {

/// The pool for reads under artifact folders (created on first use, never destroyed: its
/// destructor would wait for a hung read).
QThreadPool* fileReadPool();

/// At quit: waits up to `graceMs` for the reads under way; when one still hangs, says so on stderr
/// and ends the process with `exitCode` at once (the window already saved what it keeps). Returns
/// when none is left.
void quitLeavingHungFileReads(int exitCode, int graceMs);

} // namespace radt
