#pragma once
// radt-explorer's window: run tree, basket, metric list and chart panel over one open store.

#include "BoardFile.h"
#include "LaunchController.h"
#include "LiveBridge.h"
#include "RecentStores.h"
#include "SampleBus.h"
#include "Store.h"
#include "StoreSession.h"

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
class BasketPanel;
class BoardPanel;
class ChartLoader;
class CompareDialog;
class ConsolePane;
class InsightsPanel;
class ChartCard;
class ChartPanel;
class SummaryPanel;
class MetricPicker;
class RunFilterProxy;
class RunTreeModel;
class RunTreePane;
class SavedSelections;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
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
    bool hasStore() const { return m_ui.session->isOpen(); }
    /// The open store's URI with any password masked; "" when none is open.
    QString storeDisplayUri() const { return m_ui.session->displayUri(); }

    /// Adds the runs with these uuids (unknown ones are skipped); returns how many were added.
    int addRunsToBasket(const QStringList& uuids);
    /// Adds what a tree node holds (a run, a workload, an experiment). Index of the tree model or its proxy.
    int addTreeIndexToBasket(const QModelIndex& index);
    /// Puts the most recent run and the rest of its workload in the basket and reveals it in the tree.
    bool addLatestWorkloadToBasket();
    void clearBasket();
    QStringList basketRunUuids() const;

    /// Keys in the metric list (the union of the basket runs' keys).
    QStringList metricKeys() const;
    /// Chooses and plots a metric; false when no basket run has it. While the basket's keys are
    /// being read it is plotted and true: when they land without it, the preferred one replaces it.
    bool plotMetric(const QString& key);
    /// Plots the preferred metric (MetricPicker::preferredKey) when none is chosen yet.
    bool plotPreferredMetric();
    void expandTree();

    /// Chart data and summaries load on a worker thread; this waits (processing events) until
    /// every pending load has landed. False on timeout. For tests and the screenshot mode.
    bool waitForLoads(int timeoutMs = 60000);

    /// Starts a workload in this process (the Launch dialog's request): its runs join the tree
    /// and the basket as they start, stream into the charts over the live bus, and print into
    /// the console pane. False with the reason when it cannot start.
    bool launch(const LaunchRequest& request, QString* error = nullptr);
    /// Opens the Launch dialog (Run > Launch…).
    void showLaunchDialog();

    /// Replaces the board's charts by a board file's (resources/DESIGN.md §9): each chart with its runs and
    /// points from the file, its series rules, smoothing and range. Problems in the file that
    /// did not stop it opening are listed in *problems. False with *error when nothing opened.
    bool openBoard(const QString& path, QStringList* problems = nullptr, QString* error = nullptr);
    /// openBoard with dialogs: an error, or the list of what was skipped.
    bool openBoardInteractive(const QString& path);
    /// Writes every chart in radT's board format plus the explorer's own keys. Throws BoardError.
    void saveBoard(const QString& path) const;
    /// The board as radT's format holds it (what saveBoard writes).
    Board currentBoard() const;

    /// The session: the store, the basket and each chart's metric and settings (charts opened
    /// from a board file remember that file). Written on close when "Restore last session" is on.
    void saveSession(QSettings& settings) const;
    /// Restores a saved session if it was saved for the store now open; returns whether it did.
    bool restoreSession(QSettings& settings);
    /// Settings > Restore last session (on by default).
    static bool sessionRestoreEnabled(QSettings& settings);

    /// Divides the width between the tree and the charts as a new window does (after a resize
    /// from outside, e.g. the --screenshot size).
    void fitPanesToWidth();
    /// Basket > Insights (Ctrl+I): shown, on top and focused, whatever it was before.
    void showInsights();
    /// View > Maximise Chart (Ctrl+Shift+M): the current chart alone fills the window (the docks,
    /// the basket and metric list and the other charts hidden); again, everything comes back.
    void toggleMaximisedChart();
    bool chartMaximised() const { return m_beforeMaximise.has_value(); }
    /// Shrinks and moves the window so that its frame (title bar, status bar) is on the screen.
    void fitFrameToScreen();
    /// The chart an export acts on: the current chart if in view, the only chart in view, or
    /// the one the user picks; null when the user cancels.
    ChartPanel* chartToExport();
    /// Basket > Compare Runs: params, tags and latest metrics of the basket's runs side by side.
    CompareDialog* showCompare();
    /// The docks back where a new window has them, one board column.
    void resetLayout();
    /// The window's size, docks and board columns as the user left them (settings "window/").
    void saveLayout(QSettings& settings) const;
    /// Returns whether a saved arrangement was applied.
    bool restoreLayout(QSettings& settings);
    /// One round of following running runs in every chart (the 1 s timer calls it): each chart's
    /// new rows are read on the loader's thread and drawn when they land (waitForLoads waits for
    /// them). Returns how many charts were asked about.
    int pollLiveRuns();
    /// The window's parts, as Qt Designer's Ui class holds a form's widgets: made in the
    /// constructor, wired there, reached here by the window's code and by tests.
    struct Parts {
        StoreSession* session = nullptr; ///< the open store and the reads that follow it
        RunTreePane* tree = nullptr;     ///< the experiment -> workload -> run tree, its filter
        BasketModel* basket = nullptr;
        BasketPanel* basketPanel = nullptr;
        MetricPicker* metrics = nullptr; ///< the metric list
        BoardPanel* board = nullptr;     ///< the charts
        SummaryPanel* summary = nullptr;
        InsightsPanel* insights = nullptr;
        ConsolePane* console = nullptr; ///< a launched workload's output
        LaunchController* launcher = nullptr;
        LiveBridge* live = nullptr;       ///< samples of runs launched here, from the bus
        CompareDialog* compare = nullptr; ///< made when first asked for
        QDockWidget* treeDock = nullptr;
        QDockWidget* summaryDock = nullptr;
        QDockWidget* consoleDock = nullptr;
        QDockWidget* insightsDock = nullptr;
        QProgressBar* progress = nullptr; ///< reads under way, in the status bar
        QLabel* counts = nullptr;         ///< experiments, runs and basket runs, in the status bar
        QTimer* liveTimer = nullptr;      ///< follows running runs every second
    };
    const Parts& parts() const { return m_ui; }
    /// The board's current chart: the metric list plots into it.
    ChartPanel* chartPanel() const;
    ChartCard* chartCard() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool m_frameFitted = false; ///< fitFrameToScreen() was scheduled for the first show
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createLayout();
    void placeConsole();
    /// The whole menu bar, in one place (MainWindowMenus.cpp).
    void createMenus();
    void saveBoardAs();
    /// True when the board was written; false after a message saying why.
    bool saveBoardTo(const QString& path);
    /// What the board shows, for telling an edited board from the one last opened or saved:
    /// each chart's metric, runs, options and zoom (not its points).
    std::string boardFingerprint() const;
    /// Before the board is replaced: asks to save, discard or cancel when it has charts that no
    /// board file holds as they are. False when the user cancels (or a save failed).
    bool confirmReplacingBoard();
    /// Asked when the window closes while a launched run is still running: stop it and quit?
    bool confirmQuitWhileRunning();
    void exportCurrentChart(const QString& format);
    void exportBoardPdf();
    void createLaunching();
    void onLiveSamples(const LiveBridge::Batch& batch);
    /// The window follows what the session says: an open under way, a store opened, a tree or
    /// keys read, each failure.
    void connectSession();
    /// Shows a store the session opened: the tree, an empty basket, cleared charts.
    void showOpenedStore(const QString& uri, const std::vector<Experiment>& experiments,
                         const std::vector<Run>& runs);
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

    Parts m_ui;
    RecentStores m_recent;
    std::unique_ptr<QSettings> m_selectionSettings;          ///< before m_selections, which reads it
    std::unique_ptr<SavedSelections> m_selections;           ///< the basket's named selections
    std::unique_ptr<SampleBus> m_bus;                        ///< samples of runs launched from this window
    std::map<std::string, std::set<std::string>> m_liveKeys; ///< run uuid -> keys seen on the bus
    QString m_boardFile;          ///< the board file the charts came from, if they did
    std::string m_savedBoard;     ///< boardFingerprint() when the board was last opened or saved
    int m_treeTicks = 0;          ///< live timer ticks, to reread a tree with running runs every 5 s
    bool m_layoutSettled = false; ///< the docks were sized (first show) or restored
    std::optional<QByteArray> m_beforeMaximise; ///< the docks' state while a chart is maximised
    bool m_insightsSized = false;
};

} // namespace radt
