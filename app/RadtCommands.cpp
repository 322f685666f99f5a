// SPDX-License-Identifier: MIT
// radt's commands on a store: ls, report, store copy, compact, partition and archive.

#include "RadtCommands.h"

#include "core/StoreFactory.h"
#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/InsightReport.h"
#include "core/base/TextFormat.h"
#include "core/report/EnvironmentReport.h"
#include "core/report/ReportTables.h"
#include "core/store/RunReconciler.h"
#include "core/store/StoreCompaction.h"
#include "core/store/StoreCopy.h"
#include "core/store/StoreListing.h"
#include "core/store/StoreUri.h"
#include "core/store/postgres/PostgresBackend.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <unistd.h>

namespace radt::cli {

int usageError(const std::string& message) {
    std::cerr << "radt: " << message << "\nTry 'radt --help'.\n";
    return 2;
}

double parseNumber(const std::string& text, const std::string& option, const char* unit) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0')
        throw std::invalid_argument(option + " expects a number of " + unit + ", got '" + text + "'");
    return v;
}

CLI::Option* addStoreOption(CLI::App& app, std::string& store) {
    return app
        .add_option_function<std::string>(
            "--store",
            [&store](const std::string& value) {
                if (value.empty())
                    throw std::invalid_argument("--store needs a store URI or path, got ''");
                store = value;
            },
            "tracking store: sqlite:///relative.db, sqlite:////abs/path.db, a file path,\n"
            "or postgresql://user[:password]@host[:port]/db (password also from\n"
            "PGPASSWORD or ~/.pgpass), postgresql:///db?host=/socket/dir\n"
            "(default: $RADT_TRACKING_URI, $MLFLOW_TRACKING_URI, then\n"
            "$XDG_DATA_HOME/radt/radt.db)")
        ->type_name("URI");
}

std::unique_ptr<Store> openResolvedStore(const std::string& cliValue, OpenMode mode) {
    const ResolvedStoreUri resolved = resolveStoreUri(cliValue);
    if (resolved.source == "default") {
        createDefaultStoreDir();
        mode = OpenMode::CreateIfMissing;
    }
    auto store = openStore(resolved.uri, mode);
    if (const std::string notice = store->openNotice(); !notice.empty())
        std::cerr << "radt: " << notice << "\n";            // a change to a store another tool may own
    if (mode != OpenMode::ReadOnly && !store->isReadOnly()) // --read-only writes nothing, fixes included
        reconcileOrphanedRuns(*store, [](const std::string& m) { std::cerr << "radt: " << m << "\n"; });
    return store;
}

int reportingErrors(const std::function<int()>& work) {
    try {
        return work();
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
}

namespace {

/// A JSON document for stdout. Text from outside (a pip.txt, a param value, a run name MLflow
/// wrote) may hold bytes that are not UTF-8: they print as U+FFFD instead of ending the command
/// with the JSON library's message.
std::string jsonDocument(const nlohmann::json& document) {
    return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

/// "radt: <verb> k/n runs", rewritten in place on a terminal's stderr, shown from `least` runs
/// on; with `logLines`, a line per tenth of the runs in a log too (a long change to a store says
/// in its log how far it got).
std::function<void(size_t, size_t)> runCounter(const char* verb, size_t least = 1, bool logLines = false) {
    return [verb, least, logLines, tty = ::isatty(STDERR_FILENO) != 0](size_t done, size_t total) {
        if (tty && total >= least)
            std::cerr << "\rradt: " << verb << " " << done << "/" << total << " runs"
                      << (done == total ? "\n" : "") << std::flush;
        else if (!tty && logLines && (total < 10 || done % (total / 10) == 0 || done == total))
            std::cerr << "radt: " << verb << " " << done << "/" << total << " runs\n" << std::flush;
    };
}

} // namespace

const char* const kTargetHelp = "a run id (or a unique prefix of at least 5 characters), a workload\n"
                                "<experiment id>-<workload>, or an experiment name or id";

namespace {

struct LsArgs {
    std::string store;
    bool json = false;
    bool readOnly = false;
    std::string filter; ///< MLflow's search syntax; empty: every run
};

/// A search expression radt cannot read: the expression, a caret under where it went wrong.
std::string filterErrorText(const std::string& expression, const RunFilterError& e) {
    return std::string("--filter: ") + e.what() + "\n  " + expression + "\n  " +
           std::string(e.column() > 0 ? e.column() - 1 : 0, ' ') + "^";
}

void addLs(CLI::App& app, Action& action) {
    auto args = std::make_shared<LsArgs>();
    CLI::App* ls = app.add_subcommand("ls", "list what a store holds");
    ls->prefix_command(false);
    ls->allow_extras(); // said below in radt's words
    addStoreOption(*ls, args->store);
    ls->add_flag("--json", args->json, "the listing as one JSON document");
    ls->add_flag("--read-only", args->readOnly,
                 "open the store without writing anything (no read index, no fixes)");
    ls->add_option("--filter", args->filter,
                   "only the runs that meet EXPR, in MLflow's search syntax:\n"
                   "params.`batch-size` = '64' and metrics.accuracy > 0.9 and\n"
                   "attributes.status = 'FINISHED' (radt(1), resources/doc/recording.md)")
        ->type_name("EXPR");
    ls->callback([ls, args, &action] {
        if (!ls->remaining().empty())
            throw std::invalid_argument("unexpected argument '" + ls->remaining().front() +
                                        "' for 'radt ls'");
        action = [args] {
            std::vector<RunCondition> filter;
            try { // read before the store is opened: a typo costs no connection
                filter = parseRunFilter(args->filter);
            } catch (const RunFilterError& e) {
                std::cerr << "radt: " << filterErrorText(args->filter, e) << "\n";
                return 2;
            }
            const std::string said =
                filter.empty() ? std::string() : args->filter; // a blank one filters nothing
            return reportingErrors([&] {
                auto s = openResolvedStore(args->store,
                                           args->readOnly ? OpenMode::ReadOnly : OpenMode::OpenExisting);
                std::cout << (args->json ? jsonDocument(storeListingJson(*s, filter, said))
                                         : storeListingText(*s, filter, said));
                return 0;
            });
        };
    });
}

struct ReportArgs {
    std::string store;
    bool json = false, latex = false, csv = false, readOnly = false;
    bool envDiff = false;                 ///< the environment items each configuration's runs differ in
    bool verbose = false;                 ///< the terminal table plus each comparison's exact p
    bool judge = false;                   ///< each run against its configuration's history
    double minChange = 0.05;              ///< --judge: a smaller change than this share is normal
    std::string table = "configurations"; ///< what --latex and --csv print: configurations or collocation
    bool repeatParamsGiven = false;       ///< --repeat-param given: each name must be the runs'
    ReportOptions options;
    std::vector<std::string> targets;
};

/// A number option whose value `inRange` accepts (else `outOfRange` is the error) goes to `set`.
CLI::Option* addBoundedNumber(CLI::App& app, const std::string& name, const char* unit,
                              const std::function<bool(double)>& inRange, const std::string& outOfRange,
                              const std::function<void(double)>& set, const std::string& help) {
    return app.add_option_function<std::string>(
        name,
        [=](const std::string& text) {
            const double v = parseNumber(text, name, unit);
            if (!inRange(v))
                throw std::invalid_argument(outOfRange);
            set(v);
        },
        help);
}

/// "'a', 'b', ..." of at most 12 names: what a refused option value could have been.
std::string quotedNames(const std::vector<std::string>& names) {
    std::string known;
    for (size_t i = 0; i < names.size() && i < 12; ++i)
        known += (i ? ", '" : "'") + names[i] + "'";
    if (names.size() > 12)
        known += ", ...";
    return known;
}

/// A --repeat-param no run has would make every run its own configuration without a word: said.
void checkRepeatParams(const std::vector<Run>& runs, const ReportArgs& args) {
    if (!args.repeatParamsGiven) // the default, seed, may well be absent
        return;
    const std::vector<std::string> unknown = unknownRepeatParams(runs, args.options.repeatParams);
    if (unknown.empty())
        return;
    std::vector<std::string> names;
    for (const std::string& name : runParamNames(runs))
        if (!std::count(kBookkeepingParams.begin(), kBookkeepingParams.end(), name))
            names.push_back(name);
    throw std::invalid_argument(
        "--repeat-param '" + unknown.front() + "' is not a param of the runs reported (" +
        (names.empty() ? std::string("they have none") : "they have " + quotedNames(names)) + ")");
}

/// The checks that need the store: the baseline names something, repeat params and burst metrics
/// are the runs'.
void checkReportTargets(Store& store, const std::vector<Run>& runs, const ReportArgs& args) {
    const ReportOptions& options = args.options;
    const bool baselineConfiguration = !options.baseline.empty() && options.baseline[0] == '#';
    if (baselineConfiguration && (options.baseline.size() < 2 ||
                                  options.baseline.find_first_not_of("0123456789", 1) != std::string::npos))
        throw std::invalid_argument("--baseline '" + options.baseline +
                                    "': a configuration is named #K, K its index in the report");
    const bool baselineLabel = options.baseline.find('=') != std::string::npos; // checked on the report
    if (!options.baseline.empty() && !baselineConfiguration && !baselineLabel)
        for (const Run& run : resolveReportTargets(store, {options.baseline})) // naming nothing throws
            if (!countsAsRepeat(run.status)) // it would stand in no configuration: nothing to compare with
                throw std::invalid_argument("--baseline " + options.baseline + " is a " +
                                            toString(run.status) +
                                            " run: only finished runs are repeats to compare with");
    checkRepeatParams(runs, args);
    if (options.burstMetrics.empty())
        return; // a misspelt key would otherwise be ignored silently
    std::vector<std::string> uuids;
    uuids.reserve(runs.size());
    for (const Run& r : runs)
        uuids.push_back(r.uuid);
    const std::vector<std::string> keys = store.metricKeys(uuids);
    for (const std::string& key : options.burstMetrics)
        if (!std::binary_search(keys.begin(), keys.end(), key))
            throw std::invalid_argument(
                "--burst-metric '" + key + "' is not a metric of the runs reported (" +
                (keys.empty() ? std::string("they have none") : "they have " + quotedNames(keys)) + ")");
}

int runReport(const ReportArgs& args) {
    return reportingErrors([&] {
        auto s = openResolvedStore(args.store, args.readOnly ? OpenMode::ReadOnly : OpenMode::OpenExisting);
        const std::vector<Run> runs = resolveReportTargets(*s, args.targets);
        checkReportTargets(*s, runs, args);
        nlohmann::json report = buildReport(*s, runs, args.options, runCounter("analysed", 2));
        const std::string& baseline = args.options.baseline;
        if (!baseline.empty() && baseline[0] == '#' &&
            std::stoul(baseline.substr(1)) >= report["configurations"].size())
            throw std::invalid_argument("--baseline " + baseline + ": the report has " +
                                        std::to_string(report["configurations"].size()) +
                                        " configuration(s), #0 to #" +
                                        std::to_string(report["configurations"].size() - 1));
        if (baseline.find('=') != std::string::npos) {
            std::string labels;
            bool found = false;
            for (const auto& c : report["configurations"]) {
                found = found || c["label"] == baseline;
                labels += (labels.empty() ? "'" : ", '") + c["label"].get<std::string>() + "'";
            }
            if (!found)
                throw std::invalid_argument(
                    "--baseline '" + baseline + "' names no configuration of the report (" +
                    (labels.empty() ? std::string("it has none") : "they are " + labels) + ")");
        }
        if (args.envDiff) {
            addEnvironmentDiffs(report, runs, artifactContextOfStore(resolveStoreUri(args.store).uri));
            std::cout << (args.json ? jsonDocument(report) : environmentDiffTable(report));
            return 0;
        }
        const bool collocation = args.table == "collocation";
        if (args.csv &&
            !collocation) // the CSV holds only its header and rows: what it leaves out is said here
            for (const std::string& note : reportNotes(report))
                std::cerr << "radt report: " << note << "\n";
        std::cout << (args.json    ? jsonDocument(report)
                      : args.latex ? (collocation ? collocationLatex(report) : configurationsLatex(report))
                      : args.csv   ? (collocation ? collocationCsv(report) : configurationsCsv(report))
                                   : reportTable(report) + (args.verbose ? exactPValues(report) : ""));
        return 0;
    });
}

/// What `radt report` prints: --json, --latex, --csv, --env-diff and --table.
void addReportFormats(CLI::App& report, ReportArgs& args) {
    report.add_flag("--json", args.json, "one JSON document (resources/doc/report.md gives its shape)");
    report.add_flag("--latex", args.latex,
                    "the configurations as a booktabs table (mean ± 95 % CI, N, significance\n"
                    "marks against --baseline or configuration 0) for a paper");
    report.add_flag("--csv", args.csv, "the configurations' figures as CSV");
    report.add_flag("--env-diff", args.envDiff,
                    "per configuration, the environment its runs differ in (packages of pip.txt\n"
                    "and conda.txt, driver, CUDA and GPU of smi.txt, host, CPU, cores, radt\n"
                    "version); with --json, each configuration's \"environment\"");
    report
        .add_option("--table", args.table,
                    "what --latex and --csv print: configurations (the default) or collocation\n"
                    "(per collocated configuration: together against one after another alone)")
        ->type_name("configurations|collocation")
        ->check(CLI::IsMember({"configurations", "collocation"}));
}

void addReport(CLI::App& app, Action& action) {
    auto args = std::make_shared<ReportArgs>();
    CLI::App* report = app.add_subcommand(
        "report",
        "energy, efficiency, burst/idle and collocation figures computed from what the store holds");
    report->prefix_command(false);
    addStoreOption(*report, args->store);
    addReportFormats(*report, *args);
    ReportOptions& o = args->options;
    addBoundedNumber(
        *report, "--grid-intensity", "g/kWh", [](double g) { return g >= 0 && g <= 5000; },
        "--grid-intensity expects 0 to 5000 g CO2e per kWh", [&o](double g) { o.gridIntensity = g; },
        "grid carbon intensity in g CO2e per kWh (enables CO2e figures)")
        ->type_name("G");
    addBoundedNumber(
        *report, "--pue", "(a ratio)", [](double p) { return p >= 1.0 && p <= 5.0; },
        "--pue expects a ratio between 1.0 and 5.0", [&o](double p) { o.pue = p; },
        "the data centre's power usage effectiveness (default 1.0)")
        ->type_name("P");
    report
        ->add_option("--baseline", o.baseline,
                     "what runs and configurations are compared with: a run (its configuration\n"
                     "for comparisons), configuration K of the report or its label\n"
                     "(batch-size=64) (default: collocated runs against the solo runs of the\n"
                     "same params, every pair of configurations)")
        ->type_name("RUN|#K|LABEL");
    report
        ->add_option_function<std::vector<std::string>>(
            "--repeat-param",
            [args](const std::vector<std::string>& names) {
                for (const std::string& name : names)
                    if (name.empty())
                        throw std::invalid_argument("--repeat-param expects a param name");
                args->options.repeatParams = names; // the first one given replaces the default
                args->repeatParamsGiven = true;
            },
            "a param that tells repeats apart, not configurations (repeatable; default\n"
            "seed): runs that differ only in it are one configuration, with mean and CI")
        ->type_name("NAME")
        ->allow_extra_args(false) // one name per --repeat-param: TARGETs follow
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    report
        ->add_option("--burst-metric", o.burstMetrics,
                     "also characterise KEY's bursts and idle periods (repeatable)")
        ->type_name("KEY")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    addBoundedNumber(
        *report, "--stall-gpu-below", "percent", [](double p) { return p > 0 && p <= 100; },
        "--stall-gpu-below expects a percentage above 0, at most 100",
        [&o](double p) { o.stalls.gpuBelowPct = p; },
        "an input stall is GPU utilisation under PCT % (default 10) ...")
        ->type_name("PCT");
    addBoundedNumber(
        *report, "--stall-cpu-cores", "cores", [](double c) { return c > 0 && c <= 4096; },
        "--stall-cpu-cores expects a number of cores above 0", [&o](double c) { o.stalls.cpuCores = c; },
        "... while the run's processes use N CPU cores or more (default 0.8)")
        ->type_name("N");
    report->add_flag("--verbose,-v", args->verbose,
                     "after the table, each comparison's exact p and Holm's p (3 significant\n"
                     "digits; the table says < 0.001 below that); --json and --csv hold them always");
    report->add_flag("--judge", args->judge,
                     "each run against the earlier finished runs of its configuration: per figure\n"
                     "the 95 % prediction interval and a verdict (radt check is the gate)");
    addMinChangeOption(*report, args->minChange);
    report->add_flag("--read-only", args->readOnly,
                     "open the store without writing anything (no read index, no fixes)");
    report->add_option("TARGET", args->targets, kTargetHelp)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    report->callback([args, report, &action] {
        if (int(args->json) + int(args->latex) + int(args->csv) > 1)
            throw std::invalid_argument("--json, --latex and --csv each print the whole report: give one");
        if (args->envDiff && (args->latex || args->csv))
            throw std::invalid_argument(
                "--env-diff prints a table of its own or adds to --json, not to --latex or --csv");
        if (args->verbose && (args->json || args->latex || args->csv))
            throw std::invalid_argument("--verbose adds to the terminal table; --json and --csv already "
                                        "hold the exact p, --latex marks significance only");
        if (!args->judge && report->get_option("--min-change")->count())
            throw std::invalid_argument("--min-change goes with --judge: it says how far from its history a "
                                        "run may be and still be normal");
        if (args->judge && (args->latex || args->csv || args->envDiff || args->verbose))
            throw std::invalid_argument("--judge prints each run's judgement as a table or with --json; not "
                                        "with --latex, --csv, --env-diff or --verbose");
        if (args->judge) {
            auto judge = std::make_shared<JudgeArgs>();
            *judge = {args->store,   args->json,     args->readOnly, false, {}, args->options.repeatParams,
                      args->targets, args->minChange};
            action = [judge] { return runJudge(*judge); };
            return;
        }
        if (args->table != "configurations" && !args->latex && !args->csv)
            throw std::invalid_argument("--table chooses what --latex or --csv prints: give one of them");
        action = [args] { return runReport(*args); };
    });
}

struct CompactArgs {
    std::string store;
    CompactionOptions options;
    std::vector<std::string> targets;
};

int runCompact(const CompactArgs& args) {
    return reportingErrors([&] {
        auto s = openResolvedStore(args.store, OpenMode::OpenExisting);
        const std::vector<Run> runs = resolveReportTargets(*s, args.targets);
        const CompactionOptions& o = args.options;
        const CompactionStats stats =
            compactRuns(*s, runs, o, runCounter(o.dryRun ? "counted" : "compacted", 1, true));
        for (const std::string& why : stats.skipped)
            std::cerr << "radt: skipped " << why << "\n";
        const double ratio = stats.rowsAfter ? double(stats.rowsBefore) / double(stats.rowsAfter) : 1.0;
        std::printf("%s%zu runs, %zu hardware series: %zu -> %zu samples (%.2fx fewer)\n",
                    o.dryRun ? "would compact " : "compacted ", stats.runs, stats.series, stats.rowsBefore,
                    stats.rowsAfter, ratio);
        if (!stats.reclaimError.empty())
            std::cerr << "radt: warning: the runs are compacted, but the store's space was not given back: "
                      << stats.reclaimError << " (run `radt store compact` again with more free space)\n";
        if (stats.bytesBefore >= 0 && stats.bytesAfter >= 0)
            std::printf("store: %.1f MB -> %.1f MB\n", double(stats.bytesBefore) / 1e6,
                        double(stats.bytesAfter) / 1e6);
        if (!o.dryRun)
            std::printf("chart envelopes: %zu series\n", stats.envelopes);
        if (!stats.envelopeError.empty())
            std::cerr << "radt: warning: chart envelopes not written for run " << stats.envelopeError
                      << " (charts of it read every sample instead)\n";
        return 0;
    });
}

const char* const kCompactHelp = R"(thin finished runs' hardware series in place (dead band)

A sample that the straight line between the samples kept around it reproduces within the
tolerance is deleted (dead-band compaction, as process historians store their tags). The first
and last sample, each series' highest and lowest, NaN and infinite values and both ends of every
gap stay, and no kept span is longer than 5 sampling intervals. Software metrics (loss, accuracy)
are never touched. The run gets a radt.compacted tag; `radt report` and the explorer's summary
put its series back on the sampling grid, within the tolerance of what was recorded. SQLite
stores are rewritten afterwards (VACUUM) so the file shrinks; this needs free space for a copy.)";

void addCompact(CLI::App& store, Action& action) {
    auto args = std::make_shared<CompactArgs>();
    CLI::App* compact = store.add_subcommand("compact", kCompactHelp);
    addStoreOption(*compact, args->store);
    compact
        ->add_option_function<std::string>(
            "--tolerance", [args](const std::string& t) { args->options = parseTolerance(t); },
            "T% of each series' range (default 0.5%), or T in the metric's unit (e.g. 2)")
        ->type_name("T");
    auto dry = std::make_shared<bool>(false); // apart: --tolerance replaces the options whole
    compact->add_flag("--dry-run", *dry, "count what would be deleted; change nothing");
    compact->add_option("TARGET", args->targets, kTargetHelp)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    compact->callback([args, dry, &action] {
        if (args->targets.empty())
            throw std::invalid_argument("radt store compact needs a TARGET (run id, workload or experiment)");
        args->options.dryRun = *dry;
        action = [args] { return runCompact(*args); };
    });
}

int runCopy(const std::string& from, const std::string& to) {
    return reportingErrors([&] {
        auto source = openStore(from, OpenMode::OpenExisting);
        auto destination = openStore(to, OpenMode::CreateIfMissing);
        const bool tty = ::isatty(STDERR_FILENO);
        const StoreCopyStats stats =
            copyStore(*source, *destination, [&](size_t done, size_t total, size_t samples) {
                // A live counter on a terminal; in a log, a line per tenth.
                if (tty)
                    std::cerr << "\rradt: copied " << done << "/" << total << " runs, " << samples
                              << " samples" << std::flush;
                else if (total < 10 || done % (total / 10) == 0 || done == total)
                    std::cerr << "radt: copied " << done << "/" << total << " runs, " << samples
                              << " samples\n";
            });
        if (tty)
            std::cerr << "\n";
        std::cerr << "radt: " << source->displayUri() << " -> " << destination->displayUri() << ": "
                  << stats.experiments << " experiments, " << stats.runs << " runs, " << stats.samples
                  << " samples (already present ones skipped)\n";
        for (const auto& [run, why] : stats.incomplete)
            std::cerr << "radt: run " << run << " was not copied whole: " << why << "; it is SCHEDULED in "
                      << destination->displayUri() << ", never FINISHED with part of its data\n";
        return stats.incomplete.empty() ? 0 : 1; // something was left: said above, run by run
    });
}

/// A counter on a terminal, a line per tenth in a log.
void countLine(const std::string& text, size_t done, size_t total) {
    if (::isatty(STDERR_FILENO))
        std::cerr << "\rradt: " << text << (done == total ? "\n" : "") << std::flush;
    else if (total < 10 || done % (total / 10) == 0 || done == total)
        std::cerr << "radt: " << text << "\n" << std::flush;
}

/// ", after N tries that waited for its lock (writers held back M ms by them in all)", or "".
std::string lockTriesText(int tries, int64_t failedHeldMs) {
    if (tries <= 1)
        return {};
    return ", after " + std::to_string(tries - 1) + " tries that waited for its lock (writers held back " +
           std::to_string(failedHeldMs) + " ms by them in all)";
}

/// --lock-wait SECONDS: how long the swap (or the drop) waits for its lock before it gives up.
CLI::Option* addLockWaitOption(CLI::App& command, double& seconds) {
    return command
        .add_option("--lock-wait", seconds,
                    "seconds to wait for the lock that holds writers back (tries of 0.2 s, writers going\n"
                    "on between them; whom it waits for is said on stderr); then it gives up, nothing\n"
                    "changed (default 300)")
        ->type_name("SECONDS")
        ->check(CLI::Range(0.0, 86400.0));
}

LockPatience lockPatience(double seconds) {
    LockPatience p;
    p.limit = std::chrono::milliseconds(int64_t(seconds * 1000));
    p.say = [](const std::string& note) { std::cerr << "radt: " << note << "\n" << std::flush; };
    return p;
}

const char* const kPartitionHelp = R"(partition a PostgreSQL store's metrics table by time, in place

Copies the samples run by run (one transaction each, checked by count and checksum) into a
table partitioned on timestamp, copies again the runs changed meanwhile (triggers on metrics
note them), then swaps it in under MLflow's names in one transaction that holds writers back
while it copies the last moments' changes. That lock is asked for 0.2 s at a time, so a session
that holds metrics (a reader idle in its transaction) never stalls the writers: it says whom it
waits for, and after --lock-wait seconds gives up with the table as it was.
Run it as the owner of the metrics table. Interrupted, it resumes where it stopped when run again; the store stays usable
meanwhile. On a store already partitioned, --period sets what partitions made from now on span.
New PostgreSQL stores are partitioned by week from the start (RADT_PARTITION_PERIOD=day|week|none
when radt creates one).)";

void addPartition(CLI::App& store, Action& action) {
    auto uri = std::make_shared<std::string>(), period = std::make_shared<std::string>("week");
    auto lockWait = std::make_shared<double>(300);
    CLI::App* partition = store.add_subcommand("partition", kPartitionHelp);
    addStoreOption(*partition, *uri);
    partition->add_option("--period", *period, "day or week (default week)")->type_name("day|week");
    addLockWaitOption(*partition, *lockWait);
    partition->callback([uri, period, lockWait, &action] {
        action = [uri, period, lockWait] {
            return reportingErrors([&] {
                const std::string target = resolveStoreUri(*uri).uri;
                const PartitionOutcome o = postgresBackend().partition(
                    target, *period,
                    [](size_t done, size_t total, int64_t samples) {
                        countLine("copied " + std::to_string(done) + "/" + std::to_string(total) + " runs, " +
                                      std::to_string(samples) + " samples",
                                  done, total);
                    },
                    lockPatience(*lockWait));
                if (!o.converted)
                    std::printf(
                        "metrics was partitioned already: %d partitions, %lld samples; new partitions "
                        "span a %s\n",
                        o.partitions, static_cast<long long>(o.samples), o.period.c_str());
                else
                    std::printf(
                        "partitioned metrics by %s%s: %lld samples in %d partitions and the default one, "
                        "every run checked by count and checksum; %zu run(s) copied again after they "
                        "changed, %zu of them with writers held back; writers held back for %lld ms "
                        "by the swap%s\n",
                        o.period.c_str(), o.resumed ? " (resumed)" : "", static_cast<long long>(o.samples),
                        o.partitions, o.recopied + o.recopiedLocked, o.recopiedLocked,
                        static_cast<long long>(o.heldMs), lockTriesText(o.lockTries, o.failedHeldMs).c_str());
                return 0;
            });
        };
    });
}

const char* const kArchiveHelp = R"(move finished runs out of a PostgreSQL store into another store

Every run that ended before DATE (not RUNNING, not SCHEDULED) is copied to --to (a SQLite file
or another server; created when missing), checked there (status, params, tags, samples per key),
and only then removed from the store in one transaction: partitions that ended before DATE and
hold nothing else are dropped whole. Interrupted before the removal, nothing is lost: running
it again completes the copy. A run that could not be copied whole (a key MLflow's rules reject)
stays in the store and is SCHEDULED in the archive, never FINISHED.)";

void addArchive(CLI::App& store, Action& action) {
    struct ArchiveArgs {
        std::string store, before, to;
        double lockWait = 300;
    };
    auto args = std::make_shared<ArchiveArgs>();
    CLI::App* archive = store.add_subcommand("archive", kArchiveHelp);
    archive->footer(
        "Exit status: 0 when every run moved; 1 when any run was left in the store (each named on\n"
        "stderr); 2 for bad arguments or a store error.");
    addStoreOption(*archive, args->store);
    addLockWaitOption(*archive, args->lockWait);
    archive->add_option("--before", args->before, "UTC date, YYYY-MM-DD[THH:MM:SS]")
        ->type_name("DATE")
        ->required();
    archive->add_option("--to", args->to, "the archive store: URI or SQLite path")
        ->type_name("URI")
        ->required();
    archive->callback([args, &action] {
        const int64_t before = parseUtcDate(args->before);
        action = [args, before] {
            return reportingErrors([&] {
                const ArchiveOutcome o = postgresBackend().archive(
                    resolveStoreUri(args->store).uri, before, args->to, openStore,
                    [](size_t done, size_t total, size_t samples) {
                        countLine("archived " + std::to_string(done) + "/" + std::to_string(total) +
                                      " runs, " + std::to_string(samples) + " samples",
                                  done, total);
                    },
                    lockPatience(args->lockWait));
                for (const std::string& why : o.kept)
                    std::cerr << "radt: " << why << "\n";
                std::printf("archived %zu runs (%lld samples) to %s; dropped %zu partitions", o.runs,
                            static_cast<long long>(o.samples), maskPassword(args->to).c_str(),
                            o.dropped.size());
                if (!o.dropped.empty())
                    std::printf(", writers held back for %lld ms%s", static_cast<long long>(o.heldMs),
                                lockTriesText(o.lockTries, o.failedHeldMs).c_str());
                std::printf("; %zu run(s) left in the store\n", o.kept.size());
                // Something chosen was left (named above): the archive is not all it was asked to be.
                return o.kept.empty() ? 0 : 1;
            });
        };
    });
}

const char* const kStoreUsage =
    "usage: radt store copy SRC DEST (store URIs or SQLite paths), radt store "
    "compact [--tolerance T] TARGET..., radt store partition [--period day|week], "
    "or radt store archive --before DATE --to URI";

void addStore(CLI::App& app, Action& action) {
    CLI::App* store =
        app.add_subcommand("store", "copy a whole store, compact its runs, partition or archive a server's");
    store->prefix_command(false);
    store->allow_extras(); // a wrong word after `store` gets the usage line, in radt's words
    auto paths = std::make_shared<std::vector<std::string>>();
    CLI::App* copy = store->add_subcommand(
        "copy", "copy a whole store (e.g. SQLite -> PostgreSQL); runs already there are skipped");
    copy->allow_extras();
    copy->add_option("paths", *paths, "SRC and DEST: store URIs or SQLite paths")
        ->type_name("SRC DEST")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    copy->callback([copy, paths, &action] {
        if (paths->size() != 2 || !copy->remaining().empty())
            throw std::invalid_argument(kStoreUsage);
        action = [paths] { return runCopy(paths->at(0), paths->at(1)); };
    });
    addCompact(*store, action);
    addPartition(*store, action);
    addArchive(*store, action);
    store->callback([store] {
        if (store->get_subcommands().empty())
            throw std::invalid_argument(kStoreUsage);
    });
}

} // namespace

void addStoreCommands(CLI::App& app, Action& action) {
    addLs(app, action);
    addReport(app, action);
    addCheck(app, action);
    addStore(app, action);
}

} // namespace radt::cli
