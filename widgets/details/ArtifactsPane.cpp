// SPDX-License-Identifier: MIT
#include "widgets/details/ArtifactsPane.h"

#include "core/artifacts/ArtifactListing.h"
#include "core/artifacts/TextPager.h"
#include "core/base/Utf8.h"
#include "widgets/common/FileReadPool.h"
#include "widgets/details/ImageArtifactViewer.h"
#include "widgets/details/TextArtifactViewer.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace radt {

namespace {

enum Page { ViewerPage, MessagePage, ImagePage };

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

/// A name from the folder as it may be shown: its hidden characters escaped ("\u202e").
QString shown(const std::string& text) {
    return QString::fromStdString(escapedForDisplay(text));
}

constexpr int kTypeRole = Qt::UserRole + 1;    ///< ArtifactEntryType
constexpr int kLeavesRole = Qt::UserRole + 2;  ///< a link out of the run's folder
constexpr int kTargetRole = Qt::UserRole + 3;  ///< a link's target
constexpr int kGalleryRole = Qt::UserRole + 4; ///< a folder's images (QStringList): its thumbnails

/// A file the desktop's opener would run rather than show: executable, or of a type that runs.
bool runsWhenOpened(const QFileInfo& file) {
    static const QStringList kRunnable = {
        QStringLiteral("desktop"), QStringLiteral("sh"),  QStringLiteral("bash"),     QStringLiteral("py"),
        QStringLiteral("pl"),      QStringLiteral("rb"),  QStringLiteral("appimage"), QStringLiteral("run"),
        QStringLiteral("bin"),     QStringLiteral("jar"), QStringLiteral("exe"),      QStringLiteral("bat"),
        QStringLiteral("cmd"),     QStringLiteral("msi"), QStringLiteral("deb"),      QStringLiteral("rpm"),
        QStringLiteral("command"), QStringLiteral("js"),  QStringLiteral("vbs"),      QStringLiteral("ps1")};
    return file.isExecutable() || kRunnable.contains(file.suffix().toLower());
}

/// A file opened off the GUI thread: what it is, and for text the pager with its first page indexed.
struct OpenedFile {
    ArtifactKind kind = ArtifactKind::Unreadable;
    std::string error;
    std::shared_ptr<TextPager> pager;
};

OpenedFile openFile(const std::string& path) {
    OpenedFile opened;
    opened.kind = classifyArtifact(path, &opened.error);
    if (opened.kind != ArtifactKind::Text)
        return opened;
    try {
        opened.pager = std::make_shared<TextPager>(path);
        opened.pager->indexMore(1 << 20); // the first page, here too
    } catch (const std::exception& e) {
        opened.kind = ArtifactKind::Unreadable;
        opened.error = e.what();
    }
    return opened;
}

} // namespace

ArtifactsPane::ArtifactsPane(QWidget* parent)
    : QWidget(parent), m_split(new QSplitter(Qt::Horizontal, this)), m_location(new QLabel(this)),
      m_files(new QTreeWidget(this)), m_stack(new QStackedWidget(this)),
      m_viewer(new TextArtifactViewer(this)), m_images(new ImageArtifactViewer(this)),
      m_message(new QLabel(this)), m_external(new QPushButton(tr("Open with Default Application"), this)),
      m_follow(new QPushButton(tr("Show Link Target"), this)) {
    m_location->setObjectName(QStringLiteral("artifactLocation"));
    m_location->setWordWrap(true);
    m_location->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_files->setObjectName(QStringLiteral("artifactFiles"));
    m_files->setHeaderLabels({tr("File"), tr("Size")});
    m_files->setRootIsDecorated(false);
    m_files->setUniformRowHeights(true);
    m_files->setContextMenuPolicy(Qt::CustomContextMenu);
    m_files->header()->setStretchLastSection(false);
    m_files->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_files->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_message->setObjectName(QStringLiteral("artifactMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_external->setToolTip(tr("Open the file with the application the desktop uses for its type"));
    m_follow->setObjectName(QStringLiteral("artifactFollowLink"));
    m_askFirst = [this](const QString& question) {
        return QMessageBox::question(this, tr("Open with Default Application"), question,
                                     QMessageBox::Open | QMessageBox::Cancel,
                                     QMessageBox::Cancel) == QMessageBox::Open;
    };

    auto* messagePage = new QWidget(this);
    auto* messageLayout = new QVBoxLayout(messagePage);
    messageLayout->addStretch(1);
    messageLayout->addWidget(m_message);
    messageLayout->addWidget(m_external, 0, Qt::AlignHCenter);
    messageLayout->addWidget(m_follow, 0, Qt::AlignHCenter);
    messageLayout->addStretch(1);
    m_stack->addWidget(m_viewer);    // ViewerPage
    m_stack->addWidget(messagePage); // MessagePage
    m_stack->addWidget(m_images);    // ImagePage
    connect(m_images, &ImageArtifactViewer::openRequested, this,
            [this](const QString& relativePath) { openArtifact(relativePath); });

    m_split->addWidget(m_files);
    m_split->addWidget(m_stack);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);
    m_split->setSizes({170, 700}); // the log gets the width: a line of it is read across
    m_split->setChildrenCollapsible(false);
    auto* reload = new QToolButton(this);
    reload->setText(tr("Reload"));
    reload->setToolTip(tr("List the artifacts again and reopen the file shown (a running run's log grows)"));
    auto* top = new QHBoxLayout;
    top->addWidget(m_location, 1);
    top->addWidget(reload, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_split, 1);
    connect(reload, &QToolButton::clicked, this, &ArtifactsPane::reload);

    connect(m_files, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* item) { openItem(item); });
    connect(m_files, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { openItem(item); });
    connect(m_files, &QWidget::customContextMenuRequested, this, &ArtifactsPane::showFileMenu);
    connect(m_external, &QPushButton::clicked, this, &ArtifactsPane::openExternally);
    connect(m_follow, &QPushButton::clicked, this, &ArtifactsPane::followLink);
    connect(m_viewer, &TextArtifactViewer::changedOnDisk, this, &ArtifactsPane::fileChangedOnDisk);
    clear(tr("No run chosen."));
}

void ArtifactsPane::clear(const QString& message) {
    m_lister = nullptr; // what is still being listed or opened lands nowhere
    m_opener = nullptr;
    m_folder.clear();
    m_current.clear();
    const QSignalBlocker blocker(m_files);
    m_files->clear();
    m_viewer->closeFile();
    setLocation(message, false);
    showMessage(message, false);
}

void ArtifactsPane::reload() {
    const QString shown = m_current;
    const std::string uri = m_uri;
    const ArtifactContext context = m_context;
    showArtifacts(uri, context);
    m_reopen = shown;
}

void ArtifactsPane::showArtifacts(const std::string& artifactUri, const ArtifactContext& context) {
    m_uri = artifactUri;
    m_context = context;
    const ArtifactPlace place = locateArtifacts(artifactUri, context);
    if (place.reach != ArtifactReach::Local) {
        clear(fromStd(place.reason));
        setLocation(fromStd(place.reason), true);
        return;
    }
    clear(QString());
    m_folder = fromStd(place.path);
    m_reopen.clear();
    const QString listing = tr("Listing %1…").arg(m_folder);
    setLocation(listing, false);
    showMessage(listing, false);
    auto* watcher = new QFutureWatcher<ArtifactListing>(this);
    m_lister = watcher;
    connect(watcher, &QFutureWatcher<ArtifactListing>::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (m_lister != watcher)
            return; // another run's, or cleared meanwhile
        m_lister = nullptr;
        showListing(watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run(fileReadPool(), [path = place.path] { return listArtifacts(path); }));
}

void ArtifactsPane::showListing(const ArtifactListing& listing) {
    uint64_t total = 0;
    QTreeWidgetItem* log = nullptr;
    for (const ArtifactFile& file : listing.files) {
        // What it is, said in the list: a pipe or a device is never opened, a link shows its
        // target, and one that leaves the run's folder is marked.
        QString name = shown(file.relativePath);
        const QString type = fromStd(artifactTypeText(file.type));
        if (!file.linkTarget.empty())
            name += QStringLiteral(" → ") + shown(file.linkTarget);
        if (file.leavesFolder) // first, so that a narrow column still shows it
            name = QStringLiteral("⚠ ") + name;
        else if (!type.isEmpty() && file.linkTarget.empty())
            name += QStringLiteral("  (%1)").arg(type);
        auto* item = new QTreeWidgetItem(
            m_files,
            {name, file.type == ArtifactEntryType::File ? fromStd(formatByteSize(file.size)) : QString()});
        item->setData(0, Qt::UserRole, fromStd(file.relativePath));
        item->setData(0, kTypeRole, int(file.type));
        item->setData(0, kLeavesRole, file.leavesFolder);
        item->setData(0, kTargetRole, fromStd(file.linkTarget));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(
            0, QDir(m_folder).filePath(shown(file.relativePath)) +
                   (type.isEmpty() ? QString() : QStringLiteral("\n") + type) +
                   (file.leavesFolder ? QStringLiteral("\n") + tr("⚠ outside the run's folder") : QString()) +
                   (file.linkTarget.empty() ? QString() : QStringLiteral(" → ") + shown(file.linkTarget)));
        if (file.linkTarget.empty())
            total += file.size; // a link's target is elsewhere (maybe outside the folder): not counted
        if (file.relativePath == "output.log")
            log = item;
    }
    // A folder with two images or more gets a gallery entry first: its images as thumbnails.
    std::map<QString, QStringList> imagesByFolder;
    for (const ArtifactFile& file : listing.files)
        if (file.type == ArtifactEntryType::File && !file.leavesFolder &&
            isImageArtifact(fromStd(file.relativePath)))
            imagesByFolder[QFileInfo(fromStd(file.relativePath)).path()] << fromStd(file.relativePath);
    int galleries = 0;
    for (const auto& [folder, images] : imagesByFolder) {
        if (images.size() < 2)
            continue;
        auto* gallery = new QTreeWidgetItem(
            {tr("▦ %1: %2 images")
                 .arg(folder == QLatin1String(".") ? tr("images") : folder + QLatin1Char('/'))
                 .arg(images.size()),
             QString()});
        gallery->setData(0, kGalleryRole, images);
        gallery->setToolTip(
            0, tr("The images of %1 as thumbnails").arg(folder == QLatin1String(".") ? m_folder : folder));
        m_files->insertTopLevelItem(galleries++, gallery);
    }
    QString text = listing.files.empty()
                       ? tr("The artifact folder %1 is empty.").arg(m_folder)
                       : (listing.files.size() == 1 ? tr("1 file, %1, in %2")
                                                    : tr("%1 files, %2, in %3").arg(listing.files.size()))
                             .arg(fromStd(formatByteSize(total)), m_folder);
    if (listing.truncated)
        text += tr(" (%1 of %2%3 entries listed: the run's own files first, then by name)")
                    .arg(listing.files.size())
                    .arg(listing.seenIsLowerBound ? tr("more than ") : QString())
                    .arg(listing.seen);
    for (const std::string& problem : listing.problems)
        text += QStringLiteral("\n") + tr("Not readable: %1").arg(fromStd(problem));
    setLocation(text, false);
    fitListWidth();
    showMessage(listing.files.empty() ? text : tr("Choose a file to show it."), false);
    const QString reopen = std::exchange(m_reopen, QString());
    if (!reopen.isEmpty() && openArtifact(reopen))
        return;
    if (log || !listing.files.empty())
        m_files->setCurrentItem(log ? log : m_files->topLevelItem(0));
}

void ArtifactsPane::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    fitListWidth();
}

void ArtifactsPane::fitListWidth() {
    const QList<int> sizes = m_split->sizes();
    if (sizes.size() != 2 || !isVisible())
        return;
    const int total = sizes[0] + sizes[1];
    const QFontMetrics metrics(m_files->font());
    int name = 0, size = 0;
    for (int i = 0; i < std::min(m_files->topLevelItemCount(), 500); ++i) { // enough to judge
        name = std::max(name, metrics.horizontalAdvance(m_files->topLevelItem(i)->text(0)));
        size = std::max(size, metrics.horizontalAdvance(m_files->topLevelItem(i)->text(1)));
    }
    const int wanted = std::min(name + size + 48, total / 3);
    if (sizes[0] < wanted) // never narrower than the person made it
        m_split->setSizes({wanted, total - wanted});
}

bool ArtifactsPane::waitIdle(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while ((m_lister || m_opener) && timer.elapsed() < timeoutMs)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    return !m_lister && !m_opener;
}

void ArtifactsPane::setLocation(const QString& text, bool unreachable) {
    m_locationText = text;
    QString html = text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    if (unreachable)
        html = QStringLiteral("<b>%1</b> ").arg(tr("Artifacts not shown.")) + html;
    m_location->setText(html);
}

QString ArtifactsPane::messageText() const {
    return m_stack->currentIndex() == MessagePage ? m_message->text() : QString();
}

QTreeWidgetItem* ArtifactsPane::itemOf(const QString& relativePath) const {
    for (int i = 0; i < m_files->topLevelItemCount(); ++i)
        if (m_files->topLevelItem(i)->data(0, Qt::UserRole).toString() == relativePath)
            return m_files->topLevelItem(i);
    return nullptr;
}

bool ArtifactsPane::openArtifact(const QString& relativePath) {
    QTreeWidgetItem* item = itemOf(relativePath);
    if (!item)
        return false;
    m_files->setCurrentItem(item);
    if (m_current != relativePath)
        openItem(item);
    return true;
}

void ArtifactsPane::openItem(QTreeWidgetItem* item, const QString& notice) {
    m_opener = nullptr; // an opening still under way lands nowhere
    if (!item || m_folder.isEmpty())
        return;
    if (const QStringList images = item->data(0, kGalleryRole).toStringList(); !images.isEmpty()) {
        m_current.clear();
        m_viewer->closeFile();
        m_images->showThumbnails(m_folder, images);
        m_stack->setCurrentIndex(ImagePage);
        return;
    }
    m_current = item->data(0, Qt::UserRole).toString();
    const QString path = QDir(m_folder).filePath(m_current);
    const auto type = ArtifactEntryType(item->data(0, kTypeRole).toInt());
    if (type != ArtifactEntryType::File) {
        m_viewer->closeFile();
        showMessage(tr("%1 is %2: it is listed, never opened or read.")
                        .arg(shown(m_current.toStdString()), fromStd(artifactTypeText(type))),
                    false);
        return;
    }
    if (item->data(0, kLeavesRole).toBool() && m_followed != m_current) {
        m_viewer->closeFile();
        showMessage(tr("%1 is a link to %2, outside the run's artifact folder: a colleague's link may "
                       "point at any file of this machine. Choose Show Link Target to open it.")
                        .arg(shown(m_current.toStdString()),
                             shown(item->data(0, kTargetRole).toString().toStdString())),
                    false);
        m_follow->setVisible(true);
        return;
    }
    m_viewer->closeFile();
    showMessage(tr("Opening %1…").arg(shown(m_current.toStdString())), false);
    if (isImageArtifact(m_current)) {
        openImage(path);
        return;
    }
    auto* watcher = new QFutureWatcher<OpenedFile>(this);
    m_opener = watcher;
    connect(watcher, &QFutureWatcher<OpenedFile>::finished, this,
            [this, watcher, name = m_current, size = item->text(1), notice] {
                watcher->deleteLater();
                if (m_opener != watcher)
                    return; // another file chosen, or cleared meanwhile
                m_opener = nullptr;
                const OpenedFile opened = watcher->result();
                switch (opened.kind) {
                case ArtifactKind::Text:
                    if (QTreeWidgetItem* shownItem = itemOf(name)) // its size as read now
                        shownItem->setText(1, fromStd(formatByteSize(opened.pager->size())));
                    m_viewer->showPager(opened.pager);
                    m_viewer->setNotice(notice);
                    m_stack->setCurrentIndex(ViewerPage);
                    return;
                case ArtifactKind::Binary:
                    showMessage(tr("%1 (%2) is not text: it holds bytes that are not UTF-8 text, as profiler "
                                   "reports and other binary files do.")
                                    .arg(name, size),
                                true);
                    return;
                case ArtifactKind::Unreadable:
                    showMessage(tr("%1 cannot be read: %2").arg(name, fromStd(opened.error)), false);
                    return;
                }
            });
    watcher->setFuture(
        QtConcurrent::run(fileReadPool(), [path = path.toStdString()] { return openFile(path); }));
}

void ArtifactsPane::openImage(const QString& path) {
    // Decoded on the file read pool, its header checked first: a huge or broken image is said.
    auto* watcher = new QFutureWatcher<DecodedImage>(this);
    m_opener = watcher;
    connect(watcher, &QFutureWatcher<DecodedImage>::finished, this, [this, watcher, name = m_current] {
        watcher->deleteLater();
        if (m_opener != watcher)
            return; // another file chosen, or cleared meanwhile
        m_opener = nullptr;
        const DecodedImage decoded = watcher->result();
        if (decoded.image.isNull()) {
            showMessage(decoded.error, true); // the desktop's application may do better
            return;
        }
        m_images->showImage(decoded, shown(name.toStdString()));
        m_stack->setCurrentIndex(ImagePage);
    });
    watcher->setFuture(QtConcurrent::run(fileReadPool(), [path] { return decodeImageArtifact(path); }));
}

void ArtifactsPane::fileChangedOnDisk(const QString& what, bool shrunk) {
    if (!shrunk) { // more of it: what is shown is still there
        m_viewer->setNotice(tr("changed on disk: %1 (Reload reads it all)").arg(what));
        return;
    }
    // Lines shown are gone or different: shown again as the file is now, and said.
    if (QTreeWidgetItem* item = itemOf(m_current))
        openItem(item, tr("%1 on disk while shown: read again").arg(what));
}

void ArtifactsPane::showMessage(const QString& text, bool offerExternal) {
    m_message->setText(text);
    m_external->setVisible(offerExternal);
    m_follow->setVisible(false);
    m_stack->setCurrentIndex(MessagePage);
}

void ArtifactsPane::followLink() {
    m_followed = m_current; // this link, this once: chosen by the person, not by a click on the list
    if (QTreeWidgetItem* item = itemOf(m_current))
        openItem(item);
    m_followed.clear();
}

void ArtifactsPane::openExternally() {
    if (m_current.isEmpty())
        return;
    const QString path = QDir(m_folder).filePath(m_current);
    // The desktop's opener runs what runs (a .desktop file, a script, an AppImage): asked first,
    // naming the file as it is, hidden characters escaped.
    if (runsWhenOpened(QFileInfo(path))) {
        const QString question =
            tr("%1 is a program or a file that runs when opened (%2). It comes from the run's artifact "
               "folder, which anyone who records into this store can fill. Open it with the desktop's "
               "default application anyway?")
                .arg(shown(m_current.toStdString()),
                     QFileInfo(path).isExecutable() ? tr("executable") : QFileInfo(path).suffix());
        if (!m_askFirst(question))
            return;
    }
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        showMessage(tr("No application of this desktop opens %1.").arg(shown(path.toStdString())), true);
}

void ArtifactsPane::setAskFirst(std::function<bool(const QString&)> ask) {
    m_askFirst = std::move(ask);
}

void ArtifactsPane::showFileMenu(const QPoint& pos) {
    QTreeWidgetItem* item = m_files->itemAt(pos);
    if (!item)
        return;
    const QString path = QDir(m_folder).filePath(item->data(0, Qt::UserRole).toString());
    QMenu menu(this);
    const bool openable = ArtifactEntryType(item->data(0, kTypeRole).toInt()) == ArtifactEntryType::File &&
                          !item->data(0, kLeavesRole).toBool();
    menu.addAction(tr("Open with Default Application"), this,
                   [this, item] {
                       m_files->setCurrentItem(item);
                       openExternally();
                   })
        ->setEnabled(openable); // a pipe, a device or a link out of the folder: never handed on
    menu.addAction(tr("Copy Path"), this, [path] { QApplication::clipboard()->setText(path); });
    menu.exec(m_files->viewport()->mapToGlobal(pos));
}

} // namespace radt
