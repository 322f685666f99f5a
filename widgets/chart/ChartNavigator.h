// SPDX-License-Identifier: MIT
#pragma once
// The small overview under a chart (radT's navigator): every line over the whole x range, with
// the zoomed window marked. Dragging across it zooms to that range, a click moves the window
// there, a double click shows everything again.

#include <QColor>
#include <QPixmap>
#include <QPointF>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace radt {

class ChartNavigator : public QWidget {
    Q_OBJECT
public:
    struct Line {
        QColor colour;
        QVector<QPointF> points; ///< x in the chart's line units (ms or steps), already decimated
    };

    explicit ChartNavigator(QWidget* parent = nullptr);

    /// The lines over the full range [from, to].
    /// `monochrome`: a density of many lines in greys, as the chart's (ChartPlotItem).
    void setLines(std::vector<Line> lines, int64_t from, int64_t to, bool monochrome = false);
    /// The zoomed window, or nullopt when the chart shows everything.
    void setWindow(std::optional<std::pair<int64_t, int64_t>> window);
    std::optional<std::pair<int64_t, int64_t>> window() const { return m_window; }
    int64_t fullFrom() const { return m_from; }
    int64_t fullTo() const { return m_to; }

    /// The x value under a pixel column of the navigator, and back.
    int64_t valueAt(double px) const;
    double pixelOf(int64_t x) const;

signals:
    void windowChosen(int64_t from, int64_t to);
    void resetRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    QRectF plotRect() const;
    /// The lines drawn once per change of lines or size: a zoom or a drag repaints only the window.
    const QPixmap& linesPixmap();

    std::vector<Line> m_lines;
    bool m_monochrome = false;
    QPixmap m_linesPixmap; ///< null when it must be drawn again
    int64_t m_from = 0, m_to = 0;
    double m_yMin = 0, m_yMax = 1;
    std::optional<std::pair<int64_t, int64_t>> m_window;
    std::optional<double> m_pressX;
    double m_dragX = 0;
};

} // namespace radt
