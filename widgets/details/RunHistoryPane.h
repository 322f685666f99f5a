// SPDX-License-Identifier: MIT
#pragma once
// The run page's History tab: the run judged against the earlier finished runs of its
// configuration (core/report/RunJudgement, computed off the GUI thread by RunDetailsController):
// the verdict in a sentence, per figure the run's value, the history's mean and 95 % prediction
// interval in the figure's unit, the ratio and the verdict, the history's N and the environment it
// differs in; "Overlay on its history" charts the run over its configuration's mean and band.

#include <nlohmann/json.hpp>

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace radt {

class RunHistoryPane : public QWidget {
    Q_OBJECT
public:
    explicit RunHistoryPane(QWidget* parent = nullptr);

    /// A judgement as judgeRun makes it.
    void setJudgement(const nlohmann::json& judgement);
    /// No judgement to show: why (being computed, no store, a read that failed).
    void setMessage(const QString& message);
    /// The run the judgement shown is of ("" while none).
    const QString& runUuid() const { return m_runUuid; }
    QString sentence() const;
    QTableWidget* table() const { return m_table; }

signals:
    /// The run and its history's runs, to be charted with the run apart from its history's mean.
    void overlayRequested(const QString& runUuid, const QStringList& historyUuids);

private:
    QLabel* m_sentence;
    QTableWidget* m_table;
    QLabel* m_note;
    QPushButton* m_overlay;
    QString m_runUuid;
    QStringList m_history;
};

} // namespace radt
