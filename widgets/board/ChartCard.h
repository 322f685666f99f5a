// SPDX-License-Identifier: MIT
#pragma once
// A chart with its controls, as each chart of radT's board has them: smoothing slider, a menu
// of workloads whose runs are shown one by one, log y, monochrome, line width, x axis, reset zoom.

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;
class QToolBar;
class QToolButton;

namespace radt {

class ChartPanel;

class ChartCard : public QWidget {
    Q_OBJECT
public:
    explicit ChartCard(QWidget* parent = nullptr);
    ChartPanel* chart() const { return m_chart; }
    QSlider* smoothingSlider() const { return m_smoothing; }
    QSpinBox* smoothingSpinBox() const { return m_smoothingValue; }
    QToolButton* runsButton() const { return m_runs; }
    QToolButton* removeButton() const { return m_remove; }
    QComboBox* xAxisBox() const { return m_xAxis; }
    QToolButton* resetZoomButton() const { return m_resetZoom; }
    /// The chart's options; what does not fit the card's width is in its » menu.
    QToolBar* optionsBar() const { return m_options; }
    /// The board's current chart is framed; the metric list plots into it.
    void setCurrent(bool current);

signals:
    void activated();       ///< the user clicked into this chart
    void removeRequested(); ///< its close button
    /// A double-click on the chart or its options bar: the chart alone fills the window (and back).
    void maximiseRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    // The constructor's parts, in order (the order the controls are made is their tab order).
    void createControls();  ///< the options' controls, Reset and close
    void layOut();          ///< the options' toolbar (it overflows into »), then the chart
    void connectControls(); ///< each control to the chart's option, and clicks to the board
    void syncFromChart();   ///< the controls follow the chart's options (after plot, legend clicks)
    void rebuildRunsMenu();

    ChartPanel* m_chart;
    QSlider* m_smoothing;
    QSpinBox* m_smoothingValue;
    QToolButton* m_runs;
    QCheckBox* m_logY;
    QCheckBox* m_mono;
    QDoubleSpinBox* m_width;
    QComboBox* m_xAxis;
    QToolButton* m_resetZoom;
    QToolBar* m_options;
    QToolButton* m_remove;
};

} // namespace radt
