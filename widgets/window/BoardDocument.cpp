// SPDX-License-Identifier: MIT

#include "widgets/window/BoardDocument.h"
#include "widgets/common/FileDialogs.h"
#include "widgets/window/StoreSession.h"

#include <QMainWindow>

#include "widgets/runs/RunTreePane.h"

#include "widgets/board/BoardExport.h"
#include "widgets/board/BoardIo.h"
#include "widgets/board/BoardPanel.h"
#include "widgets/board/ChartCard.h"
#include "widgets/chart/ChartExport.h"
#include "widgets/chart/ChartLoader.h"
#include "widgets/chart/ChartPanel.h"
#include "widgets/chart/engine/ChartOptionsJson.h"
#include "widgets/common/Formatting.h"
#include "widgets/runs/MetricPicker.h"
#include "widgets/runs/RunTreeModel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>

namespace radt {

BoardDocument::BoardDocument(QMainWindow& window, WindowActions& actions, const WindowParts& parts)
    : QObject(&window), m_window(window), m_actions(actions), m_ui(parts) {}

void BoardDocument::save() {
    if (m_file.isEmpty())
        saveAs();
    else
        saveTo(m_file);
}

Board BoardDocument::currentBoard() const {
    Board board;
    // radT sorts charts by id, newest first: ids count down so the board keeps its order there.
    const int64_t base = nowMs();
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        const ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        if (!chart->engine().metricKey().isEmpty())
            board.charts.push_back(boardFromChart(*chart, base - i, m_ui.session->experimentNames()));
    }
    return board;
}

void BoardDocument::saveBoard(const QString& path) const {
    const Board board = currentBoard();
    if (board.charts.empty())
        throw BoardError("the board has no chart with a metric to save");
    saveBoardFile(path.toStdString(), board);
}

bool BoardDocument::openBoard(const QString& path, QStringList* problems, QString* error) {
    std::vector<BoardProblem> found;
    Board board;
    try {
        board = loadBoardFile(path.toStdString(), found);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    const std::string name = QFileInfo(path).fileName().toStdString();
    // The board's runs that the open store holds become the basket: the summary lists them, the
    // metric list offers their metrics, and another metric chosen for a board chart is plotted
    // for the same runs. A board from elsewhere (none of its runs here) leaves the basket alone.
    // Before the charts: what the basket change starts for them is cancelled below.
    QStringList inStore;
    for (const BoardChart& chart : board.charts)
        for (const BoardRun& run : chart.runs)
            if (m_ui.tree->model()->runByUuid(QString::fromStdString(run.uuid)) &&
                !inStore.contains(QString::fromStdString(run.uuid)))
                inStore.append(QString::fromStdString(run.uuid));
    if (!inStore.isEmpty()) {
        m_actions.clearBasket();
        m_actions.addRunsToBasket(inStore);
    }
    // The file's charts replace the board's: the first card is reused, the others go.
    while (m_ui.board->chartCount() > 1)
        m_ui.board->removeChart(m_ui.board->chartAt(m_ui.board->chartCount() - 1));
    for (size_t i = 0; i < board.charts.size(); ++i) {
        ChartCard* card = i == 0 ? m_ui.board->chartAt(0) : m_ui.board->addChart();
        m_ui.session->loader()->cancelChart(card->chart());
        BoardChartView view = viewFromBoard(board.charts[i], int(i), name, found);
        card->chart()->showDetached(std::move(view.runs), view.metric, view.options, view.zoom);
    }
    m_ui.board->setCurrent(m_ui.board->chartAt(0));
    m_ui.board->scrollTo(m_ui.board->chartAt(0)); // a board opens at its first chart, not its last
    if (const QString key = m_ui.board->chartAt(0)->chart()->engine().metricKey();
        m_ui.metrics->keys().contains(key)) {
        const QSignalBlocker quiet(m_ui.metrics); // shows the chart's metric chosen, plots nothing
        m_ui.metrics->setCurrentKey(key);
    }
    m_file = QFileInfo(path).absoluteFilePath();
    m_saved = fingerprint();
    emit opened(); // the summary: the board's metrics for the basket's runs
    if (problems)
        for (const BoardProblem& p : found)
            problems->append(QString::fromStdString(p.message));
    m_window.statusBar()->showMessage(
        tr("Opened the board %1: %n chart(s)", nullptr, int(board.charts.size())).arg(path), 5000);
    return true;
}

bool BoardDocument::openBoardInteractive(const QString& path) {
    if (!confirmReplacing())
        return false;
    QStringList problems;
    QString error;
    if (!openBoard(path, &problems, &error)) {
        QMessageBox::critical(&m_window, tr("Open board"), error);
        return false;
    }
    if (!problems.isEmpty()) {
        // The rest of the board opened; say what was left out, without a wall of text.
        QStringList shown = problems.mid(0, 15);
        if (problems.size() > shown.size())
            shown << tr("... and %n more", nullptr, problems.size() - shown.size());
        QMessageBox::warning(
            &m_window, tr("Open board"),
            tr("The board opened, but parts of it were skipped:\n\n%1").arg(shown.join(QLatin1Char('\n'))));
    }
    return true;
}

ChartPanel* BoardDocument::chartToExport() {
    // The chart the user sees: the current one when it is in view, the only one in view, or the
    // one the user picks (a current chart scrolled out of view is never taken silently).
    const std::vector<ChartCard*> visible = m_ui.board->visibleCharts();
    ChartCard* current = m_ui.board->current();
    if (std::find(visible.begin(), visible.end(), current) != visible.end() || m_ui.board->chartCount() == 1)
        return current->chart();
    if (visible.size() == 1)
        return visible.front()->chart();
    QStringList names;
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        const QString key = m_ui.board->chartAt(i)->chart()->engine().metricKey();
        names << tr("Chart %1: %2").arg(i + 1).arg(key.isEmpty() ? tr("(empty)") : displayName(key, 60));
    }
    int preselected = 0;
    for (int i = 0; i < m_ui.board->chartCount(); ++i)
        if (m_ui.board->chartAt(i) == current)
            preselected = i;
    bool ok = false;
    const QString chosen =
        QInputDialog::getItem(&m_window, tr("Export"), tr("Which chart?"), names, preselected, false, &ok);
    if (!ok)
        return nullptr;
    return m_ui.board->chartAt(int(names.indexOf(chosen)))->chart();
}

void BoardDocument::exportChart(const QString& format) {
    ChartPanel* chart = chartToExport();
    if (!chart)
        return;
    if (chart->engine().metricKey().isEmpty()) {
        QMessageBox::information(&m_window, tr("Export"),
                                 tr("The current chart shows nothing yet: choose a metric."));
        return;
    }
    const ExportFormat* writer = exportFormat(format);
    if (!writer) { // a programming error: the menu offers only the table's formats
        QMessageBox::critical(&m_window, tr("Export"), tr("Unknown export format '%1'").arg(format));
        return;
    }
    if (const QString nothing = whyNothingIsDrawn(chart->engine());
        writer->needsLines && !nothing.isEmpty()) {
        QMessageBox::information(&m_window, tr("Export"),
                                 tr("The chart draws nothing to export: %1.").arg(nothing));
        return;
    }
    double scale = 1;
    if (writer->raster) {
        bool ok = false;
        scale = QInputDialog::getInt(&m_window, tr("Export %1").arg(format.toUpper()), tr("Scale (1x-4x):"),
                                     2, 1, 4, 1, &ok);
        if (!ok)
            return;
    }
    const QString path = saveFileName(&m_window, QStringLiteral("exports"), tr("Export the chart"),
                                      suggestedFileName(*chart, format), QStringLiteral("*.%1").arg(format));
    if (path.isEmpty())
        return;
    QProgressDialog progress(tr("Exporting %1...").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 100,
                             &m_window);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300); // only long exports (a CSV of millions of rows) show it
    try {
        writer->write(*chart, 1, path, scale, [&progress](size_t done, size_t total) {
            progress.setValue(total ? int(done * 100 / total) : 100);
            QApplication::processEvents();
            if (progress.wasCanceled()) // the partial file is discarded, an old one kept
                throw std::runtime_error("cancelled");
        });
        m_window.statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    } catch (const std::exception& e) {
        if (!progress.wasCanceled())
            QMessageBox::critical(&m_window, tr("Export"), QString::fromStdString(e.what()));
    }
}

void BoardDocument::exportBoardPdf() {
    std::vector<ChartPanel*> charts;
    for (int i = 0; i < m_ui.board->chartCount(); ++i)
        if (!m_ui.board->chartAt(i)->chart()->engine().metricKey().isEmpty())
            charts.push_back(m_ui.board->chartAt(i)->chart());
    if (charts.empty()) {
        QMessageBox::information(&m_window, tr("Export"), tr("No chart shows anything yet."));
        return;
    }
    const QString path = saveFileName(&m_window, QStringLiteral("exports"), tr("Export the board"),
                                      QStringLiteral("board.pdf"), QStringLiteral("*.pdf"));
    if (path.isEmpty())
        return;
    QProgressDialog progress(tr("Exporting the board..."), QString(), 0, int(charts.size()), &m_window);
    progress.setWindowModality(Qt::WindowModal);
    try {
        radt::exportBoardPdf(charts, path, kExportChartSize, [&progress](int done, int) {
            progress.setValue(done);
            QApplication::processEvents();
        });
    } catch (const std::exception& e) {
        QMessageBox::critical(&m_window, tr("Export"), QString::fromStdString(e.what()));
    }
}

bool BoardDocument::sessionRestoreEnabled(QSettings& settings) {
    return settings.value(QStringLiteral("session/restore"), true).toBool();
}

void BoardDocument::saveSession(QSettings& settings) const {
    nlohmann::json charts = nlohmann::json::array();
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        const ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        // Only what is needed to rebuild the view: the data comes back from the store.
        nlohmann::json c = chartOptionsToJson(chart->engine().options(), true);
        c["metric"] = chart->engine().metricKey().toStdString();
        charts.push_back(std::move(c));
    }
    settings.setValue(QStringLiteral("session/store"), m_ui.session->uri());
    settings.setValue(QStringLiteral("session/basket"), m_actions.basketRunUuids());
    settings.setValue(QStringLiteral("session/board"), QString::fromStdString(charts.dump()));
    settings.setValue(QStringLiteral("session/boardFile"), m_file);
}

bool BoardDocument::restoreSession(QSettings& settings) {
    if (!m_actions.hasStore() ||
        settings.value(QStringLiteral("session/store")).toString() != m_ui.session->uri())
        return false;
    const QString boardFile = settings.value(QStringLiteral("session/boardFile")).toString();
    if (!boardFile.isEmpty() && QFileInfo::exists(boardFile))
        return openBoard(boardFile); // a board carries its own data and settings
    const QStringList basket = settings.value(QStringLiteral("session/basket")).toStringList();
    // A session the explorer cannot read (an older or edited file) restores the basket only.
    const nlohmann::json stored = nlohmann::json::parse(
        settings.value(QStringLiteral("session/board")).toString().toStdString(), nullptr, false);
    const nlohmann::json charts = stored.is_array() ? stored : nlohmann::json::array();
    if (basket.isEmpty())
        return false;
    m_actions.clearBasket();
    m_actions.addRunsToBasket(basket);
    for (size_t i = 0; i < charts.size(); ++i) {
        const nlohmann::json& c = charts[i].is_object() ? charts[i] : nlohmann::json::object();
        ChartCard* card = i == 0 ? m_ui.board->chartAt(0) : m_ui.board->addChart();
        m_ui.board->setCurrent(card);
        if (const auto metric = c.find("metric");
            metric != c.end() && metric->is_string() && !metric->get<std::string>().empty())
            m_actions.plotMetric(QString::fromStdString(metric->get<std::string>()));
        ChartOptions o;
        // A value the explorer does not know keeps its default, never another value.
        chartOptionsFromJson(c, o, [](const std::string&, const std::string&) {});
        card->chart()->changeOptions([&o](ChartOptions& options) { options = o; });
    }
    m_ui.board->setCurrent(m_ui.board->chartAt(0));
    m_ui.board->scrollTo(m_ui.board->chartAt(0)); // a board opens at its first chart, not its last
    return true;
}

void BoardDocument::saveAs() {
    // The dialog asks before replacing a file; the write itself is atomic.
    const QString suggested =
        m_file.isEmpty() ? QStringLiteral("board.radt.json") : QFileInfo(m_file).fileName();
    const QString path = saveFileName(&m_window, QStringLiteral("boards"), tr("Save the board"), suggested,
                                      tr("radt boards (*.radt.json);;radT boards (*.json)"));
    if (!path.isEmpty())
        saveTo(path);
}

bool BoardDocument::saveTo(const QString& path) {
    try {
        saveBoard(path);
        m_file = path;
        m_saved = fingerprint();
        m_window.statusBar()->showMessage(tr("Saved the board to %1").arg(path), 5000);
        return true;
    } catch (const std::exception& e) {
        QMessageBox::critical(&m_window, tr("Save board"), QString::fromStdString(e.what()));
        return false;
    }
}

std::string BoardDocument::fingerprint() const {
    nlohmann::json charts = nlohmann::json::array();
    for (int i = 0; i < m_ui.board->chartCount(); ++i) {
        const ChartPanel* chart = m_ui.board->chartAt(i)->chart();
        if (chart->engine().metricKey().isEmpty())
            continue;
        nlohmann::json runs = nlohmann::json::array();
        for (const ChartRunData& r : chart->engine().runs())
            runs.push_back(r.run.uuid);
        const auto zoom = chart->engine().zoom();
        charts.push_back({{"metric", chart->engine().metricKey().toStdString()},
                          {"runs", runs},
                          {"options", chartOptionsToJson(chart->engine().options(), true)},
                          {"zoom", zoom ? nlohmann::json{zoom->first, zoom->second} : nlohmann::json()}});
    }
    return charts.empty() ? std::string() : charts.dump();
}

bool BoardDocument::confirmReplacing() {
    const std::string now = fingerprint();
    if (now.empty() || now == m_saved)
        return true; // nothing charted, or just as opened or saved
    const auto answer = QMessageBox::question(
        &m_window, tr("Open board"),
        tr("The board's charts have changes that no board file holds. Save them before the new board "
           "replaces them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Discard)
        return true;
    if (answer != QMessageBox::Save)
        return false;
    if (m_file.isEmpty())
        saveAs();
    else
        saveTo(m_file);
    return fingerprint() == m_saved; // a Save As the user cancelled keeps the board
}

} // namespace radt
