// SPDX-License-Identifier: MIT
#pragma once
// The images a training script saves (loss curves, confusion matrices, sample predictions) as the
// run page shows them: PNG, JPEG, GIF and SVG decoded off the GUI thread into a QImage, after
// their header says how large they are: an image over kMaxImagePixels (a 30,000 x 30,000 PNG
// would take 3.6 GB decoded) or one that does not decode whole (a truncated JPEG, a broken PNG,
// SVG that is not) is refused with a sentence, never decoded into a freeze or an out-of-memory.

#include <QImage>
#include <QSize>
#include <QString>

namespace radt {

/// Decoding stops above this many pixels (at 4 bytes a pixel, 256 MB).
constexpr qint64 kMaxImagePixels = 64LL * 1000 * 1000;

/// Whether the viewer shows a file of this name as an image (by its extension, as a file manager).
bool isImageArtifact(const QString& fileName);

struct DecodedImage {
    QImage image;   ///< null when refused
    QSize size;     ///< the image's own size, from its header (an SVG's default size)
    QString format; ///< "PNG", "JPEG", "GIF", "SVG"
    qint64 bytes = 0;
    int frames = 1; ///< a GIF's frames (the first is shown)
    QString error;  ///< why it is not shown, naming the file; "" when shown
};

/// Decodes `path` whole (an SVG rendered at its size, at most 4,096 px on its longer side), or
/// refuses it. `maxPixels` is kMaxImagePixels but for tests. Safe on any thread.
DecodedImage decodeImageArtifact(const QString& path, qint64 maxPixels = kMaxImagePixels);

/// A thumbnail of `path` at most `edge` px on its longer side, read at that size where the format
/// allows (JPEG decodes scaled); refused as decodeImageArtifact refuses. Safe on any thread.
DecodedImage thumbnailOf(const QString& path, int edge, qint64 maxPixels = kMaxImagePixels);

} // namespace radt
