// SPDX-License-Identifier: MIT
#include "widgets/common/StoreReadThread.h"

#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <QObject>
#include <QThread>

namespace radt {

std::shared_ptr<StoreReadThread> StoreReadThread::start(const QString& name) {
    return std::shared_ptr<StoreReadThread>(new StoreReadThread(name));
}

StoreReadThread::StoreReadThread(const QString& name) : m_thread(new QThread), m_context(new QObject) {
    m_context->moveToThread(m_thread);
    QObject::connect(m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread->setObjectName(name);
    m_thread->start();
}

StoreReadThread::~StoreReadThread() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_latest = ~quint64(0); // whatever is still queued is superseded
    }
    m_store.reset();
    if (QThread::currentThread() == m_thread) {
        // The view went while a task ran: the task held the last reference, so this runs on the
        // thread, which cannot wait for itself. It ends once the task returns and is deleted
        // then, by the thread that owns the QThread object.
        QObject::connect(m_thread, &QThread::finished, m_thread, &QObject::deleteLater);
        m_thread->quit();
        return;
    }
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

void StoreReadThread::post(std::function<void(StoreReadThread&)> task) {
    std::weak_ptr<StoreReadThread> weak = weak_from_this();
    QMetaObject::invokeMethod(m_context, [weak, task = std::move(task)] {
        if (auto self = weak.lock(); self && !self->finished())
            task(*self);
    });
}

bool StoreReadThread::finished() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_finished;
}

void StoreReadThread::postLatest(quint64 generation, std::function<void(StoreReadThread&)> task) {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_latest = generation;
    }
    std::weak_ptr<StoreReadThread> weak = weak_from_this();
    QMetaObject::invokeMethod(m_context, [weak, generation, task = std::move(task)] {
        if (auto self = weak.lock(); self && !self->superseded(generation))
            task(*self);
    });
}

void StoreReadThread::finish() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_latest = ~quint64(0); // whatever is still queued is superseded
        m_finished = true;
    }
    m_thread->quit();
    m_thread->wait();
}

bool StoreReadThread::superseded(quint64 generation) {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_latest != generation;
}

Store& StoreReadThread::connection(const std::string& uri) {
    if (!m_store || m_uri != uri) {
        m_store.reset();
        m_store = openStore(uri, OpenMode::ReadOnly); // reads only
        m_uri = uri;
    }
    return *m_store;
}

} // namespace radt
