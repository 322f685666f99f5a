#pragma once
// The basket on screen: its tree grouped by workload, Remove selected and Clear all.

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeView;

namespace radt {

class BasketModel;

class BasketPanel : public QWidget {
    Q_OBJECT
public:
    explicit BasketPanel(BasketModel* model, QWidget* parent = nullptr);

    QTreeView* view() const { return m_view; }
    /// Removes the selected runs and workload groups.
    void removeSelected();

private:
    void updateState();

    BasketModel* m_model;
    QLabel* m_title = nullptr;
    QTreeView* m_view = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_clear = nullptr;
};

} // namespace radt
