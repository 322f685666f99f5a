// SPDX-License-Identifier: MIT
// The Insights tables in a 1024 px window: each tab's table shows every column it shows without a
// sideways scroll, its name column stays in view while scrolling, the runs table leads with the
// params that tell the runs apart, a column chooser hides and brings back columns (kept), and
// names are shortened where they share a prefix, never where they differ. On the real H100 MPS
// recording (tests/fixtures/runs/h100_mps_experiment.db).
#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/common/TableLayout.h"
#include "widgets/insights/InsightRunsModel.h"
#include "widgets/insights/InsightsPanel.h"

#include <QApplication>
#include <QFontMetrics>
#include <QHeaderView>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QUrl>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QChart>

#include <filesystem>

#include <gtest/gtest.h>

using namespace radt;

namespace {

/// Waits, processing events, until `condition` holds (QTest::qWaitFor), 5 s at most.
template <typename Condition> bool waitFor(Condition condition) {
    return QTest::qWaitFor(condition, 5000);
}

QStringList shownHeaders(const QTableView* table) {
    QStringList out;
    for (int c = 0; c < table->model()->columnCount(); ++c)
        if (!table->isColumnHidden(c))
            out << table->model()->headerData(c, Qt::Horizontal).toString();
    return out;
}

} // namespace

// Outside the anonymous namespace: the tests derive from it (GCC's -Wsubobject-linkage).
class InsightsFit : public ::testing::Test {
protected:
    void SetUp() override {
        QSettings().remove(QStringLiteral("columns")); // the defaults, whatever a test chose before
        std::filesystem::copy_file(test::fixturePath("runs/h100_mps_experiment.db"), m_db);
        for (const radt::Run& r : openStore(m_db, OpenMode::OpenExisting)->runs())
            m_runs << QString::fromStdString(r.uuid);
        m_panel.setStore(QString::fromStdString("sqlite:///" + m_db));
    }
    void compute(int width, int height) {
        m_panel.resize(width, height);
        m_panel.show();
        m_panel.setRuns(m_runs);
        m_panel.refresh();
        ASSERT_TRUE(m_panel.waitForResult(20000));
        ASSERT_TRUE(m_panel.lastError().isEmpty()) << m_panel.lastError().toStdString();
    }
    QTabWidget* tabs() const { return m_panel.findChild<QTabWidget*>(); }
    QTableView* tableOf(int tab) const {
        QWidget* page = tabs()->widget(tab);
        if (auto* table = qobject_cast<QTableView*>(page))
            return table;
        return page->findChild<QTableView*>(QString(), Qt::FindDirectChildrenOnly);
    }

    test::TempDir m_dir;
    std::string m_db = m_dir.file("mps.db");
    QStringList m_runs;
    InsightsPanel m_panel;
};

// The Insights view docked under a 1024x700 window is about 1000 px wide: the Configurations,
// Comparisons and Collocation tabs then show each column they show without a sideways scroll,
// beside the chart.
TEST_F(InsightsFit, EachAnswerTabFitsBesideTheChartInA1024PxWindow) {
    compute(1000, 480);
    for (int tab = 1; tab <= 3; ++tab) {
        tabs()->setCurrentIndex(tab);
        QTableView* table = tableOf(tab);
        ASSERT_TRUE(table) << tab;
        EXPECT_TRUE(waitFor([&] {
            return table->isVisible() && table->horizontalScrollBar()->maximum() == 0 &&
                   table->model()->rowCount() > 0;
        })) << tabs()->tabText(tab).toStdString()
            << ": scrolls by " << table->horizontalScrollBar()->maximum() << " px; shows "
            << shownHeaders(table).join(" | ").toStdString();
    }
    // What each shows by default: the verdict's numbers, the rest one right-click away.
    EXPECT_EQ(shownHeaders(tableOf(1)).mid(0, 4),
              (QStringList{"Configuration", "N", "Duration\nmean ± CI95", "GPU energy\nmean ± CI95"}));
    EXPECT_TRUE(shownHeaders(tableOf(2)).contains("p (Holm)"));
    EXPECT_TRUE(shownHeaders(tableOf(2)).contains("N a / b"));
    EXPECT_TRUE(shownHeaders(tableOf(3)).contains("Energy vs alone"));
    EXPECT_FALSE(shownHeaders(tableOf(3)).contains("Alone"));
}

// The runs table: the params that tell the runs apart right after the name, and the name kept in
// view (an overlay over column 0) while the figures scroll sideways.
TEST_F(InsightsFit, TheRunsTableLeadsWithTheParamsAndKeepsTheNameInView) {
    compute(1000, 480);
    tabs()->setCurrentIndex(0);
    const QAbstractItemModel* model = m_panel.table();
    ASSERT_EQ(model->rowCount(), 8);
    EXPECT_EQ(model->headerData(0, Qt::Horizontal).toString(), "Run");
    EXPECT_EQ(model->headerData(1, Qt::Horizontal).toString(), "collocation");
    EXPECT_EQ(model->headerData(2, Qt::Horizontal).toString(), "runs_per_gpu");
    QStringList perGpu;
    for (int r = 0; r < model->rowCount(); ++r)
        perGpu << model->index(r, 2).data().toString();
    EXPECT_EQ(perGpu.count("1"), 2) << perGpu.join(",").toStdString();
    EXPECT_EQ(perGpu.count("2"), 6);
    auto* table = m_panel.findChild<QTableView*>(QStringLiteral("insightsRunTable"));
    auto* frozen = m_panel.findChild<QTableView*>(QStringLiteral("insightsRunTableFrozen"));
    ASSERT_TRUE(table && frozen);
    ASSERT_TRUE(waitFor([&] { return table->horizontalScrollBar()->maximum() > 0; }))
        << "about 20 figures do not fit 1000 px";
    table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
    QApplication::processEvents();
    EXPECT_TRUE(frozen->isVisible());
    EXPECT_EQ(frozen->columnWidth(0), table->columnWidth(0));
    EXPECT_EQ(frozen->geometry().left(), table->frameWidth()) << "over the first column, at the left";
    for (int c = 1; c < model->columnCount(); ++c)
        EXPECT_TRUE(frozen->isColumnHidden(c)) << c;
    // A click on the frozen name selects the run's row in the table (one selection for both).
    frozen->selectRow(3);
    EXPECT_EQ(table->selectionModel()->selectedRows().size(), 1);
    EXPECT_EQ(table->selectionModel()->selectedRows().front().row(), 3);
    // A sort from the frozen header sorts the table.
    frozen->sortByColumn(0, Qt::DescendingOrder);
    EXPECT_EQ(table->horizontalHeader()->sortIndicatorSection(), 0);
    EXPECT_EQ(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
}

// A column the user brings back stays back, for this table, after a refill and in the next session.
TEST_F(InsightsFit, AColumnChosenInTheHeadersMenuIsKept) {
    compute(1000, 480);
    QTableView* configurations = tableOf(1);
    const QString util = QStringLiteral("GPU util %\nmean ± CI95");
    ASSERT_TRUE(waitFor([&] { return configurations->model()->rowCount() == 3; }));
    int column = -1;
    for (int c = 0; c < configurations->model()->columnCount(); ++c)
        if (configurations->model()->headerData(c, Qt::Horizontal).toString() == util)
            column = c;
    ASSERT_GE(column, 0);
    ASSERT_TRUE(waitFor([&] { return configurations->isColumnHidden(column); })) << "hidden by default";
    // What the menu's action does: the choice kept under the table's name and the header's text.
    QSettings().setValue(QStringLiteral("columns/configurationsTable/") +
                             QString::fromLatin1(QUrl::toPercentEncoding(util)),
                         true);
    m_panel.refresh();
    ASSERT_TRUE(m_panel.waitForResult(20000));
    EXPECT_TRUE(waitFor([&] { return !configurations->isColumnHidden(column); }));
    EXPECT_TRUE(shownHeaders(tableOf(0)).contains("Run"));
}

// The bars' names lie flat where they fit under their bars, on their side where they do not.
TEST_F(InsightsFit, BarNamesLieFlatWhereTheyFit) {
    compute(1900, 600);
    auto* axis = qobject_cast<QtCharts::QBarCategoryAxis*>(m_panel.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_TRUE(axis);
    EXPECT_TRUE(waitFor([&] { return axis->categories().contains("runs_per_gpu=1 (N=2)"); }))
        << axis->categories().join(" | ").toStdString() << " in " << m_panel.chart()->plotArea().width()
        << " px";
    EXPECT_EQ(axis->labelsAngle(), 0);
    m_panel.resize(700, 480);
    EXPECT_TRUE(waitFor([&] { return axis->labelsAngle() == -90; })) << "three long names do not fit 700 px";
}

// Names too long for their room lose the middle of the prefix they share, never the part that
// tells them apart (QtCharts' own cut: "batch-siz…" three times).
TEST(ElideInCommonPrefix, KeepsThePartThatTellsNamesApart) {
    const QFontMetrics metrics(QApplication::font());
    const QStringList names{"batch-size=64 (N=4)", "batch-size=128 (N=4)", "batch-size=256 (N=3)"};
    const int room = metrics.horizontalAdvance(QStringLiteral("batch…=128 (N=4)"));
    const QStringList shown = elideInCommonPrefix(names, metrics, room);
    ASSERT_EQ(shown.size(), 3);
    EXPECT_TRUE(shown[0].endsWith("=64 (N=4)")) << shown[0].toStdString();
    EXPECT_TRUE(shown[1].endsWith("=128 (N=4)")) << shown[1].toStdString();
    EXPECT_TRUE(shown[2].endsWith("=256 (N=3)")) << shown[2].toStdString();
    for (const QString& s : shown) {
        EXPECT_TRUE(s.contains(QStringLiteral("…"))) << s.toStdString();
        EXPECT_LE(metrics.horizontalAdvance(s), room) << s.toStdString();
        EXPECT_TRUE(s.startsWith("b")) << "the start of the shared prefix stays: " << s.toStdString();
    }
    // Names that fit are left alone; one name alone has no shared prefix and is cut in its middle.
    EXPECT_EQ(elideInCommonPrefix(names, metrics, 10000), names);
    const QStringList alone = elideInCommonPrefix({"collocation=MPS runs_per_gpu=2"}, metrics, room);
    EXPECT_TRUE(alone.front().contains(QStringLiteral("…")));
    EXPECT_LE(metrics.horizontalAdvance(alone.front()), room);
}
