// SPDX-License-Identifier: MIT
#pragma once
// Compare Runs' Environment tab: what the runs ran on side by side (core/artifacts/RunEnvironment):
// the recorded files, radt version, host, CPU, cores, driver, CUDA, GPU and every pip and conda
// package, one column per run. Only the items that differ by default, everything with "Show all";
// copied as TSV (Ctrl+C, Copy). Each run's three environment files are read on a thread of
// fileReadPool(), never on the GUI's (a folder on a network share can be slow, or hang: said after
// a while, and quitting never waits for it).

#include "core/artifacts/RunEnvironment.h"
#include "core/base/Model.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;
class QTableWidget;

namespace radt {

class EnvironmentPane : public QWidget {
    Q_OBJECT
public:
    explicit EnvironmentPane(QWidget* parent = nullptr);
    /// Reads `runs`' environments off the GUI thread, then shows them; `headers` name the columns.
    void setRuns(const std::vector<Run>& runs, const QStringList& headers, const ArtifactContext& context);
    /// Shows environments already read (one per header).
    void setEnvironments(const std::vector<RunEnvironment>& environments);
    /// The rows shown, with their header, as tab-separated lines.
    QString tsv() const;

    QTableWidget* table() const { return m_table; }
    QCheckBox* showAllBox() const { return m_showAll; }
    QString statusText() const;
    /// After how long a read still under way is said (tests shorten it).
    void setSlowReadNotice(int ms) { m_slowReadNoticeMs = ms; }

signals:
    /// The environments were read and are shown.
    void environmentsShown();

private:
    void fill();
    void copy();

    QStringList m_headers;
    QStringList m_uuids; ///< the runs' ids, in the columns' order
    std::vector<EnvironmentRow> m_rows;
    QStringList m_problems;
    quint64 m_generation = 0;
    int m_slowReadNoticeMs = 8000;
    QTableWidget* m_table;
    QCheckBox* m_showAll;
    QLabel* m_status;
};

} // namespace radt
