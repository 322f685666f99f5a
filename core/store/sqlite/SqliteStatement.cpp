// SPDX-License-Identifier: MIT
#include "core/store/sqlite/SqliteStatement.h"

#include "core/store/Store.h"

#include <sqlite3.h>

namespace radt {

namespace {

/// SQLite's message with the file it is about: "database disk image is malformed" alone does
/// not say which of a user's stores is damaged.
std::string errorOf(sqlite3* db) {
    std::string message = sqlite3_errmsg(db);
    const char* file = sqlite3_db_filename(db, "main");
    if (file && *file)
        message += std::string(" (") + file + ")";
    return message;
}

} // namespace

SqliteStatement::SqliteStatement(sqlite3* db, const std::string& sql) : m_db(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
        throw StoreError("SQLite cannot prepare a statement: " + errorOf(db));
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(m_stmt);
}

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, const std::string& value) {
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bindNoCopy(int index, const std::string& value) {
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index) {
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    const std::string message = errorOf(m_db);
    sqlite3_reset(m_stmt);
    if ((rc & 0xff) == SQLITE_CORRUPT)
        throw StoreError("SQLite error: " + message +
                         ": the file is damaged, so figures read from it would be wrong (sqlite3's .recover "
                         "command can save what is left into a new file)");
    throw StoreError("SQLite error: " + message);
}

void SqliteStatement::execute() {
    while (step()) {
    }
    reset();
}

void SqliteStatement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int64_t SqliteStatement::int64(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteStatement::real(int column) const {
    return sqlite3_column_double(m_stmt, column);
}

std::string SqliteStatement::text(int column) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string();
}

bool SqliteStatement::isNull(int column) const {
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

void sqliteExec(sqlite3* db, const std::string& sql, const std::string& context) {
    char* error = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        std::string message = error ? error : sqlite3_errmsg(db);
        sqlite3_free(error);
        if (context.find('/') == std::string::npos) // the context may name the file already
            if (const char* file = sqlite3_db_filename(db, "main"); file && *file)
                message += std::string(" (") + file + ")";
        throw StoreError(context + ": " + message);
    }
}

} // namespace radt
