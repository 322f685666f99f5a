// SPDX-License-Identifier: MIT
// Basket > Parallel Coordinates in the window: a real SQLite sweep store (3 batch
// sizes x 4 seeds), the view read off the GUI thread, brushed with real mouse events on its axes,
// the brushed runs put in the basket or made the basket with its buttons, a run named by hovering,
// the scatter, and the exports (PNG, SVG, PDF, CSV). Real widgets, offscreen.

#include "GuiTestSupport.h"
#include "SweepTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "widgets/compare/CompareExport.h"
#include "widgets/compare/ComparePanel.h"
#include "widgets/compare/ParallelPlot.h"
#include "widgets/compare/ScatterPlot.h"
#include "widgets/runs/BasketModel.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QMouseEvent>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace radt;

namespace {

class ParallelView : public ::testing::Test {
protected:
    void SetUp() override {
        {
            auto store = openStore(uri(), OpenMode::CreateIfMissing);
            m_runs = test::addSweepRuns(*store);
        }
        QString error;
        ASSERT_TRUE(m_window.openStore(QString::fromStdString(uri()), &error)) << error.toStdString();
        m_window.resize(1280, 800);
        m_window.show();
        m_panel = test::partOf<ComparePanel>(m_window);
        ASSERT_NE(m_panel, nullptr);
    }
    std::string uri() const { return "sqlite:///" + m_dir.file("sweep.db"); }
    QStringList uuidsWhere(const std::function<bool(const test::SweepRun&)>& pick) const {
        QStringList out;
        for (const test::SweepRun& r : m_runs)
            if (pick(r))
                out << QString::fromStdString(r.uuid);
        return out;
    }
    /// A mouse move delivered to `widget` as QTest delivers a press (Qt 5's QTest::mouseMove moves
    /// the cursor instead, and offscreen that reaches whichever window lies under it).
    static void moveMouse(QWidget* widget, const QPoint& pos, Qt::MouseButtons buttons = Qt::NoButton) {
        QMouseEvent move(QEvent::MouseMove, pos, widget->mapToGlobal(pos), Qt::NoButton, buttons,
                         Qt::NoModifier);
        QApplication::sendEvent(widget, &move);
    }
    static std::set<QString> asSet(const QStringList& list) { return {list.begin(), list.end()}; }
    /// Basket > Parallel Coordinates, and the read it starts landed.
    void openView() {
        QAction* action = test::menuAction(m_window, QStringLiteral("Parallel Coordinates"));
        ASSERT_NE(action, nullptr);
        action->trigger();
        ASSERT_TRUE(test::dockOf(m_window, "parallel")->isVisible());
        ASSERT_TRUE(m_panel->waitForResult(30000));
        m_panel->plot()->resize(1100, 520);
        QApplication::processEvents();
    }
    /// Drags along axis `axis` of the plot from value `from` to value `to`, as a user does.
    void brush(int axis, double from, double to) {
        ParallelPlot* plot = m_panel->plot();
        const ParallelEngine& engine = m_panel->engine();
        const int x = int(std::lround(engine.axisX(axis)));
        const QPoint start(x, int(std::lround(engine.scale(axis).toPixel(from))));
        const QPoint end(x, int(std::lround(engine.scale(axis).toPixel(to))));
        QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, start);
        moveMouse(plot, (start + end) / 2, Qt::LeftButton);
        moveMouse(plot, end, Qt::LeftButton);
        QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, end);
    }
    QPushButton* button(const QString& text) const {
        for (QPushButton* b : m_panel->findChildren<QPushButton*>())
            if (b->text() == text)
                return b;
        ADD_FAILURE() << "no button " << text.toStdString();
        return nullptr;
    }

    test::TempDir m_dir;
    std::vector<test::SweepRun> m_runs;
    MainWindow m_window;
    ComparePanel* m_panel = nullptr;
};

} // namespace

TEST_F(ParallelView, BrushingWithTheMouseSelectsTheRunsAndTheBasketFollows) {
    // The basket: batch sizes 64 and 128 (8 runs).
    ASSERT_EQ(m_window.addRunsToBasket(uuidsWhere([](const test::SweepRun& r) { return r.batch <= 128; })),
              8);
    openView();
    ParallelEngine& engine = m_panel->engine();
    ASSERT_EQ(engine.runCount(), 8u);
    ASSERT_EQ(engine.axisIds().mid(0, 2), (QStringList{"param:batch-size", "param:seed"}));
    EXPECT_TRUE(engine.axisIds().contains("figure:duration_s"));
    EXPECT_TRUE(engine.axisIds().contains("metric:last:accuracy"));
    EXPECT_TRUE(m_panel->statusText().startsWith("8 runs shown")) << m_panel->statusText().toStdString();

    // Drag over the batch-size axis around 128 (category 1 of 64, 128): its 4 runs.
    QSignalSpy brushed(m_panel, &ComparePanel::brushed);
    brush(0, 0.6, 1.4);
    EXPECT_EQ(asSet(engine.selectedUuids()),
              asSet(uuidsWhere([](const test::SweepRun& r) { return r.batch == 128; })));
    EXPECT_GE(brushed.count(), 1);
    // And seeds 1 to 2 on the seed axis: the brushes AND together.
    brush(1, -0.4, 1.4);
    const QStringList kept =
        uuidsWhere([](const test::SweepRun& r) { return r.batch == 128 && r.seed <= 2; });
    EXPECT_EQ(asSet(engine.selectedUuids()), asSet(kept));
    EXPECT_TRUE(m_panel->statusText().contains("2 brushed")) << m_panel->statusText().toStdString();
    // The brushed runs are selected where else they are listed: the basket.
    QStringList selected;
    QTreeView* basket = test::partOf<BasketPanel>(m_window)->view();
    for (const QModelIndex& row : basket->selectionModel()->selectedRows())
        selected << row.data(BasketModel::RunUuidRole).toString();
    EXPECT_EQ(asSet(selected), asSet(kept)) << "brushed in the plot, selected in the basket";
    // Every run shown is in the basket: nothing to add.
    EXPECT_FALSE(button("Add Brushed to Basket")->isEnabled());

    // Keep Only Brushed: the basket becomes those two runs; the view follows it.
    QTest::mouseClick(button("Keep Only Brushed"), Qt::LeftButton);
    EXPECT_EQ(asSet(m_window.basketRunUuids()), asSet(kept));
    ASSERT_TRUE(m_panel->waitForResult(30000));
    EXPECT_EQ(engine.runCount(), 2u);

    // Every run of the basket's experiment: 12 runs; brush batch 256 and add its runs.
    m_panel->findChild<QComboBox*>("scope")->setCurrentIndex(1); // what is compared
    ASSERT_TRUE(m_panel->waitForResult(30000));
    ASSERT_EQ(engine.runCount(), 12u);
    engine.clearBrushes();
    m_panel->plot()->resize(1100, 520);
    QApplication::processEvents();
    brush(0, 1.6, 2.4);
    const QStringList big = uuidsWhere([](const test::SweepRun& r) { return r.batch == 256; });
    EXPECT_EQ(asSet(engine.selectedUuids()), asSet(big));
    ASSERT_TRUE(button("Add Brushed to Basket")->isEnabled());
    QTest::mouseClick(button("Add Brushed to Basket"), Qt::LeftButton);
    EXPECT_EQ(asSet(m_window.basketRunUuids()), asSet(kept + big));

    // A click on a brushed axis clears its brush: every run again.
    const QPoint onAxis(int(engine.axisX(0)), int(engine.plotRect().center().y()));
    QTest::mouseClick(m_panel->plot(), Qt::LeftButton, Qt::NoModifier, onAxis);
    EXPECT_FALSE(engine.hasBrush());
}

// Per configuration: the sweep's twelve runs are three lines (3 batch sizes; the seed they repeat
// over is no axis), each figure the mean of its four runs; brushing one keeps its runs.
TEST_F(ParallelView, PerConfigurationALineIsAConfigurationAndBrushingItKeepsItsRuns) {
    ASSERT_EQ(m_window.addRunsToBasket(uuidsWhere([](const test::SweepRun&) { return true; })), 12);
    openView();
    m_panel->setPerConfiguration(true);
    ASSERT_TRUE(m_panel->waitForResult(30000));
    ParallelEngine& engine = m_panel->engine();
    ASSERT_EQ(engine.runCount(), 3u);
    EXPECT_FALSE(engine.axisIds().contains("param:seed")) << "its runs differ in it";
    EXPECT_TRUE(engine.axisIds().contains("param:batch-size"));
    EXPECT_EQ(engine.table().runs[0].name, "batch-size=64 (N=4)");
    EXPECT_TRUE(m_panel->statusText().startsWith("3 configurations shown"))
        << m_panel->statusText().toStdString();
    const int duration = engine.table().column("figure:duration_s");
    ASSERT_GE(duration, 0);
    // Batch size 64's runs took 101 to 104 s: their mean.
    EXPECT_NEAR(engine.table().columns[size_t(duration)].values[0], 102.5, 1e-9);
    brush(0, 0.6, 1.4); // batch size 128
    EXPECT_EQ(engine.selectedUuids(), QStringList{"config:1"});
    m_panel->keepBrushedOnly();
    EXPECT_EQ(asSet(m_window.basketRunUuids()),
              asSet(uuidsWhere([](const test::SweepRun& r) { return r.batch == 128; })));
}

TEST_F(ParallelView, HoveringALineOrAPointNamesItsRun) {
    m_window.addRunsToBasket(uuidsWhere([](const test::SweepRun&) { return true; }));
    openView();
    const ParallelEngine& engine = m_panel->engine();
    ASSERT_GE(engine.axisCount(), 3);
    // Half way between the seed and the duration axes, on run 5's line.
    const QPointF at = (engine.point(5, 1) + engine.point(5, 2)) / 2;
    moveMouse(m_panel->plot(), at.toPoint());
    EXPECT_EQ(m_panel->plot()->hoveredRun(), 5);
    EXPECT_TRUE(engine.describeRun(5).contains(engine.table().runLabel(5)));
    // The scatter: batch size against the last accuracy.
    m_panel->showTab(1);
    m_panel->setScatterColumns("param:batch-size", "metric:last:accuracy");
    m_panel->scatterPlot()->resize(800, 500);
    QApplication::processEvents();
    ASSERT_TRUE(m_panel->scatter().isReady());
    EXPECT_EQ(m_panel->scatter().shownCount(), 12u);
    moveMouse(m_panel->scatterPlot(), m_panel->scatter().point(7).toPoint());
    EXPECT_EQ(m_panel->scatterPlot()->hoveredRun(), 7);
    // Both views draw something.
    const QImage image = m_panel->scatterPlot()->grab().toImage();
    EXPECT_GT(image.width(), 100);
}

TEST_F(ParallelView, ExportsWritePicturesAndTheRunsValues) {
    m_window.addRunsToBasket(uuidsWhere([](const test::SweepRun&) { return true; }));
    openView();
    ParallelEngine& engine = m_panel->engine();
    m_panel->setColourBy("metric:last:accuracy");
    brush(0, -0.4, 0.4); // batch size 64
    // Pictures: a PNG at twice the pixels, an SVG and a PDF, each what its format starts with.
    const QString png = QString::fromStdString(m_dir.file("view.png"));
    m_panel->exportTo(png, 2.0);
    QImage image(png);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.width(), m_panel->plot()->width() * 2);
    // Not blank: lines in colour.
    int coloured = 0;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) {
            const QColor c = image.pixelColor(x, y);
            coloured += c.saturation() > 80;
        }
    EXPECT_GT(coloured, 100);
    const QString svg = QString::fromStdString(m_dir.file("view.svg"));
    m_panel->exportTo(svg);
    const QByteArray svgText = QByteArray::fromStdString(test::readFile(svg.toStdString()));
    EXPECT_TRUE(svgText.contains("<svg")) << svgText.left(200).toStdString();
    EXPECT_TRUE(svgText.contains("batch-size"));
    m_panel->showTab(1);
    const QString pdf = QString::fromStdString(m_dir.file("scatter.pdf"));
    m_panel->exportTo(pdf);
    const std::string pdfText = test::readFile(pdf.toStdString());
    EXPECT_EQ(pdfText.substr(0, 5), "%PDF-");
    EXPECT_GT(pdfText.size(), 1000u);
    // CSV: a header with units, a row per run with its values, brushed marked.
    engine.setAxes({"param:batch-size", "param:seed", "figure:duration_s", "figure:gpu_energy_j",
                    "metric:last:accuracy"});
    const QString csv = QString::fromStdString(m_dir.file("runs.csv"));
    m_panel->exportTo(csv);
    const QStringList lines =
        QString::fromStdString(test::readFile(csv.toStdString())).split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 13);
    EXPECT_EQ(lines[0], "run_uuid,run,batch-size,seed,Duration (s),GPU energy (J),accuracy (last),brushed");
    for (const test::SweepRun& r : m_runs) {
        const auto row = std::find_if(lines.begin(), lines.end(), [&](const QString& l) {
            return l.startsWith(QString::fromStdString(r.uuid));
        });
        ASSERT_NE(row, lines.end());
        const QStringList cells = row->split(',');
        ASSERT_EQ(cells.size(), 8);
        EXPECT_EQ(cells[2], QString::number(r.batch));
        EXPECT_EQ(cells[3], QString::number(r.seed));
        EXPECT_NEAR(cells[4].toDouble(), r.durationS, 1e-9);
        EXPECT_NEAR(cells[5].toDouble(), r.watts * r.durationS, r.watts);
        EXPECT_NEAR(cells[6].toDouble(), r.accuracy.back(), 1e-9);
        EXPECT_EQ(cells[7], r.batch == 64 ? "1" : "0");
    }
    // A file that cannot be written: an error naming it, nothing left behind.
    const QString bad = QString::fromStdString(m_dir.file("no/such/folder/runs.csv"));
    EXPECT_THROW(m_panel->exportTo(bad), CompareExportError);
    EXPECT_FALSE(QFile::exists(bad));
}
