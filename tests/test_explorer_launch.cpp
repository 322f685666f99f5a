// SPDX-License-Identifier: MIT
// Running runs in the explorer: the Launch dialog's form, a real workload (the bundled demo under
// the real collector, in this process) whose run joins the tree and basket, streams into the chart
// over the live bus ahead of the store, prints into the console, and stops cleanly; and a run
// another process records, followed by polling the store.

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartReads.h"
#include "widgets/launch/ConsolePane.h"
#include "widgets/launch/LaunchDialog.h"
#include "widgets/launch/LiveBridge.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/LiveRuns.h"
#include "widgets/window/MainWindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <filesystem>

#include <functional>

using namespace radt;

namespace {

bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

} // namespace

TEST(LaunchDialog, ListenersThisMachineCannotRunAreDisabled) {
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", "/usr/bin:/bin"); // no nvidia-smi here
    {
        LaunchDialog dialog;
        ASSERT_NE(dialog.listenerBox("top"), nullptr);
        EXPECT_TRUE(dialog.listenerBox("top")->isEnabled());
        EXPECT_TRUE(dialog.listenerBox("top")->isChecked());
        ASSERT_NE(dialog.listenerBox("smi"), nullptr);
        EXPECT_FALSE(dialog.listenerBox("smi")->isEnabled());
        EXPECT_FALSE(dialog.listenerBox("smi")->toolTip().isEmpty()) << "says why";
    }
    // With the (fake) tool on PATH it can be chosen.
    qputenv("PATH", QByteArray(RADT_SOURCE_DIR "/tests/fakes:") + path);
    {
        LaunchDialog dialog;
        EXPECT_TRUE(dialog.listenerBox("smi")->isEnabled());
    }
    qputenv("PATH", path);
}

TEST(LaunchDialog, TheFormBecomesARequestOrSaysWhatIsWrong) {
    LaunchDialog dialog;
    LaunchRequest r;
    QString error;
    EXPECT_FALSE(dialog.request(r, &error));
    EXPECT_EQ(error, "Choose a script or an experiment CSV file.");
    dialog.targetEdit()->setText("train.py");
    dialog.argumentsEdit()->setText("--name 'a b");
    EXPECT_FALSE(dialog.request(r, &error));
    EXPECT_TRUE(error.startsWith("Arguments: ")) << error.toStdString();
    dialog.argumentsEdit()->setText("--batch-size 256 --name 'a b'");
    dialog.experimentEdit()->setText("resnet");
    ASSERT_TRUE(dialog.request(r, &error)) << error.toStdString();
    EXPECT_EQ(r.target, "train.py");
    EXPECT_EQ(r.args, (std::vector<std::string>{"--batch-size", "256", "--name", "a b"}));
    EXPECT_EQ(r.options.experiment, "resnet");
    EXPECT_NE(r.options.listeners.find("top"), std::string::npos);
    EXPECT_FALSE(r.isExperimentFile());
    dialog.targetEdit()->setText("experiment.CSV");
    EXPECT_FALSE(dialog.argumentsEdit()->isEnabled()) << "a CSV carries its own arguments";
}

TEST(ExplorerLaunch, ALaunchedRunStreamsLiveIntoTheChartAndStopsCleanly) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("launch.db");
    openStore(uri, OpenMode::CreateIfMissing);
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    QSignalSpy batches(test::partOf<LiveBridge>(window), &LiveBridge::samples);
    QSignalSpy finished(test::partOf<LaunchController>(window), &LaunchController::finished);

    LaunchRequest request;
    request.target = RADT_SOURCE_DIR "/resources/examples/demo_train.py";
    request.args = {"--epochs", "100000", "--data-size", "2000"};
    request.options.listeners = "top+proc";
    request.options.intervalSeconds = 0.1;
    request.options.captureEnvironment = false;
    request.options.graceMs = 3000;
    ASSERT_TRUE(window.liveRuns().launch(request, &error)) << error.toStdString();
    QString again;
    EXPECT_FALSE(window.liveRuns().launch(request, &again)) << "one launch at a time";
    EXPECT_TRUE(again.contains("still running"));

    // The run shows up in the tree and the basket as soon as it publishes.
    ASSERT_TRUE(waitUntil([&] { return window.basketRunUuids().size() == 1; }, 30000));
    const std::string run = window.basketRunUuids().front().toStdString();
    // The metric list learns keys from the bus before the store has them (CPU needs two ticks).
    ASSERT_TRUE(waitUntil(
        [&] { return test::partOf<MetricPicker>(window)->keys().contains("TOP - CPU Utilization"); }, 30000));
    ASSERT_TRUE(window.plotMetric("TOP - CPU Utilization"));
    ASSERT_TRUE(window.waitForLoads());
    ChartPanel* chart = window.chartPanel();
    // It grows while it runs, and points arrive over the bus before the store has them.
    const int before = chart->seriesPoints(0).size();
    bool aheadOfTheStore = false;
    ASSERT_TRUE(waitUntil(
        [&] {
            for (const ChartRunData& r : chart->engine().runs())
                aheadOfTheStore |= r.liveTail > 0;
            return aheadOfTheStore && chart->seriesPoints(0).size() >= before + 5;
        },
        30000))
        << "points drawn: " << chart->seriesPoints(0).size() << ", before: " << before;
    EXPECT_GT(batches.count(), 0);
    ASSERT_TRUE(
        waitUntil([&] { return test::partOf<ConsolePane>(window)->plainText().contains("epoch "); }, 30000))
        << test::partOf<ConsolePane>(window)->plainText().toStdString();

    // A busy board for resources/doc/explorer.md: several charts of the live run, saved when asked for.
    if (qEnvironmentVariableIsSet("RADT_BUSY_BOARD_PNG")) {
        ASSERT_TRUE(
            waitUntil([&] { return test::partOf<MetricPicker>(window)->keys().contains("loss"); }, 30000));
        window.chartPanel()->changeOptions([&](ChartOptions& o) { o.smoothing = 30; });
        for (const char* key : {"loss", "PROC - CPU Utilization", "TOP - Memory Utilization"}) {
            test::partOf<BoardPanel>(window)->addChart();
            window.plotMetric(key);
        }
        test::partOf<BoardPanel>(window)->setZoomLinked(true);
        window.resize(1600, 1500);
        window.show();
        test::partOf<RunTreePane>(window)->expandAll();
        ASSERT_TRUE(window.waitForLoads());
        waitUntil([] { return false; }, 4000); // a few more seconds of live data
        window.grab().save(qEnvironmentVariable("RADT_BUSY_BOARD_PNG"));
    }

    // Closing the window while the run runs asks first; "No" keeps the window and the run.
    QString question;
    test::answerNextMessageBox(QMessageBox::No, &question);
    EXPECT_FALSE(window.close());
    EXPECT_TRUE(question.contains("still running")) << question.toStdString();
    EXPECT_TRUE(test::partOf<LaunchController>(window)->isRunning());

    // Stop: the workload is terminated, the run ends KILLED with its samples flushed.
    test::partOf<LaunchController>(window)->stop();
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 30000));
    EXPECT_EQ(finished.first().at(0).toInt(), 130);
    EXPECT_FALSE(test::partOf<LaunchController>(window)->isRunning());
    auto store = openStore(uri, OpenMode::OpenExisting);
    const auto recorded = store->run(run);
    ASSERT_TRUE(recorded);
    EXPECT_EQ(recorded->status, RunStatus::Killed);
    EXPECT_GE(store->series(run, "TOP - CPU Utilization").size(), size_t(chart->seriesPoints(0).size()) / 2);
    // The spy sees `finished` on the launch thread; the console gets its lines through the queue.
    EXPECT_TRUE(
        waitUntil([&] { return test::partOf<ConsolePane>(window)->plainText().contains("KILLED"); }, 5000));
    // Once finished, the chart holds exactly what the store holds (the live tail was confirmed).
    // The run's end reloads the tree and may reload the chart: that load lands first (on a
    // loaded machine it is still on its way here, and a chart that is loading is not polled).
    ASSERT_TRUE(window.waitForLoads());
    window.liveRuns().poll();
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_FALSE(hasRunningRuns(chart->engine()));
    size_t drawnRaw = 0;
    for (const ChartRunData& r : chart->engine().runs())
        drawnRaw += r.series.size();
    EXPECT_EQ(drawnRaw, store->series(run, "TOP - CPU Utilization").size());
}

// A launched run that finishes is judged against its configuration's history in the console, as
// `radt RUN` says it; a store that cannot be opened is said from the launch's own thread (the
// window never waits on a server) and the launch ends with 2.
TEST(ExplorerLaunch, AFinishedRunIsJudgedAndAStoreThatCannotBeOpenedIsSaid) {
    test::TempDir dir;
    const std::string path = dir.file("launch.db");
    const std::string uri = "sqlite:///" + path;
    openStore(uri, OpenMode::CreateIfMissing);
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    auto* launcher = test::partOf<LaunchController>(window);
    QSignalSpy finished(launcher, &LaunchController::finished);
    QSignalSpy messages(launcher, &LaunchController::message);
    LaunchRequest request;
    request.target = RADT_SOURCE_DIR "/resources/examples/demo_train.py";
    request.args = {"--epochs", "2", "--data-size", "200"};
    request.options.listeners = "top";
    request.options.intervalSeconds = 0.2;
    request.options.captureEnvironment = false;
    ASSERT_TRUE(window.liveRuns().launch(request, &error)) << error.toStdString();
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60000));
    EXPECT_EQ(finished.first().at(0).toInt(), 0);
    ASSERT_TRUE(waitUntil(
        [&] {
            for (const QList<QVariant>& m : messages)
                if (m.at(0).toString().startsWith("not judged: 0 earlier finished runs of its configuration"))
                    return true;
            return false;
        },
        10000));
    auto store = openStore(uri, OpenMode::ReadOnly);
    ASSERT_EQ(store->runs().size(), 1u);
    EXPECT_EQ(store->runs().front().tags.count(kRunJudgementTag), 1u);
    store.reset();

    // The store goes away under the window: the launch starts, and says why it ends.
    std::filesystem::remove(path);
    finished.clear();
    messages.clear();
    ASSERT_TRUE(window.liveRuns().launch(request, &error)) << error.toStdString();
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 30000));
    EXPECT_EQ(finished.first().at(0).toInt(), 2);
    ASSERT_TRUE(waitUntil([&] { return !messages.isEmpty(); }, 10000));
    EXPECT_TRUE(messages.last().at(0).toString().contains(QString::fromStdString(path)))
        << messages.last().at(0).toString().toStdString();
}

TEST(ExplorerLaunch, ALaunchIsCheckedAsRadtChecksIt) {
    // Regression: a launch from the explorer checked neither devices nor collocation.
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("launch.db");
    openStore(uri, OpenMode::CreateIfMissing);
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    LaunchRequest request;
    request.target = RADT_SOURCE_DIR "/resources/examples/demo_train.py";
    request.options.captureEnvironment = false;
    const std::vector<std::tuple<std::string, std::string, std::string>> bad = {
        {"0++1", "-", "devices expects GPU indexes"},
        {"0", "9x.bad", "collocation expects -, MPS or a MIG profile"},
    };
    for (const auto& [devices, collocation, message] : bad) {
        request.options.devices = devices;
        request.options.collocation = collocation;
        QString why;
        EXPECT_FALSE(window.liveRuns().launch(request, &why)) << devices << " " << collocation;
        EXPECT_TRUE(why.contains(QString::fromStdString(message))) << why.toStdString();
    }
    request.options.devices = "0";
    request.options.collocation = "-";
    request.options.maxTimeMinutes = 2e8;
    QString why;
    EXPECT_FALSE(window.liveRuns().launch(request, &why));
    EXPECT_TRUE(why.contains("--time must be between")) << why.toStdString();
    EXPECT_TRUE(openStore(uri, OpenMode::OpenExisting)->runs().empty()) << "nothing was started";
}

TEST(ExplorerLive, ARunningRunsSeriesGrowsWhileItRunsAndStopsWhenItEnds) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("live.db");
    // The collector: another connection, as another process or machine would write.
    auto collector = openStore(uri, OpenMode::CreateIfMissing);
    const int64_t start = nowMs() - 60'000;
    const std::string run =
        collector->createRun({0, "(0 0) train.py", start, "u", "train.py", RunStatus::Running}).uuid;
    collector->logParams(run, {{"workload", "0"}, {"letter", "0"}});
    std::vector<MetricPoint> first;
    for (int i = 0; i < 10; ++i)
        first.push_back({"loss", 1.0 / (i + 1), start + i * 1000, i});
    collector->logMetrics(run, first);

    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    window.addRunsToBasket({QString::fromStdString(run)});
    window.waitForLoads();
    ASSERT_TRUE(window.plotMetric("loss"));
    window.waitForLoads();
    EXPECT_EQ(window.chartPanel()->seriesPoints(0).size(), 10);
    // Each round is read on the loader's thread and drawn when it lands (waitForLoads).
    EXPECT_EQ(window.liveRuns().poll(), 1) << "the chart follows its running run";
    EXPECT_EQ(window.liveRuns().poll(), 0) << "one round at a time per chart";
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(window.chartPanel()->seriesPoints(0).size(), 10) << "nothing new yet";

    collector->logMetrics(run, {{"loss", 0.05, start + 10'000, 10}, {"loss", 0.04, start + 11'000, 11}});
    window.liveRuns().poll();
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(window.chartPanel()->seriesPoints(0).size(), 12) << "the new rows, read by polling";
    EXPECT_EQ(window.chartPanel()->seriesPoints(0).back().x(), 11.0);

    // A zoom the user chose is kept while data arrives.
    window.chartPanel()->zoomX(2, 5);
    collector->logMetrics(run, {{"loss", 0.03, start + 12'000, 12}});
    window.liveRuns().poll();
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(window.chartPanel()->engine().runs().front().series.size(), 13u);
    EXPECT_TRUE(window.chartPanel()->engine().zoom().has_value());

    collector->setRunStatus(run, RunStatus::Finished, start + 13'000);
    window.liveRuns().poll();
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_FALSE(hasRunningRuns(window.chartPanel()->engine())) << "a finished run is no longer polled";
    EXPECT_EQ(window.liveRuns().poll(), 0);
}

// The 1 s poll reads on the loader's thread and lands later: by then the chart may show another
// metric, or a poll before it may have brought the same rows. Neither draws anything twice.
TEST(ExplorerLive, APollThatLandsLateIsLeftOutWhenTheChartMovedOn) {
    test::TempDir dir;
    auto store = openStore("sqlite:///" + dir.file("late.db"), OpenMode::CreateIfMissing);
    const int64_t start = nowMs() - 60'000;
    const std::string run = store->createRun({0, "r", start, "u", "train.py", RunStatus::Running}).uuid;
    store->logMetrics(run, {{"loss", 1.0, start, 0}, {"gpu", 50.0, start, 0}});
    ChartPanel chart;
    chart.resize(600, 400);
    test::plotFromStore(chart, *store, store->runs(), "loss");
    const auto queries = chart.engine().livePollQueries();
    ASSERT_EQ(queries.size(), 1u);
    store->logMetrics(run, {{"loss", 0.5, start + 1000, 1}});
    const auto results = readLivePoll(*store, "loss", queries);
    ASSERT_EQ(results.front().fresh.size(), 1u);

    // The same rows twice (two rounds asked before either landed): drawn once.
    EXPECT_TRUE(chart.applyLivePoll("loss", results));
    EXPECT_EQ(chart.engine().runs().front().series.size(), 2u);
    EXPECT_FALSE(chart.applyLivePoll("loss", results)) << "the rows moved on: the late copy is left out";
    EXPECT_EQ(chart.engine().runs().front().series.size(), 2u);

    // The chart shows another metric now: rows read for the old one do not land in it.
    test::plotFromStore(chart, *store, store->runs(), "gpu");
    EXPECT_FALSE(chart.applyLivePoll("loss", readLivePoll(*store, "loss", queries)));
    EXPECT_EQ(chart.engine().runs().front().series.size(), 1u);
}
