// SPDX-License-Identifier: MIT
#pragma once
// Launch a workload from the explorer: a script with its arguments, or an experiment CSV; the
// listeners this machine can run (the others are shown disabled, with the reason), devices,
// collocation, experiment and workload ids, epoch and time limits. As `radt` takes them.

#include "widgets/launch/LaunchController.h"

#include <QDialog>

#include <map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace radt {

class LaunchDialog : public QDialog {
    Q_OBJECT
public:
    explicit LaunchDialog(QWidget* parent = nullptr);

    /// The request the form describes; on a form error returns false with the reason.
    bool request(LaunchRequest& out, QString* error) const;

    QLineEdit* targetEdit() const { return m_target; }
    QLineEdit* argumentsEdit() const { return m_args; }
    QLineEdit* experimentEdit() const { return m_experiment; }
    QCheckBox* listenerBox(const QString& name) const;
    QSpinBox* epochsBox() const { return m_epochs; }
    QDoubleSpinBox* minutesBox() const { return m_minutes; }

    void accept() override; ///< refuses (with a message) a form that request() refuses

private:
    void browse();
    void updateForTarget(); ///< CSV files carry their own settings: the per-run fields are disabled

    QLineEdit* m_target;
    QLineEdit* m_args;
    std::map<QString, QCheckBox*> m_listeners;
    QLineEdit* m_devices;
    QComboBox* m_collocation;
    QLineEdit* m_experiment;
    QLineEdit* m_workload;
    QSpinBox* m_epochs;
    QDoubleSpinBox* m_minutes;
    QCheckBox* m_rerun;
    QLabel* m_hint;
};

} // namespace radt
