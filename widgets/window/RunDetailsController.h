// SPDX-License-Identifier: MIT
#pragma once
// The Run Details dock: which run it shows and when. Details (the context menu of the tree, the
// basket, and a chart's legend entries and lines) and Enter show a run and bring the dock up; while the dock
// is shown it follows the current run of the tree or the basket; a reread refreshes it and a newly opened
// store clears it. The run's latest metric values are read on the loader's thread, never here.

#include "widgets/window/WindowParts.h"

#include <QObject>
#include <QString>

class QMainWindow;

namespace radt {

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

private:
    void display(const Run& run);
    RunDetailsContext contextOf(const Run& run) const;
    /// The tree was read again: the run shown is refreshed (its status, end, tags), or said gone.
    void refresh();

    QMainWindow& m_window;
    WindowParts& m_ui;
};

} // namespace radt
