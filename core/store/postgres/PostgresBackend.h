// SPDX-License-Identifier: MIT
#pragma once
// The PostgreSQL backend as programs reach it: a table of entry points in radt's PostgreSQL module
// (core/store/postgres/module), which core/StoreFactory.cpp loads the first time a postgresql://
// store is used. Linking libpqxx would load libpq and the ~25 libraries behind it (Kerberos, LDAP,
// TLS) into every radt, ~11 ms of CPU at each start on the 2-core VM, paid by the SQLite runs that
// are nearly all runs (resources/DESIGN.md §2, "The PostgreSQL module"). The module and the program
// come from one build, so the table holds C++ types; the stamp refuses a module of another build.

#include "core/store/Store.h"
#include "core/store/StoreUri.h"
#include "core/store/postgres/PostgresMaintenance.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace radt {

struct PostgresBackend {
    /// RADT_BUILD_STAMP of the build that made the module: its version, compiler and flags.
    const char* stamp;
    /// PostgresStore(uri, mode) (core/store/postgres/PostgresStore.h).
    std::unique_ptr<Store> (*open)(const StoreUri& uri, OpenMode mode);
    /// partitionStore and archiveStore (core/store/postgres/PostgresMaintenance.h).
    PartitionOutcome (*partition)(const std::string& uri, const std::string& period,
                                  const std::function<void(size_t, size_t, int64_t)>& progress,
                                  const LockPatience& patience);
    ArchiveOutcome (*archive)(const std::string& uri, int64_t beforeMs, const std::string& toUri,
                              const StoreOpener& open,
                              const std::function<void(size_t, size_t, size_t)>& progress,
                              const LockPatience& patience);
};

/// The module's one exported symbol: `extern "C" const PostgresBackend* radt_postgres_backend()`.
inline constexpr const char* kPostgresBackendEntry = "radt_postgres_backend";
/// The module's file name, and where it lies from the program's folder: ../lib/radt in the build
/// tree (every program's folder is one below its root) as in the installed tree (/usr/bin ->
/// /usr/lib/radt); beside the program in a bundle (resources/bundle-radt.sh).
inline constexpr const char* kPostgresModuleName = "radt-postgres.so";
inline constexpr const char* kPostgresModuleDir = "../lib/radt";

} // namespace radt
