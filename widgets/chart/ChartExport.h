// SPDX-License-Identifier: MIT
#pragma once
// Per chart exports a researcher shares: a crisp PNG at 1x to 4x, SVG and PDF as vector drawings
// (text stays text), a multi-page PDF of a board, and the chart's data as long-format CSV at full
// resolution. Every file is written through QSaveFile (temporary file + rename): a failed export
// leaves the old file, or none, never a part of one (resources/DESIGN.md §10).

#include <QSize>
#include <QString>

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace radt {

class ChartPanel;

/// An export failed and `path()` is untouched; what() is "cannot write <path>: <detail>".
class ExportError : public std::runtime_error {
public:
    ExportError(const QString& path, const QString& detail);
    const QString& path() const { return m_path; }
    const QString& detail() const { return m_detail; }

private:
    QString m_path;
    QString m_detail;
};

/// A PNG of the chart laid out at `size` and drawn at `scale` (1..4) times the pixels: an
/// 800x400 chart at scale 2 is 1600x800, with text and lines drawn at that resolution.
void exportChartPng(ChartPanel& chart, const QString& path, const QSize& size, double scale = 1.0);
/// The same picture as JPG (quality 92), as radT offered it.
void exportChartJpg(ChartPanel& chart, const QString& path, const QSize& size, double scale = 1.0);
/// An SVG of the chart laid out at `size` (its viewBox), titled by the metric.
void exportChartSvg(ChartPanel& chart, const QString& path, const QSize& size);
/// A one-page PDF the size of the chart laid out at `size`: text as text, lines as paths.
void exportChartPdf(ChartPanel& chart, const QString& path, const QSize& size);
/// One page per chart (non-null), each laid out at `size`; `progress(done, total)` after each page.
/// Throws ExportError when `charts` is empty.
void exportBoardPdf(const std::vector<ChartPanel*>& charts, const QString& path, const QSize& size,
                    const std::function<void(int done, int total)>& progress = {});

/// The CSV header exportChartCsv writes, without its line end.
extern const char* const kChartCsvHeader;
/// The chart's data in long format, one row per raw point (never the decimated ones) of every
/// visible line inside the chart's x range (its zoom, or everything), in line order then x order;
/// `smoothed` is the EMA value drawn; band_low, band_high and n are empty there. Then each drawn
/// mean line's rows: run_uuid empty, letter "mean", x in the column of the chart's axis, the mean
/// as value, its band's edges and the N of runs at that x. `progress(done, total)` every 65,536
/// rows and at the end;
/// an exception thrown from it abandons the export.
void exportChartCsv(const ChartPanel& chart, const QString& path,
                    const std::function<void(size_t done, size_t total)>& progress = {});

/// "<metric slug>.<ext>" ("DCGMI - Power Usage", "csv" -> "dcgmi-power-usage.csv").
QString suggestedFileName(const ChartPanel& chart, const QString& ext);

} // namespace radt
