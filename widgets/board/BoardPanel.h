// SPDX-License-Identifier: MIT
#pragma once
// The board (resources/DESIGN.md §9): many charts, each one metric over the basket's runs. One chart is the
// current one; the metric list plots into it. Charts are added and removed by the user, and
// their x zoom may be linked. The charts form a grid of 1-3 columns in a scroll area: each keeps
// a readable height whatever else takes room (a console, a small screen), and every chart is
// reachable by scrolling; a new chart is scrolled into view.

#include "widgets/chart/engine/LineColours.h"

#include <QWidget>

#include <memory>

#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QScrollArea;

namespace radt {

class ChartCard;

class BoardPanel : public QWidget {
    Q_OBJECT
public:
    explicit BoardPanel(QWidget* parent = nullptr);

    /// A new empty chart at the end of the board; it becomes the current one.
    ChartCard* addChart();
    /// Removes a chart; the board always keeps one (the last one is cleared instead).
    void removeChart(ChartCard* card);
    int chartCount() const { return static_cast<int>(m_cards.size()); }
    ChartCard* chartAt(int i) const { return m_cards.at(static_cast<size_t>(i)); }
    /// The colours every chart of the board takes its lines' from.
    LineColours& lineColours() { return *m_colours; }
    ChartCard* current() const { return m_current; }
    void setCurrent(ChartCard* card);
    /// Linked x zoom: zooming one chart zooms every chart with the same kind of x axis.
    void setZoomLinked(bool linked);
    bool zoomLinked() const;
    QCheckBox* linkZoomBox() const { return m_linkZoom; }
    /// Charts side by side (1-3); the grid fills rows left to right.
    void setColumns(int columns);
    int columns() const { return m_columns; }
    QComboBox* columnsBox() const { return m_columnsBox; }
    QScrollArea* scrollArea() const { return m_scroll; }
    /// The smallest height a chart gets before the board scrolls instead.
    static constexpr int kMinimumChartHeight = 340;  ///< toolbar, a 240 px chart, the overview
    static constexpr int kOneRowMinimumHeight = 220; ///< below this the board scrolls even for one row
    /// The charts the user sees: at least half of each in the board's view.
    std::vector<ChartCard*> visibleCharts() const;
    /// Scrolls so that the chart is in view (after the layout has placed it).
    void scrollTo(ChartCard* card);
    /// Shows `card` alone, filling the board (a maximised chart); nullptr shows every chart again.
    void showOnly(ChartCard* card);
    ChartCard* shownAlone() const { return m_alone; }

signals:
    void currentChanged(ChartCard* card);
    void chartAdded(ChartCard* card);
    /// A chart's bar was double-clicked: it alone should fill the window (or everything come back).
    void maximiseRequested(ChartCard* card);
    /// A chart's legend entry or line asked for a run's details.
    void detailsRequested(const QString& runUuid);

private:
    ChartCard* m_alone = nullptr; ///< the maximised chart, shown alone
    void propagateZoom(ChartCard* from);
    void relayout(); ///< places the cards in the grid

    QGridLayout* m_grid;
    QScrollArea* m_scroll;
    QCheckBox* m_linkZoom;
    QComboBox* m_columnsBox;
    int m_columns = 1;
    std::vector<ChartCard*> m_cards;
    std::shared_ptr<LineColours> m_colours = std::make_shared<LineColours>();
    ChartCard* m_current = nullptr;
};

} // namespace radt
