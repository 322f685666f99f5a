// SPDX-License-Identifier: MIT
#include "collector/SampleBus.h"

#include <algorithm>

namespace radt {

int SampleBus::subscribe(Subscriber subscriber) {
    std::lock_guard<std::mutex> lock(m_mutex);
    const int id = m_nextId++;
    m_subscribers.emplace_back(id, std::move(subscriber));
    return id;
}

void SampleBus::unsubscribe(int id) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_subscribers.erase(std::remove_if(m_subscribers.begin(), m_subscribers.end(),
                                       [id](const auto& s) { return s.first == id; }),
                        m_subscribers.end());
}

void SampleBus::publish(const std::string& runUuid, const std::vector<MetricPoint>& points) {
    if (points.empty())
        return;
    std::lock_guard<std::mutex> lock(m_mutex);
    m_published += points.size();
    for (const auto& [id, subscriber] : m_subscribers)
        subscriber(runUuid, points);
}

size_t SampleBus::published() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_published;
}

} // namespace radt
