// The Help menu (keyboard shortcuts read off the menus themselves, so the list never goes stale;
// About with the version, the store and the libraries) and the question asked before quitting
// while a launched run is still running.

#include "LaunchController.h"
#include "MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

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

} // namespace

void MainWindow::createHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About radt-explorer"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::showShortcuts() {
    QStringList rows;
    for (const QAction* action : menuBar()->actions())
        if (action->menu())
            collectShortcuts(action->menu(), plainText(action), rows);
    // Keys that belong to a widget rather than a menu.
    rows << tr("<tr><td><b>Drag</b></td><td>in a chart: zoom into that time range; in the overview "
               "strip: zoom, click to move, double-click to show everything</td></tr>")
         << tr("<tr><td><b>Click</b></td><td>a legend entry: hide or show that series</td></tr>")
         << tr("<tr><td><b>Double-click</b></td><td>a run or workload in the tree: add it to the "
               "basket</td></tr>");
    m_shortcutsText =
        QStringLiteral("<table cellspacing='6'>") + rows.join(QString()) + QStringLiteral("</table>");
    QMessageBox box(QMessageBox::NoIcon, tr("Keyboard Shortcuts"), m_shortcutsText, QMessageBox::Close, this);
    box.setTextFormat(Qt::RichText);
    box.exec();
}

void MainWindow::showAbout() {
    const QString store = hasStore() ? storeDisplayUri().toHtmlEscaped() : tr("none open"); // password masked
    QMessageBox::about(
        this, tr("About radt-explorer"),
        tr("<h3>radt-explorer %1</h3>"
           "<p>Explore, compare and share the hardware and software metrics of deep-learning runs "
           "recorded by radt, radT or MLflow.</p>"
           "<p>Store: %2%3</p>"
           "<p>Qt %4 (built with %5), SQLite %6</p>")
            .arg(QApplication::applicationVersion(), store,
                 m_ui.session->readOnly() ? tr(" (read-only)") : QString(), QString::fromLatin1(qVersion()),
                 QStringLiteral(QT_VERSION_STR), QString::fromLatin1(sqlite3_libversion())));
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

} // namespace radt
