// SPDX-License-Identifier: MIT
// The window's store: opening it, then its reads of the run tree and the basket's metric keys.
// The File menu's opens and the reads go through the ChartLoader's thread like the charts (on
// PostgreSQL each is a network round trip, and the tree is reread every 5 s while runs are
// running), and land here.

#include "core/StoreFactory.h"
#include "widgets/window/MainWindow.h"

#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartOptionsJson.h"
#include "widgets/common/Formatting.h"
#include "widgets/compare/ComparePanel.h"
#include "widgets/insights/InsightsPanel.h"
#include "widgets/runs/BasketModel.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/runs/RunsTablePane.h"
#include "widgets/runs/SavedSelections.h"
#include "widgets/window/LiveRuns.h"
#include "widgets/window/StoreSession.h"

#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>
#include <QUrl>

#include <algorithm>
#include <cstdio>
#include <iterator>

#include <set>

namespace radt {

void MainWindow::connectSession() {
    connect(m_ui.session, &StoreSession::opening, this, [this](const QString& uri) {
        statusBar()->showMessage(tr("Opening %1…").arg(uri));
        m_ui.progress->setRange(0, 0); // busy until the loader is idle
        m_ui.progress->setFormat(tr("Opening the store"));
        m_ui.progress->show();
    });
    connect(m_ui.session, &StoreSession::openFailed, this, [this](const QString&, const QString& error) {
        statusBar()->clearMessage();
        QMessageBox::critical(this, tr("Cannot open store"),
                              tr("The store could not be opened:\n\n%1").arg(error) +
                                  (hasStore() ? tr("\n\n%1 stays open.").arg(storeDisplayUri())
                                              : tr("\n\nUse File > Open Store to choose another one.")));
    });
    connect(m_ui.session, &StoreSession::openNotice, this, [this](const QString& notice) {
        std::fprintf(stderr, "radt-explorer: %s\n", qPrintable(notice));
        QTimer::singleShot(0, this, [this, notice] { statusBar()->showMessage(notice, 20000); });
    });
    connect(m_ui.session, &StoreSession::storeOpened, this, &MainWindow::showOpenedStore);
    connect(m_ui.session, &StoreSession::treeReady, this, &MainWindow::showTree);
    connect(m_ui.session, &StoreSession::treeFailed, this, [this](const QString& error, bool userAsked) {
        if (userAsked)
            QMessageBox::critical(this, tr("Reload failed"), error);
        else
            statusBar()->showMessage(tr("Cannot reread the runs: %1").arg(error), 5000);
    });
    connect(m_ui.session, &StoreSession::keysReady, this, &MainWindow::applyBasketKeys);
    connect(m_ui.session, &StoreSession::keysFailed, this, [this](const QString& error) {
        // The list stays as it was rather than emptying the charts.
        statusBar()->showMessage(tr("Cannot read metric keys: %1").arg(error), 5000);
    });
}

bool MainWindow::openStore(const QString& uri, QString* error, OpenMode mode) {
    return m_ui.session->open(uri, error, mode);
}

void MainWindow::openStoreInteractive(const QString& uri, OpenMode mode, std::function<void(bool)> landed) {
    m_ui.session->openInBackground(uri, mode, std::move(landed));
}

void MainWindow::showOpenedStore(const QString& uri, const std::vector<Experiment>& experiments,
                                 const std::vector<Run>& runs) {
    const bool firstStore = m_viewStore.isEmpty();
    keepStoreView(); // the store shown until now: its view comes back when it is opened again
    m_ui.insights->setStore(uri);
    m_ui.parallel->setStore(uri);
    m_ui.runsTable->setStore(uri);
    m_ui.basket->clear();
    m_ui.basket->setExperimentNames(m_ui.session->experimentNames());
    m_ui.tree->showStore(experiments, runs);
    m_ui.tree->setStoreUri(uri); // a search in the tree's filter asks this store
    m_recent.add(uri);
    // Keyed like Recent Stores: absolute SQLite path, no password written to disk.
    m_ui.basketPanel->setSelectionStore(m_selections.get(), RecentStores::normalize(uri));
    for (int i = 0; i < m_ui.board->chartCount(); ++i)
        m_ui.session->loader()->cancelChart(m_ui.board->chartAt(i)->chart());
    for (int i = 0; i < m_ui.board->chartCount(); ++i)
        m_ui.board->chartAt(i)->chart()->clear(
            m_ui.tree->model()->runCount() > 0
                ? QString()
                : tr("This store has no runs yet: record one with  radt train.py ..."));
    m_viewStore = RecentStores::normalize(uri);
    showStoreView(firstStore);
    updateTitleAndStatus();
    statusBar()->showMessage(tr("Opened %1").arg(storeDisplayUri()), 5000);
}

namespace {

/// The QSettings group of a store's view: its normalized URI, percent-encoded (a '/' would nest).
QString storeViewGroup(const QString& store) {
    return QStringLiteral("storeViews/") + QString::fromLatin1(QUrl::toPercentEncoding(store));
}

} // namespace

void MainWindow::keepStoreView() {
    if (m_viewStore.isEmpty())
        return;
    nlohmann::json charts = nlohmann::json::array();
    for (int i = 0; i < m_ui.board->chartCount(); ++i)
        charts.push_back(chartOptionsToJson(m_ui.board->chartAt(i)->chart()->engine().options(), true));
    QSettings settings;
    settings.beginGroup(storeViewGroup(m_viewStore));
    settings.setValue(QStringLiteral("metricSearch"), m_ui.metrics->filterText());
    settings.setValue(QStringLiteral("charts"), QString::fromStdString(charts.dump()));
}

void MainWindow::showStoreView(bool firstStore) {
    QSettings settings;
    settings.beginGroup(storeViewGroup(m_viewStore));
    // The first store of a session with no view of its own keeps what the window starts with (a
    // restored session's charts); any later one never inherits the store shown before it.
    if (firstStore && !settings.contains(QStringLiteral("charts")))
        return;
    m_ui.metrics->setFilterText(settings.value(QStringLiteral("metricSearch")).toString());
    // A view the explorer cannot read (an edited file) gives the defaults, as a store never seen.
    const nlohmann::json stored = nlohmann::json::parse(
        settings.value(QStringLiteral("charts")).toString().toStdString(), nullptr, false);
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        ChartOptions options;
        if (stored.is_array() && size_t(i) < stored.size() && stored[size_t(i)].is_object())
            chartOptionsFromJson(stored[size_t(i)], options, [](const std::string&, const std::string&) {});
        m_ui.board->chartAt(i)->chart()->changeOptions([&options](ChartOptions& o) { o = options; });
    }
}

void MainWindow::reload() {
    m_ui.session->rereadTree(true);
}

void MainWindow::showTree(const std::vector<Experiment>& experiments, const std::vector<Run>& runs,
                          bool userAsked) {
    m_ui.tree->showReread(experiments, runs);
    m_ui.basket->setExperimentNames(m_ui.session->experimentNames());
    // Runs deleted (here, by radt run or by MLflow) leave the basket and its charts.
    std::vector<Run> active;
    std::copy_if(runs.begin(), runs.end(), std::back_inserter(active),
                 [](const Run& r) { return !r.deleted; });
    m_ui.basket->refresh(active);
    m_ui.runsTable->reload(); // renamed, tagged, deleted or new runs
    updateTitleAndStatus();
    if (userAsked)
        statusBar()->showMessage(tr("Reloaded"), 3000);
}

void MainWindow::onBasketChanged() {
    m_ui.insights->setRuns(basketRunUuids());
    m_ui.parallel->setRuns(basketRunUuids());
    m_ui.runsTable->setBasket(basketRunUuids());
    freeColoursOfRunsGone();
    // The charts follow the basket at once (they read on the loader's thread); the metric list
    // follows when the basket runs' keys are read.
    showMetric(m_ui.metrics->currentKey());
    m_ui.session->readMetricKeys(m_ui.basket->runs());
    updateTitleAndStatus();
}

void MainWindow::applyBasketKeys(const std::vector<std::string>& storeKeys) {
    // Keys already seen on the live bus that the store writer has not flushed yet belong too.
    std::set<std::string> keys(storeKeys.begin(), storeKeys.end());
    for (const Run& r : m_ui.basket->runs())
        for (const std::string& key : m_live->keysSeen(r.uuid))
            keys.insert(key);
    QStringList list;
    for (const std::string& key : keys)
        list.append(toQString(key));

    ChartPanel* chart = chartPanel();
    const QString shown = chart->engine().metricKey();
    {
        const QSignalBlocker quiet(m_ui.metrics); // the list follows the chart here, plotting nothing
        m_ui.metrics->setKeys(list);
        if (list.contains(shown))
            m_ui.metrics->setCurrentKey(shown);
    }
    if (chart->engine().isDetached() || (!shown.isEmpty() && list.contains(shown)))
        return; // a board file's chart keeps the data the file carries; the others are right
    // The chart shows nothing, or a metric none of the basket's runs has (plotMetric while the
    // keys were read): the preferred one.
    const QString preferred = MetricPicker::preferredKey(list);
    if (preferred.isEmpty())
        showMetric(QString());
    else
        plotMetric(preferred);
}

bool MainWindow::plotMetric(const QString& key) {
    if (m_ui.session->keysPending()) { // the chart reads it now; the list follows it when the keys land,
        showMetric(key);               // or the preferred metric replaces it when no basket run has it
        return true;
    }
    if (!m_ui.metrics->keys().contains(key))
        return false;
    if (m_ui.metrics->currentKey() == key)
        showMetric(key);
    else
        m_ui.metrics->setCurrentKey(key); // emits metricChosen, which plots
    return chartPanel()->engine().metricKey() == key;
}

bool MainWindow::plotPreferredMetric() {
    if (m_ui.session->keysPending() || !m_ui.metrics->currentKey().isEmpty())
        return true; // the keys' landing plots the preferred metric into an empty chart
    const QString key = MetricPicker::preferredKey(m_ui.metrics->keys());
    return !key.isEmpty() && plotMetric(key);
}

} // namespace radt
