// SPDX-License-Identifier: MIT
#include "widgets/details/TextPageView.h"

#include "core/artifacts/TextPager.h"
#include "core/base/Utf8.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <climits>

namespace radt {

namespace {

constexpr size_t kShownBytes = 4096;      ///< of one line on screen (the rest is said, not drawn)
constexpr uint64_t kCopiedLines = 100000; ///< at most, by one Copy
constexpr size_t kCopiedBytes = 1 << 20;  ///< of one copied line

int clampToInt(uint64_t value) {
    return static_cast<int>(std::min<uint64_t>(value, INT_MAX));
}

} // namespace

TextPageView::TextPageView(QWidget* parent) : QAbstractScrollArea(parent) {
    setObjectName(QStringLiteral("textPageView"));
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(font);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setCursor(Qt::IBeamCursor);
    verticalScrollBar()->setSingleStep(1);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
}

QString TextPageView::displayText(const std::string& bytes) {
    QString out;
    out.reserve(static_cast<int>(bytes.size()));
    for (size_t i = 0; i < bytes.size();) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == '\t') {
            out += QString(8 - out.size() % 8, QLatin1Char(' '));
            ++i;
        } else if (c < 0x20 || c == 0x7f) {
            out += QChar(c == 0x7f ? 0x2421 : 0x2400 + c); // ␛ for ESC, ␍ for a lone CR
            ++i;
        } else if (const size_t length = utf8SequenceLength(bytes, i); length > 0) {
            out += QString::fromUtf8(bytes.data() + i, static_cast<int>(length));
            i += length;
        } else {
            out += QChar(0xfffd);
            ++i;
        }
    }
    return out;
}

void TextPageView::setPager(TextPager* pager) {
    m_pager = pager;
    m_hasSelection = false;
    m_matchLine = -1;
    m_widestSeen = 0;
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
    updateScrollRanges();
    viewport()->update();
}

void TextPageView::linesChanged() {
    updateScrollRanges();
    viewport()->update();
}

int TextPageView::lineHeight() const {
    return fontMetrics().height();
}

int TextPageView::gutterWidth() const {
    const uint64_t lines = m_pager ? std::max<uint64_t>(m_pager->lineCount(), 1) : 1;
    return fontMetrics().horizontalAdvance(QString::number(lines)) + 14;
}

int TextPageView::visibleLineCount() const {
    return std::max(1, viewport()->height() / std::max(1, lineHeight()));
}

uint64_t TextPageView::firstVisibleLine() const {
    return static_cast<uint64_t>(verticalScrollBar()->value());
}

uint64_t TextPageView::lineAt(int y) const {
    return firstVisibleLine() + static_cast<uint64_t>(std::max(0, y) / std::max(1, lineHeight()));
}

void TextPageView::updateScrollRanges() {
    const uint64_t lines = m_pager ? m_pager->lineCount() : 0;
    const int page = visibleLineCount();
    verticalScrollBar()->setPageStep(page);
    verticalScrollBar()->setRange(0, std::max(0, clampToInt(lines) - page));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setSingleStep(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 4);
    horizontalScrollBar()->setRange(0, std::max(0, m_widestSeen + gutterWidth() + 20 - viewport()->width()));
}

void TextPageView::paintEvent(QPaintEvent*) {
    QPainter painter(viewport());
    painter.fillRect(viewport()->rect(), palette().base());
    const int gutter = gutterWidth();
    painter.fillRect(QRect(0, 0, gutter - 4, viewport()->height()), palette().alternateBase());
    if (!m_pager)
        return;
    const int height = lineHeight();
    const uint64_t first = firstVisibleLine();
    const auto lines = m_pager->lines(first, static_cast<size_t>(visibleLineCount()) + 1, kShownBytes);
    const int shift = horizontalScrollBar()->value();
    const int ascent = fontMetrics().ascent();
    int widest = m_widestSeen;
    for (size_t i = 0; i < lines.size(); ++i) {
        const uint64_t number = first + i;
        const int y = static_cast<int>(i) * height;
        const bool selected = m_hasSelection && number >= selectionFirst() && number <= selectionLast();
        QString text = displayText(lines[i].text);
        if (lines[i].length > lines[i].text.size())
            text += tr("  … (%1 more bytes)").arg(lines[i].length - lines[i].text.size());
        widest = std::max(widest, fontMetrics().horizontalAdvance(text));
        painter.setClipRect(QRect(gutter, 0, viewport()->width() - gutter, viewport()->height()));
        if (selected)
            painter.fillRect(QRect(gutter, y, viewport()->width(), height),
                             palette().highlight().color().lighter(170));
        if (static_cast<int64_t>(number) == m_matchLine) {
            const std::string& bytes = lines[i].text;
            const auto column = static_cast<size_t>(std::min<uint64_t>(m_matchColumn, bytes.size()));
            const int x0 = fontMetrics().horizontalAdvance(displayText(bytes.substr(0, column)));
            const int x1 = fontMetrics().horizontalAdvance(displayText(bytes.substr(
                0, static_cast<size_t>(std::min<uint64_t>(m_matchColumn + m_matchLength, bytes.size())))));
            painter.fillRect(QRect(gutter + 4 - shift + x0, y, std::max(2, x1 - x0), height),
                             QColor(255, 210, 60));
        }
        painter.setPen(palette().text().color());
        painter.drawText(gutter + 4 - shift, y + ascent, text);
        painter.setClipping(false);
        painter.setPen(palette().placeholderText().color());
        painter.drawText(QRect(0, y, gutter - 8, height), Qt::AlignRight | Qt::AlignVCenter,
                         QString::number(number + 1));
    }
    if (widest > m_widestSeen) {
        m_widestSeen = widest;
        updateScrollRanges();
    }
}

void TextPageView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollRanges();
}

void TextPageView::goToLine(uint64_t line) {
    if (!m_pager)
        return;
    const int page = visibleLineCount();
    if (line < firstVisibleLine() || line >= firstVisibleLine() + static_cast<uint64_t>(page))
        verticalScrollBar()->setValue(
            clampToInt(line > static_cast<uint64_t>(page / 3) ? line - page / 3 : 0));
    m_anchor = m_cursor = line;
    m_hasSelection = true;
    viewport()->update();
}

void TextPageView::showMatch(uint64_t line, uint64_t byteColumn, uint64_t byteLength) {
    m_matchLine = static_cast<int64_t>(line);
    m_matchColumn = byteColumn;
    m_matchLength = byteLength;
    goToLine(line);
    // Sideways too: the match in view, with some of what precedes it.
    const auto lines = m_pager ? m_pager->lines(line, 1, kShownBytes) : std::vector<TextPager::Line>{};
    if (!lines.empty()) {
        const std::string& bytes = lines.front().text;
        const int x = fontMetrics().horizontalAdvance(
            displayText(bytes.substr(0, static_cast<size_t>(std::min<uint64_t>(byteColumn, bytes.size())))));
        const int width = viewport()->width() - gutterWidth() - 8;
        m_widestSeen = std::max(m_widestSeen, x + 200);
        updateScrollRanges();
        const int shift = horizontalScrollBar()->value();
        if (x < shift || x > shift + width - 100)
            horizontalScrollBar()->setValue(std::max(0, x - width / 3));
    }
    viewport()->update();
}

QString TextPageView::selectedText() const {
    if (!m_pager || !m_hasSelection)
        return QString();
    const uint64_t count = std::min<uint64_t>(selectionLast() - selectionFirst() + 1, kCopiedLines);
    QStringList texts;
    for (const TextPager::Line& line :
         m_pager->lines(selectionFirst(), static_cast<size_t>(count), kCopiedBytes))
        texts << QString::fromUtf8(line.text.data(), static_cast<int>(line.text.size()));
    return texts.join(QLatin1Char('\n'));
}

void TextPageView::copy() const {
    if (m_hasSelection)
        QApplication::clipboard()->setText(selectedText());
}

QStringList TextPageView::visibleTexts() const {
    QStringList texts;
    if (m_pager)
        for (const auto& line :
             m_pager->lines(firstVisibleLine(), static_cast<size_t>(visibleLineCount()), kShownBytes))
            texts << displayText(line.text);
    return texts;
}

void TextPageView::mousePressEvent(QMouseEvent* event) {
    if (!m_pager || m_pager->lineCount() == 0 || event->button() != Qt::LeftButton)
        return;
    const uint64_t line = std::min(lineAt(event->pos().y()), m_pager->lineCount() - 1);
    if (!(event->modifiers() & Qt::ShiftModifier) || !m_hasSelection)
        m_anchor = line;
    m_cursor = line;
    m_hasSelection = true;
    viewport()->update();
}

void TextPageView::mouseMoveEvent(QMouseEvent* event) {
    if (!m_pager || m_pager->lineCount() == 0 || !(event->buttons() & Qt::LeftButton))
        return;
    if (event->pos().y() < 0)
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
    else if (event->pos().y() > viewport()->height())
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
    m_cursor = std::min(lineAt(event->pos().y()), m_pager->lineCount() - 1);
    viewport()->update();
}

void TextPageView::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy)) {
        copy();
        return;
    }
    if (event->matches(QKeySequence::MoveToStartOfDocument)) {
        verticalScrollBar()->setValue(0);
        return;
    }
    if (event->matches(QKeySequence::MoveToEndOfDocument)) {
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void TextPageView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Copy"), this, &TextPageView::copy, QKeySequence::Copy)->setEnabled(m_hasSelection);
    menu.exec(event->globalPos());
}

} // namespace radt
