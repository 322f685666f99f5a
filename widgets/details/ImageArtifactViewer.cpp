// SPDX-License-Identifier: MIT
#include "widgets/details/ImageArtifactViewer.h"

#include "core/artifacts/ArtifactListing.h"
#include "widgets/common/FileReadPool.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPointer>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace radt {

namespace {

constexpr int kThumbnailEdge = 160;
constexpr double kMinZoom = 0.02, kMaxZoom = 16.0;

QString sizeText(qint64 bytes) {
    return QString::fromStdString(formatByteSize(uint64_t(std::max<qint64>(bytes, 0))));
}

} // namespace

ImageArtifactViewer::ImageArtifactViewer(QWidget* parent)
    : QWidget(parent), m_info(new QLabel(this)), m_pages(new QStackedWidget(this)),
      m_scroll(new QScrollArea(this)), m_canvas(new QLabel(this)), m_grid(new QListWidget(this)) {
    setObjectName(QStringLiteral("imageViewer"));
    m_info->setObjectName(QStringLiteral("imageInfo"));
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_canvas->setAlignment(Qt::AlignCenter);
    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(true);
    m_scroll->setAlignment(Qt::AlignCenter);
    m_scroll->viewport()->installEventFilter(this); // Ctrl+wheel zooms
    m_grid->setViewMode(QListView::IconMode);
    m_grid->setIconSize(QSize(kThumbnailEdge, kThumbnailEdge));
    m_grid->setGridSize(QSize(kThumbnailEdge + 24, kThumbnailEdge + 40));
    m_grid->setResizeMode(QListView::Adjust);
    m_grid->setMovement(QListView::Static);
    m_grid->setWordWrap(true);
    m_pages->addWidget(m_scroll);
    m_pages->addWidget(m_grid);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_info, 1);
    // Tool buttons and a label that may shrink: the file list beside keeps its width.
    m_info->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_info->setWordWrap(true);
    const auto button = [this, bar](const QString& text, const QString& tip, auto&& onClick) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, this, onClick);
        bar->addWidget(b);
    };
    button(tr("Fit"), tr("The whole image in the view"), [this] { setZoom(m_zoom, true); });
    button(tr("100 %"), tr("One image pixel a screen pixel"), [this] { setZoom(1.0, false); });
    button(tr("−"), tr("Zoom out (Ctrl+wheel)"), [this] { setZoom(m_zoom / 1.25, false); });
    button(tr("+"), tr("Zoom in (Ctrl+wheel)"), [this] { setZoom(m_zoom * 1.25, false); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_pages, 1);
    connect(m_grid, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit openRequested(item->data(Qt::UserRole).toString()); });
}

QString ImageArtifactViewer::infoText() const {
    return m_info->text();
}

void ImageArtifactViewer::showImage(const DecodedImage& image, const QString& name) {
    ++m_generation;
    m_image = image.image;
    m_caption =
        tr("%1: %2 × %3 px, %4, %5%6")
            .arg(name)
            .arg(image.size.width())
            .arg(image.size.height())
            .arg(image.format, sizeText(image.bytes))
            .arg(image.frames > 1 ? tr(", %1 frames (the first shown)").arg(image.frames) : QString());
    m_pages->setCurrentWidget(m_scroll);
    setZoom(1.0, true);
}

void ImageArtifactViewer::setZoom(double zoom, bool fit) {
    m_fit = fit;
    if (m_image.isNull())
        return;
    if (fit) { // the whole image in the view, never enlarged past its own size
        // The pages' size, not the scroll area's viewport: shown just now, it is not laid out yet.
        const int frame = 2 * m_scroll->frameWidth() + 4;
        const QSize room = m_pages->size() - QSize(frame, frame);
        zoom =
            std::min({1.0, double(room.width()) / m_image.width(), double(room.height()) / m_image.height()});
    }
    m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    render();
}

void ImageArtifactViewer::render() {
    // An SVG is drawn at its own size: its zoom is of the image it was drawn into.
    const QSize shown = (QSizeF(m_image.size()) * m_zoom).toSize().expandedTo(QSize(1, 1));
    m_canvas->setPixmap(QPixmap::fromImage(m_image.scaled(
        shown, Qt::KeepAspectRatio, m_zoom < 1 ? Qt::SmoothTransformation : Qt::FastTransformation)));
    m_canvas->setMinimumSize(m_fit ? QSize() : shown);
    m_info->setText(m_caption + tr(", shown at %1 %").arg(qRound(m_zoom * 100)));
}

void ImageArtifactViewer::showThumbnails(const QString& folder, const QStringList& relativePaths) {
    const quint64 generation = ++m_generation;
    m_image = QImage();
    m_grid->clear();
    m_pages->setCurrentWidget(m_grid);
    m_info->setText(tr("%1 images: double-click one to open it").arg(relativePaths.size()));
    m_pending = int(relativePaths.size());
    QPointer<ImageArtifactViewer> self(this);
    for (const QString& relative : relativePaths) {
        auto* item = new QListWidgetItem(QFileInfo(relative).fileName(), m_grid);
        item->setData(Qt::UserRole, relative);
        item->setToolTip(relative);
        item->setSizeHint(m_grid->gridSize());
        // Each thumbnail on the file read pool (an artifact folder may be a slow mount), placed
        // as it lands; a newer folder's grid drops it.
        QtConcurrent::run(fileReadPool(), [self, generation, item, path = QDir(folder).filePath(relative)] {
            const DecodedImage thumb = thumbnailOf(path, kThumbnailEdge);
            QMetaObject::invokeMethod(self, [self, generation, item, thumb] {
                if (!self || generation != self->m_generation)
                    return;
                --self->m_pending;
                if (thumb.image.isNull()) {
                    item->setText(item->text() + QStringLiteral("\n") + tr("(not shown)"));
                    item->setToolTip(thumb.error);
                    return;
                }
                item->setIcon(QIcon(QPixmap::fromImage(thumb.image)));
                item->setToolTip(tr("%1\n%2 × %3 px, %4")
                                     .arg(item->toolTip())
                                     .arg(thumb.size.width())
                                     .arg(thumb.size.height())
                                     .arg(thumb.format));
            });
        });
    }
}

bool ImageArtifactViewer::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_scroll->viewport() && event->type() == QEvent::Wheel &&
        (static_cast<QWheelEvent*>(event)->modifiers() & Qt::ControlModifier)) {
        const int steps = static_cast<QWheelEvent*>(event)->angleDelta().y() / 120;
        if (steps != 0)
            setZoom(m_zoom * std::pow(1.25, steps), false);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ImageArtifactViewer::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_fit)
        setZoom(m_zoom, true);
}

} // namespace radt
