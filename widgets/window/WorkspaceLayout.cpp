// SPDX-License-Identifier: MIT
#include "widgets/window/WorkspaceLayout.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/compare/ComparePanel.h"
#include "widgets/details/RunDetailsPanel.h"
#include "widgets/insights/InsightsPanel.h"
#include "widgets/launch/ConsolePane.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/runs/RunsTablePane.h"

#include "widgets/chart/SummaryPanel.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QDropEvent>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <memory>

namespace radt {

namespace {
// Bumped when the docks change, so an arrangement saved by an older version is not applied.
constexpr int kLayoutVersion = 4;
} // namespace

WorkspaceLayout::WorkspaceLayout(QMainWindow& window, WindowParts& parts) : m_window(window), m_ui(parts) {
    auto* top = new QSplitter(Qt::Horizontal, &m_window);
    top->addWidget(m_ui.basketPanel);
    top->addWidget(m_ui.metrics);
    top->setChildrenCollapsible(false);
    top->setSizes({420, 380});
    auto* central = new QSplitter(Qt::Vertical, &m_window);
    central->setObjectName(QStringLiteral("centralSplitter"));
    central->addWidget(top);
    central->addWidget(m_ui.board);
    central->setStretchFactor(0, 0);
    central->setStretchFactor(1, 1);
    central->setChildrenCollapsible(false);
    central->setSizes({220, 640});
    m_window.setCentralWidget(central);

    m_window.setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks |
                            QMainWindow::AllowNestedDocks);
    // The left column is the tree's from top to bottom; the bottom docks sit under the charts.
    m_window.setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    m_ui.docks.tree = new QDockWidget(QMainWindow::tr("Experiments"), &m_window);
    m_ui.docks.tree->setObjectName(QStringLiteral("experiments"));
    m_ui.docks.tree->setWidget(m_ui.tree);
    m_window.addDockWidget(Qt::LeftDockWidgetArea, m_ui.docks.tree);
    m_ui.docks.summary = new QDockWidget(QMainWindow::tr("Summary"), &m_window);
    m_ui.docks.summary->setObjectName(QStringLiteral("summary"));
    m_ui.docks.summary->setWidget(m_ui.summary);
    m_window.addDockWidget(Qt::BottomDockWidgetArea, m_ui.docks.summary);
    m_ui.basketPanel->view()->setAcceptDrops(true);
    m_ui.basketPanel->view()->viewport()->setAcceptDrops(true);
    // The console, tabbed with the summary; Insights floating.
    m_ui.docks.console = new QDockWidget(QMainWindow::tr("Console"), &m_window);
    m_ui.docks.console->setObjectName(QStringLiteral("console"));
    m_ui.docks.console->setWidget(m_ui.console);
    m_window.addDockWidget(Qt::BottomDockWidgetArea, m_ui.docks.console);
    m_ui.docks.console->hide();
    // Insights: the basket's runs as answers (energy, efficiency, collocation), on demand.
    m_ui.docks.insights = new QDockWidget(QMainWindow::tr("Insights"), &m_window);
    m_ui.docks.insights->setObjectName(QStringLiteral("insights"));
    m_ui.docks.insights->setWidget(m_ui.insights);
    m_window.addDockWidget(Qt::BottomDockWidgetArea, m_ui.docks.insights);
    // Floating before it is first shown: shown docked for a moment, its width became the main
    // window's minimum and a 1024 px screen got a 1176 px window. Hidden first: setFloating()
    // shows a dock that is not explicitly hidden, and that started a report in the constructor.
    m_ui.docks.insights->hide();
    m_ui.docks.insights->setFloating(true);
    // First shown floating over the lower part of the window: docked, it would take the charts'
    // height. It can be docked at the bottom by the user (and stays so).
    QObject::connect(m_ui.docks.insights, &QDockWidget::visibilityChanged, &m_connections,
                     [this](bool visible) {
                         if (visible && !m_insightsSized) {
                             m_insightsSized = true;
                             // 70 % of the height: at 1024x700 half of it (340 px) left the chart a strip
                             // under the table and the configurations' footer.
                             placeFloating(m_ui.docks.insights, {1100, 0.7, 600});
                         }
                     });
    // Parallel coordinates: floating over the window when first shown, as Insights is; hidden
    // until Basket > Parallel Coordinates (it reads the basket only while shown).
    m_ui.docks.parallel =
        addFloatingDock(QMainWindow::tr("Parallel Coordinates"), "parallel", m_ui.parallel, {1200, 0.8, 640});
    // Run Details: right of the tree (it follows the tree's current run), most of the window's
    // height (a log is read there), hidden until a run's details are asked for.
    m_ui.details = new RunDetailsPanel(&m_window);
    m_ui.docks.details =
        addFloatingDock(QMainWindow::tr("Run Details"), "details", m_ui.details, {1100, 0.85, 680, true});
    // The runs table: floating like Insights, hidden until View > Runs Table (it reads only while shown).
    m_ui.runsTable = new RunsTablePane(&m_window);
    m_ui.docks.runsTable =
        addFloatingDock(QMainWindow::tr("Runs Table"), "runsTable", m_ui.runsTable, {1200, 0.8, 640});
    placeConsole();
}

void WorkspaceLayout::placeFloating(QDockWidget* dock, const FloatingSize& size) {
    dock->setFloating(true);
    // Within what the screen shows of the window (a small screen crops a large window).
    QRect frame = m_window.geometry();
    if (QScreen* shown = m_window.screen())
        frame = frame.intersected(shown->availableGeometry());
    int left = frame.x() + 20;
    if (size.besideTree && m_ui.docks.tree->isVisible() && !m_ui.docks.tree->isFloating())
        left = std::max(left, m_ui.docks.tree->mapToGlobal(QPoint(m_ui.docks.tree->width(), 0)).x() + 4);
    const int w = std::min(frame.right() - 20 - left, size.widthCap);
    const int h = std::min(static_cast<int>(frame.height() * size.heightShare), size.heightCap);
    dock->setGeometry(size.besideTree ? left : frame.x() + (frame.width() - w) / 2, frame.bottom() - h - 20,
                      w, h);
}

QDockWidget* WorkspaceLayout::addFloatingDock(const QString& title, const char* name, QWidget* widget,
                                              const FloatingSize& size) {
    auto* dock = new QDockWidget(title, &m_window);
    dock->setObjectName(QString::fromLatin1(name));
    dock->setWidget(widget);
    m_window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    dock->setFloating(true);
    auto sized = std::make_shared<bool>(false);
    QObject::connect(dock, &QDockWidget::visibilityChanged, &m_connections,
                     [this, dock, sized, size](bool visible) {
                         if (!visible || *sized)
                             return;
                         *sized = true;
                         placeFloating(dock, size);
                     });
    return dock;
}

void WorkspaceLayout::placeConsole() {
    // Tabbed with the summary: showing the console raises its tab, the charts keep their height.
    m_window.tabifyDockWidget(m_ui.docks.summary, m_ui.docks.console);
    m_ui.docks.console->hide();
    m_ui.docks.summary->raise();
}

void WorkspaceLayout::arrangeForScreenshot(const QSize& size) {
    m_ui.tree->expandAll();
    m_window.resize(size);
    fitPanesToWidth();
}

void WorkspaceLayout::fitPanesToWidth() {
    // The tree gets under a third of the width (260..480 px): the charts are what is compared.
    m_window.resizeDocks({m_ui.docks.tree}, {std::clamp(m_window.width() * 3 / 10, 260, 480)},
                         Qt::Horizontal);
    // The summary three rows high (a 500-run summary showed one), the basket and metric list a
    // few, then the board: it is what is read, and keeps a chart's minimum height.
    m_window.resizeDocks({m_ui.docks.summary}, {m_ui.summary->heightForRows(3) + summaryTitleHeight()},
                         Qt::Vertical);
    QTimer::singleShot(0, &m_connections, [this] { keepChartsTheirHeight(); });
    if (auto* central = qobject_cast<QSplitter*>(m_window.centralWidget())) {
        const int total = std::max(central->height(), m_window.height() - 200);
        const int top = std::clamp(total * 2 / 9, 130, 220);
        central->setSizes({top, total - top});
    }
}

int WorkspaceLayout::summaryTitleHeight() const {
    const int margin = m_ui.docks.summary->style()->pixelMetric(QStyle::PM_DockWidgetTitleMargin, nullptr,
                                                                m_ui.docks.summary);
    return m_ui.docks.summary->fontMetrics().height() + 2 * margin + 6;
}

void WorkspaceLayout::keepChartsTheirHeight() {
    if (!m_ui.docks.summary->isVisible() || m_ui.docks.summary->isFloating())
        return;
    // The board's visible height, not a card's: on a board of several rows each card keeps its
    // minimum and the board scrolls instead.
    const int lacking = BoardPanel::kMinimumChartHeight - m_ui.board->scrollArea()->viewport()->height();
    if (lacking <= 0)
        return;
    const int oneRow = m_ui.summary->heightForRows(1) + summaryTitleHeight();
    m_window.resizeDocks({m_ui.docks.summary}, {std::max(oneRow, m_ui.docks.summary->height() - lacking)},
                         Qt::Vertical);
}

void WorkspaceLayout::toggleMaximisedChart() {
    QWidget* top = static_cast<QSplitter*>(m_window.centralWidget())->widget(0); // basket and metric list
    if (m_beforeMaximise) {
        m_window.restoreState(*m_beforeMaximise, kLayoutVersion);
        m_beforeMaximise.reset();
        top->show();
        m_ui.board->showOnly(nullptr);
        m_window.statusBar()->clearMessage();
        return;
    }
    m_beforeMaximise = m_window.saveState(kLayoutVersion);
    for (QDockWidget* dock : {m_ui.docks.tree, m_ui.docks.summary, m_ui.docks.console})
        dock->hide();
    top->hide();
    m_ui.board->showOnly(m_ui.board->current());
    m_window.statusBar()->showMessage(QMainWindow::tr(
        "One chart fills the window: double-click it or Ctrl+Shift+M to bring everything back"));
}

void WorkspaceLayout::fitFrameToScreen() {
    const QScreen* shown = m_window.screen();
    if (!shown || m_window.isMaximized() || m_window.isFullScreen())
        return;
    const QRect available = shown->availableGeometry();
    const QRect frame = m_window.frameGeometry();
    // Only a window manager's frame is corrected; without one (bare X) the size the window was
    // given is what it shows. The offscreen platform (tests, --screenshot without a display)
    // draws a pretend frame on a fixed 800x600 screen that windows are laid out beyond on purpose.
    if (available.contains(frame) || frame.size() == m_window.size() ||
        QGuiApplication::platformName() == QLatin1String("offscreen"))
        return;
    // The window manager's title bar and borders lie outside the client size: the client shrinks
    // by them, so that the frame, the status bar included, is on the screen.
    const QSize border = frame.size() - m_window.size();
    m_window.resize(QSize(std::min(m_window.width(), available.width() - border.width()),
                          std::min(m_window.height(), available.height() - border.height()))
                        .expandedTo(m_window.minimumSizeHint()));
    m_window.move(
        std::clamp(frame.x(), available.left(),
                   std::max(available.left(), available.right() + 1 - m_window.frameGeometry().width())),
        std::clamp(frame.y(), available.top(),
                   std::max(available.top(), available.bottom() + 1 - m_window.frameGeometry().height())));
    // The frame's height came off the board: the summary gives it back if a chart lacks it.
    QTimer::singleShot(0, &m_connections, [this] { keepChartsTheirHeight(); });
}

void WorkspaceLayout::shown() {
    if (!m_frameFitted) {
        m_frameFitted = true;
        // Once the window manager has framed the window (its frame size is known only then),
        // and again a moment later for a slow one; a restored geometry is clamped the same way.
        QTimer::singleShot(0, &m_connections, [this] { fitFrameToScreen(); });
        QTimer::singleShot(500, &m_connections, [this] {
            fitFrameToScreen();
            // A floating Insights view restored with the layout was mapped before the main window
            // and ended up behind it: bring it forward, as it was when the user quit.
            if (m_ui.docks.insights->isVisible() && m_ui.docks.insights->isFloating())
                m_ui.docks.insights->raise();
        });
    }
    // Docks take their sizes once the window has its own: the first time it is shown, unless
    // the user's saved arrangement was restored.
    if (!m_settled) {
        m_settled = true;
        fitPanesToWidth();
    }
}

void WorkspaceLayout::reset() {
    for (QDockWidget* dock : {m_ui.docks.tree, m_ui.docks.summary}) {
        dock->setFloating(false);
        dock->show();
    }
    m_window.addDockWidget(Qt::LeftDockWidgetArea, m_ui.docks.tree);
    m_window.addDockWidget(Qt::BottomDockWidgetArea, m_ui.docks.summary);
    m_ui.docks.console->setFloating(false);
    const bool consoleShown = m_ui.docks.console->isVisible();
    m_window.addDockWidget(Qt::BottomDockWidgetArea, m_ui.docks.console);
    placeConsole();
    if (consoleShown) {
        m_ui.docks.console->show();
        m_ui.docks.console->raise();
    }
    m_ui.board->setColumns(1);
    fitPanesToWidth();
}

void WorkspaceLayout::save(QSettings& settings) const {
    settings.setValue(QStringLiteral("window/geometry"), m_window.saveGeometry());
    // Quit with a chart maximised: the next window opens with everything, as it was before.
    settings.setValue(QStringLiteral("window/state"),
                      m_beforeMaximise.value_or(m_window.saveState(kLayoutVersion)));
    settings.setValue(QStringLiteral("window/boardColumns"), m_ui.board->columns());
}

bool WorkspaceLayout::restore(QSettings& settings) {
    m_ui.board->setColumns(settings.value(QStringLiteral("window/boardColumns"), 1).toInt());
    const QByteArray geometry = settings.value(QStringLiteral("window/geometry")).toByteArray();
    const QByteArray state = settings.value(QStringLiteral("window/state")).toByteArray();
    if (geometry.isEmpty() || state.isEmpty())
        return false;
    m_settled = m_window.restoreGeometry(geometry) && m_window.restoreState(state, kLayoutVersion);
    return m_settled;
}

} // namespace radt
