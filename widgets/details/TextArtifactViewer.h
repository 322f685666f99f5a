// SPDX-License-Identifier: MIT
#pragma once
// A text artifact in the details pane: the paged view (TextPageView) over a TextPager it owns,
// a search bar (Ctrl+F; Enter or F3 for the next match, Shift+Enter or Shift+F3 for the previous,
// wrapping once round the file), and a status line (lines, size, how far indexing and a search
// are). Indexing and searching run in slices on a zero timer, so a 2 GB log opens at once, shows
// its first page, and the window stays responsive while the rest is read.

#include <QString>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace radt {

class TextPageView;
class TextPager;

class TextArtifactViewer : public QWidget {
    Q_OBJECT
public:
    explicit TextArtifactViewer(QWidget* parent = nullptr);
    ~TextArtifactViewer() override;

    /// Shows a file opened off the GUI thread (TextPager, its first page indexed there: a file on
    /// a slow mount never stalls the window), then indexes the rest in slices and watches the file
    /// on disk for changes.
    void showPager(std::shared_ptr<TextPager> pager);
    /// A sentence after the status line (how the file changed on disk, what was done about it).
    void setNotice(const QString& notice);
    void closeFile();
    QString filePath() const { return m_path; }
    TextPager* pager() const { return m_pager.get(); }
    /// How often the file on disk is compared with what is shown (tests shorten it).
    void setChangeCheckInterval(int ms) { m_watchTimer.setInterval(ms); }
    TextPageView* view() const { return m_view; }
    QLineEdit* searchField() const { return m_search; }
    QString statusText() const;

    /// Puts the keyboard in the search field, its text selected (Ctrl+F).
    void focusSearch();
    /// Looks for the search field's text after (before) the last match or the lines in view.
    void findNext();
    void findPrevious();
    bool searching() const { return m_find.has_value(); }
    /// The line (0-based) of the last match found; -1 when none.
    int64_t matchLine() const { return m_matchLine; }

protected:
    /// The viewer's keys in its view and search field: Ctrl+F, F3, Shift+F3, Enter, Shift+Enter.
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    /// A search ended: found (the match highlighted and in view) or not.
    void searchFinished(bool found);
    /// The file on disk is no longer what is shown: `what` says how; `shrunk` when lines shown
    /// are gone or different (truncated, replaced, rewritten), not only more of them (grew).
    void changedOnDisk(const QString& what, bool shrunk);

private:
    struct Find {
        std::string needle;
        bool forward = true;
        bool matchCase = false;
        uint64_t from = 0;    ///< where the next slice starts
        bool wrapped = false; ///< went round the file's end once
    };
    void startFind(bool forward);
    void indexStep();
    void findStep();
    void foundAt(uint64_t offset);
    void updateStatus();
    /// Compares the file on disk with what is shown, off the GUI thread (a stat may hang too).
    void checkDisk();

    std::shared_ptr<TextPager> m_pager; ///< shared with a check of the disk under way
    QString m_path;
    TextPageView* m_view;
    QLineEdit* m_search;
    QCheckBox* m_matchCase;
    QLabel* m_status;
    QTimer m_indexTimer;
    QTimer m_findTimer;
    QTimer m_watchTimer;
    bool m_checking = false; ///< a check of the disk under way (one at a time: a stat may hang)
    QString m_lastChange;    ///< what the last check found, said once
    QString m_notice;
    std::optional<Find> m_find;
    std::optional<uint64_t> m_matchOffset; ///< the last match, where the next search starts
    int64_t m_matchLine = -1;
    QString m_findMessage; ///< "Not found", "Wrapped around", ...
};

} // namespace radt
