// SPDX-License-Identifier: MIT
#pragma once
// Where the Store contract tests put a fresh, empty store: a SQLite file in a temporary directory,
// or a new database on the PostgreSQL server the environment names (PGHOST, PGUSER, PGPASSWORD,
// PGPORT as pg_virtualenv sets them), dropped again afterwards.

#include "TempDir.h" // shell(), shellOutput()

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace radt::test {

class StoreBackend {
public:
    virtual ~StoreBackend() = default;
    virtual bool available() const { return true; }
    virtual std::string unavailableReason() const { return {}; }
    /// The URI of a new empty store (each call a new one).
    virtual std::string freshUri() = 0;
};

/// "sqlite" or "postgresql" (the schema radt creates; on PostgreSQL metrics is partitioned by week),
/// "postgresql_unpartitioned" (as radt created before partitions), "sqlite_mlflow3" / "postgresql_mlflow3"
/// (MLflow 3.11's schema: experiments per workspace) or "sqlite_2019" (without latest_metrics,
/// as MLflow's 2019 stores).
std::unique_ptr<StoreBackend> makeBackend(const std::string& name);

/// Runs `sql` in another process, as another client of the store (MLflow's, a person's SQL) would:
/// Python's sqlite3 module (the driver MLflow's SQLAlchemy store uses) on a SQLite store's file,
/// psql on a makeBackend PostgreSQL store. Throws naming the command when it fails.
void sqlByAnotherClient(const std::string& uri, const std::string& sql);

/// psql's unaligned answer to `sql` (its error text when it fails) in the database of a
/// freshUri() PostgreSQL store (postgresql:///DB on the environment's server).
std::string psqlIn(const std::string& uri, const std::string& sql);

/// A test run once per backend (its parameter, a makeBackend name) on a fresh store, m_uri;
/// skipped, saying why, where the backend is not available (no PostgreSQL server).
class BackendTest : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        m_backend = makeBackend(GetParam());
        if (!m_backend->available())
            GTEST_SKIP() << m_backend->unavailableReason();
        m_uri = m_backend->freshUri();
    }
    std::unique_ptr<StoreBackend> m_backend;
    std::string m_uri;
};

} // namespace radt::test
