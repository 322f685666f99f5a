// SPDX-License-Identifier: MIT
// Store URIs from --store, RADT_TRACKING_URI / MLFLOW_TRACKING_URI and the explorer's recent
// stores: parseStoreUri() as openStore() calls it, and maskPassword() on any text, as every
// message that names a store does. StoreError is the documented rejection.

#include "FuzzSupport.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "core/store/StoreUri.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(radt::fuzz::asText(data, size));
    (void)radt::maskPassword(text);
    try {
        const radt::StoreUri uri = radt::parseStoreUri(text);
        RADT_FUZZ_CHECK(uri.text == text, text);
        if (uri.kind == radt::StoreUri::Kind::Sqlite) {
            RADT_FUZZ_CHECK(!uri.path.empty(), text);
        } else {
            RADT_FUZZ_CHECK(!uri.database.empty(), text);
            // display() goes into logs and dialogs: the password's place must be masked.
            if (!uri.password.empty()) {
                const std::string masked = text.substr(0, text.find("://") + 3) + uri.user + ":***@";
                RADT_FUZZ_CHECK(uri.display().rfind(masked, 0) == 0, text);
            }
        }
    } catch (const radt::StoreError&) {
        // documented: names what is wrong
    }
    return 0;
}
