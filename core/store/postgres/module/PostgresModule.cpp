// SPDX-License-Identifier: MIT
// radt's PostgreSQL module: the PostgreSQL store, its partitions and archive, and libpqxx behind
// them, loaded by core/StoreFactory.cpp only when a postgresql:// store is used
// (core/store/postgres/PostgresBackend.h). Only the entry point below is exported.

#include "core/store/postgres/PostgresBackend.h"
#include "core/store/postgres/PostgresMaintenance.h"
#include "core/store/postgres/PostgresStore.h"

namespace {

std::unique_ptr<radt::Store> openPostgres(const radt::StoreUri& uri, radt::OpenMode mode) {
    return std::make_unique<radt::PostgresStore>(uri, mode);
}

} // namespace

extern "C" __attribute__((visibility("default"))) const radt::PostgresBackend* radt_postgres_backend() {
    static const radt::PostgresBackend backend{RADT_BUILD_STAMP, &openPostgres, &radt::partitionStore,
                                               &radt::archiveStore};
    return &backend;
}
