#pragma once
// The metric list: the keys the basket's runs have, with a search line; choosing one plots it.

#include <QStringList>
#include <QWidget>

class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace radt {

class MetricPicker : public QWidget {
    Q_OBJECT
public:
    explicit MetricPicker(QWidget* parent = nullptr);

    /// Replaces the list; the current key stays chosen when it is still there (no signal then).
    void setKeys(const QStringList& keys);
    QStringList keys() const { return m_keys; }
    /// Keys not hidden by the search line.
    QStringList visibleKeys() const;
    QString currentKey() const;
    /// Chooses a key of the list (emits metricChosen when it changes); false when absent.
    bool setCurrentKey(const QString& key);
    void setFilterText(const QString& text);

    /// The metric a first look should show: PROC CPU, else TOP CPU, else the first key.
    static QString preferredKey(const QStringList& keys);

signals:
    /// The user or setCurrentKey chose another metric ("" when the choice was cleared).
    void metricChosen(const QString& key);

private:
    void applyFilter();
    void onCurrentItemChanged(QListWidgetItem* current);

    QLineEdit* m_search = nullptr;
    QListWidget* m_list = nullptr;
    QStringList m_keys;
    QString m_current;
};

} // namespace radt
