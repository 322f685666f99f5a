// SPDX-License-Identifier: MIT
#pragma once
// SqliteStore's write transaction, shared by the files that implement SqliteStore (not a public
// header: only SqliteStore*.cpp include it).

#include "core/store/Store.h"
#include "core/store/sqlite/SqliteStatement.h"
#include "core/store/sqlite/SqliteStore.h"

#include <sqlite3.h>

#include <chrono>
#include <string>
#include <thread>

namespace radt {

/// How long a store waits for another process's lock before it says so.
constexpr int kBusyTimeoutMs = 10000;

// BEGIN IMMEDIATE ... COMMIT, rolled back when an exception leaves the scope.
class SqliteStore::Transaction {
public:
    explicit Transaction(sqlite3* db) : m_db(db) {
        // A statement of this connection still between rows holds a WAL snapshot: once another
        // process writes, no BEGIN IMMEDIATE can succeed until it is reset (SQLITE_BUSY_SNAPSHOT,
        // which no waiting cures). Two radt creating runs at once hit it one time in a hundred
        // under ASan; here it fails every time, naming the statement.
        for (sqlite3_stmt* open = sqlite3_next_stmt(db, nullptr); open; open = sqlite3_next_stmt(db, open))
            if (sqlite3_stmt_busy(open) && sqlite3_stmt_readonly(open))
                throw StoreError(std::string("internal error: a write began while a read of the same "
                                             "connection was still open: ") +
                                 sqlite3_sql(open));
        // The busy handler waits out an ordinary lock, but a store that another process is just
        // switching to WAL (two radt creating one new store) answers SQLITE_BUSY at once: wait
        // for that as for a lock, as long as the busy timeout, then fail naming the file.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
        int rc;
        while ((rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) & 0xff) == SQLITE_BUSY &&
               std::chrono::steady_clock::now() < deadline) {
            // Hold nothing while waiting: a lock kept here is what the other process waits for.
            if (!sqlite3_get_autocommit(db))
                sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (rc == SQLITE_OK)
            return;
        if (!sqlite3_get_autocommit(db))
            sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        sqliteExec(db, "BEGIN IMMEDIATE", "cannot start a transaction");
    }
    ~Transaction() {
        if (!m_done)
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit() {
        sqliteExec(m_db, "COMMIT", "cannot commit");
        m_done = true;
    }

private:
    sqlite3* m_db;
    bool m_done = false;
};

} // namespace radt
