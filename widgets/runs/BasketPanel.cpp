// SPDX-License-Identifier: MIT
#include "widgets/runs/BasketPanel.h"

#include "widgets/runs/BasketModel.h"
#include "widgets/runs/SavedSelections.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <stdexcept>

namespace radt {

BasketPanel::BasketPanel(BasketModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_title(new QLabel(this)), m_view(new QTreeView(this)),
      m_remove(new QPushButton(tr("Remove selected"), this)), m_clear(new QPushButton(tr("Clear all"), this)),
      m_selections(new QToolButton(this)), m_selectionsMenu(new QMenu(this)),
      m_saveAction(new QAction(tr("Save basket as…"), this)), m_deleteMenu(new QMenu(tr("Delete"), this)) {
    m_view->setObjectName(QStringLiteral("basketView"));
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
    buttons->addWidget(m_selections);
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

    m_selections->setText(tr("Selections"));
    m_selections->setToolTip(tr("Save the basket under a name, or put a saved selection back"));
    m_selections->setPopupMode(QToolButton::InstantPopup);
    m_selections->setMenu(m_selectionsMenu);
    connect(m_saveAction, &QAction::triggered, this, &BasketPanel::saveBasketInteractive);
    // Another window may have saved meanwhile: the list is read again each time it opens.
    connect(m_selectionsMenu, &QMenu::aboutToShow, this, &BasketPanel::rebuildSelectionsMenu);
    rebuildSelectionsMenu();
    // The model resets on every change: groups are re-expanded so runs stay visible.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_view->expandAll();
        updateState();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { updateState(); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (const QString uuid =
                        current.sibling(current.row(), 0).data(BasketModel::RunUuidRole).toString();
                    !uuid.isEmpty())
                    emit currentRunChanged(uuid);
            });
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &BasketPanel::showContextMenu);
    m_view->installEventFilter(this);
    updateState();
}

bool BasketPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const QModelIndex current = m_view->currentIndex();
        const QString uuid = current.sibling(current.row(), 0).data(BasketModel::RunUuidRole).toString();
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            (key->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier && !uuid.isEmpty()) {
            emit detailsRequested(uuid);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void BasketPanel::showContextMenu(const QPoint& pos) {
    const QModelIndex at = m_view->indexAt(pos);
    const QString uuid = at.sibling(at.row(), 0).data(BasketModel::RunUuidRole).toString();
    QMenu menu(this);
    menu.addAction(tr("Details") + QStringLiteral("\t") + tr("Enter"), this,
                   [this, uuid] { emit detailsRequested(uuid); })
        ->setEnabled(!uuid.isEmpty());
    menu.addSeparator();
    menu.addAction(tr("Remove selected"), this, &BasketPanel::removeSelected)
        ->setEnabled(m_view->selectionModel()->hasSelection());
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void BasketPanel::removeSelected() {
    m_model->removeIndexes(m_view->selectionModel()->selectedRows());
}

QStringList BasketPanel::currentUuids() const {
    return m_model->runUuids();
}

void BasketPanel::setSelectionStore(SavedSelections* store, const QString& storeUri) {
    m_store = store;
    m_storeUri = storeUri;
    rebuildSelectionsMenu();
    updateState();
}

bool BasketPanel::saveBasketAs(const QString& name, QString* error) {
    try {
        if (!m_store)
            throw std::invalid_argument("no store is open");
        m_store->save(m_storeUri, name, currentUuids());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    rebuildSelectionsMenu();
    return true;
}

void BasketPanel::saveBasketInteractive() {
    if (!m_store)
        return;
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Save basket"),
                              tr("Name for the %n run(s) in the basket:", nullptr, m_model->runCount()),
                              QLineEdit::Normal, QString(), &ok)
            .trimmed();
    if (!ok || name.isEmpty())
        return;
    if (m_store->contains(m_storeUri, name) &&
        QMessageBox::question(
            this, tr("Save basket"),
            tr("A selection named \"%1\" is already saved for this store. Replace it?").arg(name)) !=
            QMessageBox::Yes)
        return;
    QString error;
    if (!saveBasketAs(name, &error))
        QMessageBox::warning(this, tr("Save basket"), tr("The basket could not be saved: %1").arg(error));
}

void BasketPanel::rebuildSelectionsMenu() {
    // clear() deletes the name actions it owns; the Save action and the Delete submenu are the
    // panel's and are only taken out and put back.
    m_selectionsMenu->clear();
    m_deleteMenu->clear();
    m_selectionsMenu->addAction(m_saveAction);
    m_selectionsMenu->addSeparator();
    const QStringList names = m_store ? m_store->names(m_storeUri) : QStringList();
    for (const QString& name : names) {
        QString label = name;
        label.replace(QLatin1Char('&'), QLatin1String("&&")); // a '&' in a name is no shortcut
        QAction* choose = m_selectionsMenu->addAction(label);
        choose->setData(name);
        choose->setToolTip(tr("%n run(s)", nullptr, m_store->runs(m_storeUri, name).size()));
        connect(choose, &QAction::triggered, this, [this, name] {
            if (m_store)
                emit selectionChosen(m_store->runs(m_storeUri, name), name);
        });
        QAction* remove = m_deleteMenu->addAction(label);
        remove->setData(name);
        connect(remove, &QAction::triggered, this, [this, name] {
            if (!m_store)
                return;
            m_store->remove(m_storeUri, name);
            // The action being triggered is one rebuilding deletes: rebuild once it has returned.
            QMetaObject::invokeMethod(this, &BasketPanel::rebuildSelectionsMenu, Qt::QueuedConnection);
        });
    }
    if (names.isEmpty())
        m_selectionsMenu->addAction(tr("(no saved selections)"))->setEnabled(false);
    m_selectionsMenu->addSeparator();
    m_selectionsMenu->addMenu(m_deleteMenu);
    m_deleteMenu->setEnabled(!names.isEmpty());
    m_selections->setEnabled(m_store != nullptr);
}

void BasketPanel::updateState() {
    const int runs = m_model->runCount();
    if (runs == 0)
        m_title->setText(tr("Basket: double-click runs to add them"));
    else
        m_title->setText(runs == 1 ? tr("Basket (1 run)") : tr("Basket (%1 runs)").arg(runs));
    m_remove->setEnabled(m_view->selectionModel()->hasSelection());
    m_clear->setEnabled(runs > 0);
    m_saveAction->setEnabled(m_store != nullptr && runs > 0);
}

} // namespace radt
