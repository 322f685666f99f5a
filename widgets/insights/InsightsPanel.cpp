// SPDX-License-Identifier: MIT
#include "widgets/insights/InsightsPanel.h"

#include "core/StoreFactory.h"
#include "core/analysis/InsightFigures.h"
#include "core/analysis/InsightReport.h"
#include "core/base/AtomicFile.h"
#include "core/base/InsightSeries.h"
#include "core/base/MetricKeys.h"
#include "core/base/TextFormat.h"
#include "core/report/EnvironmentReport.h"
#include "core/report/ReportTables.h"
#include "core/store/Store.h"
#include "widgets/common/FileDialogs.h"
#include "widgets/common/Formatting.h"
#include "widgets/common/StoreReadThread.h"
#include "widgets/common/TableLayout.h"
#include "widgets/insights/ConfigurationTables.h"
#include "widgets/insights/FrontierChart.h"
#include "widgets/insights/InsightBars.h"
#include "widgets/insights/InsightRunsModel.h"
#include "widgets/insights/InsightTimeChart.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

using namespace QtCharts;
using nlohmann::json;

namespace radt {

namespace {

// The Compare list's entries that are not a run figure's bars (its data: the figure's key).
const QString kFrontierChart = QStringLiteral("#frontier"); ///< the configurations' frontier
const QString kBurstChart = QStringLiteral("#bursts");      ///< the selected run's bursts
const QString kStallChart = QStringLiteral("#stalls");      ///< the selected run's input stalls

/// How a run is named in charts: "<workload> <letter>" as the board's series, else its name.
QString runLabel(const json& r) {
    if (!r["workload"].is_null() && !r["letter"].is_null())
        return QString::fromStdString(r["workload"].get<std::string>() + " " +
                                      r["letter"].get<std::string>());
    if (r.value("name", json()).is_string() && !r["name"].get<std::string>().empty())
        return QString::fromStdString(r["name"].get<std::string>());
    return QString::fromStdString(r["run_uuid"].get<std::string>().substr(0, 8));
}

/// The Collocation tab: the verdicts in a sentence each (or why there are none) over their table.
QWidget* collocationPage(QWidget* parent, AnswerTableModel*& model, QLabel*& note) {
    auto* page = new QWidget(parent);
    model = new AnswerTableModel(parent);
    note = new QLabel(page);
    note->setObjectName(QStringLiteral("collocationNote"));
    note->setWordWrap(true);
    note->setTextFormat(Qt::RichText);                        // the verdicts' labels in bold, escaped
    note->setTextInteractionFlags(Qt::TextSelectableByMouse); // a sentence to quote
    // The verdict's ratios and their ingredients shown; the solo side waits in the header's menu.
    QTableView* table = answerTable(model, page, QStringLiteral("collocationTable"),
                                    {QObject::tr("Alone"), QObject::tr("Energy/job alone")});
    table->setSortingEnabled(false); // a configuration's workloads stay under it
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(note);
    layout->addWidget(table, 1);
    return page;
}

} // namespace

InsightsPanel::InsightsPanel(QWidget* parent)
    // Reports read whole series: on a thread of their own, never the GUI's.
    : QWidget(parent), m_worker(StoreReadThread::start(QStringLiteral("radt insights"))) {
    // In this order: the order widgets are made is the tab order.
    m_inputs.intensity = new QDoubleSpinBox(this);
    m_inputs.pue = new QDoubleSpinBox(this);
    m_inputs.figure = new QComboBox(this);
    m_inputs.perRun = new QCheckBox(tr("per run"), this);
    m_status = new QLabel(this);
    m_workloads = new QLabel(this);
    m_views.model = new InsightRunsModel(this);
    m_views.proxy = new QSortFilterProxyModel(this);
    m_views.table = new QTableView(this);
    m_views.chart = new QChart;
    m_views.chartView = new QChartView(m_views.chart, this);
    m_follow = new QTimer(this);
    m_debounce = new QTimer(this);
    m_inputs.repeats = new QLineEdit(this);
    setUpSettingsFields();
    setUpFigureChoice();
    QHBoxLayout* bar = toolBar();
    setUpViews();
    layOut(bar);
    connectRecomputes();
    fillTable();
}

void InsightsPanel::setUpSettingsFields() {
    QSettings settings;
    const double intensity = settings.value(QStringLiteral("insights/gridIntensity"), 0.0).toDouble();
    m_pue = settings.value(QStringLiteral("insights/pue"), 1.0).toDouble();
    m_gridIntensity = intensity > 0 ? std::optional<double>(intensity) : std::nullopt;

    m_inputs.intensity->setRange(0, 5000);
    m_inputs.intensity->setDecimals(0);
    m_inputs.intensity->setSuffix(tr(" g/kWh"));
    m_inputs.intensity->setSpecialValueText(tr("no CO2e"));
    m_inputs.intensity->setValue(intensity);
    m_inputs.intensity->setToolTip(
        tr("Grid carbon intensity for CO2e figures (your grid's or provider's figure; "
           "none is assumed)"));
    m_inputs.pue->setRange(1.0, 5.0);
    m_inputs.pue->setSingleStep(0.05);
    m_inputs.pue->setPrefix(tr("PUE "));
    m_inputs.pue->setValue(m_pue);
    // The params that tell repeats apart (radt report --repeat-param): runs differing only in them
    // are one configuration, with N, mean and CI.
    m_inputs.repeats->setText(
        settings.value(QStringLiteral("insights/repeatParams"), QStringLiteral("seed")).toString());
    m_inputs.repeats->setPlaceholderText(tr("no repeat params"));
    m_inputs.repeats->setMinimumWidth(70);
    m_inputs.repeats->setMaximumWidth(140);
    m_inputs.repeats->setToolTip(
        tr("Repeat params, comma-separated: runs whose params differ only in these (and in "
           "radT's bookkeeping) are repeats of one configuration"));
    connect(m_inputs.repeats, &QLineEdit::editingFinished, this, [this] {
        QSettings().setValue(QStringLiteral("insights/repeatParams"), m_inputs.repeats->text());
        if (!m_runs.isEmpty())
            refresh();
    });
    m_inputs.pue->setToolTip(tr("Power usage effectiveness of the data centre (1.0: the GPUs' energy only)"));
}

void InsightsPanel::setUpFigureChoice() {
    for (const insight::RunFigure& f : insight::runFigures())
        if (f.charted)
            m_inputs.figure->addItem(tr(f.title), QString::fromUtf8(f.key));
    m_inputs.figure->addItem(tr("Efficiency frontier (configurations)"), kFrontierChart);
    m_inputs.figure->addItem(tr("Burst periods (selected run)"), kBurstChart);
    m_inputs.figure->addItem(tr("Input stalls (selected run)"), kStallChart);
    m_inputs.figure->setCurrentIndex(m_inputs.figure->findData(QStringLiteral("gpu_energy_j")));
    // Not as wide as its longest entry: the bar must fit a floating window on a 1024 px screen.
    m_inputs.figure->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_inputs.figure->setMinimumContentsLength(12);
    m_inputs.perRun->setToolTip(tr("Bars per run, named as the chart's legend names lines, instead of per "
                                   "configuration (mean with its 95 % CI whisker and N) where repeats make "
                                   "configurations"));
}

QHBoxLayout* InsightsPanel::toolBar() {
    auto* copy = new QPushButton(tr("Copy"), this);
    copy->setToolTip(tr("Copy the table as tab-separated text"));
    auto* csv = new QPushButton(tr("CSV…"), this);
    auto* jsonButton = new QPushButton(tr("JSON…"), this);
    auto* paper = new QPushButton(tr("LaTeX…"), this);
    csv->setToolTip(tr("Export the table as CSV"));
    paper->setToolTip(tr("Export the configurations (N, mean ± 95 % CI, Welch marks against configuration 0) "
                         "as a LaTeX booktabs table (.tex) or as CSV (.csv): radt report --latex / --csv"));
    jsonButton->setToolTip(tr("Export the whole report as JSON (radt report --json's shape)"));
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(tableTsv()); });
    connect(csv, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("csv")); });
    connect(jsonButton, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("json")); });
    connect(paper, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("tex")); });

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_inputs.intensity);
    bar->addWidget(m_inputs.pue);
    bar->addWidget(new QLabel(tr("Repeats:"), this));
    bar->addWidget(m_inputs.repeats);
    bar->addWidget(new QLabel(tr("Compare:"), this));
    bar->addWidget(m_inputs.figure);
    bar->addWidget(m_inputs.perRun);
    bar->addStretch(1);
    bar->addWidget(copy);
    bar->addWidget(csv);
    bar->addWidget(jsonButton);
    bar->addWidget(paper);
    return bar;
}

void InsightsPanel::setUpViews() {
    m_views.table->setObjectName(
        QStringLiteral("insightsRunTable")); // runs brushed elsewhere are selected here
    m_views.proxy->setSourceModel(m_views.model);
    m_views.proxy->setSortRole(kNumberRole);
    m_views.table->setModel(m_views.proxy);
    m_views.table->setSortingEnabled(true);
    m_views.table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_views.table->verticalHeader()->setVisible(false);
    m_views.table->setTextElideMode(Qt::ElideMiddle);
    m_views.table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    // The run's name stays in view while its figures scroll; blank figures (no CO2e without an
    // intensity, no epoch figures without epochs) wait in the header's menu.
    installColumnChooser(m_views.table, QStringLiteral("insightsRunTable"), {});
    freezeFirstColumn(m_views.table);
    m_views.chart->legend()->hide();
    m_views.chart->setMargins(QMargins(4, 4, 4, 4));
    m_views.chartView->setRenderHint(QPainter::Antialiasing);
    m_views.chartView->setMinimumSize(230, 140); // the tables take the rest of a 1024 px window
    m_status->setWordWrap(true); // a long note must not widen a floating window past the screen
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_workloads->setWordWrap(true);
    m_workloads->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void InsightsPanel::layOut(QHBoxLayout* bar) {
    // Side by side: a bottom dock is wide and short.
    auto* split = new QSplitter(Qt::Horizontal, this);
    // Runs, and the answers for repeats: configurations (N, mean ± CI) and their comparisons.
    auto* tabs = new QTabWidget(this);
    tabs->setDocumentMode(true);
    tabs->addTab(m_views.table, tr("Runs"));
    m_views.configurations = new AnswerTableModel(this);
    m_views.comparisons = new AnswerTableModel(this);
    // What fits beside the chart at 1024 px; the rest one right-click on a header away.
    tabs->addTab(answerTable(m_views.configurations, this, QStringLiteral("configurationsTable"),
                             {tr("#"), tr("Params"), tr("Energy / epoch\nmean ± CI95"),
                              tr("Epoch time\nmean ± CI95"), tr("GPU util %\nmean ± CI95")}),
                 tr("Configurations"));
    tabs->addTab(
        answerTable(m_views.comparisons, this, QStringLiteral("comparisonsTable"), {tr("Welch t"), tr("df")}),
        tr("Comparisons"));
    tabs->addTab(collocationPage(this, m_views.collocation, m_views.collocationNote), tr("Collocation"));
    split->addWidget(tabs);
    split->addWidget(m_views.chartView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    // The table leads: the tab shown gets the width it needs to show every column it shows, the
    // chart keeps the rest (its minimum at least), so a 1024 px window scrolls no table sideways.
    auto fitTable = [split, tabs] {
        auto* table = qobject_cast<QTableView*>(tabs->currentWidget());
        if (!table)
            table = tabs->currentWidget()->findChild<QTableView*>(QString(), Qt::FindDirectChildrenOnly);
        const int total = split->width() - split->handleWidth();
        const int chartLeast = split->widget(1)->minimumWidth();
        if (!table || total <= chartLeast)
            return;
        const int need = widthToShowAllColumns(table) + (tabs->width() - table->width());
        // A table that fits gets the width it needs, the chart keeping the rest (its minimum at least); one
        // that cannot fit anyway (the runs' 20 figures) scrolls beside a chart of its 40 %.
        const int usual = total * 3 / 5;
        const int tableWidth = need <= total - chartLeast ? std::max(usual, need) : usual;
        if (tableWidth != split->sizes().front())
            split->setSizes({tableWidth, total - tableWidth});
    };
    auto* fit = new QTimer(this);
    fit->setSingleShot(true);
    fit->setInterval(50); // after the tables' own column fitting (a 0 ms timer each)
    connect(fit, &QTimer::timeout, this, fitTable);
    connect(tabs, &QTabWidget::currentChanged, fit, qOverload<>(&QTimer::start));
    connect(this, &InsightsPanel::computed, fit, qOverload<>(&QTimer::start));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    layout->addWidget(m_workloads);
    layout->addWidget(m_status);
}

void InsightsPanel::connectRecomputes() {
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150); // a basket filled run by run computes once
    connect(m_debounce, &QTimer::timeout, this, [this] { compute(); });
    m_follow->setInterval(5000);
    connect(m_follow, &QTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
    });
    auto carbonChanged = [this] {
        const double g = m_inputs.intensity->value();
        setCarbon(g > 0 ? std::optional<double>(g) : std::nullopt, m_inputs.pue->value());
    };
    connect(m_inputs.intensity, qOverload<double>(&QDoubleSpinBox::valueChanged), this, carbonChanged);
    connect(m_inputs.pue, qOverload<double>(&QDoubleSpinBox::valueChanged), this, carbonChanged);
    connect(m_inputs.figure, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { fillChart(); });
    connect(m_inputs.perRun, &QCheckBox::toggled, this, [this] { fillChart(); });
    connect(m_views.table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (const QString chart = m_inputs.figure->currentData().toString();
            chart == kBurstChart || chart == kStallChart)
            fillChart();
    });
}

InsightsPanel::~InsightsPanel() = default;

void InsightsPanel::setStore(const QString& uri) {
    m_uri = uri;
    m_runs.clear();
    m_report = json();
    ++m_generation;
    fillTable();
    fillChart();
    m_status->clear();
}

void InsightsPanel::setRuns(const QStringList& uuids) {
    if (uuids == m_runs)
        return;
    m_runs = uuids;
    if (uuids.isEmpty()) {
        // Clear all: no figure of runs no longer in the basket stays on screen while a worker runs.
        m_report = json();
        ++m_generation;
        fillTable();
        fillChart();
        m_status->clear();
        return;
    }
    if (isVisible())
        m_debounce->start();
    else
        m_dirty = true;
}

void InsightsPanel::refresh() {
    m_debounce->stop();
    compute();
}

void InsightsPanel::setCarbon(std::optional<double> gridIntensity, double pue) {
    m_gridIntensity = gridIntensity;
    m_pue = pue;
    QSettings settings;
    settings.setValue(QStringLiteral("insights/gridIntensity"), gridIntensity.value_or(0));
    settings.setValue(QStringLiteral("insights/pue"), pue);
    const QSignalBlocker a(m_inputs.intensity), b(m_inputs.pue);
    m_inputs.intensity->setValue(gridIntensity.value_or(0));
    m_inputs.pue->setValue(pue);
    m_debounce->start();
}

void InsightsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_dirty || m_shown != m_generation || m_report.is_null()) {
        m_dirty = false;
        m_debounce->start();
    }
}

void InsightsPanel::compute() {
    const quint64 generation = ++m_generation;
    if (m_uri.isEmpty() || m_runs.isEmpty()) {
        present(json(), generation, QString());
        return;
    }
    ReportOptions options;
    options.gridIntensity = m_gridIntensity;
    options.pue = m_pue;
    options.repeatParams.clear();
    for (const QString& name : m_inputs.repeats->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty())
            options.repeatParams.push_back(name.trimmed().toStdString());
    std::vector<std::string> uuids;
    for (const QString& u : m_runs)
        uuids.push_back(u.toStdString());
    const std::string uri = m_uri.toStdString();
    m_status->setText(tr("Computing insights for %n run(s)…", nullptr, int(uuids.size())));
    QPointer<InsightsPanel> self(this);
    m_worker->postLatest(generation, [self, generation, uri, uuids, options](StoreReadThread& reader) {
        json report;
        QString error;
        try {
            Store& store = reader.connection(uri);
            std::vector<Run> runs;
            for (const std::string& u : uuids)
                if (auto r = store.run(u))
                    runs.push_back(std::move(*r));
            report = buildReport(store, runs, options, [&](size_t done, size_t total) {
                QMetaObject::invokeMethod(self, [self, done, total] {
                    if (self)
                        emit self->progress(int(done), int(total));
                });
            });
            addEnvironmentDiffs(report, runs, artifactContextOfStore(uri)); // "mixed environments"
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(self, [self, report = std::move(report), generation, error]() mutable {
            if (self)
                self->present(std::move(report), generation, error);
        });
    });
}

void InsightsPanel::present(json report, quint64 generation, const QString& error) {
    if (generation != m_generation)
        return; // an older request's answer
    m_shown = generation;
    m_error = error;
    m_report = std::move(report);
    fillTable();
    fillChart();
    bool running = false;
    if (m_report.is_object())
        for (const json& r : m_report["runs"])
            running |= r["status"] == "RUNNING";
    running ? m_follow->start() : m_follow->stop();
    if (!error.isEmpty()) {
        m_status->setText(tr("Insights could not be computed: %1").arg(error));
    } else if (m_report.is_null()) {
        m_status->setText(
            tr("Add runs to the basket to see their energy, utilisation and collocation figures."));
    } else {
        m_status->setText(
            tr("Gaps over 5 sampling intervals are not bridged; ⚠ marks a utilisation/SM-activity "
               "gap of 30 pp or more, and an energy figure with a caveat (its tooltip says which); a "
               "shared GPU's energy is split equally.%1")
                .arg(running ? tr(" Following running runs.") : QString()));
    }
    emit computed();
}

void InsightsPanel::fillChart() {
    m_views.chart->legend()->hide(); // the frontier and the stalls show their own
    m_views.chart->removeAllSeries();
    for (QAbstractAxis* axis : m_views.chart->axes())
        m_views.chart->removeAxis(axis);
    const QString chosen = m_inputs.figure->currentData().toString();
    if (chosen == kBurstChart || chosen == kStallChart) {
        fillRunChart(chosen == kBurstChart ? TimeChartRequest::Kind::Bursts : TimeChartRequest::Kind::Stalls);
        return;
    }
    ++m_burstGeneration; // a run chart still being read is not drawn over this one
    m_burstPending = false;
    if (chosen == kFrontierChart) {
        drawFrontierChart(m_views.chart, m_report.is_object() ? m_report : json::object());
        return;
    }
    const insight::RunFigure& figure = insight::runFigure(chosen.toStdString());
    m_views.chart->setTitle(tr(figure.title));
    const bool configurations = repeatsMakeConfigurations(m_report);
    m_inputs.perRun->setEnabled(configurations);
    if (!m_report.is_object() || m_report["runs"].empty())
        return;
    // Repeats make configurations: a bar each, with its interval, unless the runs are asked for.
    drawInsightBars(m_views.chart, m_report, figure, configurations && !m_inputs.perRun->isChecked());
}

void InsightsPanel::fillRunChart(TimeChartRequest::Kind kind) {
    ++m_burstGeneration; // whatever was asked before is not drawn now
    m_burstPending = false;
    const bool bursts = kind == TimeChartRequest::Kind::Bursts;
    m_views.chart->setTitle(bursts ? tr("Burst periods: select a run") : tr("Input stalls: select a run"));
    if (!m_report.is_object() || m_report["runs"].empty() || m_uri.isEmpty())
        return;
    // The selected run, else the first row.
    QString uuid = m_views.proxy->index(0, 0).data(kUuidRole).toString();
    if (const QModelIndexList rows = m_views.table->selectionModel()->selectedRows(); !rows.isEmpty())
        uuid = rows.front().data(kUuidRole).toString();
    const json* run = nullptr;
    for (const json& r : m_report["runs"])
        if (r["run_uuid"] == uuid.toStdString())
            run = &r;
    if (!run)
        return;
    TimeChartRequest request;
    request.kind = kind;
    request.runUuid = uuid.toStdString();
    request.label = runLabel(*run).toStdString();
    if (bursts) {
        // Its GPU utilisation, else the first metric analysed.
        if ((*run)["burst_idle"].empty())
            return;
        request.key = (*run)["burst_idle"].begin().key();
        for (const std::string& preferred : keysOfRole(KeyRole::GpuUtilisation))
            if ((*run)["burst_idle"].contains(preferred)) {
                request.key = preferred;
                break;
            }
        request.threshold = (*run)["burst_idle"][request.key]["threshold"].get<double>();
    } else {
        const json& settings = m_report["settings"];
        request.stalls.gpuBelowPct = settings.value("stall_gpu_below_pct", insight::kStallGpuBelowPct);
        request.stalls.cpuCores = settings.value("stall_cpu_cores", insight::kStallCpuCores);
    }
    m_views.chart->setTitle(
        bursts ? tr("Burst periods: reading %1 of %2…")
                     .arg(QString::fromStdString(request.key), QString::fromStdString(request.label))
               : tr("Input stalls: reading the GPU and CPU utilisation of %1…")
                     .arg(QString::fromStdString(request.label)));
    // Read (on PostgreSQL, over the network) and reduced to the chart's resolution on the worker's
    // thread, with its connection; only the newest request is drawn.
    const quint64 generation = m_burstGeneration;
    m_burstPending = true;
    QPointer<InsightsPanel> self(this);
    const std::string uri = m_uri.toStdString();
    m_worker->post([self, generation, uri, request](StoreReadThread& reader) {
        TimeChartData data;
        try {
            data = readTimeChart(reader.connection(uri), request);
        } catch (const std::exception& e) {
            data.error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(self, [self, data = std::move(data), generation, request] {
            if (!self || generation != self->m_burstGeneration)
                return;
            self->m_burstPending = false;
            drawTimeChart(self->m_views.chart, data, request);
        });
    });
}

QString InsightsPanel::footer() const {
    return m_workloads->text();
}

void InsightsPanel::exportJson(const QString& path) const {
    // An empty basket still exports radt report's shape: a script reading it needs no special case.
    const json empty = {{"settings", json::object()},      {"runs", json::array()},
                        {"configurations", json::array()}, {"comparisons", json::array()},
                        {"pareto", json::array()},         {"workloads", json::array()},
                        {"collocation", json::array()}};
    writeFileAtomically(path.toStdString(), (m_report.is_object() ? m_report : empty).dump(2) + "\n");
}

void InsightsPanel::exportConfigurations(const QString& path) const {
    const json report = m_report.is_object() ? m_report : json::object();
    writeFileAtomically(path.toStdString(), path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)
                                                ? configurationsCsv(report)
                                                : configurationsLatex(report));
}

void InsightsPanel::exportCollocation(const QString& path) const {
    const json report = m_report.is_object() ? m_report : json::object();
    writeFileAtomically(path.toStdString(), path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)
                                                ? collocationCsv(report)
                                                : collocationLatex(report));
}

void InsightsPanel::exportWithDialog(const QString& format) {
    const bool tex = format == QLatin1String("tex");
    const QString collocationTex = tr("Collocation verdict, LaTeX table (*.tex)"),
                  collocationCsvFilter = tr("Collocation verdict as CSV (*.csv)");
    QString chosen;
    const QString path =
        saveFileName(this, QStringLiteral("exports"), tr("Export insights"),
                     (tex ? QStringLiteral("configurations.") : QStringLiteral("insights.")) + format,
                     tex ? tr("LaTeX table (*.tex);;Configurations as CSV (*.csv)") + QStringLiteral(";;") +
                               collocationTex + QStringLiteral(";;") + collocationCsvFilter
                     : format == QLatin1String("csv") ? tr("CSV (*.csv)")
                                                      : tr("JSON (*.json)"),
                     &chosen);
    if (path.isEmpty())
        return;
    try {
        (chosen == collocationTex || chosen == collocationCsvFilter) ? exportCollocation(path)
        : tex                                                        ? exportConfigurations(path)
        : format == QLatin1String("csv")                             ? exportCsv(path)
                                                                     : exportJson(path);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export insights"), QString::fromStdString(e.what()));
    }
}

bool InsightsPanel::waitForResult(int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    auto busy = [this] { return m_debounce->isActive() || m_shown != m_generation || m_burstPending; };
    while (busy() && timer.elapsed() < timeoutMs)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    return !busy();
}

} // namespace radt
