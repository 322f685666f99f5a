// SPDX-License-Identifier: MIT
#pragma once
// How durations and times read for people, the same in `radt ls` and the explorer.

#include <cstdint>
#include <string>

namespace radt {

/// "850ms", "45s", "1m 05s", "2h 03m", "3d 04h"; negative durations read as "0ms".
std::string formatDuration(int64_t ms);
/// A point in a run for a reader, to the second: "12.3 s", "4 m 05 s", "1 h 42 m 44 s"
/// (a chart's crosshair; formatDuration rounds hours to minutes). Negative: "-" before it.
std::string formatElapsed(int64_t ms);
/// A reading to 4 significant digits, without an exponent below 10^15: "0.1235", "12.35", "1235",
/// "1,234,567".
std::string formatReading(double value);
/// `value` with `decimals` digits after the point, as an ostream's std::fixed writes it: "3.142".
std::string formatFixed(double value, int decimals);
/// The decimals that write a confidence interval's `halfWidth` to two significant digits (at
/// least 0, at most 9): 52.62 -> 0, 0.0612 -> 3. `fallback` when it is zero or not finite.
int intervalDecimals(double halfWidth, int fallback);
/// The decimals of a ratio with its 95 % interval [low, high] ("x1.284 [1.256, 1.314]"): its
/// half-width's two significant digits, but no finer than 0.001 (0.1 % says all a ratio can).
int ratioDecimals(double low, double high);
/// A mean to the precision its interval gives it, and the half-width to the same decimals:
/// "1498 ± 53", "12.04 ± 0.61" (never "1497.61 ± 52.62").
std::string formatMeanPlusMinus(double mean, double halfWidth, int fallbackDecimals);
/// Local time "YYYY-MM-DD HH:MM:SS" of an epoch-ms timestamp.
std::string formatLocalTime(int64_t msSinceEpoch);
/// "2026-11-01" or "2026-11-01T12:00:00" (UTC) as ms since the epoch (`radt store archive
/// --before`); a day that does not exist is refused. Throws std::invalid_argument.
int64_t parseUtcDate(const std::string& text);

/// One CSV field by RFC 4180: a field holding a comma, a quote or a line break is quoted, its
/// quotes doubled; anything else is written as it is. The one quoting rule of every CSV we write
/// (chart data, report tables, experiment files, the Insights table).
std::string csvField(const std::string& text);

/// Text from outside (a tool's output, a file's line) made safe for a terminal or a log line:
/// control characters and bytes that are not UTF-8 become \xNN, and past `maxBytes` it is cut
/// with "...". A misbehaving tool's binary output must not reach the user's terminal raw.
std::string printableExcerpt(const std::string& text, size_t maxBytes = 200);

} // namespace radt
