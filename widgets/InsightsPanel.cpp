#include "InsightsPanel.h"

#include "AtomicFile.h"
#include "BurstInsight.h"
#include "FileDialogs.h"
#include "Formatting.h"
#include "FrontierChart.h"
#include "InsightReport.h"
#include "InsightSeries.h"
#include "ReportTables.h"
#include "SeriesMath.h"
#include "Store.h"

#include <QApplication>
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
#include <QStandardItemModel>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <mutex>

using namespace QtCharts;
using nlohmann::json;

namespace radt {

namespace {

constexpr int kNumberRole = Qt::UserRole + 1; ///< what a column sorts by
constexpr int kUuidRole = Qt::UserRole + 2;   ///< on a row's first cell
constexpr int kFrontierFigure = -2;           ///< the chart shows the configurations' frontier
constexpr int kBurstFigure = -1;              ///< the chart shows the selected run's bursts

struct Column {
    const char* title;
    std::function<json(const json&)> value; ///< from one run's report entry
    int decimals;                           ///< -1: text
};

const std::vector<Column>& columns() {
    static const std::vector<Column> all = {
        {"Run", [](const json& r) { return r["name"]; }, -1},
        {"Experiment", [](const json& r) { return r["experiment"]; }, -1},
        {"Workload", [](const json& r) { return r["workload"]; }, -1},
        {"Letter", [](const json& r) { return r["letter"]; }, -1},
        {"Status", [](const json& r) { return r["status"]; }, -1},
        {"Duration s", [](const json& r) { return r["duration_s"]; }, 1},
        // What the run is charged with: its share of a GPU it shared (issue 23 §1).
        {"GPU energy J", [](const json& r) { return r.value("gpu_energy_attributed_j", r["gpu_energy_j"]); },
         1},
        {"GPU Wh",
         [](const json& r) {
             const json j = r.value("gpu_energy_attributed_j", r["gpu_energy_j"]);
             return j.is_number() ? json(j.get<double>() / 3600.0) : json();
         },
         3},
        {"Source", [](const json& r) { return r["gpu_energy_source"]; }, -1},
        {"Coverage %",
         [](const json& r) {
             return r["energy_coverage"].is_null() ? json() : json(r["energy_coverage"].get<double>() * 100);
         },
         0},
        {"CPU energy J", [](const json& r) { return r["cpu_energy_j"]; }, 1},
        {"Epochs", [](const json& r) { return r["epochs"]; }, 0},
        {"J / epoch",
         [](const json& r) { return r.value("energy_per_epoch_attributed_j", r["energy_per_epoch_j"]); }, 1},
        {"CO2e g", [](const json& r) { return r["co2e_g"]; }, 3},
        {"GPU util mean",
         [](const json& r) {
             for (const char* key : {"DCGMI - GPU Utilization", "SMI - GPU Util"})
                 if (r["util"].contains(key))
                     return json(r["util"][key]["mean"].get<double>() * 100 /
                                 r["util"][key]["scale"].get<double>());
             return json();
         },
         1},
        {"Util - SMACT pp", [](const json& r) { return r["util_smact_gap_pp"]; }, 1},
        {"Slowdown x",
         [](const json& r) { return r["slowdown"].is_null() ? json() : r["slowdown"]["factor"]; }, 2},
        {"Shared GPU with",
         [](const json& r) {
             if (r["collocation"].is_null())
                 return json();
             std::string s;
             for (const json& u : r["collocation"]["shared_with"])
                 s += (s.empty() ? "" : " ") + u.get<std::string>().substr(0, 7);
             return json(s);
         },
         -1},
    };
    return all;
}

/// The figures the bar chart can compare: title, column.
const std::vector<std::pair<const char*, int>>& chartFigures() {
    static const std::vector<std::pair<const char*, int>> all = {
        {"GPU energy (J)", 6},
        {"Energy per epoch (J)", 12},
        {"CO2e (g)", 13},
        {"Slowdown (x)", 16},
        {"Efficiency frontier (configurations)", kFrontierFigure},
        {"Burst periods (selected run)", kBurstFigure}};
    return all;
}

QString csvCell(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')))
        return text;
    QString q = text;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

} // namespace

/// The worker thread and its own store connection (reports read whole series: never on the GUI
/// thread).
struct InsightsPanel::Worker {
    QThread* thread = new QThread; ///< on the heap: it may have to outlive the Worker (see below)
    QObject* context = new QObject;
    std::mutex mutex;
    std::string uri;
    std::unique_ptr<Store> store; ///< opened, used and closed on the worker thread
    quint64 latest = 0;
    Worker() {
        context->moveToThread(thread);
        QObject::connect(thread, &QThread::finished, context, &QObject::deleteLater);
        thread->setObjectName(QStringLiteral("radt insights"));
        thread->start();
    }
    /// Its connection to `wanted` (worker thread only), opened again when the store changed.
    Store& connection(const std::string& wanted) {
        if (!store || uri != wanted) {
            store.reset();
            store = openStore(wanted, OpenMode::ReadOnly); // reads only
            uri = wanted;
        }
        return *store;
    }
    ~Worker() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            latest = ~quint64(0);
        }
        store.reset();
        if (QThread::currentThread() == thread) {
            // The panel went while a task ran: the task held the last reference, so this runs on
            // the worker thread, which cannot wait for itself. It ends once the task returns and
            // is deleted then, by the thread that owns the QThread object.
            QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
            thread->quit();
            return;
        }
        thread->quit();
        thread->wait();
        delete thread;
    }
};

InsightsPanel::InsightsPanel(QWidget* parent)
    : QWidget(parent), m_worker(std::make_shared<Worker>()), m_intensity(new QDoubleSpinBox(this)),
      m_pueBox(new QDoubleSpinBox(this)), m_figure(new QComboBox(this)), m_status(new QLabel(this)),
      m_workloads(new QLabel(this)), m_model(new QStandardItemModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView(this)), m_chart(new QChart),
      m_chartView(new QChartView(m_chart, this)), m_follow(new QTimer(this)), m_debounce(new QTimer(this)),
      m_repeats(new QLineEdit(this)) {
    QSettings settings;
    const double intensity = settings.value(QStringLiteral("insights/gridIntensity"), 0.0).toDouble();
    m_pue = settings.value(QStringLiteral("insights/pue"), 1.0).toDouble();
    m_gridIntensity = intensity > 0 ? std::optional<double>(intensity) : std::nullopt;

    m_intensity->setRange(0, 5000);
    m_intensity->setDecimals(0);
    m_intensity->setSuffix(tr(" g/kWh"));
    m_intensity->setSpecialValueText(tr("no CO2e"));
    m_intensity->setValue(intensity);
    m_intensity->setToolTip(tr("Grid carbon intensity for CO2e figures (your grid's or provider's figure; "
                               "none is assumed)"));
    m_pueBox->setRange(1.0, 5.0);
    m_pueBox->setSingleStep(0.05);
    m_pueBox->setPrefix(tr("PUE "));
    m_pueBox->setValue(m_pue);
    // The params that tell repeats apart (radt report --repeat-param): runs differing only in them
    // are one configuration, with N, mean and CI.
    m_repeats->setText(
        settings.value(QStringLiteral("insights/repeatParams"), QStringLiteral("seed")).toString());
    m_repeats->setPlaceholderText(tr("no repeat params"));
    m_repeats->setMinimumWidth(70);
    m_repeats->setMaximumWidth(140);
    m_repeats->setToolTip(tr("Repeat params, comma-separated: runs whose params differ only in these (and in "
                             "radT's bookkeeping) are repeats of one configuration"));
    connect(m_repeats, &QLineEdit::editingFinished, this, [this] {
        QSettings().setValue(QStringLiteral("insights/repeatParams"), m_repeats->text());
        if (!m_runs.isEmpty())
            refresh();
    });
    m_pueBox->setToolTip(tr("Power usage effectiveness of the data centre (1.0: the GPUs' energy only)"));
    for (const auto& [title, column] : chartFigures())
        m_figure->addItem(tr(title), column);
    // Not as wide as its longest entry: the bar must fit a floating window on a 1024 px screen.
    m_figure->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_figure->setMinimumContentsLength(18);
    auto* copy = new QPushButton(tr("Copy"), this);
    copy->setToolTip(tr("Copy the table as tab-separated text"));
    auto* csv = new QPushButton(tr("CSV…"), this);
    auto* jsonButton = new QPushButton(tr("JSON…"), this);
    auto* paper = new QPushButton(tr("LaTeX…"), this);
    csv->setToolTip(tr("Export the table as CSV"));
    paper->setToolTip(tr("Export the configurations (N, mean ± 95 % CI, Welch marks against configuration 0) "
                         "as a LaTeX booktabs table (.tex) or as CSV (.csv): radt report --latex / --csv"));
    jsonButton->setToolTip(tr("Export the whole report as JSON (radt report --json's shape)"));

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kNumberRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(260, 140);
    m_status->setWordWrap(true); // a long note must not widen a floating window past the screen
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_workloads->setWordWrap(true);
    m_workloads->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_intensity);
    bar->addWidget(m_pueBox);
    bar->addWidget(new QLabel(tr("Repeats:"), this));
    bar->addWidget(m_repeats);
    bar->addWidget(new QLabel(tr("Compare:"), this));
    bar->addWidget(m_figure);
    bar->addStretch(1);
    bar->addWidget(copy);
    bar->addWidget(csv);
    bar->addWidget(jsonButton);
    bar->addWidget(paper);
    // Side by side: a bottom dock is wide and short.
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(m_chartView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    layout->addWidget(m_workloads);
    layout->addWidget(m_status);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150); // a basket filled run by run computes once
    connect(m_debounce, &QTimer::timeout, this, [this] { compute(); });
    m_follow->setInterval(5000);
    connect(m_follow, &QTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
    });
    auto carbonChanged = [this] {
        const double g = m_intensity->value();
        setCarbon(g > 0 ? std::optional<double>(g) : std::nullopt, m_pueBox->value());
    };
    connect(m_intensity, qOverload<double>(&QDoubleSpinBox::valueChanged), this, carbonChanged);
    connect(m_pueBox, qOverload<double>(&QDoubleSpinBox::valueChanged), this, carbonChanged);
    connect(m_figure, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { fillChart(); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (m_figure->currentData().toInt() == kBurstFigure)
            fillChart();
    });
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(tableTsv()); });
    connect(csv, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("csv")); });
    connect(jsonButton, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("json")); });
    connect(paper, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("tex")); });
    fillTable();
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
    const QSignalBlocker a(m_intensity), b(m_pueBox);
    m_intensity->setValue(gridIntensity.value_or(0));
    m_pueBox->setValue(pue);
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
    for (const QString& name : m_repeats->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty())
            options.repeatParams.push_back(name.trimmed().toStdString());
    std::vector<std::string> uuids;
    for (const QString& u : m_runs)
        uuids.push_back(u.toStdString());
    const std::string uri = m_uri.toStdString();
    m_status->setText(tr("Computing insights for %n run(s)…", nullptr, int(uuids.size())));
    {
        std::lock_guard<std::mutex> lock(m_worker->mutex);
        m_worker->latest = generation;
    }
    QPointer<InsightsPanel> self(this);
    std::weak_ptr<Worker> weak = m_worker;
    QMetaObject::invokeMethod(m_worker->context, [self, weak, generation, uri, uuids, options] {
        auto worker = weak.lock();
        if (!worker)
            return;
        {
            std::lock_guard<std::mutex> lock(worker->mutex);
            if (worker->latest != generation)
                return; // superseded before it started
        }
        json report;
        QString error;
        try {
            Store& store = worker->connection(uri);
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
    if (!error.isEmpty())
        m_status->setText(tr("Insights could not be computed: %1").arg(error));
    else if (m_report.is_null())
        m_status->setText(
            tr("Add runs to the basket to see their energy, utilisation and collocation figures."));
    else
        m_status->setText(
            tr("Gaps over 5 sampling intervals are not bridged; ⚠ marks a utilisation/SM-activity "
               "gap of 30 pp or more, and an energy figure with a caveat (its tooltip says which); a "
               "shared GPU's energy is split equally.%1")
                .arg(running ? tr(" Following running runs.") : QString()));
    emit computed();
}

void InsightsPanel::markEnergyCaveats(const json& r, QStandardItem* energy) {
    // What a reader of the energy figure must know (issue 27): the cross-check when it is off,
    // readings left out, a counter replaced by power, a window wider than the run.
    QStringList caveats;
    const json check = r.value("energy_check", json());
    if (r.value("energy_check_flag", false) && check.is_object())
        caveats << tr("The energy counter says %1 J, integrated power %2 J: %3 % apart.")
                       .arg(check["counter_j"].get<double>(), 0, 'f', 0)
                       .arg(check["power_j"].get<double>(), 0, 'f', 0)
                       .arg(check["disagreement_pct"].get<double>(), 0, 'f', 1);
    for (const json& note : r.value("energy_notes", json::array()))
        caveats << QString::fromStdString(note.get<std::string>());
    if (const json note = r.value("window_note", json()); note.is_string())
        caveats << QString::fromStdString(note.get<std::string>());
    if (caveats.isEmpty())
        return;
    const QString source =
        r["gpu_energy_source"].is_string()
            ? tr("Source: %1.").arg(QString::fromStdString(r["gpu_energy_source"].get<std::string>()))
            : QString();
    energy->setText(QStringLiteral("⚠ ") + energy->text());
    energy->setBackground(QColor(255, 236, 179));
    const QString before = energy->toolTip();
    energy->setToolTip((QStringList{before, source} + caveats).join(QLatin1Char('\n')).trimmed());
}

void InsightsPanel::fillTable() {
    m_model->clear();
    m_workloads->clear(); // never the footer of another basket or store
    QStringList headers;
    for (const Column& c : columns())
        headers << tr(c.title);
    m_model->setHorizontalHeaderLabels(headers);
    if (!m_report.is_object())
        return;
    for (const json& r : m_report["runs"]) {
        QList<QStandardItem*> row;
        for (const Column& c : columns()) {
            const json v = c.value(r);
            auto* item = new QStandardItem;
            item->setEditable(false);
            if (v.is_null()) {
                item->setText(QStringLiteral("–"));
                item->setData(c.decimals < 0 ? QVariant(QString()) : QVariant(-1e300), kNumberRole);
            } else if (c.decimals < 0) {
                item->setText(QString::fromStdString(v.get<std::string>()));
                item->setData(item->text(), kNumberRole);
            } else {
                const double d = v.get<double>();
                item->setText(QString::number(d, 'f', c.decimals));
                item->setData(d, kNumberRole);
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            row << item;
        }
        row[0]->setToolTip(QString::fromStdString(r["run_uuid"].get<std::string>()));
        row[0]->setData(QString::fromStdString(r["run_uuid"].get<std::string>()), kUuidRole);
        if (r["util_smact_flag"].is_boolean() && r["util_smact_flag"].get<bool>()) {
            QStandardItem* gap = row[15];
            gap->setText(QStringLiteral("⚠ ") + gap->text());
            gap->setBackground(QColor(255, 236, 179));
            gap->setToolTip(
                tr("GPU utilisation is %1 percentage points above SM activity: the GPU looked busy, "
                   "but most of its SMs were idle.")
                    .arg(r["util_smact_gap_pp"].get<double>(), 0, 'f', 0));
        }
        if (r["collocation"].is_object() && r["gpu_energy_device_j"].is_number())
            row[6]->setToolTip(
                tr("Its share of GPU %1, which it shared with %n other run(s): each moment's energy split "
                   "equally among the runs active then. The whole GPU used %2 J over this run's time.",
                   nullptr, int(r["collocation"]["shared_with"].size()))
                    .arg(QString::fromStdString(r["collocation"]["device"].get<std::string>()))
                    .arg(r["gpu_energy_device_j"].get<double>(), 0, 'f', 1));
        markEnergyCaveats(r, row[6]);
        m_model->appendRow(row);
    }
    m_view->resizeColumnsToContents();
    QStringList workloads;
    for (const json& w : m_report["workloads"])
        workloads << tr("%1: %2 J over %n run(s)", nullptr, int(w["runs"].size()))
                         .arg(QString::fromStdString(w["workload"].get<std::string>()))
                         .arg(w["gpu_energy_j"].is_null()
                                  ? QStringLiteral("–")
                                  : QString::number(w["gpu_energy_j"].get<double>(), 'f', 1));
    QString text =
        workloads.isEmpty()
            ? QString()
            : tr("Workloads (each GPU counted once): %1").arg(workloads.join(QStringLiteral("; ")));
    const QString configurations = configurationsSummary(m_report);
    if (!configurations.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) +
                tr("Configurations (mean ± 95 % CI): %1").arg(configurations);
    m_workloads->setText(text);
}

void InsightsPanel::fillChart() {
    m_chart->legend()->hide(); // the frontier shows its own
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes())
        m_chart->removeAxis(axis);
    const int column = m_figure->currentData().toInt();
    if (column == kBurstFigure) {
        fillBurstChart();
        return;
    }
    if (column == kFrontierFigure) {
        drawFrontierChart(m_chart, m_report.is_object() ? m_report : json::object());
        return;
    }
    m_chart->setTitle(m_figure->currentText());
    if (!m_report.is_object() || m_report["runs"].empty())
        return;
    auto* set = new QBarSet(m_figure->currentText());
    QStringList names;
    double top = 0;
    for (const json& r : m_report["runs"]) {
        const json v = columns()[size_t(column)].value(r);
        const double d = v.is_null() ? 0 : v.get<double>();
        *set << d;
        top = std::max(top, d);
        // Short and distinct: "<workload> <letter>" as the charts' series, else the run id's start.
        const QString name = !r["workload"].is_null() && !r["letter"].is_null()
                                 ? QString::fromStdString(r["workload"].get<std::string>() + " " +
                                                          r["letter"].get<std::string>())
                                 : QString::fromStdString(r["run_uuid"].get<std::string>().substr(0, 8));
        names << name;
    }
    auto* series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(4);
    if (names.size() > 6) // narrow bars: "4001.8" across one would be cut to "00"
        series->setLabelsAngle(-90);
    m_chart->addSeries(series);
    auto* runs = new QBarCategoryAxis;
    runs->append(names);
    auto* values = new QValueAxis;
    values->setRange(0, top > 0 ? top * 1.15 : 1);
    values->applyNiceNumbers();
    m_chart->addAxis(runs, Qt::AlignBottom);
    m_chart->addAxis(values, Qt::AlignLeft);
    series->attachAxis(runs);
    series->attachAxis(values);
}

void InsightsPanel::fillBurstChart() {
    ++m_burstGeneration; // whatever was asked before is not drawn now
    m_burstPending = false;
    m_chart->setTitle(tr("Burst periods: select a run"));
    if (!m_report.is_object() || m_report["runs"].empty() || m_uri.isEmpty())
        return;
    // The selected run, else the first row; its GPU utilisation, else the first metric analysed.
    QString uuid = m_proxy->index(0, 0).data(kUuidRole).toString();
    if (const QModelIndexList rows = m_view->selectionModel()->selectedRows(); !rows.isEmpty())
        uuid = rows.front().data(kUuidRole).toString();
    const json* run = nullptr;
    for (const json& r : m_report["runs"])
        if (r["run_uuid"] == uuid.toStdString())
            run = &r;
    if (!run || (*run)["burst_idle"].empty())
        return;
    std::string key = (*run)["burst_idle"].begin().key();
    for (const char* preferred : {"DCGMI - GPU Utilization", "SMI - GPU Util"})
        if ((*run)["burst_idle"].contains(preferred)) {
            key = preferred;
            break;
        }
    const double threshold = (*run)["burst_idle"][key]["threshold"].get<double>();
    const std::string label =
        !(*run)["workload"].is_null() && !(*run)["letter"].is_null()
            ? (*run)["workload"].get<std::string>() + " " + (*run)["letter"].get<std::string>()
            : (*run)["run_uuid"].get<std::string>().substr(0, 8);
    m_chart->setTitle(tr("Burst periods: reading %1 of %2…")
                          .arg(QString::fromStdString(key), QString::fromStdString(label)));
    // The series is read (on PostgreSQL, over the network) and reduced to the chart's resolution
    // on the worker's thread, with its connection; only the newest request is drawn.
    const quint64 generation = m_burstGeneration;
    m_burstPending = true;
    QPointer<InsightsPanel> self(this);
    std::weak_ptr<Worker> weak = m_worker;
    const std::string uri = m_uri.toStdString(), runUuid = uuid.toStdString();
    QMetaObject::invokeMethod(
        m_worker->context, [self, weak, generation, uri, runUuid, key, threshold, label] {
            auto worker = weak.lock();
            if (!worker)
                return;
            auto view = std::make_shared<BurstView>();
            try {
                const Series series = worker->connection(uri).series(runUuid, key);
                std::vector<int64_t> t;
                std::vector<double> v;
                for (size_t i = 0; i < series.size(); ++i)
                    if (insight::usable(series.v[i])) {
                        t.push_back(series.t[i]);
                        v.push_back(series.v[i]);
                    }
                if (!t.empty()) {
                    view->origin = t.front();
                    view->end = series.t.back();
                    view->periods = insight::burstPeriods(series, threshold);
                    const double top = *std::max_element(v.begin(), v.end());
                    view->top = top > 0 ? top * 1.1 : 1;
                    // At chart resolution: min and max per column keep the peaks.
                    SeriesPyramid(std::move(t), std::move(v))
                        .query(view->origin, view->end, 600, view->t, view->v);
                }
            } catch (const std::exception& e) {
                view->error = QString::fromStdString(e.what());
            }
            QMetaObject::invokeMethod(self, [self, view, generation, key, threshold, label] {
                if (!self || generation != self->m_burstGeneration)
                    return;
                self->m_burstPending = false;
                if (self->m_figure->currentData().toInt() == kBurstFigure)
                    self->drawBurstChart(*view, key, threshold, label);
            });
        });
}

void InsightsPanel::drawBurstChart(const BurstView& view, const std::string& key, double threshold,
                                   const std::string& label) {
    if (!view.error.isEmpty()) {
        m_chart->setTitle(tr("Burst periods: %1").arg(view.error));
        return;
    }
    if (view.t.empty()) {
        m_chart->setTitle(tr("Burst periods: %1 has no values").arg(QString::fromStdString(key)));
        return;
    }
    auto* line = new QLineSeries;
    QVector<QPointF> points;
    for (size_t i = 0; i < view.t.size(); ++i)
        points.append(QPointF(double(view.t[i] - view.origin) / 1000.0, view.v[i]));
    line->replace(points);
    line->setName(QString::fromStdString(key));
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    for (const auto& [from, to] : view.periods) {
        const double a = double(from - view.origin) / 1000.0, b = double(to - view.origin) / 1000.0;
        *upper << QPointF(a, 0) << QPointF(a, view.top) << QPointF(b, view.top) << QPointF(b, 0);
        *lower << QPointF(a, 0) << QPointF(b, 0);
    }
    auto* shade = new QAreaSeries(upper, lower);
    shade->setName(tr("burst (≥ %1)").arg(threshold, 0, 'g', 3));
    shade->setColor(QColor(255, 152, 0, 70));
    shade->setBorderColor(Qt::transparent);
    m_chart->addSeries(shade);
    m_chart->addSeries(line);
    auto* x = new QValueAxis;
    x->setTitleText(tr("time since start (s)"));
    x->setRange(0, double(view.end - view.origin) / 1000.0);
    auto* y = new QValueAxis;
    y->setRange(0, view.top);
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(shade), static_cast<QAbstractSeries*>(line)}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    m_chart->setTitle(tr("%1: %2 burst period(s) of %3")
                          .arg(QString::fromStdString(label))
                          .arg(view.periods.size())
                          .arg(QString::fromStdString(key)));
}

QString InsightsPanel::tableTsv() const {
    QStringList lines;
    QStringList header;
    for (int c = 0; c < m_model->columnCount(); ++c)
        header << m_model->horizontalHeaderItem(c)->text();
    lines << header.join(QLatin1Char('\t'));
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_proxy->columnCount(); ++c) {
            // The ⚠ mark is for the eye: a copied or exported figure stays a number.
            QString text = m_proxy->index(r, c).data().toString();
            if (text.startsWith(QStringLiteral("⚠ ")))
                text.remove(0, 2);
            cells << text;
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void InsightsPanel::exportCsv(const QString& path) const {
    QString text;
    for (const QString& line : tableTsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        QStringList cells;
        for (const QString& cell : line.split(QLatin1Char('\t')))
            cells << csvCell(cell == QStringLiteral("–") ? QString() : cell);
        text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    writeFileAtomically(path.toStdString(), text.toStdString());
}

QString InsightsPanel::footer() const {
    return m_workloads->text();
}

void InsightsPanel::exportJson(const QString& path) const {
    // An empty basket still exports radt report's shape: a script reading it needs no special case.
    const json empty = {{"settings", json::object()},      {"runs", json::array()},
                        {"configurations", json::array()}, {"comparisons", json::array()},
                        {"pareto", json::array()},         {"workloads", json::array()}};
    writeFileAtomically(path.toStdString(), (m_report.is_object() ? m_report : empty).dump(2) + "\n");
}

void InsightsPanel::exportConfigurations(const QString& path) const {
    const json report = m_report.is_object() ? m_report : json::object();
    writeFileAtomically(path.toStdString(), path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)
                                                ? configurationsCsv(report)
                                                : configurationsLatex(report));
}

void InsightsPanel::exportWithDialog(const QString& format) {
    const bool tex = format == QLatin1String("tex");
    const QString path =
        saveFileName(this, QStringLiteral("exports"), tr("Export insights"),
                     (tex ? QStringLiteral("configurations.") : QStringLiteral("insights.")) + format,
                     tex ? tr("LaTeX table (*.tex);;Configurations as CSV (*.csv)")
                     : format == QLatin1String("csv") ? tr("CSV (*.csv)")
                                                      : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    try {
        tex                              ? exportConfigurations(path)
        : format == QLatin1String("csv") ? exportCsv(path)
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
