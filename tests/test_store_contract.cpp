// SPDX-License-Identifier: MIT
// The Store contract, one parameterised suite run against both backends (resources/DESIGN.md §4): the
// embedded SQLite file and a real PostgreSQL server. The PostgreSQL cases need a server: the
// test command runs ctest under pg_virtualenv, which provides one on loopback (PGHOST etc.);
// without it they are skipped with a message.

#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/base/Uuid.h"
#include "core/store/MlflowLimits.h"
#include "core/store/Store.h"
#include "core/store/StoreCopy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

using namespace radt;
using radt::test::errorOf;

namespace {

class StoreContract : public test::BackendTest {};

} // namespace

TEST_P(StoreContract, NewStoreHasMlflowsDefaultExperimentAndReopens) {
    {
        auto store = openStore(m_uri, OpenMode::CreateIfMissing);
        auto exps = store->experiments();
        ASSERT_EQ(exps.size(), 1u);
        EXPECT_EQ(exps[0].id, 0);
        EXPECT_EQ(exps[0].name, "Default");
        EXPECT_EQ(store->getOrCreateExperiment("second"), 1) << "ids continue after MLflow's 0";
    }
    auto again = openStore(m_uri, OpenMode::OpenExisting);
    EXPECT_EQ(again->experiments().size(), 2u);
    EXPECT_EQ(again->getOrCreateExperiment("second"), 1);
}

TEST_P(StoreContract, RoundTripRunParamsTagsMetrics) {
    int64_t start = 0;
    std::string uuid;
    {
        auto store = openStore(m_uri, OpenMode::CreateIfMissing);
        const int64_t exp = store->getOrCreateExperiment("resnet sweep");
        EXPECT_EQ(store->getOrCreateExperiment("resnet sweep"), exp);
        NewRun spec;
        spec.experimentId = exp;
        spec.name = "(1 0) train.py";
        spec.startTime = start = 1700000000000;
        radt::Run run = store->createRun(spec);
        uuid = run.uuid;
        EXPECT_TRUE(isRunUuid(uuid));
        EXPECT_NE(run.artifactUri.find(uuid), std::string::npos);
        store->logParams(uuid,
                         {{"workload", "1"}, {"letter", "0"}, {"model", "train.py"}, {"batch-size", "256"}});
        store->logParams(uuid, {{"letter", "0"}}); // same value again is fine, as in MLflow
        store->setTags(uuid, {{"mlflow.parentRunId", "abc"}});
        std::vector<MetricPoint> points;
        for (int i = 0; i < 100; ++i)
            points.push_back({"loss", 1.0 / (i + 1), start + 1000 * i, i});
        points.push_back({"odd", std::numeric_limits<double>::quiet_NaN(), start, 0});
        points.push_back({"odd", std::numeric_limits<double>::infinity(), start + 1, 0});
        points.push_back({"odd", -std::numeric_limits<double>::infinity(), start + 2, 0});
        store->logMetrics(uuid, points);
        store->logMetrics(uuid, {points[5]}); // duplicate: ignored, not an error
        store->setRunStatus(uuid, RunStatus::Finished, start + 100000);
    }
    auto store = openStore(m_uri, OpenMode::OpenExisting);
    auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1u);
    const radt::Run& r = runs[0];
    EXPECT_EQ(r.uuid, uuid);
    EXPECT_EQ(r.name, "(1 0) train.py");
    EXPECT_EQ(r.status, RunStatus::Finished);
    EXPECT_EQ(r.workload(), "1");
    EXPECT_EQ(r.letter(), "0");
    EXPECT_EQ(r.model(), "train.py");
    EXPECT_EQ(r.param("batch-size"), "256");
    EXPECT_EQ(r.tags.at("mlflow.runName"), "(1 0) train.py");
    EXPECT_EQ(r.tags.at("mlflow.parentRunId"), "abc");
    EXPECT_EQ(r.durationMs(0), 100000);

    EXPECT_EQ(store->metricKeys({uuid}), (std::vector<std::string>{"loss", "odd"}));
    Series loss = store->series(uuid, "loss");
    ASSERT_EQ(loss.size(), 100u);
    EXPECT_EQ(loss.t[0], start);
    EXPECT_EQ(loss.step[99], 99);
    EXPECT_DOUBLE_EQ(loss.v[3], 0.25);
    Series odd = store->series(uuid, "odd");
    ASSERT_EQ(odd.size(), 3u);
    EXPECT_TRUE(std::isnan(odd.v[0]));
    EXPECT_EQ(odd.v[1], 1.7976931348623157e308);
    EXPECT_EQ(odd.v[2], -1.7976931348623157e308);

    Series slice = store->seriesRange(uuid, "loss", start + 10000, start + 19000);
    ASSERT_EQ(slice.size(), 10u);
    EXPECT_EQ(slice.t.front(), start + 10000);
    EXPECT_EQ(slice.t.back(), start + 19000);

    auto latest = store->latestMetrics(uuid);
    EXPECT_EQ(latest.at("loss").step, 99);
    EXPECT_DOUBLE_EQ(latest.at("loss").value, 0.01);
}

TEST_P(StoreContract, LatestMetricsKeepsGreatestStepThenTimestampThenValue) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    radt::Run run = store->createRun({0, "r", 1000, "u", "s", RunStatus::Running});
    store->logMetrics(run.uuid, {{"acc", 0.5, 5000, 3}, {"acc", 0.7, 4000, 2}});
    EXPECT_DOUBLE_EQ(store->latestMetrics(run.uuid).at("acc").value,
                     0.5);                                // step 3 wins over later batch order
    store->logMetrics(run.uuid, {{"acc", 0.9, 3000, 2}}); // smaller step: no change
    EXPECT_DOUBLE_EQ(store->latestMetrics(run.uuid).at("acc").value, 0.5);
    store->logMetrics(run.uuid, {{"acc", 0.6, 5000, 3}}); // same step+ts, greater value
    EXPECT_DOUBLE_EQ(store->latestMetrics(run.uuid).at("acc").value, 0.6);
    store->logMetrics(run.uuid, {{"acc", 0.1, 6000, 3}}); // later timestamp
    EXPECT_DOUBLE_EQ(store->latestMetrics(run.uuid).at("acc").value, 0.1);
}

TEST_P(StoreContract, EnforcesMlflowLimitsWithClearErrors) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    radt::Run run = store->createRun({0, "r", 0, "u", "s", RunStatus::Running});
    EXPECT_NE(errorOf([&] {
                  store->logMetrics(run.uuid, {{"bad%key", 1, 1, 0}});
              }).find("'bad%key'"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->logMetrics(run.uuid, {{std::string(251, 'k'), 1, 1, 0}});
              }).find("251 characters"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->logParams(run.uuid, {{"p", std::string(6001, 'v')}});
              }).find("at most 6000"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->setTags(run.uuid, {{"t", std::string(8001, 'v')}});
              }).find("at most 8000"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { store->getOrCreateExperiment(std::string(257, 'e')); }).find("at most 256"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { store->getOrCreateExperiment(""); }).find("empty"), std::string::npos);
    store->logParams(run.uuid, {{"lr", "0.1"}});
    EXPECT_NE(errorOf([&] {
                  store->logParams(run.uuid, {{"lr", "0.2"}});
              }).find("cannot change"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->logMetrics("0123456789abcdef0123456789abcdef", {{"k", 1, 1, 0}});
              }).find("not found"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  store->createRun({42, "r", 0, "u", "s", RunStatus::Running});
              }).find("experiment 42"),
              std::string::npos);
    // A failed batch leaves nothing behind: one transaction.
    EXPECT_FALSE(errorOf([&] {
                     store->logMetrics(run.uuid, {{"good", 1, 1, 0}, {"b@d", 2, 2, 0}});
                 }).empty());
    EXPECT_TRUE(store->series(run.uuid, "good").empty());
    EXPECT_TRUE(mlflow::isValidKey("SMI - Power Draw"));
    EXPECT_TRUE(mlflow::isValidKey("a/b.c-d_e:f"));
    EXPECT_FALSE(mlflow::isValidKey("GPU %"));
}

TEST_P(StoreContract, CopyIsLosslessAndIdempotent) {
    // A source with two experiments, a finished run with params, tags and metrics (NaN among
    // them), and a running one.
    auto sqlite = test::makeBackend("sqlite");
    const std::string sourceUri = sqlite->freshUri();
    std::string finished, running;
    {
        auto source = openStore(sourceUri, OpenMode::CreateIfMissing);
        const int64_t exp = source->getOrCreateExperiment("sweep");
        finished =
            source
                ->createRun({exp, "(1 0) train.py", 1'700'000'000'000, "ana", "train.py", RunStatus::Running})
                .uuid;
        source->logParams(finished, {{"workload", "1"}, {"letter", "0"}});
        source->setTags(finished, {{"mlflow.parentRunId", "x"}});
        std::vector<MetricPoint> points;
        for (int i = 0; i < 2500; ++i)
            points.push_back({"SMI - Power Draw", 100.0 + i, 1'700'000'000'000 + i * 100, i});
        points.push_back({"loss", std::numeric_limits<double>::quiet_NaN(), 1'700'000'000'000, 1});
        source->logMetrics(finished, points);
        source->setRunStatus(finished, RunStatus::Finished, 1'700'000'300'000);
        running = source->createRun({0, "live", 1'700'000'000'000, "ana", "x.py", RunStatus::Running}).uuid;
        source->logMetrics(running, {{"tick", 1, 1'700'000'000'001, 1}});
    }
    auto source = openStore(sourceUri, OpenMode::OpenExisting);
    auto destination = openStore(m_uri, OpenMode::CreateIfMissing);
    const StoreCopyStats first = copyStore(*source, *destination);
    EXPECT_EQ(first.runs, 2u);
    EXPECT_EQ(first.samples, 2502u);
    // Later the running run finished and logged more: a second copy brings exactly that.
    source->logMetrics(running, {{"tick", 2, 1'700'000'000'002, 2}});
    source->setRunStatus(running, RunStatus::Finished, 1'700'000'000'500);
    copyStore(*source, *destination);

    auto check = [&](Store& store) {
        const auto runs = store.runs();
        ASSERT_EQ(runs.size(), 2u);
        const radt::Run a = *store.run(finished);
        EXPECT_EQ(a.name, "(1 0) train.py");
        EXPECT_EQ(a.status, RunStatus::Finished);
        EXPECT_EQ(a.endTime, std::optional<int64_t>(1'700'000'300'000));
        EXPECT_EQ(a.param("letter"), "0");
        EXPECT_EQ(a.tags.at("mlflow.parentRunId"), "x");
        EXPECT_EQ(store.experiments().at(1).name, "sweep");
        const Series power = store.series(finished, "SMI - Power Draw");
        ASSERT_EQ(power.size(), 2500u) << "copied twice, stored once";
        EXPECT_EQ(power.v[2499], 2599.0);
        EXPECT_TRUE(std::isnan(store.series(finished, "loss").v.at(0)));
        EXPECT_EQ(store.latestMetrics(finished).at("SMI - Power Draw").step, 2499);
        EXPECT_EQ(store.run(running)->status, RunStatus::Finished);
        EXPECT_EQ(store.series(running, "tick").v, (std::vector<double>{1, 2}));
    };
    check(*destination);
    // And back into a new SQLite file: the round trip is lossless.
    auto back = openStore(sqlite->freshUri(), OpenMode::CreateIfMissing);
    copyStore(*destination, *back);
    check(*back);
}

TEST_P(StoreContract, EnvelopesKeepPeaksWithAtMostTwoPointsPerBucket) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "big", 0, "u", "s", RunStatus::Running}).uuid;
    constexpr int kPoints = 100000;
    std::vector<MetricPoint> points;
    for (int i = 0; i < kPoints; ++i)
        points.push_back(
            {"SMI - Power Draw", 100.0 + (i % 50) * 0.1, 1'700'000'000'000 + int64_t(i) * 10, i});
    points[31337].value = 900.0; // one spike
    points[77777].value = -5.0;  // one dip
    points[500].value = std::numeric_limits<double>::quiet_NaN();
    store->logMetrics(run, points);

    const Series envelope = store->seriesEnvelope(run, "SMI - Power Draw", std::nullopt, 800);
    EXPECT_LE(envelope.size(), 1600u);
    EXPECT_GE(envelope.size(), 1500u);
    EXPECT_EQ(*std::max_element(envelope.v.begin(), envelope.v.end()), 900.0) << "the spike survives";
    EXPECT_EQ(*std::min_element(envelope.v.begin(), envelope.v.end()), -5.0) << "the dip too";
    EXPECT_TRUE(std::none_of(envelope.v.begin(), envelope.v.end(), [](double v) { return std::isnan(v); }));
    EXPECT_TRUE(std::is_sorted(envelope.t.begin(), envelope.t.end()));
    EXPECT_EQ(envelope.t.front(), 1'700'000'000'000);
    // Whichever store reduces it, the result is the same as reducing the whole series here.
    const Series here = store->StoreReader::seriesEnvelope(run, "SMI - Power Draw", std::nullopt, 800);
    EXPECT_EQ(envelope.t, here.t);
    EXPECT_EQ(envelope.v, here.v);
    EXPECT_EQ(envelope.step, here.step);

    // A zoomed range at full resolution: fewer points than buckets come back unchanged.
    const std::pair<int64_t, int64_t> zoom{1'700'000'000'000 + 313300, 1'700'000'000'000 + 313400};
    const Series close = store->seriesEnvelope(run, "SMI - Power Draw", zoom, 800);
    EXPECT_EQ(close.t, store->seriesRange(run, "SMI - Power Draw", zoom.first, zoom.second).t);
    EXPECT_TRUE(store->seriesEnvelope(run, "no such key", std::nullopt, 800).empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreContract,
                         ::testing::Values("sqlite", "postgresql", "postgresql_unpartitioned",
                                           "sqlite_mlflow3", "postgresql_mlflow3", "sqlite_2019",
                                           "postgresql_2019"),
                         [](const auto& info) { return info.param; });

// Store compaction's primitive: exactly the named points go, on every backend and
// schema generation; the latest value, other keys and other runs stay; the space is given back.
TEST_P(StoreContract, RemovedMetricPointsGoAndNothingElse) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const int64_t exp = store->getOrCreateExperiment("compact");
    const std::string a = store->createRun({exp, "a", 1700000000000, "u", "s", RunStatus::Running}).uuid;
    const std::string b = store->createRun({exp, "b", 1700000000000, "u", "s", RunStatus::Running}).uuid;
    std::vector<MetricPoint> points;
    for (int i = 0; i < 50; ++i) {
        points.push_back({"SMI - Power Draw", 100.0 + i % 7, 1700000000000 + 1000 * i, 0});
        points.push_back({"loss", 1.0 / (i + 1), 1700000000000 + 1000 * i, i});
    }
    points.push_back(
        {"SMI - Power Draw", std::numeric_limits<double>::quiet_NaN(), 1700000000000 + 60000, 0});
    store->logMetrics(a, points);
    store->logMetrics(b, points);
    const int64_t bytesBefore = store->maintenance().storageBytes();
    EXPECT_GT(bytesBefore, 0);

    Series gone;
    const Series power = store->series(a, "SMI - Power Draw");
    for (size_t i = 1; i + 2 < power.size(); i += 2) { // every other one, not the last two
        gone.t.push_back(power.t[i]);
        gone.step.push_back(power.step[i]);
        gone.v.push_back(power.v[i]);
    }
    gone.t.push_back(1700000000000 + 999'999); // not there: ignored
    gone.step.push_back(0);
    gone.v.push_back(1.0);
    Series lossGone;
    const Series loss = store->series(a, "loss");
    lossGone.t = {loss.t[3]};
    lossGone.step = {loss.step[3]};
    lossGone.v = {loss.v[3]};
    EXPECT_TRUE(store->maintenance().applyCompaction(a, {{"SMI - Power Draw", gone}, {"loss", lossGone}},
                                                     {"radt.compacted", "{}"}));
    // Once tagged, a second compaction (another radt that read the run before the first committed)
    // changes nothing.
    EXPECT_FALSE(store->maintenance().applyCompaction(a, {{"SMI - Power Draw", power}},
                                                      {"radt.compacted", "{\"x\":1}"}));
    EXPECT_EQ(store->run(a)->tags.at("radt.compacted"), "{}");
    store->maintenance().reclaimSpace();

    const Series left = store->series(a, "SMI - Power Draw");
    EXPECT_EQ(left.size(), power.size() - (gone.size() - 1));
    for (size_t i = 0; i < left.size(); ++i)
        EXPECT_EQ(std::find(gone.t.begin(), gone.t.end(), left.t[i]), gone.t.end()) << left.t[i];
    EXPECT_TRUE(std::isnan(left.v.back())) << "the NaN sample stays";
    EXPECT_EQ(store->series(b, "SMI - Power Draw").size(), power.size()) << "another run's points stay";
    EXPECT_EQ(store->series(a, "loss").size(), 49u) << "both keys' points went in the one transaction";
    EXPECT_EQ(store->latestMetrics(a).at("SMI - Power Draw").timestamp, 1700000000000 + 60000);
    EXPECT_GT(store->maintenance().storageBytes(), 0);
    EXPECT_THROW(store->maintenance().applyCompaction("0123456789abcdef0123456789abcdef", {{"loss", gone}},
                                                      {"radt.compacted", "{}"}),
                 StoreError);
}
