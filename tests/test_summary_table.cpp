// SPDX-License-Identifier: MIT
// SummaryModel and SummaryPanel over a real SQLite store: the figures are checked against
// statistics computed here independently (sorted copy, numpy-style interpolation).

#include "GuiTestSupport.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/base/MetricUnits.h"
#include "core/base/TextFormat.h"
#include "core/store/Store.h"
#include "widgets/chart/SummaryModel.h"
#include "widgets/chart/SummaryPanel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <locale>
#include <memory>
#include <set>
#include <sstream>

using namespace radt;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const std::string kPower = "SMI - Power Draw"; // a listener's key: its unit (W) shows
const std::string kLoss = "loss";

struct Generated {
    std::vector<int64_t> t;
    std::vector<double> v;
};

/// Irregular timestamps, values out of order (so percentiles need a sort), NaN where asked.
Generated generate(int n, double offset, double scale, int64_t start, const std::set<int>& nanAt) {
    Generated g;
    for (int i = 0; i < n; ++i) {
        g.t.push_back(start + i * 1000 + (i % 3) * 17);
        g.v.push_back(nanAt.count(i) ? kNaN : offset + scale * std::sin(i * 0.7) + i * 0.31);
    }
    return g;
}

struct Expected {
    size_t samples = 0;
    double min = kNaN, mean = kNaN, p50 = kNaN, p95 = kNaN, max = kNaN, last = kNaN;
    int64_t durationMs = 0;
};

Expected expectedStats(const Generated& g) {
    Expected e;
    std::vector<double> finite;
    for (double v : g.v) {
        if (!std::isnan(v)) {
            finite.push_back(v);
            e.last = v; // g.t is ascending, so this ends as the last finite value in time
        }
    }
    e.durationMs = g.t.back() - g.t.front();
    e.samples = finite.size();
    if (finite.empty())
        return e;
    std::vector<double> sorted = finite;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    long double sum = 0;
    for (double v : sorted)
        sum += v;
    const auto percentile = [&](double q) {
        const double pos = q * static_cast<double>(n - 1);
        const size_t lo = static_cast<size_t>(std::floor(pos));
        const size_t hi = std::min(lo + 1, n - 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
    };
    e.min = sorted.front();
    e.max = sorted.back();
    e.mean = static_cast<double>(sum / n);
    e.p50 = percentile(0.50);
    e.p95 = percentile(0.95);
    return e;
}

/// "%.10g" written another way than the model does (iostreams, classic locale).
std::string g10(double v) {
    if (std::isnan(v))
        return "";
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(10);
    out << v;
    return out.str();
}

struct ExpectedRow {
    std::string label, experiment, workload, letter, metric, uuid;
    Expected stats;
};

std::string tsvLine(const ExpectedRow& r) {
    const Expected& s = r.stats;
    return r.label + "\t\t" + r.experiment + "\t" + r.workload + "\t" + r.letter + "\t" + r.metric + "\t" +
           g10(s.min) + "\t" + g10(s.mean) + "\t" + g10(s.p50) + "\t" + g10(s.p95) + "\t" + g10(s.max) +
           "\t" + g10(s.last) + "\t" + std::to_string(s.durationMs) + "\t" + std::to_string(s.samples) + "\n";
}

const std::string kHeader =
    "Run\tLine\tExperiment\tWorkload\tLetter\tMetric\tMin\tMean\tP50\tP95\tMax\tLast\tDuration\tSamples\n";

class SummaryTableTest : public ::testing::Test {
protected:
    void SetUp() override {
        test::modelTestWarnings().clear();
        m_store = openStore("sqlite:///" + m_dir.file("store.db"), OpenMode::CreateIfMissing);
        const int64_t base = 1'700'000'000'000;
        // A: power with NaN inside, loss ending in NaN. B: power ending in NaN. C: power only,
        // workload 10 (numeric collation). D: an all-NaN loss. E: no metrics at all.
        const radt::Run a = addRun("summary-a", "1", "a", base);
        const radt::Run b = addRun("summary-a", "1", "b", base + 100'000);
        const radt::Run c = addRun("summary-b", "10", "a", base + 200'000);
        const radt::Run d = addRun("summary-b", "2", "a", base + 300'000);
        const radt::Run e = addRun("summary-b", "2", "b", base + 400'000);
        m_uuidE = e.uuid;
        m_uuidD = d.uuid;
        m_uuidC = c.uuid;

        const Generated powerA = generate(41, 100.0, 37.0, a.startTime, {5, 20});
        const Generated lossA = generate(30, 1.0, 0.5, a.startTime, {28, 29});
        const Generated powerB = generate(25, 200.0, 12.5, b.startTime, {24});
        const Generated powerC = generate(60, 50.0, 3.25, c.startTime, {});
        const Generated lossD = generate(5, 0.0, 1.0, d.startTime, {0, 1, 2, 3, 4});
        log(a, kPower, powerA);
        log(a, kLoss, lossA);
        log(b, kPower, powerB);
        log(c, kPower, powerC);
        log(d, kLoss, lossD);

        // rowsFor goes metric by metric, runs in the order given; D lacks power, B and C lack loss.
        m_expected = {expectedRow(a, "summary-a", kPower, powerA),
                      expectedRow(b, "summary-a", kPower, powerB),
                      expectedRow(c, "summary-b", kPower, powerC), expectedRow(a, "summary-a", kLoss, lossA),
                      expectedRow(d, "summary-b", kLoss, lossD)};

        std::map<int64_t, QString> names;
        for (const Experiment& x : m_store->experiments())
            names[x.id] = QString::fromStdString(x.name);
        m_runs = {a, b, c, d, e};
        m_panel = std::make_unique<SummaryPanel>();
        m_modelTester = std::make_unique<QAbstractItemModelTester>(
            m_panel->model(), QAbstractItemModelTester::FailureReportingMode::Warning);
        m_proxyTester = std::make_unique<QAbstractItemModelTester>(
            m_panel->view()->model(), QAbstractItemModelTester::FailureReportingMode::Warning);
        m_panel->setRows(SummaryPanel::rowsFor(*m_store, m_runs, {kPower, kLoss}, names));
    }
    void TearDown() override {
        m_proxyTester.reset();
        m_modelTester.reset();
        m_panel.reset();
        EXPECT_EQ(test::modelTestWarnings(), QStringList());
    }

    radt::Run addRun(const std::string& experiment, const std::string& workload, const std::string& letter,
                     int64_t start) {
        NewRun nr;
        nr.experimentId = m_store->getOrCreateExperiment(experiment);
        nr.name = "(" + workload + " " + letter + ") train";
        nr.startTime = start;
        nr.status = RunStatus::Finished;
        const radt::Run run = m_store->createRun(nr);
        m_store->logParams(run.uuid, {{"workload", workload}, {"letter", letter}});
        return *m_store->run(run.uuid);
    }
    void log(const radt::Run& run, const std::string& key, const Generated& g) {
        std::vector<MetricPoint> points;
        for (size_t i = 0; i < g.t.size(); ++i)
            points.push_back({key, g.v[i], g.t[i], static_cast<int64_t>(i)});
        m_store->logMetrics(run.uuid, points);
    }
    static ExpectedRow expectedRow(const radt::Run& run, const std::string& experiment,
                                   const std::string& metric, const Generated& g) {
        return {run.workload() + " " + run.letter(),
                experiment,
                run.workload(),
                run.letter(),
                metric,
                run.uuid,
                expectedStats(g)};
    }
    double raw(int row, int column) const {
        return m_panel->model()->index(row, column).data(SummaryModel::SortRole).toDouble();
    }
    /// Model rows in the proxy's current order, as indexes into m_expected (model order).
    std::vector<int> proxyOrder() const {
        std::vector<int> order;
        auto* proxy = m_panel->proxy();
        for (int row = 0; row < proxy->rowCount(); ++row)
            order.push_back(proxy->mapToSource(proxy->index(row, 0)).row());
        return order;
    }
    std::string expectedTsv(const std::vector<int>& rows) const {
        std::string out = kHeader;
        for (int r : rows)
            out += tsvLine(m_expected[static_cast<size_t>(r)]);
        return out;
    }

    test::TempDir m_dir;
    std::unique_ptr<Store> m_store;
    std::vector<radt::Run> m_runs;
    std::vector<ExpectedRow> m_expected;
    std::string m_uuidC, m_uuidD, m_uuidE;
    std::unique_ptr<SummaryPanel> m_panel;
    std::unique_ptr<QAbstractItemModelTester> m_modelTester;
    std::unique_ptr<QAbstractItemModelTester> m_proxyTester;
};

void expectClose(double actual, double expected, const char* what) {
    if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(actual)) << what << " = " << actual << ", expected NaN";
        return;
    }
    // Mean and interpolation may round differently in the last bits, never more.
    EXPECT_NEAR(actual, expected, 1e-12 * std::max(1.0, std::fabs(expected))) << what;
}

} // namespace

TEST_F(SummaryTableTest, FiguresMatchAnIndependentComputation) {
    const SummaryModel* model = m_panel->model();
    ASSERT_EQ(model->rowCount(), static_cast<int>(m_expected.size()));
    for (int r = 0; r < model->rowCount(); ++r) {
        const ExpectedRow& e = m_expected[static_cast<size_t>(r)];
        SCOPED_TRACE(e.label + " " + e.metric);
        const auto cell = [&](int column) { return model->index(r, column).data().toString().toStdString(); };
        EXPECT_EQ(cell(SummaryModel::RunColumn), e.label);
        EXPECT_EQ(cell(SummaryModel::ExperimentColumn), e.experiment);
        EXPECT_EQ(cell(SummaryModel::WorkloadColumn), e.workload);
        EXPECT_EQ(cell(SummaryModel::LetterColumn), e.letter);
        EXPECT_EQ(cell(SummaryModel::MetricColumn), keyWithUnit(e.metric));
        if (e.metric == kPower) // the unit of every number in its row; a script's "loss" has none
            EXPECT_EQ(cell(SummaryModel::MetricColumn), "SMI - Power Draw (W)");
        else
            EXPECT_EQ(cell(SummaryModel::MetricColumn), e.metric);
        EXPECT_EQ(model->row(r).runUuid, e.uuid);
        EXPECT_EQ(model->index(r, 0).data(SummaryModel::RunUuidRole).toString().toStdString(), e.uuid);

        // Min, max and last are logged values: exact. SQLite keeps doubles bit for bit.
        if (std::isnan(e.stats.min)) {
            EXPECT_TRUE(std::isnan(raw(r, SummaryModel::MinColumn)));
            EXPECT_TRUE(std::isnan(raw(r, SummaryModel::MaxColumn)));
            EXPECT_TRUE(std::isnan(raw(r, SummaryModel::LastColumn)));
            EXPECT_EQ(cell(SummaryModel::MaxColumn), "—");
        } else {
            EXPECT_EQ(raw(r, SummaryModel::MinColumn), e.stats.min);
            EXPECT_EQ(raw(r, SummaryModel::MaxColumn), e.stats.max);
            EXPECT_EQ(raw(r, SummaryModel::LastColumn), e.stats.last);
        }
        expectClose(raw(r, SummaryModel::MeanColumn), e.stats.mean, "mean");
        expectClose(raw(r, SummaryModel::P50Column), e.stats.p50, "p50");
        expectClose(raw(r, SummaryModel::P95Column), e.stats.p95, "p95");
        EXPECT_EQ(model->index(r, SummaryModel::DurationColumn).data(SummaryModel::SortRole).toLongLong(),
                  e.stats.durationMs);
        EXPECT_EQ(model->index(r, SummaryModel::SamplesColumn).data(SummaryModel::SortRole).toULongLong(),
                  e.stats.samples);
        EXPECT_EQ(cell(SummaryModel::SamplesColumn), std::to_string(e.stats.samples));
        EXPECT_EQ(cell(SummaryModel::DurationColumn), formatDuration(e.stats.durationMs));
    }
    // NaN points count for the duration but not as samples; the last finite value wins.
    EXPECT_EQ(m_expected[0].stats.samples, 39u);
    EXPECT_EQ(m_expected[3].stats.samples, 28u);
    EXPECT_EQ(m_expected[4].stats.samples, 0u);
    EXPECT_EQ(m_expected[1].stats.durationMs, 24 * 1000);
}

TEST_F(SummaryTableTest, RunsWithoutTheMetricHaveNoRow) {
    const SummaryModel* model = m_panel->model();
    std::multiset<std::pair<std::string, std::string>> present;
    for (int r = 0; r < model->rowCount(); ++r)
        present.insert({model->row(r).runUuid, model->row(r).metric.toStdString()});
    EXPECT_EQ(present.count({m_uuidE, kPower}) + present.count({m_uuidE, kLoss}), 0u);
    EXPECT_EQ(present.count({m_uuidD, kPower}), 0u);
    EXPECT_EQ(present.count({m_uuidC, kLoss}), 0u);
    // An all-NaN series still has the metric: its row stays, with no figures.
    EXPECT_EQ(present.count({m_uuidD, kLoss}), 1u);
    EXPECT_EQ(model->rowCount(), 5);

    // Only the metrics asked for.
    const auto onlyLoss = SummaryPanel::rowsFor(*m_store, m_runs, {kLoss}, {});
    ASSERT_EQ(onlyLoss.size(), 2u);
    EXPECT_EQ(onlyLoss[0].metric.toStdString(), kLoss);
    // Without a name the experiment reads as its id.
    EXPECT_EQ(onlyLoss[0].experiment, QString::number(m_runs[0].experimentId));
    EXPECT_EQ(onlyLoss[1].runUuid, m_uuidD);
    EXPECT_TRUE(SummaryPanel::rowsFor(*m_store, m_runs, {"no such metric"}, {}).empty());
}

TEST_F(SummaryTableTest, DisplayIsCompactToolTipIsFull) {
    SummaryRow row;
    row.label = QStringLiteral("3 c");
    row.runUuid = "0123456789abcdef0123456789abcdef";
    row.stats.samples = 7;
    row.stats.min = 0.0012;
    row.stats.mean = 98.1234;
    row.stats.p50 = 1234567.0;
    row.stats.p95 = -3.0;
    row.stats.max = 0.1;
    row.stats.last = kNaN;
    row.stats.durationMs = 65'000;
    m_panel->setRows({row});
    const SummaryModel* model = m_panel->model();
    const auto display = [&](int column) { return model->index(0, column).data().toString(); };
    EXPECT_EQ(display(SummaryModel::MinColumn), "0.0012");
    EXPECT_EQ(display(SummaryModel::MeanColumn), "98.12");
    EXPECT_EQ(display(SummaryModel::P50Column), "1.235e+06");
    EXPECT_EQ(display(SummaryModel::P95Column), "-3");
    EXPECT_EQ(display(SummaryModel::LastColumn), "—");
    EXPECT_EQ(display(SummaryModel::DurationColumn), "1m 05s");
    EXPECT_EQ(display(SummaryModel::SamplesColumn), "7");
    EXPECT_EQ(model->index(0, SummaryModel::MeanColumn).data(Qt::ToolTipRole).toString(), "98.1234");
    EXPECT_EQ(model->index(0, SummaryModel::MaxColumn).data(Qt::ToolTipRole).toString(), "0.1");
    EXPECT_EQ(model->index(0, SummaryModel::DurationColumn).data(Qt::ToolTipRole).toString(), "65000 ms");
    EXPECT_TRUE(model->index(0, SummaryModel::RunColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QString::fromStdString(row.runUuid)));

    const int right = static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    for (int column = SummaryModel::MinColumn; column < SummaryModel::NUM_COLUMNS; ++column)
        EXPECT_EQ(model->index(0, column).data(Qt::TextAlignmentRole).toInt(), right) << column;
    EXPECT_NE(model->index(0, SummaryModel::RunColumn).data(Qt::TextAlignmentRole).toInt(), right);

    QStringList headers;
    for (int column = 0; column < model->columnCount(); ++column)
        headers.append(model->headerData(column, Qt::Horizontal).toString());
    EXPECT_EQ(headers.join('\t') + '\n', QString::fromStdString(kHeader));

    // The TSV keeps full precision, leaves NaN empty, and gives the duration in ms.
    EXPECT_EQ(model->toTsv().toStdString(),
              kHeader + "3 c\t\t\t\t\t\t0.0012\t98.1234\t1234567\t-3\t0.1\t\t65000\t7\n");
    m_panel->setRows({});
    EXPECT_EQ(model->rowCount(), 0);
    EXPECT_EQ(m_panel->copyToClipboard().toStdString(), kHeader);
}

TEST_F(SummaryTableTest, SortingThroughTheProxyIsNumericWithNaNLast) {
    QTableView* view = m_panel->view();
    EXPECT_EQ(view->model(), m_panel->proxy());
    EXPECT_EQ(proxyOrder(), (std::vector<int>{0, 1, 2, 3, 4})); // unsorted until asked

    // Max: power B ~212, power A ~148, power C ~71, loss A ~10, loss D none.
    view->sortByColumn(SummaryModel::MaxColumn, Qt::DescendingOrder);
    std::vector<int> byMaxDesc = {0, 1, 2, 3};
    std::sort(byMaxDesc.begin(), byMaxDesc.end(),
              [&](int x, int y) { return m_expected[x].stats.max > m_expected[y].stats.max; });
    byMaxDesc.push_back(4);
    EXPECT_EQ(byMaxDesc, (std::vector<int>{1, 0, 2, 3, 4}));
    EXPECT_EQ(proxyOrder(), byMaxDesc);

    view->sortByColumn(SummaryModel::MaxColumn, Qt::AscendingOrder);
    EXPECT_EQ(proxyOrder(), (std::vector<int>{3, 2, 0, 1, 4}));

    // Samples as numbers, not text: 60 > 39 > 28 > 24 > 0.
    view->sortByColumn(SummaryModel::SamplesColumn, Qt::DescendingOrder);
    EXPECT_EQ(proxyOrder(), (std::vector<int>{2, 0, 3, 1, 4}));

    // Labels in natural order ("10 a" after "2 a"); equal labels keep model order.
    view->sortByColumn(SummaryModel::RunColumn, Qt::AscendingOrder);
    EXPECT_EQ(proxyOrder(), (std::vector<int>{0, 3, 1, 4, 2}));

    // New rows are sorted as the header says.
    view->sortByColumn(SummaryModel::MaxColumn, Qt::DescendingOrder);
    std::vector<SummaryRow> rows = m_panel->model()->rows();
    std::reverse(rows.begin(), rows.end());
    m_panel->setRows(rows);
    EXPECT_EQ(proxyOrder(), (std::vector<int>{3, 4, 2, 1, 0}));
}

TEST_F(SummaryTableTest, CopyAllRowsAsTsvInDisplayOrder) {
    const std::string all = expectedTsv({0, 1, 2, 3, 4});
    EXPECT_EQ(m_panel->model()->toTsv().toStdString(), all);
    QApplication::clipboard()->clear();
    EXPECT_EQ(m_panel->copyToClipboard().toStdString(), all);
    EXPECT_EQ(QApplication::clipboard()->text().toStdString(), all);

    // The button copies the rows as the table shows them.
    m_panel->view()->sortByColumn(SummaryModel::MaxColumn, Qt::DescendingOrder);
    QApplication::clipboard()->clear();
    m_panel->show();
    auto* button = m_panel->findChild<QPushButton*>();
    ASSERT_NE(button, nullptr);
    EXPECT_EQ(button->text(), "Copy as TSV");
    QTest::mouseClick(button, Qt::LeftButton);
    EXPECT_EQ(QApplication::clipboard()->text().toStdString(), expectedTsv({1, 0, 2, 3, 4}));
}

TEST_F(SummaryTableTest, CopySelectedRowsOnly) {
    QTableView* view = m_panel->view();
    view->sortByColumn(SummaryModel::MaxColumn, Qt::DescendingOrder); // model rows 1, 0, 2, 3, 4
    QItemSelectionModel* selection = view->selectionModel();
    const auto flags = QItemSelectionModel::Select | QItemSelectionModel::Rows;
    selection->select(view->model()->index(2, 0), flags);
    selection->select(view->model()->index(0, 0), flags);
    const std::string expected = expectedTsv({1, 2});
    EXPECT_EQ(m_panel->copyToClipboard().toStdString(), expected);
    EXPECT_EQ(QApplication::clipboard()->text().toStdString(), expected);

    // A single selected cell copies its whole row.
    selection->clearSelection();
    selection->select(view->model()->index(4, SummaryModel::MeanColumn), QItemSelectionModel::Select);
    EXPECT_EQ(m_panel->copyToClipboard().toStdString(), expectedTsv({4}));

    // toTsv on model indexes: each row once, in the order first given, whatever the column.
    const SummaryModel* model = m_panel->model();
    const QModelIndexList picked = {model->index(3, SummaryModel::MaxColumn), model->index(0, 0),
                                    model->index(3, 0)};
    EXPECT_EQ(model->toTsv(picked).toStdString(), expectedTsv({3, 0}));
}

TEST_F(SummaryTableTest, NamesWithTabsDoNotShiftColumns) {
    SummaryRow row;
    row.label = QStringLiteral("x");
    row.experiment = QStringLiteral("tab\there");
    row.metric = QStringLiteral("two\nlines");
    m_panel->setRows({row});
    EXPECT_EQ(m_panel->model()->toTsv().toStdString(),
              kHeader + "x\t\ttab here\t\t\ttwo lines\t\t\t\t\t\t\t0\t0\n");
}
