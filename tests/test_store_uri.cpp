// SPDX-License-Identifier: MIT
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "core/store/StoreUri.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace radt;

TEST(StoreUri, SqliteRelativeAndAbsolute) {
    EXPECT_EQ(parseStoreUri("sqlite:///rel.db").path, "rel.db");
    EXPECT_EQ(parseStoreUri("sqlite:///sub/dir/rel.db").path, "sub/dir/rel.db");
    EXPECT_EQ(parseStoreUri("sqlite:////abs/path.db").path, "/abs/path.db");
    EXPECT_EQ(parseStoreUri("sqlite:////abs/path.db").kind, StoreUri::Kind::Sqlite);
}

TEST(StoreUri, PlainPathIsSqliteFile) {
    const StoreUri uri = parseStoreUri("/data/radt.db");
    EXPECT_EQ(uri.kind, StoreUri::Kind::Sqlite);
    EXPECT_EQ(uri.path, "/data/radt.db");
}

TEST(StoreUri, PostgresFields) {
    const StoreUri uri = parseStoreUri("postgresql://alice:s3cret@db.lab:5433/mlflow");
    EXPECT_EQ(uri.kind, StoreUri::Kind::Postgres);
    EXPECT_EQ(uri.user, "alice");
    EXPECT_EQ(uri.password, "s3cret");
    EXPECT_EQ(uri.host, "db.lab");
    EXPECT_EQ(uri.port, "5433");
    EXPECT_EQ(uri.database, "mlflow");
    EXPECT_EQ(uri.display(), "postgresql://alice:***@db.lab:5433/mlflow");

    const StoreUri socket = parseStoreUri("postgresql:///mlflow?host=/var/run/postgresql");
    EXPECT_EQ(socket.database, "mlflow");
    EXPECT_EQ(socket.query, "host=/var/run/postgresql");
    EXPECT_EQ(parseStoreUri("postgresql+psycopg2://u@h/db").kind, StoreUri::Kind::Postgres);
}

TEST(StoreUri, PasswordNeverShown) {
    EXPECT_EQ(maskPassword("postgresql://bob:pw@host/db"), "postgresql://bob:***@host/db");
    EXPECT_EQ(maskPassword("postgresql://bob@host/db"), "postgresql://bob@host/db");
    EXPECT_EQ(maskPassword("sqlite:////tmp/x.db"), "sqlite:////tmp/x.db");
    try {
        parseStoreUri("postgresql://bob:topsecret@host:99999/db");
        FAIL() << "bad port accepted";
    } catch (const StoreError& e) {
        EXPECT_EQ(std::string(e.what()).find("topsecret"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("port"), std::string::npos) << e.what();
    }
    try {
        // A host that does not resolve: the connection error shows the URI, masked.
        openStore("postgresql://bob:topsecret@no-such-host.invalid/db", OpenMode::OpenExisting);
        FAIL() << "an unreachable server must be an error";
    } catch (const StoreError& e) {
        EXPECT_EQ(std::string(e.what()).find("topsecret"), std::string::npos) << e.what();
        EXPECT_NE(
            std::string(e.what()).find("cannot connect to postgresql://bob:***@no-such-host.invalid/db"),
            std::string::npos)
            << e.what();
    }
}

TEST(StoreUri, BrokenUrisAreRejectedWithReason) {
    struct Case {
        const char* uri;
        const char* reason;
    };
    for (const Case& c :
         {Case{"", "empty"}, Case{"sqlite:/x.db", "'://'"}, Case{"sqlite:x.db", "'://'"},
          Case{"sqlite://host/x.db", "no host"}, Case{"sqlite:///", "no database file"},
          Case{"sqlite:///x.db?mode=ro", "query"}, Case{"mysql://u@h/db", "unsupported scheme 'mysql'"},
          Case{"http://localhost:5000", "unsupported scheme 'http'"},
          Case{"postgresql://host", "no database name"}, Case{"postgresql://u@h:abc/db", "port"},
          Case{"postgresql://:pw@h/db", "empty user"}, Case{"postgresql://u@h:0/db", "port"},
          Case{"postgresql://u@h:65536/db", "port"}, Case{"postgresql://u@h:+80/db", "port"},
          // Found by fuzz_store_uri: std::stol threw std::out_of_range instead of a StoreError.
          Case{"postgresql://u@h:99999999999999999999/db", "port"}}) {
        try {
            parseStoreUri(c.uri);
            ADD_FAILURE() << "accepted: " << c.uri;
        } catch (const StoreError& e) {
            EXPECT_NE(std::string(e.what()).find(c.reason), std::string::npos) << c.uri << " -> " << e.what();
        }
    }
}

TEST(StoreUri, ResolutionOrder) {
    setenv("XDG_DATA_HOME", "/xdg", 1);
    unsetenv("RADT_TRACKING_URI");
    unsetenv("MLFLOW_TRACKING_URI");
    EXPECT_EQ(resolveStoreUri("").uri, "sqlite:////xdg/radt/radt.db");
    EXPECT_EQ(resolveStoreUri("").source, "default");
    setenv("MLFLOW_TRACKING_URI", "sqlite:///mlflow.db", 1);
    EXPECT_EQ(resolveStoreUri("").uri, "sqlite:///mlflow.db");
    setenv("RADT_TRACKING_URI", "sqlite:///radt.db", 1);
    EXPECT_EQ(resolveStoreUri("").uri, "sqlite:///radt.db");
    EXPECT_EQ(resolveStoreUri("").source, "RADT_TRACKING_URI");
    EXPECT_EQ(resolveStoreUri("sqlite:///cli.db").uri, "sqlite:///cli.db");
    EXPECT_EQ(resolveStoreUri("sqlite:///cli.db").source, "--store");
    unsetenv("RADT_TRACKING_URI");
    unsetenv("MLFLOW_TRACKING_URI");
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", "/home/u", 1);
    EXPECT_EQ(defaultStoreUri(), "sqlite:////home/u/.local/share/radt/radt.db");
}
