// SPDX-License-Identifier: MIT
#pragma once
// A scatter of any column against any other without a widget: the two scales (log
// each where the values allow), where each run's point lies in a plot rectangle, and which point
// is under the mouse. The runs, their colours and which are brushed come from the parallel
// coordinates' engine, so both views show the same selection.

#include "widgets/compare/ParallelEngine.h"

#include <QPointF>
#include <QRectF>
#include <QString>

namespace radt {

class ScatterEngine {
public:
    explicit ScatterEngine(const ParallelEngine& source) : m_source(source) {}

    /// The columns on x and y, by id (kept while the table has them); "" for none.
    void setColumns(const QString& x, const QString& y);
    const QString& xId() const { return m_x; }
    const QString& yId() const { return m_y; }
    void setLog(bool x, bool y);
    bool logX() const { return m_xScale.isLog(); }
    bool logY() const { return m_yScale.isLog(); }
    /// True when both columns are there.
    bool isReady() const;
    const CompareColumn& xColumn() const;
    const CompareColumn& yColumn() const;

    void setPlotRect(const QRectF& rect);
    const QRectF& plotRect() const { return m_rect; }
    /// Call after the source's table changed: the scales follow its values.
    void update();
    const ColumnScale& xScale() const { return m_xScale; }
    const ColumnScale& yScale() const { return m_yScale; }
    /// Where run `run` lies; NaN where it lacks either value.
    QPointF point(size_t run) const;
    /// Runs with both values.
    size_t shownCount() const;
    /// The run whose point is nearest `pos` within `tolerance` pixels, or -1.
    int runAt(const QPointF& pos, double tolerance) const;
    const ParallelEngine& source() const { return m_source; }

private:
    const ParallelEngine& m_source;
    QString m_x, m_y;
    bool m_wantLogX = false, m_wantLogY = false;
    QRectF m_rect{0, 0, 600, 400};
    ColumnScale m_xScale, m_yScale;
};

} // namespace radt
