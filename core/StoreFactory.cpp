// SPDX-License-Identifier: MIT
#include "core/StoreFactory.h"

#include "core/store/StoreUri.h"
#include "core/store/postgres/PostgresBackend.h"
#include "core/store/sqlite/SqliteStore.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace radt {

namespace {

std::string programFolder() {
    std::error_code error;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string(".") : exe.parent_path().string();
}

/// Where the module may be, in order: $RADT_POSTGRES_MODULE, then kPostgresModuleDir from the
/// program's folder (build and installed trees), then beside the program (a bundle run through
/// its own dynamic loader, whose folder /proc/self/exe names).
std::vector<std::string> moduleCandidates() {
    if (const char* chosen = std::getenv("RADT_POSTGRES_MODULE"); chosen && *chosen)
        return {chosen};
    const std::string folder = programFolder();
    return {folder + "/" + kPostgresModuleDir + "/" + kPostgresModuleName,
            folder + "/" + kPostgresModuleName};
}

const PostgresBackend* loadPostgresBackend() {
    const std::vector<std::string> candidates = moduleCandidates();
    for (const std::string& path : candidates) {
        if (::access(path.c_str(), F_OK) != 0)
            continue;
        // Never closed: the stores it makes live until the program ends. RTLD_NOW: a library it
        // needs that is missing is said here, not at the first call that needed it.
        void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!module)
            throw StoreError("PostgreSQL stores need radt's PostgreSQL module, and " + path +
                             " cannot be loaded: " + ::dlerror());
        using Entry = const PostgresBackend* (*)();
        const auto entry = reinterpret_cast<Entry>(::dlsym(module, kPostgresBackendEntry));
        const PostgresBackend* backend = entry ? entry() : nullptr;
        if (!backend)
            throw StoreError(path + " is not radt's PostgreSQL module (it has no " + kPostgresBackendEntry +
                             ")");
        if (std::strcmp(backend->stamp, RADT_BUILD_STAMP) != 0)
            throw StoreError(path + " is the PostgreSQL module of another radt build (" + backend->stamp +
                             ", this radt is " + RADT_BUILD_STAMP + "): install them together");
        return backend;
    }
    std::string tried;
    for (const std::string& path : candidates)
        tried += (tried.empty() ? "" : ", ") + path;
    throw StoreError("PostgreSQL stores need radt's PostgreSQL module (" + std::string(kPostgresModuleName) +
                     "), which is not at " + tried + "; set RADT_POSTGRES_MODULE to where it is");
}

} // namespace

const PostgresBackend& postgresBackend() {
    // A failed load throws out of the initialisation, so the next store opened tries again.
    static const PostgresBackend* const backend = loadPostgresBackend();
    return *backend;
}

std::unique_ptr<Store> openStore(const std::string& uri, OpenMode mode) {
    const StoreUri parsed = parseStoreUri(uri);
    if (parsed.kind == StoreUri::Kind::Postgres)
        return postgresBackend().open(parsed, mode);
    return std::make_unique<SqliteStore>(parsed, mode);
}

} // namespace radt
