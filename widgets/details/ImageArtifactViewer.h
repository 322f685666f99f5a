// SPDX-License-Identifier: MIT
#pragma once
// An image artifact in the run page: scaled to fit, zoomed with its buttons or Ctrl+wheel, its
// size, format and bytes said above it; or a folder's images as a grid of thumbnails, each made off
// the GUI thread as it comes (ImageArtifact decodes and refuses; an image refused is a tile that
// says why).

#include "widgets/details/ImageArtifact.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;
class QScrollArea;
class QStackedWidget;

namespace radt {

class ImageArtifactViewer : public QWidget {
    Q_OBJECT
public:
    explicit ImageArtifactViewer(QWidget* parent = nullptr);

    /// Shows a decoded image, fitted to the view.
    void showImage(const DecodedImage& image, const QString& name);
    /// A grid of thumbnails of `relativePaths` under `folder`, made on the file read pool.
    void showThumbnails(const QString& folder, const QStringList& relativePaths);
    /// 1.0 is one image pixel a screen pixel.
    double zoom() const { return m_zoom; }
    bool fitted() const { return m_fit; }
    /// What the line above the image says ("loss.png: 1200 × 800 px, PNG, 45.1 KB, shown at 52 %").
    QString infoText() const;
    QListWidget* thumbnails() const { return m_grid; }
    /// Thumbnails still being made.
    int pendingThumbnails() const { return m_pending; }

signals:
    /// A thumbnail was activated: the file to open.
    void openRequested(const QString& relativePath);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void setZoom(double zoom, bool fit);
    void render();

    QLabel* m_info;
    QStackedWidget* m_pages;
    QScrollArea* m_scroll;
    QLabel* m_canvas;
    QListWidget* m_grid;
    QImage m_image;
    QString m_caption;
    double m_zoom = 1.0;
    bool m_fit = true;
    int m_pending = 0;
    quint64 m_generation = 0; ///< thumbnails of an earlier folder land nowhere
};

} // namespace radt
