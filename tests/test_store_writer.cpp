// SPDX-License-Identifier: MIT
// The live bus and the writer thread in front of a real SQLite store (resources/DESIGN.md §8).

#include "TempDir.h"
#include "collector/SampleBus.h"
#include "collector/StoreWriter.h"
#include "core/StoreFactory.h"
#include "core/store/SpillFile.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <mutex>
#include <thread>

using namespace radt;
using radt::test::TempDir;

namespace {

std::unique_ptr<Store> freshStore(const TempDir& dir) {
    return openStore("sqlite:///" + dir.file("w.db"), OpenMode::CreateIfMissing);
}

std::string newRun(Store& store) {
    NewRun spec;
    spec.name = "w";
    return store.createRun(spec).uuid;
}

std::vector<MetricPoint> points(const std::string& key, int64_t from, int count) {
    std::vector<MetricPoint> out;
    for (int i = 0; i < count; ++i)
        out.push_back({key, static_cast<double>(from + i), 1'700'000'000'000 + from + i, 0});
    return out;
}

/// A real store that refuses writes while `down` is set: the outage of a server or a locked file,
/// without waiting out SQLite's 10 s busy timeout in a test.
class OutageStore : public Store {
public:
    explicit OutageStore(Store& real) : m_real(real) {}
    std::atomic<bool> down{false};
    std::atomic<int> refused{0};

    std::string displayUri() const override { return m_real.displayUri(); }
    int64_t getOrCreateExperiment(const std::string& n) override { return m_real.getOrCreateExperiment(n); }
    Run createRun(const NewRun& r) override { return m_real.createRun(r); }
    void setRunStatus(const std::string& u, RunStatus s, std::optional<int64_t> e) override {
        m_real.setRunStatus(u, s, e);
    }
    void logParams(const std::string& u, const std::vector<std::pair<std::string, std::string>>& p) override {
        check();
        m_real.logParams(u, p);
    }
    void setTags(const std::string& u, const std::vector<std::pair<std::string, std::string>>& t) override {
        check();
        m_real.setTags(u, t);
    }
    void logMetrics(const std::string& u, const std::vector<MetricPoint>& p) override {
        check();
        m_real.logMetrics(u, p);
    }
    StoreCuration& curation() override { return m_real.curation(); }
    StoreMaintenance& maintenance() override { return m_real.maintenance(); }
    std::vector<Experiment> experiments() override { return m_real.experiments(); }
    std::vector<Run> runs(std::optional<int64_t> e) override { return m_real.runs(e); }
    std::optional<Run> run(const std::string& u) override { return m_real.run(u); }
    std::vector<std::string> metricKeys(const std::vector<std::string>& u) override {
        return m_real.metricKeys(u);
    }
    std::map<std::string, LatestMetric> latestMetrics(const std::string& u) override {
        return m_real.latestMetrics(u);
    }
    Series series(const std::string& u, const std::string& k) override { return m_real.series(u, k); }
    Series seriesRange(const std::string& u, const std::string& k, int64_t a, int64_t b) override {
        return m_real.seriesRange(u, k, a, b);
    }

    std::atomic<int> delayMs{0}; ///< each write takes this long: a healthy but slow store

private:
    void check() {
        if (delayMs)
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs.load()));
        if (down) {
            ++refused;
            throw StoreError("server closed the connection unexpectedly");
        }
    }
    Store& m_real;
};

} // namespace

TEST(SampleBus, FansOutToEverySubscriberUntilUnsubscribed) {
    SampleBus bus;
    std::vector<std::string> a, b;
    const int ida = bus.subscribe([&](const std::string& run, const std::vector<MetricPoint>& p) {
        a.push_back(run + ":" + std::to_string(p.size()));
    });
    const int idb =
        bus.subscribe([&](const std::string& run, const std::vector<MetricPoint>&) { b.push_back(run); });
    bus.publish("r1", points("k", 0, 3));
    bus.publish("r2", {});
    bus.unsubscribe(ida);
    bus.publish("r3", points("k", 0, 1));
    EXPECT_EQ(a, (std::vector<std::string>{"r1:3"}));
    EXPECT_EQ(b, (std::vector<std::string>{"r1", "r3"}));
    EXPECT_EQ(bus.published(), 4u);
    bus.unsubscribe(idb);
    bus.unsubscribe(12345); // unknown ids are harmless
}

TEST(SampleBus, UnsubscribeWaitsForARunningCallback) {
    SampleBus bus;
    std::atomic<bool> inside{false}, finished{false};
    const int id = bus.subscribe([&](const std::string&, const std::vector<MetricPoint>&) {
        inside = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        finished = true;
    });
    std::thread publisher([&] { bus.publish("r", points("k", 0, 1)); });
    while (!inside)
        std::this_thread::yield();
    bus.unsubscribe(id);
    EXPECT_TRUE(finished) << "after unsubscribe() returns the callback is not running";
    publisher.join();
}

TEST(StoreWriter, BatchesConcurrentPublishersIntoFewTransactions) {
    TempDir dir;
    auto store = freshStore(dir);
    const std::string run = newRun(*store);
    StoreWriter writer(*store, [](const std::string&) {});
    SampleBus bus;
    bus.subscribe([&](const std::string& r, const std::vector<MetricPoint>& p) { writer.enqueue(r, p); });
    std::vector<std::thread> publishers;
    for (int t = 0; t < 4; ++t)
        publishers.emplace_back([&, t] {
            for (int i = 0; i < 50; ++i)
                bus.publish(run, points("key " + std::to_string(t), i * 100, 100));
        });
    for (auto& p : publishers)
        p.join();
    const StoreWriterStats stats = writer.close();
    EXPECT_EQ(stats.written, 20000u);
    EXPECT_EQ(stats.unwritten, 0u);
    EXPECT_EQ(stats.dropped, 0u);
    EXPECT_LE(stats.transactions, 12u) << "20k points arrive in a burst: batches, not one write each";
    for (int t = 0; t < 4; ++t) {
        const Series s = store->series(run, "key " + std::to_string(t));
        ASSERT_EQ(s.v.size(), 5000u);
        EXPECT_EQ(s.v.front(), 0);
        EXPECT_EQ(s.v.back(), 4999);
    }
}

TEST(StoreWriter, FlushesWithinAQuarterSecond) {
    TempDir dir;
    auto store = freshStore(dir);
    const std::string run = newRun(*store);
    StoreWriter writer(*store, [](const std::string&) {});
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // the writer is idle, waiting
    writer.enqueue(run, points("k", 0, 5));
    // A second connection reads while the writer owns the first, as the explorer does (WAL).
    auto reader = openStore("sqlite:///" + dir.file("w.db"), OpenMode::OpenExisting);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (reader->series(run, "k").v.size() < 5 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(reader->series(run, "k").v.size(), 5u) << "a few samples are written without waiting for 10k";
    EXPECT_EQ(writer.close().written, 5u);
}

TEST(StoreWriter, KeepsSamplesThroughAnOutageAndSaysSoOnce) {
    TempDir dir;
    auto real = freshStore(dir);
    const std::string run = newRun(*real);
    OutageStore store(*real);
    std::vector<std::string> messages;
    std::mutex m;
    StoreWriterOptions options;
    options.retryMs = 50;
    StoreWriter writer(
        store,
        [&](const std::string& s) {
            std::lock_guard<std::mutex> lock(m);
            messages.push_back(s);
        },
        options);
    writer.enqueue(run, points("k", 0, 10));
    ASSERT_TRUE(writer.drain(5000));
    store.down = true;
    writer.post([&](Store& s) { s.setTags(run, {{"during", "outage"}}); });
    for (int i = 1; i <= 20; ++i) {
        writer.enqueue(run, points("k", i * 10, 10));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(test::waitFor([&] { return store.refused.load() >= 2; }, 5000))
        << "the writer keeps retrying";
    store.down = false;
    const StoreWriterStats stats = writer.close();
    EXPECT_EQ(stats.written, 210u);
    EXPECT_EQ(stats.unwritten, 0u);
    const Series s = real->series(run, "k");
    ASSERT_EQ(s.v.size(), 210u);
    for (size_t i = 0; i < s.v.size(); ++i)
        ASSERT_EQ(s.v[i], static_cast<double>(i)) << "order and content survive the outage";
    EXPECT_EQ(real->run(run)->tags.at("during"), "outage") << "posted writes are retried in order too";
    ASSERT_EQ(messages.size(), 2u);
    EXPECT_NE(messages[0].find("cannot write to the store yet"), std::string::npos) << messages[0];
    EXPECT_NE(messages[0].find("server closed the connection"), std::string::npos) << messages[0];
    EXPECT_NE(messages[1].find("accepts writes again"), std::string::npos) << messages[1];
}

TEST(StoreWriter, GivesUpAfterTheRetryWindowAndCountsWhatIsLeft) {
    TempDir dir;
    auto real = freshStore(dir);
    const std::string run = newRun(*real);
    OutageStore store(*real);
    store.down = true;
    StoreWriterOptions options;
    options.retryMs = 20;
    StoreWriter writer(
        store, [](const std::string&) {}, options);
    writer.enqueue(run, points("k", 0, 7));
    const StoreWriterStats stats = writer.close(300);
    EXPECT_EQ(stats.written, 0u);
    EXPECT_EQ(stats.unwritten, 7u);
}

// A burst of metric lines larger than the closing window (5M lines made a healthy run exit
// 2 and stay RUNNING, blaming the store): a store that keeps committing is waited for until all is
// written, with progress said; only a window without progress gives up.
TEST(StoreWriter, ABurstLongerThanTheCloseWindowIsWrittenWholeWhileTheStoreTakesWrites) {
    TempDir dir;
    auto real = freshStore(dir);
    const std::string run = newRun(*real);
    OutageStore store(*real);
    store.delayMs = 50; // 60 batches: ~3 s of writing, against a 1 s window
    StoreWriterOptions options;
    options.maxBatch = 1000;
    std::vector<std::string> said;
    std::mutex saidMutex;
    StoreWriter writer(
        store,
        [&](const std::string& m) {
            std::lock_guard<std::mutex> lock(saidMutex);
            said.push_back(m);
        },
        options);
    for (int i = 0; i < 60; ++i)
        writer.enqueue(run, points("burst", i * 1000, 1000));
    const StoreWriterStats stats = writer.close(1000);
    EXPECT_EQ(stats.written, 60000u);
    EXPECT_EQ(stats.unwritten, 0u);
    EXPECT_EQ(real->series(run, "burst").size(), 60000u);
    std::lock_guard<std::mutex> lock(saidMutex);
    ASSERT_FALSE(said.empty());
    EXPECT_NE(said.front().find("still writing to the store: "), std::string::npos) << said.front();
    for (const std::string& m : said)
        EXPECT_EQ(m.find("cannot write"), std::string::npos) << "the store was never blamed: " << m;
}

TEST(StoreWriter, WhatTheStoreNeverTookIsKeptInTheSpillFileForALaterImport) {
    TempDir dir;
    auto real = freshStore(dir);
    const std::string run = newRun(*real);
    OutageStore store(*real);
    store.down = true;
    StoreWriterOptions options;
    options.retryMs = 20;
    options.spillPath = dir.file("spill.tsv");
    StoreWriter writer(
        store, [](const std::string&) {}, options);
    writer.enqueue(run, points("k", 0, 7));
    const StoreWriterStats stats = writer.close(300);
    EXPECT_EQ(stats.unwritten, 7u);
    EXPECT_EQ(stats.kept, 7u) << "in memory when the writer gave up: now on disk";
    EXPECT_EQ(importSpillFile(*real, dir.file("spill.tsv")), 7u);
    const Series s = real->series(run, "k");
    ASSERT_EQ(s.size(), 7u);
    EXPECT_EQ(s.v[6], 6.0);
}

TEST(StoreWriter, DropsAndCountsBeyondItsBound) {
    TempDir dir;
    auto real = freshStore(dir);
    const std::string run = newRun(*real);
    OutageStore store(*real);
    store.down = true;
    StoreWriterOptions options;
    options.capacity = 100;
    options.retryMs = 20;
    int warnings = 0;
    StoreWriter writer(
        store, [&](const std::string& m) { warnings += m.find("dropped") != std::string::npos; }, options);
    for (int i = 0; i < 5; ++i)
        writer.enqueue(run, points("k", i * 40, 40));
    store.down = false;
    const StoreWriterStats stats = writer.close();
    EXPECT_EQ(stats.dropped, 120u);
    EXPECT_EQ(stats.written, 80u);
    EXPECT_EQ(warnings, 1);
}

TEST(StoreWriter, BeyondItsBoundAnOutageSpillsToDiskAndIsReadBackInOrder) {
    TempDir dir;
    auto real = freshStore(dir);
    const std::string run = newRun(*real);
    OutageStore store(*real);
    store.down = true;
    StoreWriterOptions options;
    options.capacity = 100;
    options.maxBatch = 64; // several read-back batches
    options.retryMs = 20;
    options.spillPath = dir.file("spill.tsv");
    std::vector<std::string> messages;
    std::mutex m;
    StoreWriter writer(
        store,
        [&](const std::string& s) {
            std::lock_guard<std::mutex> lock(m);
            messages.push_back(s);
        },
        options);
    for (int i = 0; i < 10; ++i)
        writer.enqueue(run, points("k", i * 40, 40));
    writer.enqueue(run, {{"odd", std::numeric_limits<double>::quiet_NaN(), 1'700'000'000'000, 7}});
    EXPECT_TRUE(std::filesystem::exists(dir.file("spill.tsv")));
    EXPECT_TRUE(test::waitFor([&] { return store.refused.load() >= 1; }, 5000))
        << "the writer met the outage";
    store.down = false;
    const StoreWriterStats stats = writer.close();
    EXPECT_EQ(stats.dropped, 0u) << "nothing dropped: the bound spilled to disk";
    // The memory bound held: at most `capacity` queued plus one batch in the writer's hands; how
    // many the writer had taken when the bound was reached depends on the scheduler.
    EXPECT_GE(stats.spilled, 401u - options.capacity - options.maxBatch);
    EXPECT_LT(stats.spilled, 401u);
    EXPECT_EQ(stats.written, 401u);
    EXPECT_EQ(stats.unwritten, 0u);
    const Series s = real->series(run, "k");
    ASSERT_EQ(s.v.size(), 400u);
    for (size_t i = 0; i < s.v.size(); ++i)
        ASSERT_EQ(s.v[i], double(i));
    const Series odd = real->series(run, "odd");
    ASSERT_EQ(odd.v.size(), 1u);
    EXPECT_TRUE(std::isnan(odd.v[0]));
    EXPECT_EQ(odd.step[0], 7);
    EXPECT_FALSE(std::filesystem::exists(dir.file("spill.tsv"))) << "removed once read back";
    std::lock_guard<std::mutex> lock(m);
    EXPECT_TRUE(std::any_of(messages.begin(), messages.end(), [](const std::string& s) {
        return s.find("newer ones wait in") != std::string::npos;
    }));
}
