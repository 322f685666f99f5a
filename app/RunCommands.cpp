// SPDX-License-Identifier: MIT
// radt run rename|note|tag|untag|delete|restore and radt experiment rename|delete|restore: the care
// of runs and experiments from the command line, writing the rows MLflow's own client writes
// (runs.name and mlflow.runName, mlflow.note.content, tags, lifecycle_stage, experiments.name), so
// MLflow's UI shows the same names, descriptions, tags and deleted runs and experiments.

#include "RadtCommands.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

namespace radt::cli {

namespace {

struct RunArgs {
    std::string store;
    std::vector<std::string> words; ///< RUN and what follows it
    bool force = false;
};

bool isHex(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

/// The run `target` names among `runs`: its id or a unique prefix of 5 or more characters.
const Run* findRun(const std::vector<Run>& runs, const std::string& target) {
    if (target.size() < 5 || !isHex(target))
        return nullptr;
    std::vector<const Run*> matches;
    for (const Run& r : runs)
        if (r.uuid.compare(0, target.size(), target) == 0)
            matches.push_back(&r);
    if (matches.size() > 1) {
        std::string which;
        for (size_t i = 0; i < matches.size() && i < 5; ++i)
            which += (i ? ", " : "") + matches[i]->uuid + " (" + matches[i]->name + ")";
        throw std::invalid_argument("run id prefix '" + target + "' matches " +
                                    std::to_string(matches.size()) + " runs: " + which +
                                    (matches.size() > 5 ? ", ..." : "") + "; give more characters");
    }
    return matches.empty() ? nullptr : matches.front();
}

/// The store's runs, active and deleted, read once for every RUN of a command.
struct StoreRuns {
    explicit StoreRuns(Store& store)
        : active(store.runs()), gone(store.curation().deletedRuns()), uri(store.displayUri()) {}
    std::vector<Run> active, gone;
    std::string uri;
};

/// The run `target` names: an active one, or with `deleted` a deleted one; an error that says why
/// when there is none (a deleted run named for a change says how to restore it).
Run resolveRun(const StoreRuns& runs, const std::string& target, bool deleted) {
    const std::vector<Run>&active = runs.active, &gone = runs.gone;
    if (const Run* r = findRun(deleted ? gone : active, target))
        return *r;
    if (const Run* other = findRun(deleted ? active : gone, target))
        throw std::invalid_argument(
            "run " + other->uuid + " (" + other->name + ") is " +
            (deleted ? "not deleted"
                     : "deleted: restore it first (radt run restore " + other->uuid.substr(0, 8) + ")"));
    throw std::invalid_argument("'" + target + "' names no " + (deleted ? "deleted " : "") + "run in " +
                                runs.uri +
                                " (a run id or a unique prefix of 5 or more of its hex characters)");
}

std::unique_ptr<Store> openForChange(const std::string& storeValue) {
    auto store = openResolvedStore(storeValue, OpenMode::OpenExisting);
    if (store->isReadOnly())
        throw std::invalid_argument("cannot change runs in " + store->displayUri() + ": " +
                                    (store->openNotice().empty() ? "it is read-only" : store->openNotice()));
    return store;
}

/// KEY=VALUE as a tag; throws naming the word when it has no '=' or no key.
std::pair<std::string, std::string> tagOf(const std::string& word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument("'" + word + "' is not KEY=VALUE");
    return {word.substr(0, eq), word.substr(eq + 1)};
}

using Work = std::function<void(Store&, const RunArgs&)>;

/// One `radt run` or `radt experiment` subcommand: its words (RUN or EXPERIMENT first) counted,
/// then `work` on the store.
void addRunSubcommand(CLI::App& run, Action& action, const char* name, const char* help, const char* words,
                      size_t least, size_t most, const Work& work, bool withForce = false) {
    auto args = std::make_shared<RunArgs>();
    CLI::App* cmd = run.add_subcommand(name, help);
    cmd->allow_extras();
    addStoreOption(*cmd, args->store);
    if (withForce)
        cmd->add_flag("--force", args->force, "delete runs that are still RUNNING too");
    cmd->add_option(run.get_name() == "run" ? "RUN" : "EXPERIMENT", args->words, words)
        ->type_name("")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->callback([cmd, args, &action, parent = run.get_name(), name, words, least, most, work, withForce] {
        if (!cmd->remaining().empty() || args->words.size() < least || args->words.size() > most)
            throw std::invalid_argument("usage: radt " + parent + " " + name + " [--store URI]" +
                                        (withForce ? " [--force] " : " ") + words);
        action = [args, work] {
            return reportingErrors([&] {
                auto store = openForChange(args->store);
                work(*store, *args);
                return 0;
            });
        };
    });
}

/// Deletes or restores the runs in one transaction, every named run found first so that a typo
/// changes nothing. A run already deleted (named for deletion, twice, or deleted by another client
/// meanwhile) is left as it is and said on stderr, as MLflow's client does nothing for it.
void setDeleted(Store& store, const RunArgs& args, bool deleted) {
    const StoreRuns known(store);
    std::vector<Run> runs;
    std::set<std::string> named;
    for (const std::string& target : args.words) {
        if (deleted && !findRun(known.active, target)) {
            if (const Run* gone = findRun(known.gone, target)) {
                std::cerr << "radt: run " << gone->uuid << " (" << gone->name
                          << ") is already deleted: left as it is\n";
                continue;
            }
        }
        Run r = resolveRun(known, target, !deleted);
        if (deleted && r.status == RunStatus::Running && !args.force)
            throw std::invalid_argument("run " + r.uuid + " (" + r.name +
                                        ") is RUNNING: stop it first, or delete it with --force");
        if (named.insert(r.uuid).second)
            runs.push_back(std::move(r));
    }
    std::vector<std::string> uuids;
    uuids.reserve(runs.size());
    for (const Run& r : runs)
        uuids.push_back(r.uuid);
    const std::vector<std::string> changed = store.curation().setRunsDeleted(uuids, deleted);
    for (const Run& r : runs) {
        if (std::find(changed.begin(), changed.end(), r.uuid) != changed.end())
            std::cout << (deleted ? "deleted " : "restored ") << r.uuid << " (" << r.name << ")\n";
        else // another client got there between our reading and the transaction
            std::cerr << "radt: run " << r.uuid << " (" << r.name << ") was already "
                      << (deleted ? "deleted" : "restored") << " by another client: left as it is\n";
    }
}

/// The experiment `target` names: its id or its exact name, among the active experiments or with
/// `deleted` the deleted ones; an error that says why when there is none.
Experiment resolveExperiment(Store& store, const std::string& target, bool deleted) {
    const bool isId = !target.empty() && target.find_first_not_of("0123456789") == std::string::npos;
    auto find = [&](const std::vector<Experiment>& among) -> const Experiment* {
        for (const Experiment& e : among)
            if (isId ? std::to_string(e.id) == target : e.name == target)
                return &e;
        return nullptr;
    };
    const std::vector<Experiment> active = store.experiments(), gone = store.curation().deletedExperiments();
    if (const Experiment* e = find(deleted ? gone : active))
        return *e;
    if (const Experiment* other = find(deleted ? active : gone))
        throw std::invalid_argument("experiment " + std::to_string(other->id) + " (" + other->name + ") is " +
                                    (deleted ? "not deleted"
                                             : "deleted: restore it first (radt experiment restore " +
                                                   std::to_string(other->id) + ")"));
    throw std::invalid_argument("'" + target + "' names no " + (deleted ? "deleted " : "") +
                                "experiment in " + store.displayUri() +
                                " (an experiment id or its exact name)");
}

/// Deletes or restores each experiment with all its runs, every named one found first.
void setExperimentsDeleted(Store& store, const RunArgs& args, bool deleted) {
    std::vector<Experiment> experiments;
    for (const std::string& target : args.words) {
        Experiment e = resolveExperiment(store, target, !deleted);
        // Named twice (by id and by name): once, or the second change would fail half-way through.
        if (std::none_of(experiments.begin(), experiments.end(),
                         [&](const Experiment& x) { return x.id == e.id; }))
            experiments.push_back(std::move(e));
    }
    std::vector<Run> runs = deleted ? store.runs() : store.curation().deletedRuns();
    for (const Experiment& e : experiments) {
        size_t running = 0;
        for (const Run& r : runs)
            running += r.experimentId == e.id && r.status == RunStatus::Running;
        if (deleted && running > 0 && !args.force)
            throw std::invalid_argument("experiment " + std::to_string(e.id) + " (" + e.name + ") has " +
                                        std::to_string(running) +
                                        " RUNNING runs: stop them first, or delete it with --force");
    }
    std::vector<int64_t> ids;
    ids.reserve(experiments.size());
    for (const Experiment& e : experiments)
        ids.push_back(e.id);
    // One transaction for all of them: a failure (or a kill -9) half-way through changes none.
    const std::vector<int64_t> changed = store.curation().setExperimentsDeleted(ids, deleted);
    for (const Experiment& e : experiments) {
        if (std::find(changed.begin(), changed.end(), e.id) == changed.end()) {
            // another client got there between our reading and the transaction
            std::cerr << "radt: experiment " << e.id << " (" << e.name << ") was already "
                      << (deleted ? "deleted" : "restored") << " by another client: left as it is\n";
            continue;
        }
        size_t n = 0;
        for (const Run& r : runs)
            n += r.experimentId == e.id;
        std::cout << (deleted ? "deleted experiment " : "restored experiment ") << e.id << " (" << e.name
                  << ") and its " << n << (n == 1 ? " run\n" : " runs\n");
    }
}

} // namespace

void addExperimentCommands(CLI::App& app, Action& action) {
    CLI::App* experiment =
        app.add_subcommand("experiment", "rename, delete or restore experiments (with their runs)");
    experiment->prefix_command(false);
    experiment->allow_extras();
    experiment->callback([experiment] {
        if (experiment->get_subcommands().empty())
            throw std::invalid_argument(
                "usage: radt experiment rename EXPERIMENT NAME, radt experiment delete "
                "[--force] EXPERIMENT..., or radt experiment restore EXPERIMENT...");
    });
    addRunSubcommand(*experiment, action, "rename", "rename an experiment", "EXPERIMENT NAME", 2, 2,
                     [](Store& store, const RunArgs& a) {
                         const Experiment e = resolveExperiment(store, a.words[0], false);
                         store.curation().renameExperiment(e.id, a.words[1]);
                         std::cout << "renamed experiment " << e.id << " (" << e.name << ") to " << a.words[1]
                                   << "\n";
                     });
    addRunSubcommand(
        *experiment, action, "delete",
        "delete experiments and their runs (MLflow's soft delete: radt experiment restore brings them back)",
        "EXPERIMENT...", 1, SIZE_MAX,
        [](Store& store, const RunArgs& a) { setExperimentsDeleted(store, a, true); }, true);
    addRunSubcommand(*experiment, action, "restore", "restore deleted experiments and their runs",
                     "EXPERIMENT...", 1, SIZE_MAX,
                     [](Store& store, const RunArgs& a) { setExperimentsDeleted(store, a, false); });
}

void addRunCommands(CLI::App& app, Action& action) {
    CLI::App* run = app.add_subcommand("run", "rename, annotate, tag, delete or restore recorded runs");
    run->prefix_command(false);
    run->allow_extras();
    run->callback([run] {
        if (run->get_subcommands().empty())
            throw std::invalid_argument(
                "usage: radt run rename RUN NAME, radt run note RUN TEXT, radt run tag RUN "
                "KEY=VALUE..., radt run untag RUN KEY..., radt run delete [--force] RUN..., "
                "or radt run restore RUN...");
    });
    addRunSubcommand(*run, action, "rename", "rename a run (MLflow's run name)", "RUN NAME", 2, 2,
                     [](Store& store, const RunArgs& a) {
                         const std::vector<std::string>& w = a.words;
                         if (w[1].find_first_not_of(" \t") == std::string::npos)
                             throw std::invalid_argument(
                                 "a run's name cannot be empty (MLflow's client leaves "
                                 "the name as it is)");
                         const Run r = resolveRun(StoreRuns(store), w[0], false);
                         store.curation().renameRun(r.uuid, w[1]);
                         std::cout << "renamed " << r.uuid << " (" << r.name << ") to " << w[1] << "\n";
                     });
    addRunSubcommand(*run, action, "note", "set a run's note (MLflow's description)", "RUN TEXT", 2, 2,
                     [](Store& store, const RunArgs& a) {
                         const std::vector<std::string>& w = a.words;
                         const Run r = resolveRun(StoreRuns(store), w[0], false);
                         store.setTags(r.uuid, {{kRunNoteTag, w[1]}});
                         std::cout << "noted " << r.uuid << " (" << r.name << ")\n";
                     });
    addRunSubcommand(
        *run, action, "tag", "add or change tags of a run", "RUN KEY=VALUE...", 2, SIZE_MAX,
        [](Store& store, const RunArgs& a) {
            const std::vector<std::string>& w = a.words;
            const Run r = resolveRun(StoreRuns(store), w[0], false);
            std::vector<std::pair<std::string, std::string>> tags;
            std::optional<std::string> name; // mlflow.runName renames, as MLflow's set_tag does
            for (size_t i = 1; i < w.size(); ++i) {
                auto tag = tagOf(w[i]);
                if (tag.first != kRunNameTag)
                    tags.push_back(std::move(tag));
                else if (tag.second.find_first_not_of(" \t") == std::string::npos)
                    throw std::invalid_argument(std::string("a run's name cannot be empty (") + kRunNameTag +
                                                "=)");
                else
                    name = tag.second;
            }
            if (!tags.empty())
                store.setTags(r.uuid, tags);
            if (name)
                store.curation().renameRun(r.uuid, *name); // runs.name and the tag, in one transaction
            std::cout << "tagged " << r.uuid << " (" << r.name << "): " << tags.size() << " tags\n";
        });
    addRunSubcommand(*run, action, "untag", "remove tags of a run", "RUN KEY...", 2, SIZE_MAX,
                     [](Store& store, const RunArgs& a) {
                         const std::vector<std::string>& w = a.words;
                         const Run r = resolveRun(StoreRuns(store), w[0], false);
                         store.curation().deleteTags(r.uuid, {w.begin() + 1, w.end()});
                         std::cout << "untagged " << r.uuid << " (" << r.name << "): " << w.size() - 1
                                   << " tags\n";
                     });
    addRunSubcommand(
        *run, action, "delete", "delete runs (MLflow's soft delete: radt run restore brings them back)",
        "RUN...", 1, SIZE_MAX, [](Store& store, const RunArgs& a) { setDeleted(store, a, true); }, true);
    addRunSubcommand(*run, action, "restore", "restore deleted runs", "RUN...", 1, SIZE_MAX,
                     [](Store& store, const RunArgs& a) { setDeleted(store, a, false); });
}

} // namespace radt::cli
