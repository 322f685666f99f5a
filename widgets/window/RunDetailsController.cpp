// SPDX-License-Identifier: MIT
#include "widgets/window/RunDetailsController.h"

#include "core/report/EnvironmentReport.h"
#include "core/report/RunJudgement.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/common/Formatting.h"
#include "widgets/common/StoreReadThread.h"
#include "widgets/details/RunDetailsPanel.h"
#include "widgets/details/RunHistoryPane.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/StoreSession.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QPointer>
#include <QSysInfo>
#include <QTabWidget>
#include <QTreeView>

namespace radt {

RunDetailsController::RunDetailsController(QMainWindow& window, WindowParts& parts)
    : QObject(&window), m_window(window), m_ui(parts) {
    connect(m_ui.tree, &RunTreePane::detailsRequested, this, &RunDetailsController::showRun);
    connect(m_ui.tree, &RunTreePane::currentRunChanged, this, &RunDetailsController::follow);
    connect(m_ui.basketPanel, &BasketPanel::detailsRequested, this, &RunDetailsController::showRun);
    connect(m_ui.basketPanel, &BasketPanel::currentRunChanged, this, &RunDetailsController::follow);
    connect(m_ui.board, &BoardPanel::detailsRequested, this, &RunDetailsController::showRun);
    connect(m_ui.session, &StoreSession::storeOpened, this,
            [this] { m_ui.details->clear(RunDetailsPanel::tr("Choose a run in the tree or the basket.")); });
    connect(m_ui.session, &StoreSession::treeReady, this, &RunDetailsController::refresh);
    // Shown from the View menu with no run yet: the tree's current run, if it is one.
    connect(m_ui.docks.details, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible)
            return;
        if (m_ui.details->runUuid().isEmpty())
            follow(m_ui.tree->runUuidAt(m_ui.tree->view()->currentIndex()));
        else
            refresh(); // what changed while it was hidden
    });
    connect(m_ui.details->tabs(), &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == RunDetailsPanel::HistoryTab)
            judgeShownRun();
    });
    connect(m_ui.details->history(), &RunHistoryPane::overlayRequested, this,
            &RunDetailsController::overlayRequested);
}

bool RunDetailsController::showRun(const QString& runUuid) {
    const Run* run = m_ui.tree->model()->runByUuid(runUuid);
    if (!run)
        return false;
    display(*run);
    m_ui.docks.details->show();
    m_ui.docks.details->raise();
    if (m_ui.docks.details->isFloating())
        m_ui.docks.details->activateWindow();
    return true;
}

void RunDetailsController::follow(const QString& runUuid) {
    if (!m_ui.docks.details->isVisible() || runUuid.isEmpty() || runUuid == m_ui.details->runUuid())
        return;
    if (const Run* run = m_ui.tree->model()->runByUuid(runUuid))
        display(*run);
}

RunDetailsContext RunDetailsController::contextOf(const Run& run) const {
    RunDetailsContext context;
    const auto names = m_ui.session->experimentNames();
    const auto name = names.find(run.experimentId);
    context.experimentName = name == names.end() ? QString::number(run.experimentId) : name->second;
    context.thisHost = QSysInfo::machineHostName();
    const ArtifactContext artifacts = artifactContextOfStore(m_ui.session->uri().toStdString());
    context.storeOnServer = artifacts.storeOnServer;
    context.relativeBase = QString::fromStdString(artifacts.relativeBase);
    return context;
}

void RunDetailsController::display(const Run& run) {
    m_ui.details->showRun(run, contextOf(run), nowMs());
    if (m_judged != toQString(run.uuid))
        m_judged.clear(); // another run: its judgement is asked for when its History tab shows
    if (m_ui.details->tabs()->currentIndex() == RunDetailsPanel::HistoryTab)
        judgeShownRun();
    // The latest values are the store's: read on the loader's thread; a later run's read wins.
    QPointer<RunDetailsPanel> panel(m_ui.details);
    const QString uuid = toQString(run.uuid);
    m_ui.session->loader()->requestLatestMetrics(
        {run}, [panel, uuid](const ChartLoader::LatestByRun& latest, const QString& error) {
            if (!panel || panel->runUuid() != uuid)
                return;
            if (!error.isEmpty()) {
                panel->setLatestMetricsError(error);
                return;
            }
            const auto found = latest.find(uuid.toStdString());
            panel->setLatestMetrics(found == latest.end() ? std::map<std::string, LatestMetric>{}
                                                          : found->second);
        });
}

void RunDetailsController::judgeShownRun() {
    const QString uuid = m_ui.details->runUuid();
    if (uuid.isEmpty() || uuid == m_judged)
        return;
    const Run* shown = m_ui.tree->model()->runByUuid(uuid);
    if (!shown)
        return;
    m_judged = uuid;
    const quint64 generation = ++m_judgeGeneration;
    m_ui.details->history()->setMessage(
        RunDetailsPanel::tr("Judging %1 against the earlier runs of its configuration…")
            .arg(toQString(shown->name)));
    if (!m_judge)
        m_judge = StoreReadThread::start(QStringLiteral("radt judgement"));
    const std::string storeUri = m_ui.session->uri().toStdString();
    const Run run = *shown;
    QPointer<RunDetailsController> self(this);
    m_judge->postLatest(generation, [self, generation, storeUri, run](StoreReadThread& reader) {
        nlohmann::json judgement;
        QString error;
        try {
            JudgeOptions options;
            options.environment = artifactContextOfStore(storeUri);
            judgement = judgeRun(reader.connection(storeUri), run, options);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(self, [self, generation, judgement = std::move(judgement), error] {
            if (!self || generation != self->m_judgeGeneration)
                return;
            RunHistoryPane* pane = self->m_ui.details->history();
            if (error.isEmpty())
                pane->setJudgement(judgement);
            else
                pane->setMessage(RunDetailsPanel::tr("Cannot judge the run: %1").arg(error));
        });
    });
}

void RunDetailsController::refresh() {
    const QString uuid = m_ui.details->runUuid();
    if (uuid.isEmpty() || !m_ui.docks.details->isVisible())
        return;
    if (const Run* run = m_ui.tree->model()->runByUuid(uuid)) {
        m_judged.clear(); // a reread: its history may have grown
        display(*run);
    } else
        m_ui.details->clear(RunDetailsPanel::tr("The run %1 is no longer in the store.").arg(uuid));
}

} // namespace radt
