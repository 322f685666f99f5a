// SPDX-License-Identifier: MIT
#include "widgets/compare/ComparePainting.h"

#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace radt {

namespace {

constexpr double kBarWidth = 12;
constexpr double kTitleLines = 2; ///< the legend's title may take two lines

} // namespace

void drawHaloText(QPainter& painter, const QRectF& rect, int flags, const QString& text) {
    const QRectF bounds = painter.fontMetrics().boundingRect(rect.toRect(), flags, text);
    QColor halo(Qt::white);
    halo.setAlpha(200);
    painter.fillRect(bounds.adjusted(-2, 0, 2, 0), halo);
    painter.drawText(rect, flags, text);
}

double colourLegendWidth(const ColourScale& colours, const QFontMetricsF& metrics) {
    if (!colours.isValid())
        return 0;
    double widest = 0;
    for (const auto& [f, label] : colours.legend())
        widest = std::max(widest, metrics.horizontalAdvance(label));
    // The title wraps at its spaces: its longest word must fit ("accuracy", not "accurac").
    for (const QString& word : colours.title().split(QLatin1Char(' ')))
        widest = std::max(widest, metrics.horizontalAdvance(word) - kBarWidth - 6);
    widest = std::min(widest, metrics.averageCharWidth() * 16);
    return kBarWidth + 6 + widest + 8;
}

void drawColourLegend(QPainter& painter, const ColourScale& colours, const QRectF& rect) {
    if (!colours.isValid())
        return;
    painter.save();
    const QFontMetricsF metrics(painter.font());
    const double line = metrics.height();
    const QRectF titleRect(rect.left(), rect.top(), rect.width(), line * kTitleLines);
    painter.setPen(QColor(60, 60, 60));
    painter.drawText(titleRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                     metrics.elidedText(colours.title(), Qt::ElideMiddle, rect.width() * kTitleLines));
    const QRectF bar(rect.left(), titleRect.bottom() + 4, kBarWidth,
                     std::max(20.0, rect.height() - titleRect.height() - 4 - line / 2));
    const auto entries = colours.legend();
    if (colours.isCategorical()) {
        // A swatch per category, top to bottom, as many as fit.
        double y = bar.top();
        for (size_t i = 0; i < entries.size() && y + line <= rect.bottom(); ++i, y += line + 2) {
            painter.fillRect(QRectF(bar.left(), y + 2, kBarWidth, line - 4),
                             ColourScale::qualitative(int(i)));
            painter.drawText(
                QRectF(bar.right() + 6, y, rect.width() - kBarWidth - 6, line),
                Qt::AlignLeft | Qt::AlignVCenter,
                metrics.elidedText(entries[i].second, Qt::ElideRight, rect.width() - kBarWidth - 6));
        }
        painter.restore();
        return;
    }
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    for (int i = 0; i <= 8; ++i)
        gradient.setColorAt(i / 8.0, ColourScale::sequential(i / 8.0));
    painter.fillRect(bar, gradient);
    for (const auto& [f, label] : entries) {
        const double y = bar.bottom() - f * bar.height();
        painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3, y));
        painter.drawText(QRectF(bar.right() + 6, y - line / 2, rect.width() - kBarWidth - 6, line),
                         Qt::AlignLeft | Qt::AlignVCenter, label);
    }
    painter.restore();
}

QColor lineColour(const QColor& colour, bool selected, size_t runCount) {
    if (!selected)
        return QColor(200, 200, 200, runCount > 100 ? 90 : 150);
    QColor c = colour;
    c.setAlpha(runCount > 200 ? 110 : runCount > 50 ? 170 : 230);
    return c;
}

} // namespace radt
