#include "StoreTestBackends.h"

#include "TempDir.h"
#include "Uuid.h"

#include <cstdlib>
#include <stdexcept>
#include <sys/wait.h>
#include <vector>

namespace radt::test {

int shell(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

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

class PostgresBackend : public StoreBackend {
public:
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
        return "postgresql:///" + db;
    }

private:
    std::vector<std::string> m_databases;
};

} // namespace

std::unique_ptr<StoreBackend> makeBackend(const std::string& name) {
    if (name == "postgresql")
        return std::make_unique<PostgresBackend>();
    return std::make_unique<SqliteBackend>();
}

} // namespace radt::test
