// SPDX-License-Identifier: MIT
#pragma once
// Shared by the GUI tests: a small radT-shaped store and the QAbstractItemModelTester warnings.

#include <QDockWidget>
#include <QStringList>

class QAction;
class QMainWindow;

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace radt {
class ChartPanel;
class Store;
struct Run;
} // namespace radt

namespace radt::test {

/// Experiments alpha (workloads 1: a,b and 2: a) and beta (workload 7: a,b plus one run without
/// a workload). Keys of `runs`: "alpha/1/a", ..., "beta/7/b", "beta/loose".
struct SampleStore {
    std::string uri;
    std::map<std::string, std::string> runs; ///< label -> run uuid
};

/// Creates the store at dbPath. With metrics, every run gets 300 points of "PROC - CPU Utilization"
/// (values distinct per run, one NaN in alpha/1/a), plus "TOP - CPU Utilization" on the a runs,
/// "loss" on the b runs and 20,000 points of "GPU - Power" on alpha/1/b.
SampleStore buildSampleStore(const std::string& dbPath, bool withMetrics);
/// The same store with metrics, built at scratchDbPath and copied into a fresh store of `uri`
/// (a PostgreSQL database): the runs keep their uuids, `uri` becomes the store's URI.
SampleStore copySampleStoreTo(const std::string& uri, const std::string& scratchDbPath);

/// Messages QAbstractItemModelTester reported (category qt.modeltest) since the last clear.
QStringList& modelTestWarnings();

/// Answers the next message box that opens (from a timer, while its exec() runs): keeps its text
/// in `text` when given, then clicks `button` (a QMessageBox::StandardButton).
void answerNextMessageBox(int button, QString* text = nullptr);

/// The menu action whose text (without '&' and trailing dots) is `text`, through every menu of
/// the window's menu bar; null when there is none.
QAction* menuAction(const QMainWindow& window, const QString& text);

/// A part of the window (its board, tree, metric list, summary...), found as a user's tools find
/// it: the one child of that type. Null, and the test failed, when there is none.
template <typename Part> Part* partOf(const QObject& window) {
    const auto found = window.findChildren<Part*>();
    if (found.size() != 1)
        ADD_FAILURE() << found.size() << " children of the type asked for, not one";
    return found.isEmpty() ? nullptr : found.front();
}
/// A dock of the window by its object name ("experiments", "summary", "console", "insights").
inline QDockWidget* dockOf(const QObject& window, const char* name) {
    auto* dock = window.findChild<QDockWidget*>(QString::fromLatin1(name));
    if (!dock)
        ADD_FAILURE() << "no dock " << name;
    return dock;
}

/// What the loader does for a chart, on this thread: reads `key` of `runs` (readChartRuns) and
/// shows it. Throws StoreError, the chart unchanged then.
void plotFromStore(ChartPanel& chart, Store& store, const std::vector<Run>& runs, const std::string& key);

} // namespace radt::test
