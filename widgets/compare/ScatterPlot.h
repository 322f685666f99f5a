// SPDX-License-Identifier: MIT
#pragma once
// The scatter on screen: paints a ScatterEngine with QPainter (both axes with ticks,
// titles and units, a point per run in its colour, the brushed runs over the dimmed, the colour
// legend, the count of runs shown) and names the run under the mouse.

#include "widgets/compare/ScatterEngine.h"

#include <QWidget>

namespace radt {

class ScatterPlot : public QWidget {
    Q_OBJECT
public:
    explicit ScatterPlot(ScatterEngine& engine, QWidget* parent = nullptr);

    void paintTo(QPainter& painter, const QSize& size);
    void layOut(const QSize& size);
    int hoveredRun() const { return m_hovered; }
    QSize sizeHint() const override { return {700, 460}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void paintAxes(QPainter& painter) const;
    void paintPoints(QPainter& painter) const;

    ScatterEngine& m_engine;
    int m_hovered = -1;
};

} // namespace radt
