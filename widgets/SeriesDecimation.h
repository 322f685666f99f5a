#pragma once
// Turning a stored series into chart points (DESIGN §8): charts never receive raw points.

#include "Model.h"

#include <QPointF>
#include <QVector>

namespace radt {

/// Points (x = seconds since originMs, y = value), sorted by x; NaN and infinite values dropped.
QVector<QPointF> toChartPoints(const Series& series, int64_t originMs);

/// Keeps, per column of the x range split into `columns`, the minimum and the maximum point in x
/// order, so peaks survive; at most 2 * columns points. Input must be sorted by x.
QVector<QPointF> decimateMinMax(const QVector<QPointF>& points, int columns);

} // namespace radt
