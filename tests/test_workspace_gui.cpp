// The explorer's workspace (issue 13) on a shown 1024x700 window: the board is a grid of 1-3
// columns where every chart is reachable and a new one is scrolled into view, the console opens
// tabbed with the summary instead of squeezing the charts, a narrow chart's options overflow into
// a menu while Reset and close stay visible, and the arrangement is kept across sessions.

#include "BoardPanel.h"
#include "ChartCard.h"
#include "ChartPanel.h"
#include "GuiTestSupport.h"
#include "MainWindow.h"
#include "TempDir.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

#include <gtest/gtest.h>

using namespace radt;

namespace {

struct Workspace {
    test::TempDir dir;
    test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), true);
    MainWindow window;
    explicit Workspace(QSize size = QSize(1024, 700)) {
        QString error;
        EXPECT_TRUE(window.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
        window.resize(size);
        window.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.addRunsToBasket({QString::fromStdString(sample.runs.at("alpha/1/a")),
                                QString::fromStdString(sample.runs.at("alpha/1/b"))});
        window.waitForLoads();
    }
    BoardPanel* board() { return window.board(); }
    /// The card's rectangle in the board's scroll viewport.
    QRect inViewport(ChartCard* card) {
        QWidget* viewport = board()->scrollArea()->viewport();
        return QRect(card->mapTo(viewport, QPoint(0, 0)), card->size());
    }
    void settle() {
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents();
    }
};

} // namespace

TEST(Workspace, TheBoardIsAGridWhereANewChartIsScrolledIntoView) {
    Workspace w;
    BoardPanel* board = w.board();
    board->setColumns(2);
    for (int i = 0; i < 4; ++i)
        board->addChart();
    w.settle();
    ASSERT_EQ(board->chartCount(), 5);
    ChartCard* first = board->chartAt(0);
    ChartCard* second = board->chartAt(1);
    ChartCard* third = board->chartAt(2);
    EXPECT_EQ(first->geometry().top(), second->geometry().top()) << "two charts side by side";
    EXPECT_LT(first->geometry().right(), second->geometry().left());
    EXPECT_GT(third->geometry().top(), first->geometry().bottom()) << "the third starts a new row";
    for (int i = 0; i < board->chartCount(); ++i)
        EXPECT_GE(board->chartAt(i)->height(), BoardPanel::kMinimumChartHeight) << "chart " << i;
    ChartCard* last = board->chartAt(4);
    const QRect viewport = board->scrollArea()->viewport()->rect();
    EXPECT_TRUE(viewport.intersects(w.inViewport(last))) << "the new chart is in view";
    EXPECT_GT(board->scrollArea()->verticalScrollBar()->value(), 0) << "the board scrolled to it";
    EXPECT_FALSE(viewport.intersects(w.inViewport(first))) << "five charts do not fit: the board scrolls";

    board->setColumns(3); // also from View > Board Columns and the board's own box
    w.settle();
    EXPECT_EQ(board->columnsBox()->currentText(), "3 columns");
    EXPECT_EQ(board->chartAt(2)->geometry().top(), first->geometry().top());
    EXPECT_LE(board->chartAt(2)->geometry().right(), board->scrollArea()->viewport()->width())
        << "three columns fit the 1024 px window's board without a horizontal scroll";
    test::menuAction(w.window, "1 Column")->trigger();
    EXPECT_EQ(board->columns(), 1);
}

TEST(Workspace, TheConsoleOpensTabbedWithTheSummaryAndTheChartsKeepTheirHeight) {
    Workspace w;
    w.settle();
    ChartCard* card = w.board()->chartAt(0);
    const int boardHeight = w.board()->height();
    const int chartHeight = card->height();
    ASSERT_FALSE(w.window.consoleDock()->isVisible());
    w.window.consoleDock()->show();
    w.window.consoleDock()->raise();
    w.settle();
    EXPECT_TRUE(w.window.consoleDock()->isVisible());
    EXPECT_EQ(w.window.tabifiedDockWidgets(w.window.consoleDock()),
              QList<QDockWidget*>{w.window.summaryDock()});
    EXPECT_GE(w.board()->height(), boardHeight - 40) << "the console took no height, only a tab bar's";
    EXPECT_EQ(card->height(), chartHeight) << "the chart keeps its height";
}

TEST(Workspace, ANarrowChartsOptionsOverflowIntoAMenuAndResetAndCloseStayVisible) {
    Workspace w;
    BoardPanel* board = w.board();
    board->addChart();
    board->addChart();
    board->setColumns(3);
    w.settle();
    ChartCard* card = board->chartAt(2);
    auto* extension = card->optionsBar()->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
    ASSERT_NE(extension, nullptr);
    EXPECT_TRUE(extension->isVisible()) << "the options that do not fit are behind the » button";
    for (QWidget* button :
         {static_cast<QWidget*>(card->resetZoomButton()), static_cast<QWidget*>(card->removeButton())}) {
        EXPECT_TRUE(button->isVisible());
        EXPECT_TRUE(card->rect().contains(QRect(button->mapTo(card, QPoint(0, 0)), button->size())))
            << "inside the card, not cut off";
    }
    board->setColumns(1);
    w.window.resize(1280, 800);
    w.settle();
    EXPECT_FALSE(extension->isVisible())
        << "a full-width chart shows every option: " << card->optionsBar()->width() << " px for "
        << card->optionsBar()->sizeHint().width();
}

TEST(Workspace, TheArrangementIsKeptForTheNextSession) {
    test::TempDir settingsDir;
    QSettings settings(QString::fromStdString(settingsDir.file("layout.ini")), QSettings::IniFormat);
    {
        Workspace w;
        w.board()->setColumns(2);
        w.window.summaryDock()->hide();
        w.window.saveLayout(settings);
    }
    Workspace next;
    EXPECT_TRUE(next.window.restoreLayout(settings));
    next.settle();
    EXPECT_EQ(next.board()->columns(), 2);
    EXPECT_FALSE(next.window.summaryDock()->isVisible());
    test::menuAction(next.window, "Reset Layout")->trigger();
    next.settle();
    EXPECT_TRUE(next.window.summaryDock()->isVisible());
    EXPECT_EQ(next.board()->columns(), 1);
}
