// SPDX-License-Identifier: MIT
#include "widgets/launch/LiveBridge.h"

#include "collector/SampleBus.h"

#include <algorithm>

namespace radt {

LiveBridge::LiveBridge(SampleBus& bus, int coalesceMs, QObject* parent) : QObject(parent), m_bus(bus) {
    m_timer.setSingleShot(true);
    m_coalesceMs = coalesceMs;
    m_clock.start();
    m_lastDeliveryMs = -coalesceMs;
    connect(&m_timer, &QTimer::timeout, this, &LiveBridge::deliver);
    m_subscription = m_bus.subscribe([this](const std::string& run, const std::vector<MetricPoint>& points) {
        bool schedule = false;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            auto& queue = m_pending[run];
            queue.insert(queue.end(), points.begin(), points.end());
            if (std::find(m_seen.begin(), m_seen.end(), run) == m_seen.end()) {
                m_seen.push_back(run);
                m_newRuns.push_back(run);
            }
            schedule = !std::exchange(m_scheduled, true);
        }
        // The first points after a quiet spell are delivered at once; within ~40 ms of the last
        // delivery they wait for the rest of that interval, and later ones join the same batch.
        if (schedule)
            QMetaObject::invokeMethod(
                this,
                [this] {
                    const qint64 since = m_clock.elapsed() - m_lastDeliveryMs;
                    m_timer.start(int(std::max<qint64>(0, m_coalesceMs - since)));
                },
                Qt::QueuedConnection);
    });
}

LiveBridge::~LiveBridge() {
    m_bus.unsubscribe(m_subscription);
}

void LiveBridge::deliver() {
    auto batch = std::make_shared<Batch>();
    std::vector<std::string> newRuns;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        batch->swap(m_pending);
        newRuns.swap(m_newRuns);
        m_scheduled = false;
    }
    m_lastDeliveryMs = m_clock.elapsed();
    for (const std::string& run : newRuns)
        emit runSeen(QString::fromStdString(run));
    if (!batch->empty())
        emit samples(batch);
}

} // namespace radt
