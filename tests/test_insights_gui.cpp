// SPDX-License-Identifier: MIT
// The explorer's Insights view: the basket's runs as energy, efficiency and
// collocation figures, computed off the GUI thread, in a sortable table and a bar chart, exported
// as CSV and JSON. Real SQLite store, real widgets (offscreen).

#include "GuiTestSupport.h"
#include "InsightTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/insights/AnswerTableModel.h"
#include "widgets/insights/InsightRunsModel.h"
#include "widgets/insights/InsightsPanel.h"
#include "widgets/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace radt;

namespace {

int columnOf(const QAbstractItemModel* model, const QString& title) {
    for (int c = 0; c < model->columnCount(); ++c)
        if (model->headerData(c, Qt::Horizontal).toString() == title)
            return c;
    ADD_FAILURE() << "no column " << title.toStdString();
    return -1;
}

} // namespace

TEST(InsightsView, TheBasketsRunsBecomeFiguresATableAChartAndExports) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("insights.db");
    std::string solo;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        solo = test::addInsightRuns(*store).solo;
    }
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    InsightsPanel* insights = test::partOf<InsightsPanel>(window);
    insights->setCarbon(400, 1.5);
    window.resize(1280, 800);
    window.show();
    test::dockOf(window, "insights")->show(); // Basket > Insights (Ctrl+I)
    EXPECT_TRUE(test::dockOf(window, "insights")->isFloating())
        << "first shown floating, charts keep their room";
    QStringList all;
    for (const radt::Run& r : openStore(uri, OpenMode::OpenExisting)->runs())
        all << QString::fromStdString(r.uuid);
    ASSERT_EQ(window.addRunsToBasket(all), 3);
    ASSERT_TRUE(insights->waitForResult(20000));
    ASSERT_TRUE(insights->lastError().isEmpty()) << insights->lastError().toStdString();

    const QAbstractItemModel* table = insights->table();
    ASSERT_EQ(table->rowCount(), 3);
    int collocated = -1, alone = -1;
    for (int r = 0; r < table->rowCount(); ++r)
        (table->index(r, columnOf(table, "Letter")).data().toString() == "0" ? alone : collocated) = r;
    auto cell = [&](int row, const char* column) {
        return table->index(row, columnOf(table, column)).data().toString();
    };
    // Two runs shared the GPU: each is charged half of its 1000 J, the whole in the tooltip.
    // One unit down each column, said in its header (as radt report's per-run table and the CSV):
    // s and J; the magnitude a person says in the tooltip.
    EXPECT_EQ(cell(collocated, "GPU energy J"), "500.0");
    const QString share =
        table->index(collocated, columnOf(table, "GPU energy J")).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(share.contains("Its share of GPU 0") && share.contains("1000.0 J")) << share.toStdString();
    EXPECT_EQ(cell(collocated, "Energy / epoch J"), "250.0");
    EXPECT_EQ(cell(collocated, "Energy in Wh"), "0.139");
    EXPECT_EQ(cell(collocated, "Slowdown x"), "2.00");
    EXPECT_EQ(cell(collocated, "Duration s"), "10.0");
    EXPECT_EQ(cell(collocated, "CO2e g"), "0.083") << "500 J = 0.139 Wh at 400 g/kWh and PUE 1.5";
    EXPECT_EQ(cell(collocated, "GPU util %"), "90.0");
    EXPECT_EQ(cell(collocated, "SM active %"), "30.0") << "DCGM's SM Active (a share of 1) in percent";
    EXPECT_TRUE(cell(collocated, "Util − SMACT pp").startsWith(QStringLiteral("⚠"))) << "the flag shows";
    EXPECT_EQ(cell(alone, "Slowdown x"), "–");
    // A blank figure says why.
    auto why = [&](int row, const char* column) {
        return table->index(row, columnOf(table, column)).data(Qt::ToolTipRole).toString().toStdString();
    };
    EXPECT_NE(why(alone, "Slowdown x").find("it ran alone"), std::string::npos) << why(alone, "Slowdown x");
    EXPECT_NE(why(alone, "Input stalls %").find("PROC - CPU Utilization"), std::string::npos);
    EXPECT_NE(why(alone, "CPU energy J").find("RAPL"), std::string::npos);
    EXPECT_EQ(cell(alone, "GPU energy J"), "2000.0");
    EXPECT_EQ(table->index(alone, columnOf(table, "GPU energy J")).data(Qt::ToolTipRole).toString(),
              "2.00 kJ");

    // No configuration has repeats: one run alone, and one pair whose two jobs ran at the same time
    // on one GPU (one workload, N=1, not two repeats). So the bars are the runs', "per run" is
    // greyed out, and each bar is named as the chart's legend names the run's line.
    auto* perRun = insights->findChild<QCheckBox*>();
    ASSERT_TRUE(perRun);
    EXPECT_FALSE(perRun->isEnabled()) << "nothing to group: a pair is one replicate";
    EXPECT_EQ(insights->report()["configurations"][1]["n"], 1);
    EXPECT_EQ(insights->report()["configurations"][1]["replicate"], "workload");
    ASSERT_EQ(insights->chart()->series().size(), 1);
    EXPECT_EQ(insights->chart()->title(), "GPU energy (kJ)");
    auto* bars = qobject_cast<QtCharts::QAbstractBarSeries*>(insights->chart()->series().front());
    ASSERT_TRUE(bars);
    ASSERT_EQ(bars->barSets().front()->count(), 3);
    EXPECT_DOUBLE_EQ(bars->barSets().front()->at(alone), 2.0);
    EXPECT_DOUBLE_EQ(bars->barSets().front()->at(collocated), 0.5) << "the bars add up to the workload";

    // On demand, the chart shows a run's GPU utilisation with its burst periods shaded.
    auto* figure = insights->findChild<QComboBox*>();
    ASSERT_TRUE(figure);
    figure->setCurrentIndex(figure->findText("Burst periods (selected run)"));
    EXPECT_TRUE(insights->chart()->title().startsWith("Burst periods: reading DCGMI - GPU Utilization"))
        << "read on the worker's thread: " << insights->chart()->title().toStdString();
    ASSERT_TRUE(insights->waitForResult(20000));
    ASSERT_EQ(insights->chart()->series().size(), 2);
    EXPECT_TRUE(qobject_cast<QtCharts::QAreaSeries*>(insights->chart()->series().front())) << "the shading";
    EXPECT_TRUE(insights->chart()->title().contains("1 burst period(s) of DCGMI - GPU Utilization"))
        << insights->chart()->title().toStdString();
    figure->setCurrentIndex(0);

    // Exports: the table as CSV, the report as JSON of radt report's shape.
    const QString csv = QString::fromStdString(dir.file("insights.csv"));
    const QString json = QString::fromStdString(dir.file("insights.json"));
    insights->exportCsv(csv);
    insights->exportJson(json);
    const std::string csvText = test::readFile(csv.toStdString());
    const std::string header = csvText.substr(0, csvText.find('\n'));
    // Right after the run's name, the param that tells these runs apart (one alone, two sharing).
    EXPECT_EQ(header.substr(0, 48), "Run,runs_per_gpu,Experiment,Workload,Letter,Stat");
    EXPECT_EQ(table->headerData(1, Qt::Horizontal).toString(), "runs_per_gpu");
    EXPECT_EQ(table->index(alone, 1).data().toString(), "1");
    EXPECT_EQ(table->index(collocated, 1).data().toString(), "2");
    EXPECT_NE(header.find(",Duration s,GPU energy J,Energy in Wh,"), std::string::npos) << header;
    EXPECT_EQ(std::count(csvText.begin(), csvText.end(), '\n'), 4);
    // Exports keep raw numbers in the header's unit: 500.0 (J), not "500 J"; 10.0 (s), not a clock.
    EXPECT_NE(csvText.find(",10.0,500.0,0.139,"), std::string::npos) << csvText;
    EXPECT_TRUE(insights->tableTsv().contains("\t10.0\t2000.0\t0.556\t"))
        << insights->tableTsv().toStdString();
    const auto report = nlohmann::json::parse(test::readFile(json.toStdString()));
    EXPECT_EQ(report["runs"].size(), 3u);
    EXPECT_EQ(report["workloads"].size(), 2u);
    EXPECT_THROW(insights->exportJson(QString::fromStdString(dir.file("no/such/dir/x.json"))),
                 std::exception);

    // Fewer runs in the basket: recomputed.
    window.clearBasket();
    window.addRunsToBasket({QString::fromStdString(solo)});
    ASSERT_TRUE(insights->waitForResult(20000));
    EXPECT_EQ(insights->table()->rowCount(), 1);
}

// A run whose energy counter read 0 first and disagrees with its power series shows ⚠
// on its GPU energy, and the tooltip says which source was used and why.
TEST(InsightsView, AnEnergyFigureWithACaveatIsMarkedAndSaysWhy) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("caveat.db");
    std::string uuid;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        const int64_t exp = store->getOrCreateExperiment("caveat");
        uuid = store->createRun({exp, "r", 1'700'000'000'000, "u", "s", RunStatus::Running}).uuid;
        std::vector<MetricPoint> points;
        for (int i = 0; i <= 60; ++i) {
            const int64_t t = 1'700'000'000'000 + int64_t(i) * 1000;
            points.push_back({"DCGMI - Total Energy Consumption", i == 0 ? 0.0 : 5e9 + 100'000.0 * i, t, 0});
            points.push_back({"SMI - Power Draw", 60.0, t, 0}); // 60 W against the counter's 100 W
        }
        store->logMetrics(uuid, points);
        store->setRunStatus(uuid, RunStatus::Finished, 1'700'000'060'000);
    }
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    InsightsPanel* insights = test::partOf<InsightsPanel>(window);
    window.show();
    test::dockOf(window, "insights")->show();
    ASSERT_EQ(window.addRunsToBasket({QString::fromStdString(uuid)}), 1);
    ASSERT_TRUE(insights->waitForResult(20000));
    const QAbstractItemModel* table = insights->table();
    ASSERT_EQ(table->rowCount(), 1);
    const QModelIndex energy = table->index(0, columnOf(table, "GPU energy J"));
    EXPECT_EQ(energy.data().toString(), QStringLiteral("⚠ 3600.0"))
        << "60 W for 60 s: the power series is used";
    const QString tip = energy.data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains("Source: power.")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("1 energy counter reading(s) out of line with the rest")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("the energy counter (5900 J) disagrees with integrated power (3600 J) by 64 %: "
                             "integrated power is used"))
        << tip.toStdString();
    EXPECT_EQ(table->index(0, columnOf(table, "Source")).data().toString(), "power");
    // Copied or exported, the figure stays a number.
    EXPECT_TRUE(insights->tableTsv().contains("\t3600.0\t")) << insights->tableTsv().toStdString();
    EXPECT_FALSE(insights->tableTsv().contains(QStringLiteral("⚠")));
}

// A run another client is still recording, of the same params as three
// finished repeats, is no repeat: N stays 3 and a visible line says it was left out; the energy,
// over the two repeats with a power series, carries its own N.
TEST(InsightsView, ARunningRunIsLeftOutOfItsConfigurationAndEachFigureSaysItsN) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("repeats.db");
    QStringList basket;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        for (const std::string& uuid : test::addRepeatsOneWithoutPower(*store))
            basket << QString::fromStdString(uuid);
        const int64_t start = test::kInsightT0 + 900'000; // 5 s into its 10: still RUNNING
        const radt::Run running = store->createRun(
            {store->getOrCreateExperiment("bench"), "train.py", start, "u", "train.py", RunStatus::Running});
        store->logParams(running.uuid, {{"model", "train.py"}, {"size", "8"}, {"seed", "4"}});
        std::vector<MetricPoint> points;
        for (int i = 0; i <= 5; ++i)
            points.push_back({"DCGMI - Power Usage", 900.0, start + i * 1000, 0});
        store->logMetrics(running.uuid, points);
        basket << QString::fromStdString(running.uuid);
    }
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri), &error)) << error.toStdString();
    InsightsPanel* insights = test::partOf<InsightsPanel>(window);
    window.show();
    test::dockOf(window, "insights")->show();
    ASSERT_EQ(window.addRunsToBasket(basket), 4);
    ASSERT_TRUE(insights->waitForResult(20000));
    ASSERT_TRUE(insights->lastError().isEmpty()) << insights->lastError().toStdString();
    EXPECT_EQ(insights->table()->rowCount(), 4) << "the runs' table still lists the running run";
    const QAbstractItemModel* configurations = insights->configurations();
    ASSERT_EQ(configurations->rowCount(), 1);
    auto cell = [&](const char* column) {
        return configurations->index(0, columnOf(configurations, column)).data().toString().toStdString();
    };
    EXPECT_EQ(cell("N"), "3");
    EXPECT_EQ(cell("Duration\nmean ± CI95"), "10.00 ± 0.00 s")
        << "three 10 s runs; not the 5 s of the running one";
    EXPECT_EQ(cell("GPU energy\nmean ± CI95"), "1.5 ± 6.4 kJ (n=2)") << "1000 J and 2000 J; not its 4500 J";
    EXPECT_TRUE(
        insights->footer().contains("Left out of configurations: 1 running (only finished runs are repeats"))
        << insights->footer().toStdString();
    // A Repeats name no run has (a typo of seed) is said, not taken as "every run its own".
    auto* repeats = insights->findChild<QLineEdit*>();
    ASSERT_TRUE(repeats);
    repeats->setText("sed");
    emit repeats->editingFinished();
    ASSERT_TRUE(insights->waitForResult(20000));
    EXPECT_TRUE(insights->footer().contains("Repeats: 'sed' is not a param of these runs"))
        << insights->footer().toStdString();
    repeats->setText("seed");
    emit repeats->editingFinished(); // the setting is kept: the next test starts from seed
    ASSERT_TRUE(insights->waitForResult(20000));
    EXPECT_FALSE(insights->footer().contains("Repeats:")) << insights->footer().toStdString();
}

// The real H200 experiment's repeats as configurations in the view, the efficiency
// frontier as a chart, and nothing of it left on screen once the basket is cleared.
TEST(InsightsView, ConfigurationsAndTheirFrontierShowAndClearAllLeavesNothingStale) {
    test::TempDir dir;
    const std::string db = dir.file("h200.db");
    std::filesystem::copy_file(test::fixturePath("runs/h200_matmul_experiment.db"), db);
    MainWindow window;
    QString error;
    ASSERT_TRUE(window.openStore(QString::fromStdString("sqlite:///" + db), &error)) << error.toStdString();
    InsightsPanel* insights = test::partOf<InsightsPanel>(window);
    window.resize(1280, 800);
    window.show();
    test::dockOf(window, "insights")->show();
    QStringList all;
    for (const radt::Run& r : openStore(db, OpenMode::OpenExisting)->runs())
        all << QString::fromStdString(r.uuid);
    ASSERT_EQ(window.addRunsToBasket(all), 12);
    ASSERT_TRUE(insights->waitForResult(20000));
    ASSERT_TRUE(insights->lastError().isEmpty()) << insights->lastError().toStdString();
    // The Configurations tab: N, mean ± CI in one unit, the frontier; the CI in the tooltip.
    const QAbstractItemModel* configurations = insights->configurations();
    ASSERT_EQ(configurations->rowCount(), 3);
    int shared = -1, alone8192 = -1;
    for (int r = 0; r < configurations->rowCount(); ++r) {
        const QString params = configurations->index(r, columnOf(configurations, "Params")).data().toString();
        if (params == "iters=60, runs_per_gpu=2, size=8192")
            shared = r;
        if (params == "iters=60, runs_per_gpu=1, size=8192")
            alone8192 = r;
    }
    ASSERT_GE(shared, 0);
    ASSERT_GE(alone8192, 0);
    auto config = [&](int row, const char* column) {
        return configurations->index(row, columnOf(configurations, column)).data().toString();
    };
    // Its 6 runs ran two at a time on one GPU: its replicates are the 3 workloads (each its jobs'
    // mean), as test_insights computes independently, and the cell says so.
    EXPECT_EQ(config(shared, "N"), "3 workloads");
    EXPECT_TRUE(configurations->index(shared, columnOf(configurations, "N"))
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith("N counts workloads, not runs: its 6 runs shared GPUs in 3 workloads"));
    EXPECT_EQ(config(alone8192, "N"), "3");
    // Each mean to the precision of its interval.
    EXPECT_EQ(config(shared, "Duration\nmean ± CI95"), "18.5382 ± 0.0038 s");
    EXPECT_EQ(config(shared, "GPU energy\nmean ± CI95"), "4.037 ± 0.070 kJ");
    EXPECT_EQ(config(shared, "Configuration"), "iters=60 runs_per_gpu=2") << "named as radt report names it";
    EXPECT_EQ(config(shared, "#"), "#1") << "in radt report's order";
    EXPECT_EQ(config(shared, "Frontier"), "yes");
    EXPECT_EQ(config(alone8192, "Duration\nmean ± CI95"), "13.1 ± 4.4 s");
    EXPECT_EQ(config(alone8192, "GPU energy\nmean ± CI95"), "4.22 ± 0.31 kJ");
    EXPECT_EQ(config(alone8192, "Frontier"), "") << "8192 alone: slower and dearer than 4096 alone";
    EXPECT_TRUE(configurations->index(shared, columnOf(configurations, "GPU energy\nmean ± CI95"))
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith("N=3, sd "));
    // The Comparisons tab: every pair for duration and energy, with Welch's p and N on both sides.
    const QAbstractItemModel* comparisons = insights->comparisons();
    ASSERT_EQ(comparisons->rowCount(), 6) << "3 pairs x 2 figures";
    const nlohmann::json& first = insights->report()["comparisons"][0];
    const nlohmann::json& named = insights->report()["configurations"];
    EXPECT_EQ(comparisons->index(0, columnOf(comparisons, "Compared")).data().toString().toStdString(),
              named[first["b"].get<size_t>()]["label"].get<std::string>() + " vs " +
                  named[first["a"].get<size_t>()]["label"].get<std::string>());
    EXPECT_TRUE(comparisons->index(0, columnOf(comparisons, "p (Holm)"))
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("Holm-Bonferroni"));
    EXPECT_FALSE(comparisons->index(0, columnOf(comparisons, "Difference b - a\n[95 % CI]"))
                     .data()
                     .toString()
                     .isEmpty());
    EXPECT_EQ(comparisons->index(0, columnOf(comparisons, "N a / b")).data().toString(),
              QStringLiteral("%1 / %2").arg(first["n_a"].get<int>()).arg(first["n_b"].get<int>()));
    const double p = first["p_value"].get<double>();
    EXPECT_TRUE(comparisons->index(0, columnOf(comparisons, "p"))
                    .data()
                    .toString()
                    .startsWith(p < 0.001 ? QStringLiteral("< 0.001") : QString::number(p, 'f', 3)));
    EXPECT_TRUE(comparisons->index(0, columnOf(comparisons, "p"))
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("p = %1\n").arg(p, 0, 'g', 3)))
        << "the exact p, 3 significant digits, where the cell says < 0.001";
    EXPECT_TRUE(
        comparisons->index(0, columnOf(comparisons, "p (Holm)"))
            .data(Qt::ToolTipRole)
            .toString()
            .startsWith(QStringLiteral("p (Holm) = %1\n").arg(first["p_adjusted"].get<double>(), 0, 'g', 3)));
    EXPECT_EQ(insights->footer().contains("Configurations"), false) << "the tab shows them, not the footer";

    auto* figure = insights->findChild<QComboBox*>();
    ASSERT_TRUE(figure);
    const int frontier = figure->findText("Efficiency frontier (configurations)");
    ASSERT_GE(frontier, 0);
    figure->setCurrentIndex(frontier);
    EXPECT_TRUE(insights->chart()->title().contains("3 configuration(s)"))
        << insights->chart()->title().toStdString();
    QStringList onFront, dominated;
    for (QtCharts::QAbstractSeries* s : insights->chart()->series())
        if (auto* scatter = qobject_cast<QtCharts::QScatterSeries*>(s)) {
            EXPECT_EQ(scatter->count(), 1);
            (scatter->name().endsWith(", frontier") ? onFront : dominated) << scatter->name();
        }
    EXPECT_EQ(onFront.size(), 2) << "4096 alone and the shared runs: " << onFront.join(" | ").toStdString();
    ASSERT_EQ(dominated.size(), 1);
    EXPECT_EQ(dominated.front(), "iters=60 runs_per_gpu=1 (N=3)")
        << "8192 alone: slower and dearer than 4096 alone: " << dominated.front().toStdString();
    EXPECT_TRUE(insights->chart()->legend()->isVisible());

    // Input stalls on demand: the selected run's GPU utilisation with its stalls
    // shaded, and the same share as the report's figure for it.
    const int stalls = figure->findText("Input stalls (selected run)");
    ASSERT_GE(stalls, 0);
    figure->setCurrentIndex(stalls);
    EXPECT_TRUE(insights->chart()->title().startsWith("Input stalls: reading")) << "read on the worker";
    ASSERT_TRUE(insights->waitForResult(20000));
    const QString firstRow = insights->table()->index(0, 0).data(Qt::UserRole + 2).toString();
    double share = -1;
    for (const auto& r : insights->report()["runs"])
        if (r["run_uuid"] == firstRow.toStdString())
            share = r["input_stall_share"].get<double>();
    ASSERT_GE(share, 0);
    const QString stallTitle = insights->chart()->title();
    EXPECT_TRUE(
        stallTitle.endsWith(QStringLiteral("input stalls %1 % of the time").arg(share * 100, 0, 'f', 1)))
        << stallTitle.toStdString();
    ASSERT_EQ(insights->chart()->series().size(), 2);
    EXPECT_EQ(insights->chart()->series().front()->name(), "stall: GPU under 10 %, CPU ≥ 0.8 cores");
    EXPECT_EQ(insights->chart()->series().back()->name(), "SMI - GPU Util");

    // The repeat params are a setting: without seed every run is a configuration of its own.
    auto* repeats = insights->findChild<QLineEdit*>();
    ASSERT_TRUE(repeats);
    EXPECT_EQ(repeats->text(), "seed");
    repeats->setText("");
    emit repeats->editingFinished();
    ASSERT_TRUE(insights->waitForResult(20000));
    EXPECT_EQ(insights->report()["configurations"].size(), 12u);
    repeats->setText("seed");
    emit repeats->editingFinished();
    ASSERT_TRUE(insights->waitForResult(20000));
    EXPECT_EQ(insights->report()["configurations"].size(), 3u);

    // Paper tables from the view, as radt report --latex / --csv print them.
    const QString tex = QString::fromStdString(dir.file("configurations.tex"));
    insights->exportConfigurations(tex);
    EXPECT_NE(test::readFile(tex.toStdString()).find("\\toprule"), std::string::npos);
    const QString csvPath = QString::fromStdString(dir.file("configurations.csv"));
    insights->exportConfigurations(csvPath);
    EXPECT_EQ(test::readFile(csvPath.toStdString()).rfind("configuration,label,n,replicate,runs,params,", 0),
              0u);

    // Clear all: the footer, the tables and the chart are empty at once, not after a recompute.
    window.clearBasket();
    EXPECT_EQ(insights->footer(), QString());
    EXPECT_EQ(insights->table()->rowCount(), 0);
    EXPECT_EQ(insights->configurations()->rowCount(), 0);
    EXPECT_EQ(insights->comparisons()->rowCount(), 0);
    EXPECT_EQ(insights->chart()->series().size(), 0);
    // And an export of the empty basket has radt report's shape.
    const QString path = QString::fromStdString(dir.file("empty.json"));
    insights->exportJson(path);
    const auto empty = nlohmann::json::parse(test::readFile(path.toStdString()));
    for (const char* key : {"runs", "configurations", "comparisons", "pareto", "workloads"})
        EXPECT_TRUE(empty[key].is_array() && empty[key].empty()) << key;
    figure->setCurrentIndex(0);
}

// A window closed while a report is being computed: the task on the worker thread then holds the
// last reference to the worker. Its thread cannot wait for itself; it must end on its own and
// take nothing down with it (it aborted with "QThread: Destroyed while thread is still running").
TEST(InsightsView, ClosingTheViewMidReportEndsTheWorkerWithoutAbort) {
    test::TempDir dir;
    const std::string db = dir.file("h200.db");
    std::filesystem::copy_file(test::fixturePath("runs/h200_matmul_experiment.db"), db);
    QStringList all;
    for (const radt::Run& r : openStore(db, OpenMode::OpenExisting)->runs())
        all << QString::fromStdString(r.uuid);
    ASSERT_EQ(all.size(), 12);
    auto* insights = new InsightsPanel;
    insights->setStore(QString::fromStdString("sqlite:///" + db));
    insights->setRuns(all);
    bool deletedMidReport = false;
    // The first progress report arrives while the task still has 11 runs to read.
    QObject::connect(insights, &InsightsPanel::progress, insights, [&](int done, int total) {
        if (!deletedMidReport && done < total) {
            deletedMidReport = true;
            insights->deleteLater();
        }
    });
    insights->refresh();
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 3000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    EXPECT_TRUE(deletedMidReport) << "the report never reported progress";
}

// A sweep of 3 batch sizes x 4 seeds is three bars, each its configuration's mean with
// its 95 % CI whisker and N, labelled by its params, in radt report's order and with its numbers;
// per run, twelve bars named as the chart's legend names lines.
TEST(InsightsView, TheBarsOfASweepAreItsConfigurationsWithTheirIntervals) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("sweep.db");
    QStringList all;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        for (const std::string& uuid : test::addBatchSizeSweep(*store))
            all << QString::fromStdString(uuid);
    }
    InsightsPanel insights;
    insights.setStore(QString::fromStdString(uri));
    insights.setRuns(all);
    insights.refresh();
    ASSERT_TRUE(insights.waitForResult(20000));
    ASSERT_TRUE(insights.lastError().isEmpty()) << insights.lastError().toStdString();
    auto* figure = insights.findChild<QComboBox*>();
    figure->setCurrentIndex(figure->findData(QStringLiteral("duration_s")));
    QtCharts::QChart* chart = insights.chart();
    EXPECT_EQ(chart->title(), "Duration (s): mean and 95 % CI per configuration");
    auto* bars = qobject_cast<QtCharts::QAbstractBarSeries*>(chart->series().front());
    ASSERT_TRUE(bars);
    auto* names = qobject_cast<QtCharts::QBarCategoryAxis*>(chart->axes(Qt::Horizontal).front());
    ASSERT_TRUE(names);
    EXPECT_EQ(names->categories(),
              (QStringList{"batch-size=64<br>N=4", "batch-size=128<br>N=4", "batch-size=256<br>N=4"}));
    // Each bar and whisker is the Configurations tab's and radt report's mean and interval.
    const nlohmann::json& configurations = insights.report()["configurations"];
    std::vector<QtCharts::QLineSeries*> whiskers;
    for (QtCharts::QAbstractSeries* s : chart->series())
        if (auto* line = qobject_cast<QtCharts::QLineSeries*>(s))
            whiskers.push_back(line);
    ASSERT_EQ(whiskers.size(), 3u);
    for (int c = 0; c < 3; ++c) {
        const nlohmann::json& stat = configurations[c]["stats"]["duration_s"];
        EXPECT_NEAR(bars->barSets().front()->at(c), stat["mean"].get<double>(), 1e-9);
        double low = 1e300, high = -1e300;
        for (const QPointF& p : whiskers[size_t(c)]->points()) {
            EXPECT_NEAR(p.x(), c, 0.2) << "the whisker stands on its bar";
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
        EXPECT_NEAR(low, stat["ci95"][0].get<double>(), 1e-9);
        EXPECT_NEAR(high, stat["ci95"][1].get<double>(), 1e-9);
    }
    EXPECT_NEAR(bars->barSets().front()->at(0), 31.75, 1e-9) << "batch size 64: (30+32+31+34)/4 s";

    // Per run: twelve bars, named by what tells the runs apart, as the legend names their lines
    // (seed first: it tells more runs apart than the batch size does).
    insights.findChild<QCheckBox*>()->setChecked(true);
    auto* runNames = qobject_cast<QtCharts::QBarCategoryAxis*>(chart->axes(Qt::Horizontal).front());
    ASSERT_TRUE(runNames);
    ASSERT_EQ(runNames->count(), 12);
    EXPECT_TRUE(runNames->categories().contains("seed=1 batch-size=64"))
        << runNames->categories().join(", ").toStdString();
    EXPECT_TRUE(runNames->categories().contains("seed=4 batch-size=256"));
}

// The collocation verdict on screen, from the real H100 MPS recording: per collocated
// configuration (its workloads under it), time together and one after another alone, throughput
// gain and energy per job with their intervals; exported as radt report --table collocation is.
TEST(InsightsView, TheCollocationTabSaysWhetherSharingTheGpuPaidOff) {
    test::TempDir dir;
    const std::string db = dir.file("mps.db");
    std::filesystem::copy_file(test::fixturePath("runs/h100_mps_experiment.db"), db);
    QStringList all, solo;
    for (const radt::Run& r : openStore(db, OpenMode::OpenExisting)->runs()) {
        all << QString::fromStdString(r.uuid);
        if (r.workload() == "1" || r.workload() == "2")
            solo << QString::fromStdString(r.uuid);
    }
    ASSERT_EQ(all.size(), 8);
    InsightsPanel insights;
    insights.setStore(QString::fromStdString("sqlite:///" + db));
    insights.setRuns(all);
    insights.refresh();
    ASSERT_TRUE(insights.waitForResult(20000));
    ASSERT_TRUE(insights.lastError().isEmpty()) << insights.lastError().toStdString();
    const QAbstractItemModel* model = insights.collocation();
    auto cell = [&](int row, const char* column) {
        return model->index(row, columnOf(model, column)).data().toString();
    };
    // The time-sliced pair (one workload), then the MPS pairs with their two workloads under them.
    ASSERT_EQ(model->rowCount(), 4);
    EXPECT_EQ(cell(0, "Collocated"), "runs_per_gpu=2");
    EXPECT_EQ(cell(1, "Collocated"), "collocation=MPS runs_per_gpu=2");
    EXPECT_EQ(cell(1, "N"), "2");
    EXPECT_EQ(cell(2, "Collocated").trimmed(), "workload 1-4");
    EXPECT_EQ(cell(3, "Collocated").trimmed(), "workload 1-5");
    EXPECT_EQ(cell(1, "Together"), "28.11 ± 0.63 s");
    EXPECT_EQ(cell(1, "Alone"), "36.100 ± 0.025 s");
    EXPECT_EQ(cell(1, "Throughput"), "×1.284 [1.256, 1.314]");
    EXPECT_EQ(cell(0, "Throughput"), "×1.163 [1.162, 1.164]") << "a ratio to 0.1 % at most";
    EXPECT_EQ(cell(1, "Energy vs alone"), "×0.971 [0.948, 0.994]");
    EXPECT_EQ(cell(1, "Energy/job"), "7.28 ± 0.33 kJ");
    EXPECT_TRUE(model->index(0, columnOf(model, "Throughput"))
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("solo runs only"));
    // Above the table, the verdict in a sentence each; the single workload's caveat marked in its N
    // cell and said under the sentences, not only in a tooltip.
    EXPECT_EQ(cell(0, "N"), "1 *");
    const QString note = insights.findChild<QLabel*>("collocationNote")->text();
    EXPECT_TRUE(
        note.contains(QStringLiteral("<b>collocation=MPS runs_per_gpu=2</b>: Sharing the GPU did ×1.284 "
                                     "[1.256, 1.314] the work per hour at ×0.971 [0.948, 0.994] the "
                                     "energy per job: it paid off")))
        << note.toStdString() << " (ratios written as the table writes them)";
    EXPECT_TRUE(
        note.contains(QStringLiteral("<b>runs_per_gpu=2</b>: Sharing the GPU did ×1.163 [1.162, 1.164]")))
        << note.toStdString();
    EXPECT_TRUE(note.contains("* one workload: its intervals cover only the solo runs' spread"))
        << note.toStdString();
    // The paper table and the CSV are radt report's.
    insights.exportCollocation(QString::fromStdString(dir.file("collocation.tex")));
    insights.exportCollocation(QString::fromStdString(dir.file("collocation.csv")));
    EXPECT_NE(test::readFile(dir.file("collocation.tex")).find("$1.284$"), std::string::npos);
    EXPECT_EQ(test::readFile(dir.file("collocation.csv")).rfind("label,n,jobs,workloads,", 0), 0u);

    // Only the collocated runs in the basket: their solo runs are still found in the store.
    QStringList collocated = all;
    for (const QString& uuid : solo)
        collocated.removeAll(uuid);
    insights.setRuns(collocated);
    insights.refresh();
    ASSERT_TRUE(insights.waitForResult(20000));
    EXPECT_EQ(model->rowCount(), 4);
    EXPECT_EQ(cell(1, "Throughput"), "×1.284 [1.256, 1.314]");
    // Only the solo runs: nothing shared a GPU, and the tab says what to add.
    insights.setRuns(solo);
    insights.refresh();
    ASSERT_TRUE(insights.waitForResult(20000));
    EXPECT_EQ(model->rowCount(), 0);
    EXPECT_TRUE(insights.findChild<QLabel*>("collocationNote")
                    ->text()
                    .startsWith("No workload in the basket ran jobs together"))
        << insights.findChild<QLabel*>("collocationNote")->text().toStdString();
}

// Basket > Insights (Ctrl+I) always ends with the view shown and on top; as the
// dock's toggle, it hid a floating view that had been restored behind the main window.
TEST(InsightsView, CtrlIAlwaysEndsWithTheViewShown) {
    MainWindow window;
    window.resize(1024, 700);
    window.show();
    QAction* insights = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(QStringLiteral("Ctrl+I")))
            insights = a;
    ASSERT_TRUE(insights);
    for (int press = 1; press <= 3; ++press) {
        insights->trigger();
        EXPECT_TRUE(test::dockOf(window, "insights")->isVisible()) << "press " << press;
    }
    test::dockOf(window, "insights")->close(); // its close button hides it
    EXPECT_FALSE(test::dockOf(window, "insights")->isVisible());
    insights->trigger();
    EXPECT_TRUE(test::dockOf(window, "insights")->isVisible());
}
