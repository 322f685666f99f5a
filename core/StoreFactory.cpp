// SPDX-License-Identifier: MIT
#include "core/StoreFactory.h"

#include "core/store/StoreUri.h"
#include "core/store/postgres/PostgresStore.h"
#include "core/store/sqlite/SqliteStore.h"

namespace radt {

std::unique_ptr<Store> openStore(const std::string& uri, OpenMode mode) {
    const StoreUri parsed = parseStoreUri(uri);
    if (parsed.kind == StoreUri::Kind::Postgres)
        return std::make_unique<PostgresStore>(parsed, mode);
    return std::make_unique<SqliteStore>(parsed, mode);
}

} // namespace radt
