// SPDX-License-Identifier: MIT
#include "widgets/common/Formatting.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace radt {

double niceTickStep(double span, int ticks) {
    if (!(span > 0) || !std::isfinite(span) || ticks < 1)
        return 1;
    const double raw = span / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double fraction = raw / magnitude; // 1 <= fraction < 10
    const double nice = fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10;
    return nice * magnitude;
}

int tickDecimals(double step) {
    if (!(step > 0) || !std::isfinite(step))
        return 0;
    // 0.05 -> 2, 0.2 -> 1, 5 -> 0; the small epsilon absorbs 0.1 not being exact in binary.
    return std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 0, 12);
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

// "run 2" before "run 10", case ignored. QCollator's numeric mode needs ICU, which not every
// Qt build has, so runs of digits are compared as numbers here.
namespace {

QStringRef digitsAt(const QString& text, int& pos) {
    const int start = pos;
    while (pos < text.size() && text[pos].isDigit())
        ++pos;
    int first = start;
    while (first < pos - 1 && text[first] == QLatin1Char('0'))
        ++first; // leading zeros do not make a number larger
    return text.midRef(first, pos - first);
}

} // namespace

bool naturalLess(const QString& a, const QString& b) {
    int i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            const QStringRef x = digitsAt(a, i), y = digitsAt(b, j);
            if (x.size() != y.size())
                return x.size() < y.size();
            if (const int c = x.compare(y); c != 0)
                return c < 0;
            continue;
        }
        const QChar x = a[i++].toCaseFolded(), y = b[j++].toCaseFolded();
        if (x != y)
            return x < y;
    }
    if (a.size() - i != b.size() - j)
        return a.size() - i < b.size() - j;
    return a < b; // only case (or zeros) differ: still one fixed order
}

QString displayName(const QString& name, int maxChars) {
    if (name.size() <= maxChars)
        return name;
    return name.left(maxChars - 1) + QChar(0x2026);
}

} // namespace radt
