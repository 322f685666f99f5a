// SPDX-License-Identifier: MIT
#pragma once
// Exporting a whole board (issue: headless export): every chart drawn offscreen exactly as the
// explorer draws it, one file per chart and format, named "<NN>-<metric slug>.<ext>" in board
// order. Also what File > Export uses for the board.

#include "core/board/BoardFile.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace radt {

/// The size charts are laid out at when exported (the explorer's default chart size).
inline const QSize kExportChartSize(1200, 600);
class ChartPanel;

/// One format a chart exports to. File > Export, `--export --format`, its help and
/// the board export all read this table: a new format is one row here and its writer.
struct ExportFormat {
    QString extension; ///< "png": the --format name and the file's suffix
    QString menuLabel; ///< "Chart as &PNG..."
    bool raster;       ///< drawn in pixels: File > Export asks for a scale
    bool needsLines;   ///< a picture or the lines' rows: nothing to write for a chart that draws none
    /// Writes `chart` (laid out at kExportChartSize) to `path`; `chartId` names it in a board file,
    /// `scale` multiplies a raster's pixels, `progress(done, total)` may throw to abandon a long one.
    std::function<void(ChartPanel& chart, int64_t chartId, const QString& path, double scale,
                       const std::function<void(size_t done, size_t total)>& progress)>
        write;
};
const std::vector<ExportFormat>& exportFormats();
/// The row for `extension`, or nullptr: an unknown format is an error, never a CSV.
const ExportFormat* exportFormat(const QString& extension);
/// The extensions, in the order --format lists them by default.
QStringList boardExportFormats();

/// Writes every chart of `board` into `dir` (created when missing) in each of `formats` (png,
/// svg, pdf, csv, json); json writes a one-chart board in radT's format. Returns the files
/// written. Throws std::runtime_error naming the file on the first failure (files already
/// written stay; each one is complete). `progress(done, total)` after each file.
QStringList exportBoardFiles(const Board& board, const std::string& sourceName, const QString& dir,
                             const QStringList& formats, std::vector<BoardProblem>& problems,
                             const std::function<void(int done, int total)>& progress = {});

} // namespace radt
