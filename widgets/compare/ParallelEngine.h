// SPDX-License-Identifier: MIT
#pragma once
// The parallel coordinates without a widget: the axes (columns of a CompareTable,
// in order, each linear, log or categorical), where each run's polyline crosses them in a plot
// rectangle, the brushes (a value range per axis; a run is selected when it lies inside every
// brush: several brushes AND together), the runs' colours by a chosen column, and which run's
// polyline is under a point. ParallelPlot paints it and feeds it the mouse; the scatter reads its
// table, colours and selection.

#include "widgets/compare/ColourScale.h"
#include "widgets/compare/ColumnScale.h"
#include "widgets/compare/CompareTable.h"

#include <QPointF>
#include <QRectF>
#include <QStringList>

#include <optional>
#include <vector>

namespace radt {

/// A brushed range of an axis, in its column's values (a category's index on a categorical one).
struct AxisBrush {
    double low = 0;
    double high = 0;
    bool contains(double v) const { return v >= low && v <= high; }
};

class ParallelEngine {
public:
    /// The runs and columns to show. Axes, log scales and brushes of columns still there are kept
    /// (by column id); the colour column too when it is still there.
    void setTable(CompareTable table);
    const CompareTable& table() const { return m_table; }
    size_t runCount() const { return m_table.runs.size(); }

    /// The axes, left to right, by column id; ids the table lacks are skipped.
    void setAxes(const QStringList& ids);
    QStringList axisIds() const;
    int axisCount() const { return int(m_axes.size()); }
    const CompareColumn& axisColumn(int axis) const;
    /// Moves an axis to another place (its brush and scale go with it).
    void moveAxis(int from, int to);
    /// A log scale on an axis where its values allow one (ColumnScale::canLog); false otherwise.
    bool setLog(int axis, bool on);
    bool isLog(int axis) const { return m_axes.at(size_t(axis)).log; }
    bool canLog(int axis) const;
    const ColumnScale& scale(int axis) const { return m_axes.at(size_t(axis)).scale; }

    /// The column the runs are coloured by (its id); "" for none: every run one colour.
    void setColourBy(const QString& id);
    const QString& colourBy() const { return m_colourBy; }
    const ColourScale& colours() const { return m_colours; }
    QColor colourOf(size_t run) const;

    /// Lays the axes out evenly over `rect`'s width, the lowest value at its bottom.
    void setPlotRect(const QRectF& rect);
    const QRectF& plotRect() const { return m_rect; }
    double axisX(int axis) const { return m_axes.at(size_t(axis)).x; }
    /// Where run `run` crosses axis `axis`; y is NaN where the run has no value there.
    QPointF point(size_t run, int axis) const;
    /// The axis within `tolerance` pixels of x (the nearest), or -1.
    int axisNear(double x, double tolerance) const;
    /// The run whose polyline passes nearest `pos` within `tolerance` pixels, or -1. Selected runs
    /// win over dimmed ones at the same distance.
    int runAt(const QPointF& pos, double tolerance) const;

    /// Brushes the range between two pixels of an axis (a drag's start and end, either order).
    void brushPixels(int axis, double y0, double y1);
    void setBrush(int axis, const AxisBrush& brush);
    void clearBrush(int axis);
    void clearBrushes();
    const std::optional<AxisBrush>& brush(int axis) const { return m_axes.at(size_t(axis)).brush; }
    bool hasBrush() const;
    /// Inside every brush (all runs while there is none); a run without a value on a brushed axis
    /// is outside.
    bool isSelected(size_t run) const { return run < m_selected.size() && m_selected[run]; }
    std::vector<size_t> selectedRuns() const;
    QStringList selectedUuids() const;
    /// What hovering a run says: its name, the params that tell it apart, and its value on each
    /// axis (and on the colour column and `extra` columns when they are no axes), one per line.
    QString describeRun(size_t run, const QStringList& extra = {}) const;

private:
    struct Axis {
        int column = 0;
        bool log = false;
        std::optional<AxisBrush> brush;
        ColumnScale scale;
        double x = 0;
    };
    void rescale(Axis& axis) const;
    void layOut();
    void reselect();
    void recolour();

    CompareTable m_table;
    std::vector<Axis> m_axes;
    QString m_colourBy;
    ColourScale m_colours;
    QRectF m_rect{0, 0, 800, 400};
    std::vector<char> m_selected;
};

} // namespace radt
