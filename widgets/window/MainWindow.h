// SPDX-License-Identifier: MIT
#pragma once
// radt-explorer's window: run tree, basket, metric list and chart panel over one open store.

#include "collector/SampleBus.h"
#include "core/StoreFactory.h"
#include "core/board/BoardFile.h"
#include "core/store/Store.h"
#include "widgets/launch/LaunchController.h"
#include "widgets/launch/LiveBridge.h"
#include "widgets/window/RecentStores.h"
#include "widgets/window/StoreSession.h"
#include "widgets/window/WindowParts.h"

#include <QMainWindow>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

class QLabel;
class QLineEdit;
class QCloseEvent;
class QDockWidget;
class QSettings;
class QMenu;
class QProgressBar;
class QModelIndex;
class QTreeView;

namespace radt {

class BasketModel;
class BoardDocument;
class BasketPanel;
class BoardPanel;
class ChartLoader;
class CompareDialog;
class ConsolePane;
class InsightsPanel;
class LiveRuns;
class RunCuration;
class RunDetailsController;
class ChartCard;
class ChartPanel;
class SummaryPanel;
class MetricPicker;
class RunFilterProxy;
class RunTreeModel;
class RunTreePane;
class SavedSelections;
class WorkspaceLayout;

class MainWindow : public QMainWindow, public WindowActions {
    Q_OBJECT
public:
    /// `readOnly`: every store it opens is opened so that nothing is written (--read-only).
    explicit MainWindow(QWidget* parent = nullptr, bool readOnly = false);
    ~MainWindow() override;

    /// Opens the store and shows its runs. On failure returns false with the reason in *error;
    /// the store open before stays open. Shows no dialog (callers decide).
    bool openStore(const QString& uri, QString* error = nullptr, OpenMode mode = OpenMode::OpenExisting);
    /// The File menu's open: like openStore, but opened and first read on the loader's thread (a
    /// server may take seconds to answer) while the window goes on; the window swaps to it when it
    /// lands (waitForLoads waits for that), or a critical message box says why not and the store
    /// open before stays open. A newer open replaces one still under way. `landed` runs once the
    /// window shows the store (true; the start's first look) or said why not (false).
    void openStoreInteractive(const QString& uri, OpenMode mode = OpenMode::OpenExisting,
                              std::function<void(bool opened)> landed = {});
    /// Rereads experiments and runs (F5) on the loader's thread (waitForLoads waits for it);
    /// keeps the basket and the tree's expanded nodes. A failure is shown in a dialog.
    void reload();
    bool hasStore() const override { return m_ui.session->isOpen(); }
    /// The open store's URI with any password masked; "" when none is open.
    QString storeDisplayUri() const { return m_ui.session->displayUri(); }

    /// Adds the runs with these uuids (unknown ones are skipped); returns how many were added.
    int addRunsToBasket(const QStringList& uuids) override;
    /// Adds what a tree node holds (a run, a workload, an experiment). Index of the tree model or its proxy.
    int addTreeIndexToBasket(const QModelIndex& index);
    /// Puts the most recent run and the rest of its workload in the basket and reveals it in the tree.
    bool addLatestWorkloadToBasket();
    void clearBasket() override;
    QStringList basketRunUuids() const override;

    /// Chooses and plots a metric; false when no basket run has it. While the basket's keys are
    /// being read it is plotted and true: when they land without it, the preferred one replaces it.
    bool plotMetric(const QString& key) override;
    /// Plots the preferred metric (MetricPicker::preferredKey) when none is chosen yet.
    bool plotPreferredMetric();

    /// Chart data and summaries load on a worker thread; this waits (processing events) until
    /// every pending load has landed. False on timeout. For tests and the screenshot mode.
    bool waitForLoads(int timeoutMs = 60000);

    /// Basket > Insights (Ctrl+I): shown, on top and focused, whatever it was before.
    void showInsights();
    /// Basket > Compare Runs: params, tags and latest metrics of the basket's runs side by side.
    CompareDialog* showCompare();
    /// How the parts are arranged: pane sizes, a maximised chart, the saved arrangement.
    WorkspaceLayout& workspace() const { return *m_layout; }
    /// The board as a document: board files, exports, the session.
    BoardDocument& document() const { return *m_document; }
    /// Running runs: launching here, following them in the charts and the tree.
    LiveRuns& liveRuns() const { return *m_live; }
    /// The Run Details dock: which run it shows (Details, Enter, following the current run).
    RunDetailsController& runDetails() const { return *m_details; }
    /// The board's current chart: the metric list plots into it.
    ChartPanel* chartPanel() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    /// The whole menu bar, in one place (MainWindowMenus.cpp).
    void createMenus();
    void createFileMenu(); ///< stores, recent stores, boards, exports, quitting
    /// The window follows what the session says: an open under way, a store opened, a tree or
    /// keys read, each failure.
    void connectSession();
    /// The basket, tree, metric list, saved selections and board, wired to the window.
    void connectPanes();
    /// The run page's "Overlay on Its History": the basket becomes the run and its history, the
    /// current chart groups them per configuration with the run drawn apart.
    void overlayOnHistory(const QString& runUuid, const QStringList& historyUuids);
    /// The chart loader's progress, failures and summaries, shown in the status bar and panels.
    void connectChartLoader();
    /// Shows a store the session opened: the tree, an empty basket, cleared charts.
    void showOpenedStore(const QString& uri, const std::vector<Experiment>& experiments,
                         const std::vector<Run>& runs);
    /// A store's view (the metric search, each chart's smoothing, grouping, band and the rest of
    /// its options) is kept per store in QSettings: keepStoreView() writes the shown store's,
    /// showStoreView() gives a store opened its own, or the defaults: never the last store's.
    void keepStoreView();
    void showStoreView(bool firstStore);
    /// Shows a reread tree, its expanded nodes kept.
    void showTree(const std::vector<Experiment>& experiments, const std::vector<Run>& runs, bool userAsked);
    /// The metric list: these keys plus keys already seen on the live bus that the store writer
    /// has not flushed yet. It follows the current chart; an empty chart, or one showing a key
    /// no basket run has, gets the preferred metric.
    void applyBasketKeys(const std::vector<std::string>& storeKeys);
    void onBasketChanged();
    /// Colours of runs and workloads that left the basket (and that no board file's chart shows)
    /// are free again: after "Clear all" a new comparison starts with the first colours.
    void freeColoursOfRunsGone();
    void showMetric(const QString& key);
    void refreshOtherCharts();
    void updateSummary();
    void updateTitleAndStatus();

    WindowParts m_ui; ///< made in the constructor; tests find them as a user does (by type, docks by name)
    std::unique_ptr<WorkspaceLayout> m_layout;
    BoardDocument* m_document = nullptr;
    LiveRuns* m_live = nullptr;
    RunDetailsController* m_details = nullptr;
    RunCuration* m_curation = nullptr; ///< rename, note, tag, delete and restore runs; Ctrl+Z
    RecentStores m_recent;
    QString m_viewStore; ///< the store whose view is shown (RecentStores::normalize'd), "" before one
    std::unique_ptr<QSettings> m_selectionSettings; ///< before m_selections, which reads it
    std::unique_ptr<SavedSelections> m_selections;  ///< the basket's named selections
};

} // namespace radt
