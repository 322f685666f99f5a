// SPDX-License-Identifier: MIT
#pragma once
// The comparison views' exports, as the charts export (widgets/chart/ChartExport): PNG (at 1x to
// 4x), SVG and PDF (text stays text) of the view laid out at a size, and CSV with one row per
// run and a column per axis, its header carrying the unit. Written through QSaveFile: a failed
// export leaves the old file, or none (resources/DESIGN.md §10).

#include <QSize>
#include <QString>

#include <functional>
#include <stdexcept>

class QPainter;

namespace radt {

class ParallelEngine;

/// An export failed and the file is untouched; what() is "cannot write <path>: <detail>".
class CompareExportError : public std::runtime_error {
public:
    CompareExportError(const QString& path, const QString& detail);
};

/// Paints the view laid out at the size given.
using ComparePaint = std::function<void(QPainter&, const QSize&)>;

/// "png", "svg", "pdf" and "csv": what exportComparison writes.
QStringList compareExportFormats();
/// A picture of the view at `size`, by the path's extension: PNG at `scale` (1..4) times the
/// pixels, SVG, or a one-page PDF. Throws CompareExportError.
void exportComparePicture(const ComparePaint& paint, const QString& path, const QSize& size,
                          const QString& title, double scale = 1.0);
/// The header and rows exportCompareCsv writes: run_uuid, run, a column per axis ("Duration (s)",
/// "batch-size"; numbers raw in the header's unit, categories as their text, blank where the run
/// has none), and brushed (1 or 0).
QString compareCsv(const ParallelEngine& engine);
void exportCompareCsv(const ParallelEngine& engine, const QString& path);

} // namespace radt
