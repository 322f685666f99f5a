// SPDX-License-Identifier: MIT
// Desktop conventions of the explorer, driven by real key presses on a shown window:
// Save writes back to the board's own file, Ctrl+F goes to the run filter, F1 lists the shortcuts
// read off the menus, file dialogs start where the user last went, and closing the window while a
// launched run is running asks first.

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/common/FileDialogs.h"
#include "widgets/launch/ConsolePane.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/BoardDocument.h"
#include "widgets/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScreen>
#include <QScrollBar>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <gtest/gtest.h>

using namespace radt;

namespace {

using test::menuAction;

struct ShownWindow {
    test::TempDir dir;
    test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), true);
    MainWindow window;
    ShownWindow() {
        QString error;
        EXPECT_TRUE(window.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
        window.resize(1024, 700);
        window.show();
        QApplication::setActiveWindow(&window);
        EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
    }
};

} // namespace

TEST(ExplorerConventions, CtrlSSavesABoardBackToItsFileAndCtrlFGoesToTheFilter) {
    ShownWindow w;
    EXPECT_EQ(menuAction(w.window, "Save Board")->shortcut(), QKeySequence(QKeySequence::Save));
    EXPECT_EQ(menuAction(w.window, "Save Board As")->shortcut(),
              QKeySequence(QStringLiteral("Ctrl+Shift+S")));

    // A board opened from a file: Ctrl+S writes it back there.
    const RunTreeModel& model = *test::partOf<RunTreePane>(w.window)->model();
    QModelIndex workload;
    for (int e = 0; e < model.rowCount(); ++e)
        for (int row = 0; row < model.rowCount(model.index(e, 0)); ++row)
            if (model.index(e, 0).data().toString() == "alpha" &&
                model.index(row, 0, model.index(e, 0)).data().toString() == "workload 1")
                workload = model.index(row, 0, model.index(e, 0));
    ASSERT_GT(w.window.addTreeIndexToBasket(workload), 0);
    ASSERT_TRUE(w.window.plotMetric("PROC - CPU Utilization"));
    ASSERT_TRUE(w.window.waitForLoads());
    const QString path = QString::fromStdString(w.dir.file("mine.radt.json"));
    w.window.document().saveBoard(path);
    ASSERT_TRUE(w.window.document().openBoard(path));
    test::writeFile(path.toStdString(), "stale");
    QTest::keyClick(&w.window, Qt::Key_S, Qt::ControlModifier);
    EXPECT_NE(test::readFile(path.toStdString()).find("\"PROC - CPU Utilization\""), std::string::npos)
        << "Ctrl+S wrote the board back to the file it came from";

    QTest::keyClick(&w.window, Qt::Key_F, Qt::ControlModifier);
    auto* filter = w.window.findChild<QLineEdit*>(QStringLiteral("runFilter"));
    ASSERT_NE(filter, nullptr);
    EXPECT_TRUE(filter->hasFocus()) << "Ctrl+F focuses the run filter";
}

TEST(ExplorerConventions, F1ListsEveryMenuShortcutAndAboutNamesVersionAndStore) {
    ShownWindow w;
    QString shortcuts;
    test::answerNextMessageBox(QMessageBox::Close, &shortcuts);
    QTest::keyClick(&w.window, Qt::Key_F1);
    for (const char* expected : {"Ctrl+S", "Save Board", "Ctrl+F", "Find Runs", "Ctrl+I", "Insights",
                                 "Ctrl+L", "Ctrl+Return", "Add Selected Runs", "F1"})
        EXPECT_TRUE(shortcuts.contains(QLatin1String(expected))) << expected << "\n"
                                                                 << shortcuts.toStdString();

    QString about;
    test::answerNextMessageBox(QMessageBox::Ok, &about);
    menuAction(w.window, "About radt-explorer")->trigger();
    EXPECT_TRUE(about.contains(QApplication::applicationVersion())) << about.toStdString();
    EXPECT_TRUE(about.contains(QLatin1String("store.db"))) << about.toStdString();
    EXPECT_TRUE(about.contains(QLatin1String(qVersion()))) << about.toStdString();
}

TEST(ExplorerConventions, FileDialogsStartWhereTheUserLastWentForTheSamePurpose) {
    test::TempDir dir;
    const QString boards = QString::fromStdString(dir.file("boards"));
    QDir().mkpath(boards);
    EXPECT_EQ(rememberedFolder(QStringLiteral("test-boards")), QString());
    rememberFolder(QStringLiteral("test-boards"), boards + "/x.radt.json");
    EXPECT_EQ(rememberedFolder(QStringLiteral("test-boards")), boards);
    EXPECT_EQ(rememberedFolder(QStringLiteral("test-exports")), QString()) << "per purpose";
    QDir(boards).removeRecursively();
    EXPECT_EQ(rememberedFolder(QStringLiteral("test-boards")), QString())
        << "a folder that is gone is forgotten";
}

TEST(ExplorerConventions, TheWindowFitsA1024By700Screen) {
    ShownWindow w;
    const QSize least = w.window.minimumSizeHint().expandedTo(w.window.minimumSize());
    EXPECT_LE(least.width(), 1024) << least.width() << "x" << least.height();
    EXPECT_LE(least.height(), 700) << least.width() << "x" << least.height();
    w.window.resize(1024, 700);
    EXPECT_EQ(w.window.size(), QSize(1024, 700));
    // A new window starts within the screen (the offscreen screen is 800x600).
    MainWindow fresh;
    const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
    EXPECT_LE(fresh.width(), std::max(screen.width(), least.width()));
    EXPECT_LE(fresh.height(), std::max(screen.height(), least.height()));
}

TEST(ExplorerConventions, ClearingTheFilterBringsBackTheTreeAsTheUserLeftIt) {
    // Regression: clearing the filter collapsed the whole tree.
    ShownWindow w;
    QTreeView* tree = test::partOf<RunTreePane>(w.window)->view();
    const QAbstractItemModel& shown = *tree->model();
    tree->collapseAll();
    QModelIndex alpha, beta;
    for (int e = 0; e < shown.rowCount(); ++e)
        (shown.index(e, 0).data().toString() == "alpha" ? alpha : beta) = shown.index(e, 0);
    tree->expand(alpha);
    auto* filter = w.window.findChild<QLineEdit*>(QStringLiteral("runFilter"));
    QTest::keyClicks(filter, "vgg");
    EXPECT_LT(shown.rowCount(), 3);
    filter->clear();
    for (int e = 0; e < shown.rowCount(); ++e) {
        const QModelIndex experiment = shown.index(e, 0);
        EXPECT_EQ(tree->isExpanded(experiment), experiment.data().toString() == "alpha")
            << experiment.data().toString().toStdString();
    }
}

TEST(ExplorerConventions, TheConsoleFollowsOutputAfterAResizeUnlessScrolledUp) {
    // Regression: the console stopped following the output after a resize.
    ConsolePane console;
    console.resize(600, 300);
    console.show();
    for (int i = 0; i < 200; ++i)
        console.appendOutput("A", false, QStringLiteral("epoch %1").arg(i));
    QScrollBar* bar = console.findChild<QPlainTextEdit*>()->verticalScrollBar();
    EXPECT_EQ(bar->value(), bar->maximum());
    console.resize(600, 120);
    QApplication::processEvents();
    console.appendOutput("A", false, "after the resize");
    EXPECT_EQ(bar->value(), bar->maximum()) << "still following";
    bar->setValue(10); // the user scrolls up to read
    console.appendOutput("A", false, "more");
    console.resize(600, 200);
    QApplication::processEvents();
    EXPECT_EQ(bar->value(), 10) << "left where the user is reading";
    bar->setValue(bar->maximum()); // back at the end: following again
    console.appendOutput("A", false, "last");
    EXPECT_EQ(bar->value(), bar->maximum());
}
