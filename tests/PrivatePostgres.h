// SPDX-License-Identifier: MIT
#pragma once
// A PostgreSQL server of one test's own: initdb into a temporary directory, a free port on
// loopback, trust authentication. A test that stops the server (an outage) or needs two (a
// primary and its standby) uses its own, so it never takes the shared pg_virtualenv server away
// from the tests running beside it. As root (CI) the server runs as the `postgres` user, as
// PostgreSQL requires.

#include "TempDir.h"

#include <string>

namespace radt::test {

class PrivatePostgres {
public:
    /// Finds PostgreSQL's server binaries (PGVERSION, else the newest under /usr/lib/postgresql).
    PrivatePostgres();
    ~PrivatePostgres(); ///< stops the server (immediate) if it runs

    /// "" when a server can be made here; else why not (no server binaries, no postgres user).
    const std::string& unavailableReason() const { return m_unavailable; }

    /// initdb (with `extraConf` appended to postgresql.conf) and start. Throws naming the log.
    void initAndStart(const std::string& extraConf = {});
    /// A server whose data directory outlives it (a benchmark's generated stores, kept in the build
    /// tree): started as it is when `dir` holds one, made there first otherwise; stopped with
    /// fast shutdown. True when it was there already.
    bool startKept(const std::string& dir);
    /// A standby of `primary`, streaming from it: pg_basebackup -R, then start.
    void startStandbyOf(const PrivatePostgres& primary);
    void stop();  ///< pg_ctl stop -m fast
    void start(); ///< pg_ctl start on the existing data directory

    int port() const { return m_port; }
    /// postgresql://USER@127.0.0.1:PORT/DB
    std::string uri(const std::string& database = "postgres") const;
    /// Runs psql -c `sql` against `database` as the server's user; its exit status.
    int psql(const std::string& sql, const std::string& database = "postgres") const;
    /// The server's log (for a failed test's message).
    std::string log() const;

private:
    std::string asServerUser(const std::string& command) const;
    int run(const std::string& command) const;
    void startServer();

    TempDir m_dir;
    std::string m_bin;  // /usr/lib/postgresql/N/bin
    std::string m_user; // the role initdb makes: the OS user the server runs as
    std::string m_data;
    std::string m_unavailable;
    int m_port = 0;
    bool m_running = false;
    bool m_kept = false;
};

} // namespace radt::test
