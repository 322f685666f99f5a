#pragma once
// How the explorer shows durations, times and statuses; shared by the item models.

#include "Model.h"

#include <QColor>
#include <QString>

namespace radt {

/// "850ms", "45s", "1m 05s", "2h 03m", "3d 04h".
QString formatDuration(int64_t ms);
/// Local date and time of an epoch-ms timestamp ("2024-05-01 13:45"), "" for 0.
QString formatTimestamp(int64_t ms);
/// The status colour (RUNNING blue, FAILED red, KILLED orange); invalid for the others.
QColor statusColor(RunStatus status);
QString toQString(const std::string& text);

} // namespace radt
