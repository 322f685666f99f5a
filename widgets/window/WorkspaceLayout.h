// SPDX-License-Identifier: MIT
#pragma once
// How the window's parts are arranged: the run tree as a dock on the left, basket and metric list
// over the board in the middle, the summary and the console tabbed together at the bottom (so a
// console opened during a launch takes no height from the charts), insights and parallel coordinates
// floating. Sizes that follow the window's, one chart maximised and back, the frame kept on the screen, and
// the user's arrangement kept across sessions (View > Reset Layout brings the default back).

#include "widgets/window/WindowParts.h"

#include <QByteArray>
#include <QObject>
#include <QSize>

#include <optional>

class QMainWindow;
class QDockWidget;
class QSettings;
class QString;
class QWidget;

namespace radt {

class WorkspaceLayout {
public:
    /// Arranges `parts` (made, not yet placed) in `window`: the central splitter and the docks
    /// (tree on the left, summary and console tabbed at the bottom, Insights floating).
    WorkspaceLayout(QMainWindow& window, WindowParts& parts);

    /// Divides the width between the tree and the charts as a new window does (after a resize
    /// from outside, e.g. the --screenshot size).
    void fitPanesToWidth();
    /// The window as --screenshot shows it: the whole tree expanded, at `size`, panes fitted.
    void arrangeForScreenshot(const QSize& size);
    /// View > Maximise Chart (Ctrl+Shift+M): the current chart alone fills the window (the docks,
    /// the basket and metric list and the other charts hidden); again, everything comes back.
    void toggleMaximisedChart();
    bool chartMaximised() const { return m_beforeMaximise.has_value(); }
    /// Shrinks and moves the window so that its frame (title bar, status bar) is on the screen.
    void fitFrameToScreen();
    /// The window was shown: the frame fitted once a window manager framed it; the docks sized
    /// the first time, unless an arrangement was restored.
    void shown();
    /// The docks back where a new window has them, one board column.
    void reset();
    /// The window's size, docks and board columns as the user left them (settings "window/").
    void save(QSettings& settings) const;
    /// Returns whether a saved arrangement was applied.
    bool restore(QSettings& settings);

private:
    /// The dock's title bar above the summary panel: what its height adds to the panel's.
    int summaryTitleHeight() const;
    /// After a layout: the summary gives back what the board lacks of a chart's minimum height
    /// (a laptop's 700 px), down to one row.
    void keepChartsTheirHeight();
    /// The console tabbed with the summary: showing it raises its tab, the charts keep their height.
    void placeConsole();
    /// How big a floating dock is first shown: at most widthCap wide, heightShare of the
    /// window's height up to heightCap, over the window's lower part (centred, or right of the tree).
    struct FloatingSize {
        int widthCap;
        double heightShare;
        int heightCap;
        bool besideTree = false; ///< over the window right of the run tree, which stays in view
    };
    void placeFloating(QDockWidget* dock, const FloatingSize& size);
    /// A dock floating over the window, hidden until asked for, placed when first shown.
    QDockWidget* addFloatingDock(const QString& title, const char* name, QWidget* widget,
                                 const FloatingSize& size);

    QMainWindow& m_window;
    WindowParts& m_ui;
    /// The context of the layout's connections and timers: they end with the layout, which goes
    /// before the window's docks do (a dock hidden while the window is destroyed calls no one).
    QObject m_connections;
    bool m_insightsSized = false;               ///< Insights was placed over the window once
    bool m_frameFitted = false;                 ///< fitFrameToScreen() was scheduled for the first show
    bool m_settled = false;                     ///< the docks were sized (first show) or restored
    std::optional<QByteArray> m_beforeMaximise; ///< the docks' state while a chart is maximised
};

} // namespace radt
