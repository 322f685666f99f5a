// SPDX-License-Identifier: MIT
// Before any Qt header: the collector names a member `emit`, which Qt defines as a macro.
#include "collector/listeners/ListenerTable.h"
#include "widgets/common/FileDialogs.h"

#include "widgets/launch/LaunchDialog.h"

#include "collector/ExperimentCsv.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace radt {

LaunchDialog::LaunchDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Launch a workload"));
    m_target = new QLineEdit(this);
    m_target->setPlaceholderText(tr("train.py, a program, or an experiment .csv"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(m_target, 1);
    targetRow->addWidget(browse);
    m_args = new QLineEdit(this);
    m_args->setPlaceholderText(tr("--batch-size 256 --epochs 10"));

    // Listeners: what this machine can run is enabled; the rest say why not.
    auto* listenerGrid = new QGridLayout;
    int i = 0;
    for (const ListenerAvailability& l : listenerAvailability()) {
        auto* box = new QCheckBox(QString::fromStdString(l.name), this);
        box->setEnabled(l.available);
        box->setToolTip(QString::fromStdString(l.detail));
        box->setChecked(l.available && (l.name == "top" || l.name == "proc" || l.name == "smi"));
        m_listeners[QString::fromStdString(l.name)] = box;
        listenerGrid->addWidget(box, i / 5, i % 5);
        ++i;
    }
    m_devices = new QLineEdit(QStringLiteral("0"), this);
    m_devices->setToolTip(tr("GPU indices joined by '+', e.g. 0+1"));
    m_collocation = new QComboBox(this);
    m_collocation->setEditable(true);
    m_collocation->addItems({QStringLiteral("-"), QStringLiteral("MPS"), QStringLiteral("1g.10gb"),
                             QStringLiteral("2g.20gb"), QStringLiteral("3g.40gb"),
                             QStringLiteral("7g.80gb")});
    m_collocation->setToolTip(
        tr("'-' alone on the GPU, MPS, or a MIG profile (recorded; set-up is done by experiment CSVs)"));
    m_experiment = new QLineEdit(QStringLiteral("0"), this);
    m_experiment->setToolTip(tr("An experiment id, or a name (created when new)"));
    m_workload = new QLineEdit(this);
    m_workload->setPlaceholderText(tr("next free number"));
    m_epochs = new QSpinBox(this);
    m_epochs->setRange(0, 1000000);
    m_epochs->setSpecialValueText(tr("no limit"));
    m_minutes = new QDoubleSpinBox(this);
    m_minutes->setRange(0, 100000);
    m_minutes->setDecimals(1);
    m_minutes->setSuffix(tr(" min"));
    m_minutes->setSpecialValueText(tr("no limit"));
    m_rerun = new QCheckBox(tr("Run FAILED workloads again"), this);
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("Script or CSV"), targetRow);
    form->addRow(tr("Arguments"), m_args);
    form->addRow(tr("Listeners"), listenerGrid);
    form->addRow(tr("Devices"), m_devices);
    form->addRow(tr("Collocation"), m_collocation);
    form->addRow(tr("Experiment"), m_experiment);
    form->addRow(tr("Workload"), m_workload);
    form->addRow(tr("Epochs"), m_epochs);
    form->addRow(tr("Time limit"), m_minutes);
    form->addRow(QString(), m_rerun);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Launch"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_hint);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &LaunchDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, &LaunchDialog::browse);
    connect(m_target, &QLineEdit::textChanged, this, &LaunchDialog::updateForTarget);
    updateForTarget();
}

QCheckBox* LaunchDialog::listenerBox(const QString& name) const {
    auto it = m_listeners.find(name);
    return it == m_listeners.end() ? nullptr : it->second;
}

void LaunchDialog::browse() {
    const QString file = openFileName(this, QStringLiteral("scripts"), tr("Script or experiment CSV"),
                                      tr("Python scripts and experiments (*.py *.csv);;All files (*)"));
    if (!file.isEmpty())
        m_target->setText(file);
}

void LaunchDialog::updateForTarget() {
    const bool csv = m_target->text().trimmed().endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive);
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_args, m_devices, m_collocation, m_experiment, m_workload})
        w->setEnabled(!csv);
    m_rerun->setEnabled(csv);
    m_hint->setText(csv ? tr("An experiment CSV names its experiments, workloads, devices, collocation and "
                             "listeners per row; epochs and the time limit apply to every run.")
                        : QString());
}

bool LaunchDialog::request(LaunchRequest& out, QString* error) const {
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    LaunchRequest r;
    r.target = m_target->text().trimmed().toStdString();
    if (r.target.empty())
        return fail(tr("Choose a script or an experiment CSV file."));
    const std::string why = splitShellWords(m_args->text().toStdString(), r.args);
    if (!why.empty())
        return fail(tr("Arguments: %1").arg(QString::fromStdString(why)));
    QStringList listeners;
    for (const auto& [name, box] : m_listeners)
        if (box->isEnabled() && box->isChecked())
            listeners << name;
    r.options.listeners = listeners.join(QLatin1Char('+')).toStdString();
    r.options.devices = m_devices->text().trimmed().toStdString();
    r.options.collocation = m_collocation->currentText().trimmed().toStdString();
    r.options.experiment = m_experiment->text().trimmed().toStdString();
    r.options.workload = m_workload->text().trimmed().toStdString();
    r.options.maxEpoch = m_epochs->value();
    r.options.maxTimeMinutes = m_minutes->value();
    r.rerun = m_rerun->isChecked();
    if (r.options.experiment.empty())
        return fail(tr("Experiment: give an id or a name."));
    try {
        if (!r.options.listeners.empty())
            parseListeners(r.options.listeners);
    } catch (const std::exception& e) {
        return fail(tr("Listeners: %1").arg(QString::fromStdString(e.what())));
    }
    out = std::move(r);
    return true;
}

void LaunchDialog::accept() {
    LaunchRequest r;
    QString error;
    if (!request(r, &error)) {
        QMessageBox::warning(this, windowTitle(), error);
        return;
    }
    QDialog::accept();
}

} // namespace radt
