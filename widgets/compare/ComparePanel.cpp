// SPDX-License-Identifier: MIT
#include "widgets/compare/ComparePanel.h"

#include "widgets/common/FileDialogs.h"
#include "widgets/compare/CompareExport.h"
#include "widgets/compare/ParallelPlot.h"
#include "widgets/compare/ScatterPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

namespace radt {

namespace {

/// The figures a view starts with, when the runs have them.
const QStringList kDefaultFigures = {QStringLiteral("figure:duration_s"),
                                     QStringLiteral("figure:gpu_energy_j"),
                                     QStringLiteral("figure:energy_per_epoch_j")};

QComboBox* columnCombo(QWidget* parent) {
    auto* combo = new QComboBox(parent);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(14);
    return combo;
}

/// Fills `combo` with the table's columns (title, id as data), keeping its choice where it can.
void fillColumns(QComboBox* combo, const CompareTable& table, const QString& keep, bool withNone) {
    const QSignalBlocker block(combo);
    combo->clear();
    if (withNone)
        combo->addItem(QCoreApplication::translate("radt::ComparePanel", "(one colour)"), QString());
    for (const CompareColumn& c : table.columns)
        combo->addItem(c.header(), c.id);
    combo->setCurrentIndex(std::max(0, combo->findData(keep)));
}

} // namespace

ComparePanel::ComparePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(makeToolBar());
    m_views.tabs = new QTabWidget(this);
    m_views.plot = new ParallelPlot(m_engine, m_views.tabs);
    auto* scatterPage = new QWidget(m_views.tabs);
    auto* scatterLayout = new QVBoxLayout(scatterPage);
    scatterLayout->setContentsMargins(0, 0, 0, 0);
    scatterLayout->addWidget(makeScatterBar());
    m_views.scatter = new ScatterPlot(m_scatter, scatterPage);
    scatterLayout->addWidget(m_views.scatter, 1);
    m_views.tabs->addTab(m_views.plot, tr("Parallel Coordinates"));
    m_views.tabs->addTab(scatterPage, tr("Scatter"));
    layout->addWidget(m_views.tabs, 1);
    auto* bottom = new QHBoxLayout;
    m_views.status = new QLabel(this);
    m_views.status->setWordWrap(true);
    m_views.progress = new QProgressBar(this);
    m_views.progress->setMaximumWidth(220);
    m_views.progress->hide();
    bottom->addWidget(m_views.status, 1);
    bottom->addWidget(m_views.progress);
    // What to do with the brushed runs, under the view: the tool bar above fits a 1024 px screen.
    for (QWidget* w : std::initializer_list<QWidget*>{m_controls.add, m_controls.keep, m_controls.clear,
                                                      m_controls.exports})
        bottom->addWidget(w);
    layout->addLayout(bottom);
    connectControls();
    redraw();
}

ComparePanel::~ComparePanel() = default;

QWidget* ComparePanel::makeToolBar() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    m_controls.scope = new QComboBox(bar);
    m_controls.scope->setObjectName(QStringLiteral("scope"));
    m_controls.scope->addItems({tr("Basket runs"), tr("Basket's experiments")});
    m_controls.scope->setToolTip(
        tr("Compare the basket's runs, or every run of the experiments they are in"));
    m_controls.rows = new QComboBox(bar);
    m_controls.rows->setObjectName(QStringLiteral("rows"));
    m_controls.rows->addItems({tr("Per run"), tr("Per configuration")});
    m_controls.rows->setToolTip(tr("A line per run, or per configuration (runs equal but for the repeat "
                                   "params, as Insights groups them): its figures the mean of its runs"));
    m_controls.axes = new QToolButton(bar);
    m_controls.axes->setText(tr("Axes"));
    m_controls.axes->setPopupMode(QToolButton::InstantPopup);
    m_controls.axes->setMenu(new QMenu(m_controls.axes));
    m_controls.axes->setToolTip(tr("The params and figures shown as axes"));
    m_controls.metric = columnCombo(bar);
    m_controls.metric->setToolTip(tr("A metric to add as an axis"));
    m_controls.stat = new QComboBox(bar);
    for (MetricStat s : {MetricStat::Last, MetricStat::Mean, MetricStat::Min, MetricStat::Max})
        m_controls.stat->addItem(statName(s), int(s));
    auto* addMetric = new QPushButton(tr("Add Axis"), bar);
    connect(addMetric, &QPushButton::clicked, this, [this] {
        if (m_controls.metric->currentIndex() >= 0)
            addMetricAxis(m_controls.metric->currentText(),
                          MetricStat(m_controls.stat->currentData().toInt()));
    });
    m_controls.colour = columnCombo(bar);
    m_controls.colour->setToolTip(tr("The column the lines and points are coloured by"));
    m_controls.add = new QPushButton(tr("Add Brushed to Basket"), bar);
    m_controls.keep = new QPushButton(tr("Keep Only Brushed"), bar);
    m_controls.keep->setToolTip(tr("The basket becomes the brushed runs"));
    m_controls.clear = new QPushButton(tr("Clear Brushes"), bar);
    m_controls.exports = new QToolButton(bar);
    m_controls.exports->setText(tr("Export"));
    m_controls.exports->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(m_controls.exports);
    for (const QString& format : compareExportFormats())
        exportMenu->addAction(format.toUpper() + QStringLiteral("…"), this,
                              [this, format] { exportWithDialog(format); });
    m_controls.exports->setMenu(exportMenu);
    for (QWidget* w : std::initializer_list<QWidget*>{m_controls.scope, m_controls.rows, m_controls.axes,
                                                      m_controls.metric, m_controls.stat, addMetric})
        row->addWidget(w);
    row->addWidget(new QLabel(tr("Colour:"), bar));
    row->addWidget(m_controls.colour);
    row->addStretch(1);
    return bar;
}

QWidget* ComparePanel::makeScatterBar() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 4, 4, 0);
    m_controls.x = columnCombo(bar);
    m_controls.y = columnCombo(bar);
    m_controls.logX = new QCheckBox(tr("Log x"), bar);
    m_controls.logY = new QCheckBox(tr("Log y"), bar);
    row->addWidget(new QLabel(tr("x:"), bar));
    row->addWidget(m_controls.x);
    row->addWidget(m_controls.logX);
    row->addWidget(new QLabel(tr("y:"), bar));
    row->addWidget(m_controls.y);
    row->addWidget(m_controls.logY);
    row->addStretch(1);
    return bar;
}

void ComparePanel::connectControls() {
    connect(m_controls.axes->menu(), &QMenu::aboutToShow, this, &ComparePanel::fillAxesMenu);
    connect(m_controls.rows, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        if (m_last.error.isEmpty() && !m_last.runs.empty())
            present(m_last); // the same read, its rows made again
    });
    connect(m_controls.scope, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int index) { setWholeExperiments(index == 1); });
    connect(m_controls.colour, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] { setColourBy(m_controls.colour->currentData().toString()); });
    const auto scatterChanged = [this] {
        m_scatter.setColumns(m_controls.x->currentData().toString(), m_controls.y->currentData().toString());
        m_scatter.setLog(m_controls.logX->isChecked(), m_controls.logY->isChecked());
        redraw();
    };
    connect(m_controls.x, qOverload<int>(&QComboBox::currentIndexChanged), this, scatterChanged);
    connect(m_controls.y, qOverload<int>(&QComboBox::currentIndexChanged), this, scatterChanged);
    connect(m_controls.logX, &QCheckBox::toggled, this, scatterChanged);
    connect(m_controls.logY, &QCheckBox::toggled, this, scatterChanged);
    connect(m_controls.add, &QPushButton::clicked, this, &ComparePanel::addBrushedToBasket);
    connect(m_controls.keep, &QPushButton::clicked, this, &ComparePanel::keepBrushedOnly);
    connect(m_controls.clear, &QPushButton::clicked, this, [this] {
        m_engine.clearBrushes();
        onSelectionChanged();
    });
    connect(m_views.plot, &ParallelPlot::selectionChanged, this, &ComparePanel::onSelectionChanged);
    connect(m_views.plot, &ParallelPlot::axesChanged, this, [this] {
        rememberAxes();
        fillColumns(m_controls.colour, m_engine.table(), m_engine.colourBy(), true);
        redraw();
    });
}

void ComparePanel::setStore(const QString& uri) {
    m_uri = uri;
    m_basket.clear();
    m_readKey.clear();
    m_wantedAxes.clear();
    m_hiddenAxes.clear();
    m_last = CompareResult{};
    m_engine.setTable(CompareTable{});
    m_scatter.update();
    fillColumnChoices();
    redraw();
}

void ComparePanel::setRuns(const QStringList& uuids) {
    m_basket = uuids;
    if (isVisible())
        read();
    else
        m_dirty = true;
}

void ComparePanel::setWholeExperiments(bool whole) {
    if (whole == m_wholeExperiments)
        return;
    m_wholeExperiments = whole;
    {
        const QSignalBlocker block(m_controls.scope);
        m_controls.scope->setCurrentIndex(whole ? 1 : 0);
    }
    refresh();
}

void ComparePanel::refresh() {
    read();
}

void ComparePanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_dirty)
        read();
}

bool ComparePanel::waitForResult(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (m_reader.isBusy() && timer.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    QCoreApplication::processEvents();
    return !m_reader.isBusy();
}

void ComparePanel::read() {
    m_dirty = false;
    if (m_uri.isEmpty())
        return;
    CompareRequest request;
    request.uri = m_uri.toStdString();
    for (const QString& u : m_basket)
        request.uuids.push_back(u.toStdString());
    request.wholeExperiments = m_wholeExperiments;
    const QString key =
        m_basket.join(QLatin1Char(',')) + (m_wholeExperiments ? QStringLiteral("+e") : QString());
    // The same runs as last time (a metric axis added): their figures and stats are not read again.
    if (key == m_readKey) {
        request.report = m_last.report;
        request.stats = m_last.stats;
    }
    m_readKey = key;
    QStringList keys = m_wantedAxes;
    for (const auto& [metric, stats] : m_last.stats)
        keys << QStringLiteral("metric:last:") + metric;
    for (const QString& id : keys)
        if (id.startsWith(QLatin1String("metric:")))
            request.metricKeys.push_back(id.section(QLatin1Char(':'), 2).toStdString());
    request.preferredMetric = m_wantedAxes.isEmpty();
    m_views.status->setText(m_basket.size() == 1 ? tr("Reading 1 run…")
                                                 : tr("Reading %1 runs…").arg(m_basket.size()));
    m_views.progress->setRange(0, 0);
    m_views.progress->show();
    m_reader.read(
        std::move(request), this, [this](CompareResult result) { present(std::move(result)); },
        [this](int done, int total) {
            m_views.progress->setRange(0, total);
            m_views.progress->setValue(done);
        });
}

void ComparePanel::present(CompareResult result) {
    m_views.progress->hide();
    const bool first = m_wantedAxes.isEmpty();
    m_last = std::move(result);
    if (!m_last.error.isEmpty()) {
        m_views.status->setText(tr("Cannot read the runs: %1").arg(m_last.error));
        emit computed();
        return;
    }
    const CompareTable runs = buildCompareTable(m_last.runs, m_last.report, m_last.stats);
    m_engine.setTable(m_controls.rows->currentIndex() == 1 ? configurationTable(runs, m_last.report) : runs);
    if (first)
        setDefaultAxes();
    else
        applyWantedAxes();
    fillColumnChoices();
    m_scatter.update();
    onSelectionChanged();
    emit computed();
}

void ComparePanel::setDefaultAxes() {
    QStringList axes;
    for (const CompareColumn& c : m_engine.table().columns)
        if (c.isCategorical())
            axes << c.id;
    for (const QString& id : kDefaultFigures)
        if (m_engine.table().column(id) >= 0)
            axes << id;
    const QString metric = metricColumnId(m_last.preferredMetric, MetricStat::Last);
    if (!m_last.preferredMetric.isEmpty() && m_engine.table().column(metric) >= 0)
        axes << metric;
    m_engine.setAxes(axes);
    m_wantedAxes = m_engine.axisIds();
    if (m_engine.colourBy().isEmpty() && !axes.isEmpty())
        m_engine.setColourBy(axes.back());
    // The scatter starts with the first param against the last axis (a result).
    if (m_scatter.xId().isEmpty() && axes.size() >= 2)
        m_scatter.setColumns(axes.front(), axes.back());
}

void ComparePanel::applyWantedAxes() {
    QStringList axes;
    for (const CompareColumn& c : m_engine.table().columns) // params lead
        if (c.isCategorical() && !m_wantedAxes.contains(c.id) && !m_hiddenAxes.contains(c.id))
            axes << c.id;
    m_engine.setAxes(axes + m_wantedAxes);
    m_wantedAxes = axes + m_wantedAxes;
}

void ComparePanel::rememberAxes() {
    QStringList wanted = m_engine.axisIds();
    for (const QString& id : m_wantedAxes) {
        if (wanted.contains(id))
            continue;
        if (m_engine.table().column(id) < 0)
            wanted << id; // not among the runs read last: kept for when it is
        else if (!m_hiddenAxes.contains(id))
            m_hiddenAxes << id; // removed by the user
    }
    for (const QString& id : wanted)
        m_hiddenAxes.removeAll(id);
    m_wantedAxes = wanted;
}

void ComparePanel::fillColumnChoices() {
    const CompareTable& table = m_engine.table();
    fillColumns(m_controls.colour, table, m_engine.colourBy(), true);
    fillColumns(m_controls.x, table, m_scatter.xId(), false);
    fillColumns(m_controls.y, table, m_scatter.yId(), false);
    m_scatter.setColumns(m_controls.x->currentData().toString(), m_controls.y->currentData().toString());
    const QString metric = m_controls.metric->currentText();
    const QSignalBlocker block(m_controls.metric);
    m_controls.metric->clear();
    m_controls.metric->addItems(m_last.metricKeys);
    const int keep = m_controls.metric->findText(metric.isEmpty() ? m_last.preferredMetric : metric);
    if (keep >= 0)
        m_controls.metric->setCurrentIndex(keep);
}

void ComparePanel::fillAxesMenu() {
    QMenu* menu = m_controls.axes->menu();
    menu->clear();
    const QStringList axes = m_engine.axisIds();
    for (const CompareColumn& c : m_engine.table().columns) {
        QAction* action = menu->addAction(c.header());
        action->setCheckable(true);
        action->setChecked(axes.contains(c.id));
        connect(action, &QAction::toggled, this, [this, id = c.id](bool on) {
            QStringList ids = m_engine.axisIds();
            if (on)
                ids << id;
            else
                ids.removeAll(id);
            m_engine.setAxes(ids);
            rememberAxes();
            onSelectionChanged();
        });
    }
    if (menu->isEmpty())
        menu->addAction(tr("(no runs read yet)"))->setEnabled(false);
}

void ComparePanel::addAxis(const QString& id) {
    if (m_engine.table().column(id) >= 0) {
        QStringList ids = m_engine.axisIds();
        if (!ids.contains(id))
            m_engine.setAxes(ids << id);
        rememberAxes();
        onSelectionChanged();
        return;
    }
    if (!id.startsWith(QLatin1String("metric:")) || m_wantedAxes.contains(id))
        return;
    m_wantedAxes << id; // its stats are read first
    m_hiddenAxes.removeAll(id);
    read();
}

void ComparePanel::setColourBy(const QString& id) {
    m_engine.setColourBy(id);
    const QSignalBlocker block(m_controls.colour);
    m_controls.colour->setCurrentIndex(std::max(0, m_controls.colour->findData(m_engine.colourBy())));
    redraw();
}

void ComparePanel::setScatterColumns(const QString& x, const QString& y) {
    m_controls.x->setCurrentIndex(std::max(0, m_controls.x->findData(x)));
    m_controls.y->setCurrentIndex(std::max(0, m_controls.y->findData(y)));
    m_scatter.setColumns(x, y);
    redraw();
}

void ComparePanel::showTab(int tab) {
    m_views.tabs->setCurrentIndex(tab);
}

void ComparePanel::setPerConfiguration(bool perConfiguration) {
    m_controls.rows->setCurrentIndex(perConfiguration ? 1 : 0);
}

QStringList ComparePanel::runsOf(const QStringList& rows) const {
    QStringList uuids;
    for (const CompareRun& row : m_engine.table().runs)
        if (rows.contains(row.uuid))
            uuids << (row.members.isEmpty() ? QStringList{row.uuid} : row.members);
    return uuids;
}

void ComparePanel::onSelectionChanged() {
    QStringList notInBasket;
    for (const QString& u : runsOf(m_engine.selectedUuids()))
        if (!m_basket.contains(u))
            notInBasket << u;
    m_controls.add->setEnabled(m_engine.hasBrush() && !notInBasket.isEmpty());
    m_controls.add->setToolTip(m_wholeExperiments
                                   ? tr("Puts the brushed runs that are not in the basket into it")
                                   : tr("Every run shown is in the basket: compare the basket's experiments "
                                        "(the list on the left) to brush runs that are not"));
    m_controls.keep->setEnabled(m_engine.hasBrush() && !m_engine.selectedRuns().empty());
    m_controls.clear->setEnabled(m_engine.hasBrush());
    redraw();
    emit brushed(m_engine.hasBrush() ? runsOf(m_engine.selectedUuids()) : QStringList());
}

void ComparePanel::addBrushedToBasket() {
    QStringList uuids;
    for (const QString& u : runsOf(m_engine.selectedUuids()))
        if (!m_basket.contains(u))
            uuids << u;
    if (m_engine.hasBrush() && !uuids.isEmpty())
        emit addToBasket(uuids);
}

void ComparePanel::keepBrushedOnly() {
    if (m_engine.hasBrush() && !m_engine.selectedRuns().empty())
        emit keepInBasket(runsOf(m_engine.selectedUuids()));
}

QString ComparePanel::statusText() const {
    return m_views.status->text();
}

void ComparePanel::redraw() {
    if (m_last.error.isEmpty() && !m_reader.isBusy()) {
        const bool configurations = m_controls.rows->currentIndex() == 1;
        QString text = configurations             ? (m_engine.runCount() == 1
                                                         ? tr("1 configuration shown")
                                                         : tr("%1 configurations shown").arg(m_engine.runCount()))
                       : m_engine.runCount() == 1 ? tr("1 run shown")
                                                  : tr("%1 runs shown").arg(m_engine.runCount());
        if (configurations && m_engine.runCount() == 0 && !m_last.runs.empty())
            text = tr("No configuration: only finished runs are repeats of one");
        if (m_engine.hasBrush())
            text += tr(", %1 brushed").arg(m_engine.selectedRuns().size());
        if (m_engine.runCount() > 0)
            text += tr(" · drag along an axis to brush; right-click an axis for a log scale");
        m_views.status->setText(text);
    }
    m_views.plot->layOut(m_views.plot->size());
    m_views.plot->update();
    m_views.scatter->layOut(m_views.scatter->size());
    m_views.scatter->update();
}

void ComparePanel::exportTo(const QString& path, double scale) {
    if (QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0) {
        exportCompareCsv(m_engine, path);
        return;
    }
    const bool parallel = m_views.tabs->currentIndex() == 0;
    QWidget* view = parallel ? static_cast<QWidget*>(m_views.plot) : m_views.scatter;
    const QSize size = view->size().width() >= 200 ? view->size() : QSize(1000, 520);
    const ComparePaint paint = [this, parallel](QPainter& painter, const QSize& at) {
        if (parallel)
            m_views.plot->paintTo(painter, at);
        else
            m_views.scatter->paintTo(painter, at);
    };
    exportComparePicture(paint, path, size, parallel ? tr("Parallel coordinates") : tr("Scatter"), scale);
}

void ComparePanel::exportWithDialog(const QString& format) {
    const QString path =
        saveFileName(this, QStringLiteral("exports"), tr("Export the comparison"),
                     QStringLiteral("comparison.") + format, tr("%1 (*.%2)").arg(format.toUpper(), format));
    if (path.isEmpty())
        return;
    try {
        exportTo(path, format == QLatin1String("png") ? 2.0 : 1.0);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export failed"), QString::fromStdString(e.what()));
    }
}

} // namespace radt
