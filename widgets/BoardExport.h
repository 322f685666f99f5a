#pragma once
// Exporting a whole board (issue: headless export): every chart drawn offscreen exactly as the
// explorer draws it, one file per chart and format, named "<NN>-<metric slug>.<ext>" in board
// order. Also what File > Export uses for the board.

#include "BoardFile.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>

namespace radt {

/// The size charts are laid out at when exported (the explorer's default chart size).
inline const QSize kExportChartSize(1200, 600);
/// Formats a board exports to, in the order --format lists them by default.
QStringList boardExportFormats();

/// Writes every chart of `board` into `dir` (created when missing) in each of `formats` (png,
/// svg, pdf, csv, json); json writes a one-chart board in radT's format. Returns the files
/// written. Throws std::runtime_error naming the file on the first failure (files already
/// written stay; each one is complete). `progress(done, total)` after each file.
QStringList exportBoardFiles(const Board& board, const std::string& sourceName, const QString& dir,
                             const QStringList& formats, std::vector<BoardProblem>& problems,
                             const std::function<void(int done, int total)>& progress = {});

} // namespace radt
