// SPDX-License-Identifier: MIT
// ChartPanel's mouse: the crosshair that reads every visible line at the mouse (and keeps to
// what a zoom shows), the run-details tooltip of the line under it, the wheel's zoom, and the
// Details menu of a legend entry or a line.

#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartDescription.h"

#include "widgets/chart/ChartCrosshair.h"
#include "widgets/chart/ChartPlotItem.h"

#include <QChart>
#include <QChartView>
#include <QContextMenuEvent>
#include <QLineSeries>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

namespace radt {

using namespace QtCharts;

namespace {

/// The Details menu of a right-click on runs: a line of one run gives "Details of <its name>", a
/// merged or grouped line a "Details of" list of its runs by name.
void showDetailsMenu(ChartPanel& panel, const QStringList& uuids, const QPoint& globalPos) {
    QMenu menu(&panel);
    constexpr int kMostListed = 25;
    QMenu* list = uuids.size() == 1 ? &menu : menu.addMenu(ChartPanel::tr("Details of"));
    for (int i = 0; i < uuids.size() && i < kMostListed; ++i) {
        const QString& uuid = uuids[i];
        QString label = uuid.left(8);
        for (const ChartRunData& r : panel.engine().runs())
            if (QString::fromStdString(r.run.uuid) == uuid)
                label = r.run.name.empty() ? seriesLabelOf(r.run) : QString::fromStdString(r.run.name);
        if (uuids.size() == 1)
            label = ChartPanel::tr("Details of %1").arg(label);
        list->addAction(label, &panel, [&panel, uuid] { emit panel.detailsRequested(uuid); });
    }
    if (uuids.size() > kMostListed)
        list->addAction(ChartPanel::tr("… %1 more").arg(uuids.size() - kMostListed))->setEnabled(false);
    menu.exec(globalPos);
}

} // namespace

QString ChartPanel::showCrosshairAt(double axisX) {
    return m_crosshair->showAt(m_engine, m_series.empty() ? nullptr : m_series.front(), axisX);
}

bool ChartPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_view->viewport() || m_series.empty())
        return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::MouseMove) {
        const QPoint pos = static_cast<QMouseEvent*>(event)->pos();
        const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(pos));
        if (m_chart->plotArea().contains(inChart))
            showCrosshairAt(m_chart->mapToValue(inChart, m_series.front()).x());
        else
            m_crosshair->hide();
        // The run-details tooltip of the line under the mouse, shown once as it is entered.
        const int line = lineAt(pos);
        if (line != m_hoveredLine) {
            m_hoveredLine = line;
            m_plot->setEmphasised(line); // over the density, where a line cannot be told apart
            if (line >= 0)
                QToolTip::showText(QCursor::pos(), seriesTooltip(m_engine, line), m_view);
            else
                QToolTip::hideText();
        }
    } else if (event->type() == QEvent::Wheel) {
        // The wheel zooms x around the mouse, as in every plotting tool; with Ctrl it goes on
        // to the board, which scrolls (as its scroll bar does).
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->modifiers() & Qt::ControlModifier)
            return false;
        const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(wheel->position().toPoint()));
        const double at = m_chart->plotArea().contains(inChart)
                              ? m_chart->mapToValue(inChart, m_series.front()).x()
                              : (visibleXRange().first + visibleXRange().second) / 2;
        if (const auto zoom = m_engine.wheelZoom(at, wheel->angleDelta().y() / 120.0))
            setUserZoom(*zoom);
        // The lines moved under the mouse: the one under it now is the one drawn over a density.
        m_hoveredLine = lineAt(wheel->position().toPoint());
        m_plot->setEmphasised(m_hoveredLine);
        return true;
    } else if (event->type() == QEvent::ContextMenu) {
        auto* menuEvent = static_cast<QContextMenuEvent*>(event);
        const QStringList uuids = runUuidsAt(menuEvent->pos());
        if (uuids.isEmpty())
            return false;
        showDetailsMenu(*this, uuids, menuEvent->globalPos());
        return true;
    } else if (event->type() == QEvent::Leave) {
        m_crosshair->hide();
        m_hoveredLine = -1;
        m_plot->setEmphasised(-1);
    }
    return QWidget::eventFilter(watched, event);
}

QStringList ChartPanel::runUuidsAt(const QPoint& viewportPos) const {
    const int line = m_hoveredEntry >= 0 ? m_hoveredEntry : lineAt(viewportPos);
    QStringList uuids;
    if (line < 0 || line >= int(m_engine.lines().size()))
        return uuids;
    for (size_t run : m_engine.lines()[size_t(line)].runs)
        uuids << QString::fromStdString(m_engine.runs()[run].run.uuid);
    return uuids;
}

int ChartPanel::lineAt(const QPoint& viewportPos) const {
    const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(viewportPos));
    return m_engine.lineAt(inChart, m_plot->mapping(), std::as_const(*m_plot).lines());
}

void ChartPanel::refreshCrosshair() {
    // A crosshair shown before a zoom reads the new range where the mouse is, not a stale spot.
    if (!m_crosshair->isVisible())
        return;
    const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(m_view->mapFromGlobal(QCursor::pos())));
    const bool underMouse = m_view->underMouse();
    const double axisX = m_crosshair->axisX();
    const auto [lo, hi] = visibleXRange();
    if (underMouse && m_chart->plotArea().contains(inChart))
        showCrosshairAt(m_chart->mapToValue(inChart, m_series.front()).x());
    else if (!underMouse && axisX >= lo && axisX <= hi)
        showCrosshairAt(axisX); // set from code (tests, linked charts): same x
    else
        m_crosshair->hide(); // the mouse off the plot, or a crosshair set from code zoomed out of view
}

} // namespace radt
