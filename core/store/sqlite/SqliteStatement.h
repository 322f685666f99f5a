// SPDX-License-Identifier: MIT
#pragma once
// RAII wrapper of a prepared sqlite3 statement: bind by position, step, read columns.

#include <cstdint>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace radt {

class SqliteStatement {
public:
    SqliteStatement(sqlite3* db, const std::string& sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    SqliteStatement& bind(int index, int64_t value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind(int index, const std::string& value);
    /// Binds without copying: `value` must outlive the next step()/reset().
    SqliteStatement& bindNoCopy(int index, const std::string& value);
    SqliteStatement& bindNull(int index);

    /// Advances; true while a row is available. Throws StoreError on failure.
    bool step();
    /// Runs a statement that returns no rows, then resets it for reuse.
    void execute();
    void reset();

    int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    bool isNull(int column) const;
    sqlite3_stmt* handle() const { return m_stmt; }

private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

/// Runs one or more SQL statements without results; throws StoreError naming `context`.
void sqliteExec(sqlite3* db, const std::string& sql, const std::string& context);

} // namespace radt
