// SPDX-License-Identifier: MIT
// ChartEngine's lines for the visible range: each line's points (at most two a pixel column) or,
// for a dense one among few, its mean and range, read from the lines' pyramids into the frame's
// vectors on every zoom and pan step. Hundreds of lines are read on all cores.

#include "widgets/chart/engine/ChartEngine.h"

#include "widgets/chart/engine/FrameShares.h"

#include <algorithm>
#include <limits>

namespace radt {

std::pair<double, double> ChartEngine::fetchLines(int64_t from, int64_t to, int columns,
                                                  std::vector<PlotLine>& drawn) {
    const double perUnit = lineUnitsPerAxisUnit();
    using Share = FetchShare;
    // Into the plot item's vectors in place: their capacity stays from frame to frame.
    auto fetch = [&](Share& share, const SeriesPyramid& pyramid, bool visible, QVector<QPointF>& points) {
        pyramid.query(from, to, columns, share.t, share.v);
        points.resize(static_cast<int>(share.t.size()));
        QPointF* out = points.data();
        for (size_t k = 0; k < share.t.size(); ++k) {
            out[k] = QPointF(double(share.t[k]) / perUnit, share.v[k]);
            if (visible) { // hidden lines do not set the scale
                share.yMin = std::min(share.yMin, share.v[k]);
                share.yMax = std::max(share.yMax, share.v[k]);
            }
        }
    };
    // Values that set the scale without being drawn (a mean line's runs' least and greatest).
    auto scaleTo = [&](Share& share, const SeriesPyramid& pyramid) {
        pyramid.query(from, to, columns, share.t, share.v);
        for (const double v : share.v) {
            share.yMin = std::min(share.yMin, v);
            share.yMax = std::max(share.yMax, v);
        }
    };
    // A dense line, unless the user smooths it: its mean per pixel column, the range behind it.
    auto fetchRange = [&](Share& share, const SeriesPyramid& pyramid, bool visible, PlotLine& line) {
        pyramid.queryEnvelope(from, to, columns, m_envelope);
        const int n = int(m_envelope.t.size());
        line.points.resize(n);
        line.bandHigh.resize(n);
        line.bandLow.resize(n);
        for (int k = 0; k < n; ++k) {
            const double x = double(m_envelope.t[size_t(k)]) / perUnit;
            line.points[k] = QPointF(x, m_envelope.mean[size_t(k)]);
            line.bandHigh[k] = QPointF(x, m_envelope.high[size_t(k)]);
            line.bandLow[k] = QPointF(x, m_envelope.low[size_t(k)]);
            if (visible) {
                share.yMin = std::min(share.yMin, m_envelope.low[size_t(k)]);
                share.yMax = std::max(share.yMax, m_envelope.high[size_t(k)]);
            }
        }
    };
    // Hundreds of lines overlaid: drawn as their density (ChartPlotItem), each its joined
    // extremes. 500 translucent range bands over one another took 3 s a frame and showed nothing.
    const bool rangeAllowed = m_options.dense == ChartOptions::Dense::Range && m_options.smoothing == 0 &&
                              int(m_lines.size()) <= kDensityAbove;
    m_drawnAsRange.assign(m_lines.size(), false);
    drawn.resize(m_lines.size());
    // Ranges (a few lines only) share m_envelope and m_drawnAsRange's bits: read on one thread.
    const int shares = rangeAllowed ? 1 : frameShares(m_lines.size(), 32);
    m_fetchShares.resize(size_t(shares));
    for (Share& share : m_fetchShares) {
        share.yMin = std::numeric_limits<double>::max();
        share.yMax = std::numeric_limits<double>::lowest();
    }
    runItemsInShares(shares, m_lines.size(), 8, [&](int index, size_t i) {
        Share& share = m_fetchShares[size_t(index)];
        const bool visible = !m_options.hiddenSeries.count(m_lines[i].name);
        if (rangeAllowed && !m_lines[i].isMeanLine() &&
            m_lines[i].pyramid.countIn(from, to) > size_t(kDensePointsPerColumn) * size_t(columns)) {
            m_drawnAsRange[i] = true;
            fetchRange(share, m_lines[i].pyramid, visible, drawn[i]);
            drawn[i].bandFill.setAlphaF(0.12); // lighter than a mean band: several lines overlap
            return;
        }
        fetch(share, m_lines[i].pyramid, visible, drawn[i].points);
        if (visible && m_lines[i].valueLow) {
            scaleTo(share, *m_lines[i].valueLow);
            scaleTo(share, *m_lines[i].valueHigh);
        }
        if (m_lines[i].bandLow) {
            // The scale fits the mean and the runs' own values, never a band beyond them: where the
            // band is wider (a CI of few runs), the plot cuts it.
            fetch(share, *m_lines[i].bandHigh, false, drawn[i].bandHigh);
            fetch(share, *m_lines[i].bandLow, false, drawn[i].bandLow);
        } else {
            drawn[i].bandHigh.clear();
            drawn[i].bandLow.clear();
        }
    });
    double yMin = std::numeric_limits<double>::max(), yMax = std::numeric_limits<double>::lowest();
    for (const Share& share : m_fetchShares) {
        yMin = std::min(yMin, share.yMin);
        yMax = std::max(yMax, share.yMax);
    }
    return {yMin, yMax};
}

} // namespace radt
