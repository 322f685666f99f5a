#include "BoardPanel.h"

#include "ChartCard.h"
#include "ChartPanel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace radt {

BoardPanel::BoardPanel(QWidget* parent) : QWidget(parent) {
    auto* add = new QPushButton(tr("Add chart"), this);
    add->setToolTip(tr("A new chart on the board; pick its metric in the metric list"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(new QLabel(tr("Board"), this));
    bar->addStretch(1);
    m_linkZoom = new QCheckBox(tr("Link x zoom"), this);
    m_linkZoom->setToolTip(tr("Zooming one chart zooms every chart with the same x axis"));
    bar->addWidget(m_linkZoom);
    bar->addWidget(add);

    auto* content = new QWidget;
    m_list = new QVBoxLayout(content);
    m_list->setContentsMargins(0, 0, 0, 0);
    m_list->setSpacing(6);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // charts take the board's width
    scroll->setWidget(content);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(scroll, 1);
    connect(add, &QPushButton::clicked, this, [this] { addChart(); });
    connect(m_linkZoom, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_current) // linking starts from what the current chart shows
            propagateZoom(m_current);
    });
    addChart();
}

ChartCard* BoardPanel::addChart() {
    auto* card = new ChartCard(this);
    // One chart fills the board; with several, each keeps a readable height and the board scrolls.
    card->setMinimumHeight(m_cards.empty() ? 0 : 360);
    if (m_cards.size() == 1)
        m_cards.front()->setMinimumHeight(360);
    m_list->addWidget(card, 1);
    m_cards.push_back(card);
    connect(card, &ChartCard::activated, this, [this, card] { setCurrent(card); });
    connect(card, &ChartCard::removeRequested, this, [this, card] { removeChart(card); });
    connect(card->chart(), &ChartPanel::userZoomChanged, this, [this, card] { propagateZoom(card); });
    emit chartAdded(card);
    setCurrent(card);
    return card;
}

void BoardPanel::removeChart(ChartCard* card) {
    auto it = std::find(m_cards.begin(), m_cards.end(), card);
    if (it == m_cards.end())
        return;
    if (m_cards.size() == 1) {
        card->chart()->clear();
        return;
    }
    const size_t index = size_t(it - m_cards.begin());
    m_cards.erase(it);
    card->deleteLater();
    if (m_cards.size() == 1)
        m_cards.front()->setMinimumHeight(0);
    if (m_current == card) {
        m_current = nullptr;
        setCurrent(m_cards[std::min(index, m_cards.size() - 1)]);
    }
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
            card->chart()->applyLinkedZoom(source->options().xAxis, source->zoomRange());
}

} // namespace radt
