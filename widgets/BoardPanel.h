#pragma once
// The board (DESIGN §9): many charts, each one metric over the basket's runs. One chart is the
// current one; the metric list plots into it. Charts are added and removed by the user, and
// their x zoom may be linked.

#include <QWidget>

#include <vector>

class QCheckBox;
class QVBoxLayout;

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
    ChartCard* current() const { return m_current; }
    void setCurrent(ChartCard* card);
    /// Linked x zoom: zooming one chart zooms every chart with the same kind of x axis.
    void setZoomLinked(bool linked);
    bool zoomLinked() const;
    QCheckBox* linkZoomBox() const { return m_linkZoom; }

signals:
    void currentChanged(ChartCard* card);
    void chartAdded(ChartCard* card);

private:
    void propagateZoom(ChartCard* from);

    QVBoxLayout* m_list;
    QCheckBox* m_linkZoom;
    std::vector<ChartCard*> m_cards;
    ChartCard* m_current = nullptr;
};

} // namespace radt
