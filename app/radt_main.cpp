// radt: the headless collector CLI. Parses arguments and wires core + collector; nothing else.

#include "RunRecorder.h"
#include "Store.h"
#include "StoreListing.h"
#include "StoreUri.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <getopt.h>
#include <iostream>
#include <string>

namespace {

volatile std::sig_atomic_t g_stop = 0;

void onStopSignal(int signal) {
    g_stop = signal;
}

const char* kUsage = R"(Usage:
  radt [options] script.py [script args...]   record one run of a Python script
  radt [options] program [args...]            record one run of any program
  radt ls [--store URI] [--json]              list what a store holds

Records a training workload into an MLflow tracking store: the run, its params (radT's
workload/letter/model/params and each --flag of the script), its output as a log artifact,
and metrics sampled every interval from /proc.

Options (before the script; everything after it goes to the script):
  --store URI            tracking store: sqlite:///relative.db, sqlite:////abs/path.db, or a file path
                         (default: $RADT_TRACKING_URI, $MLFLOW_TRACKING_URI, then
                         $XDG_DATA_HOME/radt/radt.db)
  -e, --experiment E     experiment id (must exist) or name (created when new); default 0 "Default"
  -w, --workload W       workload id; default: the next free number in the experiment
  -l, --listeners L      listeners joined by '+'; default top+proc
                           top   system CPU %, memory and swap (from /proc)
                           proc  the run's process tree: CPU %, RSS MB, threads (from /proc)
  -d, --devices D        GPU devices, e.g. 0 or 0+1; the run's letter; default 0
      --interval S       sampling interval in seconds (0.1 .. 3600); default 1
      --grace S          seconds between SIGTERM and SIGKILL when stopping; default 10
  -h, --help             this help
      --version          version

Ctrl-C or SIGTERM stops the workload (its whole process group) and closes the run KILLED.
Exit status: the workload's exit status; 2 for bad arguments or a store error.
)";

int usageError(const std::string& message) {
    std::cerr << "radt: " << message << "\nTry 'radt --help'.\n";
    return 2;
}

std::unique_ptr<radt::Store> openResolvedStore(const std::string& cliValue, radt::OpenMode mode) {
    const radt::ResolvedStoreUri resolved = radt::resolveStoreUri(cliValue);
    if (resolved.source == "default") {
        radt::createDefaultStoreDir();
        mode = radt::OpenMode::CreateIfMissing;
    }
    return radt::openStore(resolved.uri, mode);
}

int runLs(int argc, char** argv) {
    std::string store;
    bool json = false;
    static const option longOptions[] = {{"store", required_argument, nullptr, 's'},
                                         {"json", no_argument, nullptr, 'j'},
                                         {"help", no_argument, nullptr, 'h'},
                                         {nullptr, 0, nullptr, 0}};
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "h", longOptions, nullptr)) != -1) {
        switch (c) {
        case 's':
            store = optarg;
            break;
        case 'j':
            json = true;
            break;
        case 'h':
            std::cout << "Usage: radt ls [--store URI] [--json]\n";
            return 0;
        default:
            return usageError("bad option for 'radt ls'");
        }
    }
    if (optind < argc)
        return usageError(std::string("unexpected argument '") + argv[optind] + "' for 'radt ls'");
    try {
        auto s = openResolvedStore(store, radt::OpenMode::OpenExisting);
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

double parseSeconds(const char* text, const char* option) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0')
        throw std::invalid_argument(std::string(option) + " expects a number of seconds, got '" + text + "'");
    return v;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "ls") == 0)
        return runLs(argc - 1, argv + 1);

    radt::RunOptions options;
    std::string storeValue;
    static const option longOptions[] = {
        {"store", required_argument, nullptr, 's'},    {"experiment", required_argument, nullptr, 'e'},
        {"workload", required_argument, nullptr, 'w'}, {"listeners", required_argument, nullptr, 'l'},
        {"devices", required_argument, nullptr, 'd'},  {"interval", required_argument, nullptr, 'I'},
        {"grace", required_argument, nullptr, 'g'},    {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},        {nullptr, 0, nullptr, 0}};
    int c;
    try {
        // '+': stop at the script name; its own flags are not ours.
        while ((c = getopt_long(argc, argv, "+e:w:l:d:h", longOptions, nullptr)) != -1) {
            switch (c) {
            case 's':
                storeValue = optarg;
                break;
            case 'e':
                options.experiment = optarg;
                break;
            case 'w':
                options.workload = optarg;
                break;
            case 'l':
                options.listeners = optarg;
                radt::parseListeners(options.listeners);
                break;
            case 'd':
                options.devices = optarg;
                if (options.devices.empty() ||
                    options.devices.find_first_not_of("0123456789+") != std::string::npos)
                    throw std::invalid_argument("--devices expects GPU indexes like 0 or 0+1, got '" +
                                                options.devices + "'");
                break;
            case 'I':
                options.intervalSeconds = parseSeconds(optarg, "--interval");
                break;
            case 'g':
                options.graceMs = static_cast<int>(parseSeconds(optarg, "--grace") * 1000);
                break;
            case 'h':
                std::cout << kUsage;
                return 0;
            case 'V':
                std::cout << "radt 0.1.0\n";
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

    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        sigaction(sig, &sa, nullptr);

    try {
        const radt::ResolvedStoreUri resolved = radt::resolveStoreUri(storeValue);
        auto store = openResolvedStore(storeValue, radt::OpenMode::CreateIfMissing);
        options.storeUri = resolved.uri;
        radt::RunRecorder recorder(*store, options,
                                   [](const std::string& m) { std::cerr << "radt: " << m << "\n"; });
        const radt::RunOutcome outcome = recorder.record(g_stop);
        std::cerr << "radt: run " << outcome.run.uuid << " " << radt::toString(outcome.status) << " after "
                  << radt::formatDuration(radt::nowMs() - outcome.run.startTime) << ", " << outcome.samples
                  << " samples written";
        if (outcome.exit.signal)
            std::cerr << " (workload ended by signal " << outcome.exit.signal << ")";
        else if (outcome.exit.code)
            std::cerr << " (workload exit code " << outcome.exit.code << ")";
        std::cerr << "\n";
        if (outcome.unwritten) {
            std::cerr << "radt: error: " << outcome.unwritten
                      << " samples could not be written to the store\n";
            return 2;
        }
        if (outcome.status == radt::RunStatus::Killed)
            return 128 + (g_stop ? static_cast<int>(g_stop) : SIGTERM);
        return outcome.exit.code;
    } catch (const std::exception& e) {
        std::cerr << "radt: " << e.what() << "\n";
        return 2;
    }
}
