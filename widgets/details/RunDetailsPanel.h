// SPDX-License-Identifier: MIT
#pragma once
// One run's page: its overview (status, times and duration, host, command line, devices,
// collocation, notes, where its artifacts are), its params and tags, its metrics' latest values,
// and its artifacts (ArtifactsPane), each table copyable. It reads no store: the window gives it the
// run as the tree holds it and the latest values read on the loader's thread.

#include "core/base/Model.h"

#include <QString>
#include <QWidget>

#include <map>
#include <string>

class QLabel;
class QTabWidget;

namespace radt {

class ArtifactsPane;
class KeyValueTable;
class RunHistoryPane;

/// What the panel needs beside the run: names, and whether its artifacts can be on this machine.
struct RunDetailsContext {
    QString experimentName;
    bool storeOnServer = false; ///< a server store (PostgreSQL) other hosts record into
    QString thisHost;           ///< QSysInfo::machineHostName()
    QString relativeBase;       ///< where a relative artifact path starts (a SQLite store's folder)
};

class RunDetailsPanel : public QWidget {
    Q_OBJECT
public:
    enum Tab { OverviewTab, ParamsTab, MetricsTab, ArtifactsTab, HistoryTab };

    explicit RunDetailsPanel(QWidget* parent = nullptr);

    /// Shows `run`. The same run again (a reread) refreshes its fields and keeps the artifact
    /// open unless its artifact location changed; its latest values wait for setLatestMetrics.
    void showRun(const Run& run, const RunDetailsContext& context, int64_t nowMs);
    /// No run: the message in every tab.
    void clear(const QString& message);
    void setLatestMetrics(const std::map<std::string, LatestMetric>& latest);
    void setLatestMetricsError(const QString& error);

    /// The run shown ("" when none).
    const QString& runUuid() const { return m_uuid; }
    /// The value the overview shows for a field ("Status", "Host", "Command line"...), "" when absent.
    QString field(const QString& name) const;
    QTabWidget* tabs() const { return m_tabs; }
    KeyValueTable* overview() const { return m_overview; }
    KeyValueTable* paramsAndTags() const { return m_params; }
    KeyValueTable* metrics() const { return m_metrics; }
    ArtifactsPane* artifacts() const { return m_artifacts; }
    RunHistoryPane* history() const { return m_history; }

private:
    void fillOverview(const Run& run, const RunDetailsContext& context, int64_t nowMs);
    void fillParamsAndTags(const Run& run);

    QLabel* m_title;
    QTabWidget* m_tabs;
    KeyValueTable* m_overview;
    KeyValueTable* m_params;
    KeyValueTable* m_metrics;
    QLabel* m_metricsNote;
    ArtifactsPane* m_artifacts;
    RunHistoryPane* m_history;
    QString m_uuid;
    std::string m_artifactUri; ///< of the run shown, to keep its artifact open across rereads
};

} // namespace radt
