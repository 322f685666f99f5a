#include "LineDensity.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace radt {

namespace {
constexpr int kBatch = 128; // lines whose spans wait to be folded
constexpr int kBand = 64;   // columns folded together: their rows of m_diff stay in the cache
} // namespace

void LineDensity::reset(int width, int height) {
    m_width = std::max(0, width);
    m_height = std::max(0, height);
    m_lines = 0;
    m_densest = 0;
    m_diff.assign(size_t(m_width) * size_t(m_height + 1), 0);
    m_spans.resize(size_t(kBatch) * size_t(m_width));
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
    std::fill_n(spans, m_width, Span{-1, -1});
    ++m_lines;
    ++m_batch;
    const double width = m_width, height = m_height;
    // The span of the current column, merged over the segments there; written out when the
    // line moves on to another column.
    int column = -1;
    double low = 0, high = 0;
    auto flush = [&] {
        // Above or below the plot in this column: nothing. A line on its very edge (a minimum
        // at the axis' end, y == height) is drawn in the edge row, as a stroke straddles it.
        if (column < 0 || high < -1 || low > height)
            return;
        const int top = std::clamp(floorInt(std::max(low, -1.0)), 0, m_height - 1);
        const int bottom = std::clamp(floorInt(std::min(high, height + 1)), top, m_height - 1);
        spans[column] = {int16_t(top), int16_t(bottom)};
    };
    auto add = [&](int c, double y0, double y1) {
        const double lo = std::min(y0, y1), hi = std::max(y0, y1);
        if (c != column) {
            flush();
            column = c;
            low = lo;
            high = hi;
        } else {
            low = std::min(low, lo);
            high = std::max(high, hi);
        }
    };
    // Within [-1, width]: a column index, and a value far outside the plot casts safely.
    auto columnOf = [&](double x) {
        return std::clamp(floorInt(std::clamp(x, -1.0, width)), 0, m_width - 1);
    };
    // Far outside any plot, still exact: a deep zoom's points may land millions of pixels away.
    constexpr double kFar = 1e7;
    auto pixelX = [&](const QPointF& p) { return std::clamp(p.x() * at.scaleX + at.offsetX, -kFar, kFar); };
    auto pixelY = [&](const QPointF& p) { return std::clamp(p.y() * at.scaleY + at.offsetY, -kFar, kFar); };
    double xFrom = pixelX(points[0]), yFrom = pixelY(points[0]);
    if (count == 1) {
        if (std::isfinite(xFrom + yFrom) && xFrom >= 0 && xFrom < width)
            add(columnOf(xFrom), yFrom, yFrom);
        flush();
        return;
    }
    for (int i = 1; i < count; ++i) {
        double x0 = xFrom, y0 = yFrom, x1 = pixelX(points[i]), y1 = pixelY(points[i]);
        xFrom = x1;
        yFrom = y1;
        if (!std::isfinite(x0 + y0 + x1 + y1)) // each within kFar: the sum is finite unless one is NaN
            continue;                          // a gap: what the painter's polyline would have dropped too
        if (x1 < x0) {
            std::swap(x0, x1);
            std::swap(y0, y1);
        }
        if (x1 < 0 || x0 >= width)
            continue;
        const int first = columnOf(x0), last = columnOf(x1);
        if (first == last) {
            add(first, y0, y1);
            continue;
        }
        // A segment across columns (from one column's last point to the next one's first, or a
        // zoom deeper than the points): in each column, the part of it that lies there.
        const double slope = (y1 - y0) / (x1 - x0);
        double ya = y0 + (std::max(x0, double(first)) - x0) * slope;
        for (int c = first; c <= last; ++c) {
            const double yb = y0 + (std::min(x1, double(c + 1)) - x0) * slope;
            add(c, ya, yb);
            ya = yb;
        }
    }
    flush();
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
    return QObject::tr("%n lines through a pixel", nullptr, m_total);
}

void DensityKeyItem::setKey(int total, bool monochrome, const QFont& font) {
    prepareGeometryChange();
    m_total = total;
    m_monochrome = monochrome;
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
