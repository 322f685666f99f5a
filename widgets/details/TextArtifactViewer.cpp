// SPDX-License-Identifier: MIT
#include "widgets/details/TextArtifactViewer.h"

#include "core/artifacts/ArtifactListing.h"
#include "core/artifacts/TextPager.h"
#include "widgets/common/FileReadPool.h"
#include "widgets/details/TextPageView.h"

#include <QAction>
#include <QCheckBox>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace radt {

namespace {

constexpr uint64_t kIndexSlice = 64ull << 20; ///< bytes indexed per timer tick
constexpr uint64_t kFindSlice = 64ull << 20;  ///< bytes searched per timer tick

QToolButton* button(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

TextArtifactViewer::TextArtifactViewer(QWidget* parent)
    : QWidget(parent), m_view(new TextPageView(this)), m_search(new QLineEdit(this)),
      m_matchCase(new QCheckBox(tr("Match case"), this)), m_status(new QLabel(this)) {
    m_search->setObjectName(QStringLiteral("artifactSearch"));
    m_search->setPlaceholderText(tr("Find in file (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    QToolButton* previous = button(tr("Previous"), tr("The previous match (Shift+Enter, Shift+F3)"), this);
    QToolButton* next = button(tr("Next"), tr("The next match (Enter, F3)"), this);
    m_status->setObjectName(QStringLiteral("artifactStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_search, 1);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(m_matchCase);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    // Ctrl+F, F3 and Shift+F3 are the viewer's while the keyboard is in it: taken before the
    // window's shortcuts (Ctrl+F there finds runs in the tree), so no key is ambiguous.
    m_view->installEventFilter(this);
    m_search->installEventFilter(this);
    connect(next, &QToolButton::clicked, this, &TextArtifactViewer::findNext);
    connect(previous, &QToolButton::clicked, this, &TextArtifactViewer::findPrevious);
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        m_find.reset();
        m_findTimer.stop();
        m_findMessage.clear();
        updateStatus();
    });

    m_indexTimer.setInterval(0);
    connect(&m_indexTimer, &QTimer::timeout, this, &TextArtifactViewer::indexStep);
    m_findTimer.setInterval(0);
    connect(&m_findTimer, &QTimer::timeout, this, &TextArtifactViewer::findStep);
    m_watchTimer.setInterval(2000);
    connect(&m_watchTimer, &QTimer::timeout, this, &TextArtifactViewer::checkDisk);
    updateStatus();
}

TextArtifactViewer::~TextArtifactViewer() = default;

void TextArtifactViewer::showPager(std::shared_ptr<TextPager> pager) {
    closeFile();
    m_pager = std::move(pager);
    if (!m_pager)
        return;
    m_path = QString::fromStdString(m_pager->path());
    m_view->setPager(m_pager.get());
    if (!m_pager->indexComplete())
        m_indexTimer.start();
    m_watchTimer.start();
    updateStatus();
}

void TextArtifactViewer::setNotice(const QString& notice) {
    m_notice = notice;
    updateStatus();
}

void TextArtifactViewer::checkDisk() {
    if (m_checking || !m_pager)
        return;
    m_checking = true;
    auto* watcher = new QFutureWatcher<QPair<QString, bool>>(this);
    connect(watcher, &QFutureWatcher<QPair<QString, bool>>::finished, this, [this, watcher, pager = m_pager] {
        watcher->deleteLater();
        m_checking = false;
        const QPair<QString, bool> change = watcher->result();
        if (pager != m_pager || change.first.isEmpty() || change.first == m_lastChange)
            return; // another file by now, or nothing new
        m_lastChange = change.first;
        emit changedOnDisk(change.first, change.second);
    });
    watcher->setFuture(QtConcurrent::run(fileReadPool(), [pager = m_pager] {
        bool shrunk = false;
        const std::string what = pager->changeOnDisk(&shrunk);
        return qMakePair(QString::fromStdString(what), shrunk);
    }));
}

void TextArtifactViewer::closeFile() {
    m_indexTimer.stop();
    m_findTimer.stop();
    m_find.reset();
    m_matchOffset.reset();
    m_matchLine = -1;
    m_findMessage.clear();
    m_watchTimer.stop();
    m_lastChange.clear();
    m_notice.clear();
    m_view->setPager(nullptr);
    m_pager.reset();
    m_path.clear();
    updateStatus();
}

bool TextArtifactViewer::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    auto* key = static_cast<QKeyEvent*>(event);
    const bool enter = watched == m_search && (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter);
    const bool ours = key->matches(QKeySequence::Find) || key->matches(QKeySequence::FindNext) ||
                      key->matches(QKeySequence::FindPrevious) || enter;
    if (!ours)
        return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept(); // delivered as a key press, to here
        return true;
    }
    if (key->matches(QKeySequence::Find))
        focusSearch();
    else if (key->matches(QKeySequence::FindPrevious) || (enter && (key->modifiers() & Qt::ShiftModifier)))
        findPrevious();
    else
        findNext();
    return true;
}

void TextArtifactViewer::focusSearch() {
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void TextArtifactViewer::findNext() {
    startFind(true);
}

void TextArtifactViewer::findPrevious() {
    startFind(false);
}

void TextArtifactViewer::startFind(bool forward) {
    if (!m_pager || m_search->text().isEmpty())
        return;
    Find find;
    find.needle = m_search->text().toStdString();
    find.forward = forward;
    find.matchCase = m_matchCase->isChecked();
    // From the last match, else from the lines in view (forward) or their start (backward).
    if (m_matchOffset)
        find.from = forward ? *m_matchOffset + 1 : *m_matchOffset;
    else
        find.from = m_pager->offsetOfLine(m_view->firstVisibleLine());
    m_find = find;
    m_findMessage = tr("Searching…");
    updateStatus();
    findStep(); // a small file answers at once
    if (m_find)
        m_findTimer.start();
}

void TextArtifactViewer::findStep() {
    if (!m_find || !m_pager) {
        m_findTimer.stop();
        return;
    }
    const TextPager::FindStep step =
        m_pager->find(m_find->needle, m_find->from, m_find->forward, m_find->matchCase, kFindSlice);
    if (step.state == TextPager::FindState::Continue) {
        m_find->from = step.offset;
        updateStatus();
        return;
    }
    if (step.state == TextPager::FindState::Found) {
        foundAt(step.offset);
        return;
    }
    if (!m_find->wrapped) { // once round the file
        m_find->wrapped = true;
        m_find->from = m_find->forward ? 0 : m_pager->size();
        return;
    }
    m_find.reset();
    m_findTimer.stop();
    m_findMessage = tr("\"%1\" not found").arg(m_search->text());
    updateStatus();
    emit searchFinished(false);
}

void TextArtifactViewer::foundAt(uint64_t offset) {
    const bool wrapped = m_find->wrapped;
    m_find.reset();
    m_findTimer.stop();
    m_matchOffset = offset;
    const uint64_t line = m_pager->lineOfOffset(offset);
    m_matchLine = static_cast<int64_t>(line);
    m_view->linesChanged(); // finding may have indexed further
    m_view->showMatch(line, offset - m_pager->offsetOfLine(line), m_search->text().toUtf8().size());
    const QString number = QLocale().toString(static_cast<qulonglong>(line) + 1);
    m_findMessage = wrapped ? tr("Found on line %1 (wrapped round the file)").arg(number)
                            : tr("Found on line %1").arg(number);
    updateStatus();
    emit searchFinished(true);
}

void TextArtifactViewer::indexStep() {
    if (!m_pager || m_pager->indexMore(kIndexSlice))
        m_indexTimer.stop();
    m_view->linesChanged();
    updateStatus();
}

QString TextArtifactViewer::statusText() const {
    return m_status->text();
}

void TextArtifactViewer::updateStatus() {
    if (!m_pager) {
        m_status->clear();
        return;
    }
    const QLocale locale;
    QString text =
        tr("%1: %2 lines, %3")
            .arg(QFileInfo(m_path).fileName(), locale.toString(static_cast<qulonglong>(m_pager->lineCount())),
                 QString::fromStdString(formatByteSize(m_pager->size())));
    if (!m_pager->indexComplete())
        text += tr(" (counting lines: %1 %)")
                    .arg(m_pager->size() ? 100 * m_pager->indexedBytes() / m_pager->size() : 100);
    if (m_find && m_pager->size() > 0) {
        const uint64_t done = m_find->forward ? m_find->from : m_pager->size() - m_find->from;
        text += tr(" | Searching… %1 %").arg(100 * done / m_pager->size());
    } else if (!m_findMessage.isEmpty()) {
        text += QStringLiteral(" | ") + m_findMessage;
    }
    if (!m_notice.isEmpty())
        text += QStringLiteral(" | ") + m_notice;
    m_status->setText(text);
}

} // namespace radt
