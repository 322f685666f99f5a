// SPDX-License-Identifier: MIT
#pragma once
// A chart's crosshair: a vertical line at an x and a see-through box listing every visible
// line's reading there (ChartEngine::crosshairReadings), beside the line, flipped near the
// plot's right edge and put at the bottom when fewer lines pass there.

#include <QRectF>
#include <QString>

class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsTextItem;
class QSizeF;

namespace QtCharts {
class QChart;
class QLineSeries;
} // namespace QtCharts

namespace radt {

class ChartEngine;

class ChartCrosshair {
public:
    /// Its items, over the plot, children of `chart`; hidden.
    explicit ChartCrosshair(QtCharts::QChart* chart);

    /// Shows it at `axisX`, placing through `mapped` (any series on the chart's axes). Returns
    /// the text shown; "" when the chart has no line.
    QString showAt(const ChartEngine& engine, QtCharts::QLineSeries* mapped, double axisX);
    void hide();
    /// Shows it again after hide() (an export that drew the chart without it).
    void showAgain();
    bool isVisible() const;
    /// What it says, as plain text; "" when hidden.
    QString text() const;
    /// Where its box is (chart coordinates); empty when it is hidden.
    QRectF boxRect() const;
    /// The x it was last shown at (axis units).
    double axisX() const { return m_axisX; }

private:
    /// The box's top: the top of the plot, or its bottom when fewer lines pass there.
    double boxTop(const ChartEngine& engine, QtCharts::QLineSeries* mapped, double axisX, double boxLeft,
                  const QSizeF& box) const;

    QtCharts::QChart* m_chart;
    QGraphicsLineItem* m_line;
    QGraphicsRectItem* m_box;
    QGraphicsTextItem* m_label; ///< rich text: a colour swatch per line
    QString m_text;             ///< what it says, as plain text
    double m_axisX = 0;
};

} // namespace radt
