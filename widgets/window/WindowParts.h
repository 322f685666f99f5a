// SPDX-License-Identifier: MIT
#pragma once
// The window's parts and what its helpers ask of it. WorkspaceLayout (how the parts are arranged),
// BoardDocument (the board as a document) and LiveRuns (running runs) work on these, not on
// MainWindow, which makes them: the window knows its helpers, its helpers know only this.

#include <QStringList>

class QDockWidget;
class QLabel;
class QProgressBar;
class QString;

namespace radt {

class BasketModel;
class BasketPanel;
class BoardPanel;
class CompareDialog;
class ComparePanel;
class ConsolePane;
class InsightsPanel;
class LaunchController;
class LiveBridge;
class RunDetailsPanel;
class MetricPicker;
class RunTreePane;
class RunsTablePane;
class StoreSession;
class SummaryPanel;

/// The docks around the board, each holding the part of the same name.
struct WindowDocks {
    QDockWidget* tree = nullptr;
    QDockWidget* summary = nullptr;
    QDockWidget* console = nullptr;
    QDockWidget* insights = nullptr;
    QDockWidget* parallel = nullptr;
    QDockWidget* details = nullptr;
    QDockWidget* runsTable = nullptr;
};

/// The window's parts, as Qt Designer's Ui class holds a form's widgets: made in MainWindow's
/// constructor, wired there.
struct WindowParts {
    StoreSession* session = nullptr; ///< the open store and the reads that follow it
    RunTreePane* tree = nullptr;     ///< the experiment -> workload -> run tree, its filter
    BasketModel* basket = nullptr;
    BasketPanel* basketPanel = nullptr;
    MetricPicker* metrics = nullptr; ///< the metric list
    BoardPanel* board = nullptr;     ///< the charts
    SummaryPanel* summary = nullptr;
    InsightsPanel* insights = nullptr;
    ComparePanel* parallel = nullptr; ///< parallel coordinates and scatter of the basket
    ConsolePane* console = nullptr;   ///< a launched workload's output
    LaunchController* launcher = nullptr;
    LiveBridge* live = nullptr;         ///< samples of runs launched here, from the bus
    CompareDialog* compare = nullptr;   ///< made when first asked for
    RunDetailsPanel* details = nullptr; ///< one run's page: overview, params, metrics, artifacts
    RunsTablePane* runsTable = nullptr; ///< every run of the store, found by a search
    WindowDocks docks;
    QProgressBar* progress = nullptr; ///< reads under way, in the status bar
    QLabel* counts = nullptr;         ///< experiments, runs and basket runs, in the status bar
};

/// What the board document and the live runs change through the window, which keeps the basket,
/// the metric list and the charts in step when they do.
class WindowActions {
public:
    virtual ~WindowActions() = default;
    virtual bool hasStore() const = 0;
    /// Adds the runs with these uuids (unknown ones are skipped); returns how many were added.
    virtual int addRunsToBasket(const QStringList& uuids) = 0;
    virtual void clearBasket() = 0;
    virtual QStringList basketRunUuids() const = 0;
    /// Chooses and plots a metric; false when no basket run has it.
    virtual bool plotMetric(const QString& key) = 0;
};

} // namespace radt
