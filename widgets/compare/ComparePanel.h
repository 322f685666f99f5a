// SPDX-License-Identifier: MIT
#pragma once
// Basket > Parallel Coordinates: the basket's runs (or every run of its
// experiments) as parallel coordinates, one axis per param that differs and per chosen figure or
// metric stat, coloured by a chosen column, brushed by dragging on the axes; and as a scatter of
// any column against any other. Brushed runs go into the basket, or the basket is reduced to
// them, with one button. Exports PNG/SVG/PDF of the view on screen and CSV of the runs' values.
// Reads on a worker thread (CompareReader), its progress in the view.

#include "widgets/compare/CompareReader.h"
#include "widgets/compare/ParallelEngine.h"
#include "widgets/compare/ScatterEngine.h"

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QToolButton;

namespace radt {

class ParallelPlot;
class ScatterPlot;

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(QWidget* parent = nullptr);
    ~ComparePanel() override;

    /// The store the runs live in (the worker opens its own read-only connection). Clears the view.
    void setStore(const QString& uri);
    /// The basket's runs; read again at once when the view is visible, else when it is shown.
    void setRuns(const QStringList& uuids);
    /// Every run of the basket's experiments instead of the basket's runs alone.
    void setWholeExperiments(bool whole);
    /// A line per configuration (the report's: its runs' mean of each figure) instead of per run;
    /// brushing one brushes its runs.
    void setPerConfiguration(bool perConfiguration);
    /// Reads now (also when hidden).
    void refresh();
    /// Tests and headless use: waits (processing events) until no read is pending.
    bool waitForResult(int timeoutMs);

    /// An axis for this column (at the right end); a metric stat not read yet is read first.
    void addAxis(const QString& id);
    /// An axis for a metric's stat: metricColumnId(key, stat).
    void addMetricAxis(const QString& key, MetricStat stat) { addAxis(metricColumnId(key, stat)); }
    void setColourBy(const QString& id);
    void setScatterColumns(const QString& x, const QString& y);
    /// 0: parallel coordinates, 1: scatter.
    void showTab(int tab);

    /// Writes the view on screen (PNG, SVG, PDF at its size) or the runs' values (CSV), by the
    /// path's extension. Throws CompareExportError.
    void exportTo(const QString& path, double scale = 1.0);

    ParallelEngine& engine() { return m_engine; }
    ScatterEngine& scatter() { return m_scatter; }
    ParallelPlot* plot() const { return m_views.plot; }
    ScatterPlot* scatterPlot() const { return m_views.scatter; }
    /// "12 runs, 4 brushed", or what the read is doing or why it failed.
    QString statusText() const;

    /// The buttons' actions (the widget tests press them as a user does).
    void addBrushedToBasket();
    void keepBrushedOnly();

signals:
    /// Put these runs in the basket (brushed runs not yet there).
    void addToBasket(const QStringList& uuids);
    /// Make the basket these runs.
    void keepInBasket(const QStringList& uuids);
    /// The brushed runs changed: their uuids (empty when nothing is brushed).
    void brushed(const QStringList& uuids);
    void computed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* makeToolBar();
    QWidget* makeScatterBar();
    void connectControls();
    void read();
    void present(CompareResult result);
    void setDefaultAxes();
    /// After the user changed the axes: what is wanted and what was removed.
    void rememberAxes();
    /// The wanted axes the table has, and params that differ now that were never removed.
    void applyWantedAxes();
    void fillColumnChoices();
    void fillAxesMenu();
    void onSelectionChanged();
    /// The runs behind rows of the table shown: a configuration's row stands for its runs.
    QStringList runsOf(const QStringList& rows) const;
    void exportWithDialog(const QString& format);
    void redraw();

    QString m_uri;
    QStringList m_basket;
    bool m_wholeExperiments = false;
    bool m_dirty = false;
    QString m_readKey; ///< the runs the last read was of (basket and scope)
    /// The axes as the user left them, in order, also those whose column the runs read last lack
    /// (a param that no longer differs comes back when it differs again; a metric not read yet).
    QStringList m_wantedAxes;
    QStringList m_hiddenAxes; ///< removed by the user: a param that differs is not added back
    CompareResult m_last;     ///< the last read's runs, report and stats
    CompareReader m_reader;
    ParallelEngine m_engine;
    ScatterEngine m_scatter{m_engine};

    struct Controls {
        QToolButton* axes = nullptr;
        QComboBox* metric = nullptr;
        QComboBox* stat = nullptr;
        QComboBox* colour = nullptr;
        QComboBox* scope = nullptr;
        QComboBox* rows = nullptr; ///< a line per run, or per configuration
        QPushButton* add = nullptr;
        QPushButton* keep = nullptr;
        QPushButton* clear = nullptr;
        QToolButton* exports = nullptr;
        QComboBox* x = nullptr;
        QComboBox* y = nullptr;
        QCheckBox* logX = nullptr;
        QCheckBox* logY = nullptr;
    } m_controls;
    struct Views {
        QTabWidget* tabs = nullptr;
        ParallelPlot* plot = nullptr;
        ScatterPlot* scatter = nullptr;
        QLabel* status = nullptr;
        QProgressBar* progress = nullptr;
    } m_views;
};

} // namespace radt
