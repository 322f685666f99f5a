// SPDX-License-Identifier: MIT
#include "widgets/board/BoardPanel.h"

#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace radt {

BoardPanel::BoardPanel(QWidget* parent) : QWidget(parent) {
    auto* add = new QPushButton(tr("Add chart"), this);
    add->setToolTip(tr("A new chart on the board; pick its metric in the metric list"));
    m_columnsBox = new QComboBox(this);
    m_columnsBox->setObjectName(QStringLiteral("boardColumns"));
    for (int n = 1; n <= 3; ++n)
        m_columnsBox->addItem(n == 1 ? tr("1 column") : tr("%1 columns").arg(n), n);
    m_columnsBox->setToolTip(tr("Charts side by side"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(new QLabel(tr("Board"), this));
    bar->addStretch(1);
    m_linkZoom = new QCheckBox(tr("Link x zoom"), this);
    m_linkZoom->setToolTip(tr("Zooming one chart zooms every chart with the same x axis"));
    bar->addWidget(m_linkZoom);
    bar->addWidget(m_columnsBox);
    bar->addWidget(add);

    auto* content = new QWidget;
    m_grid = new QGridLayout(content);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(6);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("boardScroll"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // charts take the board's width
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidget(content);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_scroll, 1);
    connect(add, &QPushButton::clicked, this, [this] { addChart(); });
    connect(m_linkZoom, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_current) // linking starts from what the current chart shows
            propagateZoom(m_current);
    });
    connect(m_columnsBox, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int index) { setColumns(index + 1); });
    addChart();
}

ChartCard* BoardPanel::addChart() {
    auto* card = new ChartCard(this);
    card->chart()->setLineColours(m_colours); // a run is one colour in every chart
    if (m_alone)
        showOnly(nullptr); // a new chart on a maximised one: every chart comes back
    m_cards.push_back(card);
    relayout();
    connect(card, &ChartCard::activated, this, [this, card] { setCurrent(card); });
    connect(card, &ChartCard::removeRequested, this, [this, card] { removeChart(card); });
    connect(card, &ChartCard::maximiseRequested, this, [this, card] { emit maximiseRequested(card); });
    connect(card->chart(), &ChartPanel::userZoomChanged, this, [this, card] { propagateZoom(card); });
    connect(card->chart(), &ChartPanel::detailsRequested, this, &BoardPanel::detailsRequested);
    emit chartAdded(card);
    setCurrent(card);
    scrollTo(card);
    return card;
}

void BoardPanel::removeChart(ChartCard* card) {
    auto it = std::find(m_cards.begin(), m_cards.end(), card);
    if (it == m_cards.end())
        return;
    if (card == m_alone)
        showOnly(nullptr); // the maximised chart goes: the others come back
    if (m_cards.size() == 1) {
        card->chart()->clear();
        return;
    }
    const size_t index = size_t(it - m_cards.begin());
    m_cards.erase(it);
    m_grid->removeWidget(card);
    card->hide();
    card->deleteLater();
    relayout();
    if (m_current == card) {
        m_current = nullptr;
        setCurrent(m_cards[std::min(index, m_cards.size() - 1)]);
    }
}

void BoardPanel::setColumns(int columns) {
    columns = std::clamp(columns, 1, 3);
    if (m_columnsBox->currentIndex() != columns - 1)
        m_columnsBox->setCurrentIndex(columns - 1); // comes back here through the signal
    if (columns == m_columns)
        return;
    m_columns = columns;
    relayout();
    // Back to chart 1: on the current chart's row, a 2-column view of a long board opened on its
    // last row and could look blank.
    scrollTo(m_cards.front());
}

void BoardPanel::relayout() {
    for (ChartCard* card : m_cards)
        m_grid->removeWidget(card);
    // Whatever else takes the window's height, charts in several rows stay readable: the board
    // scrolls instead. One row (or a maximised chart) takes the board's whole height, whatever it is.
    const int shownColumns = std::max(1, std::min<int>(m_columns, int(m_cards.size())));
    const bool oneRow = m_alone || int(m_cards.size()) <= shownColumns;
    for (ChartCard* card : m_cards)
        card->setMinimumHeight(oneRow ? kOneRowMinimumHeight : kMinimumChartHeight);
    if (m_alone) { // a maximised chart: one cell, all the room
        for (int c = 0; c < 3; ++c)
            m_grid->setColumnStretch(c, c == 0 ? 1 : 0);
        for (int r = 0; r < std::max(m_grid->rowCount(), 3); ++r)
            m_grid->setRowStretch(r, r == 0 ? 1 : 0);
        m_grid->addWidget(m_alone, 0, 0);
        return;
    }
    // Never more columns than charts: two charts on a 3-column board share the width.
    const int columns = std::max(1, std::min<int>(m_columns, int(m_cards.size())));
    for (int c = 0; c < 3; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
    const int rows = (int(m_cards.size()) + columns - 1) / columns;
    for (int r = 0; r < std::max(rows, 3); ++r)
        m_grid->setRowStretch(r, r < rows ? 1 : 0);
    for (size_t i = 0; i < m_cards.size(); ++i)
        m_grid->addWidget(m_cards[i], int(i) / columns, int(i) % columns);
}

std::vector<ChartCard*> BoardPanel::visibleCharts() const {
    std::vector<ChartCard*> visible;
    const QWidget* viewport = m_scroll->viewport();
    for (ChartCard* card : m_cards) {
        const QRect shown =
            viewport->rect().intersected(QRect(card->mapTo(viewport, QPoint(0, 0)), card->size()));
        if (card->isVisible() && shown.height() * 2 >= card->height() && shown.width() * 2 >= card->width())
            visible.push_back(card);
    }
    return visible;
}

void BoardPanel::scrollTo(ChartCard* card) {
    // The grid places a new card on the next layout pass; scroll once it has its place.
    // The scroll area learns the grid's new size one event later still: scroll after that.
    QTimer::singleShot(0, this, [this, card] {
        m_scroll->widget()->layout()->activate();
        QTimer::singleShot(0, this, [this, card] {
            if (card == m_cards.front()) // the top of the board, its margin included
                m_scroll->verticalScrollBar()->setValue(0);
            else if (std::find(m_cards.begin(), m_cards.end(), card) != m_cards.end())
                m_scroll->ensureWidgetVisible(card, 0, 0);
        });
    });
}

void BoardPanel::showOnly(ChartCard* card) {
    m_alone = card;
    for (ChartCard* c : m_cards)
        c->setVisible(!card || c == card);
    relayout();
    scrollTo(card ? card : m_current);
}

void BoardPanel::setCurrent(ChartCard* card) {
    if (card == m_current)
        return;
    m_current = card;
    for (ChartCard* c : m_cards)
        c->setCurrent(c == card);
    emit currentChanged(card);
}

void BoardPanel::setZoomLinked(bool linked) {
    m_linkZoom->setChecked(linked);
}

bool BoardPanel::zoomLinked() const {
    return m_linkZoom->isChecked();
}

void BoardPanel::propagateZoom(ChartCard* from) {
    if (!zoomLinked())
        return;
    const ChartPanel* source = from->chart();
    for (ChartCard* card : m_cards)
        if (card != from)
            card->chart()->applyLinkedZoom(source->engine().options().xAxis, source->engine().zoom());
}

} // namespace radt
