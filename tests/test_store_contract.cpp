// The Store contract, one parameterised suite run against both backends (DESIGN §4): the
// embedded SQLite file and a real PostgreSQL server. The PostgreSQL cases need a server: the
// test command runs ctest under pg_virtualenv, which provides one on loopback (PGHOST etc.);
// without it they are skipped with a message.

#include "MlflowLimits.h"
#include "Store.h"
#include "StoreTestBackends.h"
#include "Uuid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

using namespace radt;

namespace {

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

class StoreContract : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        m_backend = test::makeBackend(GetParam());
        if (!m_backend->available())
            GTEST_SKIP() << m_backend->unavailableReason();
        m_uri = m_backend->freshUri();
    }
    std::unique_ptr<test::StoreBackend> m_backend;
    std::string m_uri;
};

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

INSTANTIATE_TEST_SUITE_P(Backends, StoreContract, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });
