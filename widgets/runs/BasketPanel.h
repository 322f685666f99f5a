// SPDX-License-Identifier: MIT
#pragma once
// The basket on screen: its tree grouped by workload, Remove selected, Clear all, and named
// selections saved per store (the Selections menu).

#include <QStringList>
#include <QWidget>

class QAction;
class QLabel;
class QMenu;
class QPushButton;
class QToolButton;
class QTreeView;

namespace radt {

class BasketModel;
class SavedSelections;

class BasketPanel : public QWidget {
    Q_OBJECT
public:
    explicit BasketPanel(BasketModel* model, QWidget* parent = nullptr);

    QTreeView* view() const { return m_view; }
    /// Removes the selected runs and workload groups.
    void removeSelected();
    /// The uuids of the runs in the basket, in display order.
    QStringList currentUuids() const;

    /// Where the Selections menu saves and finds named selections, for the store now open
    /// (nullptr: none, the menu is disabled). The store must outlive this panel or be unset.
    void setSelectionStore(SavedSelections* store, const QString& storeUri);
    /// Saves the basket under `name`, replacing a selection of that name. False with the reason
    /// when there is no store, no name or an empty basket. Asks nothing (the menu asks).
    bool saveBasketAs(const QString& name, QString* error = nullptr);
    QToolButton* selectionsButton() const { return m_selections; }

signals:
    /// Enter on a run, or Details in its context menu: show that run's details.
    void detailsRequested(const QString& runUuid);
    /// The current row moved to a run (the details dock follows it).
    void currentRunChanged(const QString& runUuid);
    /// A saved selection was chosen in the menu; uuids no longer in the store are the caller's
    /// to skip.
    void selectionChosen(const QStringList& uuids, const QString& name);

protected:
    /// Enter on a run in the basket asks for its details.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateState();
    void showContextMenu(const QPoint& pos);
    void rebuildSelectionsMenu();
    void saveBasketInteractive();

    BasketModel* m_model;
    QLabel* m_title = nullptr;
    QTreeView* m_view = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_clear = nullptr;
    QToolButton* m_selections = nullptr;
    QMenu* m_selectionsMenu = nullptr;
    QAction* m_saveAction = nullptr;
    QMenu* m_deleteMenu = nullptr;
    SavedSelections* m_store = nullptr;
    QString m_storeUri;
};

} // namespace radt
