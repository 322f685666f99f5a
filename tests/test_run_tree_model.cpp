// SPDX-License-Identifier: MIT
// RunTreeModel and RunFilterProxy, always under QAbstractItemModelTester.

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"
#include "widgets/common/Formatting.h"
#include "widgets/runs/RunFilterProxy.h"
#include "widgets/runs/RunTreeModel.h"

#include <QAbstractItemModelTester>
#include <QColor>

#include <gtest/gtest.h>

#include <functional>
#include <memory>

using namespace radt;

namespace {

class RunTreeModelTest : public ::testing::Test {
protected:
    void SetUp() override {
        test::modelTestWarnings().clear();
        m_sample = test::buildSampleStore(m_dir.file("store.db"), false);
        m_store = openStore(m_sample.uri, OpenMode::OpenExisting);
        m_tester = std::make_unique<QAbstractItemModelTester>(
            &m_model, QAbstractItemModelTester::FailureReportingMode::Warning);
        m_model.reload(*m_store);
    }
    void TearDown() override { EXPECT_EQ(test::modelTestWarnings(), QStringList()); }

    QModelIndex child(const QModelIndex& parent, const QString& name) const {
        for (int row = 0; row < m_model.rowCount(parent); ++row) {
            const QModelIndex index = m_model.index(row, 0, parent);
            if (index.data().toString() == name)
                return index;
        }
        return QModelIndex();
    }
    QString cell(const QModelIndex& index, int column) const {
        return index.sibling(index.row(), column).data().toString();
    }

    test::TempDir m_dir;
    test::SampleStore m_sample;
    std::unique_ptr<Store> m_store;
    RunTreeModel m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

} // namespace

TEST_F(RunTreeModelTest, ExperimentsWorkloadsRuns) {
    EXPECT_EQ(m_model.columnCount(), RunTreeModel::NUM_COLUMNS);
    EXPECT_EQ(m_model.runCount(), 6);
    // MLflow's "Default" experiment plus alpha and beta, in id order.
    ASSERT_EQ(m_model.rowCount(), 3);
    EXPECT_EQ(m_model.index(0, 0).data().toString(), "Default");
    EXPECT_EQ(m_model.rowCount(m_model.index(0, 0)), 0);

    const QModelIndex alpha = child(QModelIndex(), "alpha");
    ASSERT_TRUE(alpha.isValid());
    EXPECT_EQ(alpha.data(RunTreeModel::NodeKindRole).toInt(), RunTreeModel::ExperimentNode);
    ASSERT_EQ(m_model.rowCount(alpha), 2);
    EXPECT_EQ(m_model.index(0, 0, alpha).data().toString(), "workload 1");
    EXPECT_EQ(m_model.index(1, 0, alpha).data().toString(), "workload 2");

    const QModelIndex w1 = m_model.index(0, 0, alpha);
    EXPECT_EQ(w1.data(RunTreeModel::NodeKindRole).toInt(), RunTreeModel::WorkloadNode);
    EXPECT_EQ(w1.data(RunTreeModel::WorkloadRole).toString(), "1");
    ASSERT_EQ(m_model.rowCount(w1), 2);
    const QModelIndex runA = m_model.index(0, 0, w1);
    const QModelIndex runB = m_model.index(1, 0, w1);
    EXPECT_EQ(runA.data(RunTreeModel::NodeKindRole).toInt(), RunTreeModel::RunNode);
    EXPECT_EQ(runA.data().toString(), "(1 a) train");
    EXPECT_EQ(cell(runA, RunTreeModel::LetterColumn), "a");
    EXPECT_EQ(cell(runB, RunTreeModel::LetterColumn), "b");
    EXPECT_EQ(cell(runA, RunTreeModel::StatusColumn), "FINISHED");
    EXPECT_EQ(cell(runB, RunTreeModel::StatusColumn), "FAILED");
    EXPECT_EQ(cell(runA, RunTreeModel::DurationColumn), "1m 05s");
    EXPECT_EQ(cell(runA, RunTreeModel::ParamsColumn), "--batch-size 256 --epochs 3");
    EXPECT_FALSE(cell(runA, RunTreeModel::StartColumn).isEmpty());
    EXPECT_EQ(runA.data(RunTreeModel::RunUuidRole).toString().toStdString(), m_sample.runs["alpha/1/a"]);
    EXPECT_EQ(runB.sibling(runB.row(), RunTreeModel::StatusColumn).data(Qt::ForegroundRole).value<QColor>(),
              statusColor(RunStatus::Failed));
    // A workload shows its most urgent status.
    EXPECT_EQ(cell(w1, RunTreeModel::StatusColumn), "FAILED");
    EXPECT_EQ(m_model.parent(runA), w1);
    EXPECT_EQ(m_model.parent(w1), alpha);

    const QModelIndex w2 = m_model.index(1, 0, alpha);
    EXPECT_EQ(cell(m_model.index(0, 0, w2), RunTreeModel::DurationColumn), "1h 01m");
}

TEST_F(RunTreeModelTest, RunsWithoutWorkloadGoToTheUnsortedBucket) {
    const QModelIndex beta = child(QModelIndex(), "beta");
    ASSERT_EQ(m_model.rowCount(beta), 2);
    EXPECT_EQ(m_model.index(0, 0, beta).data().toString(), "workload 7");
    const QModelIndex unsorted = m_model.index(1, 0, beta);
    EXPECT_EQ(unsorted.data().toString(), "(unsorted)");
    EXPECT_EQ(unsorted.data(RunTreeModel::WorkloadRole).toString(), "");
    ASSERT_EQ(m_model.rowCount(unsorted), 1);
    EXPECT_EQ(m_model.index(0, 0, unsorted).data().toString(), "loose-run");

    const QModelIndex w7 = m_model.index(0, 0, beta);
    EXPECT_EQ(cell(m_model.index(0, 0, w7), RunTreeModel::StatusColumn), "KILLED");
    EXPECT_EQ(cell(m_model.index(1, 0, w7), RunTreeModel::StatusColumn), "RUNNING");
    EXPECT_EQ(cell(w7, RunTreeModel::StatusColumn), "RUNNING");
}

TEST_F(RunTreeModelTest, RunUuidsUnderAndLatestWorkload) {
    const QModelIndex beta = child(QModelIndex(), "beta");
    EXPECT_EQ(m_model.runUuidsUnder(beta).size(), 3);
    EXPECT_EQ(m_model.runUuidsUnder(m_model.index(0, 0, beta)).size(), 2);
    const QString loose = QString::fromStdString(m_sample.runs["beta/loose"]);
    EXPECT_EQ(m_model.runUuidsUnder(m_model.indexOfRun(loose)), QStringList{loose});

    // The latest run is beta/7/b: the basket gets it and its workload mate.
    const QStringList latest = m_model.latestWorkloadRunUuids();
    EXPECT_EQ(latest, (QStringList{QString::fromStdString(m_sample.runs["beta/7/a"]),
                                   QString::fromStdString(m_sample.runs["beta/7/b"])}));
    ASSERT_NE(m_model.runByUuid(loose), nullptr);
    EXPECT_EQ(m_model.runByUuid(loose)->name, "loose-run");
}

TEST_F(RunTreeModelTest, ReloadAndEmptyContents) {
    m_model.setContents({}, {}, 0);
    EXPECT_EQ(m_model.rowCount(), 0);
    EXPECT_TRUE(m_model.latestWorkloadRunUuids().isEmpty());
    m_model.reload(*m_store);
    EXPECT_EQ(m_model.rowCount(), 3);
}

TEST_F(RunTreeModelTest, FilterProxyKeepsMatchesTheirAncestorsAndDescendants) {
    RunFilterProxy proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Warning);
    proxy.setSourceModel(&m_model);
    EXPECT_EQ(proxy.rowCount(), 3);

    proxy.setFilterText("failed"); // status, case-insensitive
    ASSERT_EQ(proxy.rowCount(), 1);
    QModelIndex alpha = proxy.index(0, 0);
    EXPECT_EQ(alpha.data().toString(), "alpha");
    ASSERT_EQ(proxy.rowCount(alpha), 1);
    ASSERT_EQ(proxy.rowCount(proxy.index(0, 0, alpha)), 1);
    EXPECT_EQ(proxy.index(0, 0, proxy.index(0, 0, alpha)).data().toString(), "(1 b) train");

    proxy.setFilterText("BATCH-SIZE 512"); // params column
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.rowCount(proxy.index(0, 0, proxy.index(0, 0))), 1);

    proxy.setFilterText("beta"); // an experiment name shows everything inside it
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.rowCount(proxy.index(0, 0)), 2);

    proxy.setFilterText("no such run");
    EXPECT_EQ(proxy.rowCount(), 0);

    proxy.setFilterText("");
    EXPECT_EQ(proxy.rowCount(), 3);
    m_model.reload(*m_store); // a reset under an active proxy
    EXPECT_EQ(proxy.rowCount(), 3);
}

// Tag:KEY[=VALUE] and note:TEXT find runs by what `radt run tag|note` (or MLflow's
// UI) set, and a run's tooltip shows its tags and note.
TEST_F(RunTreeModelTest, FilterFindsRunsByTheirTagsAndNotesAndTheTooltipShowsThem) {
    const std::string tagged = m_sample.runs["beta/7/a"], noted = m_sample.runs["alpha/1/b"];
    m_store->setTags(tagged, {{"paper", "fig3"}});
    m_store->setTags(noted, {{kRunNoteTag, "Diverged at epoch 12: lr too high"}});
    m_model.reload(*m_store);
    RunFilterProxy proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Warning);
    proxy.setSourceModel(&m_model);
    const auto shownRuns = [&] {
        QStringList uuids;
        std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
            for (int row = 0; row < proxy.rowCount(parent); ++row) {
                const QModelIndex index = proxy.index(row, 0, parent);
                if (!index.data(RunTreeModel::RunUuidRole).isNull())
                    uuids << index.data(RunTreeModel::RunUuidRole).toString();
                walk(index);
            }
        };
        walk({});
        return uuids;
    };
    proxy.setFilterText("tag:paper");
    EXPECT_EQ(shownRuns(), QStringList{QString::fromStdString(tagged)});
    proxy.setFilterText("TAG:Paper=fig3");
    EXPECT_EQ(shownRuns(), QStringList{QString::fromStdString(tagged)});
    proxy.setFilterText("tag:paper=fig4");
    EXPECT_TRUE(shownRuns().isEmpty());
    proxy.setFilterText("note:diverged");
    EXPECT_EQ(shownRuns(), QStringList{QString::fromStdString(noted)});
    proxy.setFilterText("note:converged");
    EXPECT_TRUE(shownRuns().isEmpty());
    proxy.setFilterText("diverged"); // plain text looks in the columns only
    EXPECT_TRUE(shownRuns().isEmpty());

    const QModelIndex run = m_model.indexOfRun(QString::fromStdString(noted));
    ASSERT_TRUE(run.isValid());
    EXPECT_TRUE(run.data(Qt::ToolTipRole).toString().contains("Note: Diverged at epoch 12: lr too high"))
        << run.data(Qt::ToolTipRole).toString().toStdString();
    const QModelIndex other = m_model.indexOfRun(QString::fromStdString(tagged));
    EXPECT_TRUE(other.data(Qt::ToolTipRole).toString().contains("Tags: paper=fig3"))
        << other.data(Qt::ToolTipRole).toString().toStdString();
}

TEST(Formatting, TickStepsAreOneTwoOrFiveTimesAPowerOfTen) {
    EXPECT_DOUBLE_EQ(niceTickStep(8.2, 6), 1); // 1.37 -> 1
    EXPECT_DOUBLE_EQ(niceTickStep(12, 6), 2);  // 2 -> 2
    EXPECT_DOUBLE_EQ(niceTickStep(0.03, 6), 0.005);
    EXPECT_DOUBLE_EQ(niceTickStep(2500, 6), 500); // 417 -> 500
    EXPECT_DOUBLE_EQ(niceTickStep(0, 6), 1);
    EXPECT_EQ(tickDecimals(1), 0);
    EXPECT_EQ(tickDecimals(500), 0);
    EXPECT_EQ(tickDecimals(0.5), 1);
    EXPECT_EQ(tickDecimals(0.1), 1);
    EXPECT_EQ(tickDecimals(0.05), 2);
    EXPECT_EQ(tickDecimals(0.005), 3);
}

TEST(Formatting, Durations) {
    EXPECT_EQ(formatDuration(850), "850ms");
    EXPECT_EQ(formatDuration(45'000), "45s");
    EXPECT_EQ(formatDuration(65'000), "1m 05s");
    EXPECT_EQ(formatDuration(2 * 3600'000 + 3 * 60'000), "2h 03m");
    EXPECT_EQ(formatDuration(3 * 86400'000LL + 4 * 3600'000), "3d 04h");
    EXPECT_EQ(formatDuration(-5), "0ms");
}

// A chart's crosshair reads like a person says it.
TEST(Formatting, ElapsedTimeAndReadings) {
    EXPECT_EQ(formatElapsed(10'200), "10.2 s");
    EXPECT_EQ(formatElapsed(80'000), "1 m 20 s");
    EXPECT_EQ(formatElapsed(6'164'230), "1 h 42 m 44 s") << "was 1.7122864 h";
    EXPECT_EQ(formatElapsed(-1500), "-1.5 s");
    EXPECT_EQ(formatReading(0.123456), "0.1235");
    EXPECT_EQ(formatReading(12.3456), "12.35");
    EXPECT_EQ(formatReading(1234.0), "1234");
    EXPECT_EQ(formatReading(3.58e11), "358,000,000,000") << "no 3.58e+11 for an energy counter";
    EXPECT_EQ(formatReading(-1234567.0), "-1,234,567");
}

// One CSV quoting rule (RFC 4180) for the chart data, report tables, experiment files
// and the Insights table; the Insights table's own copy left a carriage return unquoted.
TEST(Formatting, CsvFieldsQuoteSeparatorsQuotesAndLineBreaksOnly) {
    EXPECT_EQ(csvField("plain text"), "plain text");
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("--name \"a b\""), "\"--name \"\"a b\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\rhere"), "\"cr\rhere\"");
    EXPECT_EQ(csvField("tab\there"), "tab\there") << "a tab is no CSV separator";
}

TEST_F(RunTreeModelTest, WorkloadsSortAsNumbersWhateverTheLocale) {
    // Regression: without ICU or a locale, QCollator put workload 1108 before 111.
    const int64_t experiment = m_store->getOrCreateExperiment("many workloads");
    for (const char* workload : {"1108", "111", "2", "12"}) {
        const radt::Run run = m_store->createRun(
            {experiment, std::string("w") + workload, 1000, "u", "s", RunStatus::Finished});
        m_store->logParams(run.uuid, {{"workload", workload}, {"letter", "0"}});
    }
    m_model.reload(*m_store);
    const QModelIndex many = child(QModelIndex(), "many workloads");
    ASSERT_TRUE(many.isValid());
    QStringList order;
    for (int row = 0; row < m_model.rowCount(many); ++row)
        order << m_model.index(row, 0, many).data().toString();
    EXPECT_EQ(order, (QStringList{"workload 2", "workload 12", "workload 111", "workload 1108"}));
    EXPECT_TRUE(naturalLess("run 2", "Run 10"));
    EXPECT_FALSE(naturalLess("1108", "111"));
}

// MLflow's nested child (no workload param) under a radt run of workload 1: the child sits
// under its parent, and no empty "(unsorted)" row is left behind in the experiment.
TEST_F(RunTreeModelTest, ANestedChildWithoutAWorkloadLeavesNoEmptyUnsortedRow) {
    const int64_t experiment = m_store->getOrCreateExperiment("nested");
    const std::string parent =
        m_store->createRun({experiment, "(1 0) train.py", 1000, "u", "s", RunStatus::Finished}).uuid;
    m_store->logParams(parent, {{"workload", "1"}, {"letter", "0"}});
    const std::string eval =
        m_store->createRun({experiment, "eval", 2000, "u", "s", RunStatus::Finished}).uuid;
    m_store->setTags(eval, {{"mlflow.parentRunId", parent}});
    m_model.reload(*m_store);
    const QModelIndex nested = child(QModelIndex(), "nested");
    ASSERT_TRUE(nested.isValid());
    ASSERT_EQ(m_model.rowCount(nested), 1) << "only workload 1, no empty (unsorted)";
    EXPECT_EQ(m_model.index(0, 0, nested).data().toString(), "workload 1");
    EXPECT_EQ(m_model.indexOfRun(QString::fromStdString(eval)).parent(),
              m_model.indexOfRun(QString::fromStdString(parent)));
}

TEST_F(RunTreeModelTest, NestedMlflowRunsSitUnderTheirParentRun) {
    // An MLflow sweep: a parent run and two child runs (mlflow.parentRunId), one grandchild;
    // radT's collocated pair of one workload points at its first run the same way and stays flat.
    const int64_t experiment = m_store->getOrCreateExperiment("sweep");
    auto create = [&](const std::string& name, int64_t start) {
        return m_store->createRun({experiment, name, start, "u", "s", RunStatus::Finished}).uuid;
    };
    const std::string parent = create("sweep parent", 1000);
    const std::string lr1 = create("lr=0.1", 2000), lr2 = create("lr=0.01", 3000);
    const std::string fold = create("fold 1", 4000);
    m_store->setTags(lr1, {{"mlflow.parentRunId", parent}});
    m_store->setTags(lr2, {{"mlflow.parentRunId", parent}});
    m_store->setTags(fold, {{"mlflow.parentRunId", lr2}});
    const std::string a = create("(3 0_A) x.py", 5000), b = create("(3 0_B) x.py", 5000);
    m_store->logParams(a, {{"workload", "3"}, {"letter", "0_A"}});
    m_store->logParams(b, {{"workload", "3"}, {"letter", "0_B"}});
    m_store->setTags(b, {{"mlflow.parentRunId", a}});
    const std::string loop1 = create("loop 1", 6000), loop2 = create("loop 2", 6000);
    m_store->setTags(loop1, {{"mlflow.parentRunId", loop2}});
    m_store->setTags(loop2, {{"mlflow.parentRunId", loop1}});
    m_model.reload(*m_store);
    QAbstractItemModelTester tester(&m_model, QAbstractItemModelTester::FailureReportingMode::Warning);

    const QModelIndex parentIndex = m_model.indexOfRun(QString::fromStdString(parent));
    ASSERT_TRUE(parentIndex.isValid());
    ASSERT_EQ(m_model.rowCount(parentIndex), 2) << "both children under their parent";
    EXPECT_EQ(m_model.index(0, 0, parentIndex).data().toString(), "lr=0.1");
    const QModelIndex lr2Index = m_model.index(1, 0, parentIndex);
    EXPECT_EQ(lr2Index.data().toString(), "lr=0.01");
    ASSERT_EQ(m_model.rowCount(lr2Index), 1);
    EXPECT_EQ(m_model.index(0, 0, lr2Index).data().toString(), "fold 1") << "nested two deep";
    EXPECT_EQ(m_model.indexOfRun(QString::fromStdString(fold)).parent(), lr2Index);
    EXPECT_EQ(m_model.runUuidsUnder(parentIndex).size(), 4) << "adding the parent adds its children";

    const QModelIndex pairB = m_model.indexOfRun(QString::fromStdString(b));
    EXPECT_EQ(pairB.parent().data().toString(), "workload 3") << "radT's collocated runs stay side by side";
    for (const std::string& loop : {loop1, loop2})
        EXPECT_TRUE(m_model.indexOfRun(QString::fromStdString(loop)).isValid()) << "a cycle loses no run";
    const QModelIndex sweep = child(QModelIndex(), "sweep");
    int runs = 0;
    for (const radt::Run& r : m_model.runs())
        runs += r.experimentId == experiment;
    EXPECT_EQ(m_model.runUuidsUnder(sweep).size(), runs) << "every run of the experiment is in its tree";
    EXPECT_EQ(test::modelTestWarnings(), QStringList());
}
