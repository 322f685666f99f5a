// SPDX-License-Identifier: MIT
#pragma once
// radt's command line, shared by its commands: the errors every command reports the same way, the
// --store option, and the subcommands that work on a store (ls, report, store copy|compact),
// each declared on CLI11 with its options and help.

#include "core/store/Store.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace radt::cli {

/// "radt: <message>" and where help is, on stderr; returns 2, the exit status of bad arguments.
int usageError(const std::string& message);
/// A number given to `option`; throws std::invalid_argument naming the option and the unit.
double parseNumber(const std::string& text, const std::string& option, const char* unit = "seconds");
/// --store URI (on `app`): '' would silently mean the default store, so it is an error.
CLI::Option* addStoreOption(CLI::App& app, std::string& store);
/// Opens the store a --store value names (or the default one, created when missing), says any
/// change opening made to it, and marks runs orphaned by a killed collector (not when read-only).
std::unique_ptr<Store> openResolvedStore(const std::string& cliValue, OpenMode mode);

/// Runs a command's work: a failure is said on stderr ("radt: ...") with exit status 2.
int reportingErrors(const std::function<int()>& work);

/// What a command does once its arguments are parsed; its return value is radt's exit status.
using Action = std::function<int()>;
/// Adds `radt ls`, `radt report` and `radt store copy|compact` to `app`; the one chosen puts
/// what it does in `action` when it is parsed.
void addStoreCommands(CLI::App& app, Action& action);
/// "a run id (or a unique prefix ...)": what a TARGET of ls, report and check may be.
extern const char* const kTargetHelp;

/// `radt report --judge` and `radt check` (JudgeCommands.cpp).
struct JudgeArgs {
    std::string store;
    bool json = false, readOnly = false;
    bool gate = false;           ///< radt check: exit 1 when a run is outside its history
    std::vector<std::string> on; ///< the figures the gate checks; empty: all
    std::vector<std::string> repeatParams{"seed"};
    std::vector<std::string> targets;
    double minChange = 0.05; ///< outside the interval by less than this share of the mean is normal
};
/// Prints each target run's judgement against its configuration's history; with `gate`, returns
/// 1 when a run is outside it on a figure of `on`.
int runJudge(const JudgeArgs& args);
/// Adds `radt check RUN... [--on FIGURES]`.
void addCheck(CLI::App& app, Action& action);
/// --min-change PCT of a command that judges runs.
CLI::Option* addMinChangeOption(CLI::App& command, double& minChange);
/// --json, --repeat-param, --min-change and --read-only of a command that judges runs.
void addJudgeOptions(CLI::App& command, JudgeArgs& args);
/// What `radt RUN` says after a finished run: its judgement's sentence, or why it was not judged.
std::string judgementAfterRun(Store& store, const Run& run, const std::string& storeUri);

/// Adds `radt run rename|note|tag|untag|delete|restore` (RunCommands.cpp).
void addRunCommands(CLI::App& app, Action& action);
/// Adds `radt experiment rename|delete|restore` (RunCommands.cpp).
void addExperimentCommands(CLI::App& app, Action& action);

} // namespace radt::cli
