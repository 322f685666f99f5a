// SPDX-License-Identifier: MIT
#pragma once
// Choosing a store's implementation from its URI: the one place that knows every backend, so
// that the Store interface (core/store/Store.h) knows none and a backend knows only the interface.

#include "core/store/Store.h"

#include <memory>
#include <string>

namespace radt {

struct PostgresBackend; // core/store/postgres/PostgresBackend.h

/// Opens the store a URI names (see core/store/StoreUri.h): a PostgreSQL server for
/// postgresql:// URIs, an SQLite file otherwise. Throws StoreError.
std::unique_ptr<Store> openStore(const std::string& uri, OpenMode mode);

/// The PostgreSQL backend (partition, archive, open), loaded from radt's PostgreSQL module the
/// first time it is needed, so that a program that never meets a postgresql:// store never loads
/// libpq. Throws StoreError naming where the module was looked for, or why it did not load.
const PostgresBackend& postgresBackend();

} // namespace radt
