#include "core/StoreFactory.h"

#include "core/store/StoreUri.h"
#include "core/store/postgres/PostgresStore.h"
#include "core/store/sqlite/SqliteStore.h"

namespace radt {

std::unique_ptr<Store> openStore(const std::string& text, OpenMode mode) {
    const StoreUri uri = parseStoreUri(text);
    if (uri.kind == StoreUri::Kind::Postgres)
        return std::make_unique<PostgresStore>(uri, mode);
    return std::make_unique<SqliteStore>(uri, mode);
}

} // namespace radt
