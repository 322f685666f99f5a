// SPDX-License-Identifier: MIT
// Per-run envelopes (core/store/RunEnvelopes.h) on every backend of the store contract: what a chart of
// hundreds of runs reads instead of every row. Saved when asked, read back only while fresh, made
// again when stale, never for a short series, never on a store that cannot keep them.

#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/RunEnvelopes.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

using namespace radt;

namespace {

class RunEnvelopes : public test::BackendTest {
protected:
    bool keepsEnvelopes() const { return GetParam().find("2019") == std::string::npos; }
};
/// The stores that keep envelopes: not 2019's (no latest_metrics to tell fresh from stale).
class KeptEnvelopes : public test::BackendTest {};

/// `n` samples a second apart with a spike every 997th: peaks an envelope must keep.
std::vector<MetricPoint> samples(const std::string& key, int from, int n) {
    std::vector<MetricPoint> points;
    for (int i = from; i < from + n; ++i)
        points.push_back({key, i % 997 == 0 ? 400.0 : 100 + 50 * std::sin(i / 300.0),
                          1700000000000 + 1000 * int64_t(i), 0});
    return points;
}

void expectSameSeries(const Series& a, const Series& b) {
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(a.t, b.t);
    EXPECT_EQ(a.step, b.step);
    EXPECT_EQ(a.v, b.v);
}

} // namespace

TEST_P(RunEnvelopes, AFinishedRunsLongSeriesAreSavedAndReadBackAsTheirEnvelope) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "long", 0, "u", "s", RunStatus::Running}).uuid;
    store->logMetrics(run, samples("power", 0, 10000));
    store->logMetrics(run, samples("short", 0, 2000)); // read whole: no envelope
    store->setRunStatus(run, RunStatus::Finished, std::nullopt);
    EXPECT_EQ(store->pointCounts(run), (std::map<std::string, int64_t>{{"power", 10000}, {"short", 2000}}));

    const size_t written = writeRunEnvelopes(*store, run);
    if (!keepsEnvelopes()) {
        EXPECT_EQ(written, 0u) << "no latest_metrics to tell a fresh envelope from a stale one";
        EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "power", 1024).empty());
        return;
    }
    EXPECT_EQ(written, 2u) << "power at 1024 and 4096 slices";
    const Series whole = store->series(run, "power");
    for (int level : envelopeLevels()) {
        const auto stored = store->envelopes().storedEnvelopes({run, "no-such-run"}, "power", level);
        ASSERT_EQ(stored.size(), 1u) << level;
        const StoredEnvelope& e = stored.at(run);
        EXPECT_EQ(e.pointCount, 10000);
        EXPECT_LE(e.series.size(), size_t(2 * level));
        expectSameSeries(e.series, envelopeOf(whole, whole.t.front(), whole.t.back(), level));
        EXPECT_EQ(*std::max_element(e.series.v.begin(), e.series.v.end()), 400.0) << "the spikes survive";
    }
    EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "short", 1024).empty());
    EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "power", 777).empty()) << "no such resolution";
}

TEST_P(KeptEnvelopes, APointLoggedAfterwardsMakesTheEnvelopeStaleUntilItIsWrittenAgain) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "grows", 0, "u", "s", RunStatus::Running}).uuid;
    store->logMetrics(run, samples("power", 0, 5000));
    ASSERT_EQ(writeRunEnvelopes(*store, run), 1u);
    ASSERT_EQ(store->envelopes().storedEnvelopes({run}, "power", 1024).size(), 1u);

    // MLflow's client (or a resumed run) adds a point: latest_metrics moves, the envelope is old.
    store->logMetrics(run, samples("power", 5000, 1));
    EXPECT_TRUE(store->envelopes().storedEnvelopes({run}, "power", 1024).empty());
    ASSERT_EQ(writeRunEnvelopes(*store, run), 1u);
    const auto again = store->envelopes().storedEnvelopes({run}, "power", 1024);
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again.at(run).pointCount, 5001);

    // Another connection (the explorer while radt writes) sees the same.
    auto other = openStore(m_uri, OpenMode::OpenExisting);
    EXPECT_EQ(other->envelopes().storedEnvelopes({run}, "power", 1024).size(), 1u);
}

TEST_P(KeptEnvelopes, AReadOnlyStoreReadsEnvelopesAndWritesNone) {
    std::string run;
    {
        auto store = openStore(m_uri, OpenMode::CreateIfMissing);
        run = store->createRun({0, "r", 0, "u", "s", RunStatus::Finished}).uuid;
        store->logMetrics(run, samples("power", 0, 5000));
        store->logMetrics(run, samples("temp", 0, 5000));
        const std::optional<int64_t> changes = store->envelopes().envelopeChangeCount(run);
        ASSERT_TRUE(changes);
        ASSERT_TRUE(store->envelopes().saveEnvelopes(run, envelopesOf("power", store->series(run, "power"),
                                                                      store->latestMetrics(run).at("power"),
                                                                      *changes)));
    }
    auto readOnly = openStore(m_uri, OpenMode::ReadOnly);
    EXPECT_EQ(readOnly->envelopes().storedEnvelopes({run}, "power", 1024).size(), 1u);
    EXPECT_EQ(writeRunEnvelopes(*readOnly, run), 0u);
    EXPECT_TRUE(readOnly->envelopes().storedEnvelopes({run}, "temp", 1024).empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, RunEnvelopes,
                         ::testing::Values("sqlite", "postgresql", "sqlite_mlflow3", "postgresql_mlflow3",
                                           "sqlite_2019", "postgresql_2019"),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, KeptEnvelopes,
                         ::testing::Values("sqlite", "postgresql", "sqlite_mlflow3", "postgresql_mlflow3"),
                         [](const auto& info) { return info.param; });

TEST(RunEnvelopesSqlite, RowsOfAnotherVersionAreIgnoredAndABrokenOneIsNamed) {
    test::TempDir dir;
    const std::string db = dir.file("s.db");
    std::string run;
    {
        auto store = openStore(db, OpenMode::CreateIfMissing);
        run = store->createRun({0, "r", 0, "u", "s", RunStatus::Finished}).uuid;
        store->logMetrics(run, samples("power", 0, 5000));
        ASSERT_EQ(writeRunEnvelopes(*store, run), 1u);
    }
    auto sql = [&](const char* statement) {
        sqlite3* h = nullptr;
        ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(h, statement, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(h);
        sqlite3_close(h);
    };
    sql("UPDATE radt_envelopes SET version = version + 1");
    EXPECT_TRUE(
        openStore(db, OpenMode::OpenExisting)->envelopes().storedEnvelopes({run}, "power", 1024).empty())
        << "a newer radt's envelope is not read as ours";

    sql("UPDATE radt_envelopes SET version = version - 1, points = x'0102030405'");
    const std::string error = test::errorOf(
        [&] { openStore(db, OpenMode::OpenExisting)->envelopes().storedEnvelopes({run}, "power", 1024); });
    EXPECT_NE(error.find("radt_envelopes of run " + run + ", 'power'"), std::string::npos) << error;
    EXPECT_NE(error.find("5 bytes"), std::string::npos) << error;
}

TEST(RunEnvelopesSqlite, EncodingRoundTripsEveryValueBitForBit) {
    Series s;
    const double values[] = {0.0, -0.0, 1e-310, -1.5, 1.7976931348623157e308, std::nan("")};
    for (size_t i = 0; i < std::size(values); ++i) {
        s.t.push_back(int64_t(i) * -123456789012);
        s.step.push_back(int64_t(1) << (10 * i));
        s.v.push_back(values[i]);
    }
    const std::string bytes = encodeEnvelopePoints(s);
    ASSERT_EQ(bytes.size(), 24 * s.size());
    const Series back = decodeEnvelopePoints(bytes.data(), bytes.size(), "test");
    EXPECT_EQ(back.t, s.t);
    EXPECT_EQ(back.step, s.step);
    ASSERT_EQ(back.v.size(), s.v.size());
    for (size_t i = 0; i < s.size(); ++i)
        EXPECT_EQ(std::memcmp(&back.v[i], &s.v[i], sizeof(double)), 0) << i;
}
