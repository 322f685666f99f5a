#include "MetricPicker.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace radt {

MetricPicker::MetricPicker(QWidget* parent)
    : QWidget(parent), m_search(new QLineEdit(this)), m_list(new QListWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("Metrics"), this);
    title->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_search->setPlaceholderText(tr("Search metrics..."));
    m_search->setClearButtonEnabled(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setUniformItemSizes(true);
    layout->addWidget(title);
    layout->addWidget(m_search);
    layout->addWidget(m_list, 1);

    connect(m_search, &QLineEdit::textChanged, this, [this] { applyFilter(); });
    connect(m_list, &QListWidget::currentItemChanged, this,
            [this](QListWidgetItem* current, QListWidgetItem*) { onCurrentItemChanged(current); });
}

void MetricPicker::setKeys(const QStringList& keys) {
    if (keys == m_keys)
        return;
    m_keys = keys;
    {
        const QSignalBlocker block(m_list);
        m_list->clear();
        m_list->addItems(keys);
        const int row = keys.indexOf(m_current);
        if (row >= 0)
            m_list->setCurrentRow(row);
    }
    applyFilter();
    if (!m_current.isEmpty() && !keys.contains(m_current)) {
        m_current.clear();
        emit metricChosen(QString());
    }
}

QStringList MetricPicker::visibleKeys() const {
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i) {
        if (!m_list->item(i)->isHidden())
            out.append(m_list->item(i)->text());
    }
    return out;
}

QString MetricPicker::currentKey() const {
    return m_current;
}

bool MetricPicker::setCurrentKey(const QString& key) {
    const int row = m_keys.indexOf(key);
    if (row < 0)
        return false;
    m_list->setCurrentRow(row);
    m_list->scrollToItem(m_list->item(row));
    return true;
}

void MetricPicker::setFilterText(const QString& text) {
    m_search->setText(text);
}

void MetricPicker::applyFilter() {
    const QString text = m_search->text().trimmed();
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        item->setHidden(!text.isEmpty() && !item->text().contains(text, Qt::CaseInsensitive));
    }
}

void MetricPicker::onCurrentItemChanged(QListWidgetItem* current) {
    const QString key = current ? current->text() : QString();
    if (key == m_current)
        return;
    m_current = key;
    emit metricChosen(key);
}

QString MetricPicker::preferredKey(const QStringList& keys) {
    for (const char* candidate : {"PROC - CPU Utilization", "TOP - CPU Utilization"}) {
        if (keys.contains(QLatin1String(candidate)))
            return QLatin1String(candidate);
    }
    return keys.isEmpty() ? QString() : keys.first();
}

} // namespace radt
