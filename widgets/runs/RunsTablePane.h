// SPDX-License-Identifier: MIT
#pragma once
// The runs table (resources/DESIGN.md §8): every run of the open store found by a search in
// MLflow's syntax (core/base/RunFilter, evaluated by the store in SQL), read off the GUI thread,
// one row per run with a column per attribute, param, tag and metric, sortable, the columns chosen
// kept per store; the selected rows go to the basket, whose runs are marked.

#include <QSet>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace radt {

class RunsSortProxy;
class RunsTableModel;
class StoreReadThread;

class RunsTablePane : public QWidget {
    Q_OBJECT
public:
    explicit RunsTablePane(QWidget* parent = nullptr);
    ~RunsTablePane() override;

    /// Shows the runs of the store at `uri`, read now if the table is shown, else when it is
    /// (a hidden table reads nothing); "" empties the table.
    void setStore(const QString& uri);
    /// Reads the store again with the search shown (after a curation or a new run), or when shown.
    void reload();
    /// The basket's runs, marked in the table.
    void setBasket(const QStringList& uuids);

    QTableView* view() const { return m_view; }
    RunsTableModel* model() const { return m_model; }
    QLineEdit* searchEdit() const { return m_search; }
    /// The line under the search: how many runs match, or where the search went wrong.
    QString statusText() const;

signals:
    /// The selected rows' runs (Add to Basket, a double-click, Enter).
    void addToBasket(const QStringList& uuids);
    /// A read landed (its rows shown) or failed.
    void loaded(int runs);
    /// The figures of the rows shown landed (`runs` of them).
    void figuresLoaded(int runs);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void search();
    /// The report's figures of the rows shown, computed on the table's thread (each run's series
    /// read), said as they come; a newer search stops them.
    void computeFigures();
    void addSelection();

    RunsTableModel* m_model;
    RunsSortProxy* m_proxy;
    QTableView* m_view;
    QLineEdit* m_search;
    QLabel* m_status;
    QPushButton* m_add;
    QPushButton* m_figuresButton; ///< figures for more runs than are computed unasked
    QString m_uri;
    QString m_columnsTable; ///< the column chooser's settings key: per store
    QSet<QString> m_basket;
    std::shared_ptr<StoreReadThread> m_reader;
    quint64 m_generation = 0;
    bool m_stale = false; ///< the store changed while the table was hidden: read it when shown
};

} // namespace radt
