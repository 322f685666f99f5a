// SPDX-License-Identifier: MIT
// radt: the headless collector CLI. Declares its command line (CLI11) and wires core + collector;
// nothing else. The commands on a store (ls, report, store) are in RadtCommands.cpp.

#include "RadtCommands.h"
#include "collector/ExperimentRunner.h"
#include "collector/GpuPartitioning.h"
#include "collector/RunRecorder.h"
#include "collector/RunValidation.h"
#include "collector/listeners/ListenerTable.h"
#include "core/base/TextFormat.h"
#include "core/store/Store.h"
#include "core/store/StoreUri.h"
#include "core/store/SynchronizedStore.h"

#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <strings.h>
#include <unistd.h>

using radt::cli::usageError;

namespace {

volatile std::sig_atomic_t g_stop = 0;
int g_wakePipe[2] = {-1, -1};

void onStopSignal(int signal) {
    g_stop = signal;
    if (g_wakePipe[1] >= 0)
        (void)!::write(g_wakePipe[1], "x", 1); // the recorder sleeps in poll() on the read end
}

const char* const kDescription =
    R"(Records a training workload into an MLflow tracking store: the run, its params (radT's
workload/letter/model/params and each --flag of the script), its output as a log artifact,
pip/conda/nvidia-smi reports as artifacts, host facts as tags, hardware metrics from the
listeners, and software metrics the script logs through the radt Python module
(`with radt.run.RADTBenchmark() as run: run.log_metric("loss", loss, epoch)`), which
radt puts on the script's PYTHONPATH.

Commands:
  radt [options] script.py [script args...]     record one run of a Python script
  radt [options] program [args...]              record one run of any program
  radt [options] experiment.csv                 run a radT experiment file, workload by workload
  radt ls [--store URI] [--json] [--read-only]  list what a store holds
  radt store copy SRC DEST                      copy a whole store (e.g. SQLite -> PostgreSQL)
  radt store compact [--tolerance T] TARGET...  thin finished runs' hardware series (dead band)
  radt store partition [--period day|week]      partition a PostgreSQL store's metrics by time
  radt store archive --before DATE --to URI     move finished runs out of a PostgreSQL store
  radt report [options] TARGET...               energy, utilisation, burst/idle, collocation figures
  radt report --judge RUN...                    each run against its configuration's history
  radt check [--on FIGURES] RUN...              exit 1 when a run is outside that history (CI gate)
  radt run rename|note|tag|untag RUN ...        rename a run, set its note, add or remove tags
  radt run delete|restore RUN...                delete runs (MLflow's soft delete) or restore them
  radt experiment rename|delete|restore EXP...  the same for experiments, with all their runs
  radt --list-listeners                         which listeners this machine can run
  radt COMMAND --help                           a command's options
)";

const char* const kFooter =
    R"(An experiment file has radT's columns Experiment,Workload,Status,Run,Devices,Collocation,File,
Listeners,Params; rows of one (Experiment, Workload) start together. After each workload the
Run and Status cells are written back, so running the file again resumes where it stopped.

Ctrl-C or SIGTERM stops the workload (its whole process group), stops the listeners, writes
every sample, and closes the run KILLED (exit 130 for Ctrl-C). Runs left RUNNING by a collector
that was killed (kill -9, power loss) are marked FAILED by the next radt or radt-explorer that
opens the store.
Exit status: the workload's exit status (0 when stopped by --time); 2 for bad arguments or a
store error.)";

/// What every subcommand's help ends with: its exit statuses. A subcommand copies its parent's
/// footer when it is made, so without this `radt ls --help` ended with the recorder's (experiment
/// files, Ctrl-C, "the workload's exit status"), which says nothing true of ls.
const char* const kSubcommandFooter =
    "Exit status: 0 when done; 2 for bad arguments or a store error (the reason on stderr), and\n"
    "nothing changed. --store before the subcommand is the subcommand's.";

void giveSubcommandsTheirFooter(CLI::App& app) {
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
        if (sub->get_footer() == kFooter) // inherited, not its own
            sub->footer(kSubcommandFooter);
        giveSubcommandsTheirFooter(*sub);
    }
}

/// The listeners' names and what they read, from their table, wrapped to the help's column.
std::string listenersHelp() {
    std::string text = "listeners joined by '+'; default top+proc.\n", line;
    std::istringstream words(radt::listenerUsage());
    for (std::string word; words >> word;) {
        if (line.size() + word.size() + 1 > 60) {
            text += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    return text + line + ".\nA listener whose tool is missing is reported once and skipped.";
}

int parseCount(const std::string& text, const char* option) {
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || v < 0 || v > 1000000000)
        throw std::invalid_argument(std::string(option) + " expects a whole number >= 0, got '" + text + "'");
    return static_cast<int>(v);
}

/// What recording a script, a program or an experiment file is asked to do.
struct RecordArgs {
    radt::RunOptions options;
    std::string store;
    bool local = false, rerun = false, dryRun = false, noEnvCapture = false, listListeners = false;
};

const char* const kOptionsGroup = "Options (before the script; everything after it goes to the script)";

void addRecordOptions(CLI::App& app, RecordArgs& a) {
    const std::string group = kOptionsGroup;
    radt::RunOptions& o = a.options;
    const auto number = [&](const char* name, const char* help, const char* type, const char* unit,
                            const std::function<void(double)>& set) {
        app.add_option_function<std::string>(
               name, [=](const std::string& v) { set(radt::cli::parseNumber(v, name, unit)); }, help)
            ->type_name(type)
            ->group(group);
    };
    radt::cli::addStoreOption(app, a.store)->group(group);
    app.add_option("-e,--experiment", o.experiment,
                   "experiment id (must exist) or name (created when new); default 0 \"Default\"")
        ->type_name("E")
        ->group(group);
    app.add_option("-w,--workload", o.workload,
                   "workload id; default: the next free number in the experiment")
        ->type_name("W")
        ->group(group);
    app.add_option_function<std::string>(
           "-l,--listeners",
           [&o](const std::string& v) {
               if (v.empty())
                   throw std::invalid_argument("--listeners needs listener names joined by '+', got ''");
               o.listeners = v;
           },
           listenersHelp())
        ->type_name("L")
        ->group(group);
    app.add_option("-d,--devices", o.devices, "GPU devices, e.g. 0 or 0+1; the run's letter; default 0")
        ->type_name("D")
        ->group(group);
    app.add_option("-c,--collocation", o.collocation,
                   "'-', MPS or a MIG profile such as 1g.10gb (recorded; letter suffix)")
        ->type_name("C")
        ->group(group);
    app.add_option_function<std::string>(
           "-i,--epoch", [&o](const std::string& v) { o.maxEpoch = parseCount(v, "--epoch"); },
           "stop the script when it logs epoch N (radt module); 0 = no limit")
        ->type_name("N")
        ->group(group);
    number("-t,--time",
           "stop the workload after M minutes (SIGTERM, grace, SIGKILL); the\n"
           "run still counts as FINISHED; 0 = no limit",
           "M", "minutes", [&o](double m) { o.maxTimeMinutes = m; });
    app.add_flag("--manual", o.manual, "listeners run only inside the script's `with RADTBenchmark()` block")
        ->group(group);
    app.add_flag("--local", a.local, "record into ./radt.db in the current directory (unless --store)")
        ->group(group);
    app.add_flag("-r,--rerun", a.rerun,
                 "(experiment files) run FAILED workloads again; FINISHED ones are skipped")
        ->group(group);
    app.add_flag("--dry-run", a.dryRun,
                 "(experiment files) print the plan: workloads, letters, commands,\n"
                 "environment, MIG/MPS set-up; runs and writes nothing")
        ->group(group);
    number("--interval", "sampling interval in seconds (0.1 .. 3600); default 1", "S", "seconds",
           [&o](double s) { o.intervalSeconds = s; });
    app.add_option_function<std::string>(
           "--grace",
           [&o](const std::string& v) {
               const double grace = radt::cli::parseNumber(v, "--grace");
               if (!(grace >= 0 && grace <= 3600))
                   throw std::invalid_argument("--grace expects 0 to 3600 seconds, got '" + v + "'");
               o.graceMs = static_cast<int>(grace * 1000);
           },
           "seconds between SIGTERM and SIGKILL when stopping; default 10")
        ->type_name("S")
        ->group(group);
    app.add_flag("--no-env-capture", a.noEnvCapture,
                 "skip the pip freeze / conda list / nvidia-smi -q artifacts")
        ->group(group);
    app.add_flag("--list-listeners", a.listListeners,
                 "show each listener and whether it can run on this machine")
        ->group(group);
}

bool isExperimentFile(const std::string& path) {
    return path.size() > 4 && strcasecmp(path.c_str() + path.size() - 4, ".csv") == 0;
}

int listListeners() {
    for (const auto& l : radt::listenerAvailability())
        std::printf("%-11s %-13s %s\n", l.name.c_str(), l.available ? "available" : "unavailable",
                    l.detail.c_str());
    return 0;
}

/// One run of a script or program: its outcome on stderr; the workload's exit status, or 2 when
/// samples were lost or the store file went away.
int recordOneRun(radt::Store& store, const radt::RunOptions& options) {
    radt::RunRecorder recorder(store, options,
                               [](const std::string& m) { std::cerr << "radt: " << m << "\n"; });
    recorder.setWakeFd(g_wakePipe[0]);
    const radt::RunOutcome outcome = recorder.record(g_stop);
    std::cerr << "radt: run " << outcome.run.uuid << " " << radt::toString(outcome.status) << " after "
              << radt::formatDuration(outcome.run.endTime.value_or(radt::nowMs()) - outcome.run.startTime)
              << ", " << outcome.samples << " samples written";
    if (outcome.exit.signal)
        std::cerr << " (workload ended by signal " << outcome.exit.signal << ")";
    else if (outcome.exit.code)
        std::cerr << " (workload exit code " << outcome.exit.code << ")";
    std::cerr << "\n";
    const size_t lost = outcome.unwritten - outcome.kept + outcome.dropped;
    if (lost)
        std::cerr << "radt: error: " << lost << " samples could not be written to the store and are lost"
                  << (outcome.closePending ? "\n" : " (recorded on the run as tag radt.unwritten_samples)\n");
    if (outcome.kept)
        std::cerr
            << "radt: error: " << outcome.kept << " samples are not in the store yet; they are kept "
            << "beside the run's artifacts and written by the next radt or radt-explorer that opens it\n";
    if (outcome.status == radt::RunStatus::Finished && !lost && !outcome.kept)
        std::cerr << radt::cli::judgementAfterRun(store, outcome.run, options.storeUri);
    if (const std::string gone = store.fileProblem(); !gone.empty()) {
        std::cerr << "radt: error: " << gone << "; run " << outcome.run.uuid << " and its " << outcome.samples
                  << " samples are in no file anyone can open again\n";
        return 2;
    }
    if (lost || outcome.kept || outcome.closePending)
        return 2;
    if (outcome.status == radt::RunStatus::Killed)
        return 128 + (g_stop ? static_cast<int>(g_stop) : SIGTERM);
    return outcome.timeLimitReached ? 0 : outcome.exit.code;
}

/// Opens the store, then records the run or runs the experiment file, Ctrl-C and SIGTERM
/// stopping it cleanly.
int record(RecordArgs& a, const std::optional<radt::ExperimentFile>& experiment) {
    if (::pipe2(g_wakePipe, O_CLOEXEC | O_NONBLOCK) != 0)
        g_wakePipe[0] = g_wakePipe[1] = -1;
    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        sigaction(sig, &sa, nullptr);
    try {
        auto store = radt::cli::openResolvedStore(a.store, radt::OpenMode::CreateIfMissing);
        a.options.storeUri = radt::resolveStoreUri(a.store).uri;
        // MIG instances a radt killed with SIGKILL created and could not remove: gone before we
        // partition the GPU again (a no-op without such leftovers).
        radt::reclaimOrphanedMigInstances([](const std::string& m) { std::cerr << "radt: " << m << "\n"; });
        if (!experiment)
            return recordOneRun(*store, a.options);
        radt::SynchronizedStore shared(*store); // a workload's runs record concurrently into one connection
        a.options.command.clear();
        const radt::ExperimentOptions options{a.options, a.rerun,
                                              ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR")};
        radt::ExperimentRunner runner(
            shared, *experiment, options, [](const std::string& m) { std::cerr << "radt: " << m << "\n"; },
            std::cout, std::cerr);
        const int rc = runner.run(g_stop, g_wakePipe[0]);
        if (const std::string gone = store->fileProblem(); !gone.empty()) {
            std::cerr << "radt: error: " << gone << "; the experiment's runs and samples are in no file "
                      << "anyone can open again\n";
            return 2;
        }
        return rc;
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
}

/// `radt [options] script|program|experiment.csv ...`: the command after the options, checked
/// before any store is opened.
int runRecord(RecordArgs& a, std::vector<std::string> command) {
    if (a.listListeners)
        return listListeners();
    if (!command.empty() && command.front() == "--")
        command.erase(command.begin()); // the end of radt's options: a script may start with '-'
    if (command.empty())
        return usageError("no script or command given");
    if (command.front().size() > 1 && command.front()[0] == '-')
        return usageError("unrecognized option '" + command.front() + "'");
    a.options.command = std::move(command);
    a.options.captureEnvironment = !a.noEnvCapture;
    if (a.local && a.store.empty())
        a.store = "sqlite:///radt.db";
    a.options.pythonDir = radt::findPythonModuleDir();
    const bool experimentFile = isExperimentFile(a.options.command[0]);
    if (a.dryRun && !experimentFile)
        return usageError("--dry-run is for experiment CSV files");
    try {
        // The collector's own checks (the explorer's launches get the same); an experiment
        // file's rows are checked row by row with their own cells.
        radt::RunOptions check = a.options;
        if (experimentFile)
            check.command = {"check"};
        radt::validateRunOptions(check);
    } catch (const std::exception& e) {
        return usageError(e.what());
    }
    if (!experimentFile)
        return record(a, std::nullopt);
    if (a.options.command.size() > 1)
        return usageError("an experiment file takes no further arguments (got '" + a.options.command[1] +
                          "')");
    std::optional<radt::ExperimentFile> experiment;
    try {
        experiment = radt::readExperimentCsv(a.options.command[0]);
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
    if (!a.dryRun)
        return record(a, experiment);
    if (!radt::ExperimentRunner::printPlan(*experiment, {a.options, a.rerun, false}, std::cout)) {
        std::cerr << "radt: " << a.options.command[0] << ": some runs would be refused (INVALID above)\n";
        return 2;
    }
    return 0;
}

/// Options given before a subcommand (`radt --store X ls`) are parsed as the recording's, where
/// they would be ignored and the subcommand would act on the default store. --store goes to the
/// chosen subcommand when it takes one; any other recording option there is refused. An empty
/// string when all is well, else what to say (exit 2).
std::string applyLeadingOptions(CLI::App& app) {
    std::vector<CLI::App*> chain;
    for (CLI::App* level = &app; !level->get_subcommands().empty();)
        chain.push_back(level = level->get_subcommands().front());
    if (chain.empty())
        return "";
    std::string name = "radt";
    for (const CLI::App* level : chain)
        name += " " + level->get_name();
    for (CLI::Option* given : app.get_options([](const CLI::Option* o) { return o->count() > 0; })) {
        if (!given->check_lname("store"))
            return "'" + given->get_name() + "' is an option of recording a run, not of '" + name +
                   "': give the subcommand's options after it";
        CLI::Option* target = nullptr;
        for (CLI::App* level : chain)
            if (CLI::Option* own = level->get_option_no_throw("--store"))
                target = own;
        if (!target)
            return "'" + name + "' takes no --store";
        if (target->count() > 0)
            return "--store given both before and after '" + name + "'";
        // The subcommand's action reads its store when it runs, after this.
        for (const std::string& value : given->results())
            target->add_result(value);
        target->run_callback();
    }
    return "";
}

} // namespace

// Each command catches and reports what it throws (reportingErrors, record()): no exception from
// bad input leaves main (resources/doc/bad-input.md). CLI11 throws while the options are set up only
// on a programming error (an option named twice), which every run of radt meets, the tests' included.
int main(int argc, char** argv) { // NOLINT(bugprone-exception-escape)
    CLI::App app{kDescription, "radt"};
    app.footer(kFooter);
    app.set_help_flag("-h,--help", "this help")->group(kOptionsGroup);
    app.set_version_flag("--version", "radt " RADT_VERSION, "version")->group(kOptionsGroup);
    app.get_formatter()->column_width(26);
    // An option given twice counts once, the last (as getopt did); repeatable ones say so.
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    // The first word that is not one of ours is the script: its own flags are not ours.
    app.prefix_command();
    RecordArgs record;
    addRecordOptions(app, record);
    radt::cli::Action action;
    radt::cli::addStoreCommands(app, action);
    radt::cli::addRunCommands(app, action);
    radt::cli::addExperimentCommands(app, action);
    giveSubcommandsTheirFooter(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const std::exception& e) { // CLI11's parse errors and the options' own checks
        return usageError(e.what());
    }
    if (action) {
        std::string leading;
        try {
            leading = applyLeadingOptions(app);
        } catch (const std::exception& e) { // the subcommand's own check of the value
            leading = e.what();
        }
        if (!leading.empty())
            return usageError(leading);
    }
    return action ? action() : runRecord(record, app.remaining());
}
