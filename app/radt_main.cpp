// radt: the headless collector CLI. Parses arguments and wires core + collector; nothing else.

#include "ExperimentRunner.h"
#include "GpuPartitioning.h"
#include "InsightReport.h"
#include "Listener.h"
#include "ReportTables.h"
#include "RunReconciler.h"
#include "RunRecorder.h"
#include "RunValidation.h"
#include "Store.h"
#include "StoreCompaction.h"
#include "StoreCopy.h"
#include "StoreListing.h"
#include "StoreUri.h"
#include "SynchronizedStore.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <getopt.h>
#include <iostream>
#include <sstream>
#include <string>
#include <strings.h>
#include <unistd.h>

namespace {

volatile std::sig_atomic_t g_stop = 0;
int g_wakePipe[2] = {-1, -1};

void onStopSignal(int signal) {
    g_stop = signal;
    if (g_wakePipe[1] >= 0)
        (void)!::write(g_wakePipe[1], "x", 1); // the recorder sleeps in poll() on the read end
}

const char* kUsage = R"(Usage:
  radt [options] script.py [script args...]   record one run of a Python script
  radt [options] program [args...]            record one run of any program
  radt [options] experiment.csv               run a radT experiment file, workload by workload
  radt ls [--store URI] [--json] [--read-only] list what a store holds
  radt store copy SRC DEST                    copy a whole store (e.g. SQLite -> PostgreSQL)
  radt store compact [--tolerance T] TARGET... thin finished runs' hardware series (dead band)
  radt report [options] TARGET...             energy, utilisation, burst/idle, collocation figures
  radt --list-listeners                       which listeners this machine can run

Records a training workload into an MLflow tracking store: the run, its params (radT's
workload/letter/model/params and each --flag of the script), its output as a log artifact,
pip/conda/nvidia-smi reports as artifacts, host facts as tags, hardware metrics from the
listeners, and software metrics the script logs through the radt Python module
(`with radt.run.RADTBenchmark() as run: run.log_metric("loss", loss, epoch)`), which
radt puts on the script's PYTHONPATH.

Options (before the script; everything after it goes to the script):
  --store URI            tracking store: sqlite:///relative.db, sqlite:////abs/path.db, a file path,
                         or postgresql://user[:password]@host[:port]/db (password also from
                         PGPASSWORD or ~/.pgpass), postgresql:///db?host=/socket/dir
                         (default: $RADT_TRACKING_URI, $MLFLOW_TRACKING_URI, then
                         $XDG_DATA_HOME/radt/radt.db)
  -e, --experiment E     experiment id (must exist) or name (created when new); default 0 "Default"
  -w, --workload W       workload id; default: the next free number in the experiment
  -l, --listeners L      listeners joined by '+'; default top+proc.
                         @LISTENERS@.
                         A listener whose tool is missing is reported once and skipped.
  -d, --devices D        GPU devices, e.g. 0 or 0+1; the run's letter; default 0
  -c, --collocation C    '-', MPS or a MIG profile such as 1g.10gb (recorded; letter suffix)
  -i, --epoch N          stop the script when it logs epoch N (radt module); 0 = no limit
  -t, --time M           stop the workload after M minutes (SIGTERM, grace, SIGKILL); the
                         run still counts as FINISHED; 0 = no limit
      --manual           listeners run only inside the script's `with RADTBenchmark()` block
      --local            record into ./radt.db in the current directory (unless --store)
  -r, --rerun            (experiment files) run FAILED workloads again; FINISHED ones are skipped
      --dry-run          (experiment files) print the plan: workloads, letters, commands,
                         environment, MIG/MPS set-up; runs and writes nothing
      --interval S       sampling interval in seconds (0.1 .. 3600); default 1
      --grace S          seconds between SIGTERM and SIGKILL when stopping; default 10
      --no-env-capture   skip the pip freeze / conda list / nvidia-smi -q artifacts
      --list-listeners   show each listener and whether it can run on this machine
  -h, --help             this help
      --version          version

An experiment file has radT's columns Experiment,Workload,Status,Run,Devices,Collocation,File,
Listeners,Params; rows of one (Experiment, Workload) start together. After each workload the
Run and Status cells are written back, so running the file again resumes where it stopped.

Ctrl-C or SIGTERM stops the workload (its whole process group), stops the listeners, writes
every sample, and closes the run KILLED (exit 130 for Ctrl-C). Runs left RUNNING by a collector
that was killed (kill -9, power loss) are marked FAILED by the next radt or radt-explorer that
opens the store.
Exit status: the workload's exit status (0 when stopped by --time); 2 for bad arguments or a
store error.
)";

/// The usage with the listeners named from their table, wrapped to the help's column.
std::string usageText() {
    std::string usage = kUsage;
    std::string listeners, line;
    std::istringstream words(radt::listenerUsage());
    for (std::string word; words >> word;) {
        if (line.size() + word.size() + 1 > 68) {
            listeners += line + "\n                         ";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    listeners += line;
    const size_t at = usage.find("@LISTENERS@");
    return usage.replace(at, std::string("@LISTENERS@").size(), listeners);
}

int usageError(const std::string& message) {
    std::cerr << "radt: " << message << "\nTry 'radt --help'.\n";
    return 2;
}

/// The value of --store, for every subcommand: '' would silently mean the default store.
std::string storeArgument(const char* value) {
    if (!*value)
        throw std::invalid_argument("--store needs a store URI or path, got ''");
    return value;
}

/// "radt: <verb> k/n runs", rewritten in place on a terminal's stderr (nothing in a log), shown
/// from `least` runs on.
/// A live counter on a terminal; with `logLines`, a line per tenth of the runs in a log too (a
/// long change to a store says in its log how far it got).
std::function<void(size_t, size_t)> runCounter(const char* verb, size_t least = 1, bool logLines = false) {
    return [verb, least, logLines, tty = ::isatty(STDERR_FILENO) != 0](size_t done, size_t total) {
        if (tty && total >= least)
            std::cerr << "\rradt: " << verb << " " << done << "/" << total << " runs"
                      << (done == total ? "\n" : "") << std::flush;
        else if (!tty && logLines && (total < 10 || done % (total / 10) == 0 || done == total))
            std::cerr << "radt: " << verb << " " << done << "/" << total << " runs\n" << std::flush;
    };
}

std::unique_ptr<radt::Store> openResolvedStore(const std::string& cliValue, radt::OpenMode mode) {
    const radt::ResolvedStoreUri resolved = radt::resolveStoreUri(cliValue);
    if (resolved.source == "default") {
        radt::createDefaultStoreDir();
        mode = radt::OpenMode::CreateIfMissing;
    }
    auto store = radt::openStore(resolved.uri, mode);
    if (const std::string notice = store->openNotice(); !notice.empty())
        std::cerr << "radt: " << notice << "\n"; // a change to a store another tool may own
    if (mode != radt::OpenMode::ReadOnly &&
        !store->isReadOnly()) // --read-only writes nothing, fixes included
        radt::reconcileOrphanedRuns(*store, [](const std::string& m) { std::cerr << "radt: " << m << "\n"; });
    return store;
}

/// Where the radt Python module lives: $RADT_PYTHON_DIR, the install tree, or the source tree.
bool isExperimentFile(const std::string& path) {
    return path.size() > 4 && strcasecmp(path.c_str() + path.size() - 4, ".csv") == 0;
}

int listListeners() {
    for (const auto& l : radt::listenerAvailability())
        std::printf("%-11s %-13s %s\n", l.name.c_str(), l.available ? "available" : "unavailable",
                    l.detail.c_str());
    return 0;
}

int parseCount(const char* text, const char* option) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < 0 || v > 1000000000)
        throw std::invalid_argument(std::string(option) + " expects a whole number >= 0, got '" + text + "'");
    return static_cast<int>(v);
}

int runLs(int argc, char** argv) {
    std::string store;
    bool json = false;
    bool readOnly = false;
    static const option longOptions[] = {{"store", required_argument, nullptr, 's'},
                                         {"json", no_argument, nullptr, 'j'},
                                         {"read-only", no_argument, nullptr, 'R'},
                                         {"help", no_argument, nullptr, 'h'},
                                         {nullptr, 0, nullptr, 0}};
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "h", longOptions, nullptr)) != -1) {
        switch (c) {
        case 's':
            try {
                store = storeArgument(optarg);
            } catch (const std::invalid_argument& e) {
                return usageError(e.what());
            }
            break;
        case 'j':
            json = true;
            break;
        case 'R':
            readOnly = true;
            break;
        case 'h':
            std::cout
                << "Usage: radt ls [--store URI] [--json] [--read-only]\n"
                   "  --read-only   open the store without writing anything (no read index, no fixes)\n";
            return 0;
        default:
            return usageError("bad option for 'radt ls'");
        }
    }
    if (optind < argc)
        return usageError(std::string("unexpected argument '") + argv[optind] + "' for 'radt ls'");
    try {
        auto s = openResolvedStore(store, readOnly ? radt::OpenMode::ReadOnly : radt::OpenMode::OpenExisting);
        if (json)
            std::cout << radt::storeListingJson(*s).dump(2) << "\n";
        else
            std::cout << radt::storeListingText(*s);
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
    return 0;
}

double parseSeconds(const char* text, const char* option, const char* unit = "seconds") {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0')
        throw std::invalid_argument(std::string(option) + " expects a number of " + unit + ", got '" + text +
                                    "'");
    return v;
}

const char* kReportUsage =
    R"(Usage: radt report [--store URI] [--json|--latex|--csv] [--read-only] [--grid-intensity G] [--pue P]
                   [--baseline RUN|#K] [--repeat-param NAME]... [--burst-metric KEY]...
                   [--stall-gpu-below PCT] [--stall-cpu-cores N] TARGET...

Energy, efficiency, burst/idle and collocation figures computed from what the store holds.
TARGET: a run id (or a unique prefix of at least 5 characters), a workload <experiment id>-<workload>,
or an experiment name or id.
  --json               one JSON document (README "radt report" gives its shape)
  --latex              the configurations as a booktabs table (mean ± 95 % CI, N, significance
                       marks against --baseline or configuration 0) for a paper
  --csv                the configurations' figures as CSV
  --grid-intensity G   grid carbon intensity in g CO2e per kWh (enables CO2e figures)
  --pue P              the data centre's power usage effectiveness (default 1.0)
  --baseline RUN|#K    what runs and configurations are compared with: a run (its configuration
                       for comparisons) or configuration K of the report (default: collocated runs
                       against the solo runs of the same params, every pair of configurations)
  --repeat-param NAME  a param that tells repeats apart, not configurations (repeatable; default
                       seed): runs that differ only in it are one configuration, with mean and CI
  --burst-metric KEY   also characterise KEY's bursts and idle periods (repeatable)
  --stall-gpu-below PCT, --stall-cpu-cores N
                       an input stall is GPU utilisation under PCT % (default 10) while the run's
                       processes use N CPU cores or more (default 0.8)
  --read-only          open the store without writing anything (no read index, no fixes)
)";

int runReport(int argc, char** argv) {
    std::string store;
    bool json = false;
    radt::ReportOptions options;
    bool readOnly = false;
    bool repeatParamGiven = false;
    bool latex = false, csv = false;
    static const option longOptions[] = {{"store", required_argument, nullptr, 's'},
                                         {"json", no_argument, nullptr, 'j'},
                                         {"latex", no_argument, nullptr, 'L'},
                                         {"csv", no_argument, nullptr, 'V'},
                                         {"grid-intensity", required_argument, nullptr, 'g'},
                                         {"pue", required_argument, nullptr, 'p'},
                                         {"baseline", required_argument, nullptr, 'b'},
                                         {"repeat-param", required_argument, nullptr, 'r'},
                                         {"stall-gpu-below", required_argument, nullptr, 'G'},
                                         {"stall-cpu-cores", required_argument, nullptr, 'C'},
                                         {"burst-metric", required_argument, nullptr, 'm'},
                                         {"read-only", no_argument, nullptr, 'R'},
                                         {"help", no_argument, nullptr, 'h'},
                                         {nullptr, 0, nullptr, 0}};
    optind = 1;
    int c;
    try {
        while ((c = getopt_long(argc, argv, "h", longOptions, nullptr)) != -1) {
            switch (c) {
            case 's':
                store = storeArgument(optarg);
                break;
            case 'j':
                json = true;
                break;
            case 'L':
                latex = true;
                break;
            case 'V':
                csv = true;
                break;
            case 'g': {
                const double g = parseSeconds(optarg, "--grid-intensity", "g/kWh");
                if (!(g >= 0 && g <= 5000))
                    throw std::invalid_argument("--grid-intensity expects 0 to 5000 g CO2e per kWh");
                options.gridIntensity = g;
                break;
            }
            case 'p':
                options.pue = parseSeconds(optarg, "--pue", "(a ratio)");
                if (!(options.pue >= 1.0 && options.pue <= 5.0))
                    throw std::invalid_argument("--pue expects a ratio between 1.0 and 5.0");
                break;
            case 'b':
                options.baseline = optarg;
                break;
            case 'r':
                if (!repeatParamGiven) // the first one replaces the default
                    options.repeatParams.clear();
                repeatParamGiven = true;
                if (!*optarg)
                    throw std::invalid_argument("--repeat-param expects a param name");
                options.repeatParams.emplace_back(optarg);
                break;
            case 'G':
                options.stalls.gpuBelowPct = parseSeconds(optarg, "--stall-gpu-below", "percent");
                if (!(options.stalls.gpuBelowPct > 0 && options.stalls.gpuBelowPct <= 100))
                    throw std::invalid_argument(
                        "--stall-gpu-below expects a percentage above 0, at most 100");
                break;
            case 'C':
                options.stalls.cpuCores = parseSeconds(optarg, "--stall-cpu-cores", "cores");
                if (!(options.stalls.cpuCores > 0 && options.stalls.cpuCores <= 4096))
                    throw std::invalid_argument("--stall-cpu-cores expects a number of cores above 0");
                break;
            case 'm':
                options.burstMetrics.emplace_back(optarg);
                break;
            case 'R':
                readOnly = true;
                break;
            case 'h':
                std::cout << kReportUsage;
                return 0;
            default:
                return usageError("bad option for 'radt report'");
            }
        }
    } catch (const std::exception& e) {
        return usageError(e.what());
    }
    if (int(json) + int(latex) + int(csv) > 1)
        return usageError("--json, --latex and --csv each print the whole report: give one");
    try {
        auto s = openResolvedStore(store, readOnly ? radt::OpenMode::ReadOnly : radt::OpenMode::OpenExisting);
        const std::vector<radt::Run> runs = radt::resolveReportTargets(*s, {argv + optind, argv + argc});
        const bool baselineConfiguration = !options.baseline.empty() && options.baseline[0] == '#';
        if (baselineConfiguration &&
            (options.baseline.size() < 2 ||
             options.baseline.find_first_not_of("0123456789", 1) != std::string::npos))
            throw std::invalid_argument("--baseline '" + options.baseline +
                                        "': a configuration is named #K, K its index in the report");
        if (!options.baseline.empty() && !baselineConfiguration)
            radt::resolveReportTargets(*s, {options.baseline}); // a baseline that names nothing is an error
        if (!options.burstMetrics.empty()) {                    // a misspelt key would be ignored silently
            std::vector<std::string> uuids;
            for (const radt::Run& r : runs)
                uuids.push_back(r.uuid);
            const std::vector<std::string> keys = s->metricKeys(uuids);
            for (const std::string& key : options.burstMetrics)
                if (!std::binary_search(keys.begin(), keys.end(), key)) {
                    std::string known;
                    for (size_t i = 0; i < keys.size() && i < 12; ++i)
                        known += (i ? ", '" : "'") + keys[i] + "'";
                    if (keys.size() > 12)
                        known += ", ...";
                    throw std::invalid_argument(
                        "--burst-metric '" + key + "' is not a metric of the runs reported (" +
                        (keys.empty() ? std::string("they have none") : "they have " + known) + ")");
                }
        }
        const nlohmann::json report = radt::buildReport(*s, runs, options, runCounter("analysed", 2));
        if (baselineConfiguration &&
            std::stoul(options.baseline.substr(1)) >= report["configurations"].size())
            throw std::invalid_argument("--baseline " + options.baseline + ": the report has " +
                                        std::to_string(report["configurations"].size()) +
                                        " configuration(s), #0 to #" +
                                        std::to_string(report["configurations"].size() - 1));
        if (json)
            std::cout << report.dump(2) << "\n";
        else if (latex)
            std::cout << radt::configurationsLatex(report);
        else if (csv)
            std::cout << radt::configurationsCsv(report);
        else
            std::cout << radt::reportTable(report);
    } catch (const std::invalid_argument& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
    return 0;
}

const char* kCompactUsage = R"(Usage: radt store compact [options] TARGET...

Thins the hardware series of finished runs in place: a sample that the straight line between the
samples kept around it reproduces within the tolerance is deleted (dead-band compaction, as process
historians store their tags). The first and last sample, each series' highest and lowest, NaN and
infinite values and both ends of every gap stay, and no kept span is longer than 5 sampling
intervals. Software metrics (loss, accuracy) are never touched. The run gets a radt.compacted tag;
`radt report` and the explorer's summary put its series back on the sampling grid, within the
tolerance of what was recorded. SQLite stores are rewritten afterwards (VACUUM) so the file
shrinks; this needs free space for a copy of it.

TARGET: a run id (or a unique prefix of 5+ characters), a workload <exp>-<workload>, or an
experiment name or id, as for `radt report`.

Options:
  --store URI          the store (default as for recording)
  --tolerance T        T% of each series' range (default 0.5%), or T in the metric's unit (e.g. 2)
  --dry-run            count what would be deleted; change nothing
)";

int runCompact(int argc, char** argv) {
    std::string store;
    radt::CompactionOptions options;
    static const option longOptions[] = {{"store", required_argument, nullptr, 's'},
                                         {"tolerance", required_argument, nullptr, 't'},
                                         {"dry-run", no_argument, nullptr, 'D'},
                                         {"help", no_argument, nullptr, 'h'},
                                         {nullptr, 0, nullptr, 0}};
    optind = 1;
    int c;
    bool dryRun = false;
    try {
        while ((c = getopt_long(argc, argv, "h", longOptions, nullptr)) != -1) {
            switch (c) {
            case 's':
                store = storeArgument(optarg);
                break;
            case 't':
                options = radt::parseTolerance(optarg);
                break;
            case 'D':
                dryRun = true;
                break;
            case 'h':
                std::cout << kCompactUsage;
                return 0;
            default:
                return usageError("bad option for 'radt store compact'");
            }
        }
        if (optind >= argc)
            throw std::invalid_argument("radt store compact needs a TARGET (run id, workload or experiment)");
    } catch (const std::exception& e) {
        return usageError(e.what());
    }
    options.dryRun = dryRun;
    try {
        auto s = openResolvedStore(store, radt::OpenMode::OpenExisting);
        const std::vector<radt::Run> runs = radt::resolveReportTargets(*s, {argv + optind, argv + argc});
        const radt::CompactionStats stats = radt::compactRuns(
            *s, runs, options, runCounter(options.dryRun ? "counted" : "compacted", 1, true));
        for (const std::string& why : stats.skipped)
            std::cerr << "radt: skipped " << why << "\n";
        const double ratio = stats.rowsAfter ? double(stats.rowsBefore) / double(stats.rowsAfter) : 1.0;
        std::printf("%s%zu runs, %zu hardware series: %zu -> %zu samples (%.2fx fewer)\n",
                    options.dryRun ? "would compact " : "compacted ", stats.runs, stats.series,
                    stats.rowsBefore, stats.rowsAfter, ratio);
        if (!stats.reclaimError.empty())
            std::cerr << "radt: warning: the runs are compacted, but the store's space was not given back: "
                      << stats.reclaimError << " (run `radt store compact` again with more free space)\n";
        if (stats.bytesBefore >= 0 && stats.bytesAfter >= 0)
            std::printf("store: %.1f MB -> %.1f MB\n", double(stats.bytesBefore) / 1e6,
                        double(stats.bytesAfter) / 1e6);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
}

int runStoreCommand(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "compact") == 0)
        return runCompact(argc - 1, argv + 1);
    if (argc < 2 || std::strcmp(argv[1], "copy") != 0 || argc != 4) {
        if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
            std::cout << "Usage: radt store copy SRC DEST\n       radt store compact [options] TARGET...\n";
            return 0;
        }
        return usageError("usage: radt store copy SRC DEST (store URIs or SQLite paths), or radt store "
                          "compact [--tolerance T] TARGET...");
    }
    try {
        auto source = radt::openStore(argv[2], radt::OpenMode::OpenExisting);
        auto destination = radt::openStore(argv[3], radt::OpenMode::CreateIfMissing);
        const bool tty = ::isatty(STDERR_FILENO);
        const radt::StoreCopyStats stats =
            radt::copyStore(*source, *destination, [&](size_t done, size_t total, size_t samples) {
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
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "ls") == 0)
        return runLs(argc - 1, argv + 1);
    if (argc >= 2 && std::strcmp(argv[1], "store") == 0)
        return runStoreCommand(argc - 1, argv + 1);
    if (argc >= 2 && std::strcmp(argv[1], "report") == 0)
        return runReport(argc - 1, argv + 1);

    radt::RunOptions options;
    std::string storeValue;
    static const option longOptions[] = {{"store", required_argument, nullptr, 's'},
                                         {"experiment", required_argument, nullptr, 'e'},
                                         {"workload", required_argument, nullptr, 'w'},
                                         {"listeners", required_argument, nullptr, 'l'},
                                         {"devices", required_argument, nullptr, 'd'},
                                         {"interval", required_argument, nullptr, 'I'},
                                         {"grace", required_argument, nullptr, 'g'},
                                         {"help", no_argument, nullptr, 'h'},
                                         {"version", no_argument, nullptr, 'V'},
                                         {"collocation", required_argument, nullptr, 'c'},
                                         {"epoch", required_argument, nullptr, 'i'},
                                         {"time", required_argument, nullptr, 't'},
                                         {"manual", no_argument, nullptr, 'M'},
                                         {"local", no_argument, nullptr, 'L'},
                                         {"rerun", no_argument, nullptr, 'r'},
                                         {"list-listeners", no_argument, nullptr, 'A'},
                                         {"no-env-capture", no_argument, nullptr, 'N'},
                                         {"dry-run", no_argument, nullptr, 'D'},
                                         {nullptr, 0, nullptr, 0}};
    bool local = false, rerun = false, dryRun = false;
    int c;
    try {
        // '+': stop at the script name; its own flags are not ours.
        while ((c = getopt_long(argc, argv, "+e:w:l:d:c:i:t:rh", longOptions, nullptr)) != -1) {
            switch (c) {
            case 's':
                storeValue = storeArgument(optarg);
                break;
            case 'e':
                options.experiment = optarg;
                break;
            case 'w':
                options.workload = optarg;
                break;
            case 'l':
                options.listeners = optarg;
                if (options.listeners.empty())
                    throw std::invalid_argument("--listeners needs listener names joined by '+', got ''");
                break;
            case 'd':
                options.devices = optarg; // checked with the other options by the collector
                break;
            case 'I':
                options.intervalSeconds = parseSeconds(optarg, "--interval");
                break;
            case 'g': {
                const double grace = parseSeconds(optarg, "--grace");
                if (!(grace >= 0 && grace <= 3600))
                    throw std::invalid_argument(std::string("--grace expects 0 to 3600 seconds, got '") +
                                                optarg + "'");
                options.graceMs = static_cast<int>(grace * 1000);
                break;
            }
            case 'c':
                options.collocation = optarg;
                break;
            case 'i':
                options.maxEpoch = parseCount(optarg, "--epoch");
                break;
            case 't':
                options.maxTimeMinutes = parseSeconds(optarg, "--time", "minutes");
                break;
            case 'M':
                options.manual = true;
                break;
            case 'L':
                local = true;
                break;
            case 'r':
                rerun = true; // only experiment CSV files have FAILED workloads to rerun
                break;
            case 'D':
                dryRun = true;
                break;
            case 'N':
                options.captureEnvironment = false;
                break;
            case 'A':
                return listListeners();
            case 'h':
                std::cout << usageText();
                return 0;
            case 'V':
                std::cout << "radt " RADT_VERSION "\n";
                return 0;
            default:
                return usageError("bad option");
            }
        }
    } catch (const std::exception& e) {
        return usageError(e.what());
    }
    if (optind >= argc)
        return usageError("no script or command given");
    options.command.assign(argv + optind, argv + argc);
    if (local && storeValue.empty())
        storeValue = "sqlite:///radt.db";
    options.pythonDir = radt::findPythonModuleDir();
    const bool experimentFile = isExperimentFile(options.command[0]);
    if (dryRun && !experimentFile)
        return usageError("--dry-run is for experiment CSV files");
    try {
        // The collector's own checks (the explorer's launches get the same), before any store
        // is opened; an experiment file's rows are checked row by row with their own cells.
        radt::RunOptions check = options;
        if (experimentFile)
            check.command = {"check"};
        radt::validateRunOptions(check);
    } catch (const std::exception& e) {
        return usageError(e.what());
    }
    std::optional<radt::ExperimentFile> experiment;
    if (experimentFile) {
        if (options.command.size() > 1)
            return usageError("an experiment file takes no further arguments (got '" + options.command[1] +
                              "')");
        try {
            experiment = radt::readExperimentCsv(options.command[0]);
        } catch (const std::exception& e) {
            std::cerr << "radt: " << e.what() << "\n";
            return 2;
        }
        if (dryRun) {
            if (!radt::ExperimentRunner::printPlan(*experiment, {options, rerun, false}, std::cout)) {
                std::cerr << "radt: " << options.command[0]
                          << ": some runs would be refused (INVALID above)\n";
                return 2;
            }
            return 0;
        }
    }

    if (::pipe2(g_wakePipe, O_CLOEXEC | O_NONBLOCK) != 0)
        g_wakePipe[0] = g_wakePipe[1] = -1;
    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        sigaction(sig, &sa, nullptr);

    try {
        const radt::ResolvedStoreUri resolved = radt::resolveStoreUri(storeValue);
        auto store = openResolvedStore(storeValue, radt::OpenMode::CreateIfMissing);
        options.storeUri = resolved.uri;
        // MIG instances a radt killed with SIGKILL created and could not remove: gone before we
        // partition the GPU again (a no-op without such leftovers).
        radt::reclaimOrphanedMigInstances([](const std::string& m) { std::cerr << "radt: " << m << "\n"; });
        if (experiment) {
            // The runs of a workload are recorded concurrently into one connection.
            radt::SynchronizedStore shared(*store);
            options.command.clear();
            radt::ExperimentOptions experimentOptions{options, rerun,
                                                      ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR")};
            radt::ExperimentRunner runner(
                shared, *experiment, experimentOptions,
                [](const std::string& m) { std::cerr << "radt: " << m << "\n"; }, std::cout, std::cerr);
            const int rc = runner.run(g_stop, g_wakePipe[0]);
            if (const std::string gone = store->fileProblem(); !gone.empty()) {
                std::cerr << "radt: error: " << gone << "; the experiment's runs and samples are in no file "
                          << "anyone can open again\n";
                return 2;
            }
            return rc;
        }
        radt::RunRecorder recorder(*store, options,
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
                      << (outcome.closePending ? "\n"
                                               : " (recorded on the run as tag radt.unwritten_samples)\n");
        if (outcome.kept)
            std::cerr
                << "radt: error: " << outcome.kept << " samples are not in the store yet; they are kept "
                << "beside the run's artifacts and written by the next radt or radt-explorer that opens it\n";
        if (const std::string gone = store->fileProblem(); !gone.empty()) {
            std::cerr << "radt: error: " << gone << "; run " << outcome.run.uuid << " and its "
                      << outcome.samples << " samples are in no file anyone can open again\n";
            return 2;
        }
        if (lost || outcome.kept || outcome.closePending)
            return 2;
        if (outcome.status == radt::RunStatus::Killed)
            return 128 + (g_stop ? static_cast<int>(g_stop) : SIGTERM);
        if (outcome.timeLimitReached)
            return 0;
        return outcome.exit.code;
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
}
