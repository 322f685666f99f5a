#include "ChartCard.h"

#include "ChartPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

namespace radt {

ChartCard::ChartCard(QWidget* parent) : QWidget(parent), m_chart(new ChartPanel(this)) {
    m_smoothing = new QSlider(Qt::Horizontal, this);
    m_smoothing->setRange(0, 99);
    m_smoothing->setMinimumWidth(90);
    m_smoothing->setMaximumWidth(160);
    m_smoothing->setToolTip(tr("Smoothing (radT's exponential moving average), 0-99 %"));
    m_smoothingValue = new QLabel(QStringLiteral("0 %"), this);
    m_smoothingValue->setMinimumWidth(36);
    m_runs = new QToolButton(this);
    m_runs->setText(tr("Runs"));
    m_runs->setToolTip(tr("Show a workload's runs one by one instead of merged"));
    m_runs->setPopupMode(QToolButton::InstantPopup);
    m_runs->setMenu(new QMenu(m_runs));
    m_logY = new QCheckBox(tr("Log y"), this);
    m_mono = new QCheckBox(tr("Monochrome"), this);
    m_width = new QDoubleSpinBox(this);
    m_width->setRange(0.5, 8);
    m_width->setSingleStep(0.5);
    m_width->setPrefix(tr("width "));
    m_xAxis = new QComboBox(this);
    m_xAxis->addItem(tr("time since start"));
    m_xAxis->addItem(tr("step"));
    m_resetZoom = new QToolButton(this);
    m_resetZoom->setText(tr("Reset zoom"));
    m_resetZoom->setToolTip(tr("Drag across the chart to zoom into a time range"));

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(new QLabel(tr("Smoothing"), this));
    bar->addWidget(m_smoothing);
    bar->addWidget(m_smoothingValue);
    bar->addWidget(m_runs);
    bar->addWidget(m_logY);
    bar->addWidget(m_mono);
    bar->addWidget(m_width);
    bar->addWidget(m_xAxis);
    bar->addStretch(1);
    bar->addWidget(m_resetZoom);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_chart, 1);

    connect(m_smoothing, &QSlider::valueChanged, this, [this](int v) {
        m_smoothingValue->setText(QStringLiteral("%1 %").arg(v));
        m_chart->setSmoothing(v);
    });
    connect(m_logY, &QCheckBox::toggled, m_chart, &ChartPanel::setLogY);
    connect(m_mono, &QCheckBox::toggled, m_chart, &ChartPanel::setMonochrome);
    connect(m_width, qOverload<double>(&QDoubleSpinBox::valueChanged), m_chart, &ChartPanel::setLineWidth);
    connect(m_xAxis, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        m_chart->setXAxis(i == 1 ? ChartOptions::XAxis::Step : ChartOptions::XAxis::SinceStart);
    });
    connect(m_resetZoom, &QToolButton::clicked, m_chart, &ChartPanel::resetZoom);
    connect(m_runs->menu(), &QMenu::aboutToShow, this, &ChartCard::rebuildRunsMenu);
    connect(m_chart, &ChartPanel::optionsChanged, this, &ChartCard::syncFromChart);
    syncFromChart();
}

void ChartCard::syncFromChart() {
    const ChartOptions& o = m_chart->options();
    const QSignalBlocker b1(m_smoothing), b2(m_logY), b3(m_mono), b4(m_width), b5(m_xAxis);
    m_smoothing->setValue(o.smoothing);
    m_smoothingValue->setText(QStringLiteral("%1 %").arg(o.smoothing));
    m_logY->setChecked(o.logY);
    m_mono->setChecked(o.monochrome);
    m_width->setValue(o.lineWidth);
    m_xAxis->setCurrentIndex(o.xAxis == ChartOptions::XAxis::Step ? 1 : 0);
}

void ChartCard::rebuildRunsMenu() {
    QMenu* menu = m_runs->menu();
    menu->clear();
    const QStringList keys = m_chart->workloadKeys();
    if (keys.isEmpty())
        menu->addAction(tr("(no workloads)"))->setEnabled(false);
    for (const QString& key : keys) {
        // "<experiment>-<workload>": the workload id is what users know it by.
        QAction* action = menu->addAction(tr("Workload %1: individual runs").arg(key.section(QLatin1Char('-'), 1)));
        action->setCheckable(true);
        action->setChecked(m_chart->options().shownRuns.count(key) > 0);
        connect(action, &QAction::toggled, this, [this, key](bool on) { m_chart->setShowRuns(key, on); });
    }
}

} // namespace radt
