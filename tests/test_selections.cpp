// SPDX-License-Identifier: MIT
// The selection side of the explorer: the grouped metric list (its search and preferred metric),
// named basket selections in QSettings, putting a saved selection back into MainWindow's basket,
// and the Recent Stores list.

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/runs/BasketPanel.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreePane.h"
#include "widgets/runs/SavedSelections.h"
#include "widgets/window/MainWindow.h"
#include "widgets/window/RecentStores.h"

#include <QAction>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <ostream>
#include <stdexcept>

// Readable failures: gtest would print a QString as its UTF-16 bytes.
QT_BEGIN_NAMESPACE
inline void PrintTo(const QString& text, std::ostream* os) {
    *os << '"' << text.toStdString() << '"';
}
QT_END_NAMESPACE

using namespace radt;

namespace {

constexpr int64_t kStart = 1'700'000'000'000;

const QStringList kKeys = {"SMI - Power Draw",    "loss",           "TOP - CPU Utilization",
                           "DCGMI - Power Usage", "SMI - GPU Util", "iostat - Total MB/s",
                           "epoch time",          "PROC - RSS MB"};

QStringList groupLabels(const QTreeWidget* tree, bool visibleOnly = false) {
    QStringList out;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        if (!visibleOnly || !tree->topLevelItem(i)->isHidden())
            out.append(tree->topLevelItem(i)->text(0));
    }
    return out;
}

QTreeWidgetItem* groupItem(const QTreeWidget* tree, const QString& label) {
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        if (tree->topLevelItem(i)->text(0) == label)
            return tree->topLevelItem(i);
    }
    return nullptr;
}

QStringList childTexts(const QTreeWidgetItem* group) {
    QStringList out;
    for (int i = 0; group && i < group->childCount(); ++i)
        out.append(group->child(i)->text(0));
    return out;
}

QTreeWidgetItem* keyItem(const QTreeWidget* tree, const QString& key) {
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        for (int k = 0; k < tree->topLevelItem(g)->childCount(); ++k) {
            QTreeWidgetItem* item = tree->topLevelItem(g)->child(k);
            if (item->data(0, MetricPicker::KeyRole).toString() == key)
                return item;
        }
    }
    return nullptr;
}

void click(QTreeWidget* tree, QTreeWidgetItem* item) {
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, Qt::NoModifier, tree->visualItemRect(item).center());
}

QStringList menuTexts(const QMenu* menu) {
    QStringList out;
    for (const QAction* action : menu->actions())
        out.append(action->isSeparator() ? QStringLiteral("--") : action->text());
    return out;
}

QAction* menuAction(const QMenu* menu, const QString& text) {
    for (QAction* action : menu->actions()) {
        if (action->text() == text)
            return action;
    }
    return nullptr;
}

class MetricPickerTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_picker.resize(320, 600);
        m_picker.show();
        m_picker.setKeys(kKeys);
    }
    MetricPicker m_picker;
};

} // namespace

TEST_F(MetricPickerTest, GroupsKeysByPrefixSoftwareFirst) {
    QTreeWidget* tree = m_picker.tree();
    EXPECT_EQ(groupLabels(tree),
              (QStringList{"Software (2)", "DCGMI (1)", "iostat (1)", "PROC (1)", "SMI (2)", "TOP (1)"}))
        << "Software first, then the prefixes alphabetically whatever their case";
    EXPECT_EQ(childTexts(groupItem(tree, "SMI (2)")), (QStringList{"Power Draw", "GPU Util"}))
        << "a group shows what follows the prefix, in the order the keys came";
    EXPECT_EQ(childTexts(groupItem(tree, "Software (2)")), (QStringList{"loss", "epoch time"}));
    EXPECT_EQ(keyItem(tree, "SMI - GPU Util")->toolTip(0), "SMI - GPU Util");
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* group = tree->topLevelItem(i);
        EXPECT_TRUE(group->isExpanded()) << group->text(0).toStdString();
        EXPECT_FALSE(group->flags() & Qt::ItemIsSelectable) << group->text(0).toStdString();
        EXPECT_TRUE(group->child(0)->flags() & Qt::ItemIsSelectable);
    }
    EXPECT_EQ(m_picker.keys(), kKeys) << "keys() is the list as given";
    EXPECT_EQ(m_picker.visibleKeys(),
              (QStringList{"loss", "epoch time", "DCGMI - Power Usage", "iostat - Total MB/s",
                           "PROC - RSS MB", "SMI - Power Draw", "SMI - GPU Util", "TOP - CPU Utilization"}));
    EXPECT_EQ(MetricPicker::groupOf("sda - MB read/s"), "sda");
    EXPECT_EQ(MetricPicker::groupOf("NET - eth0 RX MB/s"), "NET");
    EXPECT_EQ(MetricPicker::groupOf("val-loss"), "Software") << "only ' - ' separates a prefix";
}

TEST_F(MetricPickerTest, SearchHidesKeysAndEmptyGroups) {
    QTreeWidget* tree = m_picker.tree();
    m_picker.setFilterText("POWER");
    EXPECT_EQ(m_picker.visibleKeys(), (QStringList{"DCGMI - Power Usage", "SMI - Power Draw"}));
    EXPECT_EQ(groupLabels(tree, true), (QStringList{"DCGMI (1)", "SMI (1 of 2)"}))
        << "counts follow the search";
    EXPECT_TRUE(keyItem(tree, "SMI - GPU Util")->isHidden());
    // The search runs over the whole key, so a prefix finds its group.
    m_picker.setFilterText("smi");
    EXPECT_EQ(m_picker.visibleKeys(), (QStringList{"SMI - Power Draw", "SMI - GPU Util"}));
    m_picker.setFilterText("nothing like it");
    EXPECT_EQ(m_picker.visibleKeys(), QStringList());
    EXPECT_EQ(groupLabels(tree, true), QStringList());
    m_picker.setFilterText("");
    EXPECT_EQ(m_picker.visibleKeys().size(), kKeys.size());
    EXPECT_EQ(groupLabels(tree, true).size(), 6);
}

TEST_F(MetricPickerTest, ChoosingAKeyEmitsMetricChosen) {
    QTreeWidget* tree = m_picker.tree();
    QSignalSpy chosen(&m_picker, &MetricPicker::metricChosen);
    click(tree, keyItem(tree, "SMI - GPU Util"));
    ASSERT_EQ(chosen.size(), 1);
    EXPECT_EQ(chosen.takeFirst().at(0).toString(), "SMI - GPU Util");
    EXPECT_EQ(m_picker.currentKey(), "SMI - GPU Util");

    // A group header is no metric: clicking it changes nothing and the choice stays highlighted.
    click(tree, groupItem(tree, "TOP (1)"));
    EXPECT_EQ(chosen.size(), 0);
    EXPECT_EQ(m_picker.currentKey(), "SMI - GPU Util");
    ASSERT_EQ(tree->selectedItems().size(), 1);
    EXPECT_EQ(tree->selectedItems().first()->data(0, MetricPicker::KeyRole).toString(), "SMI - GPU Util");

    EXPECT_TRUE(m_picker.setCurrentKey("loss"));
    ASSERT_EQ(chosen.size(), 1);
    EXPECT_EQ(chosen.takeFirst().at(0).toString(), "loss");
    EXPECT_TRUE(m_picker.setCurrentKey("loss"));
    EXPECT_EQ(chosen.size(), 0) << "the same key again is no change";
    EXPECT_FALSE(m_picker.setCurrentKey("SMI"));
    EXPECT_FALSE(m_picker.setCurrentKey("nope"));
    EXPECT_EQ(chosen.size(), 0);
}

TEST_F(MetricPickerTest, SetKeysKeepsTheCurrentKeyAndCollapsedGroups) {
    QTreeWidget* tree = m_picker.tree();
    ASSERT_TRUE(m_picker.setCurrentKey("TOP - CPU Utilization"));
    tree->collapseItem(groupItem(tree, "SMI (2)")); // as a click on its arrow does
    QSignalSpy chosen(&m_picker, &MetricPicker::metricChosen);

    m_picker.setKeys(kKeys + QStringList{"NET - eth0 RX MB/s", "SMI - Mem Used"});
    EXPECT_EQ(chosen.size(), 0) << "the chosen key is still there";
    EXPECT_EQ(m_picker.currentKey(), "TOP - CPU Utilization");
    ASSERT_EQ(tree->selectedItems().size(), 1);
    EXPECT_EQ(tree->selectedItems().first()->data(0, MetricPicker::KeyRole).toString(),
              "TOP - CPU Utilization");
    ASSERT_NE(groupItem(tree, "SMI (3)"), nullptr);
    EXPECT_FALSE(groupItem(tree, "SMI (3)")->isExpanded()) << "collapsed by the user, it stays so";
    EXPECT_TRUE(groupItem(tree, "NET (1)")->isExpanded()) << "a new group opens expanded";
    EXPECT_TRUE(groupItem(tree, "TOP (1)")->isExpanded());

    // A search opens the groups holding matches; clearing it gives the user's layout back.
    m_picker.setFilterText("mem");
    ASSERT_NE(groupItem(tree, "SMI (1 of 3)"), nullptr);
    EXPECT_TRUE(groupItem(tree, "SMI (1 of 3)")->isExpanded());
    m_picker.setFilterText("");
    EXPECT_FALSE(groupItem(tree, "SMI (3)")->isExpanded());

    tree->expandItem(groupItem(tree, "SMI (3)"));
    m_picker.setKeys({"loss", "SMI - Power Draw"});
    ASSERT_EQ(chosen.size(), 1) << "the chosen key went away";
    EXPECT_EQ(chosen.takeFirst().at(0).toString(), "");
    EXPECT_EQ(m_picker.currentKey(), "");
    EXPECT_TRUE(tree->selectedItems().isEmpty());
    EXPECT_TRUE(groupItem(tree, "SMI (1)")->isExpanded());
}

TEST(SavedSelections, SaveLoadAndRemovePerStore) {
    test::TempDir dir;
    const QString ini = QString::fromStdString(dir.file("selections.ini"));
    const QString pg = "postgresql://radt@db.example:5432/bench";
    const QString lite = "sqlite:////data/my runs/radt.db";
    {
        QSettings settings(ini, QSettings::IniFormat);
        SavedSelections saved(settings);
        EXPECT_EQ(saved.names(pg), QStringList());
        saved.save(pg, "baseline", {"u1", "u2"});
        saved.save(pg, "MIG 1g/5gb & MPS", {"u3"});
        saved.save(pg, "alone 10", {"u4"});
        saved.save(pg, "alone 2", {"u5", "u5", "u6"});
        saved.save(lite, "baseline", {"u9"});
        EXPECT_EQ(saved.names(pg), (QStringList{"alone 2", "alone 10", "baseline", "MIG 1g/5gb & MPS"}));
        EXPECT_EQ(saved.runs(pg, "alone 2"), (QStringList{"u5", "u6"})) << "duplicates dropped, order kept";
        EXPECT_EQ(saved.runs(pg, "MIG 1g/5gb & MPS"), QStringList{"u3"});
        EXPECT_EQ(saved.runs(lite, "baseline"), QStringList{"u9"}) << "each store has its own names";
        EXPECT_EQ(saved.runs(pg, "missing"), QStringList());
        EXPECT_TRUE(saved.contains(pg, "baseline"));
        EXPECT_FALSE(saved.contains(pg, "Baseline")) << "names are case-sensitive";
        EXPECT_EQ(saved.names("sqlite:///other.db"), QStringList());
    }
    // Written to the file: a fresh QSettings reads it back; the URIs are no keys as such.
    QSettings settings(ini, QSettings::IniFormat);
    SavedSelections saved(settings);
    EXPECT_EQ(saved.runs(pg, "baseline"), (QStringList{"u1", "u2"}));
    settings.beginGroup("selections");
    for (const QString& group : settings.childGroups())
        EXPECT_TRUE(QRegularExpression("^[0-9a-f]+$").match(group).hasMatch()) << group.toStdString();
    EXPECT_EQ(settings.childGroups().size(), 2);
    settings.endGroup();

    saved.save(pg, "baseline", {"u7"});
    EXPECT_EQ(saved.runs(pg, "baseline"), QStringList{"u7"}) << "saving again replaces";
    saved.remove(pg, "baseline");
    saved.remove(pg, "never saved");
    EXPECT_EQ(saved.names(pg), (QStringList{"alone 2", "alone 10", "MIG 1g/5gb & MPS"}));
    EXPECT_EQ(saved.runs(lite, "baseline"), QStringList{"u9"}) << "the other store's one stays";
}

TEST(SavedSelections, BadNamesAndEmptyListsAreRejected) {
    test::TempDir dir;
    QSettings settings(QString::fromStdString(dir.file("selections.ini")), QSettings::IniFormat);
    SavedSelections saved(settings);
    const QString uri = "sqlite:////tmp/radt.db";
    EXPECT_EQ(test::errorOf([&] { saved.save(uri, "", {"u1"}); }), "a saved selection needs a name");
    EXPECT_EQ(test::errorOf([&] { saved.save(uri, "   ", {"u1"}); }), "a saved selection needs a name");
    EXPECT_EQ(test::errorOf([&] { saved.save(uri, "x", {}); }), "a saved selection needs at least one run");
    EXPECT_EQ(test::errorOf([&] { saved.save(uri, "x", {""}); }), "a saved selection needs at least one run");
    EXPECT_EQ(test::errorOf([&] { saved.save("", "x", {"u1"}); }), "a saved selection needs a store URI");
    EXPECT_THROW(saved.save(uri, "", {"u1"}), std::invalid_argument);
    EXPECT_EQ(saved.names(uri), QStringList()) << "nothing half-saved";
    saved.save(uri, "  padded  ", {"u1"});
    EXPECT_EQ(saved.names(uri), QStringList{"padded"}) << "names are trimmed";
    EXPECT_EQ(saved.runs(uri, "padded"), QStringList{"u1"});
}

TEST(SelectionsGui, ASavedSelectionComesBackIntoTheBasket) {
    test::TempDir dir;
    const std::string uri = "sqlite:///" + dir.file("store.db");
    QStringList uuids;
    {
        auto store = openStore(uri, OpenMode::CreateIfMissing);
        const std::pair<const char*, const char*> runs[] = {{"1", "0_A"}, {"1", "0_B"}, {"2", "0"}};
        for (const auto& [workload, letter] : runs) {
            const std::string run = store->createRun({0, "r", kStart, "u", "s", RunStatus::Finished}).uuid;
            store->logParams(run, {{"workload", workload}, {"letter", letter}});
            store->logMetrics(run, {{"loss", 1.0, kStart, 0}, {"SMI - Power Draw", 90.0, kStart, 0}});
            uuids.append(QString::fromStdString(run));
        }
    }
    MainWindow window;
    auto* panel = window.findChild<BasketPanel*>();
    ASSERT_NE(panel, nullptr);
    EXPECT_FALSE(panel->selectionsButton()->isEnabled()) << "no store, nowhere to keep selections";
    ASSERT_TRUE(window.openStore(QString::fromStdString(uri)));
    EXPECT_TRUE(panel->selectionsButton()->isEnabled()) << "openStore hands the panel its selections";

    ASSERT_EQ(window.addRunsToBasket({uuids[0], uuids[2]}), 2);
    window.waitForLoads();
    EXPECT_EQ(panel->currentUuids(), window.basketRunUuids());
    EXPECT_EQ(groupLabels(test::partOf<MetricPicker>(window)->tree()),
              (QStringList{"Software (1)", "SMI (1)"}));

    // The panel over a selection file of the test's own, so the user's settings stay untouched.
    QSettings settings(QString::fromStdString(dir.file("selections.ini")), QSettings::IniFormat);
    SavedSelections saved(settings);
    panel->setSelectionStore(&saved, QString::fromStdString(uri));
    QString error;
    ASSERT_TRUE(panel->saveBasketAs("two workloads", &error)) << error.toStdString();
    EXPECT_EQ(saved.runs(QString::fromStdString(uri), "two workloads"), window.basketRunUuids());
    saved.save(QString::fromStdString(uri), "with a deleted run", {uuids[1], "0123456789abcdef"});

    QMenu* menu = panel->selectionsButton()->menu();
    ASSERT_NE(menu, nullptr);
    emit menu->aboutToShow(); // as opening it does: picks up what was saved meanwhile
    EXPECT_EQ(menuTexts(menu),
              (QStringList{"Save basket as…", "--", "two workloads", "with a deleted run", "--", "Delete"}));
    EXPECT_TRUE(menuAction(menu, "Save basket as…")->isEnabled());

    window.clearBasket();
    window.waitForLoads();
    EXPECT_EQ(window.basketRunUuids(), QStringList());
    EXPECT_FALSE(menuAction(menu, "Save basket as…")->isEnabled()) << "an empty basket is nothing to save";
    EXPECT_FALSE(panel->saveBasketAs("empty", &error));
    EXPECT_EQ(error, "a saved selection needs at least one run");

    // Choosing a name in the menu puts its runs back.
    QSignalSpy chosen(panel, &BasketPanel::selectionChosen);
    menuAction(menu, "two workloads")->trigger();
    window.waitForLoads();
    ASSERT_EQ(chosen.size(), 1);
    EXPECT_EQ(window.basketRunUuids(), (QStringList{uuids[0], uuids[2]}));
    EXPECT_EQ(window.statusBar()->currentMessage(), "Restored selection two workloads: 2 of 2 runs");

    // The basket is replaced, not added to; runs gone from the store are skipped and counted;
    // the metric on screen stays when the new runs have it.
    ASSERT_TRUE(window.plotMetric("loss"));
    emit panel->selectionChosen(saved.runs(QString::fromStdString(uri), "with a deleted run"),
                                "with a deleted run");
    window.waitForLoads();
    EXPECT_EQ(window.basketRunUuids(), QStringList{uuids[1]});
    EXPECT_EQ(window.statusBar()->currentMessage(), "Restored selection with a deleted run: 1 of 2 runs");
    EXPECT_EQ(test::partOf<MetricPicker>(window)->currentKey(), "loss");
    EXPECT_EQ(window.chartPanel()->engine().metricKey(), "loss");

    // Delete > name forgets it; the menu follows once the triggering action has returned.
    QMenu* deleteMenu = menuAction(menu, "Delete")->menu();
    ASSERT_NE(deleteMenu, nullptr);
    EXPECT_EQ(menuTexts(deleteMenu), (QStringList{"two workloads", "with a deleted run"}));
    menuAction(deleteMenu, "with a deleted run")->trigger();
    QCoreApplication::processEvents();
    EXPECT_EQ(saved.names(QString::fromStdString(uri)), QStringList{"two workloads"});
    EXPECT_EQ(menuTexts(menu), (QStringList{"Save basket as…", "--", "two workloads", "--", "Delete"}));
    panel->setSelectionStore(nullptr, QString());
    EXPECT_FALSE(panel->selectionsButton()->isEnabled());
}

// A group's count follows the search ("DCGMI (18)" while one key showed).
TEST(MetricPicker, AGroupsCountFollowsTheSearch) {
    MetricPicker picker;
    picker.setKeys({"DCGMI - Power Usage", "DCGMI - SM Active", "DCGMI - GPU Utilization", "loss"});
    auto groupText = [&](const QString& group) {
        for (int g = 0; g < picker.tree()->topLevelItemCount(); ++g)
            if (picker.tree()->topLevelItem(g)->data(0, MetricPicker::GroupRole).toString() == group)
                return picker.tree()->topLevelItem(g)->text(0);
        return QString();
    };
    EXPECT_EQ(groupText("DCGMI"), "DCGMI (3)");
    picker.setFilterText("power");
    EXPECT_EQ(groupText("DCGMI"), "DCGMI (1 of 3)");
    picker.setFilterText("");
    EXPECT_EQ(groupText("DCGMI"), "DCGMI (3)");
}

TEST(MetricPicker, PreferredKey) {
    EXPECT_EQ(MetricPicker::preferredKey({"a", "TOP - CPU Utilization", "PROC - CPU Utilization"}),
              "PROC - CPU Utilization");
    EXPECT_EQ(MetricPicker::preferredKey({"a", "TOP - CPU Utilization"}), "TOP - CPU Utilization");
    EXPECT_EQ(MetricPicker::preferredKey({"b", "a"}), "b");
    EXPECT_EQ(MetricPicker::preferredKey({}), "");
}

TEST(RecentStores, NormalisesKeepsNewestFirstAndCapsTheList) {
    EXPECT_EQ(RecentStores::normalize("postgresql://alice:s3cret@db.example:5432/runs"),
              "postgresql://alice@db.example:5432/runs");
    EXPECT_EQ(RecentStores::normalize("postgresql://alice@db.example/runs"),
              "postgresql://alice@db.example/runs");
    EXPECT_EQ(RecentStores::normalize("sqlite:///rel/x.db"),
              "sqlite:///" + QDir::current().absoluteFilePath("rel/x.db"));
    EXPECT_EQ(RecentStores::normalize("sqlite:////abs/x.db"), "sqlite:////abs/x.db");

    RecentStores recent(3);
    recent.clear();
    for (const char* uri : {"sqlite:////a.db", "sqlite:////b.db", "sqlite:////c.db", "sqlite:////d.db"})
        recent.add(uri);
    recent.add("sqlite:////b.db");
    EXPECT_EQ(recent.entries(), (QStringList{"sqlite:////b.db", "sqlite:////d.db", "sqlite:////c.db"}));
    recent.remove("sqlite:////d.db");
    EXPECT_EQ(recent.entries(), (QStringList{"sqlite:////b.db", "sqlite:////c.db"}));
    recent.clear();
    EXPECT_TRUE(recent.entries().isEmpty());
}
