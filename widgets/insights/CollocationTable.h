// SPDX-License-Identifier: MIT
#pragma once
// The Insights view's collocation verdict: did running jobs together on one GPU pay
// off? Per collocated configuration, then per workload under it: time together against the same
// jobs one after another alone, throughput gain, energy per job together and alone and its ratio,
// with 95 % intervals where workloads or solo runs repeat, and "no solo baseline" where none.

#include <nlohmann/json.hpp>

class QString;

namespace radt {

class AnswerTableModel;

/// Fills `model` from the report's "collocation" verdicts and its workloads' "collocation_gain":
/// a row per collocated configuration (its label, N workloads), each followed by its workloads'
/// rows ("  workload 1-4"). Empty (headers only) when no run shared a GPU.
void fillCollocationModel(AnswerTableModel* model, const nlohmann::json& report);

/// What the Collocation tab says above its table: each verdict in a sentence (its label in bold,
/// rich text) and what the "1 *" of a single workload means; why the table is empty where it is.
QString collocationNote(const nlohmann::json& report);

} // namespace radt
