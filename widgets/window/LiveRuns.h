// SPDX-License-Identifier: MIT
#pragma once
// Runs that are running, seen from the window: workloads launched here (Run > Launch, their output
// in the console, their samples drawn at once from the in-process bus) and runs another process or
// machine records (their new rows polled every second, the tree reread every 5 s while any runs).

#include "collector/SampleBus.h"
#include "widgets/launch/LaunchController.h"
#include "widgets/launch/LiveBridge.h"
#include "widgets/window/WindowParts.h"

#include <QObject>
#include <QTimer>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

class QMainWindow;

namespace radt {

class LiveRuns : public QObject {
    Q_OBJECT
public:
    /// Makes the bus, the bridge (parts.live) and the launcher (parts.launcher), wired to the
    /// console (parts.console, made before), and starts following.
    LiveRuns(QMainWindow& window, WindowActions& actions, WindowParts& parts);
    ~LiveRuns() override;

    /// Starts a workload in this process: its runs join the tree and the basket as they start,
    /// stream into the charts over the live bus, and print into the console. False with the
    /// reason when it cannot start.
    bool launch(const LaunchRequest& request, QString* error = nullptr);
    /// Run > Launch: the dialog, then launch.
    void showLaunchDialog();
    /// Asked when the window closes while a launched run is still running: stop it and quit?
    bool confirmQuit();
    /// One round of following running runs in every chart (the 1 s timer calls it): each chart's
    /// new rows are read on the loader's thread and drawn when they land. Returns how many charts
    /// were asked about.
    int poll();
    /// Keys a run published on the bus (the store writer may not have flushed them yet).
    std::set<std::string> keysSeen(const std::string& runUuid) const;
    SampleBus& bus() { return *m_bus; }

signals:
    /// Followed rows changed what the charts show (the summary follows).
    void chartsChanged();
    /// A basket run published a key the metric list lacks: the list so far plus it.
    void basketKeysSeen(const std::vector<std::string>& keys);

private:
    void onSamples(const LiveBridge::Batch& batch);

    QMainWindow& m_window;
    WindowActions& m_actions;
    WindowParts& m_ui;
    std::unique_ptr<SampleBus> m_bus; ///< samples of runs launched from this window
    QTimer m_timer;
    int m_ticks = 0;                                         ///< to reread a tree with running runs every 5 s
    std::map<std::string, std::set<std::string>> m_keysSeen; ///< run uuid -> keys seen on the bus
};

} // namespace radt
