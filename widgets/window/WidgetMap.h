// SPDX-License-Identifier: MIT
#pragma once
// Where things are on screen, for driving radt-explorer from outside with a real mouse and
// keyboard (xdotool scripts, the test that runs it in a real X server): every visible widget,
// item-view row, menu action and chart, with its rectangle in screen coordinates, as JSON.
// `radt-explorer` writes it when RADT_EXPLORER_WIDGET_MAP names a file (resources/DESIGN.md §8 says nothing
// about it: it is not a format anyone stores, only what the window shows now).
//
// {"widgets": [{"class": "QPushButton", "name": "", "text": "Add chart", "rect": [x, y, w, h]}, ...],
//  "rows":    [{"view": "experiments", "text": "workload 1", "rect": [...]}, ...],
//  "actions": [{"menu": "File", "text": "&Export", "rect": [...]}, ...],
//  "charts":  [{"metric": "loss", "plot": [...], "series": ["workload 1"], "zoomed": false,
//               "xRange": [0, 120], "xTitle": "time since start (s)", "points": 240}, ...]}

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QTimer>

namespace radt {

/// The map of what the application shows now (all visible top-level windows).
QJsonObject describeWidgets();

/// Keeps `path` up to date with describeWidgets(): checked every 150 ms, written (atomically)
/// when it changed.
class WidgetMapWriter : public QObject {
public:
    WidgetMapWriter(const QString& path, QObject* parent);

private:
    void write();

    QString m_path;
    QByteArray m_written;
    QTimer m_timer;
};

} // namespace radt
