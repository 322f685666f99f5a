// SPDX-License-Identifier: MIT
// `radt report --judge` and `radt check`: runs judged against their configuration's history
// (core/report/RunJudgement), for a reader and as a gate in a pipeline.
#include "RadtCommands.h"

#include "core/analysis/InsightReport.h"
#include "core/report/EnvironmentReport.h"
#include "core/report/RunJudgement.h"
#include "core/store/StoreUri.h"

#include <iostream>

namespace radt::cli {

namespace {

/// The judgements of the runs `targets` name, each with the environment its history ran in.
std::vector<nlohmann::json> judgeTargets(const JudgeArgs& args) {
    auto s = openResolvedStore(args.store, args.readOnly ? OpenMode::ReadOnly : OpenMode::OpenExisting);
    const std::vector<Run> runs = resolveReportTargets(*s, args.targets);
    JudgeOptions options;
    options.repeatParams = args.repeatParams;
    options.minChange = args.minChange;
    options.environment = artifactContextOfStore(resolveStoreUri(args.store).uri);
    std::vector<nlohmann::json> out;
    out.reserve(runs.size());
    for (const Run& run : runs)
        out.push_back(judgeRun(*s, run, options));
    return out;
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

} // namespace

int runJudge(const JudgeArgs& args) {
    return reportingErrors([&] {
        const std::vector<nlohmann::json> judgements = judgeTargets(args);
        if (args.json) {
            std::cout << nlohmann::json{{"judgements", judgements}}.dump(2) << "\n";
        } else {
            for (size_t i = 0; i < judgements.size(); ++i)
                std::cout << (i ? "\n" : "") << judgementText(judgements[i]);
        }
        if (args.on.empty() && !args.gate)
            return 0;
        // A gate: 1 when a run is outside its history on a figure asked about.
        int status = 0;
        for (const nlohmann::json& j : judgements) {
            const std::vector<std::string> outside = figuresOutside(j, args.on);
            if (!outside.empty()) {
                std::cerr << "radt check: run " << j["run_uuid"].get<std::string>()
                          << " is outside its history on " << joined(outside) << "\n";
                status = 1;
            } else if (!j["judged"].get<bool>()) {
                std::cerr << "radt check: run " << j["run_uuid"].get<std::string>() << " "
                          << j["sentence"].get<std::string>() << " (not a failure)\n";
            }
        }
        return status;
    });
}

void addCheck(CLI::App& app, Action& action) {
    auto args = std::make_shared<JudgeArgs>();
    args->gate = true;
    CLI::App* check = app.add_subcommand(
        "check", "exit 1 when a run is outside its configuration's history (a benchmark gate for CI)");
    check->prefix_command(false);
    check->footer("Each RUN is compared with the earlier finished runs of its configuration (the same\n"
                  "params less the repeat params): per figure, the 95 % prediction interval of one new\n"
                  "run, mean +- t(0.975, n-1) sd sqrt(1 + 1/n), of the latest 50 at most. A run\n"
                  "with fewer than 3 earlier runs is not judged, and passes.\n\n"
                  "Exit status: 0 every run within its history on the figures asked about (or not\n"
                  "judged), 1 a run outside it, 2 bad arguments or a store that cannot be read.");
    addStoreOption(*check, args->store);
    check
        ->add_option_function<std::string>(
            "--on", [args](const std::string& text) { args->on = judgedFigureNames(text); },
            "the figures that fail the check, separated by commas (default all): duration,\n"
            "gpu_energy, energy_per_epoch, throughput")
        ->type_name("FIGURES");
    addJudgeOptions(*check, *args);
    check->add_option("RUN", args->targets, kTargetHelp)
        ->required()
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    check->callback([args, &action] { action = [args] { return runJudge(*args); }; });
}

void addJudgeOptions(CLI::App& command, JudgeArgs& args) {
    command.add_flag("--json", args.json, "{\"judgements\": [...]}, one per run (resources/doc/report.md)");
    command
        .add_option_function<std::vector<std::string>>(
            "--repeat-param",
            [&args](const std::vector<std::string>& names) {
                for (const std::string& name : names)
                    if (name.empty())
                        throw std::invalid_argument("--repeat-param expects a param name");
                args.repeatParams = names;
            },
            "a param that tells repeats apart, not configurations (repeatable; default seed)")
        ->type_name("NAME")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    addMinChangeOption(command, args.minChange);
    command.add_flag("--read-only", args.readOnly, "open the store without writing anything");
}

CLI::Option* addMinChangeOption(CLI::App& command, double& minChange) {
    return command
        .add_option_function<std::string>(
            "--min-change",
            [&minChange](const std::string& text) {
                const double pct = parseNumber(text, "--min-change", "percent");
                if (!(pct >= 0 && pct <= 1000))
                    throw std::invalid_argument("--min-change expects 0 to 1000 percent, got '" + text + "'");
                minChange = pct / 100;
            },
            "a run outside its history's interval by less than PCT % of the history's mean\n"
            "is normal (default 5): near-identical runs make intervals narrower than noise")
        ->type_name("PCT");
}

std::string judgementAfterRun(Store& store, const Run& run, const std::string& storeUri) {
    const std::string sentence = judgeFinishedRun(store, run, storeUri);
    const bool judged = sentence.rfind("not judged", 0) != 0;
    return "radt: " + sentence + (judged ? " (radt report --judge " + run.uuid + " tells the figures)" : "") +
           "\n";
}

} // namespace radt::cli
