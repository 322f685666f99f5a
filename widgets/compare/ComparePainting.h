// SPDX-License-Identifier: MIT
#pragma once
// What the parallel coordinates and the scatter paint alike: text with a halo that stays readable
// over lines, the colour legend (a gradient or a list of categories), the count of runs shown.

#include "widgets/compare/ColourScale.h"

#include <QColor>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>

class QPainter;

namespace radt {

/// Text at `rect` (with `flags`), on a halo of the background so that lines under it do not hide it.
void drawHaloText(QPainter& painter, const QRectF& rect, int flags, const QString& text);
/// The width the colour legend takes (0 when the scale is not valid).
double colourLegendWidth(const ColourScale& colours, const QFontMetricsF& metrics);
/// The legend in `rect` (its width from colourLegendWidth): the scale's title over a vertical
/// gradient with its ticks, or a swatch per category.
void drawColourLegend(QPainter& painter, const ColourScale& colours, const QRectF& rect);
/// A line's colour as it is drawn: selected ones in their colour (translucent when many lines
/// cross), others pale grey.
QColor lineColour(const QColor& colour, bool selected, size_t runCount);

} // namespace radt
