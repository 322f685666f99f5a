// SPDX-License-Identifier: MIT
#pragma once
// The Run Details dock: which run it shows and when. Details (the context menu of the tree, the
// basket, and a chart's legend entries and lines) and Enter show a run and bring the dock up; while the dock
// is shown it follows the current run of the tree or the basket; a reread refreshes it and a newly opened
// store clears it. The run's latest metric values are read on the loader's thread, never here.

#include "widgets/window/WindowParts.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QMainWindow;

namespace radt {

class StoreReadThread;
struct Run;
struct RunDetailsContext;

class RunDetailsController : public QObject {
    Q_OBJECT
public:
    RunDetailsController(QMainWindow& window, WindowParts& parts);

    /// Shows the run in the dock and brings the dock up, on top. False for a run the tree lacks.
    bool showRun(const QString& runUuid);
    /// Shows the run if the dock is shown (it follows the current run).
    void follow(const QString& runUuid);

signals:
    /// The History tab's "Overlay on Its History": the run and its history's runs.
    void overlayRequested(const QString& runUuid, const QStringList& historyUuids);

private:
    void display(const Run& run);
    /// The History tab's judgement of the run shown, computed on the judgement's thread when the
    /// tab is shown (a history of 50 runs reads their series: not for every run the tree passes).
    void judgeShownRun();
    RunDetailsContext contextOf(const Run& run) const;
    /// The tree was read again: the run shown is refreshed (its status, end, tags), or said gone.
    void refresh();

    QMainWindow& m_window;
    WindowParts& m_ui;
    std::shared_ptr<StoreReadThread> m_judge; ///< made at the first judgement
    quint64 m_judgeGeneration = 0;
    QString m_judged; ///< the run the History tab holds (or is computing) a judgement of
};

} // namespace radt
