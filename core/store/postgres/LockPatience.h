// SPDX-License-Identifier: MIT
#pragma once
// How long radt's maintenance commands wait for a lock that holds every writer back: shared by
// the commands (PostgresMaintenance.h) and the waiting itself (PostgresLockWaits.h).

#include <chrono>
#include <functional>
#include <string>

namespace radt {

/// How long the partition swap and archive's partition drop wait for the lock that holds writers
/// back (PostgresLockWaits.h): tries of 200 ms, writers going on between them, until `limit`.
struct LockPatience {
    std::chrono::milliseconds limit{std::chrono::seconds(300)}; ///< give up after waiting this long
    std::function<void(const std::string&)> say;                ///< whom it waits for (stderr)
};

} // namespace radt
