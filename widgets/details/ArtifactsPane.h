// SPDX-License-Identifier: MIT
#pragma once
// A run's artifacts in the details: where they are (or, when this machine cannot read them, where
// they are and why not: never an empty list without a word), the files with their sizes, and the
// chosen file: text in a paged viewer with search, an image (PNG, JPEG, GIF, SVG) scaled to fit
// and zoomed, a folder's images as thumbnails, anything else offered to the desktop's default
// application. output.log opens first when the run has one. The folder is listed and a file opened
// off the GUI thread (a network mount may take seconds, or hang): "Listing …" / "Opening …" until
// it lands; a newer choice wins. A file shown that changes on disk is noticed: shown again when
// lines shown are gone (truncated, replaced), said when it only grew.

#include "core/artifacts/ArtifactLocation.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <string>

class QLabel;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace radt {

struct ArtifactListing;
class ImageArtifactViewer;
class TextArtifactViewer;

class ArtifactsPane : public QWidget {
    Q_OBJECT
public:
    explicit ArtifactsPane(QWidget* parent = nullptr);

    /// Lists the artifacts `artifactUri` points at (off the GUI thread), or says why they cannot be
    /// shown.
    void showArtifacts(const std::string& artifactUri, const ArtifactContext& context);
    /// Lists the folder again and reopens the file shown (a running run's log has grown).
    void reload();
    /// No run: the message instead of a list.
    void clear(const QString& message);

    /// What the pane says about the artifacts' place (the folder and its files, or why not).
    const QString& locationText() const { return m_locationText; }
    /// Where the listed files are ("" when they cannot be listed).
    const QString& folder() const { return m_folder; }
    QTreeWidget* files() const { return m_files; }
    TextArtifactViewer* viewer() const { return m_viewer; }
    ImageArtifactViewer* images() const { return m_images; }
    /// What the right side shows when no text is open (a binary file's offer, an error), "" else.
    QString messageText() const;
    /// Selects and opens a listed file by its path relative to the folder; false when not listed.
    bool openArtifact(const QString& relativePath);
    /// The listed file's path shown now ("" when none).
    const QString& currentArtifact() const { return m_current; }
    /// A listing is under way.
    bool isListing() const { return m_lister != nullptr; }
    /// A file is being opened.
    bool isOpening() const { return m_opener != nullptr; }
    /// Tests: processes events until the listing and the opening of a file under way have landed;
    /// false on timeout.
    bool waitIdle(int timeoutMs);
    /// What asks before a file that runs is handed to the desktop's opener (a dialog; tests
    /// answer it).
    void setAskFirst(std::function<bool(const QString& question)> ask);
    /// Opens the current file with the desktop's default application (asking first when it runs).
    void openExternally();
    /// Opens the link out of the run's folder shown now: the explicit action such a link needs.
    void followLink();

protected:
    /// A listing that landed while the pane was hidden gets its width now.
    void showEvent(QShowEvent* event) override;

private:
    /// The listing landed: the files, the sentence above them, output.log (or `m_reopen`) opened.
    void showListing(const ArtifactListing& listing);
    /// Opens the item's file off the GUI thread (`notice`: said in the viewer once shown).
    void openItem(QTreeWidgetItem* item, const QString& notice = QString());
    /// Decodes an image off the GUI thread and shows it, or says why not.
    void openImage(const QString& path);
    /// The file shown changed on disk: shown again when lines shown are gone, else said.
    void fileChangedOnDisk(const QString& what, bool shrunk);
    void showMessage(const QString& text, bool offerExternal);
    /// The sentence above the list; `unreachable` leads it with "Artifacts not shown."
    void setLocation(const QString& text, bool unreachable);
    void showFileMenu(const QPoint& pos);

    /// The listed item of this path relative to the folder; null when none.
    QTreeWidgetItem* itemOf(const QString& relativePath) const;
    /// Widens the list (to a third of the pane at most) so that its names are not cut.
    void fitListWidth();

    QSplitter* m_split;
    QLabel* m_location;
    QTreeWidget* m_files;
    QStackedWidget* m_stack;
    TextArtifactViewer* m_viewer;
    ImageArtifactViewer* m_images;
    QLabel* m_message;
    QPushButton* m_external;
    QPushButton* m_follow; ///< "Show Link Target": a link out of the folder opens only through it
    QString m_followed;    ///< the link followLink() opens now
    std::function<bool(const QString&)> m_askFirst;
    QObject* m_lister = nullptr; ///< the listing under way (its watcher); null when none
    QObject* m_opener = nullptr; ///< the file being opened (its watcher); null when none
    QString m_reopen;            ///< the file reload() reopens once listed
    QString m_folder;
    QString m_current;
    QString m_locationText;
    std::string m_uri; ///< what showArtifacts was given, for reload()
    ArtifactContext m_context;
};

} // namespace radt
