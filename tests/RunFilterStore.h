// SPDX-License-Identifier: MIT
#pragma once
// The fixture runs of RunFilterCases.h written into a real store, as the search tests and the
// runs table's tests read them back.
#include "RunFilterCases.h"
#include "StoreTestBackends.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <map>
#include <string>

namespace radt::test {

/// Writes fixtureRuns() into `store`'s experiment "search", each metric logged twice (an earlier,
/// larger value first: the search must use the latest); returns fixture id -> the run's uuid.
inline std::map<std::string, std::string> writeFixtureRuns(Store& store) {
    std::map<std::string, std::string> ids;
    const int64_t experiment = store.getOrCreateExperiment("search");
    for (const FixtureRun& f : fixtureRuns()) {
        const Run run = store.createRun({experiment, f.run.name, f.run.startTime, "u", "train.py"});
        ids[f.run.uuid] = run.uuid;
        store.logParams(run.uuid, {f.run.params.begin(), f.run.params.end()});
        store.setTags(run.uuid, {f.run.tags.begin(), f.run.tags.end()});
        std::vector<MetricPoint> points;
        for (const auto& [key, value] : f.metrics) {
            points.push_back({key, value + 100, f.run.startTime, 0});
            points.push_back({key, value, f.run.startTime + 10, 5});
        }
        store.logMetrics(run.uuid, points);
        if (f.run.status != RunStatus::Running)
            store.setRunStatus(run.uuid, f.run.status, *f.run.endTime);
    }
    return ids;
}

/// A backend's fresh store holding the fixture runs (the search suites and the runs table's).
class FixtureStoreTest : public BackendTest {
protected:
    void SetUp() override {
        BackendTest::SetUp();
        if (IsSkipped())
            return;
        auto store = openStore(m_uri, OpenMode::CreateIfMissing);
        m_ids = writeFixtureRuns(*store);
    }
    std::map<std::string, std::string> m_ids; ///< fixture id -> the run's uuid in the store
};

} // namespace radt::test
