// SPDX-License-Identifier: MIT
// CPU the collector costs: the real `radt` sampling top+ps+iostat+net+proc at 1 Hz and at 10 Hz
// (writing into a real SQLite store) around an idle workload, next to `top -b -d 1` -- the way
// radT sampled -- run over the same minute in the same run. All three run at once, so they see
// the same machine; each one's CPU time comes from wait4().

#include "BenchSupport.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

const std::string kRadt = std::string(RADT_BINARY_DIR) + "/app/radt";
int g_seconds = 60;
double g_cpu1Hz = 0, g_cpu10Hz = 0, g_cpuTop = 0, g_cpu1HzEveryTick = 0;
double g_startup = 0, g_startupNoCapture = 0, g_cpu1HzShort = 0;
constexpr int kShortSeconds = 2;

pid_t spawn(std::vector<std::string> argv, const char* flushMs = nullptr) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (flushMs)
            ::setenv("RADT_FLUSH_MS", flushMs, 1);
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
        std::vector<char*> args;
        for (auto& a : argv)
            args.push_back(a.data());
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        ::_exit(127);
    }
    return pid;
}

/// User + system CPU seconds of the process (and what it waited for), once it exits.
double cpuSecondsOf(pid_t pid) {
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        std::fprintf(stderr, "bench: process %d failed (status %d)\n", pid, status);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
           usage.ru_stime.tv_usec / 1e6;
}

void BM_CollectorVsTop(benchmark::State& state) {
    const std::string dir = radt::bench::scratchDir("collector-overhead");
    const std::string seconds = std::to_string(g_seconds);
    for (auto _ : state) {
        auto radtAt = [&](const char* interval, const char* db, const char* flushMs = nullptr) {
            return spawn({kRadt, "--store", "sqlite:///" + dir + "/" + db, "-l", "top+ps+iostat+net+proc",
                          "--interval", interval, "--no-env-capture", "sleep", seconds},
                         flushMs);
        };
        // The same run, as short as it can be, on a new store of its own: its CPU is what one
        // start and end cost, so the difference is what the ticks of the minute cost.
        g_cpu1HzShort = cpuSecondsOf(
            spawn({kRadt, "--store", "sqlite:///" + dir + "/1hz-short.db", "-l", "top+ps+iostat+net+proc",
                   "--interval", "1", "--no-env-capture", "sleep", std::to_string(kShortSeconds)}));
        const pid_t at1Hz = radtAt("1", "1hz.db");
        // The baseline of the flush change: the same collector committing every 250 ms, as before.
        const pid_t at1HzEveryTick = radtAt("1", "1hz-250ms.db", "250");
        const pid_t at10Hz = radtAt("0.1", "10hz.db");
        const pid_t top = spawn({"top", "-b", "-d", "1", "-n", seconds});
        g_cpuTop = cpuSecondsOf(top);
        g_cpu1Hz = cpuSecondsOf(at1Hz);
        g_cpu1HzEveryTick = cpuSecondsOf(at1HzEveryTick);
        g_cpu10Hz = cpuSecondsOf(at10Hz);
        // Start-up and shutdown of a run with nothing to watch: with the environment capture
        // (pip freeze, conda list, nvidia-smi -q where present; children's CPU included) and without.
        auto startup = [&](bool capture) {
            std::vector<std::string> argv = {kRadt, "--store", "sqlite:///" + dir + "/startup.db", "-l",
                                             "top"};
            if (!capture)
                argv.push_back("--no-env-capture");
            argv.push_back("true");
            return cpuSecondsOf(spawn(argv));
        };
        g_startup = startup(true);
        g_startupNoCapture = startup(false);
    }
    state.counters["radt_1hz_cpu_s"] = g_cpu1Hz;
    state.counters["radt_10hz_cpu_s"] = g_cpu10Hz;
    state.counters["top_cpu_s"] = g_cpuTop;
}

BENCHMARK(BM_CollectorVsTop)->Iterations(1)->Unit(benchmark::kSecond);

} // namespace

int main(int argc, char** argv) {
    if (const char* s = std::getenv("RADT_BENCH_SECONDS"))
        g_seconds = std::max(5, std::atoi(s));
    radt::bench::Figures figures;
    figures.after("BM_CollectorVsTop", 1, [] {
        const double perMinute = 60.0 / g_seconds;
        std::printf("over %d s: radt 1 Hz %.3f CPU s (committing every 250 ms: %.3f), radt 10 Hz %.3f CPU s, "
                    "top -b -d 1 %.3f CPU s\n",
                    g_seconds, g_cpu1Hz, g_cpu1HzEveryTick, g_cpu10Hz, g_cpuTop);
        std::printf("start-up and shutdown of a run: %.3f CPU s with the environment capture, %.3f without; "
                    "a %d s run of the 1 Hz collector on a new store %.3f CPU s\n",
                    g_startup, g_startupNoCapture, kShortSeconds, g_cpu1HzShort);
        radt::bench::figure("collector_cpu_s_per_min_1hz", g_cpu1Hz * perMinute, "s");
        radt::bench::figure("collector_cpu_s_per_min_10hz", g_cpu10Hz * perMinute, "s");
        radt::bench::figure("top_cpu_s_per_min", g_cpuTop * perMinute, "s");
        radt::bench::figure("collector_cpu_ratio_vs_top", g_cpuTop > 0 ? g_cpu1Hz / g_cpuTop : 0, "x");
        // The ticks alone (the run less one start and end, measured apart): what a run of hours
        // costs against top, where the start is spread over every minute.
        const double steady =
            std::max(0.0, g_cpu1Hz - g_cpu1HzShort) * g_seconds / (g_seconds - kShortSeconds);
        radt::bench::figure("collector_cpu_ratio_vs_top_steady", g_cpuTop > 0 ? steady / g_cpuTop : 0, "x");
        radt::bench::figure("collector_cpu_ratio_vs_top_flush_250ms",
                            g_cpuTop > 0 ? g_cpu1HzEveryTick / g_cpuTop : 0, "x");
        radt::bench::figure("collector_startup_cpu_s", g_startup, "s");
        radt::bench::figure("collector_startup_cpu_s_no_capture", g_startupNoCapture, "s");
        radt::bench::figure("collector_core_percent_1hz", 100.0 * g_cpu1Hz / g_seconds, "%");
        radt::bench::figure("collector_core_percent_10hz", 100.0 * g_cpu10Hz / g_seconds, "%");
    });
    return figures.run(argc, argv);
}
