// SPDX-License-Identifier: MIT
#pragma once
// The runs and the expressions both search tests hold MLflow's search syntax to: in memory
// (test_run_filter) and as SQL on SQLite and PostgreSQL (test_run_filter_sql), each expression
// with the ids of the runs it must return.

#include "core/base/Model.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace radt::test {

struct FixtureRun {
    Run run;
    std::map<std::string, double> metrics; ///< latest values
};

/// Five runs of a small sweep, with the edge cases the syntax must get right: a param only some
/// runs have, a key with a dash, a value with a quote, text that looks like a number, a tag, a
/// running run without an end time, a name with a non-ASCII letter.
inline std::vector<FixtureRun> fixtureRuns() {
    auto make = [](std::string uuid, std::string name, RunStatus status, int64_t start,
                   std::optional<int64_t> end, std::map<std::string, std::string> params,
                   std::map<std::string, std::string> tags, std::map<std::string, double> metrics) {
        FixtureRun f;
        f.run.uuid = std::move(uuid);
        f.run.name = std::move(name);
        f.run.status = status;
        f.run.startTime = start;
        f.run.endTime = end;
        f.run.artifactUri = "/store/artifacts/" + f.run.uuid;
        f.run.params = std::move(params);
        f.run.tags = std::move(tags);
        f.metrics = std::move(metrics);
        return f;
    };
    return {
        make("a1", "resnet bs64", RunStatus::Finished, 1000, 2000,
             {{"batch-size", "64"}, {"lr", "0.1"}, {"model", "resnet50"}, {"seed", "1"}},
             {{"team", "vision"}, {"mlflow.note.content", "baseline"}}, {{"accuracy", 0.91}, {"loss", 0.30}}),
        make("b2", "resnet bs128", RunStatus::Finished, 3000, 5000,
             {{"batch-size", "128"}, {"lr", "0.1"}, {"model", "resnet50"}, {"seed", "2"}},
             {{"team", "vision"}}, {{"accuracy", 0.89}, {"loss", 0.35}}),
        make("c3", "vit bs256", RunStatus::Failed, 6000, 6500,
             {{"batch-size", "256"}, {"model", "vit_b16"}, {"seed", "1"}, {"note", "it's fine"}},
             {{"team", "Vision"}}, {{"loss", 2.5}}),
        make("d4", "vit bs 64 (live)", RunStatus::Running, 7000, std::nullopt,
             {{"batch-size", "64"}, {"model", "vit_b16"}, {"seed", "3"}}, {}, {{"accuracy", 0.5}}),
        make("e5", "détection", RunStatus::Killed, 8000, 9000, {{"model", "yolo"}, {"batch-size", "0064"}},
             {{"team", "detection"}}, {{"accuracy", 0.9}, {"loss", -1}}),
    };
}

/// Each expression and the fixture ids of the runs it returns.
inline std::vector<std::pair<std::string, std::set<std::string>>> runFilterCases() {
    return {
        {"", {"a1", "b2", "c3", "d4", "e5"}},
        {"   ", {"a1", "b2", "c3", "d4", "e5"}},
        // params: text, compared as text ("0064" is not "64")
        {"params.`batch-size` = '64'", {"a1", "d4"}},
        {"params.\"batch-size\" = \"64\"", {"a1", "d4"}},
        {"params.`batch-size` != '64'", {"b2", "c3", "e5"}},
        {"params.lr = '0.1'", {"a1", "b2"}},
        {"params.lr = '0.10'", {}},
        {"params.lr != '0.1'", {}},  // runs without lr are left out, not counted as "not 0.1"
        {"params.missing = ''", {}}, // a key no run has
        {"params.model LIKE 'res%'", {"a1", "b2"}},
        {"params.model LIKE 'vit_b16'", {"c3", "d4"}},
        {"params.model LIKE 'vit_b1_'", {"c3", "d4"}},
        {"params.model LIKE 'VIT%'", {}}, // LIKE is case-sensitive
        {"params.model ILIKE 'VIT%'", {"c3", "d4"}},
        {"params.model LIKE '%'", {"a1", "b2", "c3", "d4", "e5"}},
        {"params.model LIKE '%5%'", {"a1", "b2"}},
        {"params.model IN ('yolo', 'vit_b16')", {"c3", "d4", "e5"}},
        {"params.model NOT IN ('yolo', 'vit_b16')", {"a1", "b2"}},
        {"params.note = 'it''s fine'", {"c3"}}, // a quote inside a value, doubled
        {"params.note = \"it's fine\"", {"c3"}},
        {"params.note LIKE 'it\\'s%'", {"c3"}},
        {"param.seed = '1'", {"a1", "c3"}},
        {"parameters.seed = '1' and params.model = 'vit_b16'", {"c3"}},
        // metrics: numbers, the latest value
        {"metrics.accuracy > 0.9", {"a1"}},
        {"metrics.accuracy >= 0.9", {"a1", "e5"}},
        {"metrics.accuracy < 0.9", {"b2", "d4"}},
        {"metrics.accuracy <= 0.89", {"b2", "d4"}},
        {"metrics.accuracy = 0.5", {"d4"}},
        {"metrics.accuracy != 0.5", {"a1", "b2", "e5"}}, // c3 has no accuracy
        {"metrics.loss < 0", {"e5"}},
        {"metrics.loss > -1e1", {"a1", "b2", "c3", "e5"}},
        {"metric.loss >= 2.5", {"c3"}},
        // tags
        {"tags.team = 'vision'", {"a1", "b2"}},
        {"tags.team ILIKE 'vision'", {"a1", "b2", "c3"}},
        {"tags.`mlflow.note.content` LIKE '%line'", {"a1"}},
        // attributes
        {"attributes.status = 'FINISHED'", {"a1", "b2"}},
        {"attributes.status IN ('FAILED', 'KILLED')", {"c3", "e5"}},
        {"attributes.status != 'RUNNING'", {"a1", "b2", "c3", "e5"}},
        {"attributes.run_name LIKE '%bs64'", {"a1"}},
        {"attributes.run_name LIKE 'd_tection'", {"e5"}}, // _ is one character, é two bytes
        {"attributes.run_name ILIKE '%LIVE%'", {"d4"}},
        {"attributes.run_id = 'b2'", {"b2"}},
        {"attributes.start_time >= 6000", {"c3", "d4", "e5"}},
        {"attributes.created < 3000", {"a1"}},
        {"attributes.end_time > 5000", {"c3", "e5"}}, // the running run has no end time
        {"attributes.artifact_uri LIKE '%/a1'", {"a1"}},
        {"run.status = 'KILLED'", {"e5"}},
        // AND, in any case, and spaces anywhere
        {"params.model = 'resnet50' AND metrics.accuracy > 0.9", {"a1"}},
        {"params.model='resnet50'and metrics.loss<0.31", {"a1"}},
        {"params.seed = '1' aNd tags.team = 'Vision' AnD attributes.status = 'FAILED'", {"c3"}},
    };
}

} // namespace radt::test
