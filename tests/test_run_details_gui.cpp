// SPDX-License-Identifier: MIT
// Run Details in the window over a real recorded run: radt records a Python
// workload into a SQLite store, the explorer opens it, Enter on the run in the tree shows its page
// (status, host, command line, devices, params and tags copied with Ctrl+C, the latest metrics),
// its output.log opens in the paged viewer and a search finds a line; a binary artifact is offered
// to the desktop, not shown as text; unreachable artifacts are said; the dock follows the current
// run of the tree and the basket.

#include "GuiTestSupport.h"
#include "RadtProcess.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/artifacts/ArtifactListing.h"
#include "core/artifacts/TextPager.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/ChartPlotItem.h"
#include "widgets/common/FileReadPool.h"
#include "widgets/details/ArtifactsPane.h"
#include "widgets/details/KeyValueTable.h"
#include "widgets/details/RunDetailsPanel.h"
#include "widgets/details/TextArtifactViewer.h"
#include "widgets/details/TextPageView.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/RunDetailsController.h"

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDesktopServices>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSysInfo>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>
#include <QThreadPool>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <QUrl>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>

using namespace radt;
using radt::test::TempDir;
namespace fs = std::filesystem;

namespace {

// 3,000 lines of output, one of them the line a person would look for; a metric; a binary artifact.
const char* kWorkload = R"PY(import os, radt, sys
profile = os.path.join(os.path.dirname(os.path.abspath(__file__)), "profile.bin")  # the test's folder
with open(profile, "wb") as f:
    f.write(bytes(range(256)) * 16)
with radt.run.RADTBenchmark() as run:
    for i in range(3000):
        if i == 2000:
            print("step 2000: loss diverged, lowering the learning rate")
        else:
            print("step %d: loss %.4f" % (i, 1.0 / (i + 1)))
    run.log_metric("loss", 0.25, 7)
    run.log_artifact(profile)
)PY";

/// Records one run of kWorkload with radt into `uri`; the run as the store holds it.
Run recordRun(const TempDir& dir, const std::string& uri) {
    test::writeFile(dir.file("train.py"), kWorkload);
    test::Radt radt =
        test::startRadt(dir, {"--store", uri, "-e", "details", "-l", "top", dir.file("train.py")},
                        {{"RADT_ENV_CAPTURE_TIMEOUT", "20"}});
    EXPECT_EQ(radt.wait(), 0) << radt.err();
    auto store = openStore(uri, OpenMode::OpenExisting);
    const std::vector<Run> runs = store->runs();
    EXPECT_EQ(runs.size(), 1u);
    return runs.empty() ? Run{} : runs.front();
}

QModelIndex treeIndexOf(RunTreePane& tree, const std::string& uuid) {
    return static_cast<QSortFilterProxyModel*>(tree.view()->model())
        ->mapFromSource(tree.model()->indexOfRun(QString::fromStdString(uuid)));
}

} // namespace

TEST(RunDetailsGui, RecordedRunShowsItsFieldsAndItsOutputLogIsSearched) {
    TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    const radt::Run recorded = recordRun(dir, uri);
    ASSERT_FALSE(recorded.uuid.empty());
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri)));
    window.show();
    auto* tree = test::partOf<RunTreePane>(window);
    auto* panel = test::partOf<RunDetailsPanel>(window);
    QDockWidget* dock = test::dockOf(window, "details");
    ASSERT_TRUE(tree && panel && dock);
    EXPECT_FALSE(dock->isVisible());

    // Enter on the run in the tree.
    tree->reveal(QString::fromStdString(recorded.uuid));
    tree->view()->setCurrentIndex(treeIndexOf(*tree, recorded.uuid));
    QTest::keyClick(tree->view(), Qt::Key_Return);
    EXPECT_TRUE(dock->isVisible());
    ASSERT_EQ(panel->runUuid().toStdString(), recorded.uuid);
    EXPECT_EQ(panel->field("Status"), "FINISHED");
    EXPECT_EQ(panel->field("Host").section(' ', 0, 0), QSysInfo::machineHostName());
    EXPECT_TRUE(panel->field("Command line").endsWith("train.py"))
        << panel->field("Command line").toStdString();
    EXPECT_EQ(panel->field("Collocation"), "-");
    EXPECT_EQ(panel->field("Experiment"), QStringLiteral("details (%1)").arg(recorded.experimentId));
    EXPECT_FALSE(panel->field("Duration").isEmpty());
    EXPECT_EQ(panel->field("Artifact location").toStdString(), recorded.artifactUri);

    // Params and tags, copied as a spreadsheet takes them.
    KeyValueTable* params = panel->paramsAndTags();
    const int listeners = params->columnTexts(1).indexOf("listeners");
    ASSERT_GE(listeners, 0);
    EXPECT_EQ(params->item(listeners, 2)->text(), "top");
    EXPECT_TRUE(params->columnTexts(1).contains("radt.host.name"));
    params->setCurrentCell(listeners, 1);
    params->setRangeSelected(QTableWidgetSelectionRange(listeners, 1, listeners, 2), true);
    QTest::keyClick(params, Qt::Key_C, Qt::ControlModifier);
    EXPECT_EQ(QApplication::clipboard()->text(), "listeners\ttop");

    // The latest values, read on the loader's thread.
    ASSERT_TRUE(test::waitFor(
        [&] {
            QApplication::processEvents();
            return panel->metrics()->columnTexts(0).contains("loss");
        },
        20000));
    const int loss = panel->metrics()->columnTexts(0).indexOf("loss");
    EXPECT_EQ(panel->metrics()->item(loss, 1)->text(), "0.25");
    EXPECT_EQ(panel->metrics()->item(loss, 2)->text(), "7");

    // The artifacts, listed off the GUI thread: output.log opens first, paged; a search finds the line.
    ArtifactsPane* artifacts = panel->artifacts();
    ASSERT_TRUE(artifacts->waitIdle(20000));
    QStringList files;
    for (int i = 0; i < artifacts->files()->topLevelItemCount(); ++i)
        files << artifacts->files()->topLevelItem(i)->text(0);
    EXPECT_TRUE(files.contains("output.log")) << files.join(", ").toStdString();
    EXPECT_TRUE(files.contains("profile.bin")) << files.join(", ").toStdString();
    EXPECT_TRUE(artifacts->locationText().contains(QString::fromStdString(recorded.artifactUri)));
    ASSERT_EQ(artifacts->currentArtifact(), "output.log");
    TextArtifactViewer* viewer = artifacts->viewer();
    ASSERT_NE(viewer->pager(), nullptr);
    EXPECT_GE(viewer->pager()->lineCount(), 3000u);
    panel->tabs()->setCurrentIndex(RunDetailsPanel::ArtifactsTab);
    viewer->view()->setFocus();
    QTest::keyClick(viewer->view(), Qt::Key_F, Qt::ControlModifier);
    EXPECT_TRUE(viewer->searchField()->hasFocus() || QApplication::focusWidget() == viewer->searchField());
    QSignalSpy finished(viewer, &TextArtifactViewer::searchFinished);
    QTest::keyClicks(viewer->searchField(), "DIVERGED");
    QTest::keyClick(viewer->searchField(), Qt::Key_Return);
    ASSERT_TRUE(finished.count() > 0 || finished.wait(10000));
    EXPECT_TRUE(finished.first().first().toBool());
    ASSERT_GE(viewer->matchLine(), 0);
    const auto line = viewer->pager()->lines(static_cast<uint64_t>(viewer->matchLine()), 1);
    ASSERT_EQ(line.size(), 1u);
    EXPECT_EQ(line[0].text, "step 2000: loss diverged, lowering the learning rate");
    EXPECT_TRUE(
        viewer->view()->visibleTexts().contains("step 2000: loss diverged, lowering the learning rate"))
        << "the match is scrolled into view";
    EXPECT_TRUE(
        viewer->statusText().contains(QStringLiteral("Found on line %1").arg(QLocale().toString(2001))))
        << viewer->statusText().toStdString();

    // Reload lists the folder again and keeps the file shown.
    artifacts->reload();
    EXPECT_TRUE(artifacts->isListing());
    EXPECT_TRUE(artifacts->locationText().startsWith("Listing ")) << "said while it lists";
    ASSERT_TRUE(artifacts->waitIdle(20000));
    EXPECT_EQ(artifacts->currentArtifact(), "output.log");
    ASSERT_NE(viewer->pager(), nullptr);
    EXPECT_GE(viewer->pager()->lineCount(), 3000u);

    // A binary artifact is offered to the desktop, never shown as text.
    ASSERT_TRUE(artifacts->openArtifact("profile.bin"));
    ASSERT_TRUE(artifacts->waitIdle(20000));
    EXPECT_EQ(viewer->pager(), nullptr);
    EXPECT_TRUE(artifacts->messageText().contains("not text")) << artifacts->messageText().toStdString();
    auto* open = artifacts->findChild<QPushButton*>();
    ASSERT_NE(open, nullptr);
    EXPECT_TRUE(open->isVisibleTo(artifacts));
}

TEST(RunDetailsGui, UnreachableAndMissingArtifactsAreSaid) {
    TempDir dir;
    RunDetailsPanel panel;
    radt::Run run;
    run.uuid = std::string(32, 'a');
    run.name = "remote";
    run.status = RunStatus::Finished;
    run.startTime = 1700000000000;
    run.endTime = 1700000060000;
    RunDetailsContext context{"exp", false, "laptop", QString()};

    run.artifactUri = "s3://lab-bucket/mlruns/3/" + run.uuid + "/artifacts";
    panel.showRun(run, context, run.startTime);
    EXPECT_TRUE(panel.artifacts()->locationText().contains(QString::fromStdString(run.artifactUri)));
    EXPECT_FALSE(panel.artifacts()->messageText().isEmpty()) << "said beside the list too";
    EXPECT_EQ(panel.artifacts()->files()->topLevelItemCount(), 0);
    EXPECT_EQ(panel.field("Duration"), "1m 00s");

    run.uuid = std::string(32, 'b');
    run.artifactUri = dir.file("gone/artifacts");
    panel.showRun(run, context, run.startTime);
    EXPECT_TRUE(panel.artifacts()->locationText().contains("does not exist"))
        << panel.artifacts()->locationText().toStdString();
    EXPECT_TRUE(panel.artifacts()->messageText().contains(QString::fromStdString(run.artifactUri)));

    run.uuid = std::string(32, 'c');
    run.tags["radt.host.name"] = "gpu-node-7";
    panel.showRun(run, {"exp", true, "laptop", QString()}, run.startTime);
    EXPECT_TRUE(panel.artifacts()->locationText().contains("gpu-node-7"));
    EXPECT_TRUE(panel.artifacts()->locationText().contains("RADT_ARTIFACT_ROOT"));

    run.uuid = std::string(32, 'd');
    run.artifactUri.clear();
    panel.showRun(run, context, run.startTime);
    EXPECT_TRUE(panel.artifacts()->locationText().contains("no artifact location"));
    EXPECT_EQ(panel.field("Artifact location"), "(none recorded)");

    fs::create_directories(dir.file("empty/artifacts"));
    run.uuid = std::string(32, 'e');
    run.artifactUri = "file://" + dir.file("empty/artifacts");
    panel.showRun(run, context, run.startTime);
    ASSERT_TRUE(panel.artifacts()->waitIdle(20000));
    EXPECT_TRUE(panel.artifacts()->locationText().contains("is empty"))
        << panel.artifacts()->locationText().toStdString();

    // A listing still under way when another run is shown lands nowhere: the newer run's words stay.
    run.uuid = std::string(32, 'g');
    panel.showRun(run, context, run.startTime);
    ASSERT_TRUE(panel.artifacts()->isListing());
    run.uuid = std::string(32, 'f');
    run.artifactUri = "s3://lab-bucket/mlruns/3/" + run.uuid + "/artifacts";
    panel.showRun(run, context, run.startTime);
    QTest::qWait(300);
    EXPECT_TRUE(panel.artifacts()->locationText().contains("s3://lab-bucket"))
        << panel.artifacts()->locationText().toStdString();
    EXPECT_EQ(panel.artifacts()->files()->topLevelItemCount(), 0);
}

TEST(RunDetailsGui, DockFollowsTheCurrentRunOfTheTreeAndTheBasket) {
    TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), false);
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri)));
    window.show();
    auto* tree = test::partOf<RunTreePane>(window);
    auto* panel = test::partOf<RunDetailsPanel>(window);
    auto* basket = test::partOf<BasketPanel>(window);
    QDockWidget* dock = test::dockOf(window, "details");
    ASSERT_TRUE(tree && panel && basket && dock);

    // Hidden, it follows nothing.
    tree->expandAll();
    tree->view()->setCurrentIndex(treeIndexOf(*tree, sample.runs.at("alpha/1/a")));
    EXPECT_TRUE(panel->runUuid().isEmpty());
    // View > Run Details shows the tree's current run, then follows the tree.
    QAction* show = test::menuAction(window, "Run Details");
    ASSERT_NE(show, nullptr);
    show->trigger();
    ASSERT_TRUE(dock->isVisible());
    EXPECT_EQ(panel->runUuid().toStdString(), sample.runs.at("alpha/1/a"));
    QDockWidget* treeDock = test::dockOf(window, "experiments");
    EXPECT_GT(dock->geometry().left(), treeDock->mapToGlobal(QPoint(treeDock->width(), 0)).x())
        << "right of the tree, which stays in view to choose runs";
    tree->view()->setCurrentIndex(treeIndexOf(*tree, sample.runs.at("beta/7/b")));
    EXPECT_EQ(panel->runUuid().toStdString(), sample.runs.at("beta/7/b"));

    // The basket: Enter on a run shows it.
    window.addRunsToBasket({QString::fromStdString(sample.runs.at("alpha/1/b"))});
    QTreeView* view = basket->view();
    const QModelIndex group = view->model()->index(0, 0);
    const QModelIndex run = view->model()->index(0, 0, group);
    ASSERT_TRUE(run.isValid());
    dock->hide();
    view->setCurrentIndex(run);
    EXPECT_EQ(panel->runUuid().toStdString(), sample.runs.at("beta/7/b")) << "hidden: not followed";
    QTest::keyClick(view, Qt::Key_Enter);
    EXPECT_TRUE(dock->isVisible());
    EXPECT_EQ(panel->runUuid().toStdString(), sample.runs.at("alpha/1/b"));
    EXPECT_TRUE(window.runDetails().showRun(QString::fromStdString(sample.runs.at("beta/loose"))));
    EXPECT_FALSE(window.runDetails().showRun(QStringLiteral("0123")));
}

TEST(RunDetailsGui, ARightClickOnAChartsLineOffersItsRunsDetails) {
    TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), true);
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri)));
    window.resize(1280, 800);
    window.show();
    auto* panel = test::partOf<RunDetailsPanel>(window);
    auto* board = test::partOf<BoardPanel>(window);
    ASSERT_TRUE(panel && board);
    const std::string a = sample.runs.at("alpha/1/a"), b = sample.runs.at("alpha/2/a");
    window.addRunsToBasket({QString::fromStdString(a), QString::fromStdString(b)});
    ASSERT_TRUE(window.waitForLoads());
    ASSERT_TRUE(window.plotMetric(QStringLiteral("PROC - CPU Utilization")));
    ASSERT_TRUE(window.waitForLoads());
    ChartPanel* chart = board->chartAt(0)->chart();
    QTest::qWait(50); // laid out
    // Where the second line is drawn at its 100th point, in viewport pixels.
    QtCharts::QChartView* view = chart->chartView();
    int line = -1;
    for (int i = 0; i < int(chart->engine().lines().size()); ++i)
        if (chart->engine().runs()[chart->engine().lines()[size_t(i)].runs.front()].run.uuid == b)
            line = i;
    ASSERT_GE(line, 0);
    const QPointF onLine = chart->plotItem()->toItem(chart->seriesPoints(line).at(100));
    const QPoint at = view->mapFromScene(chart->chart()->mapToScene(onLine));
    ASSERT_EQ(chart->runUuidsAt(at), QStringList{QString::fromStdString(b)});
    EXPECT_TRUE(chart->runUuidsAt(QPoint(2, 2)).isEmpty()) << "outside the plot: no run";

    // The right-click's menu, its Details chosen as a user would, shows the run in the dock.
    QString offered;
    QTimer::singleShot(200, [&offered] {
        if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
            offered = menu->actions().value(0) ? menu->actions()[0]->text() : QString();
            if (!menu->actions().isEmpty())
                menu->actions()[0]->trigger();
            menu->close();
        }
    });
    QContextMenuEvent click(QContextMenuEvent::Mouse, at, view->viewport()->mapToGlobal(at));
    QApplication::sendEvent(view->viewport(), &click);
    EXPECT_EQ(offered,
              "Details of " +
                  QString::fromStdString(
                      chart->engine().runs()[chart->engine().lines()[size_t(line)].runs.front()].run.name));
    EXPECT_TRUE(test::dockOf(window, "details")->isVisible());
    EXPECT_EQ(panel->runUuid().toStdString(), b);

    // The legend: the mouse on the other line's entry (its name's text item), then a right-click.
    const QString otherName = chart->engine().lines()[size_t(1 - line)].name;
    QPointF entry(-1, -1);
    std::function<void(QGraphicsItem*)> find = [&](QGraphicsItem* item) {
        if (auto* text = qgraphicsitem_cast<QGraphicsTextItem*>(item);
            text && text->toPlainText() == otherName)
            entry = text->sceneBoundingRect().center();
        for (QGraphicsItem* child : item->childItems())
            find(child);
    };
    find(chart->chart()->legend());
    ASSERT_GE(entry.x(), 0) << "the legend shows " << otherName.toStdString();
    const QPoint onEntry = view->mapFromScene(entry);
    QTest::mouseMove(view->viewport(), onEntry);
    QApplication::processEvents();
    EXPECT_EQ(chart->runUuidsAt(onEntry), QStringList{QString::fromStdString(a)});
}

// A colleague's artifact folder: `config.txt -> /etc/passwd` opened the local password file on a
// click; "invoice<U+202E>gpj.desktop" read as "invoicepotksed.jpg" and went to the desktop's opener
// without a word. The link is marked and opens only through Show Link Target; the name is escaped;
// a file that runs is asked about first, and a refusal hands nothing on; a pipe is never opened.
TEST(RunDetailsGui, AColleaguesLinksPipesAndDisguisedNamesNeverTrickTheArtifactsPane) {
    TempDir dir;
    const std::string root = dir.file("artifacts");
    fs::create_directories(root);
    test::writeFile(root + "/output.log", "line one\n");
    fs::create_symlink("/etc/passwd", root + "/config.txt");
    ASSERT_EQ(::mkfifo((root + "/pipe").c_str(), 0600), 0);
    const std::string disguised = "invoice\xE2\x80\xAEgpj.desktop";
    test::writeFile(root + "/" + disguised, "[Desktop Entry]\nExec=true\n");
    ArtifactsPane pane;
    pane.showArtifacts("file://" + root, {"here", "here", false, ""});
    ASSERT_TRUE(pane.waitIdle(20000));
    QStringList names;
    for (int i = 0; i < pane.files()->topLevelItemCount(); ++i)
        names << pane.files()->topLevelItem(i)->text(0);
    EXPECT_EQ(names.size(), 4) << names.join(" | ").toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("⚠ config.txt → /etc/passwd")))
        << names.join(" | ").toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("invoice\\u202egpj.desktop")))
        << names.join(" | ").toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("pipe  (a named pipe (FIFO))")));

    ASSERT_TRUE(pane.openArtifact(QStringLiteral("config.txt")));
    EXPECT_TRUE(pane.messageText().contains("outside the run's artifact folder"))
        << pane.messageText().toStdString();
    auto* follow = pane.findChild<QPushButton*>(QStringLiteral("artifactFollowLink"));
    ASSERT_TRUE(follow);
    EXPECT_FALSE(follow->isHidden());
    pane.followLink();
    ASSERT_TRUE(pane.waitIdle(20000));
    EXPECT_TRUE(pane.messageText().isEmpty())
        << "opened on the explicit action: " << pane.messageText().toStdString();

    ASSERT_TRUE(pane.openArtifact(QStringLiteral("pipe")));
    EXPECT_TRUE(pane.messageText().contains("is a named pipe (FIFO): it is listed, never opened"))
        << pane.messageText().toStdString();

    QTextBrowser opened; // its setSource slot gets what the desktop's opener would be handed
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &opened, "setSource");
    QStringList asked;
    bool answer = false;
    pane.setAskFirst([&](const QString& question) {
        asked << question;
        return answer;
    });
    ASSERT_TRUE(pane.openArtifact(QString::fromStdString(disguised)));
    pane.openExternally();
    ASSERT_EQ(asked.size(), 1);
    EXPECT_TRUE(asked[0].contains("invoice\\u202egpj.desktop")) << asked[0].toStdString();
    EXPECT_TRUE(opened.source().isEmpty()) << "refused: nothing handed to the desktop";
    answer = true;
    pane.openExternally();
    EXPECT_EQ(opened.source(), QUrl::fromLocalFile(QString::fromStdString(root + "/" + disguised)))
        << "asked and agreed";
    ASSERT_TRUE(pane.openArtifact(QStringLiteral("output.log")));
    pane.openExternally();
    EXPECT_EQ(asked.size(), 2) << "a log does not run: not asked";
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
}

// A log truncated while shown kept "100 lines, 292 B" and drew empty numbered lines past its end.
// The file is opened off the GUI thread ("Opening …" meanwhile) and watched: lines gone (truncated,
// replaced) -> read again and said; only grown -> said.
TEST(RunDetailsGui, AFileThatChangesOnDiskWhileShownIsReadAgainOrSaid) {
    TempDir dir;
    const std::string root = dir.file("artifacts");
    fs::create_directories(root);
    std::string hundred;
    for (int i = 1; i <= 100; ++i)
        hundred += "step " + std::to_string(i) + ": loss 0.5\n";
    test::writeFile(root + "/output.log", hundred);
    test::writeFile(root + "/other.txt", "other\n");
    ArtifactsPane pane;
    TextArtifactViewer* viewer = pane.viewer();
    viewer->setChangeCheckInterval(50);
    pane.showArtifacts("file://" + root, {"here", "here", false, ""});
    ASSERT_TRUE(pane.waitIdle(20000));
    ASSERT_EQ(pane.currentArtifact(), "output.log");
    ASSERT_NE(viewer->pager(), nullptr);
    EXPECT_EQ(viewer->pager()->lineCount(), 100u);

    // Opened off the GUI thread: said while it opens.
    ASSERT_TRUE(pane.openArtifact(QStringLiteral("other.txt")));
    EXPECT_TRUE(pane.isOpening());
    EXPECT_TRUE(pane.messageText().startsWith("Opening other.txt")) << pane.messageText().toStdString();
    ASSERT_TRUE(pane.waitIdle(20000));
    ASSERT_TRUE(pane.openArtifact(QStringLiteral("output.log")));
    ASSERT_TRUE(pane.waitIdle(20000));

    std::string ten;
    for (int i = 1; i <= 10; ++i)
        ten += "step " + std::to_string(i) + ": loss 0.5\n";
    test::writeFile(root + "/output.log", ten); // truncated in place, as a restarted job does
    QTRY_VERIFY_WITH_TIMEOUT(viewer->pager() && viewer->pager()->lineCount() == 10 &&
                                 viewer->statusText().contains("truncated from"),
                             10000);
    EXPECT_TRUE(viewer->statusText().contains("10 lines")) << viewer->statusText().toStdString();
    EXPECT_TRUE(viewer->statusText().contains("read again")) << viewer->statusText().toStdString();
    EXPECT_EQ(pane.files()->currentItem()->text(1), QString::fromStdString(formatByteSize(ten.size())))
        << "the list says the size read now";

    {
        std::ofstream more(root + "/output.log", std::ios::app);
        more << "step 11: loss 0.4\n";
    }
    QTRY_VERIFY_WITH_TIMEOUT(viewer->statusText().contains("grew from"), 10000);
    EXPECT_EQ(viewer->pager()->lineCount(), 10u) << "what is shown stays; Reload reads the rest";
    EXPECT_TRUE(viewer->statusText().contains("Reload")) << viewer->statusText().toStdString();

    test::writeFile(root + "/new.log", "rotated\n");
    fs::rename(root + "/new.log", root + "/output.log"); // a log rotated under the viewer
    QTRY_VERIFY_WITH_TIMEOUT(viewer->statusText().contains("replaced by another file") && viewer->pager() &&
                                 viewer->pager()->lineCount() == 1,
                             10000);
}

// A read that never returns (one on a network mount that stopped answering: a read in the kernel
// cannot be cancelled) held a thread of Qt's global pool for good: after two, every listing stayed
// "Listing…", and Ctrl+Q hid the window while the process never exited. Here four such reads hold
// threads of the pool the artifacts are read on; a listing and an opening still land.
TEST(RunDetailsGui, ReadsThatNeverReturnLeaveRoomForTheListings) {
    std::promise<void> release;
    const std::shared_future<void> held = release.get_future().share();
    for (int i = 0; i < 4; ++i)
        fileReadPool()->start([held] { held.wait(); });
    TempDir dir;
    const std::string root = dir.file("artifacts");
    fs::create_directories(root);
    test::writeFile(root + "/output.log", "line one\n");
    ArtifactsPane pane;
    pane.showArtifacts("file://" + root, {"here", "here", false, ""});
    EXPECT_TRUE(pane.waitIdle(20000)) << pane.locationText().toStdString();
    EXPECT_EQ(pane.currentArtifact(), "output.log");
    EXPECT_NE(pane.viewer()->pager(), nullptr);
    release.set_value();
    fileReadPool()->waitForDone();
}

TEST(RunDetailsGuiDeathTest, QuittingWhileAReadNeverReturnsEndsTheProcessAndSaysWhy) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            fileReadPool()->start([] {
                for (;;)
                    ::pause(); // a read stuck in the kernel
            });
            quitLeavingHungFileReads(3, 200);
            std::exit(99); // not reached: the process ends with the window's exit code
        },
        testing::ExitedWithCode(3), "still hangs after 200 ms");
}
