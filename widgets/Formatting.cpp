#include "Formatting.h"

#include <QDateTime>

namespace radt {

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
