// SPDX-License-Identifier: MIT
#include "widgets/runs/RunTreePane.h"

#include "core/base/RunFilter.h"
#include "widgets/common/Formatting.h"
#include "widgets/common/StoreReadThread.h"
#include "widgets/runs/RunFilterProxy.h"
#include "widgets/runs/RunTreeModel.h"

#include <QHeaderView>
#include <QItemSelection>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace radt {

namespace {

/// Names a node across rereads (rows move when runs are added): "e:<id>", "w:<id>:<workload>",
/// "r:<uuid>" (`runUuid`, the run a run row stands for).
QString nodeKey(const QModelIndex& index, const QString& runUuid = QString()) {
    if (!runUuid.isEmpty())
        return QStringLiteral("r:") + runUuid;
    const int kind = index.data(RunTreeModel::NodeKindRole).toInt();
    const QString experiment = QString::number(index.data(RunTreeModel::ExperimentIdRole).toLongLong());
    if (kind == RunTreeModel::ExperimentNode)
        return QStringLiteral("e:") + experiment;
    if (kind == RunTreeModel::WorkloadNode)
        return QStringLiteral("w:%1:%2").arg(experiment, index.data(RunTreeModel::WorkloadRole).toString());
    return QString();
}

} // namespace

RunTreePane::RunTreePane(QWidget* parent)
    : QWidget(parent), m_model(new RunTreeModel(this)), m_proxy(new RunFilterProxy(this)),
      m_filter(new QLineEdit(this)), m_tree(new QTreeView(this)), m_noMatch(new QLabel(this)),
      m_add(new QPushButton(tr("Add to basket"), this)) {
    m_add->setObjectName(QStringLiteral("addToBasket"));
    m_proxy->setSourceModel(m_model);
    m_filter->setObjectName(QStringLiteral("runFilter"));
    m_filter->setPlaceholderText(tr("Filter runs (name, status, letter, params)..."));
    m_filter->setToolTip(
        tr("Text in a run's name, status, letter or params; tag:KEY or tag:KEY=VALUE for runs "
           "with such a tag, note:TEXT for runs whose note holds it; or a search in MLflow's syntax, "
           "params.batch_size = '64' and metrics.loss < 0.5 (the store answers it)"));
    m_filter->setClearButtonEnabled(true);

    m_tree->setObjectName(QStringLiteral("runTree"));
    m_tree->setModel(m_proxy);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setColumnWidth(RunTreeModel::NameColumn, 230);
    // Rows drag into the basket (the drag carries the runs under them); a drag never scrolls
    // the tree sideways, away from the Name column.
    m_tree->setDragEnabled(true);
    m_tree->setDragDropMode(QAbstractItemView::DragOnly);
    m_tree->setDefaultDropAction(Qt::CopyAction);

    m_add->setToolTip(
        tr("Add the selected runs, workloads or experiments to the basket (double-click works too)"));
    m_noMatch->setObjectName(QStringLiteral("runFilterNoMatch"));
    m_noMatch->setWordWrap(true);
    m_noMatch->setTextFormat(Qt::PlainText); // the filter's text as typed
    m_noMatch->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter);
    layout->addWidget(m_noMatch);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_add, 0, Qt::AlignLeft);

    m_searchPause = new QTimer(this);
    m_searchPause->setSingleShot(true);
    m_searchPause->setInterval(400);
    connect(m_searchPause, &QTimer::timeout, this, &RunTreePane::search);
    connect(m_filter, &QLineEdit::textChanged, this, &RunTreePane::filterChanged);
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        if (m_searchPause->isActive()) { // Enter asks at once
            m_searchPause->stop();
            search();
        }
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RunTreePane::updateChoosing);
    updateChoosing();
    connect(m_add, &QPushButton::clicked, this, [this] { emit runsChosen(selectedRunUuids(), QString()); });
    // A double-click adds what it is on (a run, a workload, a whole experiment) to the basket, as
    // resources/doc/explorer.md promises; expanding stays on the arrow and the keyboard.
    m_tree->setExpandsOnDoubleClick(false);
    connect(m_tree, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        emit runsChosen(runUuidsUnder(index), index.sibling(index.row(), 0).data().toString());
    });
    connect(m_tree, &QWidget::customContextMenuRequested, this, &RunTreePane::showContextMenu);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (const QString uuid = runUuidAt(current); !uuid.isEmpty())
                    emit currentRunChanged(uuid);
            });
    m_tree->installEventFilter(this);
}

void RunTreePane::filterChanged(const QString& text) {
    const bool filtering = !text.trimmed().isEmpty();
    // The tree as the user left it comes back when the filter is cleared.
    if (filtering && !m_expandedBeforeFilter)
        m_expandedBeforeFilter = expandedNodes();
    m_searchProblem.clear();
    ++m_searchGeneration; // an answer to an earlier text no longer lands
    if (RunFilterProxy::isSearchExpression(text)) {
        m_searchPause->start(); // the rows stay as they are until the store answers
        return;
    }
    m_searchPause->stop();
    m_proxy->setFilterText(text);
    if (filtering) {
        m_tree->expandAll(); // matches can sit deep in the tree: show them all
    } else if (m_expandedBeforeFilter) {
        restoreExpandedNodes(*m_expandedBeforeFilter);
        m_expandedBeforeFilter.reset();
    }
    updateChoosing();
}

void RunTreePane::setStoreUri(const QString& uri) {
    m_uri = uri;
    if (RunFilterProxy::isSearchExpression(m_filter->text()))
        search();
}

void RunTreePane::search() {
    const QString text = m_filter->text();
    if (!RunFilterProxy::isSearchExpression(text) || m_uri.isEmpty())
        return;
    const quint64 generation = ++m_searchGeneration;
    std::vector<RunCondition> conditions;
    try {
        conditions = parseRunFilter(text.toStdString());
    } catch (const RunFilterError& e) {
        m_searchProblem = QString::fromStdString(e.what());
        updateChoosing();
        emit searched(-1);
        return;
    }
    if (!m_searchReader)
        m_searchReader = StoreReadThread::start(QStringLiteral("radt tree search"));
    const std::string uri = m_uri.toStdString();
    QPointer<RunTreePane> self(this);
    m_searchReader->postLatest(
        generation, [self, generation, uri, conditions, text](StoreReadThread& reader) {
            QSet<QString> found;
            QString error;
            try {
                for (const Run& run : reader.connection(uri).searchRuns(conditions))
                    found.insert(toQString(run.uuid));
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
            }
            QMetaObject::invokeMethod(self, [self, generation, found = std::move(found), error, text] {
                if (!self || generation != self->m_searchGeneration)
                    return;
                if (!error.isEmpty()) {
                    self->m_searchProblem = tr("the store could not search: %1").arg(error);
                    self->updateChoosing();
                    emit self->searched(-1);
                    return;
                }
                self->m_proxy->setSearchMatches(text, found);
                self->m_tree->expandAll();
                self->updateChoosing();
                emit self->searched(found.size());
            });
        });
}

QString RunTreePane::runUuidAt(const QModelIndex& index) const {
    const QModelIndex source = index.model() == m_proxy ? m_proxy->mapToSource(index) : index;
    const Run* run = m_model->run(source.sibling(source.row(), 0));
    return run ? toQString(run->uuid) : QString();
}

bool RunTreePane::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_tree && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const QString uuid = runUuidAt(m_tree->currentIndex());
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            (key->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier && !uuid.isEmpty()) {
            emit detailsRequested(uuid);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void RunTreePane::showStore(const std::vector<Experiment>& experiments, const std::vector<Run>& runs) {
    m_model->setContents(experiments, runs, nowMs());
    m_tree->expandToDepth(0);
    fitColumns();
    updateChoosing();
}

void RunTreePane::showReread(const std::vector<Experiment>& experiments, const std::vector<Run>& runs) {
    const QStringList expanded = expandedNodes();
    const QStringList selected = selectedNodes();
    m_model->setContents(experiments, runs, nowMs());
    restoreExpandedNodes(expanded);
    restoreSelectedNodes(selected);
    fitColumns();
    updateChoosing();
    if (RunFilterProxy::isSearchExpression(m_filter->text()))
        search(); // the runs changed: the answer may have too
}

void RunTreePane::updateChoosing() {
    m_add->setEnabled(!selectedRunUuids().isEmpty());
    const QString text = m_filter->text().trimmed();
    m_noMatch->setVisible(!m_searchProblem.isEmpty() || (!text.isEmpty() && m_proxy->rowCount() == 0));
    if (!m_searchProblem.isEmpty())
        m_noMatch->setText(tr("Search: %1").arg(m_searchProblem));
    else if (m_noMatch->isVisible() && RunFilterProxy::isSearchExpression(text))
        m_noMatch->setText(tr("No run matches the search “%1”.").arg(text));
    else if (m_noMatch->isVisible())
        m_noMatch->setText(m_model->runCount() == 0
                               ? tr("No run matches: this store has no runs yet.")
                               : tr("No run matches “%1” in name, status, letter or params (tag:KEY=VALUE "
                                    "and note:TEXT search tags and notes).")
                                     .arg(text));
}

QStringList RunTreePane::selectedNodes() const {
    QStringList keys;
    const QModelIndex current = m_tree->currentIndex();
    keys << (current.isValid() ? nodeKey(current.sibling(current.row(), 0), runUuidAt(current)) : QString());
    for (const QModelIndex& index : m_tree->selectionModel()->selectedRows())
        keys << nodeKey(index, runUuidAt(index));
    return keys;
}

void RunTreePane::restoreSelectedNodes(const QStringList& keys) {
    if (keys.size() < 2 && keys.value(0).isEmpty())
        return;
    const QSet<QString> selected(keys.begin() + 1, keys.end());
    // A walk over the shown tree (runs nest under runs): O(rows), once per reread.
    QItemSelection selection;
    QModelIndex current;
    std::vector<QModelIndex> pending{QModelIndex()};
    while (!pending.empty()) {
        const QModelIndex parent = pending.back();
        pending.pop_back();
        for (int row = 0; row < m_proxy->rowCount(parent); ++row) {
            const QModelIndex index = m_proxy->index(row, 0, parent);
            const QString key = nodeKey(index, runUuidAt(index));
            if (selected.contains(key))
                selection.select(index, index);
            if (key == keys.front())
                current = index;
            if (m_proxy->hasChildren(index))
                pending.push_back(index);
        }
    }
    m_tree->selectionModel()->select(selection,
                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (current.isValid())
        m_tree->selectionModel()->setCurrentIndex(current, QItemSelectionModel::NoUpdate);
}

QStringList RunTreePane::runUuidsUnder(const QModelIndex& index) const {
    const QModelIndex source = index.model() == m_proxy ? m_proxy->mapToSource(index) : index;
    return m_model->runUuidsUnder(source.sibling(source.row(), 0));
}

QStringList RunTreePane::selectedRunUuids() const {
    QStringList uuids;
    for (const QModelIndex& index : m_tree->selectionModel()->selectedRows())
        uuids += m_model->runUuidsUnder(m_proxy->mapToSource(index));
    return uuids;
}

QStringList RunTreePane::selectedDeletedRunUuids() const {
    QStringList uuids;
    for (const QModelIndex& index : m_tree->selectionModel()->selectedRows())
        uuids += m_model->deletedRunUuidsUnder(m_proxy->mapToSource(index));
    return uuids;
}

QList<qlonglong> RunTreePane::selectedExperimentIds(bool deleted) const {
    QList<qlonglong> ids;
    for (const QModelIndex& index : m_tree->selectionModel()->selectedRows())
        if (index.data(RunTreeModel::NodeKindRole).toInt() == RunTreeModel::ExperimentNode &&
            index.data(RunTreeModel::DeletedRole).toBool() == deleted)
            ids << index.data(RunTreeModel::ExperimentIdRole).toLongLong();
    return ids;
}

void RunTreePane::addCurationActions(const QList<QAction*>& actions) {
    if (!m_curation.isEmpty()) {
        auto* separator = new QAction(this);
        separator->setSeparator(true);
        m_curation << separator;
    }
    for (QAction* action : actions) {
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut); // Del here; the basket has its own
        m_tree->addAction(action);
    }
    m_curation += actions;
}

void RunTreePane::reveal(const QString& runUuid) {
    const QModelIndex leaf = m_proxy->mapFromSource(m_model->indexOfRun(runUuid));
    if (!leaf.isValid())
        return;
    m_tree->expand(leaf.parent().parent());
    m_tree->expand(leaf.parent());
    m_tree->scrollTo(leaf);
    fitColumns();
}

void RunTreePane::expandAll() {
    m_tree->expandAll();
    fitColumns();
}

void RunTreePane::focusFilter() {
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void RunTreePane::fitColumns() {
    // Short columns fit their text (fonts differ between machines); Name and Params keep their room.
    for (int column : {RunTreeModel::StatusColumn, RunTreeModel::LetterColumn, RunTreeModel::DurationColumn,
                       RunTreeModel::StartColumn})
        m_tree->resizeColumnToContents(column);
}

void RunTreePane::showContextMenu(const QPoint& pos) {
    QMenu menu(this);
    const QString clicked = runUuidAt(m_tree->indexAt(pos));
    menu.addAction(tr("Details") + QStringLiteral("\t") + tr("Enter"), this,
                   [this, clicked] { emit detailsRequested(clicked); })
        ->setEnabled(!clicked.isEmpty());
    // Deleted runs (Show Deleted Runs) offer only Restore: nothing of theirs goes to the basket.
    menu.addAction(tr("Add to basket"), this, [this] { emit runsChosen(selectedRunUuids(), QString()); })
        ->setEnabled(!selectedRunUuids().isEmpty());
    if (!m_curation.isEmpty()) {
        menu.addSeparator();
        menu.addActions(m_curation);
    }
    menu.addSeparator();
    menu.addAction(tr("Expand all"), m_tree, &QTreeView::expandAll);
    menu.addAction(tr("Collapse all"), m_tree, &QTreeView::collapseAll);
    menu.exec(m_tree->viewport()->mapToGlobal(pos));
}

QStringList RunTreePane::expandedNodes() const {
    QStringList keys;
    for (int e = 0; e < m_proxy->rowCount(); ++e) {
        const QModelIndex experiment = m_proxy->index(e, 0);
        if (m_tree->isExpanded(experiment))
            keys.append(nodeKey(experiment));
        for (int w = 0; w < m_proxy->rowCount(experiment); ++w) {
            const QModelIndex workload = m_proxy->index(w, 0, experiment);
            if (m_tree->isExpanded(workload))
                keys.append(nodeKey(workload));
        }
    }
    return keys;
}

void RunTreePane::restoreExpandedNodes(const QStringList& keys) {
    for (int e = 0; e < m_proxy->rowCount(); ++e) {
        const QModelIndex experiment = m_proxy->index(e, 0);
        m_tree->setExpanded(experiment, keys.contains(nodeKey(experiment)));
        for (int w = 0; w < m_proxy->rowCount(experiment); ++w) {
            const QModelIndex workload = m_proxy->index(w, 0, experiment);
            m_tree->setExpanded(workload, keys.contains(nodeKey(workload)));
        }
    }
}

} // namespace radt
