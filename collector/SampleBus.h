// SPDX-License-Identifier: MIT
#pragma once
// The live sample bus (resources/DESIGN.md §8): listeners publish batches of points for a run; every
// subscriber (the store writer, the explorer's live charts) receives them at once, without waiting for the
// store.

#include "core/base/Model.h"

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace radt {

class SampleBus {
public:
    using Subscriber =
        std::function<void(const std::string& runUuid, const std::vector<MetricPoint>& points)>;

    /// Thread-safe. Callbacks run on the publishing thread (a listener's), so they must be quick:
    /// copy or queue the points and return. A callback must not subscribe or unsubscribe.
    int subscribe(Subscriber subscriber);
    /// Thread-safe. Once it returns, the callback is not running and will not be called again.
    void unsubscribe(int id);

    /// Thread-safe; publishers may call concurrently.
    void publish(const std::string& runUuid, const std::vector<MetricPoint>& points);

    size_t published() const;

private:
    mutable std::mutex m_mutex; ///< held during fan-out: that is what makes unsubscribe safe
    std::vector<std::pair<int, Subscriber>> m_subscribers;
    int m_nextId = 1;
    size_t m_published = 0;
};

} // namespace radt
