// SPDX-License-Identifier: MIT
#include "widgets/runs/MetricPicker.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace radt {

namespace {

const QLatin1String kSeparator(" - ");

// What a key item shows under its group: "Power Draw" under "SMI", the whole key otherwise.
QString shortName(const QString& key) {
    const int at = key.indexOf(kSeparator);
    if (at <= 0)
        return key;
    const QString rest = key.mid(at + kSeparator.size());
    return rest.trimmed().isEmpty() ? key : rest;
}

bool groupLess(const QString& a, const QString& b) {
    // Software metrics (loss, epoch time) are what a benchmark is about: they come first.
    const bool aSoftware = a == MetricPicker::softwareGroup(), bSoftware = b == MetricPicker::softwareGroup();
    if (aSoftware != bSoftware)
        return aSoftware;
    // radT mixes "SMI" with lowercase device names ("iostat", "sda"): sort as a reader would.
    const int byCase = QString::compare(a, b, Qt::CaseInsensitive);
    return byCase != 0 ? byCase < 0 : a < b;
}

} // namespace

MetricPicker::MetricPicker(QWidget* parent)
    : QWidget(parent), m_search(new QLineEdit(this)), m_tree(new QTreeWidget(this)) {
    m_tree->setObjectName(QStringLiteral("metricList"));
    m_search->setObjectName(QStringLiteral("metricSearch"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("Metrics"), this);
    title->setStyleSheet(QStringLiteral("font-weight: bold"));
    m_search->setPlaceholderText(tr("Search metrics..."));
    m_search->setClearButtonEnabled(true);
    m_tree->setColumnCount(1);
    m_tree->setHeaderHidden(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setUniformRowHeights(true);
    layout->addWidget(title);
    layout->addWidget(m_search);
    layout->addWidget(m_tree, 1);

    connect(m_search, &QLineEdit::textChanged, this, [this] { applyFilter(); });
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, [this] { onSelectionChanged(); });
    // Only the user's own expanding and collapsing reaches here: rebuilds run with signals blocked.
    connect(m_tree, &QTreeWidget::itemCollapsed, this, [this](QTreeWidgetItem* item) {
        if (!item->parent())
            m_collapsed.insert(item->data(0, GroupRole).toString());
    });
    connect(m_tree, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* item) {
        if (!item->parent())
            m_collapsed.remove(item->data(0, GroupRole).toString());
    });
}

QString MetricPicker::softwareGroup() {
    return tr("Software");
}

QString MetricPicker::groupOf(const QString& key) {
    const int at = key.indexOf(kSeparator);
    const QString prefix = at > 0 ? key.left(at).trimmed() : QString();
    return prefix.isEmpty() ? softwareGroup() : prefix;
}

void MetricPicker::setKeys(const QStringList& keys) {
    if (keys == m_keys)
        return;
    m_keys = keys;
    rebuild();
    if (!m_current.isEmpty() && !keys.contains(m_current)) {
        m_current.clear();
        emit metricChosen(QString());
    }
}

void MetricPicker::rebuild() {
    // Groups in display order, keys in each as the caller listed them.
    std::vector<std::pair<QString, QStringList>> groups;
    for (const QString& key : m_keys) {
        const QString group = groupOf(key);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == group; });
        if (it == groups.end())
            groups.emplace_back(group, QStringList{key});
        else
            it->second.append(key);
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return groupLess(a.first, b.first); });

    const QSignalBlocker block(m_tree); // a rebuild is no choice of the user's
    m_tree->clear();
    for (const auto& [group, keys] : groups) {
        auto* groupItem =
            new QTreeWidgetItem(m_tree, {QStringLiteral("%1 (%2)").arg(group).arg(keys.size())});
        groupItem->setData(0, GroupRole, group);
        groupItem->setFlags(Qt::ItemIsEnabled); // a header, not a metric to plot
        QFont font = groupItem->font(0);
        font.setBold(true);
        groupItem->setFont(0, font);
        for (const QString& key : keys) {
            auto* item = new QTreeWidgetItem(groupItem, {shortName(key)});
            item->setData(0, KeyRole, key);
            item->setData(0, GroupRole, group);
            item->setToolTip(0, key);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        }
    }
    if (QTreeWidgetItem* current = itemOf(m_current))
        m_tree->setCurrentItem(current);
    applyFilter(); // also opens each group as the user left it
}

QTreeWidgetItem* MetricPicker::itemOf(const QString& key) const {
    if (key.isEmpty())
        return nullptr;
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = m_tree->topLevelItem(g);
        for (int k = 0; k < group->childCount(); ++k) {
            if (group->child(k)->data(0, KeyRole).toString() == key)
                return group->child(k);
        }
    }
    return nullptr;
}

QStringList MetricPicker::visibleKeys() const {
    QStringList out;
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        const QTreeWidgetItem* group = m_tree->topLevelItem(g);
        if (group->isHidden())
            continue;
        for (int k = 0; k < group->childCount(); ++k) {
            if (!group->child(k)->isHidden())
                out.append(group->child(k)->data(0, KeyRole).toString());
        }
    }
    return out;
}

QString MetricPicker::currentKey() const {
    return m_current;
}

bool MetricPicker::setCurrentKey(const QString& key) {
    QTreeWidgetItem* item = itemOf(key);
    if (!item)
        return false;
    m_tree->setCurrentItem(item); // selects it: onSelectionChanged emits
    m_tree->scrollToItem(item);   // opens a collapsed group so the choice is seen
    return true;
}

void MetricPicker::clearChoice() {
    const QSignalBlocker block(m_tree);
    m_tree->clearSelection();
    m_current.clear();
}

void MetricPicker::setFilterText(const QString& text) {
    m_search->setText(text);
}

QString MetricPicker::filterText() const {
    return m_search->text();
}

void MetricPicker::applyFilter() {
    const QString text = m_search->text().trimmed();
    const QSignalBlocker block(m_tree); // expanding for a search must not count as the user's
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = m_tree->topLevelItem(g);
        int shown = 0;
        for (int k = 0; k < group->childCount(); ++k) {
            QTreeWidgetItem* item = group->child(k);
            const bool hide =
                !text.isEmpty() && !item->data(0, KeyRole).toString().contains(text, Qt::CaseInsensitive);
            item->setHidden(hide);
            shown += hide ? 0 : 1;
        }
        group->setHidden(shown == 0);
        // The count follows the search: "DCGMI (1 of 18)" while one of its 18 keys matches.
        const QString name = group->data(0, GroupRole).toString();
        group->setText(0, shown == group->childCount()
                              ? QStringLiteral("%1 (%2)").arg(name).arg(shown)
                              : tr("%1 (%2 of %3)").arg(name).arg(shown).arg(group->childCount()));
        // Matches show even in collapsed groups; an empty search gives the user's layout back.
        group->setExpanded(!text.isEmpty() || !m_collapsed.contains(group->data(0, GroupRole).toString()));
    }
}

void MetricPicker::onSelectionChanged() {
    const QList<QTreeWidgetItem*> selected = m_tree->selectedItems();
    const QString key = selected.isEmpty() ? QString() : selected.first()->data(0, KeyRole).toString();
    if (key.isEmpty()) {
        // Clicking a group header (not selectable) clears the selection; the chart keeps its
        // metric, so the list keeps showing it chosen.
        if (QTreeWidgetItem* current = itemOf(m_current)) {
            const QSignalBlocker block(m_tree);
            current->setSelected(true);
        }
        return;
    }
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
