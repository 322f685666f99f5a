// SPDX-License-Identifier: MIT
#include "widgets/launch/ConsolePane.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

namespace radt {

namespace {
// Dark enough to read on white; the same order as the charts' palette.
const QRgb kRunColours[] = {0x2f5d8a, 0xc26a13, 0xb8383a, 0x3f7f7a, 0x3f7a37, 0x8a6d00, 0x7d4f72, 0x6b4f3e};
} // namespace

ConsolePane::ConsolePane(QWidget* parent) : QWidget(parent) {
    m_text = new QPlainTextEdit(this);
    m_text->setReadOnly(true);
    m_text->setMaximumBlockCount(20000); // a chatty workload must not grow memory without bound
    m_text->setFont(QFont(QStringLiteral("monospace")));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    // Follow the output unless the user scrolled up to read: decided by where the user leaves
    // the scroll bar, not by comparing positions after a resize changed the range.
    QScrollBar* scroll = m_text->verticalScrollBar();
    connect(scroll, &QScrollBar::valueChanged, this,
            [this, scroll](int value) { m_follow = value >= scroll->maximum(); });
    connect(scroll, &QScrollBar::rangeChanged, this, [this, scroll](int, int maximum) {
        if (m_follow)
            scroll->setValue(maximum);
    });
    m_status = new QLabel(tr("Nothing launched yet: Run > Launch…"), this);
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setEnabled(false);
    m_stop->setToolTip(
        tr("Terminate the workload (SIGTERM, then SIGKILL after the grace period); its runs end KILLED"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_status, 1);
    bar->addWidget(m_stop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_text, 1);
    connect(m_stop, &QPushButton::clicked, this, [this] {
        m_stop->setEnabled(false);
        m_status->setText(tr("Stopping…"));
        emit stopRequested();
    });
}

QColor ConsolePane::colourOf(const QString& letter) {
    auto it = m_letters.emplace(letter, int(m_letters.size())).first;
    return QColor(kRunColours[it->second % 8]);
}

void ConsolePane::appendOutput(const QString& letter, bool isStderr, const QString& line) {
    const QString prefix = letter.isEmpty() ? QString() : QStringLiteral("[RUN %1] ").arg(letter);
    QString html = QStringLiteral("<span style=\"color:%1\">%2</span>")
                       .arg(colourOf(letter).name(), prefix.toHtmlEscaped());
    html += isStderr ? QStringLiteral("<span style=\"color:#b8383a\">%1</span>").arg(line.toHtmlEscaped())
                     : line.toHtmlEscaped();
    const bool follow = m_follow; // appending moves the range, not the user's wish
    m_text->appendHtml(QStringLiteral("<pre style=\"margin:0\">%1</pre>").arg(html));
    if (follow)
        m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    m_follow = follow;
}

void ConsolePane::appendMessage(const QString& text) {
    m_text->appendHtml(
        QStringLiteral("<pre style=\"margin:0;color:#666666\">radt: %1</pre>").arg(text.toHtmlEscaped()));
}

void ConsolePane::setRunning(const QString& what) {
    m_status->setText(tr("Running %1").arg(what));
    m_stop->setEnabled(true);
}

void ConsolePane::setFinished(int exitCode) {
    m_stop->setEnabled(false);
    m_status->setText(exitCode == 0     ? tr("Finished")
                      : exitCode == 130 ? tr("Stopped (exit 130)")
                                        : tr("Ended with exit code %1").arg(exitCode));
}

QString ConsolePane::plainText() const {
    return m_text->toPlainText();
}

} // namespace radt
