// SPDX-License-Identifier: MIT
#pragma once
// Hundreds of overlaid lines drawn as their density: each pixel shaded by how many lines pass
// through it (a chart of a cluster's 500 runs). Stroking 500 lines of 2,400 points each took
// 130-180 ms a zoom frame even aliased (1.2M segments through Qt's stroker), and the result was a
// texture in which the last-drawn colours hid the rest. Here each line adds, per pixel column, one
// vertical span (its extremes in that column, joined to its neighbours) to a difference array:
// +1 at the span's top row, -1 below its bottom row. A running sum down the rows then gives every
// pixel its count, so a frame costs one visit per segment plus one per pixel, whatever the spans'
// heights. A line counts once per pixel however many of its segments cross it.

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QImage>
#include <QPointF>

#include <cstdint>
#include <vector>

namespace radt {

class LineDensity {
public:
    /// Starts a raster of `width` x `height` pixels (each 1 to 8192) with no line in it; memory
    /// is kept between frames of one size, given back after a larger one (an export).
    void reset(int width, int height);
    /// Where a line's points land in the raster: pixel = point * scale + offset, per axis.
    struct Placement {
        double scaleX = 1, offsetX = 0, scaleY = 1, offsetY = 0;
    };
    /// Adds one line: its points (x ascending) placed in pixels of the raster by `at`; what lies
    /// outside is clipped (a point far off, infinite included, runs to the edge), a NaN is a gap.
    void addLine(const QPointF* points, int count, const Placement& at);
    /// Adds one line whose points are pixels of the raster already.
    void addLine(const QPointF* points, int count) { addLine(points, count, Placement{1, 0, 1, 0}); }
    int linesAdded() const { return m_lines; }
    /// Adds another raster's lines (of the same size) to this one's.
    void add(LineDensity& other);
    /// The raster as an image of its size: pixels no line passes through are transparent, the
    /// others `colour(count, total)`.
    void paintInto(QImage& image, int total, bool monochrome);
    /// The most lines through one pixel (after paintInto).
    int densest() const { return m_densest; }

    /// The shade of a pixel `count` of `total` lines pass through: light blue for one line to
    /// dark navy for all of them, on a log scale (a few lines crossing must still show against
    /// one, and hundreds against dozens); greys when `monochrome` (a paper's print).
    static QColor colour(int count, int total, bool monochrome);

private:
    /// Adds the batch's spans to the difference array, a band of columns at a time.
    void foldBatch();

    /// One line's rows in one column; top < 0: the line does not pass there.
    struct Span {
        int16_t top, bottom;
    };
    int m_width = 0, m_height = 0, m_lines = 0;
    int m_densest = 0;
    std::vector<int32_t> m_diff; ///< (height + 1) rows of width: +1 where a span starts, -1 below its end
    // The spans of the last lines added (up to kBatch, a row of width each), folded into m_diff
    // in bands of columns: a line's spans jump between rows, and written straight into the
    // 3 MB difference array each was a cache miss (a third of a 500-line frame).
    std::vector<Span> m_spans;
    int m_batch = 0;
    std::vector<double> m_low, m_high; ///< the line being added: its extremes per column (+-inf: none)
};

/// The key of a density chart, drawn where the legend would be: "lines through a pixel", a
/// gradient from 1 to the number of lines, its ends labelled.
class DensityKeyItem : public QGraphicsItem {
public:
    explicit DensityKeyItem(QGraphicsItem* parent = nullptr);
    /// `caption`: "lines through a pixel" after the count (left out where a chart is narrow).
    void setKey(int total, bool monochrome, const QFont& font, bool caption);
    int total() const { return m_total; }
    /// After the gradient: "500 lines through a pixel".
    QString caption() const;
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int m_total = 0;
    bool m_monochrome = false, m_caption = true;
    QFont m_font;
};

} // namespace radt
