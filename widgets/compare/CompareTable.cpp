// SPDX-License-Identifier: MIT
#include "widgets/compare/CompareTable.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/ConfigurationLabels.h"
#include "widgets/common/Formatting.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

namespace radt {

namespace {

const QString kNone = QStringLiteral("(none)");

} // namespace

QString CompareColumn::unitSymbol() const {
    return QString::fromLatin1(insight::unitSymbol(unit));
}

QString CompareColumn::header() const {
    const QString symbol = unitSymbol();
    return symbol.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, symbol);
}

QString CompareColumn::text(size_t run) const {
    const double v = run < values.size() ? values[run] : kMissing;
    if (!std::isfinite(v))
        return QStringLiteral("—");
    if (isCategorical())
        return categories.value(int(v));
    if (unit == insight::Unit::Count) // a metric: as many digits as it needs
        return QString::number(v, 'g', 6);
    const insight::RunFigure* figure = nullptr;
    for (const insight::RunFigure* f : numericFigures())
        if (id == QStringLiteral("figure:") + QLatin1String(f->key))
            figure = f;
    QString shown = QString::fromStdString(insight::formatForPeople(v, unit, figure ? figure->decimals : 2));
    if (!insight::scaledByMagnitude(unit) && !unitSymbol().isEmpty())
        shown += QLatin1Char(' ') + unitSymbol();
    return shown;
}

QString CompareColumn::csvCell(size_t run) const {
    const double v = run < values.size() ? values[run] : kMissing;
    if (!std::isfinite(v))
        return QString();
    if (isCategorical())
        return categories.value(int(v));
    return QString::number(v, 'g', 12);
}

size_t CompareColumn::present() const {
    return size_t(std::count_if(values.begin(), values.end(), [](double v) { return std::isfinite(v); }));
}

int CompareTable::column(const QString& id) const {
    for (size_t i = 0; i < columns.size(); ++i)
        if (columns[i].id == id)
            return int(i);
    return -1;
}

bool CompareRun::countsAsRepeat() const {
    return radt::countsAsRepeat(status);
}

QString CompareTable::runLabel(size_t run) const {
    QStringList parts;
    for (const CompareColumn& c : columns)
        if (c.isCategorical())
            parts << QStringLiteral("%1=%2").arg(c.title, c.text(run));
    QString label = parts.isEmpty() ? runs[run].name : parts.join(QStringLiteral(", "));
    if (!runs[run].countsAsRepeat())
        label += QStringLiteral(" (%1: not in its configuration's figures)")
                     .arg(QString::fromLatin1(toString(runs[run].status)));
    return label;
}

bool categoryLess(const QString& a, const QString& b) {
    if (a == kNone || b == kNone)
        return a == kNone && b != kNone; // a run without the param: unset, first as in the report
    return paramValueBefore(a.toStdString(), b.toStdString());
}

std::vector<std::string> differingParams(const std::vector<Run>& runs) {
    std::set<std::string> names;
    for (const Run& r : runs)
        for (const auto& [key, value] : r.params)
            names.insert(key);
    std::vector<std::string> out;
    for (const std::string& name : names) {
        const bool bookkeeping =
            name == "params" ||
            std::find(kBookkeepingParams.begin(), kBookkeepingParams.end(), name) != kBookkeepingParams.end();
        if (bookkeeping || runs.empty())
            continue;
        const auto valueOf = [&](const Run& r) {
            const auto it = r.params.find(name);
            return it == r.params.end() ? std::optional<std::string>() : std::optional(it->second);
        };
        const auto first = valueOf(runs.front());
        if (std::any_of(runs.begin(), runs.end(), [&](const Run& r) { return valueOf(r) != first; }))
            out.push_back(name);
    }
    return out;
}

CompareColumn paramColumn(const std::vector<Run>& runs, const std::string& param) {
    CompareColumn c;
    c.id = QStringLiteral("param:") + toQString(param);
    c.title = toQString(param);
    c.kind = ColumnKind::Categorical;
    QStringList texts;
    for (const Run& r : runs) {
        const auto it = r.params.find(param);
        texts << (it == r.params.end() ? kNone : toQString(it->second));
    }
    QStringList categories = texts;
    categories.removeDuplicates();
    std::sort(categories.begin(), categories.end(), categoryLess);
    c.categories = categories;
    for (const QString& t : texts)
        c.values.push_back(double(categories.indexOf(t)));
    return c;
}

std::vector<const insight::RunFigure*> numericFigures() {
    std::vector<const insight::RunFigure*> out;
    for (const insight::RunFigure& f : insight::runFigures())
        if (f.unit != insight::Unit::Text && f.inView && f.unit != insight::Unit::WattHours)
            out.push_back(&f);
    return out;
}

CompareColumn figureColumn(const std::vector<Run>& runs, const nlohmann::json& report,
                           const std::string& key) {
    const insight::RunFigure& figure = insight::runFigure(key);
    CompareColumn c;
    c.id = QStringLiteral("figure:") + toQString(key);
    c.title = QString::fromUtf8(figure.title);
    c.unit = figure.unit;
    std::map<std::string, const nlohmann::json*> byUuid;
    if (report.is_object() && report.contains("runs"))
        for (const nlohmann::json& r : report["runs"])
            if (r.contains("run_uuid") && r["run_uuid"].is_string())
                byUuid[r["run_uuid"].get<std::string>()] = &r;
    for (const Run& r : runs) {
        double v = CompareColumn::kMissing;
        if (const auto it = byUuid.find(r.uuid); it != byUuid.end() && figure.value) {
            const nlohmann::json value = figure.value(*it->second);
            if (value.is_number())
                v = value.get<double>();
        }
        c.values.push_back(v);
    }
    return c;
}

QString statName(MetricStat stat) {
    switch (stat) {
    case MetricStat::Last:
        return QStringLiteral("last");
    case MetricStat::Mean:
        return QStringLiteral("mean");
    case MetricStat::Min:
        return QStringLiteral("min");
    case MetricStat::Max:
        return QStringLiteral("max");
    }
    return QString();
}

QString metricColumnId(const QString& key, MetricStat stat) {
    return QStringLiteral("metric:%1:%2").arg(statName(stat), key);
}

CompareColumn metricColumn(const QString& key, MetricStat stat, const std::vector<SeriesStats>& stats) {
    CompareColumn c;
    c.id = metricColumnId(key, stat);
    c.title = QStringLiteral("%1 (%2)").arg(key, statName(stat));
    for (const SeriesStats& s : stats) {
        const double v = stat == MetricStat::Last   ? s.last
                         : stat == MetricStat::Mean ? s.mean
                         : stat == MetricStat::Min  ? s.min
                                                    : s.max;
        c.values.push_back(s.samples > 0 && std::isfinite(v) ? v : CompareColumn::kMissing);
    }
    return c;
}

CompareTable buildCompareTable(const std::vector<Run>& runs, const nlohmann::json& report,
                               const std::map<QString, std::vector<SeriesStats>>& metricStats) {
    CompareTable table;
    for (const Run& r : runs)
        table.runs.push_back({toQString(r.uuid), toQString(r.name), r.experimentId, r.params, {}, r.status});
    for (const std::string& param : differingParams(runs))
        table.columns.push_back(paramColumn(runs, param));
    for (const insight::RunFigure* f : numericFigures()) {
        CompareColumn c = figureColumn(runs, report, f->key);
        if (c.present() > 0)
            table.columns.push_back(std::move(c));
    }
    for (const auto& [key, stats] : metricStats) {
        if (stats.size() != runs.size())
            continue;
        for (MetricStat s : {MetricStat::Last, MetricStat::Mean, MetricStat::Min, MetricStat::Max})
            table.columns.push_back(metricColumn(key, s, stats));
    }
    return table;
}

namespace {

/// Both missing, or equal: one category for a configuration's runs.
bool sameValue(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

/// Each configuration's rows in `runs` (the report's order), with its index and label; those
/// whose runs are all absent from the table are left out.
std::vector<std::tuple<size_t, QString, std::vector<size_t>>>
configurationRows(const CompareTable& runs, const nlohmann::json& report) {
    std::map<QString, size_t> rowOf;
    for (size_t i = 0; i < runs.runs.size(); ++i)
        rowOf[runs.runs[i].uuid] = i;
    std::vector<std::tuple<size_t, QString, std::vector<size_t>>> out;
    if (!report.is_object() || !report.contains("configurations"))
        return out;
    const nlohmann::json& configurations = report["configurations"];
    for (size_t k = 0; k < configurations.size(); ++k) {
        std::vector<size_t> rows;
        for (const nlohmann::json& uuid : configurations[k]["runs"])
            if (const auto it = rowOf.find(QString::fromStdString(uuid.get<std::string>()));
                it != rowOf.end())
                rows.push_back(it->second);
        if (!rows.empty())
            out.emplace_back(
                k, QString::fromStdString(configurations[k].value("label", "#" + std::to_string(k))),
                std::move(rows));
    }
    return out;
}

} // namespace

CompareTable configurationTable(const CompareTable& runs, const nlohmann::json& report) {
    const auto configurations = configurationRows(runs, report);
    CompareTable out;
    for (const auto& [k, label, rows] : configurations) {
        CompareRun row;
        row.uuid = QStringLiteral("config:%1").arg(k);
        row.name = QStringLiteral("%1 (N=%2)").arg(label).arg(rows.size());
        row.experimentId = runs.runs[rows.front()].experimentId;
        row.params = runs.runs[rows.front()].params;
        for (const size_t r : rows) {
            row.members << runs.runs[r].uuid;
            for (auto it = row.params.begin(); it != row.params.end();) // what its runs share
                it = runs.runs[r].params.count(it->first) && runs.runs[r].params.at(it->first) == it->second
                         ? std::next(it)
                         : row.params.erase(it);
        }
        out.runs.push_back(std::move(row));
    }
    for (const CompareColumn& column : runs.columns) {
        CompareColumn c = column;
        c.values.clear();
        bool agree = true;
        for (const auto& entry : configurations) {
            const std::vector<size_t>& rows = std::get<2>(entry);
            if (column.isCategorical()) {
                const double first = column.values[rows.front()];
                for (const size_t r : rows)
                    agree = agree && sameValue(first, column.values[r]);
                c.values.push_back(first);
                continue;
            }
            double sum = 0;
            size_t n = 0;
            for (const size_t r : rows)
                if (std::isfinite(column.values[r])) {
                    sum += column.values[r];
                    ++n;
                }
            c.values.push_back(n > 0 ? sum / double(n) : CompareColumn::kMissing);
        }
        if (agree)
            out.columns.push_back(std::move(c));
    }
    return out;
}

} // namespace radt
