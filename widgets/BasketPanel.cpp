#include "BasketPanel.h"

#include "models/BasketModel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace radt {

BasketPanel::BasketPanel(BasketModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_title(new QLabel(this)), m_view(new QTreeView(this)),
      m_remove(new QPushButton(tr("Remove selected"), this)),
      m_clear(new QPushButton(tr("Clear all"), this)) {
    m_title->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_title->setWordWrap(true); // a long title must not widen the pane
    m_view->setModel(m_model);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(BasketModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(BasketModel::LetterColumn, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(BasketModel::StatusColumn, QHeaderView::ResizeToContents);
    m_remove->setToolTip(tr("Remove the selected runs or workloads from the basket (Del)"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_remove);
    buttons->addWidget(m_clear);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    auto* removeAction = new QAction(tr("Remove selected"), m_view);
    removeAction->setShortcut(QKeySequence::Delete);
    removeAction->setShortcutContext(Qt::WidgetShortcut);
    m_view->addAction(removeAction);
    connect(removeAction, &QAction::triggered, this, &BasketPanel::removeSelected);
    connect(m_remove, &QPushButton::clicked, this, &BasketPanel::removeSelected);
    connect(m_clear, &QPushButton::clicked, m_model, &BasketModel::clear);
    // The model resets on every change: groups are re-expanded so runs stay visible.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_view->expandAll();
        updateState();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { updateState(); });
    updateState();
}

void BasketPanel::removeSelected() {
    m_model->removeIndexes(m_view->selectionModel()->selectedRows());
}

void BasketPanel::updateState() {
    const int runs = m_model->runCount();
    if (runs == 0)
        m_title->setText(tr("Basket: double-click runs to add them"));
    else
        m_title->setText(runs == 1 ? tr("Basket (1 run)") : tr("Basket (%1 runs)").arg(runs));
    m_remove->setEnabled(m_view->selectionModel()->hasSelection());
    m_clear->setEnabled(runs > 0);
}

} // namespace radt
