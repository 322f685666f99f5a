#include "ChartPanel.h"

#include "Formatting.h"
#include "SeriesDecimation.h"
#include "Store.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QPainter>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <limits>
#include <map>

using namespace QtCharts;

namespace radt {

namespace {

// Below this many points per pixel column a line is drawn as is (DESIGN §8).
constexpr int kPointsPerColumn = 2;

} // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent), m_chart(new QChart), m_x(new QValueAxis(this)), m_y(new QValueAxis(this)) {
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setVisible(true);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setMargins(QMargins(8, 8, 16, 8));
    m_chart->setBackgroundRoundness(0);

    m_x->setTitleText(tr("time since start (s)"));
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing, true);
    m_view->setMinimumSize(320, 240);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);

    // A resize re-decimates once the user stops dragging, not on every pixel.
    m_resizeTimer.setSingleShot(true);
    m_resizeTimer.setInterval(60);
    connect(&m_resizeTimer, &QTimer::timeout, this, [this] { redecimate(); });
    clear();
}

QString ChartPanel::seriesLabel(const Run& run) {
    if (run.workload().empty())
        return run.name.empty() ? toQString(run.uuid.substr(0, 8)) : toQString(run.name);
    QString label = toQString(run.workload());
    if (!run.letter().empty())
        label += QLatin1Char(' ') + toQString(run.letter());
    return label;
}

void ChartPanel::plot(Store& store, const std::vector<Run>& runs, const std::string& metricKey) {
    // Read everything first so that a store error leaves the chart as it was.
    std::vector<Line> lines;
    std::map<QString, int> labelUses;
    for (const Run& run : runs) {
        // A server store reduces large series where they are: at most 2 points per bucket, with
        // room to spare for a wider window; the local decimation below does the rest.
        const Series series = store.prefersEnvelopes()
                                  ? store.seriesEnvelope(run.uuid, metricKey, std::nullopt, 4 * plotColumns())
                                  : store.series(run.uuid, metricKey);
        if (series.empty())
            continue;
        const int64_t origin = run.startTime > 0 ? run.startTime : series.t.front();
        Line line{seriesLabel(run), toChartPoints(series, origin)};
        if (line.points.isEmpty())
            continue;
        ++labelUses[line.name];
        lines.push_back(std::move(line));
    }
    // Two runs named alike (same workload and letter in two experiments) must stay apart.
    for (size_t i = 0; i < lines.size(); ++i) {
        if (labelUses[lines[i].name] > 1)
            lines[i].name += QStringLiteral(" #%1").arg(i + 1);
    }
    m_lines = std::move(lines);
    m_key = toQString(metricKey);
    rebuild();
}

void ChartPanel::clear(const QString& hint) {
    m_lines.clear();
    m_key.clear();
    rebuild();
    m_chart->setTitle(hint.isEmpty() ? tr("Add runs to the basket and choose a metric") : hint);
}

int ChartPanel::plotColumns() const {
    const int plotWidth = static_cast<int>(m_chart->plotArea().width());
    // Before the first layout the plot area is empty: estimate it from the view.
    const int width = plotWidth > 50 ? plotWidth : m_view->width() - 80;
    return std::max(width, 200);
}

void ChartPanel::rebuild() {
    m_chart->removeAllSeries();
    m_columns = plotColumns();
    for (const Line& line : m_lines) {
        auto* series = new QLineSeries;
        series->setName(line.name);
        series->replace(decimateMinMax(line.points, m_columns));
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    }
    if (m_lines.empty() && !m_key.isEmpty())
        m_chart->setTitle(tr("No data for \"%1\" in the basket's runs").arg(m_key));
    else
        m_chart->setTitle(QString());
    updateAxes();
}

void ChartPanel::redecimate() {
    const int columns = plotColumns();
    if (columns == m_columns)
        return;
    const auto series = m_chart->series();
    bool anyDecimated = false;
    for (size_t i = 0; i < m_lines.size() && i < static_cast<size_t>(series.size()); ++i) {
        const int n = m_lines[i].points.size();
        if (n > kPointsPerColumn * std::min(columns, m_columns))
            anyDecimated = true;
    }
    m_columns = columns;
    if (!anyDecimated)
        return;
    for (size_t i = 0; i < m_lines.size() && i < static_cast<size_t>(series.size()); ++i)
        static_cast<QLineSeries*>(series[static_cast<int>(i)])
            ->replace(decimateMinMax(m_lines[i].points, columns));
}

void ChartPanel::updateAxes() {
    const bool hasData = !m_lines.empty();
    m_x->setVisible(hasData);
    m_y->setVisible(hasData);
    m_chart->legend()->setVisible(hasData);
    m_y->setTitleText(m_key);
    if (!hasData)
        return;
    double xMin = 0;
    double xMax = 0;
    double yMin = std::numeric_limits<double>::max();
    double yMax = std::numeric_limits<double>::lowest();
    for (const Line& line : m_lines) {
        xMin = std::min(xMin, line.points.first().x());
        xMax = std::max(xMax, line.points.last().x());
        for (const QPointF& p : line.points) {
            yMin = std::min(yMin, p.y());
            yMax = std::max(yMax, p.y());
        }
    }
    if (xMax <= xMin)
        xMax = xMin + 1;
    if (yMax <= yMin) {
        const double pad = yMin == 0 ? 1 : std::abs(yMin) * 0.1;
        yMin -= pad;
        yMax += pad;
    }
    m_x->setRange(xMin, xMax);
    m_y->setRange(yMin, yMax);
    // applyNiceNumbers rounds to the tick count it is given: 7 x ticks read well at any width.
    m_x->setTickCount(7);
    m_y->setTickCount(6);
    m_x->applyNiceNumbers();
    m_y->applyNiceNumbers();
}

int ChartPanel::seriesCount() const {
    return m_chart->series().size();
}

QStringList ChartPanel::seriesNames() const {
    QStringList names;
    for (const QAbstractSeries* series : m_chart->series())
        names.append(series->name());
    return names;
}

int ChartPanel::pointCount(int series) const {
    const auto all = m_chart->series();
    if (series < 0 || series >= all.size())
        return 0;
    return static_cast<const QLineSeries*>(all[series])->count();
}

QImage ChartPanel::renderToImage(const QSize& size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    // Lay the chart out at the requested size inside its scene, draw it, then put it back, so
    // the same code serves a hidden panel (tests, exports) and one on screen.
    const QSizeF oldSize = m_chart->size();
    m_chart->resize(size);
    m_chart->layout()->activate();
    redecimate();
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setRenderHint(QPainter::TextAntialiasing, true);
        m_chart->scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(m_chart->pos(), size));
    }
    m_chart->resize(oldSize);
    m_chart->layout()->activate();
    redecimate();
    return image;
}

void ChartPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!m_lines.empty())
        m_resizeTimer.start();
}

} // namespace radt
