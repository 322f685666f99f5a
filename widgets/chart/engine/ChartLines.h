// SPDX-License-Identifier: MIT
#pragma once
// From the runs of a chart to the lines it draws (resources/DESIGN.md §9 series rules): runs of one workload
// merge into one line named by the workload unless the workload is shown run by run; a merged
// workload may instead be drawn as the mean of its runs with a min–max band. Smoothing runs here,
// on full-resolution data, before any decimation (resources/DESIGN.md §8).

#include "core/analysis/EpochInsight.h"
#include "core/base/Model.h"
#include "core/base/SeriesMath.h"
#include "core/board/BoardFile.h"

#include <QString>

#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace radt {

struct ChartOptions {
    /// Epoch: where each sample lies in training, from the run's stepped software metric
    /// (core/analysis/EpochInsight), in thousandths of an epoch; hardware metrics only.
    enum class XAxis { SinceStart, Step, WallClock, Epoch };
    /// Auto: radT's merge for runs collocated together (they ran at the same time), the mean with
    /// a band for runs that ran one after another (other batch sizes, repeats): never a zigzag.
    enum class Aggregate { Merge, MeanBand, Auto };
    /// Readable: the run's name, or the params that differ between the lines shown, with the
    /// experiment when the runs come from several. RadtIds: radT's names ("1-3", "1-3 0_A").
    enum class Naming { Readable, RadtIds };
    /// How a line with more than kDensePointsPerColumn points per pixel column of the plot is
    /// drawn, unless smoothed by the slider: Range, its mean per column with the min–max range
    /// lighter behind (peaks stay visible, the trend reads); Raw, each column's extremes joined.
    enum class Dense { Range, Raw };
    /// Which runs make one line: radT's rule (a workload's runs, unless shown run by
    /// run), every run its own line, the runs of one configuration (params less radT's bookkeeping
    /// and seed), or the runs that share the params in `groupParams`.
    enum class Grouping { Workload, None, Configuration, Params };
    /// The band around a mean of runs: the 95 % confidence interval of the mean (Student t over
    /// the runs at each x), the runs' standard deviation, or their minimum to maximum.
    enum class Band { Ci95, Sd, MinMax };
    int smoothing = 0; ///< radT's EMA slider, 0..99
    bool logY = false;
    bool monochrome = false; ///< black lines told apart by dash patterns
    double lineWidth = 1.0;
    XAxis xAxis = XAxis::SinceStart;
    /// How a workload's runs are drawn when they are not shown one by one: radT concatenates
    /// their points into one line; MeanBand draws their mean with a band from min to max.
    Aggregate aggregate = Aggregate::Auto;
    Naming naming = Naming::Readable;
    Dense dense = Dense::Range;
    Grouping grouping = Grouping::Workload;
    std::vector<std::string> groupParams; ///< Grouping::Params: the params that make a group
    /// Min to max by default: with the 3 to 5 seeds a benchmark repeats, it is the runs' own
    /// spread, never beyond their values or the metric's range, and needs no assumption (W&B's
    /// grouped runs default to it too); a 95 % CI of 3 runs is t(2) = 4.3 standard errors each
    /// way, a statement about N more than about the runs. The CI is one click away (Band menu).
    Band band = Band::MinMax;
    std::set<QString> shownRuns;    ///< workload keys ("<experiment>-<workload>") drawn run by run
    std::set<QString> hiddenSeries; ///< series names hidden through the legend
    /// Runs (uuids) drawn on their own beside their group's mean and band, in no N: a run judged
    /// against its configuration's history (the run page's "Overlay on its history").
    std::set<QString> apartRuns;
};

/// Past this many points per pixel column a line is dense (ChartOptions::Dense): four points a
/// pixel already draw as a solid vertical smear.
constexpr int kDensePointsPerColumn = 4;

/// A run of a chart with its points of the chart's metric.
struct ChartRunData {
    Run run;
    std::string experimentName; ///< "" when unknown (named by its id then)
    Series series;
    /// Trailing points of `series` that came over the live bus and the store has not yet
    /// confirmed: polling the store continues from before them and replaces them if they differ.
    size_t liveTail = 0;
    /// What a board file said about this run (its points moved into `series`), so saving the
    /// board again writes back radT's fields and unknown keys unchanged. Null for store runs.
    std::shared_ptr<const BoardRun> boardRun;
    /// When every step is the same (hardware samples all log step 0) `series.step` is left
    /// empty and this is the step: 8 bytes less per point held. Use stepAt() to read steps.
    bool stepsConstant = false;
    int64_t constantStep = 0;
    /// The run's epochs for the epoch x axis, and the software metric they come from; empty
    /// when the run logs no stepped software metric (or the chart's metric is one itself).
    std::vector<insight::EpochSpan> epochs;
    std::string epochKey;
    /// `series` is an envelope of the run's points (stored, RunEnvelopes.h, or reduced by the
    /// server), not every point: a zoom reads the visible range's points again.
    bool reduced = false;
    int64_t storedPoints = 0; ///< how many points the store holds, when reduced and known
};

/// The step of point i, whether the step column is kept or constant.
int64_t stepAt(const ChartRunData& run, size_t i);
/// Drops the step column when every step is the same.
void compactSteps(ChartRunData& run);
/// Adds a point at the end, keeping the step column compact while steps stay the same.
void appendPoint(ChartRunData& run, int64_t t, int64_t step, double v);
/// Keeps the first n points.
void truncatePoints(ChartRunData& run, size_t n);
/// The run's points with the step column written out (board files, exports).
Series fullSeries(const ChartRunData& run);

struct ChartLine {
    QString name;
    QString workloadKey;
    std::vector<size_t> runs; ///< indices into the chart's runs
    /// x: ms since the run's start, steps, or ms since the epoch (ChartOptions::XAxis); y smoothed.
    /// A single run drawn as recorded is a view on that run's arrays (SeriesPyramid::borrowing):
    /// whoever grows or replaces the run's series must rebind or rebuild before the next query.
    SeriesPyramid pyramid;
    /// The band of a mean line (ChartOptions::Band): per x bin its low and high edge.
    std::optional<SeriesPyramid> bandLow, bandHigh;
    /// A group of runs by configuration or params (named "batch-size=64 (N=4)"), not a workload.
    bool grouped = false;
    /// A mean line whose band overflowed a double (values near DBL_MAX): drawn and exported
    /// without its band, named so. A mean line is one with a band or with this.
    bool bandTooWide = false;
    /// A mean line: per x bin the least and greatest of its runs' values. The y axis fits these
    /// and the mean, never a band beyond them (a 95 % CI of two runs is 12.7 standard errors wide).
    std::optional<SeriesPyramid> valueLow, valueHigh;
    /// Where fewer than 3 runs have data, a 95 % CI band is not drawn (the mean alone).
    bool bandNarrowed = false;
    /// The band was cut at the metric's physical range somewhere (utilisation at 100 %, power at 0).
    bool bandClipped = false;
    bool isMeanLine() const { return bandLow.has_value() || bandTooWide; }
};

/// Whether points from `from` on can join a borrowing line (no infinities to leave out).
bool lineCanGrowInPlace(const ChartRunData& run, size_t from);
/// chartX of a point the axis cannot place: on the epoch axis, a sample outside every epoch.
constexpr int64_t kNoChartX = INT64_MIN;
/// A live point appended to a line without rebuilding it: x on the chart's axis for this run.
int64_t chartX(const ChartRunData& run, size_t index, ChartOptions::XAxis axis);

/// "<experiment>-<workload>", radT's workload id; runs without a workload get "run:<uuid>".
QString workloadKeyOf(const Run& run);
/// radT's legend name of a run shown on its own: "<workload id> <letter>", plus "(<first 5 of
/// the run id>)" when the letter is one character or missing; "<experiment> (<id5>)" without a
/// workload. Merged runs are named by their workload id alone.
QString seriesLabelOf(const Run& run);

/// The series rules alone: which runs make which line, and its name (ChartLine::name).
struct ChartLineGroup {
    QString name;
    QString workloadKey;
    bool merged; ///< a workload's runs merged (or banded), not one run on its own
    std::vector<size_t> runs;
    bool band = false;    ///< drawn as the mean of its runs with a band (ChartOptions::Band)
    bool grouped = false; ///< a group by configuration or params (ChartOptions::Grouping)
};
/// Whether the runs ran at the same time (collocated: every run overlaps the first one).
bool ranTogether(const std::vector<ChartRunData>& runs, const std::vector<size_t>& which);
std::vector<ChartLineGroup> groupChartRuns(const std::vector<ChartRunData>& runs,
                                           const ChartOptions& options);

/// A mean line's value at one x bin: the mean of the runs with data there, the band's edges and
/// how many runs that is. Bins where fewer than two runs have data are left out of a group of two
/// or more: a "mean" of one run would read as the group's.
struct BandRow {
    int64_t x;
    double mean, low, high;
    size_t n;
    double runsLow = 0, runsHigh = 0; ///< the least and greatest of the runs' values there
    bool clipped = false;             ///< the band was cut at the metric's physical range
};
/// The values a metric can physically take (MetricUnit's range): bands stay within it.
struct ValueRange {
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();
};
/// A 95 % CI band is drawn only where at least this many runs have data: with two, Student's t
/// is 12.7 and the band spans thousands of watts around a mean of 200.
constexpr size_t kFewestRunsForCi = 3;
/// The mean and band of the runs `members` at full resolution (each run smoothed on its own
/// first), in x order: what a band line draws and what exports write for it.
std::vector<BandRow> bandRows(const std::vector<ChartRunData>& runs, const std::vector<size_t>& members,
                              const ChartOptions& options, ValueRange range = {});

std::vector<ChartLine> buildChartLines(const std::vector<ChartRunData>& runs, const ChartOptions& options,
                                       ValueRange range = {});

/// A raw point of a line at full resolution: runs[run].series[index], at x on the chart's axis,
/// with the smoothed value drawn for it (radT's EMA over the merged line, or over its own run in a
/// mean-band line; equal to the value at smoothing 0).
struct ChartLineRow {
    size_t run;
    size_t index;
    int64_t x;
    double smoothed;
};
/// Per group of groupChartRuns that has points (the lines' order), every drawable point in x
/// order: what a CSV export writes (never the decimated points). Log y leaves out what it cannot draw.
std::vector<std::vector<ChartLineRow>> chartLineRows(const std::vector<ChartRunData>& runs,
                                                     const ChartOptions& options);

} // namespace radt
