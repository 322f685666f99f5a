// SPDX-License-Identifier: MIT
#include "widgets/chart/SummaryModel.h"

#include "core/base/MetricUnits.h"
#include "widgets/common/Formatting.h"

#include <QLocale>

#include <cmath>
#include <set>

namespace radt {

namespace {

bool isStatisticColumn(int column) {
    return column >= SummaryModel::MinColumn && column <= SummaryModel::LastColumn;
}

double statistic(const SeriesStats& stats, int column) {
    switch (column) {
    case SummaryModel::MinColumn:
        return stats.min;
    case SummaryModel::MeanColumn:
        return stats.mean;
    case SummaryModel::P50Column:
        return stats.p50;
    case SummaryModel::P95Column:
        return stats.p95;
    case SummaryModel::MaxColumn:
        return stats.max;
    case SummaryModel::LastColumn:
        return stats.last;
    }
    return SeriesStats::NaN;
}

QString text(const SummaryRow& row, int column) {
    switch (column) {
    case SummaryModel::RunColumn:
        return row.label;
    case SummaryModel::LineColumn:
        return row.line;
    case SummaryModel::ExperimentColumn:
        return row.experiment;
    case SummaryModel::WorkloadColumn:
        return row.workload;
    case SummaryModel::LetterColumn:
        return row.letter;
    case SummaryModel::MetricColumn:
        return row.metric;
    }
    return QString();
}

// A tab or line break inside a name would shift every later cell of a pasted TSV.
QString tsvField(QString field) {
    for (QChar& c : field) {
        if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'))
            c = QLatin1Char(' ');
    }
    return field;
}

// Natural order, case-insensitive: "10 a" after "2 a". Written out because QCollator's numeric
// mode is ignored under the C locale, where servers and CI run.
int naturalCompare(const QString& a, const QString& b) {
    int i = 0;
    int j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            int ei = i;
            int ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            while (i < ei - 1 && a[i] == QLatin1Char('0'))
                ++i;
            while (j < ej - 1 && b[j] == QLatin1Char('0'))
                ++j;
            // Same-length digit runs compare as text; a longer run is the larger number.
            if (ei - i != ej - j)
                return (ei - i) < (ej - j) ? -1 : 1;
            const int digits = QStringRef(&a, i, ei - i).compare(QStringRef(&b, j, ej - j));
            if (digits != 0)
                return digits;
            i = ei;
            j = ej;
            continue;
        }
        const QChar x = a[i].toCaseFolded();
        const QChar y = b[j].toCaseFolded();
        if (x != y)
            return x < y ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size() || j < b.size())
        return i < a.size() ? 1 : -1;
    return 0;
}

} // namespace

SummaryModel::SummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void SummaryModel::setRows(std::vector<SummaryRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

QString SummaryModel::formatValue(double value) {
    if (std::isnan(value))
        return QStringLiteral("—");
    return QString::number(value, 'g', 4);
}

QString SummaryModel::toTsv(const QModelIndexList& selection) const {
    std::vector<int> order;
    if (selection.isEmpty()) {
        for (int r = 0; r < rowCount(); ++r)
            order.push_back(r);
    } else {
        std::set<int> seen;
        for (const QModelIndex& index : selection) {
            if (index.isValid() && index.model() == this && seen.insert(index.row()).second)
                order.push_back(index.row());
        }
    }
    QStringList header;
    for (int column = 0; column < NUM_COLUMNS; ++column)
        header.append(headerData(column, Qt::Horizontal).toString());
    QString out = header.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (int r : order) {
        const SummaryRow& summary = m_rows[static_cast<size_t>(r)];
        QStringList cells;
        for (int column = RunColumn; column <= MetricColumn; ++column)
            cells.append(tsvField(text(summary, column)));
        for (int column = MinColumn; column <= LastColumn; ++column) {
            const double value = statistic(summary.stats, column);
            // asprintf formats with the C locale: a decimal comma would break the columns' meaning.
            cells.append(std::isnan(value) ? QString() : QString::asprintf("%.10g", value));
        }
        cells.append(QString::number(static_cast<qlonglong>(summary.stats.durationMs)));
        cells.append(QString::number(static_cast<qulonglong>(summary.stats.samples)));
        out += cells.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return out;
}

int SummaryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SummaryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant SummaryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= NUM_COLUMNS)
        return QVariant();
    const SummaryRow& summary = m_rows[static_cast<size_t>(index.row())];
    const int column = index.column();
    const SeriesStats& stats = summary.stats;
    switch (role) {
    case Qt::DisplayRole:
        if (isStatisticColumn(column))
            return formatValue(statistic(stats, column));
        if (column == MetricColumn) // "SMI - Power Draw (W)": the unit of every number in the row
            return QString::fromStdString(keyWithUnit(summary.metric.toStdString()));
        if (column == DurationColumn)
            return toQString(formatDuration(stats.durationMs));
        if (column == SamplesColumn)
            return static_cast<qulonglong>(stats.samples);
        return text(summary, column);
    case SortRole:
        if (isStatisticColumn(column))
            return statistic(stats, column);
        if (column == DurationColumn)
            return static_cast<qlonglong>(stats.durationMs);
        if (column == SamplesColumn)
            return static_cast<qulonglong>(stats.samples);
        return text(summary, column);
    case Qt::ToolTipRole:
        if (isStatisticColumn(column)) {
            const double value = statistic(stats, column);
            const std::optional<MetricUnit> unit = unitOfKey(summary.metric.toStdString());
            return std::isnan(value) ? tr("No finite values")
                                     : QString::number(value, 'g', QLocale::FloatingPointShortest) +
                                           (unit && !unit->symbol.empty()
                                                ? QLatin1Char(' ') + QString::fromStdString(unit->symbol)
                                                : QString());
        }
        if (column == DurationColumn)
            return tr("%1 ms").arg(static_cast<qlonglong>(stats.durationMs));
        if (column == RunColumn)
            return tr("Run %1").arg(toQString(summary.runUuid));
        return QVariant();
    case Qt::TextAlignmentRole:
        if (column >= MinColumn)
            return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant();
    case RunUuidRole:
        return toQString(summary.runUuid);
    }
    return QVariant();
}

QVariant SummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QVariant();
    if (role == Qt::TextAlignmentRole && section >= MinColumn)
        return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return QVariant();
    switch (section) {
    case RunColumn:
        return tr("Run");
    case LineColumn:
        return tr("Line");
    case ExperimentColumn:
        return tr("Experiment");
    case WorkloadColumn:
        return tr("Workload");
    case LetterColumn:
        return tr("Letter");
    case MetricColumn:
        return tr("Metric");
    case MinColumn:
        return tr("Min");
    case MeanColumn:
        return tr("Mean");
    case P50Column:
        return tr("P50");
    case P95Column:
        return tr("P95");
    case MaxColumn:
        return tr("Max");
    case LastColumn:
        return tr("Last");
    case DurationColumn:
        return tr("Duration");
    case SamplesColumn:
        return tr("Samples");
    }
    return QVariant();
}

SummarySortProxy::SummarySortProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SummaryModel::SortRole);
}

bool SummarySortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    if (a.userType() == QMetaType::Double && b.userType() == QMetaType::Double) {
        const double x = a.toDouble();
        const double y = b.toDouble();
        if (std::isnan(x) || std::isnan(y)) {
            // A descending sort asks lessThan(right, left): NaN must then be the smaller one to
            // end up last. Two NaNs are equal, and the stable sort keeps their model order.
            return sortOrder() == Qt::AscendingOrder ? !std::isnan(x) : !std::isnan(y);
        }
        return x < y;
    }
    if (a.userType() == QMetaType::QString && b.userType() == QMetaType::QString)
        return naturalCompare(a.toString(), b.toString()) < 0;
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace radt
