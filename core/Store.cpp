#include "Store.h"

#include "PostgresStore.h"
#include "SqliteStore.h"
#include "StoreUri.h"

namespace radt {

std::unique_ptr<Store> openStore(const std::string& text, OpenMode mode) {
    const StoreUri uri = parseStoreUri(text);
    if (uri.kind == StoreUri::Kind::Postgres)
        return std::make_unique<PostgresStore>(uri, mode);
    return std::make_unique<SqliteStore>(uri, mode);
}

} // namespace radt
