// SPDX-License-Identifier: MIT
#include "core/store/postgres/PostgresLockWaits.h"

#include "core/store/Store.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace radt::pg {

namespace {

using Clock = std::chrono::steady_clock;

int64_t msBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

/// Looks, from a second connection, at whom session `pid` waits for, once `after` has passed and
/// the try has not ended: pg_blocking_pids names a session's blockers only while its request waits,
/// so the look must happen during the wait, not after the timeout ended it.
class BlockerWatch {
public:
    BlockerWatch(pqxx::connection& watch, int pid, std::chrono::milliseconds after)
        : m_thread([this, &watch, pid, after] {
              std::unique_lock<std::mutex> lock(m_mutex);
              if (m_cv.wait_for(lock, after, [this] { return m_stopped; }))
                  return; // the try ended before it waited that long
              lock.unlock();
              std::string seen;
              try {
                  seen = blockingSessions(watch, pid);
              } catch (const std::exception& e) {
                  seen = std::string("sessions it could not look up (") + e.what() + ")";
              }
              lock.lock();
              m_seen = std::move(seen);
          }) {}
    ~BlockerWatch() { stop(); }
    /// Ends the watch (at once when it has not looked yet); what it saw, "" when nothing.
    std::string stop() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stopped = true;
        }
        m_cv.notify_all();
        if (m_thread.joinable())
            m_thread.join();
        return m_seen;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_stopped = false;
    std::string m_seen;
    std::thread m_thread; // last: started once the members it uses exist
};

bool isLockTimeout(const pqxx::sql_error& e) {
    return e.sqlstate() == "55P03"; // lock_not_available: lock_timeout ended the wait
}

} // namespace

std::string blockingSessions(pqxx::connection& watch, int pid) {
    pqxx::nontransaction tx(watch);
    std::string out;
    for (const auto& row :
         tx.exec_params("SELECT a.pid, coalesce(a.application_name, ''), coalesce(a.usename::text, ''), "
                        "coalesce(a.state, 'state hidden'), coalesce(extract(epoch FROM now() - "
                        "a.xact_start)::bigint, -1) "
                        "FROM pg_stat_activity a WHERE a.pid = ANY(pg_blocking_pids($1)) ORDER BY a.pid",
                        pid)) {
        const std::string app = row[1].as<std::string>();
        const int64_t age = row[4].as<int64_t>();
        out += (out.empty() ? "" : ", ") + std::string("pid ") + row[0].as<std::string>() + " (" +
               (app.empty() ? "no application name" : "'" + app + "'") + ", user '" +
               row[2].as<std::string>() + "', " + row[3].as<std::string>() +
               (age >= 0 ? ", its transaction open for " + std::to_string(age) + " s" : "") + ")";
    }
    return out;
}

LockedWork
withShortLockWaits(pqxx::connection& c, pqxx::connection& watch, const std::string& what,
                   const std::string& nothingChanged, const LockPatience& patience,
                   const std::function<void(pqxx::work&, const std::function<void()>& locking)>& work) {
    LockedWork out;
    out.tries = 0;
    const Clock::time_point first = Clock::now();
    std::chrono::milliseconds pause{250};
    std::string blockers;
    for (;;) {
        ++out.tries;
        std::optional<Clock::time_point> lockedFrom; // writers are held only once it asks for that lock
        BlockerWatch watching(watch, c.backendpid(), kLockTryTimeout / 2);
        try {
            pqxx::work tx(c);
            limitLockWaits(tx);
            work(tx, [&] { lockedFrom = Clock::now(); });
            tx.commit();
            out.heldMs = lockedFrom ? msBetween(*lockedFrom, Clock::now()) : 0;
            return out;
        } catch (const pqxx::sql_error& e) {
            if (!isLockTimeout(e))
                throw;
            if (lockedFrom) // the rollback is done here
                out.failedHeldMs += msBetween(*lockedFrom, Clock::now());
        }
        if (const std::string seen = watching.stop(); !seen.empty())
            blockers = seen;
        const int64_t waited = msBetween(first, Clock::now());
        const std::string whom =
            blockers.empty() ? "sessions that ended before they could be named" : blockers;
        if (waited >= patience.limit.count())
            throw StoreError(what + ": gave up after " + std::to_string(waited / 1000) +
                             " s waiting for its lock, held by " + whom + "; " + nothingChanged);
        if (patience.say)
            patience.say(what + ": waiting for " + whom + " (" + std::to_string(waited / 1000) + " s of " +
                         std::to_string(patience.limit.count() / 1000) + " s; writers go on meanwhile)");
        // Writers queued behind the request went on when it timed out; they keep going while it
        // pauses, longer each time, so a session that stays costs them one short wait per try.
        std::this_thread::sleep_for(std::min(pause, patience.limit - std::chrono::milliseconds(waited)));
        pause = std::min<std::chrono::milliseconds>(pause * 2, std::chrono::seconds(5));
    }
}

void limitLockWaits(pqxx::transaction_base& tx) {
    tx.exec("SET LOCAL lock_timeout = '" + std::to_string(kLockTryTimeout.count()) + "ms'");
}

} // namespace radt::pg
