// SPDX-License-Identifier: MIT
#include "widgets/window/StoreSession.h"

#include "core/StoreFactory.h"
#include "core/store/RunReconciler.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/common/Formatting.h"

namespace radt {

struct StoreSession::OpenedStore {
    std::unique_ptr<Store> store;
    std::vector<Experiment> experiments;
    std::vector<Run> runs;
};

StoreSession::StoreSession(QObject* parent) : QObject(parent), m_loader(new ChartLoader(this)) {}

StoreSession::~StoreSession() = default;

QString StoreSession::displayUri() const {
    return m_store ? QString::fromStdString(m_store->displayUri()) : QString();
}

StoreSession::OpenedStore StoreSession::openAndRead(const std::string& uri, OpenMode mode) {
    OpenedStore opened;
    opened.store = radt::openStore(uri, mode);
    // Runs whose collector was killed would otherwise show RUNNING forever (resources/DESIGN.md
    // §8). A read-only store simply keeps them as they are.
    if (mode != OpenMode::ReadOnly) {
        try {
            radt::reconcileOrphanedRuns(*opened.store);
        } catch (const std::exception&) {
        }
    }
    // Read before the session swaps, so a store that opens but cannot be read leaves the old one.
    opened.experiments = opened.store->experiments();
    opened.runs = opened.store->runs();
    return opened;
}

QString StoreSession::whyReadOnly() const {
    if (!m_store)
        return {};
    if (m_readOnly)
        return tr("the store is open read-only; reopen it without --read-only");
    if (!m_store->isReadOnly())
        return {};
    const QString notice = QString::fromStdString(m_store->openNotice());
    return notice.isEmpty() ? tr("the store is read-only") : notice;
}

OpenMode StoreSession::effectiveMode(OpenMode mode) const {
    return m_readOnly && mode == OpenMode::OpenExisting ? OpenMode::ReadOnly : mode;
}

bool StoreSession::open(const QString& uri, QString* error, OpenMode mode) {
    try {
        adopt(uri, openAndRead(uri.toStdString(), effectiveMode(mode)));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

void StoreSession::openInBackground(const QString& uri, OpenMode mode, std::function<void(bool)> landed) {
    const uint64_t generation = ++m_openGeneration; // the newest open asked for wins
    auto opened = std::make_shared<OpenedStore>();
    emit opening(uri);
    m_loader->workThenLand(
        [opened, uri = uri.toStdString(), mode = effectiveMode(mode)] { *opened = openAndRead(uri, mode); },
        [this, generation, opened, uri, landed = std::move(landed)](const QString& error) {
            if (generation != m_openGeneration)
                return;
            if (error.isEmpty())
                adopt(uri, std::move(*opened));
            else
                emit openFailed(uri, error);
            if (landed)
                landed(error.isEmpty());
        });
}

void StoreSession::adopt(const QString& uri, OpenedStore opened) {
    ++m_openGeneration; // a background open still under way would replace this one
    // What is still being read of the store before lands nowhere (its epoch is past), and what
    // was to follow those reads concerned runs of that store.
    ++m_storeEpoch;
    m_afterTree.clear();
    m_treeAgain = m_treeAgainAsked = false;
    ++m_keysGeneration;
    m_keysPending = false;
    m_store = std::move(opened.store);
    m_uri = uri;
    m_loader->setStoreUri(uri.toStdString(), !m_store->isReadOnly());
    setExperimentNames(opened.experiments);
    if (const QString notice = QString::fromStdString(m_store->openNotice()); !notice.isEmpty())
        emit openNotice(notice);
    emit storeOpened(uri, opened.experiments, opened.runs);
}

void StoreSession::setExperimentNames(const std::vector<Experiment>& experiments) {
    m_experimentNames.clear();
    for (const Experiment& e : experiments)
        m_experimentNames[e.id] = toQString(e.name);
}

void StoreSession::rereadTree(bool userAsked, std::function<void()> then) {
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
    m_loader->requestTree(
        [this, epoch, userAsked](const std::vector<Experiment>& experiments, const std::vector<Run>& runs,
                                 const QString& error) {
            m_treeReading = false;
            if (epoch == m_storeEpoch) {
                if (error.isEmpty()) {
                    setExperimentNames(experiments);
                    emit treeReady(experiments, runs, userAsked);
                } else {
                    emit treeFailed(error, userAsked);
                }
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
        },
        m_showDeleted);
}

void StoreSession::readMetricKeys(const std::vector<Run>& runs) {
    const uint64_t generation = ++m_keysGeneration;
    if (!m_store || runs.empty()) {
        m_keysPending = false;
        emit keysReady({});
        return;
    }
    m_keysPending = true;
    std::vector<std::string> uuids;
    uuids.reserve(runs.size());
    for (const Run& r : runs)
        uuids.push_back(r.uuid);
    m_loader->requestMetricKeys(
        uuids, [this, generation](const std::vector<std::string>& keys, const QString& error) {
            if (generation != m_keysGeneration)
                return; // the runs changed again (or the store): a newer read lands
            m_keysPending = false;
            if (error.isEmpty())
                emit keysReady(keys);
            else
                emit keysFailed(error);
        });
}

} // namespace radt
