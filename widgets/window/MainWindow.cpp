// SPDX-License-Identifier: MIT
#include "widgets/window/MainWindow.h"

#include "widgets/common/FileDialogs.h"
#include "widgets/compare/ComparePanel.h"
#include "widgets/insights/InsightsPanel.h"

#include "core/report/EnvironmentReport.h"
#include "core/store/RunReconciler.h"

#include "core/store/StoreUri.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/SummaryPanel.h"
#include "widgets/common/Formatting.h"
#include "widgets/insights/CompareDialog.h"
#include "widgets/launch/ConsolePane.h"
#include "widgets/runs/BasketModel.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/runs/RunsTablePane.h"
#include "widgets/runs/SavedSelections.h"
#include "widgets/window/BoardDocument.h"
#include "widgets/window/LiveRuns.h"
#include "widgets/window/RunCuration.h"
#include "widgets/window/RunDetailsController.h"
#include "widgets/window/WorkspaceLayout.h"

#include <QAbstractItemView>
#include <QAction>
#include <QItemSelectionModel>
#include <QSet>
#include <QTableView>

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
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
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <functional>
#include <memory>

#include <QTreeView>
#include <QVBoxLayout>
#include <cstdio>

#include <algorithm>
#include <map>

namespace radt {

namespace {

QString boardFileIn(const QMimeData* mime) {
    if (!mime || !mime->hasUrls())
        return QString();
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && url.toLocalFile().endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
            return url.toLocalFile();
    return QString();
}

/// Selects the rows of `view` (any depth) whose `role` holds one of `uuids`: brushed runs shown
/// where else they are listed. Nothing brushed clears the selection.
void selectRunRows(QAbstractItemView* view, const QStringList& uuids, int role) {
    if (!view || !view->model())
        return;
    QItemSelection rows;
    const QAbstractItemModel* model = view->model();
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
        for (int r = 0; r < model->rowCount(parent); ++r) {
            const QModelIndex index = model->index(r, 0, parent);
            if (uuids.contains(index.data(role).toString()))
                rows.select(index, index);
            walk(index);
        }
    };
    walk(QModelIndex());
    view->selectionModel()->select(rows, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!rows.isEmpty())
        view->scrollTo(rows.indexes().front());
}

/// The parallel coordinates put brushed runs in the basket, or make the basket the brushed runs
/// (the chart keeps its metric, as a restored selection does); the runs brushed are selected in
/// the basket and in the Insights table, as they are highlighted in the plot.
void connectComparePanel(MainWindow& window, const WindowParts& ui) {
    QObject::connect(ui.parallel, &ComparePanel::brushed, &window, [&ui](const QStringList& uuids) {
        selectRunRows(ui.basketPanel->view(), uuids, BasketModel::RunUuidRole);
        selectRunRows(ui.insights->findChild<QTableView*>(QStringLiteral("insightsRunTable")), uuids,
                      InsightsPanel::kUuidRole);
    });
    QObject::connect(ui.parallel, &ComparePanel::addToBasket, &window,
                     [&window](const QStringList& uuids) { window.addRunsToBasket(uuids); });
    QObject::connect(
        ui.parallel, &ComparePanel::keepInBasket, &window, [&window, &ui](const QStringList& uuids) {
            const QString metric = ui.metrics->currentKey();
            window.clearBasket();
            window.addRunsToBasket(uuids);
            if (!metric.isEmpty() && metric != ui.metrics->currentKey())
                window.plotMetric(metric);
            window.statusBar()->showMessage(
                uuids.size() == 1 ? MainWindow::tr("The basket is the brushed run")
                                  : MainWindow::tr("The basket is the %1 brushed runs").arg(uuids.size()),
                4000);
        });
}

} // namespace

MainWindow::MainWindow(QWidget* parent, bool readOnly) : QMainWindow(parent) {
    m_ui.session = new StoreSession(this);
    m_ui.session->setReadOnly(readOnly);
    m_ui.tree = new RunTreePane(this);
    m_ui.basket = new BasketModel(this);
    m_ui.counts = new QLabel(this);
    m_ui.basketPanel = new BasketPanel(m_ui.basket, this);
    m_ui.metrics = new MetricPicker(this);
    m_ui.board = new BoardPanel(this);
    m_ui.summary = new SummaryPanel(this);

    m_ui.console = new ConsolePane(this);
    m_ui.insights = new InsightsPanel(this);
    m_ui.parallel = new ComparePanel(this);
    m_layout = std::make_unique<WorkspaceLayout>(*this, m_ui);
    m_live = new LiveRuns(*this, *this, m_ui);
    m_details = new RunDetailsController(*this, m_ui);
    connect(m_details, &RunDetailsController::overlayRequested, this, &MainWindow::overlayOnHistory);
    m_curation = new RunCuration(*this, m_ui);
    connect(m_live, &LiveRuns::chartsChanged, this, &MainWindow::updateSummary);
    connect(m_live, &LiveRuns::basketKeysSeen, this, &MainWindow::applyBasketKeys);
    connect(m_ui.insights, &InsightsPanel::progress, this, [this](int done, int total) {
        statusBar()->showMessage(tr("Insights: %1/%2 runs").arg(done).arg(total), 2000);
    });
    connectComparePanel(*this, m_ui);
    connect(m_ui.runsTable, &RunsTablePane::addToBasket, this, [this](const QStringList& uuids) {
        const int added = addRunsToBasket(uuids);
        statusBar()->showMessage(added == 0 ? tr("The selected runs are in the basket already")
                                 : added == 1
                                     ? tr("Added 1 run of the runs table to the basket")
                                     : tr("Added %1 runs of the runs table to the basket").arg(added),
                                 4000);
    });
    m_ui.basketPanel->view()->viewport()->installEventFilter(this); // runs dropped from the tree
    m_document = new BoardDocument(*this, *this, m_ui);
    connect(m_document, &BoardDocument::opened, this, &MainWindow::updateSummary);
    createMenus();
    statusBar()->addPermanentWidget(m_ui.counts);
    connectPanes();
    // Chart data and summaries are read on a worker thread; the status bar shows the progress.
    m_ui.progress = new QProgressBar(this);
    m_ui.progress->setMaximumWidth(260);
    m_ui.progress->setTextVisible(true);
    m_ui.progress->hide();
    statusBar()->addPermanentWidget(m_ui.progress);
    connectSession();
    connectChartLoader();
    // 1400x860 where the screen has room; on a smaller screen (1024x700, a laptop) the window
    // fits it instead of running off its edge (without a window manager nothing else would).
    QSize size(1400, 860);
    if (const QScreen* shown = QGuiApplication::primaryScreen())
        size = size.boundedTo(shown->availableGeometry().size());
    resize(size.expandedTo(minimumSizeHint()));
    m_layout->fitPanesToWidth();
    setAcceptDrops(true); // a board file dropped on the window opens
    updateTitleAndStatus();
}

void MainWindow::overlayOnHistory(const QString& runUuid, const QStringList& historyUuids) {
    // The basket becomes the run and its history (the chart keeps its metric, as a restored
    // selection does); the current chart groups them per configuration with the run apart.
    const QString metric = m_ui.metrics->currentKey();
    clearBasket();
    addRunsToBasket(historyUuids + QStringList{runUuid});
    if (!metric.isEmpty() && metric != m_ui.metrics->currentKey())
        plotMetric(metric);
    if (ChartCard* card = m_ui.board->current())
        card->chart()->changeOptions([&runUuid](ChartOptions& o) {
            o.grouping = ChartOptions::Grouping::Configuration;
            o.apartRuns = {runUuid};
        });
    statusBar()->showMessage(
        metric.isEmpty() ? tr("The basket is the run and its %1 earlier runs: choose a metric to see it over "
                              "their mean and band")
                               .arg(historyUuids.size())
                         : tr("The chart draws the run apart from the mean and band of its %1 earlier runs")
                               .arg(historyUuids.size()),
        6000);
}

void MainWindow::connectPanes() {
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
        m_layout->toggleMaximisedChart();
    });
    connect(m_ui.board, &BoardPanel::currentChanged, this, [this](ChartCard* card) {
        const QString key = card->chart()->engine().metricKey();
        if (key.isEmpty())
            m_ui.metrics->clearChoice(); // clicking the metric the last chart showed plots it here
        else if (m_ui.metrics->keys().contains(key) && m_ui.metrics->currentKey() != key)
            m_ui.metrics->setCurrentKey(key);
    });
}

void MainWindow::connectChartLoader() {
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
    connect(m_ui.session->loader(), &ChartLoader::detailFailed, this,
            [this](ChartPanel*, const QString& key, const QString& error) {
                statusBar()->showMessage(tr("Cannot read %1 closer: %2").arg(key, error));
            });
    // The loader's rows (a run and a metric each) are kept: a chart that groups its lines anew
    // names them again, and its groups' means get rows of their own.
    auto loaded = std::make_shared<std::vector<SummaryRow>>();
    auto show = [this, loaded] {
        std::vector<SummaryRow> rows = *loaded;
        QSet<QString> metrics;
        for (SummaryRow& row :
             rows) { // each row names the line its chart draws the run in, as the legend does
            metrics.insert(row.metric);
            for (int i = 0; i < m_ui.board->chartCount() && row.line.isEmpty(); ++i)
                if (const ChartPanel* chart = m_ui.board->chartAt(i)->chart();
                    chart->engine().metricKey() == row.metric)
                    row.line = lineOfRun(chart->engine(), row.runUuid);
        }
        for (int i = 0; i < m_ui.board->chartCount(); ++i)
            if (const ChartPanel* chart = m_ui.board->chartAt(i)->chart();
                metrics.contains(chart->engine().metricKey()))
                for (SummaryRow& group : SummaryPanel::groupRows(chart->engine()))
                    rows.push_back(std::move(group));
        m_ui.summary->setRows(std::move(rows));
    };
    connect(m_ui.session->loader(), &ChartLoader::summaryReady, this,
            [loaded, show](std::vector<SummaryRow> rows) {
                *loaded = std::move(rows);
                show();
            });
    for (int i = 0; i < m_ui.board->chartCount(); ++i)
        connect(m_ui.board->chartAt(i)->chart(), &ChartPanel::optionsChanged, this, show);
    connect(m_ui.board, &BoardPanel::chartAdded, this, [this, show](ChartCard* card) {
        connect(card->chart(), &ChartPanel::optionsChanged, this, show);
    });
    connect(m_ui.session->loader(), &ChartLoader::summaryFailed, this, [this](const QString& error) {
        m_ui.summary->setRows({});
        statusBar()->showMessage(tr("Cannot compute the summary: %1").arg(error), 5000);
    });
}

MainWindow::~MainWindow() {
    m_ui.basketPanel->setSelectionStore(nullptr, QString()); // the panel outlives m_selections
    // Launched runs are stopped and their thread joined while the console and charts still exist.
    delete m_live;
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // Runs dragged from the tree drop into the basket.
    if (watched == m_ui.basketPanel->view()->viewport()) {
        if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove) {
            auto* drag = static_cast<QDropEvent*>(event);
            if (!RunTreeModel::runUuidsIn(drag->mimeData()).isEmpty()) {
                drag->setDropAction(Qt::CopyAction);
                drag->accept();
                return true;
            }
        } else if (event->type() == QEvent::Drop) {
            auto* drop = static_cast<QDropEvent*>(event);
            const QStringList uuids = RunTreeModel::runUuidsIn(drop->mimeData());
            if (!uuids.isEmpty()) {
                drop->setDropAction(Qt::CopyAction);
                drop->accept();
                addRunsToBasket(uuids);
                return true;
            }
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    m_layout->shown();
}

bool MainWindow::waitForLoads(int timeoutMs) {
    return m_ui.session->loader()->waitIdle(timeoutMs);
}

void MainWindow::showInsights() {
    m_ui.docks.insights->show();
    m_ui.docks.insights->raise();
    if (m_ui.docks.insights->isFloating())
        m_ui.docks.insights->activateWindow();
    m_ui.insights->setFocus(Qt::ShortcutFocusReason);
}

int MainWindow::addRunsToBasket(const QStringList& uuids) {
    std::vector<Run> runs;
    for (const QString& uuid : uuids) {
        if (const Run* run = m_ui.tree->model()->runByUuid(uuid); run && !run->deleted)
            runs.push_back(*run); // a deleted run (Show Deleted Runs) is restored first
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
    m_ui.compare->setRuns(runs, m_ui.session->experimentNames(),
                          artifactContextOfStore(m_ui.session->uri().toStdString()));
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

void MainWindow::freeColoursOfRunsGone() {
    std::set<QString> keep;
    for (const Run& r : m_ui.basket->runs()) {
        keep.insert(QStringLiteral("run:") + toQString(r.uuid));
        keep.insert(QStringLiteral("workload:") + workloadKeyOf(r));
    }
    for (int i = 0; i < m_ui.board->chartCount(); ++i)
        if (const ChartPanel* chart = m_ui.board->chartAt(i)->chart(); chart->engine().isDetached())
            for (const QString& key : chart->engine().colourKeys())
                keep.insert(key);
    m_ui.board->lineColours().keepOnly([&keep](const QString& key) { return keep.count(key) > 0; });
}

void MainWindow::showMetric(const QString& key) {
    ChartPanel* chart = chartPanel();
    m_document->forgetFile(); // the board now differs from the file it came from
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
        if (chart == chartPanel() || chart->engine().metricKey().isEmpty() || chart->engine().isDetached())
            continue; // a board file's chart keeps the data the file carries
        if (!hasStore() || runs.empty()) {
            m_ui.session->loader()->cancelChart(chart);
            chart->clear();
        } else {
            m_ui.session->loader()->requestChart(chart, runs, chart->engine().metricKey());
        }
    }
}

void MainWindow::updateSummary() {
    // One row per run and metric of the board's charts.
    std::vector<std::string> metrics;
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        const std::string key = m_ui.board->chartAt(i)->chart()->engine().metricKey().toStdString();
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
        if (chart->engine().metricKey().isEmpty())
            continue;
        boardOnly = boardOnly && chart->engine().isDetached();
        for (const ChartRunData& r : chart->engine().runs())
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
        if (!chart->engine().isDetached())
            continue;
        const std::string metric = chart->engine().metricKey().toStdString();
        for (const ChartRunData& r : chart->engine().runs())
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

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_ui.launcher->isRunning() && !m_live->confirmQuit()) {
        event->ignore(); // the user keeps the window and the run
        return;
    }
    keepStoreView();
    QSettings settings;
    if (BoardDocument::sessionRestoreEnabled(settings))
        m_document->saveSession(settings);
    m_layout->save(settings);
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!boardFileIn(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = boardFileIn(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    m_document->openBoardInteractive(path);
}

} // namespace radt
