// SPDX-License-Identifier: MIT
// A run's care where MLflow sees it: the real `radt run rename|note|tag|untag|delete|
// restore` on every backend, checked in the rows MLflow's own client writes for each (runs.name and
// the mlflow.runName tag, mlflow.note.content, tags, lifecycle_stage and deleted_time), read by
// another client (Python's sqlite3, psql); a run deleted by MLflow is hidden as one deleted here.

#include "StoreTestBackends.h"
#include "TempDir.h"
#include "core/StoreFactory.h"
#include "core/store/Store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

using namespace radt;

namespace {

const std::string kRadt = std::string(RADT_BINARY_DIR) + "/app/radt";

struct Result {
    int rc = -1;
    std::string out, err;
};

class RunCuration : public test::BackendTest {
protected:
    Result radt(const std::vector<std::string>& args) {
        std::string cmd = test::shellQuote(kRadt);
        for (const auto& a : args)
            cmd += " " + test::shellQuote(a);
        cmd += " --store " + test::shellQuote(m_uri) + " >" + test::shellQuote(m_dir.file("out")) + " 2>" +
               test::shellQuote(m_dir.file("err")) + " </dev/null";
        const int status = std::system(cmd.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::readFile(m_dir.file("out")),
                test::readFile(m_dir.file("err"))};
    }
    /// One value another client reads from the store (the first column of the first row).
    std::string sql(const std::string& query) {
        if (m_uri.rfind("sqlite:///", 0) == 0)
            return test::shellOutput("python3 -c " +
                                     test::shellQuote("import sqlite3, sys\n"
                                                      "r = sqlite3.connect(sys.argv[1]).execute(sys.argv[2])"
                                                      ".fetchone()\n"
                                                      "print('' if r is None or r[0] is None else r[0])\n") +
                                     " " + test::shellQuote(m_uri.substr(10)) + " " +
                                     test::shellQuote(query));
        return test::shellOutput("psql -qAt -d " +
                                 test::shellQuote(m_uri.substr(std::string("postgresql:///").size())) +
                                 " -c " + test::shellQuote(query));
    }
    test::TempDir m_dir;
};

} // namespace

TEST_P(RunCuration, EachActionWritesWhatMlflowsClientWrites) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "seed 3", 0, "u", "s", RunStatus::Finished}).uuid;
    const std::string other = store->createRun({0, "seed 4", 0, "u", "s", RunStatus::Finished}).uuid;
    store->setTags(run, {{"team", "a"}});
    const std::string prefix = run.substr(0, 8);

    Result r = radt({"run", "rename", prefix, "seed 3 (wrong flag)"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(sql("SELECT name FROM runs WHERE run_uuid = '" + run + "'"), "seed 3 (wrong flag)");
    EXPECT_EQ(sql("SELECT value FROM tags WHERE run_uuid = '" + run + "' AND key = 'mlflow.runName'"),
              "seed 3 (wrong flag)");
    EXPECT_EQ(store->run(run)->name, "seed 3 (wrong flag)");

    r = radt({"run", "note", run, "diverged at epoch 12\nrerun with lr 1e-4"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(store->run(run)->tags.at("mlflow.note.content"), "diverged at epoch 12\nrerun with lr 1e-4");

    r = radt({"run", "tag", prefix, "paper=fig3", "reviewed="});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(sql("SELECT value FROM tags WHERE run_uuid = '" + run + "' AND key = 'paper'"), "fig3");
    EXPECT_EQ(store->run(run)->tags.at("reviewed"), "");

    r = radt({"run", "untag", prefix, "team", "reviewed"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(store->run(run)->tags.count("team"), 0u);
    EXPECT_EQ(store->run(run)->tags.count("reviewed"), 0u);
    EXPECT_EQ(store->run(run)->tags.at("paper"), "fig3");

    r = radt({"run", "delete", prefix, other});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(sql("SELECT lifecycle_stage FROM runs WHERE run_uuid = '" + run + "'"), "deleted");
    EXPECT_NE(sql("SELECT deleted_time FROM runs WHERE run_uuid = '" + run + "'"), "")
        << "MLflow's delete time";
    EXPECT_FALSE(store->run(run)) << "a deleted run leaves every view";
    EXPECT_TRUE(store->runs().empty());
    EXPECT_EQ(store->curation().deletedRuns().size(), 2u);

    r = radt({"run", "restore", prefix});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(sql("SELECT lifecycle_stage FROM runs WHERE run_uuid = '" + run + "'"), "active");
    EXPECT_EQ(sql("SELECT deleted_time FROM runs WHERE run_uuid = '" + run + "'"), "");
    ASSERT_TRUE(store->run(run));
    EXPECT_EQ(store->run(run)->tags.at("paper"), "fig3") << "restored as it was";

    // MLflow's client deletes the other run's sibling the same way: hidden here too.
    test::sqlByAnotherClient(m_uri,
                             "UPDATE runs SET lifecycle_stage = 'deleted' WHERE run_uuid = '" + run + "'");
    EXPECT_TRUE(store->runs().empty());
    r = radt({"run", "restore", run});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(store->runs().size(), 1u);
}

TEST_P(RunCuration, UnknownAmbiguousOrWrongRunsAreRefusedAndNothingChanges) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    std::vector<std::string> runs;
    for (const char* uuid : {"abcde1110000000000000000000000aa", "abcde2220000000000000000000000bb",
                             "0123456789abcdef0123456789abcdef"}) {
        radt::Run imported;
        imported.uuid = uuid;
        imported.name = std::string("run ") + uuid[5];
        imported.status = RunStatus::Finished;
        store->maintenance().importRun(imported);
        runs.push_back(uuid);
    }
    const std::string live = store->createRun({0, "live", 0, "u", "s", RunStatus::Running}).uuid;

    Result r = radt({"run", "tag", "ffffffffff", "a=b"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("'ffffffffff' names no run"), std::string::npos) << r.err;
    r = radt({"run", "rename", "abcd", "x"});
    EXPECT_EQ(r.rc, 2) << "too short a prefix";
    r = radt({"run", "rename", "abcde", "x"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("run id prefix 'abcde' matches 2 runs: abcde111"), std::string::npos) << r.err;
    EXPECT_EQ(store->run(runs[0])->name, "run 1");
    ASSERT_EQ(radt({"run", "rename", "abcde2", "x"}).rc, 0) << "one more character tells them apart";
    EXPECT_EQ(store->run(runs[1])->name, "x");
    r = radt({"run", "delete", runs[0], "zzzzz"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("'zzzzz' names no run"), std::string::npos) << r.err;
    EXPECT_TRUE(store->run(runs[0])) << "a typo among the runs deletes none of them";

    r = radt({"run", "tag", runs[1], "no-equals-sign"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("'no-equals-sign' is not KEY=VALUE"), std::string::npos) << r.err;
    r = radt({"run", "untag", runs[1], "never-set"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("has no tag 'never-set'"), std::string::npos) << r.err;
    r = radt({"run", "tag", runs[1], "bad%key=1"});
    EXPECT_EQ(r.rc, 2) << "MLflow's key rule: " << r.err;

    // A running run may be tagged and renamed; deleting it takes --force.
    ASSERT_EQ(radt({"run", "rename", live, "live (seed 1)"}).rc, 0);
    r = radt({"run", "delete", live});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("is RUNNING"), std::string::npos) << r.err;
    EXPECT_TRUE(store->run(live));
    ASSERT_EQ(radt({"run", "delete", "--force", live}).rc, 0);
    EXPECT_FALSE(store->run(live));

    // Changing a deleted run says how to restore it; restoring an active one is refused.
    r = radt({"run", "note", live, "x"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("is deleted: restore it first (radt run restore"), std::string::npos) << r.err;
    r = radt({"run", "restore", runs[2]});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("is not deleted"), std::string::npos) << r.err;
    r = radt({"run", "frobnicate", runs[2]});
    EXPECT_EQ(r.rc, 2) << r.err;
}

TEST_P(RunCuration, ExperimentsRenameDeleteAndRestoreWithTheirRunsAsMlflowsClientDoes) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const int64_t sweep = store->getOrCreateExperiment("sweep");
    const std::string id = std::to_string(sweep);
    std::vector<std::string> runs;
    for (const char* name : {"seed 1", "seed 2", "seed 3"})
        runs.push_back(store->createRun({sweep, name, 0, "u", "s", RunStatus::Finished}).uuid);
    const std::string elsewhere = store->createRun({0, "other", 0, "u", "s", RunStatus::Finished}).uuid;
    ASSERT_EQ(radt({"run", "delete", runs[2]}).rc, 0) << "deleted on its own before";
    const auto updated = [&] {
        return sql("SELECT last_update_time FROM experiments WHERE experiment_id = " + id) != "1";
    };
    const auto markNotUpdated = [&] {
        test::sqlByAnotherClient(m_uri,
                                 "UPDATE experiments SET last_update_time = 1 WHERE experiment_id = " + id);
    };
    markNotUpdated();
    const auto stage = [&](const std::string& run) {
        return sql("SELECT lifecycle_stage FROM runs WHERE run_uuid = '" + run + "'");
    };

    Result r = radt({"experiment", "rename", "sweep", "sweep (wrong flag)"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, "renamed experiment " + id + " (sweep) to sweep (wrong flag)\n");
    EXPECT_EQ(sql("SELECT name FROM experiments WHERE experiment_id = " + id), "sweep (wrong flag)");
    EXPECT_EQ(store->experimentById(sweep)->name, "sweep (wrong flag)");
    EXPECT_TRUE(updated()) << "MLflow's last_update_time";
    r = radt({"experiment", "rename", id, "Default"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("experiment 0 is already named 'Default'"), std::string::npos) << r.err;
    r = radt({"experiment", "rename", id, ""});
    EXPECT_EQ(r.rc, 2) << "MLflow refuses an empty name";
    r = radt({"experiment", "delete", "no such experiment"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("'no such experiment' names no experiment"), std::string::npos) << r.err;

    // MLflow's delete_experiment: the experiment and every one of its runs, deleted_time set.
    markNotUpdated();
    r = radt({"experiment", "delete", "sweep (wrong flag)"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, "deleted experiment " + id + " (sweep (wrong flag)) and its 2 runs\n");
    EXPECT_EQ(sql("SELECT lifecycle_stage FROM experiments WHERE experiment_id = " + id), "deleted");
    for (const std::string& run : runs) {
        EXPECT_EQ(stage(run), "deleted");
        EXPECT_NE(sql("SELECT deleted_time FROM runs WHERE run_uuid = '" + run + "'"), "");
    }
    EXPECT_TRUE(updated());
    EXPECT_EQ(stage(elsewhere), "active") << "another experiment's run stays";
    EXPECT_FALSE(store->experimentById(sweep)->lifecycleStage == "active");
    ASSERT_EQ(store->experiments().size(), 1u) << "only Default is left";
    ASSERT_EQ(store->runs().size(), 1u);
    ASSERT_EQ(store->curation().deletedExperiments().size(), 1u);
    EXPECT_EQ(store->curation().deletedExperiments()[0].name, "sweep (wrong flag)");
    r = radt({"experiment", "rename", id, "x"});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("is deleted: restore it first (radt experiment restore " + id + ")"),
              std::string::npos)
        << r.err;
    EXPECT_THROW(store->curation().renameExperiment(sweep, "x"), StoreError) << "the store refuses it too";
    EXPECT_THROW(store->getOrCreateExperiment("sweep (wrong flag)"), StoreError)
        << "nothing is recorded into a deleted experiment";
    // A run restored on its own inside the deleted experiment: its report names the experiment
    // and says it is deleted (it said "experiment": "").
    r = radt({"run", "restore", runs[0]});
    ASSERT_EQ(r.rc, 0) << r.err;
    r = radt({"report", "--json", runs[0]});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["runs"][0]["experiment"], "sweep (wrong flag) (deleted)");
    r = radt({"run", "delete", runs[0]});
    ASSERT_EQ(r.rc, 0) << r.err;

    // restore_experiment brings back every run, the one deleted before too, as MLflow's does.
    r = radt({"experiment", "restore", id});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, "restored experiment " + id + " (sweep (wrong flag)) and its 3 runs\n");
    EXPECT_EQ(sql("SELECT lifecycle_stage FROM experiments WHERE experiment_id = " + id), "active");
    for (const std::string& run : runs) {
        EXPECT_EQ(stage(run), "active");
        EXPECT_EQ(sql("SELECT deleted_time FROM runs WHERE run_uuid = '" + run + "'"), "");
    }
    EXPECT_EQ(store->runs(sweep).size(), 3u);
    r = radt({"experiment", "restore", id});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("is not deleted"), std::string::npos) << r.err;

    // A running run is asked about: --force deletes it with its experiment.
    const std::string live = store->createRun({sweep, "live", 0, "u", "s", RunStatus::Running}).uuid;
    r = radt({"experiment", "delete", id});
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("has 1 RUNNING runs"), std::string::npos) << r.err;
    EXPECT_EQ(stage(live), "active");
    ASSERT_EQ(radt({"experiment", "delete", "--force", id}).rc, 0);
    EXPECT_EQ(stage(live), "deleted");

    // An experiment MLflow's client deleted is hidden here the same way.
    ASSERT_EQ(radt({"experiment", "restore", id}).rc, 0);
    test::sqlByAnotherClient(
        m_uri, "UPDATE experiments SET lifecycle_stage = 'deleted' WHERE experiment_id = " + id);
    test::sqlByAnotherClient(m_uri,
                             "UPDATE runs SET lifecycle_stage = 'deleted' WHERE experiment_id = " + id);
    EXPECT_EQ(store->experiments().size(), 1u);
    EXPECT_EQ(store->runs().size(), 1u);
    ASSERT_EQ(radt({"experiment", "restore", "sweep (wrong flag)"}).rc, 0);
    EXPECT_EQ(store->runs().size(), 5u);
}

// Several runs are one change: `radt run delete A B C` deleted A and B, then failed on C, which
// another client had deleted meanwhile; on PostgreSQL each run was a transaction of its own. Now
// all named runs are found first and changed in one transaction; a run already deleted is left as
// it is (its deleted_time is the other client's) and said; an unknown run changes none.
TEST_P(RunCuration, SeveralRunsAreDeletedAllOrNoneAndARunAlreadyDeletedIsLeftAsItIs) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    std::vector<std::string> runs;
    for (const char* name : {"a", "b", "c"})
        runs.push_back(store->createRun({0, name, 0, "u", "s", RunStatus::Finished}).uuid);
    test::sqlByAnotherClient(m_uri, "UPDATE runs SET lifecycle_stage = 'deleted', deleted_time = 12345 WHERE "
                                    "run_uuid = '" +
                                        runs[2] + "'");

    Result r = radt({"run", "delete", runs[0], runs[1], runs[2]});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_NE(r.err.find("run " + runs[2] + " (c) is already deleted: left as it is"), std::string::npos)
        << r.err;
    EXPECT_TRUE(store->runs().empty());
    EXPECT_EQ(sql("SELECT deleted_time FROM runs WHERE run_uuid = '" + runs[2] + "'"), "12345");

    // Named twice, by id and by prefix: restored once, no error half-way through.
    r = radt({"run", "restore", runs[0], runs[0].substr(0, 8)});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, "restored " + runs[0] + " (a)\n");
    EXPECT_TRUE(store->run(runs[0]));

    // The store's own promise: an unknown run among them changes none.
    EXPECT_ANY_THROW(store->curation().setRunsDeleted({runs[0], "0123456789abcdef0123456789abcdef"}, true));
    EXPECT_TRUE(store->run(runs[0])) << "all or none";
    EXPECT_EQ(store->curation().setRunsDeleted({runs[0], runs[0]}, true), std::vector<std::string>{runs[0]});
    EXPECT_EQ(store->curation().setRunsDeleted({runs[0]}, true), std::vector<std::string>{})
        << "already as asked";

    // An experiment named by its id and its name is deleted once.
    const int64_t id = store->getOrCreateExperiment("twice");
    store->createRun({id, "d", 0, "u", "s", RunStatus::Finished});
    r = radt({"experiment", "delete", "twice", std::to_string(id)});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(store->curation().deletedExperiments().size(), 1u);
}

// `radt experiment delete ex1 ex2` deleted ex1 and then failed on ex2, leaving ex1 deleted: one
// transaction each. Here the store itself refuses the second change (a trigger another client
// installed, as a constraint or a broken connection would fail it) and the first must not stay.
TEST_P(RunCuration, SeveralExperimentsChangeInOneTransactionAndAFailureOnTheLastChangesNone) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const int64_t first = store->getOrCreateExperiment("ex1");
    const int64_t second = store->getOrCreateExperiment("ex2");
    const std::string run1 = store->createRun({first, "a", 0, "u", "s", RunStatus::Finished}).uuid;
    store->createRun({second, "b", 0, "u", "s", RunStatus::Finished});
    const bool sqlite = m_uri.rfind("sqlite:///", 0) == 0;
    test::sqlByAnotherClient(
        m_uri, sqlite ? "CREATE TRIGGER refuse_ex2 BEFORE UPDATE ON experiments WHEN NEW.name = 'ex2' "
                        "BEGIN SELECT RAISE(ABORT, 'ex2 is kept by a trigger'); END;"
                      : "CREATE FUNCTION refuse_ex2() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION "
                        "'ex2 is kept by a trigger'; END $$ LANGUAGE plpgsql; "
                        "CREATE TRIGGER refuse_ex2 BEFORE UPDATE ON experiments FOR EACH ROW "
                        "WHEN (NEW.name = 'ex2') EXECUTE FUNCTION refuse_ex2();");

    Result r = radt({"experiment", "delete", "ex1", "ex2"});
    EXPECT_NE(r.rc, 0) << r.out;
    EXPECT_NE(r.err.find("ex2 is kept by a trigger"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << "nothing said as done";
    EXPECT_EQ(sql("SELECT lifecycle_stage FROM experiments WHERE name = 'ex1'"), "active") << "all or none";
    EXPECT_EQ(sql("SELECT lifecycle_stage FROM runs WHERE run_uuid = '" + run1 + "'"), "active");
    EXPECT_ANY_THROW(store->curation().setExperimentsDeleted({first, second}, true));
    EXPECT_EQ(store->experiments().size(), 3u) << "the default one, ex1 and ex2, all still there";

    // Without the trigger: one another client deleted meanwhile is left as it is, the other changes.
    test::sqlByAnotherClient(m_uri,
                             sqlite ? "DROP TRIGGER refuse_ex2;" : "DROP TRIGGER refuse_ex2 ON experiments;");
    test::sqlByAnotherClient(m_uri, "UPDATE experiments SET lifecycle_stage = 'deleted' WHERE name = 'ex2'");
    EXPECT_EQ(store->curation().setExperimentsDeleted({first, second, first}, true),
              std::vector<int64_t>{first});
    EXPECT_EQ(sql("SELECT lifecycle_stage FROM runs WHERE run_uuid = '" + run1 + "'"), "deleted");
    EXPECT_EQ(sql("SELECT lifecycle_stage FROM runs WHERE name = 'b'"), "active")
        << "the runs of an experiment left as it is are left too";
    r = radt({"experiment", "restore", "ex1", "ex2"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(store->experiments().size(), 3u);
    EXPECT_THROW(store->curation().setExperimentDeleted(first, false), StoreError)
        << "one experiment: not deleted";
}

// MLflow's set_tag of mlflow.runName changes runs.name too; `radt run tag` changed only the tag,
// so MLflow's run list and ours disagreed. An empty name emptied it (MLflow's client refuses).
TEST_P(RunCuration, TheRunNameTagRenamesTheRunAndAnEmptyNameIsRefused) {
    auto store = openStore(m_uri, OpenMode::CreateIfMissing);
    const std::string run = store->createRun({0, "seed 3", 0, "u", "s", RunStatus::Finished}).uuid;
    Result r = radt({"run", "tag", run, "mlflow.runName=seed 3 (rerun)", "team=a"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(sql("SELECT name FROM runs WHERE run_uuid = '" + run + "'"), "seed 3 (rerun)");
    EXPECT_EQ(sql("SELECT value FROM tags WHERE run_uuid = '" + run + "' AND key = 'mlflow.runName'"),
              "seed 3 (rerun)");
    EXPECT_EQ(store->run(run)->tags.at("team"), "a");
    for (const std::vector<std::string>& args : {std::vector<std::string>{"run", "rename", run, ""},
                                                 {"run", "rename", run, "  "},
                                                 {"run", "tag", run, "mlflow.runName="}}) {
        r = radt(args);
        EXPECT_EQ(r.rc, 2) << args.back();
        EXPECT_NE(r.err.find("a run's name cannot be empty"), std::string::npos) << r.err;
    }
    EXPECT_EQ(sql("SELECT name FROM runs WHERE run_uuid = '" + run + "'"), "seed 3 (rerun)");
}

INSTANTIATE_TEST_SUITE_P(Backends, RunCuration,
                         ::testing::Values("sqlite", "postgresql", "sqlite_mlflow3", "postgresql_mlflow3"),
                         [](const auto& info) { return info.param; });

TEST(RunCurationReadOnly, AStoreThatCannotBeWrittenSaysWhy) {
    test::TempDir dir;
    const std::string path = dir.file("ro.db");
    std::string run;
    {
        auto store = openStore("sqlite:///" + path, OpenMode::CreateIfMissing);
        run = store->createRun({0, "r", 0, "u", "s", RunStatus::Finished}).uuid;
    }
    ASSERT_EQ(test::shell("chmod 0444 " + test::shellQuote(path)), 0);
    // What radt says, run as a user the file's permissions bind (root's are not).
    const std::string said = test::errorAsUnprivilegedUser(dir, [&] {
        throw std::runtime_error(test::shellOutput(test::shellQuote(kRadt) + " run rename " + run +
                                                   " x --store " + test::shellQuote(path) +
                                                   " 2>&1; echo \"exit $?\""));
    });
    EXPECT_NE(said.find("cannot change runs in"), std::string::npos) << said;
    EXPECT_NE(said.find("exit 2"), std::string::npos) << said;
    EXPECT_EQ(openStore("sqlite:///" + path, OpenMode::ReadOnly)->run(run)->name, "r");
}
