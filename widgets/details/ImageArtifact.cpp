// SPDX-License-Identifier: MIT
#include "widgets/details/ImageArtifact.h"

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QPainter>
#include <QSvgRenderer>

#include <algorithm>

namespace radt {

namespace {

constexpr int kSvgLongestSide = 4096;

QString megapixels(qint64 pixels) {
    return QString::number(double(pixels) / 1e6, 'f', pixels >= 10'000'000 ? 0 : 1);
}

/// A JPEG ends with its end-of-image marker (FF D9), perhaps followed by a few padding bytes; one
/// cut short does not, and Qt would show what it has with the rest grey, as if it were the image.
bool jpegEndsWhole(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() < 4)
        return false;
    const qint64 tail = std::min<qint64>(file.size(), 64);
    file.seek(file.size() - tail);
    return file.read(tail).contains(QByteArray("\xFF\xD9", 2));
}

bool isSvg(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("svg") || suffix == QLatin1String("svgz");
}

/// An SVG drawn into an image of `target` size.
DecodedImage renderSvg(const QString& path, const QString& name, int longestSide) {
    DecodedImage out;
    out.format = QStringLiteral("SVG");
    out.bytes = QFileInfo(path).size();
    QSvgRenderer renderer(path);
    if (!renderer.isValid()) {
        out.error = QObject::tr("%1 is not an SVG image that can be drawn (malformed or not SVG).").arg(name);
        return out;
    }
    out.size = renderer.defaultSize().isValid() && !renderer.defaultSize().isEmpty() ? renderer.defaultSize()
                                                                                     : QSize(800, 600);
    // Drawn at its own size up to the longest side: an SVG states any size it likes, cheaply.
    const QSize target = out.size.scaled(std::min(longestSide, std::max(out.size.width(), out.size.height())),
                                         std::min(longestSide, std::max(out.size.width(), out.size.height())),
                                         Qt::KeepAspectRatio);
    out.image = QImage(target.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    out.image.fill(Qt::transparent);
    QPainter painter(&out.image);
    renderer.render(&painter);
    return out;
}

/// The header read and checked; `reader` then decodes (at a scaled size if set). Empty error: go on.
DecodedImage checkRaster(QImageReader& reader, const QString& path, const QString& name, qint64 maxPixels) {
    DecodedImage out;
    out.bytes = QFileInfo(path).size();
    out.format = QString::fromLatin1(reader.format()).toUpper();
    if (!reader.canRead()) {
        out.error = QObject::tr("%1 is not a PNG, JPEG or GIF image that can be read: %2")
                        .arg(name, reader.errorString());
        return out;
    }
    out.format = QString::fromLatin1(reader.format()).toUpper();
    out.size = reader.size();
    if (!out.size.isValid() || out.size.isEmpty()) {
        out.error = QObject::tr("%1 does not say its size in its header: not shown.").arg(name);
        return out;
    }
    const qint64 pixels = qint64(out.size.width()) * out.size.height();
    if (pixels > maxPixels) {
        out.error =
            QObject::tr("%1 is %2 × %3 px (%4 megapixels, %5 GB decoded): more than the %6 megapixels "
                        "the run page decodes. Open it with the desktop's application.")
                .arg(name)
                .arg(out.size.width())
                .arg(out.size.height())
                .arg(megapixels(pixels))
                .arg(double(pixels) * 4 / 1e9, 0, 'f', 1)
                .arg(megapixels(maxPixels));
        return out;
    }
    if (out.format == QLatin1String("JPEG") && !jpegEndsWhole(path)) {
        out.error = QObject::tr("%1 is a JPEG cut short (it ends before its end-of-image marker): not shown, "
                                "as its missing part would show grey.")
                        .arg(name);
        return out;
    }
    out.frames = std::max(1, reader.imageCount());
    return out;
}

DecodedImage decode(const QString& path, qint64 maxPixels, int thumbnailEdge) {
    const QString name = QFileInfo(path).fileName();
    if (isSvg(path))
        return renderSvg(path, name, thumbnailEdge > 0 ? thumbnailEdge : kSvgLongestSide);
    QImageReader reader(path);
    reader.setDecideFormatFromContent(true); // a .png that is a JPEG is read as what it is
    reader.setAutoTransform(true);           // a camera's rotation, as a viewer shows it
    DecodedImage out = checkRaster(reader, path, name, maxPixels);
    if (!out.error.isEmpty())
        return out;
    if (thumbnailEdge > 0 && (out.size.width() > thumbnailEdge || out.size.height() > thumbnailEdge))
        reader.setScaledSize(out.size.scaled(thumbnailEdge, thumbnailEdge, Qt::KeepAspectRatio));
    if (!reader.read(&out.image) || out.image.isNull()) {
        out.image = QImage();
        out.error = QObject::tr("%1 does not decode whole (%2): not shown.").arg(name, reader.errorString());
    }
    return out;
}

} // namespace

bool isImageArtifact(const QString& fileName) {
    static const QStringList suffixes = {QStringLiteral("png"),  QStringLiteral("jpg"),
                                         QStringLiteral("jpeg"), QStringLiteral("gif"),
                                         QStringLiteral("svg"),  QStringLiteral("svgz")};
    return suffixes.contains(QFileInfo(fileName).suffix().toLower());
}

DecodedImage decodeImageArtifact(const QString& path, qint64 maxPixels) {
    return decode(path, maxPixels, 0);
}

DecodedImage thumbnailOf(const QString& path, int edge, qint64 maxPixels) {
    return decode(path, maxPixels, std::max(16, edge));
}

} // namespace radt
