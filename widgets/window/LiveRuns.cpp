// SPDX-License-Identifier: MIT
#include "widgets/window/LiveRuns.h"

#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/common/Formatting.h"
#include "widgets/launch/ConsolePane.h"
#include "widgets/launch/LaunchDialog.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/StoreSession.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>

#include <algorithm>

namespace radt {

LiveRuns::LiveRuns(QMainWindow& window, WindowActions& actions, WindowParts& parts)
    : QObject(&window), m_window(window), m_actions(actions), m_ui(parts),
      m_bus(std::make_unique<SampleBus>()) {
    m_ui.live = new LiveBridge(*m_bus, 40, this);
    m_ui.launcher = new LaunchController(*m_bus, this);
    connect(m_ui.console, &ConsolePane::stopRequested, m_ui.launcher, &LaunchController::stop);
    connect(m_ui.launcher, &LaunchController::output, m_ui.console, &ConsolePane::appendOutput);
    connect(m_ui.launcher, &LaunchController::message, m_ui.console, &ConsolePane::appendMessage);
    connect(m_ui.launcher, &LaunchController::finished, this, [this](int code) {
        m_ui.console->setFinished(code);
        m_ui.session->rereadTree(false); // final statuses and durations
        poll();
    });
    // A run launched here starts publishing: show it in the tree and put it in the basket.
    connect(m_ui.live, &LiveBridge::runSeen, this, [this](const QString& uuid) {
        m_ui.session->rereadTree(false, [this, uuid] { m_actions.addRunsToBasket({uuid}); });
    });
    connect(m_ui.live, &LiveBridge::samples, this,
            [this](const std::shared_ptr<const LiveBridge::Batch>& batch) { onSamples(*batch); });
    // Runs recorded by another process or machine are followed by polling new rows
    // (resources/DESIGN.md §8).
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, [this] { poll(); });
    m_timer.start();
}

LiveRuns::~LiveRuns() {
    // The launch thread publishes on the bus and the bridge is subscribed to it: both go before
    // the bus does (QObject children would otherwise outlive this member).
    delete m_ui.launcher;
    delete m_ui.live;
    m_ui.launcher = nullptr;
    m_ui.live = nullptr;
}

int LiveRuns::poll() {
    if (!m_ui.session->isOpen())
        return 0;
    int asked = 0;
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        if (!hasRunningRuns(chart->engine()))
            continue;
        // Read on the loader's thread (on PostgreSQL a network round trip), drawn when it lands.
        asked += m_ui.session->loader()->requestPoll(chart, [this, chart](bool changed,
                                                                          const QString& error) {
            if (!error.isEmpty()) {
                m_window.statusBar()->showMessage(tr("Cannot follow running runs: %1").arg(error), 5000);
                return;
            }
            if (changed)
                emit chartsChanged();
            if (changed && !hasRunningRuns(chart->engine()))
                m_ui.session->rereadTree(false); // a run ended: its status and duration in the tree at once
        });
    }
    // Running runs update in place in the tree (status, duration; new runs of other collectors)
    // every 5 s, a full reread being cheap next to a chart.
    const std::vector<Run>& runs = m_ui.tree->model()->runs();
    const bool treeHasRunning = std::any_of(
        runs.begin(), runs.end(), [](const Run& r) { return r.status == RunStatus::Running && !r.deleted; });
    if (treeHasRunning && ++m_ticks % 5 == 0)
        m_ui.session->rereadTree(false);
    return asked;
}

std::set<std::string> LiveRuns::keysSeen(const std::string& runUuid) const {
    const auto it = m_keysSeen.find(runUuid);
    return it == m_keysSeen.end() ? std::set<std::string>() : it->second;
}

void LiveRuns::onSamples(const LiveBridge::Batch& batch) {
    // Keys the store does not have yet still belong in the metric list of a basket run.
    bool newKeyInBasket = false;
    const QStringList basket = m_actions.basketRunUuids();
    for (const auto& [run, points] : batch) {
        std::set<std::string>& known = m_keysSeen[run];
        for (const MetricPoint& p : points)
            if (known.insert(p.key).second && basket.contains(toQString(run)))
                newKeyInBasket = true;
    }
    if (newKeyInBasket) { // the list so far plus the new keys: no store read on the GUI thread
        std::vector<std::string> known;
        for (const QString& key : m_ui.metrics->keys())
            known.push_back(key.toStdString());
        emit basketKeysSeen(known);
    }
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        for (const auto& [run, points] : batch)
            chart->appendLive(run, points);
    }
}

void LiveRuns::showLaunchDialog() {
    if (!m_ui.session->isOpen()) {
        QMessageBox::information(&m_window, tr("Launch"),
                                 tr("Open or create a store first: runs are recorded into it."));
        return;
    }
    LaunchDialog dialog(&m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    LaunchRequest request;
    QString error;
    if (!dialog.request(request, &error) || !launch(request, &error))
        QMessageBox::warning(&m_window, tr("Launch"), error);
}

bool LiveRuns::launch(const LaunchRequest& request, QString* error) {
    if (!m_ui.session->isOpen()) {
        if (error)
            *error = tr("no store is open");
        return false;
    }
    if (!m_ui.launcher->start(m_ui.session->uri().toStdString(), request, error))
        return false;
    m_ui.docks.console->show();
    m_ui.console->appendMessage(tr("launching %1").arg(QString::fromStdString(request.target)));
    m_ui.console->setRunning(QFileInfo(QString::fromStdString(request.target)).fileName());
    return true;
}

bool LiveRuns::confirmQuit() {
    const auto answer = QMessageBox::question(
        &m_window, tr("Quit radt-explorer"),
        tr("A run launched from this window is still running. Stop it (it is recorded as KILLED) and "
           "quit?"),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes)
        return false;
    m_ui.launcher->stop(); // the controller waits for the workload when the window goes
    return true;
}

} // namespace radt
