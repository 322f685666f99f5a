#include "BoardExport.h"

#include "BoardIo.h"
#include "ChartExport.h"
#include "ChartPanel.h"

#include <QDir>
#include <QSaveFile>

#include <stdexcept>

namespace radt {

QStringList boardExportFormats() {
    // radT offered jpg, png, pdf, csv and json; svg is ours.
    return {QStringLiteral("png"), QStringLiteral("jpg"), QStringLiteral("svg"),
            QStringLiteral("pdf"), QStringLiteral("csv"), QStringLiteral("json")};
}

QStringList exportBoardFiles(const Board& board, const std::string& sourceName, const QString& dir,
                             const QStringList& formats, std::vector<BoardProblem>& problems,
                             const std::function<void(int done, int total)>& progress) {
    for (const QString& format : formats)
        if (!boardExportFormats().contains(format))
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
        for (const QString& format : formats) {
            const QString path = stem + QLatin1Char('.') + format;
            if (format == QLatin1String("png"))
                exportChartPng(panel, path, kExportChartSize, 1.0);
            else if (format == QLatin1String("jpg"))
                exportChartJpg(panel, path, kExportChartSize, 1.0);
            else if (format == QLatin1String("svg"))
                exportChartSvg(panel, path, kExportChartSize);
            else if (format == QLatin1String("pdf"))
                exportChartPdf(panel, path, kExportChartSize);
            else if (format == QLatin1String("csv"))
                exportChartCsv(panel, path);
            else {
                // The chart as the explorer holds it: a one-chart board radT opens too.
                Board one;
                one.charts.push_back(boardFromChart(panel, chart.id, {}));
                saveBoardFile(path.toStdString(), one);
            }
            written << path;
            if (progress)
                progress(written.size(), total);
        }
    }
    return written;
}

} // namespace radt
