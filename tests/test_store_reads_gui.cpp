// SPDX-License-Identifier: MIT
// The window's store reads after it opened (the run tree, the basket's metric keys) happen on the
// loader's thread: the window answers while a server holds the tables, a reread of a store left
// behind lands nowhere, and only the newest basket's keys reach the metric list.

#include "GuiTestSupport.h"
#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/StoreSession.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QProcess>
#include <QTimer>
#include <QTreeView>

#include <gtest/gtest.h>

#include <sqlite3.h>

using namespace radt;

namespace {

constexpr int64_t kStart = 1700000000000;

QString uuidOf(const test::SampleStore& sample, const std::string& label) {
    return QString::fromStdString(sample.runs.at(label));
}

std::string addRun(const std::string& uri, const std::string& name) {
    auto store = openStore(uri, OpenMode::OpenExisting);
    const std::string run = store->createRun({0, name, kStart, "u", "s", RunStatus::Finished}).uuid;
    store->logMetrics(run, {{"late metric", 1.0, kStart, 0}});
    return run;
}

QModelIndex childNamed(const QAbstractItemModel& model, const QModelIndex& parent, const QString& name) {
    for (int row = 0; row < model.rowCount(parent); ++row)
        if (model.index(row, 0, parent).data().toString() == name)
            return model.index(row, 0, parent);
    return {};
}

} // namespace

TEST(StoreReads, TheTreeIsRereadOffTheGuiThreadAndLandsWithTheExpandedNodesKept) {
    test::TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("s.db"), true);
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri)));
    test::partOf<RunTreePane>(window)->expandAll();
    ASSERT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 6);
    const std::string late = addRun(sample.uri, "late");

    window.reload();
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 6)
        << "reload() returns before the store is read";
    EXPECT_EQ(test::partOf<StoreSession>(window)->loader()->pending(), 1);
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 7);
    EXPECT_NE(test::partOf<RunTreePane>(window)->model()->runByUuid(QString::fromStdString(late)), nullptr);
    QTreeView* tree = test::partOf<RunTreePane>(window)->view();
    const QModelIndex alpha = childNamed(*tree->model(), {}, "alpha");
    ASSERT_TRUE(alpha.isValid());
    EXPECT_TRUE(tree->isExpanded(alpha)) << "what was expanded stays expanded";
    const QModelIndex workload = childNamed(*tree->model(), alpha, "workload 1");
    ASSERT_TRUE(workload.isValid());
    EXPECT_TRUE(tree->isExpanded(workload));
}

TEST(StoreReads, RereadsAskedWhileOneIsUnderWayBecomeOneMore) {
    test::TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("s.db"), false);
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri)));
    for (int i = 0; i < 20; ++i)
        window.reload(); // F5 held down, or the 5 s reread on a slow server
    EXPECT_EQ(test::partOf<StoreSession>(window)->loader()->pending(), 1)
        << "one read at a time, never a queue of them";
    addRun(sample.uri, "after the first read started");
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 7)
        << "the reread after it saw the new run";
}

TEST(StoreReads, ARereadOfTheStoreLeftBehindLandsNowhere) {
    test::TempDir dir;
    const test::SampleStore first = test::buildSampleStore(dir.file("first.db"), true);
    const std::string second = "sqlite:///" + dir.file("second.db");
    openStore(second, OpenMode::CreateIfMissing);
    addRun(second, "only run");
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(first.uri)));
    window.addRunsToBasket({uuidOf(first, "alpha/1/a")}); // its keys are being read too
    window.reload();
    ASSERT_TRUE(window.openStore(QString::fromStdString(second)));
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 1)
        << "the first store's runs did not come back";
    EXPECT_TRUE(test::partOf<MetricPicker>(window)->keys().isEmpty()) << "nor its basket's metric keys";
}

TEST(StoreReads, TheFileMenusOpenReadsOffTheGuiThreadAndABadOneKeepsTheStoreOpen) {
    test::TempDir dir;
    const test::SampleStore first = test::buildSampleStore(dir.file("first.db"), false);
    const std::string second = "sqlite:///" + dir.file("second.db");
    openStore(second, OpenMode::CreateIfMissing);
    addRun(second, "only run");
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(first.uri)));
    const QString firstShown = window.storeDisplayUri();
    window.openStoreInteractive(QString::fromStdString(second));
    EXPECT_EQ(window.storeDisplayUri(), firstShown) << "the first store stays until the second is read";
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 6);
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_NE(window.storeDisplayUri(), firstShown);
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 1);
    const QString secondShown = window.storeDisplayUri();

    QString said;
    test::answerNextMessageBox(QMessageBox::Ok, &said);
    window.openStoreInteractive(QString::fromStdString("sqlite:///" + dir.file("missing/none.db")));
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_TRUE(said.contains("could not be opened")) << said.toStdString();
    EXPECT_TRUE(said.contains(secondShown + " stays open")) << said.toStdString();
    EXPECT_EQ(window.storeDisplayUri(), secondShown);
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 1);

    // Two opens in a row: the newer one is shown, whichever lands first.
    window.openStoreInteractive(QString::fromStdString(first.uri));
    window.openStoreInteractive(QString::fromStdString(second));
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(window.storeDisplayUri(), secondShown);
}

// The explorer's start opens its store on the loader's thread, so the window
// shows at once while a first open adds the read index to a large store; the first look follows.
TEST(StoreReads, AStartOpenLeavesTheWindowFreeAndItsFirstLookFollows) {
    test::TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), false);
    {
        sqlite3* db = nullptr; // as MLflow leaves a store: without the explorer's read index
        ASSERT_EQ(sqlite3_open(dir.file("store.db").c_str(), &db), SQLITE_OK);
        ASSERT_EQ(
            sqlite3_exec(db, "DROP INDEX IF EXISTS radt_metrics_run_key_time", nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(db);
    }
    MainWindow window;
    window.show();
    int landed = 0;
    bool opened = false;
    window.openStoreInteractive(QString::fromStdString(sample.uri), OpenMode::OpenExisting, [&](bool ok) {
        ++landed;
        opened = ok;
        window.addLatestWorkloadToBasket(); // what the start's first look does
    });
    EXPECT_FALSE(window.hasStore()) << "the open and the index build run off the GUI thread";
    EXPECT_TRUE(window.isVisible());
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(landed, 1);
    EXPECT_TRUE(opened);
    EXPECT_TRUE(window.hasStore());
    EXPECT_FALSE(window.basketRunUuids().isEmpty()) << "the first look ran once the store was there";
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(dir.file("store.db").c_str(), &db), SQLITE_OK);
    sqlite3_stmt* find = nullptr;
    sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = 'radt_metrics_run_key_time'", -1, &find,
                       nullptr);
    EXPECT_EQ(sqlite3_step(find), SQLITE_ROW) << "the read index was added on the way";
    sqlite3_finalize(find);
    sqlite3_close(db);

    MainWindow empty; // a start whose store cannot be opened: said, and what to do
    QString said;
    test::answerNextMessageBox(QMessageBox::Ok, &said);
    empty.openStoreInteractive(QString::fromStdString("sqlite:///" + dir.file("missing/none.db")),
                               OpenMode::OpenExisting, [&](bool ok) { opened = ok; });
    ASSERT_TRUE(empty.waitForLoads());
    EXPECT_FALSE(opened);
    EXPECT_TRUE(said.contains("Use File > Open Store")) << said.toStdString();
}

TEST(StoreReads, OnlyTheNewestBasketsKeysReachTheMetricList) {
    test::TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("s.db"), true);
    MainWindow window;
    ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri)));
    window.addRunsToBasket({uuidOf(sample, "alpha/1/a")});
    EXPECT_TRUE(test::partOf<MetricPicker>(window)->keys().isEmpty())
        << "read on the loader's thread, not yet landed";
    window.addRunsToBasket({uuidOf(sample, "alpha/1/b")});
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(test::partOf<MetricPicker>(window)->keys(),
              (QStringList{"GPU - Power", "PROC - CPU Utilization", "TOP - CPU Utilization", "loss"}));
    EXPECT_EQ(window.chartPanel()->engine().metricKey(), "PROC - CPU Utilization") << "the preferred metric";
    EXPECT_EQ(test::partOf<MetricPicker>(window)->currentKey(), "PROC - CPU Utilization")
        << "the list follows the chart";
    EXPECT_EQ(window.chartPanel()->engine().runs().size(), 2u);

    // A metric asked for while the keys are read is plotted; one no basket run has is replaced.
    window.clearBasket();
    window.addRunsToBasket({uuidOf(sample, "alpha/1/b")});
    EXPECT_TRUE(window.plotMetric("loss"));
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(window.chartPanel()->engine().metricKey(), "loss");
    EXPECT_EQ(test::partOf<MetricPicker>(window)->currentKey(), "loss");
    window.clearBasket();
    window.addRunsToBasket({uuidOf(sample, "alpha/1/a")}); // logs no loss
    EXPECT_TRUE(window.plotMetric("loss"));
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(window.chartPanel()->engine().metricKey(), "PROC - CPU Utilization");
}

// The session alone, without a window: what it says it opened, read or failed to,
// and in which order; only the newest open and key read land, a reread asked while one runs
// becomes one more, and the reads of a store left behind land nowhere.
TEST(StoreSession, SaysWhatLandedWithTypedSignalsAndOnlyTheNewestOfEachRead) {
    test::TempDir dir;
    const test::SampleStore first = test::buildSampleStore(dir.file("first.db"), true);
    const std::string second = "sqlite:///" + dir.file("second.db");
    openStore(second, OpenMode::CreateIfMissing);
    addRun(second, "only run");

    StoreSession session;
    std::vector<std::string> said; // every signal, in order
    QObject::connect(&session, &StoreSession::opening,
                     [&](const QString& uri) { said.push_back("opening " + uri.toStdString()); });
    QObject::connect(
        &session, &StoreSession::storeOpened,
        [&](const QString& uri, const std::vector<Experiment>&, const std::vector<radt::Run>& runs) {
            said.push_back("opened " + uri.toStdString() + " " + std::to_string(runs.size()));
        });
    QObject::connect(&session, &StoreSession::openFailed, [&](const QString& uri, const QString& error) {
        said.push_back("failed " + uri.toStdString() + (error.isEmpty() ? "" : " with a reason"));
    });
    QObject::connect(&session, &StoreSession::treeReady,
                     [&](const std::vector<Experiment>&, const std::vector<radt::Run>& runs, bool userAsked) {
                         said.push_back("tree " + std::to_string(runs.size()) + (userAsked ? " asked" : ""));
                     });
    QObject::connect(&session, &StoreSession::keysReady, [&](const std::vector<std::string>& keys) {
        std::string list = "keys";
        for (const std::string& k : keys)
            list += " " + k;
        said.push_back(list);
    });
    const auto settle = [&] {
        EXPECT_TRUE(session.loader()->waitIdle(60000));
        std::vector<std::string> out;
        out.swap(said);
        return out;
    };

    // Two background opens in a row: both are said to start, only the newer lands.
    std::vector<bool> landed;
    session.openInBackground(QString::fromStdString(first.uri), OpenMode::OpenExisting,
                             [&](bool opened) { landed.push_back(opened); });
    session.openInBackground(QString::fromStdString(second), OpenMode::OpenExisting,
                             [&](bool opened) { landed.push_back(opened); });
    EXPECT_FALSE(session.isOpen()) << "nothing is open until an open lands";
    EXPECT_EQ(settle(), (std::vector<std::string>{"opening " + first.uri, "opening " + second,
                                                  "opened " + second + " 1"}));
    EXPECT_EQ(landed, std::vector<bool>{true}) << "the replaced open never lands";
    EXPECT_EQ(session.uri().toStdString(), second);

    // A store that cannot be opened: said with its reason, and the open one stays.
    const std::string missing = "sqlite:///" + dir.file("missing/none.db");
    session.openInBackground(QString::fromStdString(missing));
    EXPECT_EQ(settle(),
              (std::vector<std::string>{"opening " + missing, "failed " + missing + " with a reason"}));
    EXPECT_EQ(session.uri().toStdString(), second);

    // Rereads asked while one runs become one more; what waits runs once, after the last.
    ASSERT_TRUE(session.open(QString::fromStdString(first.uri)));
    EXPECT_EQ(settle(), std::vector<std::string>{"opened " + first.uri + " 6"});
    int thensRun = 0;
    session.rereadTree(false, [&] {
        ++thensRun;
        said.push_back("then");
    });
    for (int i = 0; i < 5; ++i)
        session.rereadTree(i == 2, [&] { ++thensRun; });
    EXPECT_EQ(session.loader()->pending(), 1);
    EXPECT_EQ(settle(), (std::vector<std::string>{"tree 6", "tree 6 asked", "then"}));
    EXPECT_EQ(thensRun, 6);
    EXPECT_EQ(session.experimentNames().size(), 3u) << "Default, alpha and beta";

    // Keys: only the newest read lands; none asked for are said at once.
    std::vector<radt::Run> runs;
    for (const char* label : {"alpha/1/a", "alpha/1/b"}) {
        auto store = openStore(first.uri, OpenMode::OpenExisting);
        runs.push_back(*store->run(first.runs.at(label)));
    }
    session.readMetricKeys({runs[0]});
    EXPECT_TRUE(session.keysPending());
    session.readMetricKeys({runs[1]});
    EXPECT_EQ(settle(), std::vector<std::string>{"keys GPU - Power PROC - CPU Utilization loss"});
    EXPECT_FALSE(session.keysPending());
    session.readMetricKeys({});
    EXPECT_EQ(said, std::vector<std::string>{"keys"}) << "no runs: no keys, at once";
    settle();

    // A store left behind: its reread and key read land nowhere, and what waited is dropped.
    session.rereadTree(true, [&] { said.push_back("then of the first store"); });
    session.readMetricKeys({runs[0]});
    ASSERT_TRUE(session.open(QString::fromStdString(second)));
    EXPECT_EQ(settle(), std::vector<std::string>{"opened " + second + " 1"});
    EXPECT_FALSE(session.keysPending());
}

TEST(StoreReadsOnPostgres, AServerHoldingTheTablesLeavesTheWindowAnswering) {
    auto backend = test::makeBackend("postgresql");
    if (!backend->available())
        GTEST_SKIP() << backend->unavailableReason();
    test::TempDir dir;
    const test::SampleStore sample = test::copySampleStoreTo(backend->freshUri(), dir.file("sample.db"));
    const std::string uri = sample.uri;
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    addRun(uri, "late");

    // Another session holds the tables the window reads (as a long migration would) until told.
    QProcess psql;
    psql.setProcessChannelMode(QProcess::MergedChannels);
    psql.start("psql", {"-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", QString::fromStdString(uri.substr(14))});
    ASSERT_TRUE(psql.waitForStarted());
    psql.write("BEGIN;\nLOCK TABLE runs, metrics, latest_metrics IN ACCESS EXCLUSIVE MODE;\n\\echo locked\n");
    QByteArray said;
    QElapsedTimer waited;
    waited.start();
    // psql may take longer than one wait to connect and lock on a loaded machine: keep reading
    // until it says so, ends, or 20 s pass (stopping at the first quiet 200 ms failed in CI).
    while (!said.contains("locked") && waited.elapsed() < 20000 && psql.state() != QProcess::NotRunning) {
        psql.waitForReadyRead(200);
        said += psql.readAll();
    }
    said += psql.readAll();
    ASSERT_TRUE(said.contains("locked")) << said.toStdString();

    window.reload();
    window.addRunsToBasket({uuidOf(sample, "alpha/1/a"), uuidOf(sample, "alpha/1/b")});
    int ticks = 0;
    QTimer timer;
    QObject::connect(&timer, &QTimer::timeout, [&] { ++ticks; });
    timer.start(10);
    waited.restart();
    while (waited.elapsed() < 400)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    EXPECT_GE(ticks, 5) << "the GUI thread went on handling events";
    EXPECT_GT(test::partOf<StoreSession>(window)->loader()->pending(), 0)
        << "the reads still wait for the server";
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 6);

    psql.write("COMMIT;\n\\q\n");
    ASSERT_TRUE(psql.waitForFinished(20000));
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(test::partOf<RunTreePane>(window)->model()->runCount(), 7);
    EXPECT_TRUE(test::partOf<MetricPicker>(window)->keys().contains("GPU - Power"));
    EXPECT_EQ(window.chartPanel()->engine().metricKey(), "PROC - CPU Utilization");
    EXPECT_EQ(window.chartPanel()->engine().runs().size(), 2u);
}
