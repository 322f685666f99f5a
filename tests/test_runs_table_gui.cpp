// SPDX-License-Identifier: MIT
// The runs table (widgets/runs/RunsTablePane): the fixture runs of the search tests in a real
// store, searched with MLflow's syntax through the real read thread on SQLite and PostgreSQL,
// sorted as numbers, their selected rows sent to the basket and the basket's runs marked.

#include "RunFilterStore.h"
#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/runs/RunTreeModel.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/runs/RunsTableModel.h"
#include "widgets/runs/RunsTablePane.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

using namespace radt;

// Outside an anonymous namespace: the tests derive from it (GCC's -Wsubobject-linkage).
class RunsTableGui : public test::FixtureStoreTest {
protected:
    void SetUp() override {
        test::FixtureStoreTest::SetUp();
        for (const auto& [fixture, uuid] : m_ids)
            for (const test::FixtureRun& f : test::fixtureRuns())
                if (f.run.uuid == fixture)
                    m_names[uuid] = f.run.name;
    }

    /// Types `expression` and presses Enter, as a person does; waits for the read to land.
    int search(RunsTablePane& pane, const QString& expression) {
        QSignalSpy loaded(&pane, &RunsTablePane::loaded);
        pane.searchEdit()->setText(expression);
        QTest::keyClick(pane.searchEdit(), Qt::Key_Return);
        EXPECT_TRUE(loaded.count() > 0 || loaded.wait(20000)) << expression.toStdString();
        return loaded.isEmpty() ? -2 : loaded.last().at(0).toInt();
    }

    /// The names of column `header`'s rows from top to bottom, as the view shows them.
    static QStringList columnTexts(const QTableView* view, const QString& header) {
        const QAbstractItemModel* model = view->model();
        int column = -1;
        for (int c = 0; c < model->columnCount(); ++c)
            if (model->headerData(c, Qt::Horizontal).toString() == header)
                column = c;
        EXPECT_GE(column, 0) << header.toStdString();
        QStringList out;
        for (int r = 0; r < model->rowCount(); ++r)
            out << model->index(r, column).data().toString();
        return out;
    }

    std::map<std::string, std::string> m_names;
};

TEST_P(RunsTableGui, ASearchShowsItsRunsAndABadOneSaysWhereItWentWrong) {
    RunsTablePane pane;
    pane.resize(1000, 500);
    pane.show();
    QSignalSpy loaded(&pane, &RunsTablePane::loaded);
    pane.setStore(QString::fromStdString(m_uri));
    ASSERT_TRUE(loaded.count() > 0 || loaded.wait(20000));
    EXPECT_EQ(loaded.last().at(0).toInt(), 5);
    EXPECT_EQ(pane.statusText(), QStringLiteral("5 runs"));
    // The frozen name column covers the whole of the table's own, after its widths were fitted.
    auto* frozen = pane.findChild<QTableView*>(QStringLiteral("runsTableViewFrozen"));
    ASSERT_NE(frozen, nullptr);
    EXPECT_TRUE(QTest::qWaitFor([&] { return frozen->width() == pane.view()->columnWidth(0); }, 2000))
        << frozen->width() << " over a name column of " << pane.view()->columnWidth(0);
    EXPECT_EQ(frozen->columnWidth(0), pane.view()->columnWidth(0));

    // The latest value of a metric logged twice, a key with a dash, a string param.
    EXPECT_EQ(search(pane, QStringLiteral("metrics.loss < 1 and params.`batch-size` = '64'")), 1);
    EXPECT_EQ(columnTexts(pane.view(), QStringLiteral("Run")), QStringList{QStringLiteral("resnet bs64")});
    EXPECT_EQ(pane.statusText(), QStringLiteral("1 run matches"));
    EXPECT_EQ(search(pane, QStringLiteral("params.model LIKE 'vit%' AND attributes.status != 'FAILED'")), 1);
    EXPECT_EQ(columnTexts(pane.view(), QStringLiteral("Run")),
              QStringList{QStringLiteral("vit bs 64 (live)")});

    // A bad expression keeps the rows and says the column, with a caret under it.
    EXPECT_EQ(search(pane, QStringLiteral("metrics.loss LIKE 'x'")), -1);
    EXPECT_TRUE(pane.statusText().contains(QStringLiteral("column 14: LIKE compares text")))
        << pane.statusText().toStdString();
    EXPECT_TRUE(
        pane.statusText().contains(QStringLiteral("LIKE 'x'\n") + QString(13, QLatin1Char(' ')) + "^"))
        << pane.statusText().toStdString();
    EXPECT_EQ(pane.view()->model()->rowCount(), 1);

    // Empty: every run again.
    EXPECT_EQ(search(pane, QString()), 5);

    // Another client tags a run (its own connection, as MLflow's set_tag writes): the table keeps no
    // copy of the rows, so the same search read again finds it.
    EXPECT_EQ(search(pane, QStringLiteral("tags.team = 'robotics'")), 0);
    openStore(m_uri, OpenMode::OpenExisting)->setTags(m_ids.at("b2"), {{"team", "robotics"}});
    QSignalSpy again(&pane, &RunsTablePane::loaded);
    pane.reload();
    ASSERT_TRUE(again.wait(20000));
    EXPECT_EQ(again.last().at(0).toInt(), 1);
    EXPECT_EQ(columnTexts(pane.view(), QStringLiteral("Run")), QStringList{QStringLiteral("resnet bs128")});
}

TEST_P(RunsTableGui, ColumnsSortNumbersAsNumbersWithBlanksLast) {
    RunsTablePane pane;
    pane.show();
    QSignalSpy loaded(&pane, &RunsTablePane::loaded);
    pane.setStore(QString::fromStdString(m_uri));
    ASSERT_TRUE(loaded.count() > 0 || loaded.wait(20000));
    QTableView* view = pane.view();
    const QStringList headers = [&] {
        QStringList h;
        for (int c = 0; c < view->model()->columnCount(); ++c)
            h << view->model()->headerData(c, Qt::Horizontal).toString();
        return h;
    }();
    // The params that tell the runs apart are shown; one every run has alike would be hidden.
    const int batch = int(headers.indexOf(QStringLiteral("params.batch-size")));
    ASSERT_GE(batch, 0);
    EXPECT_FALSE(view->isColumnHidden(batch));
    EXPECT_FALSE(view->isColumnHidden(int(headers.indexOf(QStringLiteral("metrics.loss")))));
    // (The column chooser applies its defaults once the rows are in, from the event loop.)
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return view->isColumnHidden(int(headers.indexOf(QStringLiteral("tags.team")))); }));

    // "0064" is 64, "128" after "64" (text would put "128" first), the run without one last.
    view->sortByColumn(batch, Qt::AscendingOrder);
    const QStringList ascending = columnTexts(view, QStringLiteral("params.batch-size"));
    ASSERT_EQ(ascending.size(), 5);
    EXPECT_EQ(ascending.mid(3), (QStringList{"128", "256"}));
    EXPECT_EQ(std::set<QString>(ascending.begin(), ascending.begin() + 3), (std::set<QString>{"64", "0064"}));
    view->sortByColumn(batch, Qt::DescendingOrder);
    EXPECT_EQ(columnTexts(view, QStringLiteral("params.batch-size")).mid(0, 2), (QStringList{"256", "128"}));
    // The latest loss (not the larger value logged first), as numbers, the run without one last.
    const int loss = int(headers.indexOf(QStringLiteral("metrics.loss")));
    view->sortByColumn(loss, Qt::AscendingOrder);
    EXPECT_EQ(columnTexts(view, QStringLiteral("metrics.loss")),
              (QStringList{"-1", "0.3", "0.35", "2.5", ""}));
}

TEST_P(RunsTableGui, SelectedRowsGoToTheBasketWhoseRunsAreMarked) {
    RunsTablePane pane;
    pane.show();
    QSignalSpy loaded(&pane, &RunsTablePane::loaded);
    pane.setStore(QString::fromStdString(m_uri));
    ASSERT_TRUE(loaded.count() > 0 || loaded.wait(20000));
    ASSERT_EQ(search(pane, QStringLiteral("params.model = 'resnet50'")), 2);
    QSignalSpy added(&pane, &RunsTablePane::addToBasket);
    pane.view()->selectAll();
    QPushButton* add = pane.findChild<QPushButton*>();
    ASSERT_NE(add, nullptr);
    QTest::mouseClick(add, Qt::LeftButton);
    ASSERT_EQ(added.count(), 1);
    const QStringList uuids = added.last().at(0).toStringList();
    ASSERT_EQ(uuids.size(), 2);
    std::set<std::string> names;
    for (const QString& u : uuids)
        names.insert(m_names[u.toStdString()]);
    EXPECT_EQ(names, (std::set<std::string>{"resnet bs64", "resnet bs128"}));

    pane.setBasket({uuids.front()});
    const QStringList shown = columnTexts(pane.view(), QStringLiteral("Run"));
    EXPECT_EQ(shown.filter(QStringLiteral("● ")).size(), 1) << shown.join('|').toStdString();
    EXPECT_TRUE(
        shown.contains(QStringLiteral("● ") + QString::fromStdString(m_names[uuids.front().toStdString()])));
}

namespace {

/// The names of the runs a tree view shows, walking its (filtered) model.
QStringList shownRuns(const QAbstractItemModel* model, const QModelIndex& parent = {}) {
    QStringList out;
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex index = model->index(r, 0, parent);
        if (index.data(RunTreeModel::NodeKindRole).toInt() == RunTreeModel::RunNode)
            out << index.data().toString();
        out << shownRuns(model, index);
    }
    return out;
}

} // namespace

TEST_P(RunsTableGui, TheTreesFilterTakesTheSameSearch) {
    auto store = openStore(m_uri, OpenMode::OpenExisting);
    RunTreePane tree;
    tree.show();
    tree.showStore(store->experiments(), store->runs());
    tree.setStoreUri(QString::fromStdString(m_uri));
    ASSERT_EQ(shownRuns(tree.view()->model()).size(), 5);
    auto* filter = tree.findChild<QLineEdit*>(QStringLiteral("runFilter"));
    ASSERT_NE(filter, nullptr);
    QSignalSpy searched(&tree, &RunTreePane::searched);
    // Typed as a person types it; the store answers once typing pauses (or at Enter).
    QTest::keyClicks(filter, QStringLiteral("metrics.accuracy >= 0.9 and tags.team ILIKE 'vision'"));
    ASSERT_TRUE(searched.wait(20000));
    EXPECT_EQ(searched.last().at(0).toInt(), 1);
    QStringList names = shownRuns(tree.view()->model());
    EXPECT_EQ(names.size(), 1) << names.join('|').toStdString();
    EXPECT_TRUE(names.value(0).contains(QStringLiteral("resnet bs64"))) << names.join('|').toStdString();

    // A bad search says where, and leaves the rows of the last answer.
    filter->clear();
    QTest::keyClicks(filter, QStringLiteral("params.model < 'x'"));
    QTest::keyClick(filter, Qt::Key_Return);
    ASSERT_TRUE(searched.count() >= 2 || searched.wait(20000));
    EXPECT_EQ(searched.last().at(0).toInt(), -1);
    auto* problem = tree.findChild<QLabel*>(QStringLiteral("runFilterNoMatch"));
    ASSERT_NE(problem, nullptr);
    EXPECT_TRUE(problem->isVisibleTo(&tree));
    EXPECT_TRUE(problem->text().startsWith(QStringLiteral("Search: column 14:")))
        << problem->text().toStdString();

    // Plain text filters as before, at once.
    filter->clear();
    QTest::keyClicks(filter, QStringLiteral("vit"));
    EXPECT_EQ(shownRuns(tree.view()->model()).size(), 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, RunsTableGui, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

// The figures radt report computes, in the table: the real H100 MPS recording's runs, each with
// its GPU energy (a shared GPU's split among its runs) and utilisation, as the report gives them.
TEST(RunsTableFigures, TheReportsFiguresFillTheirColumns) {
    test::TempDir dir;
    const std::string path = dir.file("mps.db");
    std::filesystem::copy_file(RADT_FIXTURES_DIR "/runs/h100_mps_experiment.db", path);
    RunsTablePane pane;
    pane.resize(1200, 500);
    pane.show();
    QSignalSpy figures(&pane, &RunsTablePane::figuresLoaded);
    pane.setStore(QString::fromStdString("sqlite:///" + path));
    ASSERT_TRUE(figures.wait(60000));
    EXPECT_EQ(figures.last().at(0).toInt(), 8);
    const QAbstractItemModel* model = pane.view()->model();
    int energy = -1, util = -1;
    for (int c = 0; c < model->columnCount(); ++c) {
        energy = model->headerData(c, Qt::Horizontal).toString() == "GPU energy (J)" ? c : energy;
        util = model->headerData(c, Qt::Horizontal).toString() == "GPU util (%)" ? c : util;
    }
    ASSERT_GE(energy, 0);
    ASSERT_GE(util, 0);
    EXPECT_TRUE(QTest::qWaitFor([&] { return !pane.view()->isColumnHidden(energy); }, 2000))
        << "filled, the column is shown";
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 0).data(RunsTableModel::RunUuidRole).toString().startsWith("46532390")) {
            EXPECT_EQ(model->index(r, energy).data().toString(),
                      QStringLiteral("7466")); // radt report: 7466.2 J
            EXPECT_FALSE(model->index(r, util).data().toString().isEmpty());
        }
    // Sorted by energy, as numbers.
    pane.view()->sortByColumn(energy, Qt::AscendingOrder);
    double last = -1;
    for (int r = 0; r < model->rowCount(); ++r) {
        const double v = model->index(r, energy).data(RunsTableModel::SortRole).toDouble();
        EXPECT_GE(v, last);
        last = v;
    }
}
