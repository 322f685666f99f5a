// SPDX-License-Identifier: MIT
#include "widgets/insights/InsightRunsModel.h"

#include "core/analysis/ConfigurationLabels.h"
#include "core/analysis/InsightFigures.h"

#include <QColor>
#include <QStringList>

#include <algorithm>

using nlohmann::json;

namespace radt {

namespace {

const QColor kWarningBackground(255, 236, 179);
const QString kWarningMark = QStringLiteral("⚠ ");

/// The table's columns, in its order: the run's name, the params that tell the runs apart, then
/// the figures of runFigures() that are in the view.
std::vector<RunTableColumn> runTableColumns(const json& report) {
    std::vector<RunTableColumn> out;
    for (const insight::RunFigure& f : insight::runFigures()) {
        if (!f.inView)
            continue;
        out.push_back({&f, QString()});
        if (out.size() == 1 && report.is_object())
            for (const json& name : report.value("telling_params", json::array()))
                out.push_back({nullptr, QString::fromStdString(name.get<std::string>())});
    }
    return out;
}

/// Each telling param's values, ranked in the order configurations are (numbers as numbers).
std::map<std::string, std::map<std::string, double>> paramRanks(const json& report) {
    std::map<std::string, std::map<std::string, double>> ranks;
    for (const json& name : report.value("telling_params", json::array())) {
        std::vector<std::string> values;
        for (const json& r : report["runs"])
            values.push_back(
                r.value("telling", json::object()).value(name.get<std::string>(), std::string()));
        std::sort(values.begin(), values.end(), paramValueBefore);
        auto& rank = ranks[name.get<std::string>()];
        for (const std::string& v : values)
            rank.emplace(v, double(rank.size()));
    }
    return ranks;
}

} // namespace

InsightRunsModel::InsightRunsModel(QObject* parent) : QAbstractTableModel(parent) {
    m_columns = runTableColumns(json());
}

QString InsightRunsModel::exportHeader(const insight::RunFigure& f) {
    // One unit down a column, said once in its header, as `radt report`'s per-run table and the
    // CSV (s and J, never "0:00:18.5" beside "1.2 h").
    const QString title = QString::fromUtf8(f.title), unit = QString::fromUtf8(insight::unitSymbol(f.unit));
    return unit.isEmpty() || title.endsWith(unit) ? title : title + QLatin1Char(' ') + unit;
}

void InsightRunsModel::setReport(const json& report) {
    beginResetModel();
    m_columns = runTableColumns(report);
    const bool valid = report.is_object() && report.contains("runs");
    m_runs = valid ? report["runs"] : json::array();
    m_paramRanks = valid ? paramRanks(report) : decltype(m_paramRanks){};
    m_tellingParams = report.is_object() ? report.value("telling_params", json::array()).size() : 0;
    endResetModel();
}

int InsightRunsModel::figureColumn(const char* key) const {
    const int c = insight::viewColumn(key);
    return c > 0 ? c + int(m_tellingParams) : c;
}

int InsightRunsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_runs.size());
}

int InsightRunsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant InsightRunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= int(m_columns.size()))
        return QAbstractTableModel::headerData(section, orientation, role);
    const RunTableColumn& c = m_columns[size_t(section)];
    if (role == Qt::DisplayRole)
        return c.figure ? tr(exportHeader(*c.figure).toUtf8().constData()) : c.param;
    if (role == Qt::ToolTipRole)
        return c.figure ? tr("Exported and copied as \"%1\", in %2")
                              .arg(exportHeader(*c.figure),
                                   c.figure->unit == insight::Unit::Text
                                       ? tr("text")
                                       : QString::fromUtf8(insight::unitSymbol(c.figure->unit)))
                        : tr("The param %1: one of those that tell these runs apart").arg(c.param);
    return {};
}

QVariant InsightRunsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_runs.size()) || index.column() >= int(m_columns.size()))
        return {};
    const json& run = m_runs[size_t(index.row())];
    if (role == UuidRole)
        return QString::fromStdString(run.value("run_uuid", std::string()));
    const RunTableColumn& column = m_columns[size_t(index.column())];
    if (role == Qt::ToolTipRole) {
        const QString own =
            (column.figure ? figureData(run, column, role) : paramData(run, column.param, role)).toString();
        return extraToolTip(run, index.column(), own);
    }
    QVariant value = column.figure ? figureData(run, column, role) : paramData(run, column.param, role);
    // The energy cell's caveats (⚠ and amber) only for the roles that show them: sorting and the
    // other roles of every cell need not look at them.
    const bool marks = role == Qt::DisplayRole || role == Qt::BackgroundRole;
    if (marks && column.figure && index.column() == figureColumn("gpu_energy_j") &&
        !energyCaveats(run).isEmpty()) {
        if (role == Qt::BackgroundRole)
            return kWarningBackground;
        if (!value.toString().startsWith(kWarningMark))
            return kWarningMark + value.toString();
    }
    return value;
}

QVariant InsightRunsModel::figureData(const json& r, const RunTableColumn& column, int role) const {
    const insight::RunFigure& f = *column.figure;
    json v = f.value(r);
    if (!v.is_null() && !v.is_string() && !v.is_number())
        v = v.dump(); // not what a figure gives: shown as it is rather than thrown while painting
    const bool flagged = f.flagged && f.flagged(r);
    switch (role) {
    case Qt::DisplayRole: {
        const QString text = v.is_null()     ? QStringLiteral("–")
                             : v.is_string() ? QString::fromStdString(v.get<std::string>())
                                             : QString::number(v.get<double>(), 'f', f.decimals);
        return flagged ? kWarningMark + text : text;
    }
    case SortRole:
        if (v.is_null())
            return f.unit == insight::Unit::Text ? QVariant(QString()) : QVariant(-1e300);
        return v.is_string() ? QVariant(QString::fromStdString(v.get<std::string>()))
                             : QVariant(v.get<double>());
    case RawRole:
        return v.is_number() ? QVariant(v.get<double>()) : QVariant();
    case Qt::TextAlignmentRole:
        return v.is_number() ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::ToolTipRole:
        if (v.is_null())
            return QString::fromStdString(insight::whyBlank(f, r));
        if (v.is_number() && insight::scaledByMagnitude(f.unit)) // the magnitude a person says
            return QString::fromStdString(insight::formatForPeople(v.get<double>(), f.unit, f.decimals));
        return QString();
    case Qt::BackgroundRole:
        return flagged ? QVariant(kWarningBackground) : QVariant();
    default:
        return {};
    }
}

QVariant InsightRunsModel::paramData(const json& r, const QString& param, int role) const {
    const std::string value = r.value("telling", json::object()).value(param.toStdString(), std::string());
    const QString text = value.empty() ? QStringLiteral("–") : QString::fromStdString(value);
    switch (role) {
    case Qt::DisplayRole:
        return text;
    case SortRole: {
        const auto ranks = m_paramRanks.find(param.toStdString());
        if (ranks == m_paramRanks.end())
            return text;
        const auto rank = ranks->second.find(value);
        return rank == ranks->second.end() ? QVariant(text) : QVariant(rank->second);
    }
    case Qt::ToolTipRole:
        return value.empty() ? tr("%1 is not set for this run").arg(param)
                             : QStringLiteral("%1=%2").arg(param, text);
    default:
        return {};
    }
}

QString InsightRunsModel::extraToolTip(const json& r, int column, const QString& own) const {
    if (column == 0) { // the name, and the uuid that tells runs of one name apart
        const json name = m_columns[0].figure->value(r);
        return (name.is_string() ? QString::fromStdString(name.get<std::string>()) : QStringLiteral("–")) +
               QLatin1Char('\n') + QString::fromStdString(r.value("run_uuid", std::string()));
    }
    if (column == figureColumn("experiment")) { // cut in the middle when long: whole here
        const json experiment = m_columns[size_t(column)].figure->value(r);
        return experiment.is_string() ? QString::fromStdString(experiment.get<std::string>()) : own;
    }
    if (column == figureColumn("util_smact_gap_pp") && r.value("util_smact_flag", false) &&
        r.value("util_smact_gap_pp", json()).is_number())
        return tr("GPU utilisation is %1 percentage points above SM activity: the GPU looked busy, "
                  "but most of its SMs were idle.")
            .arg(r["util_smact_gap_pp"].get<double>(), 0, 'f', 0);
    if (column != figureColumn("gpu_energy_j"))
        return own;
    QString tip = own;
    if (const json& shared = r.value("collocation", json());
        shared.is_object() && r.value("gpu_energy_device_j", json()).is_number())
        tip = tr("Its share of GPU %1, which it shared with %n other run(s): each moment's energy split "
                 "equally among the runs active then. The whole GPU used %2 J over this run's time.",
                 nullptr, int(shared.value("shared_with", json::array()).size()))
                  .arg(QString::fromStdString(shared.value("device", std::string("?"))))
                  .arg(r["gpu_energy_device_j"].get<double>(), 0, 'f', 1);
    const QStringList caveats = energyCaveats(r);
    if (caveats.isEmpty())
        return tip;
    const QString source =
        r.value("gpu_energy_source", json()).is_string()
            ? tr("Source: %1.").arg(QString::fromStdString(r["gpu_energy_source"].get<std::string>()))
            : QString();
    return (QStringList{tip, source} + caveats).join(QLatin1Char('\n')).trimmed();
}

QStringList InsightRunsModel::energyCaveats(const json& r) {
    // What a reader of the energy figure must know: the cross-check when it is off, readings left
    // out, a counter replaced by power, a window wider than the run.
    QStringList caveats;
    // The cells are made while the view paints: a field missing from a report read from elsewhere
    // is left out of the sentence, never thrown.
    const json check = r.value("energy_check", json());
    const auto number = [&](const char* key) {
        return check.value(key, json()).is_number() ? check[key].get<double>() : 0.0;
    };
    if (r.value("energy_check_flag", false) && check.is_object())
        caveats << tr("The energy counter says %1 J, integrated power %2 J: %3 % apart.")
                       .arg(number("counter_j"), 0, 'f', 0)
                       .arg(number("power_j"), 0, 'f', 0)
                       .arg(number("disagreement_pct"), 0, 'f', 1);
    for (const json& note : r.value("energy_notes", json::array()))
        if (note.is_string())
            caveats << QString::fromStdString(note.get<std::string>());
    if (const json note = r.value("window_note", json()); note.is_string())
        caveats << QString::fromStdString(note.get<std::string>());
    return caveats;
}

} // namespace radt
