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
/// Adds `radt run rename|note|tag|untag|delete|restore` (RunCommands.cpp).
void addRunCommands(CLI::App& app, Action& action);
/// Adds `radt experiment rename|delete|restore` (RunCommands.cpp).
void addExperimentCommands(CLI::App& app, Action& action);

} // namespace radt::cli
