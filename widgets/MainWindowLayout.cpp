// The window's workspace: the run tree as a dock on the left, basket and metric list over the
// board in the middle, the summary and the console tabbed together in a dock at the bottom (so a
// console opened during a launch takes no height from the charts), insights floating. The user's
// arrangement is kept across sessions; View > Reset Layout brings the default back.

#include "BasketPanel.h"
#include "BoardPanel.h"
#include "MainWindow.h"

#include "MetricPicker.h"
#include "RunTreePane.h"
#include "SummaryPanel.h"
#include "models/RunTreeModel.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QDropEvent>
#include <QGuiApplication>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QTreeView>

#include <algorithm>

namespace radt {

namespace {
// Bumped when the docks change, so an arrangement saved by an older version is not applied.
constexpr int kLayoutVersion = 2;
} // namespace

void MainWindow::createLayout() {
    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(m_ui.basketPanel);
    top->addWidget(m_ui.metrics);
    top->setChildrenCollapsible(false);
    top->setSizes({420, 380});
    auto* central = new QSplitter(Qt::Vertical, this);
    central->setObjectName(QStringLiteral("centralSplitter"));
    central->addWidget(top);
    central->addWidget(m_ui.board);
    central->setStretchFactor(0, 0);
    central->setStretchFactor(1, 1);
    central->setChildrenCollapsible(false);
    central->setSizes({220, 640});
    setCentralWidget(central);

    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks |
                   QMainWindow::AllowNestedDocks);
    // The left column is the tree's from top to bottom; the bottom docks sit under the charts.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    m_ui.treeDock = new QDockWidget(tr("Experiments"), this);
    m_ui.treeDock->setObjectName(QStringLiteral("experiments"));
    m_ui.treeDock->setWidget(m_ui.tree);
    addDockWidget(Qt::LeftDockWidgetArea, m_ui.treeDock);
    m_ui.summaryDock = new QDockWidget(tr("Summary"), this);
    m_ui.summaryDock->setObjectName(QStringLiteral("summary"));
    m_ui.summaryDock->setWidget(m_ui.summary);
    addDockWidget(Qt::BottomDockWidgetArea, m_ui.summaryDock);
    m_ui.basketPanel->view()->setAcceptDrops(true);
    m_ui.basketPanel->view()->viewport()->setAcceptDrops(true);
    m_ui.basketPanel->view()->viewport()->installEventFilter(this);
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

void MainWindow::placeConsole() {
    // Tabbed with the summary: showing the console raises its tab, the charts keep their height.
    tabifyDockWidget(m_ui.summaryDock, m_ui.consoleDock);
    m_ui.consoleDock->hide();
    m_ui.summaryDock->raise();
}

void MainWindow::fitPanesToWidth() {
    // The tree gets under a third of the width (260..480 px): the charts are what is compared.
    resizeDocks({m_ui.treeDock}, {std::clamp(width() * 3 / 10, 260, 480)}, Qt::Horizontal);
    // The summary three rows high, the basket and metric list a few: the board is what is read.
    resizeDocks({m_ui.summaryDock}, {std::clamp(height() / 7, 96, 200)}, Qt::Vertical);
    if (auto* central = qobject_cast<QSplitter*>(centralWidget())) {
        const int total = std::max(central->height(), height() - 200);
        const int top = std::clamp(total * 2 / 9, 130, 220);
        central->setSizes({top, total - top});
    }
}

void MainWindow::toggleMaximisedChart() {
    QWidget* top = static_cast<QSplitter*>(centralWidget())->widget(0); // basket and metric list
    if (m_beforeMaximise) {
        restoreState(*m_beforeMaximise, kLayoutVersion);
        m_beforeMaximise.reset();
        top->show();
        m_ui.board->showOnly(nullptr);
        statusBar()->clearMessage();
        return;
    }
    m_beforeMaximise = saveState(kLayoutVersion);
    for (QDockWidget* dock : {m_ui.treeDock, m_ui.summaryDock, m_ui.consoleDock})
        dock->hide();
    top->hide();
    m_ui.board->showOnly(m_ui.board->current());
    statusBar()->showMessage(
        tr("One chart fills the window: double-click it or Ctrl+Shift+M to bring everything back"));
}

void MainWindow::fitFrameToScreen() {
    const QScreen* shown = screen();
    if (!shown || isMaximized() || isFullScreen())
        return;
    const QRect available = shown->availableGeometry();
    const QRect frame = frameGeometry();
    // Only a window manager's frame is corrected; without one (bare X) the size the window was
    // given is what it shows. The offscreen platform (tests, --screenshot without a display)
    // draws a pretend frame on a fixed 800x600 screen that windows are laid out beyond on purpose.
    if (available.contains(frame) || frame.size() == size() ||
        QGuiApplication::platformName() == QLatin1String("offscreen"))
        return;
    // The window manager's title bar and borders lie outside the client size: the client shrinks
    // by them, so that the frame, the status bar included, is on the screen.
    const QSize border = frame.size() - size();
    resize(QSize(std::min(width(), available.width() - border.width()),
                 std::min(height(), available.height() - border.height()))
               .expandedTo(minimumSizeHint()));
    move(std::clamp(frame.x(), available.left(),
                    std::max(available.left(), available.right() + 1 - frameGeometry().width())),
         std::clamp(frame.y(), available.top(),
                    std::max(available.top(), available.bottom() + 1 - frameGeometry().height())));
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (!m_frameFitted) {
        m_frameFitted = true;
        // Once the window manager has framed the window (its frame size is known only then),
        // and again a moment later for a slow one; a restored geometry is clamped the same way.
        QTimer::singleShot(0, this, &MainWindow::fitFrameToScreen);
        QTimer::singleShot(500, this, [this] {
            fitFrameToScreen();
            // A floating Insights view restored with the layout was mapped before the main window
            // and ended up behind it: bring it forward, as it was when the user quit.
            if (m_ui.insightsDock->isVisible() && m_ui.insightsDock->isFloating())
                m_ui.insightsDock->raise();
        });
    }
    // Docks take their sizes once the window has its own: the first time it is shown, unless
    // the user's saved arrangement was restored.
    if (!m_layoutSettled) {
        m_layoutSettled = true;
        fitPanesToWidth();
    }
}

void MainWindow::resetLayout() {
    for (QDockWidget* dock : {m_ui.treeDock, m_ui.summaryDock}) {
        dock->setFloating(false);
        dock->show();
    }
    addDockWidget(Qt::LeftDockWidgetArea, m_ui.treeDock);
    addDockWidget(Qt::BottomDockWidgetArea, m_ui.summaryDock);
    m_ui.consoleDock->setFloating(false);
    const bool consoleShown = m_ui.consoleDock->isVisible();
    addDockWidget(Qt::BottomDockWidgetArea, m_ui.consoleDock);
    placeConsole();
    if (consoleShown) {
        m_ui.consoleDock->show();
        m_ui.consoleDock->raise();
    }
    m_ui.board->setColumns(1);
    fitPanesToWidth();
}

void MainWindow::saveLayout(QSettings& settings) const {
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    // Quit with a chart maximised: the next window opens with everything, as it was before.
    settings.setValue(QStringLiteral("window/state"), m_beforeMaximise.value_or(saveState(kLayoutVersion)));
    settings.setValue(QStringLiteral("window/boardColumns"), m_ui.board->columns());
}

bool MainWindow::restoreLayout(QSettings& settings) {
    m_ui.board->setColumns(settings.value(QStringLiteral("window/boardColumns"), 1).toInt());
    const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
    const QByteArray state = settings.value(QStringLiteral("window/state")).toByteArray();
    if (geometry.isEmpty() || state.isEmpty())
        return false;
    m_layoutSettled = restoreGeometry(geometry) && restoreState(state, kLayoutVersion);
    return m_layoutSettled;
}

} // namespace radt
