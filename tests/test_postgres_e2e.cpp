// SPDX-License-Identifier: MIT
// End to end against a real PostgreSQL server: several `radt` processes recording into one server
// (pg_virtualenv's) at once, and a server outage in the middle of a recording. The outage stops a
// server of the test's own (PrivatePostgres), so the tests beside it keep theirs.

#include "PrivatePostgres.h"
#include "RadtProcess.h"
#include "StoreTestBackends.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <thread>

using namespace radt;
using namespace radt::test;

namespace {

class PostgresE2E : public ::testing::Test {
protected:
    void SetUp() override {
        m_backend = makeBackend("postgresql");
        if (!m_backend->available())
            GTEST_SKIP() << m_backend->unavailableReason();
        m_uri = m_backend->freshUri();
        writeTicksWorkload(m_dir);
    }
    Radt start(const std::vector<std::string>& extra) {
        std::vector<std::string> args = {"--store",    m_uri, "--no-env-capture", "-l", "top+proc",
                                         "--interval", "0.1"};
        args.insert(args.end(), extra.begin(), extra.end());
        return startRadt(m_dir, args);
    }
    std::unique_ptr<StoreBackend> m_backend;
    std::string m_uri;
    TempDir m_dir;
};

} // namespace

TEST_F(PostgresE2E, EightCollectorsRecordIntoOneServerAtOnce) {
    // The store exists first, as on a lab server; each radt adds its run to one experiment.
    openStore(m_uri, OpenMode::CreateIfMissing)->getOrCreateExperiment("cluster");
    std::vector<std::unique_ptr<Radt>> collectors;
    for (int i = 0; i < 8; ++i)
        collectors.push_back(std::make_unique<Radt>(
            std::vector<std::string>{"--store", m_uri, "--no-env-capture", "-l", "top+proc", "--interval",
                                     "0.1", "-e", "cluster", "-w", "1", m_dir.file("ticks.py"), "40", "0.05"},
            std::map<std::string, std::string>{}));
    for (auto& c : collectors)
        EXPECT_EQ(c->wait(), 0) << c->err();
    auto store = openStore(m_uri, OpenMode::OpenExisting);
    const auto runs = store->runs();
    ASSERT_EQ(runs.size(), 8u);
    for (const radt::Run& run : runs) {
        EXPECT_EQ(run.status, RunStatus::Finished);
        const Series ticks = store->series(run.uuid, "tick");
        ASSERT_EQ(ticks.step.size(), 40u) << "every sample of every collector";
        for (int64_t i = 0; i < 40; ++i)
            EXPECT_EQ(ticks.step[i], i);
        EXPECT_EQ(store->latestMetrics(run.uuid).at("tick").step, 39);
        EXPECT_FALSE(store->series(run.uuid, "PROC - RSS MB").v.empty());
    }
}

TEST(PostgresOutage, AServerOutageOf20SecondsLosesNothing) {
    PrivatePostgres server;
    if (!server.unavailableReason().empty())
        GTEST_SKIP() << server.unavailableReason();
    server.initAndStart();
    ASSERT_EQ(server.psql("CREATE DATABASE radt"), 0) << server.log();
    const std::string uri = server.uri("radt");
    TempDir dir;
    writeTicksWorkload(dir);
    Radt r = startRadt(dir, {"--store", uri, "--no-env-capture", "-l", "top+proc", "--interval", "0.1",
                             dir.file("ticks.py"), "300", "0.1"}); // about 30 s of ticks
    ASSERT_TRUE(waitFor(
        [&] {
            try {
                auto store = openStore(uri, OpenMode::OpenExisting);
                auto runs = store->runs();
                return !runs.empty() && store->series(runs[0].uuid, "tick").v.size() >= 10;
            } catch (const std::exception&) {
                return false;
            }
        },
        20000))
        << r.err();
    server.stop();
    std::this_thread::sleep_for(std::chrono::seconds(20));
    server.start();
    EXPECT_EQ(r.wait(), 0) << r.err();
    EXPECT_EQ(countContaining(r.err(), "cannot write to the store yet"), 1) << r.err();
    EXPECT_EQ(countContaining(r.err(), "the store accepts writes again"), 1) << r.err();

    auto store = openStore(uri, OpenMode::OpenExisting);
    const radt::Run run = store->runs().at(0);
    EXPECT_EQ(run.status, RunStatus::Finished);
    const Series ticks = store->series(run.uuid, "tick");
    ASSERT_EQ(ticks.step.size(), 300u) << "nothing lost while the server was away";
    for (int64_t i = 0; i < 300; ++i)
        ASSERT_EQ(ticks.step[i], i);
    // The /proc listener kept sampling through the outage: no 20 s hole in its series.
    const Series rss = store->series(run.uuid, "PROC - RSS MB");
    int64_t widestGap = 0;
    for (size_t i = 1; i < rss.t.size(); ++i)
        widestGap = std::max(widestGap, rss.t[i] - rss.t[i - 1]);
    EXPECT_LT(widestGap, 2000);
}
