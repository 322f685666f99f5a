// SPDX-License-Identifier: MIT
#pragma once
// The Insights view's answers for repeated runs, as tables a researcher reads and
// copies: each configuration's N, mean ± 95 % CI and place on the efficiency frontier, and each
// comparison's ratio, Welch t and p with its N on both sides.

#include <QStringList>
#include <QtCore/qnamespace.h>

#include <nlohmann/json.hpp>

#include "widgets/insights/AnswerTableModel.h"

class QTableView;
class QWidget;

namespace radt {

/// Role holding a cell's number (sorting), as the runs' table uses it.
inline constexpr int kConfigurationSortRole = AnswerTableModel::SortRole;

/// A cell of an answer table, sorted by its text; `tip` its tooltip.
AnswerCell answerTextCell(const QString& text, const QString& tip = QString());
/// A right-aligned cell sorted by `sortBy`.
AnswerCell answerNumberCell(const QString& text, double sortBy);

/// One row per configuration: "#", params, N, then mean ± CI of duration, GPU energy (attributed),
/// energy per epoch, epoch time and GPU utilisation, whether it is on the frontier, and
/// "⚠ mixed environments" where its runs differ in what they ran on (the report's "environment").
void fillConfigurationsModel(AnswerTableModel* model, const nlohmann::json& report);

/// One row per comparison: "#b vs #a", the figure, mean b / mean a, Welch t, df, p with its
/// significance marks (* < 0.05, ** < 0.01, *** < 0.001), N a/b; "no test" where n < 2.
void fillComparisonsModel(AnswerTableModel* model, const nlohmann::json& report);

/// What a reader of the configurations must know, one line each: the runs left out of them
/// (running, failed, killed) and a repeat param no run has (other than the default seed).
QStringList configurationNotes(const nlohmann::json& report);

/// A sortable, read-only view of `model` named `name`, whose columns fit their contents again
/// whenever it is filled (the first, the name, at most 170 px and wrapped; kept in view while
/// scrolling sideways), with a column chooser on its header: `hiddenByDefault` (header texts) and
/// blank columns wait there until chosen (resources/DESIGN.md §12).
QTableView* answerTable(AnswerTableModel* model, QWidget* parent, const QString& name,
                        const QStringList& hiddenByDefault);

} // namespace radt
