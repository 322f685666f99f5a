#include "SeriesDecimation.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace radt {

QVector<QPointF> toChartPoints(const Series& series, int64_t originMs) {
    QVector<QPointF> points;
    points.reserve(static_cast<int>(series.size()));
    for (size_t i = 0; i < series.size(); ++i) {
        const double v = series.v[i];
        // QtCharts breaks a whole series on NaN; MLflow stores +-inf as +-DBL_MAX, which would
        // flatten the y axis into a single line, so treat those as missing as well.
        if (!std::isfinite(v) || std::fabs(v) >= DBL_MAX)
            continue;
        points.append(QPointF(static_cast<double>(series.t[i] - originMs) / 1000.0, v));
    }
    return points;
}

QVector<QPointF> decimateMinMax(const QVector<QPointF>& points, int columns) {
    const int n = points.size();
    if (columns < 1 || n <= 2 * columns)
        return points;
    const double x0 = points.first().x();
    const double span = points.last().x() - x0;
    if (!(span > 0))
        return points;

    QVector<QPointF> out;
    out.reserve(2 * columns);
    const double scale = columns / span;
    int i = 0;
    while (i < n) {
        const int column = std::min(columns - 1, static_cast<int>((points[i].x() - x0) * scale));
        int minAt = i;
        int maxAt = i;
        int j = i + 1;
        for (; j < n && std::min(columns - 1, static_cast<int>((points[j].x() - x0) * scale)) == column;
             ++j) {
            if (points[j].y() < points[minAt].y())
                minAt = j;
            if (points[j].y() > points[maxAt].y())
                maxAt = j;
        }
        if (minAt == maxAt) {
            out.append(points[minAt]);
        } else {
            out.append(points[std::min(minAt, maxAt)]);
            out.append(points[std::max(minAt, maxAt)]);
        }
        i = j;
    }
    return out;
}

} // namespace radt
