#include "Formatting.h"

#include <QDateTime>

namespace radt {

QString formatDuration(int64_t ms) {
    if (ms < 0)
        ms = 0;
    if (ms < 1000)
        return QStringLiteral("%1ms").arg(ms);
    const int64_t s = ms / 1000;
    const auto two = [](int64_t v) { return QStringLiteral("%1").arg(v, 2, 10, QLatin1Char('0')); };
    if (s < 60)
        return QStringLiteral("%1s").arg(s);
    if (s < 3600)
        return QStringLiteral("%1m %2s").arg(s / 60).arg(two(s % 60));
    if (s < 86400)
        return QStringLiteral("%1h %2m").arg(s / 3600).arg(two(s % 3600 / 60));
    return QStringLiteral("%1d %2h").arg(s / 86400).arg(two(s % 86400 / 3600));
}

QString formatTimestamp(int64_t ms) {
    if (ms <= 0)
        return QString();
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QColor statusColor(RunStatus status) {
    switch (status) {
    case RunStatus::Running:
        return QColor(0x1f, 0x6f, 0xd0);
    case RunStatus::Failed:
        return QColor(0xc6, 0x28, 0x28);
    case RunStatus::Killed:
        return QColor(0xe0, 0x7b, 0x00);
    case RunStatus::Scheduled:
    case RunStatus::Finished:
        break;
    }
    return QColor();
}

QString toQString(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace radt
