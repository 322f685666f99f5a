// SPDX-License-Identifier: MIT
#include "StoreTestBackends.h"

#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/base/Uuid.h"
#include "core/store/Store.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sqlite3.h>
#include <stdexcept>
#include <vector>

namespace radt::test {

namespace {

class SqliteBackend : public StoreBackend {
public:
    std::string freshUri() override {
        return "sqlite:///" + m_dir.file("store" + std::to_string(++m_count) + ".db");
    }

private:
    TempDir m_dir;
    int m_count = 0;
};

/// Stores of other MLflow generations, as the explorer meets them: MLflow 3.11's own empty store
/// (experiments per workspace), and a 2019-era store without latest_metrics (derived from it).
class SqliteGenerationBackend : public StoreBackend {
public:
    explicit SqliteGenerationBackend(bool mlflow3) : m_mlflow3(mlflow3) {}
    std::string freshUri() override {
        const std::string path = m_dir.file("store" + std::to_string(++m_count) + ".db");
        if (m_mlflow3) {
            std::filesystem::copy_file(fixturePath("mlflow/mlflow_empty_7d34483879f0.db"), path);
            std::filesystem::permissions(path, std::filesystem::perms::owner_write,
                                         std::filesystem::perm_options::add);
        } else {
            openStore("sqlite:///" + path, OpenMode::CreateIfMissing);
            sqlite3* db = nullptr;
            sqlite3_open(path.c_str(), &db);
            const int rc = sqlite3_exec(db, "DROP TABLE latest_metrics; DROP INDEX radt_metrics_run_key_time",
                                        nullptr, nullptr, nullptr);
            sqlite3_close(db);
            if (rc != SQLITE_OK)
                throw std::runtime_error("cannot make a 2019-era store at " + path);
        }
        return "sqlite:///" + path;
    }

private:
    bool m_mlflow3;
    TempDir m_dir;
    int m_count = 0;
};

class PostgresBackend : public StoreBackend {
public:
    /// mlflow3: each new database gets MLflow 3.11's schema first (a store MLflow made or
    /// upgraded), in the PostgreSQL form resources/mlflow_postgresql_schema.py derives.
    /// mlflow2019: radt's schema without latest_metrics, as MLflow's stores before 1.1.
    /// unpartitioned: radt's schema with metrics as one table, as radt made it before partitions.
    explicit PostgresBackend(bool mlflow3 = false, bool mlflow2019 = false, bool unpartitioned = false)
        : m_mlflow3(mlflow3), m_mlflow2019(mlflow2019), m_unpartitioned(unpartitioned) {}
    ~PostgresBackend() override {
        for (const std::string& db : m_databases)
            shell("dropdb --if-exists --force " + db + " >/dev/null 2>&1");
    }
    bool available() const override { return std::getenv("PGHOST") != nullptr; }
    std::string unavailableReason() const override {
        return "no PostgreSQL server (PGHOST unset): run the tests under pg_virtualenv, as resources/test.sh "
               "does";
    }
    std::string freshUri() override {
        const std::string db = "radt_test_" + newRunUuid().substr(0, 12);
        if (shell("createdb " + db + " >/dev/null") != 0)
            throw std::runtime_error("createdb " + db + " failed");
        m_databases.push_back(db);
        if (m_mlflow3 &&
            shell(
                "psql -q -v ON_ERROR_STOP=1 -d " + db +
                " -f '" RADT_MLFLOW3_PG_SCHEMA
                "' -c \"INSERT INTO alembic_version VALUES ('7d34483879f0'); INSERT INTO "
                "experiments (experiment_id, name, artifact_location, lifecycle_stage) VALUES (0, 'Default', "
                "'mlflow-artifacts:/0', 'active')\" >/dev/null") != 0)
            throw std::runtime_error("cannot load MLflow 3's schema into " + db);
        if (m_unpartitioned) {
            ::setenv("RADT_PARTITION_PERIOD", "none", 1);
            openStore("postgresql:///" + db, OpenMode::CreateIfMissing);
            ::unsetenv("RADT_PARTITION_PERIOD");
        }
        if (m_mlflow2019) {
            openStore("postgresql:///" + db, OpenMode::CreateIfMissing);
            if (shell("psql -q -v ON_ERROR_STOP=1 -d " + db +
                      " -c 'DROP TABLE latest_metrics; DROP INDEX radt_metrics_run_key_time' >/dev/null") !=
                0)
                throw std::runtime_error("cannot make a 2019-era store of " + db);
        }
        return "postgresql:///" + db;
    }

private:
    bool m_mlflow3, m_mlflow2019, m_unpartitioned;
    std::vector<std::string> m_databases;
};

} // namespace

void sqlByAnotherClient(const std::string& uri, const std::string& sql) {
    std::string command;
    if (uri.rfind("sqlite:///", 0) == 0)
        command = "python3 -c " +
                  shellQuote("import sqlite3, sys\n"
                             "c = sqlite3.connect(sys.argv[1])\n"
                             "c.executescript(sys.argv[2])\n"
                             "c.commit()\n") +
                  " " + shellQuote(uri.substr(std::string("sqlite:///").size())) + " " + shellQuote(sql);
    else
        command = "psql -q -v ON_ERROR_STOP=1 -d " +
                  shellQuote(uri.substr(std::string("postgresql:///").size())) + " -c " + shellQuote(sql);
    if (shell(command) != 0)
        throw std::runtime_error("another client could not run its SQL: " + command);
}

std::unique_ptr<StoreBackend> makeBackend(const std::string& name) {
    if (name.rfind("postgresql", 0) == 0)
        return std::make_unique<PostgresBackend>(name == "postgresql_mlflow3", name == "postgresql_2019",
                                                 name == "postgresql_unpartitioned");
    if (name == "sqlite_mlflow3" || name == "sqlite_2019")
        return std::make_unique<SqliteGenerationBackend>(name == "sqlite_mlflow3");
    return std::make_unique<SqliteBackend>();
}

std::string psqlIn(const std::string& uri, const std::string& sql) {
    const std::string db = uri.substr(std::string("postgresql:///").size());
    return shellOutput("psql -X -Atq -v ON_ERROR_STOP=1 -d " + db + " -c \"" + sql + "\" 2>&1");
}

} // namespace radt::test
