// SPDX-License-Identifier: MIT
#pragma once
// Large generated SQLite stores built once per test build and copied for each test that needs one.
// Filling a million rows through MLflow's three metric indexes takes seconds; copying the file a
// fraction of one. Every test still gets its own copy, so one test's writes never reach another.

#include "core/store/Store.h"

#include <functional>
#include <string>

namespace radt::test {

/// Copies the store `build` fills to `destination` (a SQLite file path) and returns that path. The
/// first call in a build builds it in <binary dir>/tests/store-cache under `name`; later calls,
/// from any test process, copy that file. It is rebuilt whenever the calling test executable was
/// relinked (a changed core or test changes what `build` writes), and concurrent first calls
/// build it once. `build` must write the same store on every call (a seeded generator).
std::string copyOfCachedStore(const std::string& name, const std::function<void(Store&)>& build,
                              const std::string& destination);

} // namespace radt::test
