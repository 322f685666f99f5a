// SPDX-License-Identifier: MIT
#include "widgets/insights/EnvironmentPane.h"

#include "widgets/common/FileReadPool.h"
#include "widgets/common/Formatting.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace radt {

EnvironmentPane::EnvironmentPane(QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget(this)), m_showAll(new QCheckBox(tr("Show all"), this)),
      m_status(new QLabel(this)) {
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_showAll->setToolTip(tr("Also list what every run has alike (every package, the host, the GPU)"));
    auto* copyButton = new QPushButton(tr("Copy"), this);
    copyButton->setToolTip(tr("Copy the rows shown as tab-separated text (Ctrl+C)"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* top = new QHBoxLayout;
    top->addWidget(m_showAll);
    top->addStretch(1);
    top->addWidget(copyButton);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    connect(m_showAll, &QCheckBox::toggled, this, &EnvironmentPane::fill);
    connect(copyButton, &QPushButton::clicked, this, &EnvironmentPane::copy);
    auto* shortcut = new QShortcut(QKeySequence::Copy, this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &EnvironmentPane::copy);
}

void EnvironmentPane::setRuns(const std::vector<Run>& runs, const QStringList& headers,
                              const ArtifactContext& context) {
    m_headers = headers;
    m_uuids.clear();
    for (const Run& run : runs)
        m_uuids << toQString(run.uuid);
    m_rows.clear();
    m_problems.clear();
    const quint64 generation = ++m_generation;
    fill();
    m_status->setText(tr("Reading the runs' pip.txt, conda.txt and smi.txt…"));
    // The GUI never waits on the read; a read that takes long (a folder on a dead network mount)
    // is said, not left as a silent "Reading…".
    QTimer::singleShot(m_slowReadNoticeMs, this, [this, generation] {
        if (m_generation == generation)
            m_status->setText(
                tr("Still reading the runs' pip.txt, conda.txt and smi.txt after %1 s: an artifact "
                   "folder on a slow or unreachable file system? The rest of the window works "
                   "meanwhile.")
                    .arg(m_slowReadNoticeMs / 1000.0, 0, 'f', 1));
    });
    QPointer<EnvironmentPane> self(this);
    fileReadPool()->start([self, runs, context, generation] {
        auto environments = std::make_shared<std::vector<RunEnvironment>>();
        for (const Run& run : runs)
            environments->push_back(readRunEnvironment(run, context));
        QMetaObject::invokeMethod(qApp, [self, environments, generation] {
            if (self && self->m_generation == generation)
                self->setEnvironments(*environments);
        });
    });
}

void EnvironmentPane::setEnvironments(const std::vector<RunEnvironment>& environments) {
    ++m_generation; // what a read still under way brings is older
    m_rows = diffEnvironments(environments);
    m_problems.clear();
    for (size_t r = 0; r < environments.size(); ++r)
        for (const std::string& problem : environments[r].problems)
            m_problems << QStringLiteral("%1: %2").arg(
                r < size_t(m_headers.size()) ? m_headers[int(r)].section(QLatin1Char('\n'), 0, 0) : QString(),
                toQString(problem));
    fill();
    emit environmentsShown();
}

QString EnvironmentPane::statusText() const {
    return m_status->text();
}

void EnvironmentPane::fill() {
    const bool all = m_showAll->isChecked();
    m_table->clear();
    m_table->setColumnCount(m_headers.size() + 1);
    m_table->setHorizontalHeaderLabels(QStringList{tr("Item")} + m_headers);
    // Runs named alike ("(1 0) train.py") are told apart by their ids, on hovering their column.
    for (int c = 0; c < m_headers.size() && c < m_uuids.size(); ++c)
        if (QTableWidgetItem* head = m_table->horizontalHeaderItem(c + 1))
            head->setToolTip(m_headers[c] + QLatin1Char('\n') + m_uuids[c]);
    m_table->setRowCount(0);
    const QColor highlight(255, 236, 179); // amber, as the Runs tab marks a difference
    int differing = 0;
    for (const EnvironmentRow& row : m_rows) {
        differing += row.differs;
        if (!all && !row.differs)
            continue;
        const int at = m_table->rowCount();
        m_table->insertRow(at);
        auto* item = new QTableWidgetItem(toQString(row.item));
        m_table->setItem(at, 0, item);
        for (size_t r = 0; r < row.values.size(); ++r) {
            auto* value = new QTableWidgetItem(toQString(row.values[r]));
            value->setToolTip(toQString(row.values[r]));
            if (row.differs) {
                value->setBackground(highlight);
                QFont bold = value->font();
                bold.setBold(true);
                value->setFont(bold);
            }
            m_table->setItem(at, int(r) + 1, value);
        }
        if (row.differs)
            item->setBackground(highlight);
    }
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_table->columnCount(); ++c)
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 320));
    if (m_rows.empty())
        return;
    QString text = differing == 0   ? tr("The %1 runs share one environment.").arg(m_headers.size())
                   : differing == 1 ? tr("1 item differs.")
                                    : tr("%1 items differ.").arg(differing);
    if (!all)
        text += tr(" Show all lists all %1 items.").arg(m_rows.size());
    if (!m_problems.isEmpty())
        text += m_problems.size() == 1
                    ? tr(" 1 line of the files was not understood (tooltip).")
                    : tr(" %1 lines of the files were not understood (tooltip).").arg(m_problems.size());
    m_status->setText(text);
    m_status->setToolTip(m_problems.mid(0, 40).join(QLatin1Char('\n')));
}

QString EnvironmentPane::tsv() const {
    QStringList lines;
    QStringList head{tr("Item")};
    for (const QString& h : m_headers)
        head << QString(h).replace(QLatin1Char('\n'), QLatin1Char(' '));
    lines << head.join(QLatin1Char('\t'));
    for (int r = 0; r < m_table->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_table->columnCount(); ++c)
            cells << (m_table->item(r, c) ? m_table->item(r, c)->text() : QString());
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void EnvironmentPane::copy() {
    QApplication::clipboard()->setText(tsv());
    m_status->setText(m_table->rowCount() == 1
                          ? tr("Copied 1 row as tab-separated text.")
                          : tr("Copied %1 rows as tab-separated text.").arg(m_table->rowCount()));
}

} // namespace radt
