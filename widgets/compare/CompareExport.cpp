// SPDX-License-Identifier: MIT
#include "widgets/compare/CompareExport.h"

#include "widgets/compare/ParallelEngine.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QStringList>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace radt {

namespace {

constexpr int kDpi = 96;

/// `bytes` to `path`, all or nothing.
void saveWhole(const QByteArray& bytes, const QString& path) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw CompareExportError(path, file.errorString());
    if (file.write(bytes) != bytes.size() || !file.flush() || file.size() != bytes.size())
        throw CompareExportError(path, file.errorString());
    if (!file.commit())
        throw CompareExportError(path, file.errorString());
}

QByteArray png(const ComparePaint& paint, const QSize& size, double scale, const QString& path) {
    scale = std::clamp(scale, 1.0, 4.0);
    QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        throw CompareExportError(path, QStringLiteral("a picture of that size does not fit in memory"));
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    paint(painter, size);
    painter.end();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        throw CompareExportError(path, QStringLiteral("the PNG could not be encoded"));
    return bytes;
}

QByteArray svg(const ComparePaint& paint, const QSize& size, const QString& title) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setResolution(kDpi);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("A comparison exported by radt-explorer"));
    QPainter painter(&generator);
    paint(painter, size);
    painter.end();
    return bytes;
}

QByteArray pdf(const ComparePaint& paint, const QSize& size, const QString& title, const QString& path) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setCreator(QStringLiteral("radt-explorer"));
    writer.setTitle(title);
    writer.setResolution(kDpi);
    const QSizeF points(size.width() * 72.0 / kDpi, size.height() * 72.0 / kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                     QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    QPainter painter;
    if (!painter.begin(&writer))
        throw CompareExportError(path, QStringLiteral("the PDF could not be started"));
    // The page is laid out at `size` in the writer's own units.
    painter.scale(writer.width() / double(size.width()), writer.height() / double(size.height()));
    paint(painter, size);
    painter.end();
    return bytes;
}

QString csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

CompareExportError::CompareExportError(const QString& path, const QString& detail)
    : std::runtime_error(QStringLiteral("cannot write %1: %2").arg(path, detail).toStdString()) {}

QStringList compareExportFormats() {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"), QStringLiteral("csv")};
}

void exportComparePicture(const ComparePaint& paint, const QString& path, const QSize& size,
                          const QString& title, double scale) {
    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
        throw CompareExportError(
            path, QStringLiteral("a size of %1x%2 cannot be drawn").arg(size.width()).arg(size.height()));
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png"))
        saveWhole(png(paint, size, scale, path), path);
    else if (ext == QLatin1String("svg"))
        saveWhole(svg(paint, size, title), path);
    else if (ext == QLatin1String("pdf"))
        saveWhole(pdf(paint, size, title, path), path);
    else
        throw CompareExportError(path,
                                 QStringLiteral("no picture format ends in .%1 (png, svg, pdf)").arg(ext));
}

QString compareCsv(const ParallelEngine& engine) {
    QStringList header{QStringLiteral("run_uuid"), QStringLiteral("run")};
    for (int axis = 0; axis < engine.axisCount(); ++axis)
        header << csvField(engine.axisColumn(axis).header());
    header << QStringLiteral("brushed");
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (size_t run = 0; run < engine.runCount(); ++run) {
        QStringList row{engine.table().runs[run].uuid, csvField(engine.table().runs[run].name)};
        for (int axis = 0; axis < engine.axisCount(); ++axis)
            row << csvField(engine.axisColumn(axis).csvCell(run));
        row << QString::number(engine.hasBrush() && engine.isSelected(run) ? 1 : 0);
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

void exportCompareCsv(const ParallelEngine& engine, const QString& path) {
    saveWhole(compareCsv(engine).toUtf8(), path);
}

} // namespace radt
