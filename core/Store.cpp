#include "Store.h"

#include "SqliteStore.h"
#include "StoreUri.h"

namespace radt {

std::unique_ptr<Store> openStore(const std::string& text, OpenMode mode) {
    const StoreUri uri = parseStoreUri(text);
    if (uri.kind == StoreUri::Kind::Postgres)
        throw StoreError("cannot open store " + uri.display() +
                         ": PostgreSQL stores are recognised but not supported by this build yet; "
                         "use a sqlite:/// URI");
    return std::make_unique<SqliteStore>(uri, mode);
}

} // namespace radt
