// SPDX-License-Identifier: MIT
#pragma once
// What one chart computes, without a widget (resources/DESIGN.md §8): the runs it shows and its
// options, the lines made of them (series rules, smoothing, merges, bands, each a min/max
// pyramid), the mapping between line units and axis units, the zoom, each frame's points at most
// two a pixel column (ChartEngineFrame.cpp), which line is under a pixel, the readings a
// crosshair shows, live points and polled rows growing the lines in place
// (ChartEngineLive.cpp), and a zoom's finer read of runs held as envelopes
// (ChartEngineDetail.cpp). ChartPanel is the widget around it: events, layout and painting.
// What a chart says about its lines (names, tooltips, crosshair rows, titles) is read from its
// public state by the functions of ChartDescription.h.

#include "widgets/chart/engine/ChartLines.h"
#include "widgets/chart/engine/ChartReads.h"
#include "widgets/chart/engine/LineColours.h"
#include "widgets/chart/engine/PlotFrame.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace radt {

/// An x range in line units (ms since start, steps, thousandths of an epoch, ms since the epoch).
using LineRange = std::pair<int64_t, int64_t>;

/// What new data asks of the widget: nothing, a redraw of the lines grown in place, or new lines.
enum class ChartChange { None, Grown, Rebuilt };

class ChartEngine {
    Q_DECLARE_TR_FUNCTIONS(ChartPanel) // the texts are the chart's, as before the split

public:
    ChartEngine();

    // --- what it shows ---
    /// A load of `metricKey` has started: the lines shown stay until setData replaces them.
    void setLoading(const QString& metricKey);
    bool isLoading() const { return m_loading; }
    /// Runs read by readChartRuns; forgets the zoom and any finer read.
    void setData(std::vector<ChartRunData> runs, const QString& metricKey);
    /// Runs a board file carries, with its options and zoom.
    void showDetached(std::vector<ChartRunData> runs, const QString& metricKey, const ChartOptions& options,
                      std::optional<LineRange> zoom);
    bool isDetached() const { return m_detached; }
    void clear();
    const std::vector<ChartRunData>& runs() const { return m_runs; }
    const std::vector<ChartLine>& lines() const { return m_lines; }
    QString metricKey() const { return m_key; }
    /// What the metric's values can physically be (its unit's range; unbounded for a script's own).
    ValueRange valueRange() const;
    /// The metric's unit symbol ("W", "%", "MiB"; "" for none or a ratio).
    QString unitSymbol() const;
    /// "DCGMI - Power Usage (W)": the y axis' title.
    QString yAxisTitle() const;

    // --- options ---
    const ChartOptions& options() const { return m_options; }
    /// Takes new options (smoothing clamped to 0..99; another x axis forgets the zoom). Returns
    /// whether the lines must be made again (false when only their style changed).
    bool setOptions(ChartOptions options);
    /// Makes the lines from the runs and options (after setOptions said so, or new colours).
    void rebuildLines();
    /// Where its lines' colours come from (a board shares one between its charts).
    void setLineColours(std::shared_ptr<LineColours> colours) { m_colours = std::move(colours); }
    /// The colour of line i: its run's or merged workload's palette slot (black when monochrome).
    QColor lineColour(size_t line) const;
    /// The keys its lines are coloured by: "run:<uuid>" for a run, "workload:<key>" for a merge.
    QStringList colourKeys() const;

    // --- lines ---
    int seriesCount() const { return int(m_lines.size()); }
    bool seriesVisible(int series) const;
    /// Lines drawn with a min–max band (Aggregate::MeanBand).
    bool hasBand(int series) const;
    /// Whether line i was drawn as its mean with the min–max range in the last frame.
    bool drawnAsRange(size_t i) const { return i < m_drawnAsRange.size() && m_drawnAsRange[i]; }

    // --- x: line units, axis units, zoom ---
    /// The x axis' title ("time since start (s)", "step", "wall clock", "epoch (from loss)").
    QString xAxisTitle() const;
    double lineUnitsPerAxisUnit() const;
    double toAxis(int64_t x) const { return double(x) / lineUnitsPerAxisUnit(); }
    int64_t fromAxis(double x) const;
    std::optional<LineRange> zoom() const { return m_zoom; }
    void setZoom(std::optional<LineRange> range) { m_zoom = range; }
    /// The lines' first and last x; nullopt without lines.
    std::optional<LineRange> dataRange() const;
    /// What a frame shows: the zoom, else every line's whole range (a lone point padded so it
    /// sits in the middle). Call with lines only.
    LineRange shownRange() const;
    /// The mouse wheel: `steps` notches (positive: in) around `axisX`. The zoom to apply
    /// (nullopt: everything again), or no change (the outer nullopt) for a range too narrow.
    std::optional<std::optional<LineRange>> wheelZoom(double axisX, double steps) const;

    // --- a frame ---
    /// Every line's points for [from, to] at `columns` pixel columns into `drawn` (one per line,
    /// its vectors reused from frame to frame): at most 2 a column, or a dense line's mean and
    /// range. Returns the visible lines' lowest and highest value (lowest > highest: none).
    std::pair<double, double> fetchLines(int64_t from, int64_t to, int columns, std::vector<PlotLine>& drawn);
    /// The line under chart point `at` (within `reach` px) given where the frame placed values;
    /// the nearest, and of lines the point is on the one drawn last; -1 for none.
    int lineAt(const QPointF& at, const PlotMapping& mapping, const std::vector<PlotLine>& drawn,
               double reach = 4) const;

    // --- live data (ChartEngineLive.cpp) ---
    /// Points of a run recorded in this process, straight from the live bus: the chart's metric
    /// among them is appended.
    ChartChange appendLive(const std::string& runUuid, const std::vector<MetricPoint>& points);
    /// The running runs and where their confirmed rows end; empty when nothing is followed.
    std::vector<LivePollQuery> livePollQueries() const;
    /// Rows read for `metricKey` (*anyChange: rows or a status changed).
    ChartChange applyLivePoll(const QString& metricKey, const std::vector<LivePollResult>& results,
                              bool* anyChange);

    // --- a zoom's finer read (ChartEngineDetail.cpp) ---
    /// Whether some run is held as an envelope (a settled zoom may read it finer).
    bool holdsReducedRuns() const;
    /// What a zoom into runs held as envelopes should read again, finer, at `columns`; nullopt
    /// when nothing. Each query is a new generation.
    std::optional<ChartDetailQuery> detailQuery(int columns);
    /// Splices what readChartDetail read into the runs; true when the lines must be made again
    /// (a query older than the newest, or from before the data changed, is ignored).
    bool applyDetail(const ChartDetailQuery& query, std::vector<ChartDetail> details);
    /// New data: what was read finer is gone, and a detail read under way lands nowhere.
    void forgetDetail();

private:
    /// Grows the line of m_runs[runIndex] by its points from `from` on, without a rebuild;
    /// false when the line cannot grow in place (merged with other runs, log y, out of order).
    bool extendLine(size_t runIndex, size_t from);
    size_t colourIndex(size_t line) const;
    QString colourKey(size_t line) const;

    std::shared_ptr<LineColours> m_colours; ///< palette slot per run / merged workload
    std::vector<ChartRunData> m_runs;
    std::vector<ChartLine> m_lines;
    ChartOptions m_options;
    QString m_key;
    std::optional<LineRange> m_zoom; ///< visible x range, when zoomed
    double m_msPerTimeUnit = 1000.0; ///< the time-since-start axis in s, min or h
    bool m_loading = false;
    bool m_detached = false;            ///< data from a board file, not the store
    SeriesPyramid::Envelope m_envelope; ///< scratch for dense lines, kept from frame to frame
    /// fetchLines' scratch per share of the lines, kept from frame to frame: fresh vectors of a
    /// 500-line frame's half a million points were zeroed pages, every frame.
    struct FetchShare {
        std::vector<int64_t> t;
        std::vector<double> v;
        double yMin = 0, yMax = 0;
    };
    std::vector<FetchShare> m_fetchShares;
    std::vector<bool> m_drawnAsRange; ///< per line: drawn as mean and range in the last frame
    uint64_t m_detailGeneration = 0;  ///< queries asked; setData and clear count too
    /// The x range last read finer: a pan or zoom within it, not much narrower, has its points.
    std::optional<LineRange> m_detailedRange;
};

} // namespace radt
