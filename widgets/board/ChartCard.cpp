// SPDX-License-Identifier: MIT
#include "widgets/board/ChartCard.h"

#include "core/analysis/ConfigurationInsight.h"
#include "core/analysis/ConfigurationLabels.h"
#include "widgets/chart/engine/ChartEngine.h"
#include "widgets/chart/engine/ChartOptionsJson.h"

#include "widgets/chart/ChartPanel.h"

#include <QActionGroup>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>
#include <set>

namespace radt {

namespace {

/// One checkable action per value of an option's name table, the current one checked.
template <typename E, typename Choose>
void addChoices(QMenu* menu, const std::vector<OptionName<E>>& table, E current, Choose choose) {
    auto* group = new QActionGroup(menu);
    for (const auto& [value, name, label, tip] : table) {
        QAction* action = menu->addAction(QCoreApplication::translate("radt::ChartCard", label));
        action->setCheckable(true);
        action->setActionGroup(group);
        action->setChecked(current == value);
        if (tip)
            action->setToolTip(QCoreApplication::translate("radt::ChartCard", tip));
        QObject::connect(action, &QAction::triggered, menu, [choose, value = value] { choose(value); });
    }
    menu->setToolTipsVisible(true);
}

/// The params the chart's runs have, as a group can be made of them: logged by name or flags of
/// the script's argument string; radT's bookkeeping left out.
QStringList groupableParams(const ChartEngine& engine) {
    std::set<std::string> names;
    for (const ChartRunData& r : engine.runs())
        for (const auto& entry : readableParams(r.run.params))
            if (std::find(kBookkeepingParams.begin(), kBookkeepingParams.end(), entry.first) ==
                kBookkeepingParams.end())
                names.insert(entry.first);
    QStringList out;
    for (const std::string& name : names)
        out << QString::fromStdString(name);
    return out;
}

/// Asks which params make a group; unset when cancelled or none is picked.
std::optional<std::vector<std::string>> pickGroupParams(QWidget* parent, const QStringList& names,
                                                        const std::vector<std::string>& chosen) {
    QDialog dialog(parent);
    dialog.setWindowTitle(ChartCard::tr("Group Lines by Params"));
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(ChartCard::tr("Runs that share these params make one line:"), &dialog));
    auto* list = new QListWidget(&dialog);
    list->setObjectName(QStringLiteral("groupParams"));
    for (const QString& name : names) {
        auto* item = new QListWidgetItem(name, list);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool on = std::find(chosen.begin(), chosen.end(), name.toStdString()) != chosen.end();
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    layout->addWidget(list);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    std::vector<std::string> picked;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            picked.push_back(list->item(i)->text().toStdString());
    return picked.empty() ? std::nullopt : std::optional<std::vector<std::string>>(picked);
}

} // namespace

ChartCard::ChartCard(QWidget* parent) : QWidget(parent), m_chart(new ChartPanel(this)) {
    createControls();
    layOut();
    connectControls();
    syncFromChart();
}

void ChartCard::createControls() {
    m_smoothing = new QSlider(Qt::Horizontal, this);
    m_smoothing->setRange(0, 99);
    m_smoothing->setMinimumWidth(50);
    m_smoothing->setMaximumWidth(160);
    m_smoothing->setToolTip(tr("Smoothing (radT's exponential moving average), 0-99 %"));
    // The slider is quick, the spin box precise (the slider's 99 steps in ~70 px jump).
    m_smoothingValue = new QSpinBox(this);
    m_smoothingValue->setRange(0, 99);
    m_smoothingValue->setSuffix(QStringLiteral(" %"));
    m_smoothingValue->setToolTip(m_smoothing->toolTip());
    m_runs = new QToolButton(this);
    m_runs->setText(tr("Runs"));
    m_runs->setToolTip(
        tr("Show a workload's runs one by one instead of merged, or merged as their mean with a band"));
    m_runs->setPopupMode(QToolButton::InstantPopup);
    m_runs->setMenu(new QMenu(m_runs));
    m_logY = new QCheckBox(tr("Log y"), this);
    m_mono = new QCheckBox(tr("Mono"), this);
    m_mono->setToolTip(tr("Monochrome: black lines told apart by dash patterns, for print"));
    m_width = new QDoubleSpinBox(this);
    m_width->setRange(0.5, 8);
    m_width->setSingleStep(0.5);
    m_width->setToolTip(tr("Line width"));
    m_xAxis = new QComboBox(this);
    for (const auto& axis : xAxisNames()) {
        m_xAxis->addItem(tr(axis.label), int(axis.value));
        if (axis.tip)
            m_xAxis->setItemData(m_xAxis->count() - 1, tr(axis.tip), Qt::ToolTipRole);
    }
    m_xAxis->setToolTip(tr("x axis: time since each run's start, the logged step, or the time of day"));
    m_resetZoom = new QToolButton(this);
    m_resetZoom->setText(tr("Reset"));
    m_resetZoom->setToolTip(tr("Reset zoom (drag across the chart to zoom into a range)"));
    m_remove = new QToolButton(this);
    m_remove->setText(QStringLiteral("\u2715"));
    m_remove->setToolTip(tr("Remove this chart from the board"));
}

void ChartCard::layOut() {
    // The options overflow into the toolbar's » menu when the chart is narrow (three columns, a
    // small screen); Reset and close stay visible.
    m_options = new QToolBar(this);
    m_options->setObjectName(QStringLiteral("chartOptions"));
    m_options->setIconSize(QSize(12, 12));
    m_options->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_options->setStyleSheet(QStringLiteral("QToolBar { border: 0px; spacing: 4px; }"));
    m_options->addWidget(new QLabel(tr("Smooth"), this));
    m_options->addWidget(m_smoothing);
    m_options->addWidget(m_smoothingValue);
    m_options->addWidget(m_runs);
    m_options->addWidget(m_logY);
    m_options->addWidget(m_mono);
    m_options->addWidget(m_width);
    m_options->addWidget(m_xAxis);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_options, 1);
    bar->addWidget(m_resetZoom);
    bar->addWidget(m_remove);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_chart, 1);
}

void ChartCard::connectControls() {
    connect(m_smoothingValue, qOverload<int>(&QSpinBox::valueChanged), m_smoothing, &QSlider::setValue);
    connect(m_smoothing, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker quiet(m_smoothingValue);
        m_smoothingValue->setValue(v);
        m_chart->changeOptions([&](ChartOptions& o) { o.smoothing = v; });
    });
    connect(m_logY, &QCheckBox::toggled, m_chart,
            [this](bool on) { m_chart->changeOptions([on](ChartOptions& o) { o.logY = on; }); });
    connect(m_mono, &QCheckBox::toggled, m_chart,
            [this](bool on) { m_chart->changeOptions([on](ChartOptions& o) { o.monochrome = on; }); });
    connect(m_width, qOverload<double>(&QDoubleSpinBox::valueChanged), m_chart, [this](double width) {
        m_chart->changeOptions([width](ChartOptions& o) { o.lineWidth = width; });
    });
    connect(m_xAxis, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        m_chart->changeOptions(
            [&](ChartOptions& o) { o.xAxis = ChartOptions::XAxis(m_xAxis->currentData().toInt()); });
    });
    connect(m_resetZoom, &QToolButton::clicked, m_chart, &ChartPanel::resetZoom);
    connect(m_runs->menu(), &QMenu::aboutToShow, this, &ChartCard::rebuildRunsMenu);
    connect(m_chart, &ChartPanel::optionsChanged, this, &ChartCard::syncFromChart);
    connect(m_remove, &QToolButton::clicked, this, &ChartCard::removeRequested);
    // A click anywhere in the chart makes it the board's current chart.
    m_chart->chartView()->viewport()->installEventFilter(this);
    // A double-click on the chart or on the bar's empty room (its controls keep theirs) maximises
    // the chart, as a window's title bar does; again to bring everything back.
    m_options->installEventFilter(this);
}

bool ChartCard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::MouseButtonPress)
        emit activated();
    if (event->type() == QEvent::MouseButtonDblClick &&
        static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton) {
        emit activated();
        emit maximiseRequested();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ChartCard::mouseDoubleClickEvent(QMouseEvent* event) {
    // The card's own room around the bar and the chart: as the bar.
    emit activated();
    emit maximiseRequested();
    event->accept();
}

void ChartCard::setCurrent(bool current) {
    // A frame around the current chart: the one the metric list plots into.
    setStyleSheet(current ? QStringLiteral("radt--ChartCard { border: 2px solid palette(highlight); }")
                          : QString());
    setAttribute(Qt::WA_StyledBackground, true);
}

void ChartCard::syncFromChart() {
    const ChartOptions& o = m_chart->engine().options();
    const QSignalBlocker b1(m_smoothing), b2(m_logY), b3(m_mono), b4(m_width), b5(m_xAxis);
    m_smoothing->setValue(o.smoothing);
    const QSignalBlocker b6(m_smoothingValue);
    m_smoothingValue->setValue(o.smoothing);
    m_logY->setChecked(o.logY);
    m_mono->setChecked(o.monochrome);
    m_width->setValue(o.lineWidth);
    m_xAxis->setCurrentIndex(m_xAxis->findData(int(o.xAxis)));
}

void ChartCard::rebuildRunsMenu() {
    QMenu* menu = m_runs->menu();
    menu->clear();
    const QStringList keys = workloadKeys(m_chart->engine());
    if (keys.isEmpty())
        menu->addAction(tr("(no workloads)"))->setEnabled(false);
    for (const QString& key : keys) {
        QAction* action =
            menu->addAction(tr("%1: individual runs").arg(workloadTitle(m_chart->engine(), key)));
        action->setCheckable(true);
        action->setChecked(m_chart->engine().options().shownRuns.count(key) > 0);
        connect(action, &QAction::toggled, this, [this, key](bool on) {
            m_chart->changeOptions([&](ChartOptions& o) {
                if (on)
                    o.shownRuns.insert(key);
                else
                    o.shownRuns.erase(key);
            });
        });
    }
    menu->addSection(tr("Group lines"));
    addChoices(
        menu, groupingNames(), m_chart->engine().options().grouping, [this](ChartOptions::Grouping value) {
            std::vector<std::string> params = m_chart->engine().options().groupParams;
            if (value == ChartOptions::Grouping::Params) {
                const auto picked = pickGroupParams(this, groupableParams(m_chart->engine()), params);
                if (!picked)
                    return; // the menu is made again when it next opens: the choice before stays checked
                params = *picked;
            }
            m_chart->changeOptions([&](ChartOptions& o) {
                o.grouping = value;
                o.groupParams = params;
            });
        });
    menu->addSection(tr("Band around a mean of runs"));
    addChoices(menu, bandNames(), m_chart->engine().options().band, [this](ChartOptions::Band value) {
        m_chart->changeOptions([&](ChartOptions& o) { o.band = value; });
    });
    menu->addSection(tr("Merged workloads"));
    addChoices(menu, aggregateNames(), m_chart->engine().options().aggregate,
               [this](ChartOptions::Aggregate value) {
                   m_chart->changeOptions([&](ChartOptions& o) { o.aggregate = value; });
               });
    menu->addSection(tr("Dense lines (over %1 points a pixel)").arg(kDensePointsPerColumn));
    addChoices(menu, denseNames(), m_chart->engine().options().dense, [this](ChartOptions::Dense value) {
        m_chart->changeOptions([&](ChartOptions& o) { o.dense = value; });
    });
    menu->addSeparator();
    QAction* radtIds = menu->addAction(tr("Name lines by radT ids"));
    radtIds->setToolTip(tr("radT's names (\"1-3\", \"1-3 0_A\") instead of run names and differing params"));
    radtIds->setCheckable(true);
    radtIds->setChecked(m_chart->engine().options().naming == ChartOptions::Naming::RadtIds);
    connect(radtIds, &QAction::toggled, this, [this](bool on) {
        m_chart->changeOptions([&](ChartOptions& o) {
            o.naming = on ? ChartOptions::Naming::RadtIds : ChartOptions::Naming::Readable;
        });
    });
}

} // namespace radt
