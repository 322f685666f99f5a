// SPDX-License-Identifier: MIT
#include "widgets/runs/RunsTablePane.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/InsightReport.h"
#include "core/base/RunFilter.h"
#include "core/store/Store.h"
#include "widgets/common/Formatting.h"
#include "widgets/common/StoreReadThread.h"
#include "widgets/common/TableLayout.h"
#include "widgets/runs/RunsTableModel.h"

#include <QCryptographicHash>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QShowEvent>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace radt {

namespace {

/// Up to this many rows, a search's figures are computed unasked (a few seconds of series reads).
constexpr int kFiguresUnasked = 300;

} // namespace

RunsTablePane::RunsTablePane(QWidget* parent)
    : QWidget(parent), m_model(new RunsTableModel(this)), m_proxy(new RunsSortProxy(this)),
      m_view(new QTableView(this)), m_search(new QLineEdit(this)), m_status(new QLabel(this)),
      m_add(new QPushButton(tr("Add to Basket"), this)),
      m_figuresButton(new QPushButton(tr("Figures"), this)) {
    setObjectName(QStringLiteral("runsTable"));
    m_search->setObjectName(QStringLiteral("runsTableSearch"));
    m_search->setPlaceholderText(tr("Search runs: params.batch_size = '64' and metrics.loss < 0.5"));
    m_search->setToolTip(
        tr("MLflow's search syntax: params.KEY, metrics.KEY (its latest value), tags.KEY and\n"
           "attributes.status|run_name|start_time|end_time with =, !=, <, <=, >, >=, LIKE, ILIKE,\n"
           "IN, NOT IN, joined by AND; keys with spaces or dashes in backticks: params.`batch-size`.\n"
           "Enter searches; an empty search shows every run."));
    m_search->setClearButtonEnabled(true);
    m_status->setObjectName(QStringLiteral("runsTableStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_add->setToolTip(tr("Put the selected runs in the basket (also: double-click, Enter)"));
    m_proxy->setSourceModel(m_model);
    m_view->setObjectName(QStringLiteral("runsTableView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(2, Qt::DescendingOrder); // the newest runs first, as MLflow lists them
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionsMovable(true);
    freezeFirstColumn(m_view);
    installColumnChooser(
        m_view, [this] { return m_columnsTable; }, [this] { return m_model->hiddenByDefault(); });

    auto* top = new QHBoxLayout;
    top->addWidget(m_search, 1);
    top->addWidget(m_figuresButton);
    top->addWidget(m_add);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);

    connect(m_search, &QLineEdit::returnPressed, this, &RunsTablePane::search);
    connect(m_add, &QPushButton::clicked, this, &RunsTablePane::addSelection);
    connect(m_figuresButton, &QPushButton::clicked, this, &RunsTablePane::computeFigures);
    m_figuresButton->setEnabled(false);
    connect(m_view, &QTableView::activated, this, &RunsTablePane::addSelection); // double-click, Enter
    m_reader = StoreReadThread::start(QStringLiteral("radt runs table"));
}

RunsTablePane::~RunsTablePane() = default;

void RunsTablePane::setStore(const QString& uri) {
    m_uri = uri;
    // The columns chosen are kept per store: a store's params are not another's.
    m_columnsTable = QStringLiteral("runsTable-") +
                     QString::fromLatin1(
                         QCryptographicHash::hash(uri.toUtf8(), QCryptographicHash::Sha1).toHex().left(12));
    reload();
}

void RunsTablePane::reload() {
    m_stale = !isVisible();
    if (!m_stale)
        search();
}

void RunsTablePane::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    m_search->setFocus(); // shown to search: typing goes to the search, not to the rows
    if (m_stale)
        reload();
}

void RunsTablePane::setBasket(const QStringList& uuids) {
    m_basket = QSet<QString>(uuids.begin(), uuids.end());
    m_model->setBasket(m_basket);
}

QString RunsTablePane::statusText() const {
    return m_status->text();
}

void RunsTablePane::search() {
    const quint64 generation = ++m_generation;
    if (m_uri.isEmpty()) {
        m_model->setRows({}, nowMs());
        m_status->setText(tr("No store is open."));
        return;
    }
    const std::string expression = m_search->text().toStdString();
    std::vector<RunCondition> conditions;
    try {
        conditions = parseRunFilter(expression);
    } catch (const RunFilterError& e) {
        // Where it went wrong, under the expression; the table keeps the last search's rows.
        m_status->setText(tr("<span style='color:#b00020'>%1</span><pre>%2\n%3^</pre>")
                              .arg(QString::fromStdString(e.what()).toHtmlEscaped(),
                                   m_search->text().toHtmlEscaped(),
                                   QString(int(e.column()) - 1, QLatin1Char(' '))));
        emit loaded(-1);
        return;
    }
    m_status->setText(tr("Searching…"));
    const std::string uri = m_uri.toStdString();
    QPointer<RunsTablePane> self(this);
    m_reader->postLatest(generation, [self, generation, uri, conditions](StoreReadThread& reader) {
        std::vector<RunsTableRow> rows;
        QString error;
        try {
            Store& store = reader.connection(uri);
            std::map<int64_t, QString> experiments;
            for (const Experiment& e : store.experiments())
                experiments[e.id] = toQString(e.name);
            for (Run& run : store.searchRuns(conditions)) {
                if (reader.superseded(generation))
                    return; // a newer search is waiting
                RunsTableRow row{std::move(run), {}, {}};
                row.experiment = experiments[row.run.experimentId];
                for (const auto& [key, latest] : store.latestMetrics(row.run.uuid))
                    row.latest[key] = latest.value;
                rows.push_back(std::move(row));
            }
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(self, [self, generation, rows = std::move(rows), error]() mutable {
            if (!self || generation != self->m_generation)
                return;
            if (!error.isEmpty()) {
                self->m_status->setText(tr("Cannot search the runs: %1").arg(error.toHtmlEscaped()));
                emit self->loaded(-1);
                return;
            }
            const int count = int(rows.size());
            self->m_model->setRows(std::move(rows), nowMs());
            self->m_model->setBasket(self->m_basket);
            // Widths from the rows in view (Qt measures at most 1,000), none wider than a third
            // of the table: a long value is elided, its whole text one hover away.
            // (setColumnWidth, not resizeColumnsToContents: that one resizes without sectionResized,
            // and the frozen name column follows that signal.)
            QTableView* view = self->m_view;
            const int widest = std::max(120, view->width() / 3);
            for (int c = 0; c < self->m_model->columnCount(); ++c)
                view->setColumnWidth(
                    c, std::min(widest, std::max(static_cast<QAbstractItemView*>(view)->sizeHintForColumn(c),
                                                 view->horizontalHeader()->sectionSizeHint(c))));
            const QString runs = count == 1 ? tr("1 run") : tr("%1 runs").arg(count);
            self->m_status->setText(self->m_search->text().trimmed().isEmpty()
                                        ? runs
                                        : (count == 1 ? tr("1 run matches") : tr("%1 match").arg(runs)));
            emit self->loaded(count);
            // The report's figures read every series of each run: unasked for a few hundred rows.
            self->m_figuresButton->setEnabled(count > 0);
            self->m_figuresButton->setToolTip(tr("GPU energy, energy per epoch and GPU utilisation of the %1 "
                                                 "runs shown, as radt report computes them")
                                                  .arg(count));
            if (count > 0 && count <= kFiguresUnasked)
                self->computeFigures();
        });
    });
}

void RunsTablePane::computeFigures() {
    const quint64 generation = m_generation; // the search whose rows these are
    std::vector<Run> runs;
    runs.reserve(m_model->rows().size());
    for (const RunsTableRow& row : m_model->rows())
        runs.push_back(row.run);
    if (runs.empty())
        return;
    m_figuresButton->setEnabled(false);
    const QString shown = m_status->text();
    const std::string uri = m_uri.toStdString();
    QPointer<RunsTablePane> self(this);
    m_reader->post([self, generation, uri, runs = std::move(runs), shown](StoreReadThread& reader) {
        struct Superseded {};
        std::map<std::string, std::map<std::string, double>> figures;
        try {
            const nlohmann::json report =
                buildReport(reader.connection(uri), runs, ReportOptions{}, [&](size_t done, size_t total) {
                    if (reader.superseded(generation))
                        throw Superseded{}; // a newer search: these rows are gone
                    QMetaObject::invokeMethod(self, [self, generation, done, total, shown] {
                        if (self && generation == self->m_generation)
                            self->m_status->setText(
                                tr("%1 (figures: %2 of %3 runs read)").arg(shown).arg(done).arg(total));
                    });
                });
            for (const nlohmann::json& run : report["runs"])
                for (const auto& [key, header] : RunsTableModel::tableFigures())
                    if (const auto value = configurationFigure(run, key))
                        figures[run["run_uuid"].get<std::string>()][key] = *value;
        } catch (const Superseded&) {
            return;
        } catch (const std::exception& e) {
            const QString error = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(self, [self, generation, shown, error] {
                if (self && generation == self->m_generation)
                    self->m_status->setText(
                        tr("%1 (figures not computed: %2)").arg(shown, error.toHtmlEscaped()));
            });
            return;
        }
        QMetaObject::invokeMethod(self, [self, generation, figures = std::move(figures), shown]() mutable {
            if (!self || generation != self->m_generation)
                return;
            const int count = int(figures.size());
            self->m_model->setFigures(std::move(figures));
            self->m_status->setText(shown);
            emit self->figuresLoaded(count);
        });
    });
}

void RunsTablePane::addSelection() {
    QStringList uuids;
    for (const QModelIndex& row : m_view->selectionModel()->selectedRows())
        uuids << row.data(RunsTableModel::RunUuidRole).toString();
    if (!uuids.isEmpty())
        emit addToBasket(uuids);
}

} // namespace radt
