// SPDX-License-Identifier: MIT
#pragma once
// How the explorer shows times and statuses; shared by the item models. Durations: TextFormat.h.

#include "core/base/Model.h"
#include "core/base/TextFormat.h"

#include <QColor>
#include <QString>

namespace radt {

/// A tick step of 1, 2 or 5 times a power of ten giving about `ticks` ticks over `span`.
double niceTickStep(double span, int ticks);
/// Decimals a label needs to show multiples of `step` exactly (0 for 1, 2 for 0.05).
int tickDecimals(double step);

/// Local date and time of an epoch-ms timestamp ("2024-05-01 13:45"), "" for 0.
QString formatTimestamp(int64_t ms);
/// The status colour (RUNNING blue, FAILED red, KILLED orange); invalid for the others.
QColor statusColor(RunStatus status);
QString toQString(const std::string& text);

/// "run 2" before "run 10", "111" before "1108", case ignored: runs of digits compare as numbers.
bool naturalLess(const QString& a, const QString& b);

/// A name as a chart may draw it: at most `maxChars`, cut with "…". QtCharts shortens a title
/// that does not fit one character at a time, re-measuring each time, so a 100,000-character
/// metric name (MLflow allows any length in other stores) took gigabytes and a minute to lay out.
QString displayName(const QString& name, int maxChars = 120);

} // namespace radt
