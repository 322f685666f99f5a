// SPDX-License-Identifier: MIT
#pragma once
// The metric list: the keys the basket's runs have, grouped by their radT prefix ("SMI", "TOP",
// ...), with a search line; choosing one plots it.

#include <QSet>
#include <QStringList>
#include <QWidget>

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace radt {

class MetricPicker : public QWidget {
    Q_OBJECT
public:
    enum Roles {
        KeyRole = Qt::UserRole, ///< QString: the full metric key; "" on group items
        GroupRole,              ///< QString: the group an item belongs to (or is)
    };

    explicit MetricPicker(QWidget* parent = nullptr);

    /// Replaces the list; the current key stays chosen when it is still there (no signal then).
    /// Groups the user collapsed stay collapsed.
    void setKeys(const QStringList& keys);
    QStringList keys() const { return m_keys; }
    /// Keys not hidden by the search line, in the order shown.
    QStringList visibleKeys() const;
    QString currentKey() const;
    /// Chooses a key of the list (emits metricChosen when it changes); false when absent.
    bool setCurrentKey(const QString& key);
    /// No metric chosen (a new, empty chart is current), without a signal: choosing any metric,
    /// the one last shown too, then emits metricChosen.
    void clearChoice();
    void setFilterText(const QString& text);
    QString filterText() const;
    QTreeWidget* tree() const { return m_tree; }

    /// The metric a first look should show: PROC CPU, else TOP CPU, else the first key.
    static QString preferredKey(const QStringList& keys);
    /// The group a key is listed under: the text before " - " ("SMI - Power Draw": "SMI"), or
    /// softwareGroup() for keys without one ("loss").
    static QString groupOf(const QString& key);
    static QString softwareGroup();

signals:
    /// The user or setCurrentKey chose another metric ("" when the choice was cleared).
    void metricChosen(const QString& key);

private:
    void rebuild();
    void applyFilter();
    void onSelectionChanged();
    QTreeWidgetItem* itemOf(const QString& key) const;

    QLineEdit* m_search = nullptr;
    QTreeWidget* m_tree = nullptr;
    QStringList m_keys;
    QString m_current;
    QSet<QString> m_collapsed; ///< groups the user collapsed; the others open expanded
};

} // namespace radt
