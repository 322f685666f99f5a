// SPDX-License-Identifier: MIT
#include "widgets/details/RunHistoryPane.h"

#include "core/base/TextFormat.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace radt {

using nlohmann::json;

namespace {

QString reading(const json& value, const std::string& unit) {
    return value.is_number() ? QString::fromStdString(formatReading(value.get<double>()) + " " + unit)
                             : QStringLiteral("–");
}

} // namespace

RunHistoryPane::RunHistoryPane(QWidget* parent)
    : QWidget(parent), m_sentence(new QLabel(this)), m_table(new QTableWidget(0, 6, this)),
      m_note(new QLabel(this)), m_overlay(new QPushButton(tr("Overlay on Its History"), this)) {
    setObjectName(QStringLiteral("runHistory"));
    m_sentence->setObjectName(QStringLiteral("runHistorySentence"));
    m_sentence->setWordWrap(true);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setHorizontalHeaderLabels({tr("Figure"), tr("This run"), tr("History mean"),
                                        tr("95 % prediction interval"), tr("Ratio"), tr("Verdict")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_overlay->setToolTip(tr("Put the run and its history in the basket and chart the run apart from its "
                             "history's mean and band (Group lines > Per configuration)"));
    m_overlay->setEnabled(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_sentence);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_note);
    layout->addWidget(m_overlay, 0, Qt::AlignLeft);
    connect(m_overlay, &QPushButton::clicked, this, [this] { emit overlayRequested(m_runUuid, m_history); });
    setMessage(tr("Choose a run."));
}

QString RunHistoryPane::sentence() const {
    return m_sentence->text();
}

void RunHistoryPane::setMessage(const QString& message) {
    m_sentence->setText(message);
    m_table->setRowCount(0);
    m_note->clear();
    m_overlay->setEnabled(false);
    m_runUuid.clear();
    m_history.clear();
}

void RunHistoryPane::setJudgement(const json& judgement) {
    m_runUuid = QString::fromStdString(judgement.value("run_uuid", std::string()));
    m_history.clear();
    for (const json& uuid : judgement["history"]["runs"])
        m_history << QString::fromStdString(uuid.get<std::string>());
    const std::string verdict = judgement.value("verdict", std::string());
    // The sentence first, the verdict's colour on it: what a reader came for.
    const QString colour = verdict == "outside"  ? QStringLiteral("#b35c00")
                           : verdict == "normal" ? QStringLiteral("#1b7a1b")
                                                 : QStringLiteral("#555555");
    m_sentence->setText(
        QStringLiteral("<b style='color:%1'>%2</b>")
            .arg(colour, QString::fromStdString(judgement.value("sentence", std::string())).toHtmlEscaped()));
    const json& figures = judgement["figures"];
    m_table->setRowCount(int(figures.size()));
    for (int r = 0; r < int(figures.size()); ++r) {
        const json& f = figures[size_t(r)];
        const std::string unit = f.value("unit", std::string());
        const std::string v = f.value("verdict", std::string());
        const QString interval =
            f["interval"].is_array()
                ? QString::fromStdString(formatReading(f["interval"][0].get<double>()) + " to " +
                                         formatReading(f["interval"][1].get<double>()) + " " + unit)
                : QStringLiteral("–");
        const std::string full = f.value("words", std::string());
        const QString words =
            v == "above" || v == "below" // "⚠ slower": the rest is the sentence's
                ? QStringLiteral("⚠ ") + QString::fromStdString(full.substr(0, full.find(" than ")))
                : v == "normal" ? tr("normal")
                                : tr("not judged: %1")
                                      .arg(QString::fromStdString(
                                          f["why"].is_string() ? f["why"].get<std::string>() : ""));
        const QStringList cells = {
            QString::fromStdString(f.value("label", std::string())),
            reading(f["value"], unit),
            reading(f["mean"], unit),
            interval,
            f["ratio"].is_number() ? QString::number(f["ratio"].get<double>(), 'f', 2) + QStringLiteral("×")
                                   : QStringLiteral("–"),
            words};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(c == 5 && !full.empty() ? QString::fromStdString(full) : cells[c]);
            if (c >= 1 && c <= 4)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    const json& history = judgement["history"];
    QString note =
        tr("History: N = %1 earlier finished runs of its configuration (%2), the latest %3 at most; "
           "outside the interval by less than %4 % of the mean is normal.")
            .arg(history.value("n", 0))
            .arg(QString::fromStdString(judgement["configuration"].is_string()
                                            ? judgement["configuration"].get<std::string>()
                                            : std::string("-")))
            .arg(history.value("at_most", 0))
            .arg(QString::fromStdString(formatReading(judgement.value("min_change", 0.0) * 100)));
    const json& environment = judgement["environment"];
    if (environment.is_object() && !environment.value("differs", json::array()).empty()) {
        QStringList items;
        for (const json& d : environment["differs"])
            items << QString::fromStdString(d.value("item", std::string()));
        note += tr("\nThe environment differs between the run and its history: %1.")
                    .arg(items.join(QStringLiteral(", ")));
    }
    m_note->setText(note);
    m_overlay->setEnabled(!m_history.isEmpty());
}

} // namespace radt
