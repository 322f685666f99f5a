// SPDX-License-Identifier: MIT
#include "widgets/board/BoardExport.h"

#include "widgets/board/BoardIo.h"
#include "widgets/chart/ChartExport.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartLines.h"
#include "widgets/chart/engine/ChartOptionsJson.h"

#include <QDir>
#include <QObject>
#include <QSaveFile>

#include <stdexcept>

namespace radt {

namespace {

/// The chart's drawn mean lines, for the JSON export: each one's name, its runs, the
/// band and the x axis, and per x its mean, band edges and N. A board saved by the explorer leaves
/// them out (they are redrawn from the runs); radT ignores the key, the explorer keeps it as found.
nlohmann::json groupMeansOf(const ChartPanel& chart) {
    const ChartEngine& engine = chart.engine();
    const ChartOptions& options = engine.options();
    const nlohmann::json named = chartOptionsToJson(options, false);
    nlohmann::json out = nlohmann::json::array();
    for (const ChartLine& line : engine.lines()) {
        if (!line.isMeanLine() || options.hiddenSeries.count(line.name))
            continue;
        nlohmann::json runs = nlohmann::json::array(), points = nlohmann::json::array();
        for (const size_t r : line.runs)
            runs.push_back(engine.runs()[r].run.uuid);
        for (const BandRow& row : bandRows(engine.runs(), line.runs, options))
            points.push_back({row.x, row.mean, row.low, row.high, row.n});
        out.push_back({{"name", line.name.toStdString()},
                       {"runs", runs},
                       {"band", named.value("band", nlohmann::json())},
                       {"xAxis", named.value("xAxis", nlohmann::json())},
                       {"columns", {"x", "mean", "low", "high", "n"}},
                       {"points", points}});
    }
    return out;
}

} // namespace

const std::vector<ExportFormat>& exportFormats() {
    // radT offered jpg, png, pdf, csv and json; svg is ours.
    static const std::vector<ExportFormat> all = {
        {QStringLiteral("png"), QObject::tr("Chart as &PNG..."), true, true,
         [](ChartPanel& c, int64_t, const QString& path, double scale, const auto&) {
             exportChartPng(c, path, kExportChartSize, scale);
         }},
        {QStringLiteral("jpg"), QObject::tr("Chart as &JPG..."), true, true,
         [](ChartPanel& c, int64_t, const QString& path, double scale, const auto&) {
             exportChartJpg(c, path, kExportChartSize, scale);
         }},
        {QStringLiteral("svg"), QObject::tr("Chart as &SVG..."), false, true,
         [](ChartPanel& c, int64_t, const QString& path, double, const auto&) {
             exportChartSvg(c, path, kExportChartSize);
         }},
        {QStringLiteral("pdf"), QObject::tr("Chart as P&DF..."), false, true,
         [](ChartPanel& c, int64_t, const QString& path, double, const auto&) {
             exportChartPdf(c, path, kExportChartSize);
         }},
        {QStringLiteral("csv"), QObject::tr("Chart data as &CSV..."), false, true,
         [](ChartPanel& c, int64_t, const QString& path, double, const auto& progress) {
             exportChartCsv(c, path, progress);
         }},
        // The chart as the explorer holds it: a one-chart board radT opens too.
        {QStringLiteral("json"), QObject::tr("Chart as radT board (&JSON)..."), false, false,
         [](ChartPanel& c, int64_t id, const QString& path, double, const auto&) {
             Board one;
             one.charts.push_back(boardFromChart(c, id, {}));
             if (const nlohmann::json means = groupMeansOf(c); !means.empty())
                 one.charts.back().extra["groupMeans"] = means;
             saveBoardFile(path.toStdString(), one);
         }},
    };
    return all;
}

const ExportFormat* exportFormat(const QString& extension) {
    for (const ExportFormat& f : exportFormats())
        if (f.extension == extension)
            return &f;
    return nullptr;
}

QStringList boardExportFormats() {
    QStringList out;
    for (const ExportFormat& f : exportFormats())
        out << f.extension;
    return out;
}

QStringList exportBoardFiles(const Board& board, const std::string& sourceName, const QString& dir,
                             const QStringList& formats, std::vector<BoardProblem>& problems,
                             const std::function<void(int done, int total)>& progress) {
    for (const QString& format : formats)
        if (!exportFormat(format))
            throw std::runtime_error("unknown export format '" + format.toStdString() + "' (expected " +
                                     boardExportFormats().join(QLatin1Char(',')).toStdString() + ")");
    if (!QDir().mkpath(dir))
        throw std::runtime_error("cannot create the directory " + dir.toStdString());
    QStringList written;
    const int total = int(board.charts.size()) * formats.size();
    // One panel, reused: it lays each chart out at the export size, as the GUI's chart would be.
    ChartPanel panel;
    panel.resize(kExportChartSize);
    for (size_t i = 0; i < board.charts.size(); ++i) {
        const BoardChart& chart = board.charts[i];
        BoardChartView view = viewFromBoard(chart, int(i), sourceName, problems);
        panel.showDetached(std::move(view.runs), view.metric, view.options, view.zoom);
        const QString stem = QDir(dir).filePath(QStringLiteral("%1-%2")
                                                    .arg(i + 1, 2, 10, QLatin1Char('0'))
                                                    .arg(QString::fromStdString(metricSlug(chart.metric))));
        const QString nothing = whyNothingIsDrawn(panel.engine());
        for (const QString& format : formats) {
            const QString path = stem + QLatin1Char('.') + format;
            if (exportFormat(format)->needsLines && !nothing.isEmpty()) {
                // A picture of the message is not the chart: said, and the rest goes on.
                problems.push_back({int(i), sourceName + ": chart " + std::to_string(i + 1) + " (\"" +
                                                chart.metric + "\"): no " + format.toStdString() +
                                                " written, nothing is drawn: " + nothing.toStdString()});
                continue;
            }
            exportFormat(format)->write(panel, chart.id, path, 1.0, {});
            written << path;
            if (progress)
                progress(written.size(), total);
        }
    }
    return written;
}

} // namespace radt
