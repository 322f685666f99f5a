// SPDX-License-Identifier: MIT
// The window's menu bar, built in one place: File (stores, the board, exports), Run, Basket, View
// and Help. Each action calls what the window or one of its parts already does; the keyboard
// shortcuts list is read off these menus, so it never goes stale.

#include "core/store/StoreUri.h"
#include "widgets/board/BoardExport.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/common/FileDialogs.h"
#include "widgets/launch/LaunchController.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/BoardDocument.h"
#include "widgets/window/LiveRuns.h"
#include "widgets/window/MainWindow.h"

#include "widgets/window/RunCuration.h"
#include "widgets/window/StoreSession.h"
#include "widgets/window/WorkspaceLayout.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>

#include <sqlite3.h>

namespace radt {

namespace {

// "&Save Board..." -> "Save Board"
QString plainText(const QAction* action) {
    QString text = action->text();
    text.remove(QLatin1Char('&'));
    while (text.endsWith(QLatin1Char('.')) || text.endsWith(QChar(0x2026)))
        text.chop(1);
    return text;
}

void collectShortcuts(const QMenu* menu, const QString& path, QStringList& rows) {
    for (const QAction* action : menu->actions()) {
        if (action->menu()) {
            collectShortcuts(action->menu(), path + QStringLiteral(" > ") + plainText(action), rows);
            continue;
        }
        if (action->isSeparator() || action->shortcut().isEmpty())
            continue;
        rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2 &gt; %3</td></tr>")
                    .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                         path.toHtmlEscaped(), plainText(action).toHtmlEscaped());
    }
}

/// Help > Keyboard Shortcuts: every menu's shortcut, then the keys of the widgets.
void showShortcuts(QMainWindow* window) {
    QStringList rows;
    for (const QAction* action : window->menuBar()->actions())
        if (action->menu())
            collectShortcuts(action->menu(), plainText(action), rows);
    rows << MainWindow::tr(
                "<tr><td><b>Drag</b></td><td>in a chart: zoom into that time range; in the overview "
                "strip: zoom, click to move, double-click to show everything</td></tr>")
         << MainWindow::tr("<tr><td><b>Click</b></td><td>a legend entry: hide or show that series</td></tr>")
         << MainWindow::tr("<tr><td><b>Double-click</b></td><td>a run or workload in the tree: add it to the "
                           "basket</td></tr>")
         << MainWindow::tr(
                "<tr><td><b>Enter</b></td><td>a run in the tree or the basket: its details</td></tr>")
         << MainWindow::tr("<tr><td><b>Ctrl+F, F3, Shift+F3</b></td><td>in an artifact shown in Run Details: "
                           "find in it, the next match, the previous one</td></tr>");
    const QString text =
        QStringLiteral("<table cellspacing='6'>") + rows.join(QString()) + QStringLiteral("</table>");
    QMessageBox box(QMessageBox::NoIcon, MainWindow::tr("Keyboard Shortcuts"), text, QMessageBox::Close,
                    window);
    box.setTextFormat(Qt::RichText);
    box.exec();
}

/// Help > About: the version, the store (password masked) and the libraries.
void showAbout(MainWindow* window, const StoreSession* session) {
    const QString store =
        session->isOpen() ? session->displayUri().toHtmlEscaped() : MainWindow::tr("none open");
    QMessageBox::about(
        window, MainWindow::tr("About radt-explorer"),
        MainWindow::tr(
            "<h3>radt-explorer %1</h3>"
            "<p>Explore, compare and share the hardware and software metrics of deep-learning runs "
            "recorded by radt, radT or MLflow.</p>"
            "<p>Store: %2%3</p>"
            "<p>Qt %4 (built with %5), SQLite %6</p>")
            .arg(QApplication::applicationVersion(), store,
                 session->readOnly() ? MainWindow::tr(" (read-only)") : QString(),
                 QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
                 QString::fromLatin1(sqlite3_libversion())));
}

void openStoreFile(MainWindow* window) {
    const QString path =
        openFileName(window, QStringLiteral("stores"), MainWindow::tr("Open Store File"),
                     MainWindow::tr("MLflow / radt stores (*.db *.sqlite *.sqlite3);;All files (*)"));
    if (!path.isEmpty())
        window->openStoreInteractive(QStringLiteral("sqlite:///") + QFileInfo(path).absoluteFilePath());
}

void openStoreUri(MainWindow* window) {
    bool ok = false;
    const QString uri = QInputDialog::getText(
        window, MainWindow::tr("Open Store URI"),
        MainWindow::tr("Tracking store URI (sqlite:///relative.db, sqlite:////absolute/path.db,\n"
                       "postgresql://user@host:port/dbname; passwords come from PGPASSWORD or ~/.pgpass):"),
        QLineEdit::Normal, QString(), &ok);
    if (ok && !uri.trimmed().isEmpty())
        window->openStoreInteractive(uri.trimmed());
}

/// A floating view asked for from a menu: always ends shown, on top and focused (a dock's own
/// toggle hid a floating one that was restored behind the window).
void bringUp(QDockWidget* dock) {
    dock->show();
    dock->raise();
    if (dock->isFloating())
        dock->activateWindow();
}

/// View > Board Columns: 1 to 3, the current count checked.
void addColumnsMenu(QMenu* view, BoardPanel* board) {
    QMenu* columns = view->addMenu(MainWindow::tr("Board &Columns"));
    auto* group = new QActionGroup(columns);
    for (int n = 1; n <= 3; ++n) {
        QAction* action =
            columns->addAction(n == 1 ? MainWindow::tr("&1 Column") : MainWindow::tr("&%1 Columns").arg(n));
        action->setCheckable(true);
        action->setActionGroup(group);
        action->setShortcut(QKeySequence(MainWindow::tr("Ctrl+Alt+%1").arg(n)));
        QObject::connect(action, &QAction::triggered, board, [board, n] { board->setColumns(n); });
    }
    QObject::connect(columns, &QMenu::aboutToShow, board, [columns, board] {
        for (int i = 0; i < columns->actions().size(); ++i)
            columns->actions()[i]->setChecked(i + 1 == board->columns());
    });
}

} // namespace

void MainWindow::createMenus() {
    createFileMenu();

    // --- Run: launching here, and finding runs in the tree.
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Launch…"), m_live, &LiveRuns::showLaunchDialog)
        ->setShortcut(QKeySequence(tr("Ctrl+L")));
    run->addAction(tr("&Stop"), m_ui.launcher, &LaunchController::stop);
    run->addAction(m_ui.docks.console->toggleViewAction());
    run->addSeparator();
    run->addAction(tr("&Find Runs"), m_ui.tree, &RunTreePane::focusFilter)->setShortcut(QKeySequence::Find);
    // A run's care: what MLflow's client writes, undone by Ctrl+Z (RunCuration).
    run->addSeparator();
    run->addActions(m_curation->runActions());
    run->addSeparator();
    run->addActions(m_curation->experimentActions());
    run->addAction(m_curation->showDeletedAction());
    run->addSeparator();
    run->addAction(m_curation->undoAction());
    run->addAction(m_curation->redoAction());

    // --- Basket: what is compared, and the answers about it.
    QMenu* basket = menuBar()->addMenu(tr("&Basket"));
    basket
        ->addAction(tr("&Add Selected Runs"), this,
                    [this] { addRunsToBasket(m_ui.tree->selectedRunUuids()); })
        ->setShortcut(QKeySequence(tr("Ctrl+Return")));
    basket->addAction(tr("Add &Latest Workload"), this, [this] { addLatestWorkloadToBasket(); })
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+L")));
    basket->addAction(tr("&Remove Selected"), m_ui.basketPanel, &BasketPanel::removeSelected)
        ->setShortcut(QKeySequence(tr("Ctrl+Backspace")));
    basket->addAction(tr("&Clear All"), this, &MainWindow::clearBasket)
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+Backspace")));
    basket->addSeparator();
    basket->addAction(tr("C&ompare Runs"), this, &MainWindow::showCompare)
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    // Not the dock's toggle: a floating Insights window restored behind the main window counted
    // as shown, so the first Ctrl+I hid it. Ctrl+I always ends with it on top and focused; its
    // close button hides it.
    QAction* insights = basket->addAction(tr("&Insights"), this, &MainWindow::showInsights);
    insights->setShortcut(QKeySequence(tr("Ctrl+I")));
    insights->setStatusTip(
        tr("Energy, energy per epoch, CO2e, utilisation, collocation and slowdown of the basket's runs"));
    // Like Insights: always ends shown, on top and focused.
    QAction* parallel =
        basket->addAction(tr("&Parallel Coordinates"), this, [this] { bringUp(m_ui.docks.parallel); });
    parallel->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
    parallel->setStatusTip(tr("The basket's runs on an axis per param and figure, brushed by dragging; a "
                              "scatter of any two"));

    // --- View: the docks, and the board's room.
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_ui.docks.tree->toggleViewAction());
    view->addAction(m_ui.docks.summary->toggleViewAction());
    view->addAction(m_ui.docks.console->toggleViewAction());
    // Shown with the tree's current run when it has none yet (RunDetailsController).
    QAction* details = view->addAction(tr("Run &Details"), this, [this] { bringUp(m_ui.docks.details); });
    details->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
    details->setStatusTip(
        tr("A run's status, times, host, command, params, tags, latest metrics and artifacts "
           "(Enter on a run, or Details in its menu); it follows the current run"));
    QAction* table = view->addAction(tr("Runs &Table"), this, [this] { bringUp(m_ui.docks.runsTable); });
    table->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
    table->setStatusTip(
        tr("Every run of the store in a sortable table, a column per param, tag and metric, "
           "found by MLflow's search syntax (params.batch_size = '64' and metrics.loss < 0.5)"));
    view->addSeparator();
    // The board is the point of the window: one chart can have all of it, and give it back.
    QAction* maximise =
        view->addAction(tr("&Maximise Chart"), this, [this] { m_layout->toggleMaximisedChart(); });
    maximise->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    maximise->setStatusTip(tr("The current chart alone fills the window (or double-click a chart); again to "
                              "bring everything back"));
    addColumnsMenu(view, m_ui.board);
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), this, [this] { m_layout->reset(); });

    // --- Help.
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcuts(this); })
        ->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About radt-explorer"), this, [this] { showAbout(this, m_ui.session); });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createFileMenu() {
    // --- File: stores, then the board, then quitting.
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Open Store &File..."), this, [this] { openStoreFile(this); })
        ->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open Store &URI..."), this, [this] { openStoreUri(this); })
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    QMenu* recent = file->addMenu(tr("&Recent Stores"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        recent->clear();
        const QStringList entries = m_recent.entries();
        for (const QString& uri : entries)
            recent->addAction(QString::fromStdString(maskPassword(uri.toStdString())), this,
                              [this, uri] { openStoreInteractive(uri); });
        if (entries.isEmpty()) {
            recent->addAction(tr("(none)"))->setEnabled(false);
            return;
        }
        recent->addSeparator();
        recent->addAction(tr("Clear Recent Stores"), this, [this] { m_recent.clear(); });
    });
    file->addSeparator();
    file->addAction(tr("&Reload"), this, &MainWindow::reload)->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    file->addAction(tr("Open &Board..."), this,
                    [this] {
                        const QString path = openFileName(this, QStringLiteral("boards"), tr("Open a board"),
                                                          tr("Boards (*.json);;All files (*)"));
                        if (!path.isEmpty())
                            m_document->openBoardInteractive(path);
                    })
        ->setShortcut(QKeySequence(tr("Ctrl+B")));
    // Save writes back to the board file the charts came from (or were last saved to); the
    // first save of a new board asks where, as Save As always does.
    file->addAction(tr("&Save Board"), this, [this] { m_document->save(); })->setShortcut(QKeySequence::Save);
    file->addAction(tr("Save Board &As..."), m_document, &BoardDocument::saveAs)
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
    QAction* restore = file->addAction(tr("Restore Last Session at Start"));
    restore->setCheckable(true);
    {
        QSettings settings;
        restore->setChecked(BoardDocument::sessionRestoreEnabled(settings));
    }
    connect(restore, &QAction::toggled, this,
            [](bool on) { QSettings().setValue(QStringLiteral("session/restore"), on); });
    QMenu* exports = file->addMenu(tr("&Export"));
    for (const ExportFormat& format : exportFormats())
        exports->addAction(format.menuLabel, this,
                           [this, extension = format.extension] { m_document->exportChart(extension); });
    exports->addSeparator();
    exports->addAction(tr("&Board as PDF..."), m_document, &BoardDocument::exportBoardPdf);
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);
}

} // namespace radt
