// SPDX-License-Identifier: MIT
#pragma once
// PostgresStore's connection, for the files that implement its members (PostgresStore.cpp,
// PostgresEnvelopes.cpp, PostgresStoreCuration.cpp): internal to core.

#include "core/store/postgres/PostgresStore.h"

#include <pqxx/pqxx>

#include <string>

namespace radt {

struct PostgresStore::Connection {
    explicit Connection(const std::string& options) : c(options) {}
    pqxx::connection c;
};

/// libpq's text without the trailing newline; it names host and port, never the password.
inline std::string trimmed(const std::string& text) {
    const auto end = text.find_last_not_of("\n ");
    return end == std::string::npos ? text : text.substr(0, end + 1);
}

/// Runs `fn` on the connection, connecting again first when the server went away; libpq's errors
/// become StoreErrors saying `what` was being done, in which store.
template <typename Fn> inline auto PostgresStore::withConnection(const char* what, Fn fn) {
    if (!m_conn || !m_conn->c.is_open())
        connect(); // the server came back: carry on where we were
    try {
        return fn(m_conn->c);
    } catch (const pqxx::broken_connection& e) {
        m_conn.reset();
        throw StoreError(std::string("lost the connection to ") + m_uri.display() + " (" + what +
                         "): " + trimmed(e.what()));
    } catch (const pqxx::sql_error& e) {
        if (!m_conn->c.is_open())
            m_conn.reset();
        throw StoreError(std::string(what) + " in " + m_uri.display() + ": " + trimmed(e.what()));
    }
}

} // namespace radt
