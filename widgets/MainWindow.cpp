#include "MainWindow.h"

#include "FileDialogs.h"
#include "InsightsPanel.h"

#include "RunReconciler.h"

#include "BasketPanel.h"
#include "BoardPanel.h"
#include "ChartCard.h"
#include "ChartLoader.h"
#include "ChartPanel.h"
#include "CompareDialog.h"
#include "ConsolePane.h"
#include "Formatting.h"
#include "LaunchDialog.h"
#include "MetricPicker.h"
#include "RunTreePane.h"
#include "SavedSelections.h"
#include "StoreUri.h"
#include "SummaryPanel.h"
#include "models/BasketModel.h"
#include "models/RunTreeModel.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include <QTreeView>
#include <QVBoxLayout>
#include <cstdio>

#include <algorithm>
#include <map>

namespace radt {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    m_ui.session = new StoreSession(this);
    m_ui.tree = new RunTreePane(this);
    m_ui.basket = new BasketModel(this);
    m_ui.counts = new QLabel(this);
    m_ui.basketPanel = new BasketPanel(m_ui.basket, this);
    m_ui.metrics = new MetricPicker(this);
    m_ui.board = new BoardPanel(this);
    m_ui.summary = new SummaryPanel(this);

    createLayout();
    createLaunching();
    placeConsole();
    createMenus();
    statusBar()->addPermanentWidget(m_ui.counts);

    connect(m_ui.basket, &BasketModel::basketChanged, this, &MainWindow::onBasketChanged);
    connect(m_ui.tree, &RunTreePane::runsChosen, this, [this](const QStringList& uuids, const QString& node) {
        const int added = addRunsToBasket(uuids);
        if (!node.isEmpty()) // a double-click: say what it added, also when nothing was new
            statusBar()->showMessage(tr("Added %n run(s) of %1 to the basket", nullptr, added).arg(node),
                                     4000);
    });
    connect(m_ui.metrics, &MetricPicker::metricChosen, this, &MainWindow::showMetric);
    // Named selections live beside Recent Stores (the same settings), keyed by the store.
    m_selectionSettings =
        std::make_unique<QSettings>(QStringLiteral("radt"), QStringLiteral("radt-explorer"));
    m_selections = std::make_unique<SavedSelections>(*m_selectionSettings);
    connect(m_ui.basketPanel, &BasketPanel::selectionChosen, this,
            [this](const QStringList& uuids, const QString& name) {
                // Clearing forgets the chart's metric; the comparison goes on with the one on screen.
                const QString metric = m_ui.metrics->currentKey();
                clearBasket();
                addRunsToBasket(uuids); // runs deleted from the store since are skipped
                if (!metric.isEmpty() && metric != m_ui.metrics->currentKey())
                    plotMetric(metric);
                statusBar()->showMessage(tr("Restored selection %1: %2 of %3 runs")
                                             .arg(name)
                                             .arg(m_ui.basket->runCount())
                                             .arg(uuids.size()),
                                         5000);
            });
    // Selecting another chart selects its metric in the list (an empty chart: none).
    connect(m_ui.board, &BoardPanel::maximiseRequested, this, [this](ChartCard* card) {
        m_ui.board->setCurrent(card);
        toggleMaximisedChart();
    });
    connect(m_ui.board, &BoardPanel::currentChanged, this, [this](ChartCard* card) {
        const QString key = card->chart()->metricKey();
        if (key.isEmpty())
            m_ui.metrics->clearChoice(); // clicking the metric the last chart showed plots it here
        else if (m_ui.metrics->keys().contains(key) && m_ui.metrics->currentKey() != key)
            m_ui.metrics->setCurrentKey(key);
    });
    // Chart data and summaries are read on a worker thread; the status bar shows the progress.
    m_ui.progress = new QProgressBar(this);
    m_ui.progress->setMaximumWidth(260);
    m_ui.progress->setTextVisible(true);
    m_ui.progress->hide();
    statusBar()->addPermanentWidget(m_ui.progress);
    connectSession();
    connect(m_ui.session->loader(), &ChartLoader::progress, this,
            [this](const QString& key, int done, int total) {
                m_ui.progress->setRange(0, total);
                m_ui.progress->setValue(done);
                m_ui.progress->setFormat(tr("%1: %v/%m runs").arg(key));
                m_ui.progress->show();
            });
    connect(m_ui.session->loader(), &ChartLoader::idle, m_ui.progress, &QWidget::hide);
    connect(m_ui.session->loader(), &ChartLoader::chartFailed, this,
            [this](ChartPanel* chart, const QString& key, const QString& error) {
                chart->clear(tr("Cannot plot %1").arg(key));
                statusBar()->showMessage(tr("Cannot plot %1: %2").arg(key, error));
            });
    connect(m_ui.session->loader(), &ChartLoader::summaryReady, this, [this](std::vector<SummaryRow> rows) {
        // Each row names the line its chart draws the run in, as the legend does.
        for (SummaryRow& row : rows)
            for (int i = 0; i < m_ui.board->chartCount() && row.line.isEmpty(); ++i)
                if (const ChartPanel* chart = m_ui.board->chartAt(i)->chart();
                    chart->metricKey() == row.metric)
                    row.line = chart->lineOfRun(row.runUuid);
        m_ui.summary->setRows(std::move(rows));
    });
    connect(m_ui.session->loader(), &ChartLoader::summaryFailed, this, [this](const QString& error) {
        m_ui.summary->setRows({});
        statusBar()->showMessage(tr("Cannot compute the summary: %1").arg(error), 5000);
    });
    // Runs recorded by another process or machine are followed by polling new rows (resources/DESIGN.md §8).
    m_ui.liveTimer = new QTimer(this);
    m_ui.liveTimer->setInterval(1000);
    connect(m_ui.liveTimer, &QTimer::timeout, this, [this] { pollLiveRuns(); });
    m_ui.liveTimer->start();
    // 1400x860 where the screen has room; on a smaller screen (1024x700, a laptop) the window
    // fits it instead of running off its edge (without a window manager nothing else would).
    QSize size(1400, 860);
    if (const QScreen* shown = QGuiApplication::primaryScreen())
        size = size.boundedTo(shown->availableGeometry().size());
    resize(size.expandedTo(minimumSizeHint()));
    fitPanesToWidth();
    setAcceptDrops(true); // a board file dropped on the window opens
    updateTitleAndStatus();
}

int MainWindow::pollLiveRuns() {
    if (!hasStore())
        return 0;
    int asked = 0;
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        if (!chart->hasRunningRuns())
            continue;
        // Read on the loader's thread (on PostgreSQL a network round trip), drawn when it lands.
        asked += m_ui.session->loader()->requestPoll(chart, [this, chart](bool changed,
                                                                          const QString& error) {
            if (!error.isEmpty()) {
                statusBar()->showMessage(tr("Cannot follow running runs: %1").arg(error), 5000);
                return;
            }
            if (changed)
                updateSummary();
            if (changed && !chart->hasRunningRuns())
                m_ui.session->rereadTree(false); // a run ended: its status and duration in the tree at once
        });
    }
    // Running runs update in place in the tree (status, duration; new runs of other collectors)
    // every 5 s, a full reread being cheap next to a chart.
    const bool treeHasRunning =
        std::any_of(m_ui.tree->model()->runs().begin(), m_ui.tree->model()->runs().end(),
                    [](const Run& r) { return r.status == RunStatus::Running; });
    if (treeHasRunning && ++m_treeTicks % 5 == 0)
        m_ui.session->rereadTree(false);
    return asked;
}

MainWindow::~MainWindow() {
    m_ui.basketPanel->setSelectionStore(nullptr, QString()); // the panel outlives m_selections
    // The launch thread publishes on the bus and the bridge is subscribed to it: both go before
    // the bus does (QObject children would otherwise outlive this member).
    delete m_ui.launcher;
    delete m_ui.live;
}

void MainWindow::createLaunching() {
    m_bus = std::make_unique<SampleBus>();
    m_ui.live = new LiveBridge(*m_bus, 40, this);
    m_ui.launcher = new LaunchController(*m_bus, this);
    m_ui.console = new ConsolePane(this);
    m_ui.consoleDock = new QDockWidget(tr("Console"), this);
    m_ui.consoleDock->setObjectName(QStringLiteral("console"));
    m_ui.consoleDock->setWidget(m_ui.console);
    addDockWidget(Qt::BottomDockWidgetArea, m_ui.consoleDock);
    m_ui.consoleDock->hide();
    // Insights: the basket's runs as answers (energy, efficiency, collocation), on demand.
    m_ui.insights = new InsightsPanel(this);
    m_ui.insightsDock = new QDockWidget(tr("Insights"), this);
    m_ui.insightsDock->setObjectName(QStringLiteral("insights"));
    m_ui.insightsDock->setWidget(m_ui.insights);
    addDockWidget(Qt::BottomDockWidgetArea, m_ui.insightsDock);
    // Floating before it is first shown: shown docked for a moment, its width became the main
    // window's minimum and a 1024 px screen got a 1176 px window. Hidden first: setFloating()
    // shows a dock that is not explicitly hidden, and that started a report in the constructor.
    m_ui.insightsDock->hide();
    m_ui.insightsDock->setFloating(true);
    // First shown floating over the lower part of the window: docked, it would take the charts'
    // height. It can be docked at the bottom by the user (and stays so).
    connect(m_ui.insightsDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !m_insightsSized) {
            m_insightsSized = true;
            m_ui.insightsDock->setFloating(true);
            // Within what the screen shows of the window (a small screen crops a large window).
            QRect frame = geometry();
            if (QScreen* shown = screen())
                frame = frame.intersected(shown->availableGeometry());
            // 70 % of the height: at 1024x700 half of it (340 px) left the chart a strip under
            // the table and the configurations' footer.
            const int w = std::min(frame.width() - 40, 1100), h = std::min(frame.height() * 7 / 10, 600);
            m_ui.insightsDock->setGeometry(frame.x() + (frame.width() - w) / 2, frame.bottom() - h - 20, w,
                                           h);
        }
    });
    connect(m_ui.insights, &InsightsPanel::progress, this, [this](int done, int total) {
        statusBar()->showMessage(tr("Insights: %1/%2 runs").arg(done).arg(total), 2000);
    });
    connect(m_ui.console, &ConsolePane::stopRequested, m_ui.launcher, &LaunchController::stop);
    connect(m_ui.launcher, &LaunchController::output, m_ui.console, &ConsolePane::appendOutput);
    connect(m_ui.launcher, &LaunchController::message, m_ui.console, &ConsolePane::appendMessage);
    connect(m_ui.launcher, &LaunchController::finished, this, [this](int code) {
        m_ui.console->setFinished(code);
        m_ui.session->rereadTree(false); // final statuses and durations
        pollLiveRuns();
    });
    // A run launched here starts publishing: show it in the tree and put it in the basket.
    connect(m_ui.live, &LiveBridge::runSeen, this, [this](const QString& uuid) {
        m_ui.session->rereadTree(false, [this, uuid] { addRunsToBasket({uuid}); });
    });
    connect(m_ui.live, &LiveBridge::samples, this,
            [this](std::shared_ptr<const LiveBridge::Batch> batch) { onLiveSamples(*batch); });
}

void MainWindow::onLiveSamples(const LiveBridge::Batch& batch) {
    // Keys the store does not have yet still belong in the metric list of a basket run.
    bool newKeyInBasket = false;
    const QStringList basket = basketRunUuids();
    for (const auto& [run, points] : batch) {
        std::set<std::string>& known = m_liveKeys[run];
        for (const MetricPoint& p : points)
            if (known.insert(p.key).second && basket.contains(toQString(run)))
                newKeyInBasket = true;
    }
    if (newKeyInBasket) { // the list so far plus the new keys: no store read on the GUI thread
        std::vector<std::string> known;
        for (const QString& key : m_ui.metrics->keys())
            known.push_back(key.toStdString());
        applyBasketKeys(known);
    }
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        for (const auto& [run, points] : batch)
            chart->appendLive(run, points);
    }
}

void MainWindow::showLaunchDialog() {
    if (!hasStore()) {
        QMessageBox::information(this, tr("Launch"),
                                 tr("Open or create a store first: runs are recorded into it."));
        return;
    }
    LaunchDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    LaunchRequest request;
    QString error;
    if (!dialog.request(request, &error) || !launch(request, &error))
        QMessageBox::warning(this, tr("Launch"), error);
}

bool MainWindow::launch(const LaunchRequest& request, QString* error) {
    if (!hasStore()) {
        if (error)
            *error = tr("no store is open");
        return false;
    }
    if (!m_ui.launcher->start(m_ui.session->uri().toStdString(), request, error))
        return false;
    m_ui.consoleDock->show();
    m_ui.console->appendMessage(tr("launching %1").arg(QString::fromStdString(request.target)));
    m_ui.console->setRunning(QFileInfo(QString::fromStdString(request.target)).fileName());
    return true;
}

bool MainWindow::confirmQuitWhileRunning() {
    const auto answer = QMessageBox::question(
        this, tr("Quit radt-explorer"),
        tr("A run launched from this window is still running. Stop it (it is recorded as KILLED) and "
           "quit?"),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes)
        return false;
    m_ui.launcher->stop(); // the controller waits for the workload when the window goes
    return true;
}

bool MainWindow::waitForLoads(int timeoutMs) {
    return m_ui.session->loader()->waitIdle(timeoutMs);
}

void MainWindow::showInsights() {
    m_ui.insightsDock->show();
    m_ui.insightsDock->raise();
    if (m_ui.insightsDock->isFloating())
        m_ui.insightsDock->activateWindow();
    m_ui.insights->setFocus(Qt::ShortcutFocusReason);
}

int MainWindow::addRunsToBasket(const QStringList& uuids) {
    std::vector<Run> runs;
    for (const QString& uuid : uuids) {
        if (const Run* run = m_ui.tree->model()->runByUuid(uuid))
            runs.push_back(*run);
    }
    const int added = m_ui.basket->addRuns(runs);
    if (added > 0)
        statusBar()->showMessage(added == 1 ? tr("Added 1 run to the basket")
                                            : tr("Added %1 runs to the basket").arg(added),
                                 3000);
    return added;
}

int MainWindow::addTreeIndexToBasket(const QModelIndex& index) {
    return addRunsToBasket(m_ui.tree->runUuidsUnder(index));
}

bool MainWindow::addLatestWorkloadToBasket() {
    const QStringList uuids = m_ui.tree->model()->latestWorkloadRunUuids();
    if (uuids.isEmpty())
        return false;
    addRunsToBasket(uuids);
    m_ui.tree->reveal(uuids.first());
    return true;
}

void MainWindow::clearBasket() {
    m_ui.basket->clear();
}

CompareDialog* MainWindow::showCompare() {
    if (!m_ui.compare)
        m_ui.compare = new CompareDialog(this);
    const std::vector<Run> runs = m_ui.basket->runs();
    m_ui.compare->setRuns(runs, m_ui.session->experimentNames());
    // What is already known: the summary's statistics and the Insights view's energy shares.
    CompareExtras extras;
    extras.summary = m_ui.summary->model()->rows();
    extras.nowMs = nowMs();
    if (m_ui.insights->report().is_object())
        for (const nlohmann::json& r : m_ui.insights->report()["runs"]) {
            const nlohmann::json j =
                r.value("gpu_energy_attributed_j", r.value("gpu_energy_j", nlohmann::json()));
            if (j.is_number())
                extras.gpuEnergyJ[r["run_uuid"].get<std::string>()] = j.get<double>();
        }
    m_ui.compare->setExtras(std::move(extras));
    m_ui.compare->show();
    m_ui.compare->raise();
    // Latest metric values come from the store: read on the loader's thread, not here.
    QPointer<CompareDialog> dialog(m_ui.compare);
    m_ui.session->loader()->requestLatestMetrics(
        m_ui.basket->runs(), [dialog](const ChartLoader::LatestByRun& latest, const QString& error) {
            if (!dialog)
                return;
            if (error.isEmpty())
                dialog->setLatest(latest);
            else
                dialog->setError(error);
        });
    return m_ui.compare;
}

QStringList MainWindow::basketRunUuids() const {
    return m_ui.basket->runUuids();
}

QStringList MainWindow::metricKeys() const {
    return m_ui.metrics->keys();
}

void MainWindow::expandTree() {
    m_ui.tree->expandAll();
}

void MainWindow::freeColoursOfRunsGone() {
    std::set<QString> keep;
    for (const Run& r : m_ui.basket->runs()) {
        keep.insert(QStringLiteral("run:") + toQString(r.uuid));
        keep.insert(QStringLiteral("workload:") + workloadKeyOf(r));
    }
    for (int i = 0; i < m_ui.board->chartCount(); ++i)
        if (const ChartPanel* chart = m_ui.board->chartAt(i)->chart(); chart->isDetached())
            for (const QString& key : chart->colourKeys())
                keep.insert(key);
    m_ui.board->lineColours().keepOnly([&keep](const QString& key) { return keep.count(key) > 0; });
}

void MainWindow::showMetric(const QString& key) {
    ChartPanel* chart = chartPanel();
    m_boardFile.clear(); // the board now differs from the file it came from
    const std::vector<Run> runs = m_ui.basket->runs();
    if (!hasStore() || runs.empty()) {
        m_ui.session->loader()->cancelChart(chart);
        chart->clear();
    } else if (key.isEmpty()) {
        m_ui.session->loader()->cancelChart(chart);
        chart->clear(tr("Choose a metric"));
    } else {
        m_ui.session->loader()->requestChart(chart, runs, key);
    }
    refreshOtherCharts();
    updateSummary();
}

void MainWindow::refreshOtherCharts() {
    // The other charts keep their metrics and follow the basket.
    const std::vector<Run> runs = m_ui.basket->runs();
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        if (chart == chartPanel() || chart->metricKey().isEmpty() || chart->isDetached())
            continue; // a board file's chart keeps the data the file carries
        if (!hasStore() || runs.empty()) {
            m_ui.session->loader()->cancelChart(chart);
            chart->clear();
        } else {
            m_ui.session->loader()->requestChart(chart, runs, chart->metricKey());
        }
    }
}

void MainWindow::updateSummary() {
    // One row per run and metric of the board's charts.
    std::vector<std::string> metrics;
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        const std::string key = m_ui.board->chartAt(i)->chart()->metricKey().toStdString();
        if (!key.empty() && std::find(metrics.begin(), metrics.end(), key) == metrics.end())
            metrics.push_back(key);
    }
    std::vector<Run> runs = m_ui.basket->runs();
    // A board whose every chart came from a file shows the charts' runs only: the basket's other
    // store runs are not mixed in unasked (the summary shows what the charts show).
    bool boardOnly = !metrics.empty();
    std::set<std::string> charted;
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        const ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        if (chart->metricKey().isEmpty())
            continue;
        boardOnly = boardOnly && chart->isDetached();
        for (const ChartRunData& r : chart->runs())
            charted.insert(r.run.uuid);
    }
    if (boardOnly)
        runs.erase(
            std::remove_if(runs.begin(), runs.end(), [&](const Run& r) { return !charted.count(r.uuid); }),
            runs.end());
    // A board file's runs that the store does not hold (so not in the basket): from the points
    // the file carries, each with its chart's metric.
    std::vector<SummaryPanel::HeldSeries> held;
    std::set<std::pair<std::string, std::string>> seen; // (run, metric): charts may share one
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        const ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        if (!chart->isDetached())
            continue;
        const std::string metric = chart->metricKey().toStdString();
        for (const ChartRunData& r : chart->runs())
            if (!m_ui.basket->contains(toQString(r.run.uuid)) && seen.emplace(r.run.uuid, metric).second)
                held.push_back({r.run,
                                r.experimentName.empty() ? QString::number(r.run.experimentId)
                                                         : toQString(r.experimentName),
                                metric, r.series});
    }
    m_ui.session->loader()->requestSummary(runs, metrics, m_ui.session->experimentNames(), std::move(held));
}

ChartPanel* MainWindow::chartPanel() const {
    return m_ui.board->current()->chart();
}

ChartCard* MainWindow::chartCard() const {
    return m_ui.board->current();
}

void MainWindow::updateTitleAndStatus() {
    const QString display = storeDisplayUri();
    setWindowTitle(display.isEmpty() ? QStringLiteral("radt-explorer")
                                     : QStringLiteral("radt-explorer \u2014 ") + display);
    if (!hasStore()) {
        m_ui.counts->setText(tr("No store open"));
        return;
    }
    const auto count = [](int n, const QString& one, const QString& many) {
        return n == 1 ? one : many.arg(n);
    };
    m_ui.counts->setText(
        count(m_ui.tree->model()->experimentCount(), tr("1 experiment"), tr("%1 experiments")) +
        QStringLiteral(", ") + count(m_ui.tree->model()->runCount(), tr("1 run"), tr("%1 runs")) +
        QStringLiteral(" | ") + count(m_ui.basket->runCount(), tr("basket: 1 run"), tr("basket: %1 runs")));
}

} // namespace radt
