// SPDX-License-Identifier: MIT
#pragma once
// A text file on screen a page at a time: paints only the lines in view, read from a TextPager
// (core/artifacts), with their numbers in a gutter. The scroll range follows the pager's index as
// it grows; a search match is highlighted and scrolled to; a click selects a line, shift-click or
// a drag a range, Ctrl+C (or the context menu's Copy) copies it.

#include <QAbstractScrollArea>
#include <QString>
#include <QStringList>

#include <algorithm>

#include <cstdint>
#include <string>
#include <vector>

namespace radt {

class TextPager;

class TextPageView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TextPageView(QWidget* parent = nullptr);

    /// The file shown (not owned; nullptr: nothing). The view starts at its first line.
    void setPager(TextPager* pager);
    /// The pager's index grew: the scroll range follows it.
    void linesChanged();
    /// Highlights bytes [byteColumn, byteColumn + byteLength) of `line` and scrolls to them.
    void showMatch(uint64_t line, uint64_t byteColumn, uint64_t byteLength);
    /// Scrolls so that `line` is in view (near the top third) and selects it.
    void goToLine(uint64_t line);

    uint64_t firstVisibleLine() const;
    int visibleLineCount() const;
    /// Whether lines are selected, and which: [selectionFirst(), selectionLast()].
    bool hasSelection() const { return m_hasSelection; }
    uint64_t selectionFirst() const { return std::min(m_anchor, m_cursor); }
    uint64_t selectionLast() const { return std::max(m_anchor, m_cursor); }
    /// The text of the selected lines, joined by '\n' (at most 100,000 lines).
    QString selectedText() const;
    void copy() const;
    /// Text of the lines in view as painted (tests read what is shown).
    QStringList visibleTexts() const;

    /// What a line of the file looks like on screen: tabs to the next multiple of 8, control
    /// characters as their visible symbols (U+2400...), broken UTF-8 as U+FFFD.
    static QString displayText(const std::string& bytes);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    int lineHeight() const;
    int gutterWidth() const;
    uint64_t lineAt(int y) const;
    void updateScrollRanges();

    TextPager* m_pager = nullptr;
    uint64_t m_anchor = 0, m_cursor = 0; ///< the selection's first click and where it reaches
    bool m_hasSelection = false;
    int64_t m_matchLine = -1;
    uint64_t m_matchColumn = 0, m_matchLength = 0;
    int m_widestSeen = 0; ///< the widest line painted so far, for the horizontal range
};

} // namespace radt
