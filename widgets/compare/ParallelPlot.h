// SPDX-License-Identifier: MIT
#pragma once
// The parallel coordinates on screen: paints a ParallelEngine with QPainter (axes
// with their ticks and units, a polyline per run in its colour, brushed runs over dimmed ones,
// the brushes, the colour legend, the count of runs) and hands it the mouse: a drag along an
// axis brushes that range, a click on an axis clears its brush, hovering a line names its run,
// an axis' context menu sets its log scale, moves or removes it, or colours by it.

#include "widgets/compare/ParallelEngine.h"

#include <QWidget>

namespace radt {

class ParallelPlot : public QWidget {
    Q_OBJECT
public:
    explicit ParallelPlot(ParallelEngine& engine, QWidget* parent = nullptr);

    /// Paints the whole view laid out at `size` (the screen, or an export), then lays the engine
    /// out for the widget again.
    void paintTo(QPainter& painter, const QSize& size);
    /// Lays the engine out for a view of `size` with the widget's font.
    void layOut(const QSize& size);
    /// The run under the mouse (-1 none).
    int hoveredRun() const { return m_hovered; }
    const ParallelEngine& engine() const { return m_engine; }
    QSize sizeHint() const override { return {900, 460}; }
    QSize minimumSizeHint() const override { return {360, 240}; }

signals:
    /// The brushed runs changed (a drag, a click clearing a brush, a menu).
    void selectionChanged();
    /// Axes were moved or removed, a log scale or the colour column changed.
    void axesChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void paintAxes(QPainter& painter, double width) const;
    /// One axis, its ticks, brush and title; `room` is the distance to its neighbours, `width` the
    /// picture's.
    void paintAxis(QPainter& painter, int axis, double room, double width) const;
    void paintLines(QPainter& painter) const;
    void paintFooter(QPainter& painter, const QSize& size) const;
    /// The axis a press at `pos` would brush: near its line, within the plot's height; or -1.
    int brushableAxisAt(const QPoint& pos) const;
    void hover(const QPoint& pos, const QPoint& global);
    /// The brush of the axis being dragged, from the press to `pos` (once it moved a few pixels).
    void dragTo(const QPoint& pos);

    ParallelEngine& m_engine;
    int m_hovered = -1;
    int m_dragAxis = -1;
    double m_dragStart = 0;
    bool m_dragged = false;
};

} // namespace radt
