// The window's store: opening it, then its reads of the run tree and the basket's metric keys.
// The File menu's opens and the reads go through the ChartLoader's thread like the charts (on
// PostgreSQL each is a network round trip, and the tree is reread every 5 s while runs are
// running), and land here.

#include "MainWindow.h"

#include "BasketPanel.h"
#include "BoardPanel.h"
#include "ChartCard.h"
#include "ChartLoader.h"
#include "ChartPanel.h"
#include "Formatting.h"
#include "InsightsPanel.h"
#include "MetricPicker.h"
#include "RunReconciler.h"
#include "SavedSelections.h"
#include "models/BasketModel.h"
#include "models/RunTreeModel.h"

#include <QMessageBox>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>

#include <cstdio>

#include <set>

namespace radt {

MainWindow::OpenedStore MainWindow::openAndRead(const std::string& uri, OpenMode mode) {
    OpenedStore opened;
    opened.store = radt::openStore(uri, mode);
    // Runs whose collector was killed would otherwise show RUNNING forever (resources/DESIGN.md §8). A
    // read-only store simply keeps them as they are.
    if (mode != OpenMode::ReadOnly) {
        try {
            radt::reconcileOrphanedRuns(*opened.store);
        } catch (const std::exception&) {
        }
    }
    // Read before the window swaps, so a store that opens but cannot be read leaves the old one.
    opened.experiments = opened.store->experiments();
    opened.runs = opened.store->runs();
    return opened;
}

OpenMode MainWindow::effectiveMode(OpenMode mode) const {
    return m_readOnly && mode == OpenMode::OpenExisting ? OpenMode::ReadOnly : mode;
}

bool MainWindow::openStore(const QString& uri, QString* error, OpenMode mode) {
    try {
        adoptStore(uri, openAndRead(uri.toStdString(), effectiveMode(mode)));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

void MainWindow::openStoreInteractive(const QString& uri, OpenMode mode, std::function<void(bool)> landed) {
    const uint64_t generation = ++m_openGeneration; // the newest open asked for wins
    auto opened = std::make_shared<OpenedStore>();
    statusBar()->showMessage(tr("Opening %1…").arg(uri));
    m_progress->setRange(0, 0); // busy until the loader is idle
    m_progress->setFormat(tr("Opening the store"));
    m_progress->show();
    m_loader->workThenLand(
        [opened, uri = uri.toStdString(), mode = effectiveMode(mode)] { *opened = openAndRead(uri, mode); },
        [this, generation, opened, uri, landed = std::move(landed)](const QString& error) {
            if (generation != m_openGeneration)
                return;
            if (error.isEmpty()) {
                adoptStore(uri, std::move(*opened));
                if (landed)
                    landed(true);
                return;
            }
            statusBar()->clearMessage();
            QMessageBox::critical(this, tr("Cannot open store"),
                                  tr("The store could not be opened:\n\n%1").arg(error) +
                                      (hasStore() ? tr("\n\n%1 stays open.").arg(storeDisplayUri())
                                                  : tr("\n\nUse File > Open Store to choose another one.")));
            if (landed)
                landed(false);
        });
}

void MainWindow::adoptStore(const QString& uri, OpenedStore opened) {
    // Opening changed a store another tool may own (the read index): said once.
    if (const QString notice = QString::fromStdString(opened.store->openNotice()); !notice.isEmpty()) {
        std::fprintf(stderr, "radt-explorer: %s\n", qPrintable(notice));
        QTimer::singleShot(0, this, [this, notice] { statusBar()->showMessage(notice, 20000); });
    }
    ++m_openGeneration; // an open still under way in the File menu would replace this one
    m_store = std::move(opened.store);
    m_uri = uri;
    forgetReadsOfTheLastStore();
    m_loader->setStoreUri(uri.toStdString());
    m_insights->setStore(uri);
    m_basket->clear();
    std::map<int64_t, QString> names;
    for (const Experiment& e : opened.experiments)
        names[e.id] = toQString(e.name);
    m_experimentNames = names;
    m_basket->setExperimentNames(std::move(names));
    m_treeModel->setContents(std::move(opened.experiments), std::move(opened.runs), nowMs());
    m_tree->expandToDepth(0);
    fitColumns();
    m_recent.add(uri);
    // Keyed like Recent Stores: absolute SQLite path, no password written to disk.
    m_basketPanel->setSelectionStore(m_selections.get(), RecentStores::normalize(uri));
    for (int i = 0; i < m_board->chartCount(); ++i)
        m_loader->cancelChart(m_board->chartAt(i)->chart());
    for (int i = 0; i < m_board->chartCount(); ++i)
        m_board->chartAt(i)->chart()->clear(
            m_treeModel->runCount() > 0
                ? QString()
                : tr("This store has no runs yet: record one with  radt train.py ..."));
    updateTitleAndStatus();
    statusBar()->showMessage(tr("Opened %1").arg(storeDisplayUri()), 5000);
}

void MainWindow::reload() {
    rereadTree(true);
}

void MainWindow::forgetReadsOfTheLastStore() {
    // What is still being read of the store before lands nowhere (its epoch is past), and what
    // was to follow those reads concerned runs of that store.
    ++m_storeEpoch;
    m_afterTree.clear();
    m_treeAgain = m_treeAgainAsked = false;
    ++m_keysGeneration;
    m_keysPending = false;
}

void MainWindow::rereadTree(bool userAsked, std::function<void()> then) {
    if (!m_store)
        return;
    if (then)
        m_afterTree.push_back(std::move(then));
    if (m_treeReading) { // one more reread after this one, never a queue of them
        m_treeAgain = true;
        m_treeAgainAsked = m_treeAgainAsked || userAsked;
        return;
    }
    m_treeReading = true;
    const int epoch = m_storeEpoch;
    m_loader->requestTree([this, epoch, userAsked](std::vector<Experiment> experiments, std::vector<Run> runs,
                                                   const QString& error) {
        m_treeReading = false;
        if (epoch == m_storeEpoch) {
            if (error.isEmpty())
                applyTree(std::move(experiments), std::move(runs), userAsked);
            else if (userAsked)
                QMessageBox::critical(this, tr("Reload failed"), error);
            else
                statusBar()->showMessage(tr("Cannot reread the runs: %1").arg(error), 5000);
        }
        if (m_treeAgain) { // what waits for the tree waits for the newest reread
            const bool asked = m_treeAgainAsked;
            m_treeAgain = m_treeAgainAsked = false;
            rereadTree(asked);
            return;
        }
        std::vector<std::function<void()>> thens;
        thens.swap(m_afterTree);
        for (const std::function<void()>& f : thens)
            f();
    });
}

void MainWindow::applyTree(std::vector<Experiment> experiments, std::vector<Run> runs, bool userAsked) {
    const QStringList expanded = expandedNodes();
    std::map<int64_t, QString> names;
    for (const Experiment& e : experiments)
        names[e.id] = toQString(e.name);
    m_treeModel->setContents(std::move(experiments), std::move(runs), nowMs());
    restoreExpandedNodes(expanded);
    fitColumns();
    m_experimentNames = names;
    m_basket->setExperimentNames(std::move(names));
    m_basket->refresh(m_treeModel->runs());
    updateTitleAndStatus();
    if (userAsked)
        statusBar()->showMessage(tr("Reloaded"), 3000);
}

void MainWindow::onBasketChanged() {
    m_insights->setRuns(basketRunUuids());
    freeColoursOfRunsGone();
    // The charts follow the basket at once (they read on the loader's thread); the metric list
    // follows when the basket runs' keys are read.
    showMetric(m_metrics->currentKey());
    readBasketKeys();
    updateTitleAndStatus();
}

void MainWindow::readBasketKeys() {
    const uint64_t generation = ++m_keysGeneration;
    const std::vector<Run> runs = m_basket->runs();
    if (!m_store || runs.empty()) {
        m_keysPending = false;
        applyBasketKeys({});
        return;
    }
    m_keysPending = true;
    std::vector<std::string> uuids;
    for (const Run& r : runs)
        uuids.push_back(r.uuid);
    m_loader->requestMetricKeys(
        uuids, [this, generation](const std::vector<std::string>& keys, const QString& error) {
            if (generation != m_keysGeneration)
                return; // the basket changed again (or the store): a newer read lands
            m_keysPending = false;
            if (!error.isEmpty()) { // the list stays as it was rather than emptying the charts
                statusBar()->showMessage(tr("Cannot read metric keys: %1").arg(error), 5000);
                return;
            }
            applyBasketKeys(keys);
        });
}

void MainWindow::applyBasketKeys(const std::vector<std::string>& storeKeys) {
    // Keys already seen on the live bus that the store writer has not flushed yet belong too.
    std::set<std::string> keys(storeKeys.begin(), storeKeys.end());
    for (const Run& r : m_basket->runs())
        if (auto live = m_liveKeys.find(r.uuid); live != m_liveKeys.end())
            keys.insert(live->second.begin(), live->second.end());
    QStringList list;
    for (const std::string& key : keys)
        list.append(toQString(key));

    ChartPanel* chart = chartPanel();
    const QString shown = chart->metricKey();
    {
        const QSignalBlocker quiet(m_metrics); // the list follows the chart here, plotting nothing
        m_metrics->setKeys(list);
        if (list.contains(shown))
            m_metrics->setCurrentKey(shown);
    }
    if (chart->isDetached() || (!shown.isEmpty() && list.contains(shown)))
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
    if (m_keysPending) { // the chart reads it now; the list follows it when the keys land,
        showMetric(key); // or the preferred metric replaces it when no basket run has it
        return true;
    }
    if (!m_metrics->keys().contains(key))
        return false;
    if (m_metrics->currentKey() == key)
        showMetric(key);
    else
        m_metrics->setCurrentKey(key); // emits metricChosen, which plots
    return chartPanel()->metricKey() == key;
}

bool MainWindow::plotPreferredMetric() {
    if (m_keysPending || !m_metrics->currentKey().isEmpty())
        return true; // the keys' landing plots the preferred metric into an empty chart
    const QString key = MetricPicker::preferredKey(m_metrics->keys());
    return !key.isEmpty() && plotMetric(key);
}

} // namespace radt
