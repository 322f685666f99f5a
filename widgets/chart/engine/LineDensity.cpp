// SPDX-License-Identifier: MIT
#include "widgets/chart/engine/LineDensity.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace radt {

namespace {
constexpr int kBatch = 128; // lines whose spans wait to be folded
constexpr int kBand = 64;   // columns folded together: their rows of m_diff stay in the cache
} // namespace

void LineDensity::reset(int width, int height) {
    m_width = std::clamp(width, 0, 8192);
    m_height = std::clamp(height, 0, 8192); // rows are int16_t
    const size_t cells = size_t(m_width) * size_t(m_height + 1);
    if (m_diff.capacity() > 2 * cells + 65536) // an export's raster: not kept for the view's frames
        std::vector<int32_t>().swap(m_diff);
    m_lines = 0;
    m_densest = 0;
    m_diff.assign(cells, 0);
    m_spans.resize(size_t(kBatch) * size_t(m_width));
    m_low.assign(size_t(m_width), std::numeric_limits<double>::infinity());
    m_high.assign(size_t(m_width), -std::numeric_limits<double>::infinity());
    m_batch = 0;
}

void LineDensity::add(LineDensity& other) {
    if (other.m_width != m_width || other.m_height != m_height)
        return;
    other.foldBatch();
    for (size_t i = 0; i < m_diff.size(); ++i)
        m_diff[i] += other.m_diff[i];
    m_lines += other.m_lines;
}

void LineDensity::foldBatch() {
    const size_t width = size_t(m_width);
    for (int band = 0; band < m_width; band += kBand) {
        const int end = std::min(m_width, band + kBand);
        for (int b = 0; b < m_batch; ++b) {
            const Span* spans = m_spans.data() + size_t(b) * width;
            for (int c = band; c < end; ++c)
                if (spans[c].top >= 0) {
                    m_diff[size_t(spans[c].top) * width + size_t(c)] += 1;
                    m_diff[size_t(spans[c].bottom + 1) * width + size_t(c)] -= 1;
                }
        }
    }
    m_batch = 0;
}

namespace {
/// floor() for values already within int's range: a cast and a compare (std::floor is a call on
/// the baseline x86-64 this is built for, and a 500-line frame floors millions of values).
inline int floorInt(double x) {
    const int i = int(x);
    return i - (x < double(i));
}
} // namespace

void LineDensity::addLine(const QPointF* points, int count, const Placement& at) {
    if (count <= 0 || m_width <= 0 || m_height <= 0)
        return;
    if (m_batch == kBatch)
        foldBatch();
    Span* const spans = m_spans.data() + size_t(m_batch) * size_t(m_width);
    ++m_lines;
    ++m_batch;
    const double width = m_width, height = m_height;
    // Each column's lowest and highest y of the line: its points there, and where its segments
    // cross the column's edges (a straight piece has its extremes at its ends). No branch on
    // which column came before: a frame visits a million points.
    double* const low = m_low.data();
    double* const high = m_high.data();
    int first = m_width, last = -1; // the columns touched
    auto touch = [&](int column, double y) {
        low[column] = std::min(low[column], y);
        high[column] = std::max(high[column], y);
        first = std::min(first, column);
        last = std::max(last, column);
    };
    // Far outside any plot, still exact: a deep zoom's points may land millions of pixels away.
    constexpr double kFar = 1e7;
    double x0 = 0, y0 = 0;
    bool joined = false; // whether (x0, y0) is a point the next one joins
    for (int i = 0; i < count; ++i) {
        const double x1 = std::clamp(points[i].x() * at.scaleX + at.offsetX, -kFar, kFar);
        const double y1 = std::clamp(points[i].y() * at.scaleY + at.offsetY, -kFar, kFar);
        if (!std::isfinite(x1 + y1)) { // a NaN: a gap, as the painter's polyline would leave
            joined = false;
            continue;
        }
        if (x1 >= 0 && x1 < width)
            touch(floorInt(x1), y1);
        if (joined) {
            // The column edges b the segment crosses (0 and width included: where it enters
            // or leaves the plot), its y there in the columns either side.
            const bool forward = x0 <= x1;
            const double xa = forward ? x0 : x1, ya = forward ? y0 : y1;
            const double xb = forward ? x1 : x0, yb = forward ? y1 : y0;
            const int from = std::max(floorInt(std::max(xa, -1.0)) + 1, 0);
            const int to = std::min(floorInt(std::min(xb, width + 1)), m_width);
            if (from <= to) {
                const double slope = (yb - ya) / (xb - xa);
                for (int b = from; b <= to; ++b) {
                    const double y = ya + (b - xa) * slope;
                    if (b > 0)
                        touch(b - 1, y);
                    if (b < m_width)
                        touch(b, y);
                }
            }
        }
        x0 = x1;
        y0 = y1;
        joined = true;
    }
    // Spans of the touched columns (rows, clipped), the rest none; the per-column extremes made
    // ready for the next line.
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::fill_n(spans, m_width, Span{-1, -1});
    for (int c = first; c <= last; ++c) {
        const double lo = low[c], hi = high[c];
        low[c] = kInf;
        high[c] = -kInf;
        // Above or below the plot in this column: nothing. A line on its very edge (a minimum
        // at the axis' end, y == height) is drawn in the edge row, as a stroke straddles it.
        if (lo > hi || hi < -1 || lo > height)
            continue;
        const int top = std::clamp(floorInt(std::max(lo, -1.0)), 0, m_height - 1);
        const int bottom = std::clamp(floorInt(std::min(hi, height + 1)), top, m_height - 1);
        spans[c] = {int16_t(top), int16_t(bottom)};
    }
}

void LineDensity::paintInto(QImage& image, int total, bool monochrome) {
    foldBatch();
    if (image.size() != QSize(m_width, m_height) || image.format() != QImage::Format_ARGB32_Premultiplied)
        image = QImage(m_width, m_height, QImage::Format_ARGB32_Premultiplied);
    total = std::max({total, m_lines, 1});
    std::vector<QRgb> shades(size_t(total) + 1);
    for (int c = 0; c <= total; ++c)
        shades[size_t(c)] = qPremultiply(colour(c, total, monochrome).rgba());
    // The running sum down each column: row r's count is the spans begun at or above r, less
    // those ended above it.
    std::vector<int32_t> running(size_t(m_width), 0);
    int densest = 0;
    for (int r = 0; r < m_height; ++r) {
        const int32_t* diff = m_diff.data() + size_t(r) * size_t(m_width);
        auto* out = reinterpret_cast<QRgb*>(image.scanLine(r));
        for (int c = 0; c < m_width; ++c) {
            const int32_t n = running[size_t(c)] += diff[c];
            densest = std::max(densest, int(n));
            out[c] = shades[size_t(std::clamp(int(n), 0, total))];
        }
    }
    m_densest = densest;
}

QColor LineDensity::colour(int count, int total, bool monochrome) {
    if (count <= 0)
        return QColor(0, 0, 0, 0);
    const double t = total > 1 ? std::log(double(std::min(count, total))) / std::log(double(total)) : 1.0;
    if (monochrome) {
        const int grey = int(std::lround(200 * (1 - t)));
        return QColor(grey, grey, grey);
    }
    // ColorBrewer's "Blues" from its fourth class on: the lightest still reads on white.
    static const struct {
        double at;
        QColor colour;
    } kStops[] = {{0.0, QColor(0x9e, 0xca, 0xe1)},  {0.25, QColor(0x6b, 0xae, 0xd6)},
                  {0.5, QColor(0x42, 0x92, 0xc6)},  {0.7, QColor(0x21, 0x71, 0xb5)},
                  {0.85, QColor(0x08, 0x51, 0x9c)}, {1.0, QColor(0x08, 0x30, 0x6b)}};
    size_t i = 1;
    while (i + 1 < std::size(kStops) && t > kStops[i].at)
        ++i;
    const auto &a = kStops[i - 1], &b = kStops[i];
    const double f = std::clamp((t - a.at) / (b.at - a.at), 0.0, 1.0);
    auto mix = [f](int x, int y) { return int(std::lround(x + (y - x) * f)); };
    return QColor(mix(a.colour.red(), b.colour.red()), mix(a.colour.green(), b.colour.green()),
                  mix(a.colour.blue(), b.colour.blue()));
}

// ---- The key ----

namespace {
constexpr double kBarWidth = 72, kBarHeight = 9, kGap = 4;
}

DensityKeyItem::DensityKeyItem(QGraphicsItem* parent) : QGraphicsItem(parent) {
    setAcceptedMouseButtons(Qt::NoButton);
}

QString DensityKeyItem::caption() const {
    return m_caption ? QObject::tr("%n lines through a pixel", nullptr, m_total) : QString::number(m_total);
}

void DensityKeyItem::setKey(int total, bool monochrome, const QFont& font, bool caption) {
    prepareGeometryChange();
    m_total = total;
    m_monochrome = monochrome;
    m_caption = caption;
    m_font = font;
    update();
}

QRectF DensityKeyItem::boundingRect() const {
    const QFontMetricsF metrics(m_font);
    const double width = metrics.horizontalAdvance(QStringLiteral("1")) + kGap + kBarWidth + kGap +
                         metrics.horizontalAdvance(caption());
    return QRectF(0, 0, width, std::max(metrics.height(), kBarHeight));
}

void DensityKeyItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (m_total < 1)
        return;
    const QFontMetricsF metrics(m_font);
    const double height = boundingRect().height();
    painter->setFont(m_font);
    painter->setPen(QColor(90, 90, 90));
    const double baseline = (height - metrics.height()) / 2 + metrics.ascent();
    double x = 0;
    painter->drawText(QPointF(x, baseline), QStringLiteral("1"));
    x += metrics.horizontalAdvance(QStringLiteral("1")) + kGap;
    // The bar on the same log scale as the shades: its middle is sqrt(total) lines.
    const QRectF bar(x, (height - kBarHeight) / 2, kBarWidth, kBarHeight);
    for (int i = 0; i < int(kBarWidth); ++i) {
        const double t = i / (kBarWidth - 1); // from 1 line to all of them
        const int count = int(std::lround(std::pow(double(m_total), t)));
        painter->fillRect(QRectF(bar.left() + i, bar.top(), 1, bar.height()),
                          LineDensity::colour(std::max(1, count), m_total, m_monochrome));
    }
    x += kBarWidth + kGap;
    painter->drawText(QPointF(x, baseline), caption());
}

} // namespace radt
