// SPDX-License-Identifier: MIT
#pragma once
// The QObject bridge from the collector's live bus to the GUI thread (resources/DESIGN.md §2, §8). Bus
// callbacks run on listener threads: they only queue the points; the GUI thread receives them
// in batches at most every ~40 ms (repaints coalesced), whatever the number of runs and keys.

#include "core/base/Model.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace radt {

class SampleBus;

class LiveBridge : public QObject {
    Q_OBJECT
public:
    using Batch = std::map<std::string, std::vector<MetricPoint>>; ///< run uuid -> points

    LiveBridge(SampleBus& bus, int coalesceMs = 40, QObject* parent = nullptr);
    ~LiveBridge() override; ///< unsubscribes: no callback runs after it

signals:
    /// On the GUI thread: every point published since the last batch, per run.
    void samples(std::shared_ptr<const radt::LiveBridge::Batch> batch);
    /// A run published for the first time (it was just created by a collector in this process).
    void runSeen(const QString& runUuid);

private:
    void deliver();

    SampleBus& m_bus;
    int m_subscription;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastDeliveryMs = 0;
    int m_coalesceMs = 40;
    std::mutex m_mutex; ///< guards what the bus threads fill
    Batch m_pending;
    bool m_scheduled = false;
    std::vector<std::string> m_seen;
    std::vector<std::string> m_newRuns;
};

} // namespace radt
