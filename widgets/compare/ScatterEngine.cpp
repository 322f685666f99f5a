// SPDX-License-Identifier: MIT
#include "widgets/compare/ScatterEngine.h"

#include <cmath>

namespace radt {

void ScatterEngine::setColumns(const QString& x, const QString& y) {
    m_x = x;
    m_y = y;
    update();
}

void ScatterEngine::setLog(bool x, bool y) {
    m_wantLogX = x;
    m_wantLogY = y;
    update();
}

bool ScatterEngine::isReady() const {
    return m_source.table().column(m_x) >= 0 && m_source.table().column(m_y) >= 0;
}

const CompareColumn& ScatterEngine::xColumn() const {
    return m_source.table().columns.at(size_t(m_source.table().column(m_x)));
}

const CompareColumn& ScatterEngine::yColumn() const {
    return m_source.table().columns.at(size_t(m_source.table().column(m_y)));
}

void ScatterEngine::setPlotRect(const QRectF& rect) {
    m_rect = rect;
    update();
}

void ScatterEngine::update() {
    if (!isReady()) {
        m_xScale = m_yScale = ColumnScale();
        return;
    }
    m_xScale = ColumnScale(xColumn(), m_wantLogX, m_rect.left(), m_rect.right());
    m_yScale = ColumnScale(yColumn(), m_wantLogY, m_rect.bottom(), m_rect.top());
}

QPointF ScatterEngine::point(size_t run) const {
    if (!isReady())
        return {NAN, NAN};
    return {m_xScale.toPixel(xColumn().values.at(run)), m_yScale.toPixel(yColumn().values.at(run))};
}

size_t ScatterEngine::shownCount() const {
    size_t n = 0;
    for (size_t run = 0; run < m_source.runCount(); ++run) {
        const QPointF p = point(run);
        n += std::isfinite(p.x()) && std::isfinite(p.y());
    }
    return n;
}

int ScatterEngine::runAt(const QPointF& pos, double tolerance) const {
    int best = -1;
    double bestDistance = tolerance;
    for (size_t run = 0; run < m_source.runCount(); ++run) {
        const QPointF p = point(run);
        const double d = std::hypot(p.x() - pos.x(), p.y() - pos.y());
        if (std::isfinite(d) && d <= bestDistance) {
            best = int(run);
            bestDistance = d;
        }
    }
    return best;
}

} // namespace radt
