// SPDX-License-Identifier: MIT
#include "widgets/chart/ChartExport.h"

#include "core/base/MetricUnits.h"
#include "core/base/TextFormat.h"
#include "core/board/BoardFile.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartLines.h"
#include "widgets/common/Formatting.h"

#include <QBuffer>
#include <QImage>
#include <QImageWriter>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QStringList>
#include <QSvgGenerator>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace radt {

ExportError::ExportError(const QString& path, const QString& detail)
    : std::runtime_error(QStringLiteral("cannot write %1: %2").arg(path, detail).toStdString()), m_path(path),
      m_detail(detail) {}

const char* const kChartCsvHeader = "series,run_uuid,workload,letter,metric,unit,timestamp,elapsed_ms,step,"
                                    "value,smoothed,band_low,band_high,n";

namespace {

// QSaveFile writes a temporary file beside `path` and renames it over `path` only on commit(); a
// QSaveFile destroyed without commit (an exception on the way) removes its temporary file.
void openForWriting(QSaveFile& file, const QString& path) {
    file.setFileName(path);
    if (!file.open(QIODevice::WriteOnly))
        throw ExportError(path, file.errorString());
}

/// The file's error in words; Qt leaves some write errors as "Unknown error" (a refused write
/// into a full file system among them).
QString fileError(const QFileDevice& file) {
    QString text = file.errorString();
    if (text.isEmpty() || text == QLatin1String("Unknown error"))
        return file.error() == QFileDevice::WriteError || file.error() == QFileDevice::ResourceError
                   ? QStringLiteral("the file could not be written (is the disk full?)")
                   : QStringLiteral("the file could not be written");
    return text;
}

void commit(QSaveFile& file, const QString& path) {
    // QSaveFile remembers a failed write() and then refuses to commit, but not a failed flush of
    // its last buffered block inside commit() (Qt 5): on a nearly full disk it renamed a truncated
    // SVG into place. So flush here, and check that the temporary file holds every byte written,
    // before commit() syncs and renames. A QSaveFile left uncommitted removes its temporary file.
    const qint64 written = file.pos();
    if (file.error() != QFileDevice::NoError)
        throw ExportError(path, fileError(file));
    if (!file.flush())
        throw ExportError(path, fileError(file));
    const qint64 onDisk = file.size();
    if (onDisk != written)
        throw ExportError(path, QStringLiteral("only %1 of its %2 bytes could be written (is the disk full?)")
                                    .arg(onDisk)
                                    .arg(written));
    if (!file.commit())
        throw ExportError(path, fileError(file));
}

/// Writes a document made in memory (the SVG and PDF generators and the image writers ignore a
/// short write: a full disk left a truncated file) to `path` through a QSaveFile, all or nothing.
void saveWhole(const QByteArray& bytes, const QString& path) {
    QSaveFile file;
    openForWriting(file, path);
    const qint64 written = file.write(bytes);
    if (written != bytes.size())
        throw ExportError(path,
                          written < 0 || file.error() != QFileDevice::NoError
                              ? fileError(file)
                              : QStringLiteral("only %1 of its %2 bytes could be written (is the disk full?)")
                                    .arg(written)
                                    .arg(bytes.size()));
    commit(file, path);
}

void checkSize(const QSize& size, const QString& path) {
    if (size.width() < 1 || size.height() < 1 || size.width() > 20000 || size.height() > 20000)
        throw ExportError(path, QStringLiteral("the chart size %1x%2 is not between 1x1 and 20000x20000")
                                    .arg(size.width())
                                    .arg(size.height()));
}

// The chart lays its text out with the screen's font metrics; a paint device of another
// resolution would resolve point-size fonts to other pixel sizes and text would not fit its
// layout. Vector devices therefore get the widget's resolution, and their page is sized to match.
int layoutDpi(const ChartPanel& chart) {
    const int dpi = chart.logicalDpiY();
    return dpi > 0 ? dpi : 96;
}

// --- PDF ---

void setPdfPage(QPdfWriter& writer, const QSize& size, int dpi) {
    writer.setResolution(dpi);
    const QSizeF points(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi);
    writer.setPageLayout(QPageLayout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                     QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
}

// The whole page in device units: QPageSize rounds to whole points, so the chart is fitted to the
// page actually made rather than to `size`.
QRectF pdfTarget(const QPdfWriter& writer) {
    return QRectF(0, 0, writer.width(), writer.height());
}

void writePdf(const std::vector<ChartPanel*>& charts, const QString& path, const QSize& size,
              const QString& title, const std::function<void(int, int)>& progress) {
    checkSize(size, path);
    if (charts.empty())
        throw ExportError(path, QStringLiteral("there is no chart to export"));
    QBuffer buffer; // declared first: destroyed last, after the painter and writer let go of it
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setCreator(QStringLiteral("radt-explorer"));
    writer.setTitle(title);
    setPdfPage(writer, size, layoutDpi(*charts.front()));
    QPainter painter;
    if (!painter.begin(&writer))
        throw ExportError(path, QStringLiteral("the PDF could not be started"));
    const int total = int(charts.size());
    for (int i = 0; i < total; ++i) {
        if (i > 0 && !writer.newPage())
            throw ExportError(path, QStringLiteral("page %1 could not be started").arg(i + 1));
        charts[size_t(i)]->render(painter, size, pdfTarget(writer));
        if (progress)
            progress(i + 1, total);
    }
    if (!painter.end())
        throw ExportError(path, QStringLiteral("the PDF could not be finished"));
    saveWhole(buffer.data(), path);
}

// --- CSV ---

std::string csvField(const QString& text) {
    return radt::csvField(text.toStdString());
}

void appendInt(std::string& out, int64_t value) {
    char buf[24];
    auto* const end = std::to_chars(buf, buf + sizeof buf, value).ptr;
    out.append(buf, end);
}

// Shortest text that reads back as the same double: full precision, and 10 rather than 10.0.
void appendDouble(std::string& out, double value) {
    if (!std::isfinite(value))
        return; // an empty cell: "inf" and "nan" are no number a reader takes (a band too wide to draw)
    char buf[32];
    auto* const end = std::to_chars(buf, buf + sizeof buf, value).ptr;
    out.append(buf, end);
}

// The quoted fields of one run, computed once instead of once per row.
struct RunFields {
    std::string prefix; ///< "run_uuid,workload,letter,metric,"
    int64_t origin = 0;
};

} // namespace

namespace {
void exportChartRaster(ChartPanel& chart, const QString& path, const QSize& size, double scale,
                       const char* format);
} // namespace

void exportChartPng(ChartPanel& chart, const QString& path, const QSize& size, double scale) {
    exportChartRaster(chart, path, size, scale, "png");
}

void exportChartJpg(ChartPanel& chart, const QString& path, const QSize& size, double scale) {
    exportChartRaster(chart, path, size, scale, "jpg");
}

namespace {
void exportChartRaster(ChartPanel& chart, const QString& path, const QSize& size, double scale,
                       const char* format) {
    checkSize(size, path);
    if (!(scale >= 1.0 && scale <= 4.0))
        throw ExportError(path, QStringLiteral("the scale %1 is not between 1 and 4").arg(scale));
    const QSize pixels(qRound(size.width() * scale), qRound(size.height() * scale));
    QImage image(pixels, QImage::Format_RGB32); // opaque: the PNG needs no alpha channel
    if (image.isNull())
        throw ExportError(
            path, QStringLiteral("no memory for a %1x%2 image").arg(pixels.width()).arg(pixels.height()));
    // The image keeps the layout's resolution while it is drawn (fonts resolve as on screen);
    // the painter's scale, not a bigger layout, makes it sharper: text and lines are drawn at the
    // final resolution, not upscaled.
    const int dpm = qRound(layoutDpi(chart) / 0.0254);
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.scale(scale, scale);
        chart.render(painter, size);
    }
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    // JPG at 92: lines and text stay crisp. Not for PNG: Qt maps a PNG "quality" of 92 to zlib level
    // 0, which stored every 1200x600 chart as 2.1 MB of raw pixels; -1 is zlib's default level.
    writer.setQuality(std::strcmp(format, "jpg") == 0 ? 92 : -1);
    if (!writer.write(image))
        throw ExportError(path, writer.errorString());
    saveWhole(buffer.data(), path);
}
} // namespace

void exportChartSvg(ChartPanel& chart, const QString& path, const QSize& size) {
    checkSize(size, path);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setResolution(layoutDpi(chart));
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(chart.engine().metricKey());
        svg.setDescription(QStringLiteral("A chart exported by radt-explorer"));
        QPainter painter;
        if (!painter.begin(&svg))
            throw ExportError(path, QStringLiteral("the SVG could not be started"));
        chart.render(painter, size);
        // The generator writes the document's closing tags when the painter ends.
        if (!painter.end())
            throw ExportError(path, QStringLiteral("the SVG could not be finished"));
    }
    saveWhole(buffer.data(), path);
}

void exportChartPdf(ChartPanel& chart, const QString& path, const QSize& size) {
    writePdf({&chart}, path, size, chart.engine().metricKey(), {});
}

void exportBoardPdf(const std::vector<ChartPanel*>& charts, const QString& path, const QSize& size,
                    const std::function<void(int, int)>& progress) {
    for (const ChartPanel* chart : charts)
        if (!chart)
            throw ExportError(path, QStringLiteral("a chart of the board is missing"));
    QStringList metrics;
    for (const ChartPanel* chart : charts)
        metrics << chart->engine().metricKey();
    writePdf(charts, path, size, metrics.join(QStringLiteral(", ")), progress);
}

namespace {

/// Each drawn mean line's rows after the runs' own points: run_uuid empty, letter
/// "mean", x in the column of the chart's axis (timestamp, elapsed_ms or step; none on the epoch
/// axis), value and smoothed the mean, then the band's edges (ChartOptions::Band) and N, the runs
/// with data at that x.
void appendBandRows(const ChartPanel& chart, const std::string& metric, std::string& block) {
    const ChartEngine& engine = chart.engine();
    const ChartOptions& options = engine.options();
    const auto range = engine.zoom();
    for (const ChartLine& line : engine.lines()) {
        if (!line.isMeanLine() || options.hiddenSeries.count(line.name))
            continue;
        const std::string prefix = csvField(line.name) + ",,," + "mean," + metric + ',';
        for (const BandRow& row : bandRows(engine.runs(), line.runs, options, engine.valueRange())) {
            if (range && (row.x < range->first || row.x > range->second))
                continue;
            block += prefix;
            if (options.xAxis == ChartOptions::XAxis::WallClock)
                appendInt(block, row.x);
            block += ',';
            if (options.xAxis == ChartOptions::XAxis::SinceStart)
                appendInt(block, row.x);
            block += ',';
            if (options.xAxis == ChartOptions::XAxis::Step)
                appendInt(block, row.x);
            for (const double v : {row.mean, row.mean, row.low, row.high}) {
                block += ',';
                appendDouble(block, v);
            }
            block += ',';
            appendInt(block, int64_t(row.n));
            block += '\n';
        }
    }
}

} // namespace

void exportChartCsv(const ChartPanel& chart, const QString& path,
                    const std::function<void(size_t, size_t)>& progress) {
    const std::vector<ChartRunData>& runs = chart.engine().runs();
    const ChartOptions& options = chart.engine().options();
    // chartLineRows leaves out groups with nothing to draw, so its lines are named through their
    // runs: every run belongs to exactly one group of groupChartRuns.
    const std::vector<std::vector<ChartLineRow>> lines = chartLineRows(runs, options);
    std::vector<QString> groupOfRun(runs.size());
    for (const ChartLineGroup& group : groupChartRuns(runs, options))
        for (size_t r : group.runs)
            groupOfRun[r] = group.name;

    // Each visible line's rows inside the x range: a contiguous slice, the rows being in x order.
    struct Slice {
        std::string series; ///< the line's name as a CSV field, with its trailing comma
        const ChartLineRow* begin;
        const ChartLineRow* end;
    };
    const auto range = chart.engine().zoom();
    std::vector<Slice> slices;
    size_t total = 0;
    for (const std::vector<ChartLineRow>& rows : lines) {
        const QString& name = groupOfRun[rows.front().run];
        if (options.hiddenSeries.count(name))
            continue;
        const ChartLineRow* begin = rows.data();
        const ChartLineRow* end = rows.data() + rows.size();
        if (range) {
            begin = std::lower_bound(begin, end, range->first,
                                     [](const ChartLineRow& row, int64_t x) { return row.x < x; });
            end = std::upper_bound(begin, end, range->second,
                                   [](int64_t x, const ChartLineRow& row) { return x < row.x; });
        }
        if (begin == end)
            continue;
        slices.push_back({csvField(name) + ',', begin, end});
        total += size_t(end - begin);
    }

    // The metric and its unit ("W"; empty for a script's own metric, never a guess), as two fields.
    const std::string key = chart.engine().metricKey().toStdString();
    const std::optional<MetricUnit> unit = unitOfKey(key);
    const std::string metric = csvField(key) + ',' + csvField(unit ? unit->symbol : std::string());
    std::vector<RunFields> fields(runs.size());
    for (size_t r = 0; r < runs.size(); ++r) {
        const ChartRunData& data = runs[r];
        if (data.series.empty())
            continue; // no rows; a running run may have no point yet
        fields[r].prefix = csvField(data.run.uuid) + ',' + csvField(data.run.workload()) + ',' +
                           csvField(data.run.letter()) + ',' + metric + ',';
        // The origin chartX measures "since start" from.
        fields[r].origin = data.run.startTime > 0 ? data.run.startTime : data.series.t.front();
    }

    QSaveFile file;
    openForWriting(file, path);
    // Rows go out in blocks of about 1 MiB: an 8M-row export never sits in memory as one string.
    constexpr size_t kBlock = size_t(1) << 20;
    constexpr size_t kProgressEvery = 65536;
    std::string block;
    block.reserve(kBlock + 4096);
    auto flush = [&] {
        if (!block.empty() && file.write(block.data(), qint64(block.size())) != qint64(block.size()))
            throw ExportError(path, fileError(file));
        block.clear();
    };
    block += kChartCsvHeader;
    block += '\n';
    size_t done = 0;
    for (const Slice& slice : slices) {
        for (const ChartLineRow* row = slice.begin; row != slice.end; ++row) {
            const RunFields& f = fields[row->run];
            const Series& s = runs[row->run].series;
            block += slice.series;
            block += f.prefix;
            appendInt(block, s.t[row->index]);
            block += ',';
            appendInt(block, saturatingDifference(s.t[row->index], f.origin));
            block += ',';
            appendInt(block, stepAt(runs[row->run], row->index));
            block += ',';
            appendDouble(block, s.v[row->index]);
            block += ',';
            appendDouble(block, row->smoothed);
            block += ",,,\n"; // a run's own point: no band, no N
            if (block.size() >= kBlock)
                flush();
            if (++done % kProgressEvery == 0 && progress && done < total)
                progress(done, total);
        }
    }
    appendBandRows(chart, metric, block);
    flush();
    // Reported before the rename, so a caller that cancels here still leaves no file.
    if (progress)
        progress(total, total);
    commit(file, path);
}

QString suggestedFileName(const ChartPanel& chart, const QString& ext) {
    const QString suffix = ext.startsWith(QLatin1Char('.')) ? ext.mid(1) : ext;
    return toQString(metricSlug(chart.engine().metricKey().toStdString())) + QLatin1Char('.') + suffix;
}

} // namespace radt
