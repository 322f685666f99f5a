// SPDX-License-Identifier: MIT
#pragma once
// Store URIs in MLflow's style (resources/DESIGN.md §4) and the order in which the tools pick one.

#include <string>

namespace radt {

struct StoreUri {
    enum class Kind { Sqlite, Postgres };
    Kind kind = Kind::Sqlite;
    std::string text; ///< as given (may hold a password: never print it, use display())
    std::string path; ///< Sqlite: the file path as written (relative to the working directory)
    std::string user; ///< Postgres fields
    std::string password;
    std::string host;
    std::string port;
    std::string database;
    std::string query; ///< Postgres: what follows '?', e.g. host=/socket/dir

    /// The URI with any password replaced by "***".
    std::string display() const;
};

/// Parses `sqlite:///rel.db`, `sqlite:////abs.db`, a plain file path, or
/// `postgresql://user[:password]@host[:port]/db[?params]`. Throws StoreError naming what is wrong.
StoreUri parseStoreUri(const std::string& text);

/// Replaces the password of any `scheme://user:password@` URI by "***"; other text unchanged.
std::string maskPassword(const std::string& uri);

struct ResolvedStoreUri {
    std::string uri;
    std::string source; ///< "--store", "RADT_TRACKING_URI", "MLFLOW_TRACKING_URI" or "default"
};

/// Resolution order: the command-line value (when not empty), then RADT_TRACKING_URI, then
/// MLFLOW_TRACKING_URI, then the embedded default store.
ResolvedStoreUri resolveStoreUri(const std::string& commandLineValue);

/// `sqlite:///$XDG_DATA_HOME/radt/radt.db`, falling back to ~/.local/share when XDG_DATA_HOME is unset.
std::string defaultStoreUri();
/// The directory of the default store; created (with parents) by createDefaultStoreDir().
std::string defaultStoreDir();
void createDefaultStoreDir();

} // namespace radt
