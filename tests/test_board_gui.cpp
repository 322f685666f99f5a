// SPDX-License-Identifier: MIT
// Boards in the explorer (resources/DESIGN.md §9): a board saved by radT's front end opens with the same view
// (series rules, hidden series, smoothing, range), round trips radT -> explorer -> radT and
// explorer -> explorer, bad boards open what they can and name the rest, a dropped file opens,
// and the headless export writes every chart in every format as the GUI draws it.

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/board/BoardFile.h"
#include "core/store/Store.h"
#include "widgets/board/BoardExport.h"
#include "widgets/board/BoardIo.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartExport.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/SummaryModel.h"
#include "widgets/chart/SummaryPanel.h"
#include "widgets/chart/engine/ChartOptionsJson.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/window/BoardDocument.h"
#include "widgets/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTest>
#include <QUrl>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>

using namespace radt;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

// The shape radT's front end downloads: chart keys id, data, metric, context; smoothing as the
// slider's string; params as an object; an unknown run key ("key") its table adds.
std::string radtBoard() {
    std::string runs;
    auto run = [&](const char* uuid, const char* workload, const char* letter, double base, int n) {
        std::string points;
        for (int i = 0; i < n; ++i)
            points += (i ? "," : "") + std::string("{\"timestamp\":") + std::to_string(kStart + i * 1000) +
                      ",\"value\":" + std::to_string(base + (i % 2 ? 10 : 0)) +
                      ",\"step\":" + std::to_string(i) + "}";
        return std::string("{\"name\":\"") + uuid +
               "\",\"experimentId\":1,\"duration\":" + std::to_string(n * 1000) +
               ",\"startTime\":" + std::to_string(kStart) + ",\"source\":\"imagenet\",\"letter\":\"" +
               letter +
               "\",\"model\":\"resnet50\",\"params\":{\"batch-size\":\"256\"},"
               "\"status\":\"FINISHED\",\"workload\":\"" +
               workload + "\",\"experimentName\":\"resnet\",\"key\":7,\"data\":[" + points + "]}";
    };
    const std::string power = run("aaaa0000000000000000000000000001", "1-1", "0_A", 100, 100) + "," +
                              run("bbbb0000000000000000000000000002", "1-1", "0_B", 200, 100) + "," +
                              run("cccc0000000000000000000000000003", "1-2", "0", 300, 60);
    const std::string loss = run("aaaa0000000000000000000000000001", "1-1", "0_A", 1, 30);
    return "[{\"id\":1700000000002,\"data\":[" + power +
           "],\"metric\":\"SMI - Power Draw\",\"context\":{\"smoothing\":\"35\",\"shownRuns\":[\"1-1\"],"
           "\"hiddenSeries\":[\"1-2\"],\"range\":{\"min\":10000,\"max\":40000}}},"
           "{\"id\":1700000000001,\"data\":[" +
           loss +
           "],\"metric\":\"loss\",\"context\":{\"smoothing\":0,"
           "\"shownRuns\":[],\"hiddenSeries\":[],\"range\":{\"min\":0,\"max\":0}}}]";
}

std::string writeFile(test::TempDir& dir, const std::string& name, const std::string& text) {
    const std::string path = dir.file(name);
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST(BoardGui, ARadtBoardOpensWithTheSameView) {
    test::TempDir dir;
    MainWindow window;
    QStringList problems;
    QString error;
    ASSERT_TRUE(window.document().openBoard(QString::fromStdString(writeFile(dir, "board.json", radtBoard())),
                                            &problems, &error))
        << error.toStdString();
    EXPECT_TRUE(problems.isEmpty()) << problems.join('\n').toStdString();
    BoardPanel* board = test::partOf<BoardPanel>(window);
    ASSERT_EQ(board->chartCount(), 2);
    ChartPanel* power = board->chartAt(0)->chart();
    EXPECT_EQ(power->engine().metricKey(), "SMI - Power Draw");
    EXPECT_TRUE(power->engine().isDetached());
    EXPECT_EQ(seriesNames(power->engine()), (QStringList{"1-1 0_A", "1-1 0_B", "1-2"}))
        << "workload 1-1 in shownRuns";
    EXPECT_FALSE(power->engine().seriesVisible(2)) << "hidden via the legend in radT";
    EXPECT_EQ(power->engine().options().smoothing, 35);
    ASSERT_TRUE(power->engine().zoom().has_value());
    EXPECT_EQ(power->engine().zoom(), (std::make_pair(int64_t(10000), int64_t(40000))));
    // Drawn values: radT's EMA at w = 0.35 over run A's points, inside the range.
    const QVector<QPointF> a = power->seriesPoints(0);
    ASSERT_EQ(a.size(), 31);
    double s = 0;
    for (int i = 0; i <= 40; ++i) {
        const double x = 100 + (i % 2 ? 10 : 0);
        s = i == 0 ? x : 0.35 * s + 0.65 * x;
        if (i >= 10) {
            ASSERT_NEAR(a[i - 10].y(), s, 1e-9) << i;
        }
    }
    ChartPanel* loss = board->chartAt(1)->chart();
    EXPECT_EQ(seriesNames(loss->engine()), QStringList{"1-1"}) << "runs of a workload merge by default";
    EXPECT_FALSE(loss->engine().zoom().has_value()) << "range 0/0 is the whole range";
    // The basket does not take board charts over: they carry their own data.
    EXPECT_TRUE(window.basketRunUuids().isEmpty());
}

TEST(BoardGui, ABoardsRunsFromElsewhereAreSummarisedFromTheFile) {
    test::TempDir dir;
    MainWindow window; // no store holds the board's runs
    ASSERT_TRUE(
        window.document().openBoard(QString::fromStdString(writeFile(dir, "board.json", radtBoard()))));
    ASSERT_TRUE(window.waitForLoads());
    std::map<std::pair<std::string, QString>, SummaryRow> rows; // (run, metric)
    for (const SummaryRow& row : test::partOf<SummaryPanel>(window)->model()->rows())
        rows[{row.runUuid, row.metric}] = row;
    ASSERT_EQ(rows.size(), 4u) << "three runs' power and one run's loss";
    const SummaryRow& a = rows.at({"aaaa0000000000000000000000000001", "SMI - Power Draw"});
    EXPECT_EQ(a.experiment, "resnet");
    EXPECT_EQ(a.workload, "1") << "the workload in its experiment, as for a store run";
    EXPECT_EQ(a.letter, "0_A");
    EXPECT_EQ(a.line, "1-1 0_A") << "named as its chart's legend names it";
    EXPECT_EQ(rows.at({"cccc0000000000000000000000000003", "SMI - Power Draw"}).line, "1-2");
    EXPECT_EQ(a.stats.samples, 100u) << "every point the file carries, not the zoomed range";
    EXPECT_DOUBLE_EQ(a.stats.min, 100);
    EXPECT_DOUBLE_EQ(a.stats.mean, 105);
    EXPECT_DOUBLE_EQ(a.stats.max, 110);
    EXPECT_EQ(a.stats.durationMs, 99000);
    EXPECT_EQ(rows.at({"cccc0000000000000000000000000003", "SMI - Power Draw"}).stats.samples, 60u)
        << "a series hidden in the legend is still summarised";
    EXPECT_EQ(rows.at({"aaaa0000000000000000000000000001", "loss"}).stats.samples, 30u);
}

TEST(BoardGui, RadtToExplorerToRadtLosesNothing) {
    test::TempDir dir;
    std::vector<BoardProblem> problems;
    const Board original = parseBoard(radtBoard(), "board.json", problems);
    MainWindow window;
    ASSERT_TRUE(window.document().openBoard(QString::fromStdString(writeFile(dir, "in.json", radtBoard()))));
    const QString out = QString::fromStdString(dir.file("out.json"));
    window.document().saveBoard(out);
    const Board saved = loadBoardFile(out.toStdString(), problems);
    EXPECT_TRUE(problems.empty());
    ASSERT_EQ(saved.charts.size(), original.charts.size());
    for (size_t i = 0; i < saved.charts.size(); ++i) {
        const BoardChart& o = original.charts[i];
        const BoardChart& s = saved.charts[i];
        EXPECT_EQ(s.metric, o.metric);
        EXPECT_EQ(s.runs, o.runs) << "runs, their radT fields, unknown keys and every point";
        EXPECT_EQ(s.smoothing, o.smoothing);
        EXPECT_EQ(s.shownRuns, o.shownRuns);
        EXPECT_EQ(s.hiddenSeries, o.hiddenSeries);
        EXPECT_EQ(s.rangeMin, o.rangeMin);
        EXPECT_EQ(s.rangeMax, o.rangeMax);
        EXPECT_TRUE(s.extra.contains("explorer")) << "the explorer's own state rides along";
    }
    EXPECT_GT(saved.charts[0].id, saved.charts[1].id) << "radT shows charts newest id first";
}

TEST(BoardGui, ExplorerToExplorerKeepsTheExplorersOwnState) {
    test::TempDir dir;
    MainWindow first;
    ASSERT_TRUE(first.document().openBoard(QString::fromStdString(writeFile(dir, "in.json", radtBoard()))));
    ChartPanel* chart = test::partOf<BoardPanel>(first)->chartAt(0)->chart();
    chart->changeOptions([&](ChartOptions& o) { o.logY = true; });
    chart->changeOptions([&](ChartOptions& o) { o.monochrome = true; });
    chart->changeOptions([&](ChartOptions& o) { o.lineWidth = std::clamp(double(2.5), 0.5, 8.0); });
    chart->changeOptions([&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis::Step; });
    chart->changeOptions([&](ChartOptions& o) { o.aggregate = ChartOptions::Aggregate::MeanBand; });
    chart->zoomX(5, 50);
    const QString out = QString::fromStdString(dir.file("explorer.json"));
    first.document().saveBoard(out);

    MainWindow second;
    QStringList problems;
    ASSERT_TRUE(second.document().openBoard(out, &problems));
    EXPECT_TRUE(problems.isEmpty()) << problems.join('\n').toStdString();
    ChartPanel* again = test::partOf<BoardPanel>(second)->chartAt(0)->chart();
    EXPECT_TRUE(again->engine().options().logY);
    EXPECT_TRUE(again->engine().options().monochrome);
    EXPECT_EQ(again->engine().options().lineWidth, 2.5);
    EXPECT_EQ(again->engine().options().xAxis, ChartOptions::XAxis::Step);
    EXPECT_EQ(again->engine().options().aggregate, ChartOptions::Aggregate::MeanBand);
    EXPECT_EQ(again->engine().zoom(), chart->engine().zoom());
    EXPECT_EQ(seriesNames(again->engine()), seriesNames(chart->engine()));
    for (int i = 0; i < chart->engine().seriesCount(); ++i)
        EXPECT_EQ(again->seriesPoints(i), chart->seriesPoints(i)) << i;
}

TEST(BoardGui, BadBoardsOpenWhatTheyCanAndNameTheRest) {
    test::TempDir dir;
    MainWindow window;
    QString error;
    EXPECT_FALSE(window.document().openBoard(
        QString::fromStdString(writeFile(dir, "notjson.json", "{\"charts\": [1, 2")), nullptr, &error));
    EXPECT_TRUE(error.contains("notjson.json")) << error.toStdString();
    EXPECT_FALSE(window.document().openBoard(QString::fromStdString(writeFile(dir, "empty.json", "[]")),
                                             nullptr, &error));
    EXPECT_TRUE(error.contains("empty.json")) << error.toStdString();
    EXPECT_FALSE(
        window.document().openBoard(QString::fromStdString(dir.file("missing.json")), nullptr, &error));
    EXPECT_TRUE(error.contains("missing.json"));

    // One chart without a metric, one with bad explorer settings: the second opens, both named.
    std::string text = radtBoard();
    text.replace(text.find("\"metric\":\"SMI - Power Draw\","),
                 std::string("\"metric\":\"SMI - Power Draw\",").size(), "");
    text.replace(text.find("\"metric\":\"loss\""), std::string("\"metric\":\"loss\"").size(),
                 "\"metric\":\"loss\",\"explorer\":{\"xAxis\":\"sideways\",\"lineWidth\":1e300}");
    QStringList problems;
    ASSERT_TRUE(window.document().openBoard(QString::fromStdString(writeFile(dir, "partly.json", text)),
                                            &problems, &error))
        << error.toStdString();
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartCount(), 1);
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(0)->chart()->engine().metricKey(), "loss");
    const QString all = problems.join('\n');
    EXPECT_TRUE(all.contains("partly.json: chart 1")) << all.toStdString();
    EXPECT_TRUE(all.contains(
        "explorer.xAxis: expected \"time\", \"step\", \"wallclock\" or \"epoch\", got \"sideways\""))
        << all.toStdString();
    EXPECT_TRUE(all.contains("explorer.lineWidth")) << all.toStdString();
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(0)->chart()->engine().options().xAxis,
              ChartOptions::XAxis::SinceStart);
}

TEST(BoardGui, ABoardDroppedOnTheWindowOpens) {
    test::TempDir dir;
    MainWindow window;
    auto* mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(QString::fromStdString(writeFile(dir, "dropped.json", radtBoard())))});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted()) << "a .json file is welcome";
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartCount(), 2);
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(1)->chart()->engine().metricKey(), "loss");
    delete mime;
}

TEST(BoardGui, HeadlessExportWritesEveryChartAsTheGuiDrawsIt) {
    test::TempDir dir;
    const std::string board = writeFile(dir, "board.json", radtBoard());
    const QString out = QString::fromStdString(dir.file("export"));
    QProcess explorer;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("QT_QPA_PLATFORM"); // it must not need a display on its own
    env.remove("DISPLAY");
    explorer.setProcessEnvironment(env);
    explorer.start(RADT_BINARY_DIR "/app/radt-explorer", {"--export", out, QString::fromStdString(board)});
    ASSERT_TRUE(explorer.waitForFinished(60000));
    EXPECT_EQ(explorer.exitCode(), 0) << explorer.readAllStandardError().toStdString();
    for (const char* name :
         {"01-smi-power-draw.png", "01-smi-power-draw.jpg", "01-smi-power-draw.svg", "01-smi-power-draw.pdf",
          "01-smi-power-draw.csv", "01-smi-power-draw.json", "02-loss.png", "02-loss.jpg", "02-loss.csv"})
        EXPECT_TRUE(QFile::exists(out + "/" + name)) << name;
    const QImage headless(out + "/01-smi-power-draw.png");
    ASSERT_EQ(headless.size(), kExportChartSize);
    EXPECT_EQ(QImage(out + "/01-smi-power-draw.jpg").size(), kExportChartSize) << "jpg, as radT offered";

    // The GUI's chart, exported the same way, is the same picture.
    MainWindow window;
    ASSERT_TRUE(window.document().openBoard(QString::fromStdString(board)));
    const QString gui = QString::fromStdString(dir.file("gui.png"));
    exportChartPng(*test::partOf<BoardPanel>(window)->chartAt(0)->chart(), gui, kExportChartSize, 1.0);
    EXPECT_EQ(QImage(gui).convertToFormat(QImage::Format_RGB32),
              headless.convertToFormat(QImage::Format_RGB32));

    // The CSV carries the points inside the board's range at full resolution; the one-chart
    // board opens again with the same view.
    QFile csv(out + "/01-smi-power-draw.csv");
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    EXPECT_EQ(lines.front(), "series,run_uuid,workload,letter,metric,unit,timestamp,elapsed_ms,step,value,"
                             "smoothed,band_low,band_high,n");
    EXPECT_NE(lines.at(1).indexOf(",SMI - Power Draw,W,"), -1)
        << "the metric's unit beside it: " << lines.at(1).toStdString();
    EXPECT_EQ(lines.size(), 1 + 31 + 31) << "runs A and B in 10..40 s; series 2 is hidden";
    MainWindow reopened;
    ASSERT_TRUE(reopened.document().openBoard(out + "/01-smi-power-draw.json"));
    EXPECT_EQ(seriesNames(test::partOf<BoardPanel>(reopened)->chartAt(0)->chart()->engine()),
              (QStringList{"1-1 0_A", "1-1 0_B", "1-2"}));

    // One table of formats: File > Export offers each of them, the chart as a radT
    // board included, and --help lists the same ones.
    QStringList offered;
    for (QAction* action : window.findChildren<QAction*>())
        for (const ExportFormat& format : exportFormats())
            if (action->text() == format.menuLabel)
                offered << format.extension;
    EXPECT_EQ(offered, boardExportFormats());
    const QString viaMenu = QString::fromStdString(dir.file("menu.json"));
    exportFormat("json")->write(*test::partOf<BoardPanel>(window)->chartAt(0)->chart(), 1, viaMenu, 1.0, {});
    MainWindow fromMenu;
    ASSERT_TRUE(fromMenu.document().openBoard(viaMenu));
    EXPECT_EQ(test::partOf<BoardPanel>(fromMenu)->chartAt(0)->chart()->engine().metricKey(),
              "SMI - Power Draw");
    EXPECT_EQ(exportFormat("gif"), nullptr);
    explorer.start(RADT_BINARY_DIR "/app/radt-explorer", {"--help"});
    ASSERT_TRUE(explorer.waitForFinished(60000));
    EXPECT_TRUE(explorer.readAllStandardOutput().contains("png,jpg,svg,pdf,csv,json (default: all)"));

    // Bad invocations say what is wrong and fail.
    explorer.start(RADT_BINARY_DIR "/app/radt-explorer",
                   {"--export", out, "--format", "png,gif", QString::fromStdString(board)});
    ASSERT_TRUE(explorer.waitForFinished(60000));
    EXPECT_NE(explorer.exitCode(), 0);
    EXPECT_TRUE(explorer.readAllStandardError().contains("unknown export format 'gif'"));
    explorer.start(RADT_BINARY_DIR "/app/radt-explorer",
                   {"--export", out, QString::fromStdString(dir.file("nope.json"))});
    ASSERT_TRUE(explorer.waitForFinished(60000));
    EXPECT_NE(explorer.exitCode(), 0);
    EXPECT_TRUE(explorer.readAllStandardError().contains("nope.json"));
}

TEST(BoardGui, TheLastSessionComesBack) {
    test::TempDir dir;
    QSettings settings(QString::fromStdString(dir.file("session.ini")), QSettings::IniFormat);
    const std::string uri = "sqlite:///" + dir.file("store.db");
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        for (const char* letter : {"0_A", "0_B"}) {
            const std::string run = store->createRun({0, "r", kStart, "u", "s", RunStatus::Finished}).uuid;
            store->logParams(run, {{"workload", "1"}, {"letter", letter}});
            store->logMetrics(
                run, {{"loss", 1.0, kStart, 0}, {"loss", 2.0, kStart + 1000, 1}, {"acc", 0.5, kStart, 0}});
        }
    }
    QStringList basket;
    {
        MainWindow window;
        ASSERT_TRUE(window.openStore(QString::fromStdString(uri)));
        ASSERT_TRUE(window.addLatestWorkloadToBasket());
        ASSERT_TRUE(window.plotMetric("loss"));
        window.chartPanel()->changeOptions([&](ChartOptions& o) { o.smoothing = 40; });
        window.chartPanel()->changeOptions([&](ChartOptions& o) {
            if (true)
                o.shownRuns.insert("0-1");
            else
                o.shownRuns.erase("0-1");
        });
        test::partOf<BoardPanel>(window)->addChart();
        ASSERT_TRUE(window.plotMetric("acc"));
        window.waitForLoads();
        // Every other option away from its default on the second chart: each must come back.
        ChartOptions acc = window.chartPanel()->engine().options();
        acc.logY = acc.monochrome = true;
        acc.lineWidth = 2.5;
        acc.xAxis = ChartOptions::XAxis::Step;
        acc.aggregate = ChartOptions::Aggregate::MeanBand;
        acc.naming = ChartOptions::Naming::RadtIds;
        acc.dense = ChartOptions::Dense::Raw;
        acc.hiddenSeries = {"0-1"};
        window.chartPanel()->changeOptions([&acc](ChartOptions& o) { o = acc; });
        basket = window.basketRunUuids();
        window.document().saveSession(settings);
    }
    EXPECT_TRUE(BoardDocument::sessionRestoreEnabled(settings)) << "on unless switched off";
    MainWindow window;
    EXPECT_FALSE(window.document().restoreSession(settings)) << "no store open: nothing to restore into";
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri)));
    ASSERT_TRUE(window.document().restoreSession(settings));
    window.waitForLoads();
    EXPECT_EQ(window.basketRunUuids(), basket);
    ASSERT_EQ(test::partOf<BoardPanel>(window)->chartCount(), 2);
    ChartPanel* loss = test::partOf<BoardPanel>(window)->chartAt(0)->chart();
    EXPECT_EQ(loss->engine().metricKey(), "loss");
    EXPECT_EQ(loss->engine().options().smoothing, 40);
    EXPECT_EQ(loss->engine().seriesCount(), 2) << "the workload's runs shown one by one again";
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(1)->chart()->engine().metricKey(), "acc");
    const ChartOptions& acc = test::partOf<BoardPanel>(window)->chartAt(1)->chart()->engine().options();
    EXPECT_TRUE(acc.logY && acc.monochrome);
    EXPECT_EQ(acc.lineWidth, 2.5);
    EXPECT_EQ(acc.xAxis, ChartOptions::XAxis::Step);
    EXPECT_EQ(acc.aggregate, ChartOptions::Aggregate::MeanBand);
    EXPECT_EQ(acc.naming, ChartOptions::Naming::RadtIds);
    EXPECT_EQ(acc.dense, ChartOptions::Dense::Raw);
    EXPECT_EQ(acc.hiddenSeries, std::set<QString>{"0-1"});
    EXPECT_EQ(acc.smoothing, 0);
    // Another store: the session belongs to the first one.
    MainWindow other;
    ASSERT_TRUE(other.openStore(QString::fromStdString("sqlite:///" + dir.file("other.db")), nullptr,
                                OpenMode::CreateIfMissing));
    EXPECT_FALSE(other.document().restoreSession(settings));
}

// Regression: `radt-explorer board.json` showed the store's newest run in every chart of the
// board, while File > Open Board was right. As main() does it: the first look (the latest
// workload, a preferred metric) is under way when the board opens.
TEST(BoardGui, ABoardOpenedOverAFirstLookKeepsItsOwnRuns) {
    test::TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), true);
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
    window.addLatestWorkloadToBasket();
    window.plotPreferredMetric();
    ASSERT_TRUE(
        window.document().openBoard(QString::fromStdString(writeFile(dir, "board.json", radtBoard()))));
    ASSERT_TRUE(window.waitForLoads());
    QElapsedTimer settle; // a few live-timer ticks
    settle.start();
    while (settle.elapsed() < 2500)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    ASSERT_EQ(test::partOf<BoardPanel>(window)->chartCount(), 2);
    EXPECT_EQ(seriesNames(test::partOf<BoardPanel>(window)->chartAt(0)->chart()->engine()),
              (QStringList{"1-1 0_A", "1-1 0_B", "1-2"}));
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(1)->chart()->engine().metricKey(), "loss");
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(1)->chart()->engine().runs().size(), 1u);
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(1)->chart()->engine().runs().front().run.uuid,
              "aaaa0000000000000000000000000001");
}

// Regression: a board's runs never reached the summary table, and choosing a metric in a board
// chart dropped the board's runs. The runs the open store holds now become the basket.
TEST(BoardGui, ABoardsRunsAreSummarisedAndItsChartsCanShowOtherMetricsOfThem) {
    test::TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), true);
    const QString a = QString::fromStdString(sample.runs.at("alpha/1/a"));
    const QString b = QString::fromStdString(sample.runs.at("alpha/1/b"));
    const QString other = QString::fromStdString(sample.runs.at("alpha/2/a"));
    const std::string path = dir.file("board.json");
    {
        MainWindow window;
        QString error;
        ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
        window.addRunsToBasket({a, b});
        ASSERT_TRUE(window.plotMetric("PROC - CPU Utilization"));
        ASSERT_TRUE(window.waitForLoads());
        window.document().saveBoard(QString::fromStdString(path));
    }
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
    window.addRunsToBasket({other}); // something else in the basket before the board opens
    ASSERT_TRUE(window.waitForLoads());
    ASSERT_TRUE(window.document().openBoard(QString::fromStdString(path)));
    ASSERT_TRUE(window.waitForLoads());
    QStringList basket = window.basketRunUuids();
    basket.sort();
    QStringList expected{a, b};
    expected.sort();
    EXPECT_EQ(basket, expected) << "the board's runs are the basket";
    ChartPanel* chart = test::partOf<BoardPanel>(window)->chartAt(0)->chart();
    EXPECT_TRUE(chart->engine().isDetached()) << "the chart still shows the board's own data";
    EXPECT_EQ(test::partOf<MetricPicker>(window)->currentKey(), "PROC - CPU Utilization");
    std::set<std::string> summarised;
    for (const SummaryRow& row : test::partOf<SummaryPanel>(window)->model()->rows()) {
        EXPECT_EQ(row.metric, "PROC - CPU Utilization");
        summarised.insert(row.runUuid);
    }
    EXPECT_EQ(summarised, (std::set<std::string>{a.toStdString(), b.toStdString()}));

    // Another metric for the board chart: the same runs (run b logs loss).
    ASSERT_TRUE(window.plotMetric("loss"));
    ASSERT_TRUE(window.waitForLoads());
    EXPECT_EQ(chart->engine().metricKey(), "loss");
    ASSERT_EQ(chart->engine().runs().size(), 1u);
    EXPECT_EQ(chart->engine().runs().front().run.uuid, b.toStdString());
}

// One serialiser for chart options. Every value of every option survives a board file
// and a session; a bad or unknown value is named and never becomes another value.
TEST(ChartOptionsJson, EveryValueOfEveryOptionRoundTripsThroughBoardsAndSessions) {
    std::vector<ChartOptions> cases;
    for (const auto& x : xAxisNames())
        cases.emplace_back().xAxis = x.value;
    for (const auto& a : aggregateNames())
        cases.emplace_back().aggregate = a.value;
    for (const auto& n : namingNames())
        cases.emplace_back().naming = n.value;
    for (const auto& d : denseNames())
        cases.emplace_back().dense = d.value;
    ChartOptions rest;
    rest.logY = rest.monochrome = true;
    rest.lineWidth = 2.5;
    rest.smoothing = 40;
    rest.shownRuns = {"0-1"};
    rest.hiddenSeries = {"0-1 0"};
    cases.push_back(rest);
    auto same = [](const ChartOptions& a, const ChartOptions& b) {
        return std::tie(a.smoothing, a.logY, a.monochrome, a.lineWidth, a.xAxis, a.aggregate, a.naming,
                        a.dense, a.shownRuns, a.hiddenSeries) ==
               std::tie(b.smoothing, b.logY, b.monochrome, b.lineWidth, b.xAxis, b.aggregate, b.naming,
                        b.dense, b.shownRuns, b.hiddenSeries);
    };
    auto noProblem = [](const std::string& key, const std::string& what) {
        ADD_FAILURE() << key << ": " << what;
    };
    test::TempDir dir;
    ChartRunData run;
    run.run.uuid = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1";
    run.run.startTime = kStart;
    run.run.endTime = kStart + 3000;
    run.run.status = RunStatus::Finished;
    run.run.params = {{"workload", "1"}, {"letter", "0"}};
    run.series.t = {kStart, kStart + 1000, kStart + 2000};
    run.series.step = {0, 1, 2};
    run.series.v = {1, 2, 3};
    for (const ChartOptions& o : cases) {
        const std::string text = chartOptionsToJson(o, true).dump();
        // Session: what saveSession writes, read back as restoreSession reads it.
        ChartOptions session;
        chartOptionsFromJson(nlohmann::json::parse(text), session, noProblem);
        EXPECT_TRUE(same(o, session)) << text;
        // Board: a chart drawn with them, saved to a file, opened again.
        ChartPanel panel;
        panel.showDetached({run}, "loss", o, std::nullopt);
        Board board;
        board.charts.push_back(boardFromChart(panel, 1, {}));
        const std::string path = dir.file("options.json");
        saveBoardFile(path, board);
        std::vector<BoardProblem> problems;
        const BoardChartView view =
            viewFromBoard(loadBoardFile(path, problems).charts.at(0), 0, "options.json", problems);
        EXPECT_TRUE(problems.empty()) << problems.front().message;
        EXPECT_TRUE(same(o, view.options)) << text;
    }

    // A session as the explorer wrote it before the names (enums as numbers) still loads.
    ChartOptions old;
    chartOptionsFromJson(
        nlohmann::json::parse(R"({"metric":"loss","smoothing":40,"logY":true,"monochrome":false,
        "lineWidth":1.5,"xAxis":3,"aggregate":1,"naming":1,"shownRuns":["0-1"],"hiddenSeries":[]})"),
        old, noProblem);
    EXPECT_EQ(old.xAxis, ChartOptions::XAxis::Epoch);
    EXPECT_EQ(old.aggregate, ChartOptions::Aggregate::MeanBand);
    EXPECT_EQ(old.naming, ChartOptions::Naming::RadtIds);
    EXPECT_EQ(old.smoothing, 40);
    EXPECT_EQ(old.shownRuns, std::set<QString>{"0-1"});

    // Sessions written before the names held the enums' values; an unknown value is said and
    // leaves the option as it was (a fifth x axis used to be clamped to the epoch axis).
    ChartOptions o;
    std::vector<std::string> said;
    chartOptionsFromJson(
        {{"xAxis", 2}, {"aggregate", "sideways"}, {"naming", 7}, {"smoothing", 120}}, o,
        [&](const std::string& key, const std::string& what) { said.push_back(key + ": " + what); });
    EXPECT_EQ(o.xAxis, ChartOptions::XAxis::WallClock);
    EXPECT_EQ(o.aggregate, ChartOptions::Aggregate::Auto);
    EXPECT_EQ(o.naming, ChartOptions::Naming::Readable);
    EXPECT_EQ(o.smoothing, 0);
    ASSERT_EQ(said.size(), 3u);
    EXPECT_EQ(said[0], "aggregate: expected \"auto\", \"merge\" or \"meanband\", got \"sideways\"");
    EXPECT_EQ(said[1], "naming: expected \"readable\" or \"radt\", got 7");
    EXPECT_EQ(said[2], "smoothing: expected a whole number from 0 to 99, got 120");
}

// A board opens at its first chart, and changing the columns goes back to it
// (it stayed on the last row, and a 2-column view of a long board could look blank).
TEST(BoardGui, ABoardOpensAtItsFirstChartAndChangingColumnsGoesBackToIt) {
    test::TempDir dir;
    nlohmann::json charts = nlohmann::json::parse(radtBoard());
    const nlohmann::json loss = charts[1];
    for (int i = 0; i < 5; ++i) {
        nlohmann::json more = loss;
        more["id"] = 1600000000000 - i;
        charts.push_back(more);
    }
    const std::string board = writeFile(dir, "long.json", charts.dump());
    MainWindow window;
    window.resize(1024, 700);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.document().openBoard(QString::fromStdString(board)));
    ASSERT_EQ(test::partOf<BoardPanel>(window)->chartCount(), 7);
    QScrollBar* scroll = test::partOf<BoardPanel>(window)->scrollArea()->verticalScrollBar();
    auto settled = [] {
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents(); // the layout pass, then the deferred scroll
    };
    settled();
    ASSERT_GT(scroll->maximum(), 0) << "seven charts do not fit: the board scrolls";
    EXPECT_EQ(scroll->value(), 0) << "at chart 1, not the last one added";
    EXPECT_EQ(test::partOf<BoardPanel>(window)->current(), test::partOf<BoardPanel>(window)->chartAt(0));
    scroll->setValue(scroll->maximum());
    test::partOf<BoardPanel>(window)->setColumns(2);
    settled();
    EXPECT_EQ(scroll->value(), 0) << "two columns: back to chart 1";
}

// A board opened over edited charts asks first, and the summary of a board from
// elsewhere lists the charts' runs, not the basket's other store runs as well.
TEST(BoardGui, OpeningABoardOverAnEditedOneAsksAndTheSummaryShowsTheChartsRuns) {
    test::TempDir dir;
    const test::SampleStore sample = test::buildSampleStore(dir.file("store.db"), true);
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(sample.uri), &error)) << error.toStdString();
    window.addLatestWorkloadToBasket(); // store runs the board does not chart
    const QString first = QString::fromStdString(writeFile(dir, "first.json", radtBoard()));
    const QString second = QString::fromStdString(writeFile(dir, "second.json", radtBoard()));
    ASSERT_TRUE(window.document().openBoard(first));
    ASSERT_TRUE(window.waitForLoads());
    const std::set<std::string> boardRuns = {"aaaa0000000000000000000000000001",
                                             "bbbb0000000000000000000000000002",
                                             "cccc0000000000000000000000000003"};
    ASSERT_EQ(test::partOf<SummaryPanel>(window)->model()->rows().size(), 4u)
        << "three runs' power and one run's loss";
    for (const SummaryRow& row : test::partOf<SummaryPanel>(window)->model()->rows())
        EXPECT_TRUE(boardRuns.count(row.runUuid)) << row.runUuid << " is in the basket, not on the board";

    ASSERT_TRUE(window.document().openBoardInteractive(second))
        << "unchanged since it opened: nothing to ask";
    ChartPanel* power = test::partOf<BoardPanel>(window)->chartAt(0)->chart();
    power->changeOptions([&](ChartOptions& o) { o.smoothing = 60; });
    QString asked;
    test::answerNextMessageBox(QMessageBox::Cancel, &asked);
    EXPECT_FALSE(window.document().openBoardInteractive(first));
    EXPECT_NE(asked.indexOf("changes that no board file holds"), -1) << asked.toStdString();
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(0)->chart()->engine().options().smoothing, 60)
        << "cancel keeps the edited board";

    test::answerNextMessageBox(QMessageBox::Save);
    ASSERT_TRUE(window.document().openBoardInteractive(first))
        << "saved to the board it came from, then opened";
    std::vector<BoardProblem> problems;
    EXPECT_EQ(loadBoardFile(second.toStdString(), problems).charts.at(0).smoothing, 60);
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(0)->chart()->engine().options().smoothing, 35)
        << "first.json's own";

    test::partOf<BoardPanel>(window)->chartAt(0)->chart()->changeOptions(
        [&](ChartOptions& o) { o.smoothing = 10; });
    test::answerNextMessageBox(QMessageBox::Discard);
    ASSERT_TRUE(window.document().openBoardInteractive(second));
    EXPECT_EQ(test::partOf<BoardPanel>(window)->chartAt(0)->chart()->engine().options().smoothing, 60);
    std::vector<BoardProblem> again;
    EXPECT_EQ(loadBoardFile(first.toStdString(), again).charts.at(0).smoothing, 35) << "discarded, not saved";
}

// A chart on the epoch axis whose runs log no epochs draws only its message; an
// export says so instead of writing a picture of the message, and the board file is still written.
TEST(BoardGui, AChartThatDrawsNothingIsNotExportedAsAPictureOfItsMessage) {
    test::TempDir dir;
    std::vector<BoardProblem> read;
    Board board = loadBoardFile(writeFile(dir, "board.json", radtBoard()), read);
    ASSERT_FALSE(board.charts.empty());
    board.charts.resize(1);
    board.charts[0].extra["explorer"] = {{"xAxis", "epoch"}}; // power samples, but no stepped metric
    std::vector<BoardProblem> problems;
    const QString out = QString::fromStdString(dir.file("export"));
    const QStringList written = exportBoardFiles(board, "board.json", out, {"png", "csv", "json"}, problems);
    EXPECT_EQ(written, QStringList{out + "/01-smi-power-draw.json"}) << "the data, which radT opens, is kept";
    EXPECT_FALSE(QFile::exists(out + "/01-smi-power-draw.png"));
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_NE(
        problems[0].message.find("board.json: chart 1 (\"SMI - Power Draw\"): no png written, nothing is "
                                 "drawn: These runs log no epochs"),
        std::string::npos)
        << problems[0].message;
}
