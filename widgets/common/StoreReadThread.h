// SPDX-License-Identifier: MIT
#pragma once
// The views' one way to read a store off the GUI thread (resources/DESIGN.md §8): a thread of its
// own with its own read-only connection, opened, used and closed there; tasks run in the order
// posted, and a request can be numbered so that a newer one skips an older one not yet started.
// Held by a shared_ptr; a running task holds it too, so a view may go while its task runs (the
// thread then ends once the task returns).

#include <QString>

#include <functional>
#include <memory>
#include <mutex>
#include <string>

class QObject;
class QThread;

namespace radt {

class Store;

class StoreReadThread : public std::enable_shared_from_this<StoreReadThread> {
public:
    /// A started thread named `name` ("radt insights": what a debugger and `top -H` show).
    static std::shared_ptr<StoreReadThread> start(const QString& name);
    ~StoreReadThread();
    StoreReadThread(const StoreReadThread&) = delete;
    StoreReadThread& operator=(const StoreReadThread&) = delete;

    /// Runs `task` on the thread, after the tasks posted before it.
    void post(std::function<void(StoreReadThread&)> task);
    /// The same, for request `generation`: skipped when a newer request was posted before it
    /// started (a basket filled run by run reads once, for its last state).
    void postLatest(quint64 generation, std::function<void(StoreReadThread&)> task);
    /// Whether a request newer than `generation` was posted since (a long task may stop early).
    bool superseded(quint64 generation);
    /// Takes no more tasks (those queued are dropped) and waits for the one running, if any: for
    /// an owner whose tasks must not outlive it (the chart loader's reach into its charts and its
    /// writable connection). Not from a task.
    void finish();

    /// The thread's connection to `uri` (tasks only), opened read-only, again when the URI changed.
    Store& connection(const std::string& uri);

private:
    explicit StoreReadThread(const QString& name);
    bool finished();

    QThread* m_thread;  ///< on the heap: it may have to outlive this (see the destructor)
    QObject* m_context; ///< lives on the thread: what tasks are queued to
    std::mutex m_mutex;
    quint64 m_latest = 0;
    bool m_finished = false; ///< finish() was called: queued tasks are dropped
    std::string m_uri;
    std::unique_ptr<Store> m_store;
};

} // namespace radt
