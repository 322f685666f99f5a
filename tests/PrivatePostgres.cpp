// SPDX-License-Identifier: MIT
#include "PrivatePostgres.h"

#include "TempDir.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace radt::test {

namespace {

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// A port nobody listens on right now (the kernel's pick for a socket bound to port 0).
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof addr;
    int port = 0;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) == 0)
        port = ntohs(addr.sin_port);
    if (fd >= 0)
        ::close(fd);
    return port;
}

std::string serverBinaries() {
    if (const char* version = std::getenv("PGVERSION"))
        if (fs::exists(std::string("/usr/lib/postgresql/") + version + "/bin/initdb"))
            return std::string("/usr/lib/postgresql/") + version + "/bin";
    std::string best;
    int bestVersion = -1;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
        const std::string name = entry.path().filename().string();
        const int version = std::atoi(name.c_str());
        if (version > bestVersion && fs::exists(entry.path() / "bin" / "initdb")) {
            bestVersion = version;
            best = (entry.path() / "bin").string();
        }
    }
    return best;
}

} // namespace

PrivatePostgres::PrivatePostgres() : m_bin(serverBinaries()), m_data(m_dir.file("data")) {
    if (m_bin.empty()) {
        m_unavailable = "no PostgreSQL server binaries under /usr/lib/postgresql";
        return;
    }
    if (::geteuid() == 0) {
        const passwd* pw = ::getpwnam("postgres");
        if (!pw) {
            m_unavailable = "running as root and there is no postgres user to run a server as";
            return;
        }
        m_user = "postgres";
        // The server's user must reach and write its directory (a root-owned 0700 temp dir).
        if (::chown(m_dir.path().c_str(), pw->pw_uid, pw->pw_gid) != 0)
            m_unavailable = "cannot give " + m_dir.path() + " to the postgres user";
    } else if (const passwd* pw = ::getpwuid(::geteuid())) {
        m_user = pw->pw_name;
    }
}

PrivatePostgres::~PrivatePostgres() {
    if (m_running)
        run(asServerUser(quote(m_bin + "/pg_ctl") + " -D " + quote(m_data) + " -m " +
                         (m_kept ? "fast -w" : "immediate") + " stop"));
}

std::string PrivatePostgres::asServerUser(const std::string& command) const {
    return ::geteuid() == 0 ? "runuser -u postgres -- " + command : command;
}

int PrivatePostgres::run(const std::string& command) const {
    return shell(command + " >>" + quote(m_dir.file("commands.log")) + " 2>&1");
}

void PrivatePostgres::initAndStart(const std::string& extraConf) {
    if (!m_unavailable.empty())
        throw std::runtime_error(m_unavailable);
    if (run(asServerUser(quote(m_bin + "/initdb") + " -D " + quote(m_data) + " -A trust -U " + quote(m_user) +
                         " -E UTF8 --no-sync")) != 0)
        throw std::runtime_error("initdb failed: " + readFile(m_dir.file("commands.log")));
    m_port = freePort();
    if (!extraConf.empty())
        writeFile(m_data + "/postgresql.auto.conf", extraConf + "\n");
    startServer();
}

bool PrivatePostgres::startKept(const std::string& dir) {
    if (!m_unavailable.empty())
        throw std::runtime_error(m_unavailable);
    m_data = dir;
    m_kept = true;
    const bool existed = fs::exists(dir + "/PG_VERSION");
    if (!existed) {
        fs::remove_all(dir);
        fs::create_directories(dir);
        if (::geteuid() == 0)
            if (const passwd* pw = ::getpwnam("postgres");
                !pw || ::chown(dir.c_str(), pw->pw_uid, pw->pw_gid) != 0)
                throw std::runtime_error("cannot give " + dir + " to the postgres user");
        if (run(asServerUser(quote(m_bin + "/initdb") + " -D " + quote(m_data) + " -A trust -U " +
                             quote(m_user) + " -E UTF8 --no-sync")) != 0)
            throw std::runtime_error("initdb failed: " + readFile(m_dir.file("commands.log")));
    }
    m_port = freePort();
    startServer();
    return existed;
}

void PrivatePostgres::startStandbyOf(const PrivatePostgres& primary) {
    if (!m_unavailable.empty())
        throw std::runtime_error(m_unavailable);
    // -R writes standby.signal and primary_conninfo; -X stream brings the WAL the copy needs;
    // -c fast: a spread checkpoint first took a minute and a half.
    if (run(asServerUser(quote(m_bin + "/pg_basebackup") + " -h 127.0.0.1 -p " +
                         std::to_string(primary.port()) + " -U " + quote(primary.m_user) + " -D " +
                         quote(m_data) + " -R -X stream -c fast")) != 0)
        throw std::runtime_error("pg_basebackup failed: " + readFile(m_dir.file("commands.log")));
    m_port = freePort();
    startServer();
}

void PrivatePostgres::startServer() {
    // Settings on the command line: they win over the files a base backup copied from the primary.
    const std::string options = "-c listen_addresses=127.0.0.1 -c port=" + std::to_string(m_port) +
                                " -c unix_socket_directories=" + m_data + " -c fsync=off";
    if (run(asServerUser(quote(m_bin + "/pg_ctl") + " -D " + quote(m_data) + " -l " +
                         quote(m_dir.file("server.log")) + " -o " + quote(options) + " -w -t 60 start")) != 0)
        throw std::runtime_error("the private PostgreSQL server did not start: " + log());
    m_running = true;
}

void PrivatePostgres::start() {
    startServer();
}

void PrivatePostgres::stop() {
    if (run(asServerUser(quote(m_bin + "/pg_ctl") + " -D " + quote(m_data) + " -m fast -w stop")) != 0)
        throw std::runtime_error("pg_ctl stop failed: " + readFile(m_dir.file("commands.log")));
    m_running = false;
}

std::string PrivatePostgres::uri(const std::string& database) const {
    return "postgresql://" + m_user + "@127.0.0.1:" + std::to_string(m_port) + "/" + database;
}

int PrivatePostgres::psql(const std::string& sql, const std::string& database) const {
    return run("psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p " + std::to_string(m_port) + " -U " +
               quote(m_user) + " -d " + quote(database) + " -c " + quote(sql));
}

std::string PrivatePostgres::log() const {
    return readFile(m_dir.file("server.log")) + readFile(m_dir.file("commands.log"));
}

} // namespace radt::test
