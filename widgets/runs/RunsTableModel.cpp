// SPDX-License-Identifier: MIT
#include "widgets/runs/RunsTableModel.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/base/MetricKeys.h"
#include "core/base/TextFormat.h"
#include "widgets/common/Formatting.h"

#include <QFont>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>

namespace radt {

namespace {

/// `text` as a number when all of it is one ("64", "1e-3"); params are text in MLflow.
std::optional<double> numberIn(const std::string& text) {
    if (text.empty())
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::string valueOf(const std::map<std::string, std::string>& map, const std::string& key) {
    const auto it = map.find(key);
    return it == map.end() ? std::string() : it->second;
}

} // namespace

void RunsTableModel::setRows(std::vector<RunsTableRow> rows, int64_t nowMs) {
    beginResetModel();
    m_rows = std::move(rows);
    m_figures.clear(); // computed again for these rows (a running run's grow)
    m_nowMs = nowMs;
    std::map<std::string, std::set<std::string>> paramValues;
    std::map<std::string, size_t> paramRuns;
    std::set<std::string> tags, metrics;
    for (const RunsTableRow& row : m_rows) {
        for (const auto& [key, value] : row.run.params) {
            paramValues[key].insert(value);
            ++paramRuns[key];
        }
        for (const auto& [key, value] : row.run.tags)
            if (key != "radt.host.name")
                tags.insert(key);
        for (const auto& [key, value] : row.latest)
            metrics.insert(key);
    }
    m_columns = {{Column::Name, "", tr("Run")},
                 {Column::Status, "", tr("Status")},
                 {Column::Start, "", tr("Start")},
                 {Column::Duration, "", tr("Duration (s)")},
                 {Column::Judged, "", tr("Judged")},
                 {Column::Figure, "gpu_energy_j", tableFigures()[0].second},
                 {Column::Figure, "energy_per_epoch_j", tableFigures()[1].second},
                 {Column::Figure, "gpu_util_pct", tableFigures()[2].second},
                 {Column::Experiment, "", tr("Experiment")},
                 {Column::Host, "", tr("Host")}};
    m_hidden.clear();
    // The params that tell the runs apart first, as the Insights runs table leads with them.
    std::vector<std::string> telling, same;
    for (const auto& [key, values] : paramValues) {
        const bool bookkeeping =
            std::count(kBookkeepingParams.begin(), kBookkeepingParams.end(), key) || key == "params";
        (values.size() > 1 || paramRuns[key] < m_rows.size()) && !bookkeeping ? telling.push_back(key)
                                                                              : same.push_back(key);
    }
    for (const auto* keys : {&telling, &same})
        for (const std::string& key : *keys) {
            m_columns.push_back({Column::Param, key, QStringLiteral("params.") + toQString(key)});
            if (keys == &same)
                m_hidden << m_columns.back().header;
        }
    for (const std::string& key : metrics) {
        m_columns.push_back({Column::Metric, key, QStringLiteral("metrics.") + toQString(key)});
        if (listenerOfKey(key)) // a listener's series: the hardware side, chosen when wanted
            m_hidden << m_columns.back().header;
    }
    for (const std::string& key : tags) {
        m_columns.push_back({Column::Tag, key, QStringLiteral("tags.") + toQString(key)});
        m_hidden << m_columns.back().header;
    }
    endResetModel();
}

const std::vector<std::pair<std::string, QString>>& RunsTableModel::tableFigures() {
    static const std::vector<std::pair<std::string, QString>> figures = {
        {"gpu_energy_j", tr("GPU energy (J)")},
        {"energy_per_epoch_j", tr("Energy / epoch (J)")},
        {"gpu_util_pct", tr("GPU util (%)")}};
    return figures;
}

void RunsTableModel::setFigures(std::map<std::string, std::map<std::string, double>> figures) {
    m_figures = std::move(figures);
    if (m_rows.empty())
        return;
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::DisplayRole});
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1); // the chooser shows them once filled
}

void RunsTableModel::setBasket(const QSet<QString>& uuids) {
    m_basket = uuids;
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                         {Qt::FontRole, Qt::DisplayRole});
}

QStringList RunsTableModel::hiddenByDefault() const {
    return m_hidden;
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QString RunsTableModel::text(const RunsTableRow& row, const Column& column) const {
    const Run& run = row.run;
    switch (column.kind) {
    case Column::Name:
        return (m_basket.contains(toQString(run.uuid)) ? QStringLiteral("● ") : QString()) +
               toQString(run.name.empty() ? run.uuid.substr(0, 8) : run.name);
    case Column::Status:
        return QString::fromLatin1(toString(run.status));
    case Column::Start:
        return toQString(formatLocalTime(run.startTime));
    case Column::Duration:
        return QString::number(double(run.durationMs(m_nowMs)) / 1000.0, 'f', 1);
    case Column::Judged: {
        // The verdict; the sentence is the tooltip. ⚠ where the run left its history.
        const std::string judged = valueOf(run.tags, kRunJudgementTag);
        if (judged.rfind("outside:", 0) == 0)
            return tr("⚠ outside");
        if (judged.rfind("normal", 0) == 0)
            return tr("normal");
        return judged.empty() ? QString() : tr("not judged");
    }
    case Column::Figure: {
        const auto run = m_figures.find(row.run.uuid);
        if (run == m_figures.end())
            return {};
        const auto value = run->second.find(column.key);
        // J to the joule, a percentage to a tenth: the unit is in the header.
        return value == run->second.end()
                   ? QStringLiteral("–")
                   : QString::number(value->second, 'f', column.key == "gpu_util_pct" ? 1 : 0);
    }
    case Column::Experiment:
        return row.experiment;
    case Column::Host:
        return toQString(valueOf(run.tags, "radt.host.name"));
    case Column::Param:
        return toQString(valueOf(run.params, column.key));
    case Column::Tag:
        return toQString(valueOf(run.tags, column.key));
    case Column::Metric: {
        const auto it = row.latest.find(column.key);
        return it == row.latest.end() ? QString() : toQString(formatReading(it->second));
    }
    }
    return {};
}

QVariant RunsTableModel::sortValue(const RunsTableRow& row, const Column& column) const {
    const Run& run = row.run;
    switch (column.kind) {
    case Column::Start:
        return double(run.startTime);
    case Column::Duration:
        return double(run.durationMs(m_nowMs));
    case Column::Metric: {
        const auto it = row.latest.find(column.key);
        return it == row.latest.end() ? QVariant() : QVariant(it->second);
    }
    case Column::Figure: {
        const auto run = m_figures.find(row.run.uuid);
        if (run == m_figures.end() || !run->second.count(column.key))
            return {};
        return run->second.at(column.key);
    }
    case Column::Param:
    case Column::Tag: {
        const std::string value = valueOf(column.kind == Column::Param ? run.params : run.tags, column.key);
        if (const auto number = numberIn(value))
            return *number;
        return value.empty() ? QVariant() : QVariant(toQString(value));
    }
    case Column::Name: // by the name, not by the basket's mark before it
        return toQString(run.name.empty() ? run.uuid.substr(0, 8) : run.name);
    default: {
        const QString shown = text(row, column);
        return shown.isEmpty() ? QVariant() : QVariant(shown);
    }
    }
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const RunsTableRow& row = m_rows[size_t(index.row())];
    const Column& column = m_columns[size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return text(row, column);
    case SortRole:
        return sortValue(row, column);
    case RunUuidRole:
        return toQString(row.run.uuid);
    case Qt::FontRole:
        if (m_basket.contains(toQString(row.run.uuid))) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        if (column.kind == Column::Name)
            return tr("%1\nrun %2%3")
                .arg(text(row, column), toQString(row.run.uuid),
                     m_basket.contains(toQString(row.run.uuid)) ? tr("\nin the basket") : QString());
        if (column.kind == Column::Metric)
            return tr("latest value of %1: %2").arg(toQString(column.key), text(row, column));
        if (column.kind == Column::Figure)
            return tr("%1 as radt report computes it (a shared GPU's energy split among its runs)")
                .arg(column.header);
        if (column.kind == Column::Judged && !text(row, column).isEmpty())
            return tr("Judged when it finished: %1").arg(toQString(valueOf(row.run.tags, kRunJudgementTag)));
        return text(row, column); // the whole of a value elided in its cell
    case Qt::TextAlignmentRole:
        return column.kind == Column::Metric || column.kind == Column::Duration ||
                       column.kind == Column::Figure
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    default:
        return {};
    }
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return m_columns[size_t(section)].header;
    if (role == Qt::ToolTipRole && m_columns[size_t(section)].kind >= Column::Param)
        return tr("%1 in a search: %1 = '...'").arg(m_columns[size_t(section)].header);
    return {};
}

RunsSortProxy::RunsSortProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(RunsTableModel::SortRole);
}

bool RunsSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const QVariant a = left.data(sortRole()), b = right.data(sortRole());
    // Blanks last in either order: "less" flips with the order, so a blank is greatest ascending
    // and least descending.
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    if (!a.isValid() || !b.isValid())
        return a.isValid() != b.isValid() && (ascending ? a.isValid() : b.isValid());
    const bool aNumber = a.type() == QVariant::Double, bNumber = b.type() == QVariant::Double;
    if (aNumber != bNumber)
        return aNumber; // numbers before text
    if (aNumber)
        return a.toDouble() < b.toDouble();
    return naturalLess(a.toString(), b.toString());
}

} // namespace radt
