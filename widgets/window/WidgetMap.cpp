// SPDX-License-Identifier: MIT
#include "widgets/window/WidgetMap.h"

#include "widgets/chart/ChartPanel.h"
#include "widgets/compare/ParallelPlot.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QGraphicsTextItem>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSaveFile>
#include <QTabBar>
#include <QTreeView>

#include <functional>

namespace radt {

namespace {

constexpr int kMaxRowsPerView = 500;

QJsonArray rectOf(const QRect& r) {
    return QJsonArray{r.x(), r.y(), r.width(), r.height()};
}

QJsonArray globalRect(const QWidget* w, const QRect& local) {
    return rectOf(QRect(w->mapToGlobal(local.topLeft()), local.size()));
}

QString textOf(const QWidget* w) {
    if (const auto* b = qobject_cast<const QAbstractButton*>(w))
        return b->text();
    if (const auto* l = qobject_cast<const QLabel*>(w))
        return l->text();
    if (const auto* e = qobject_cast<const QLineEdit*>(w))
        return e->text();
    if (const auto* d = qobject_cast<const QDockWidget*>(w))
        return d->windowTitle();
    return w->isWindow() ? w->windowTitle() : QString();
}

// The rows of a view that are on screen: the children of expanded rows too, column 0's text.
void addRows(const QAbstractItemView* view, const QModelIndex& parent, QJsonArray& rows, int& budget) {
    const QAbstractItemModel* model = view->model();
    const auto* tree = qobject_cast<const QTreeView*>(view);
    const QRect visible = view->viewport()->rect();
    for (int r = 0; r < model->rowCount(parent) && budget > 0; ++r) {
        const QModelIndex index = model->index(r, 0, parent);
        const QRect rect = view->visualRect(index);
        if (rect.isValid() && rect.intersects(visible)) {
            --budget;
            rows.append(QJsonObject{{"view", view->objectName()},
                                    {"text", index.data(Qt::DisplayRole).toString()},
                                    {"rect", globalRect(view->viewport(), rect.intersected(visible))}});
        }
        if (tree && tree->isExpanded(index))
            addRows(view, index, rows, budget);
    }
}

void addActions(const QWidget* menu, const QString& title, QJsonArray& actions) {
    for (QAction* action : menu->actions()) {
        if (!action->isVisible() || action->isSeparator())
            continue;
        QRect rect;
        if (const auto* bar = qobject_cast<const QMenuBar*>(menu))
            rect = bar->actionGeometry(action);
        else if (const auto* popup = qobject_cast<const QMenu*>(menu))
            rect = popup->actionGeometry(action);
        if (rect.isValid())
            actions.append(
                QJsonObject{{"menu", title}, {"text", action->text()}, {"rect", globalRect(menu, rect)}});
    }
}

/// The legend's entries where they are on screen: each name's text item and the marker around it
/// (QtCharts keeps its marker items private; their texts are the lines' names).
QJsonArray describeLegend(ChartPanel* chart) {
    QtCharts::QChartView* view = chart->chartView();
    QJsonArray entries;
    std::function<void(QGraphicsItem*)> visit = [&](QGraphicsItem* item) {
        if (auto* text = qgraphicsitem_cast<QGraphicsTextItem*>(item); text && item->isVisible()) {
            const QGraphicsItem* marker = text->parentItem() ? text->parentItem() : text;
            const QRect rect = view->mapFromScene(marker->sceneBoundingRect()).boundingRect();
            entries.append(
                QJsonObject{{"text", text->toPlainText()}, {"rect", globalRect(view->viewport(), rect)}});
        }
        for (QGraphicsItem* child : item->childItems())
            visit(child);
    };
    visit(chart->chart()->legend());
    return entries;
}

QJsonObject describeChart(ChartPanel* chart) {
    QtCharts::QChartView* view = chart->chartView();
    const QRectF plot = chart->chart()->plotArea();
    const QRect inView = view->mapFromScene(chart->chart()->mapToScene(plot)).boundingRect();
    QJsonArray series;
    for (const QString& name : seriesNames(chart->engine()))
        series.append(name);
    const auto [from, to] = chart->visibleXRange();
    return QJsonObject{{"metric", chart->engine().metricKey()},
                       {"plot", globalRect(view->viewport(), inView)},
                       {"series", series},
                       {"legend", describeLegend(chart)},
                       {"zoomed", chart->engine().zoom().has_value()},
                       {"xRange", QJsonArray{from, to}},
                       {"xTitle", chart->engine().xAxisTitle()},
                       {"points", chart->seriesPoints(0).size()}};
}

/// The parallel coordinates' axes: where each is on screen, its title and its ticks (a script
/// brushes a range by dragging between two ticks' heights).
QJsonArray describeParallelAxes(const ParallelPlot* plot) {
    QJsonArray axes;
    const ParallelEngine& engine = plot->engine();
    for (int axis = 0; axis < engine.axisCount(); ++axis) {
        const QPoint top = plot->mapToGlobal(QPointF(engine.axisX(axis), engine.plotRect().top()).toPoint());
        const QPoint bottom =
            plot->mapToGlobal(QPointF(engine.axisX(axis), engine.plotRect().bottom()).toPoint());
        QJsonArray ticks;
        for (const ScaleTick& tick : engine.scale(axis).ticks())
            ticks.append(QJsonObject{
                {"label", tick.label},
                {"y", plot->mapToGlobal(QPoint(0, int(engine.scale(axis).toPixel(tick.value)))).y()}});
        axes.append(QJsonObject{{"id", engine.axisColumn(axis).id},
                                {"x", top.x()},
                                {"top", top.y()},
                                {"bottom", bottom.y()},
                                {"ticks", ticks}});
    }
    return axes;
}

} // namespace

QJsonObject describeWidgets() {
    QJsonArray widgets, rows, actions, charts, parallelAxes, tabs;
    for (QWidget* top : QApplication::topLevelWidgets()) {
        if (!top->isVisible())
            continue;
        QList<QWidget*> all = top->findChildren<QWidget*>();
        all.prepend(top);
        for (QWidget* w : all) {
            if (!w->isVisible() || w->width() <= 0 || w->height() <= 0)
                continue;
            widgets.append(QJsonObject{{"class", w->metaObject()->className()},
                                       {"name", w->objectName()},
                                       {"text", textOf(w)},
                                       {"rect", globalRect(w, w->rect())}});
            if (auto* view = qobject_cast<QAbstractItemView*>(w); view && view->model()) {
                int budget = kMaxRowsPerView;
                addRows(view, view->rootIndex(), rows, budget);
            }
            if (qobject_cast<QMenuBar*>(w))
                addActions(w, QString(), actions);
            else if (auto* menu = qobject_cast<QMenu*>(w))
                addActions(w, menu->title(), actions);
            if (auto* chart = qobject_cast<ChartPanel*>(w))
                charts.append(describeChart(chart));
            if (auto* plot = qobject_cast<ParallelPlot*>(w))
                parallelAxes = describeParallelAxes(plot);
            if (auto* bar = qobject_cast<QTabBar*>(w)) // a tab is clicked where it is drawn
                for (int i = 0; i < bar->count(); ++i)
                    tabs.append(
                        QJsonObject{{"text", bar->tabText(i)}, {"rect", globalRect(bar, bar->tabRect(i))}});
        }
    }
    return QJsonObject{{"widgets", widgets},           {"rows", rows},
                       {"actions", actions},           {"charts", charts},
                       {"parallelAxes", parallelAxes}, {"tabs", tabs}};
}

WidgetMapWriter::WidgetMapWriter(const QString& path, QObject* parent) : QObject(parent), m_path(path) {
    m_timer.setInterval(150);
    connect(&m_timer, &QTimer::timeout, this, [this] { write(); });
    m_timer.start();
}

void WidgetMapWriter::write() {
    const QByteArray json = QJsonDocument(describeWidgets()).toJson(QJsonDocument::Indented);
    if (json == m_written)
        return;
    QSaveFile file(m_path); // a reader never sees half a map
    if (file.open(QIODevice::WriteOnly) && file.write(json) == json.size() && file.commit())
        m_written = json;
}

} // namespace radt
